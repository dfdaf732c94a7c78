#pragma once

#include <QStringList>

#include <cstdio>

namespace structscope::bench {

/// Settings shared by every section of the `bench` executable.
struct BenchArgs
{
    int records = 0; ///< 0: each section's own default
    QStringList sections;
};

/// Prints one result line: "<section>  <what>  <value> <unit>" (the lines docs/performance.md quotes).
void report(const char* section, const QString& what, double value, const char* unit);

int benchScoring(const BenchArgs& args);
int benchImport(const BenchArgs& args);
int benchRunner(const BenchArgs& args);
int benchStore(const BenchArgs& args);

} // namespace structscope::bench
