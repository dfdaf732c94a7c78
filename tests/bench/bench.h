// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QStringList>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <optional>
#include <vector>

namespace structscope {
class ResultStore;
struct Report;
}

namespace structscope::bench {

/// Settings shared by every section of the `bench` executable.
struct BenchArgs
{
    int records = 0; ///< 0: each section's own default
    QString keepSobFile; ///< import: also write the generated SOB file here and keep it (for timing the command)
    QString sobFolder; ///< import: SOB response files (*.jsonl) to read instead of generated ones, e.g. SOB's own
    QStringList sections;
};

/// Prints one result line: "<section>  <what>  <value> <unit>" (the lines docs/performance.md quotes).
void report(const char* section, const QString& what, double value, const char* unit);

/// The size of a generated store: 20 models × 5 strategies × `cases` × 5 repeats = `total` responses.
struct BenchStoreShape
{
    int cases = 0;
    qint64 total = 0;
};
/// The path of the generated store of about `responses` responses, generating it first when missing: in $TMPDIR
/// from 100,000 responses on (kept for later runs), else in `scratch`. Empty, and why, on failure.
QString ensureBenchStore(int responses, const QTemporaryDir& scratch, QString* error, BenchStoreShape* shape = nullptr);

/// The process's peak resident memory so far.
double peakRssMiB();

/// The first 16 hex digits of SHA-256 over the report's JSON: a change that must not alter any figure (a faster
/// aggregate, another way of storing an import) prints the same digests.
QString reportDigest(const Report& report);

/// The q-quantile (0 ≤ q ≤ 1) of `values` by the nearest rank below, as the bench reports latencies and frame
/// times; 0 for no values. Sorts a copy.
double quantile(std::vector<double> values, double q);

/// The gold edit the benchmarks make: the first string value of a case's gold changed (so that answers
/// which matched it no longer do), to be stored as a new revision over `revision` and undone afterwards with
/// `original`, so that every run starts from the same gold.
struct BenchGoldEdit
{
    qint64 caseRow = 0;
    int revision = 0;
    nlohmann::json original;
    nlohmann::json edited;
};
/// An edit of the gold of case `which` of `of` spread evenly over the first suite's cases (the first case for 0 of 1).
std::optional<BenchGoldEdit> benchGoldEdit(ResultStore& store, QString* error, int which = 0, int of = 1);

int benchScoring(const BenchArgs& args);
int benchImport(const BenchArgs& args);
int benchRunner(const BenchArgs& args);
int benchStore(const BenchArgs& args);
int benchOpen(const BenchArgs& args);
#ifdef STRUCTSCOPE_BENCH_GUI
int benchCases(const BenchArgs& args);
#endif

} // namespace structscope::bench
