// SPDX-License-Identifier: Apache-2.0
// `bench`: throughput of the paths users wait on. Run it from an optimised build:
//   cmake --preset release && cmake --build --preset release --target bench && build/release/tests/bench/bench
// Sections: scoring (grounding family on SOB-like records, 1 and 2 threads), import (SOB files → store →
// report, end to end), runner (requests to serve-sim at concurrency 64, 0 ms and 50 ms latency), store (a store of
// 1,000,000 responses: open to leaderboard, re-score, gold edit, new metric, peak memory), and in builds with the GUI
// cases (the Cases page scrolled over all rows of that store). `bench SECTION… [--records N]`; no section runs them
// all.
#include "bench.h"

#ifdef STRUCTSCOPE_BENCH_GUI
#include <QApplication>
#else
#include <QCoreApplication>
#include <QFileInfo>
#endif
#include <QTextStream>

#include <functional>
#include <map>

using namespace Qt::StringLiterals;

namespace structscope::bench {

void report(const char* section, const QString& what, double value, const char* unit)
{
    std::printf("%-10s %-58s %14.1f %s\n", section, qPrintable(what), value, unit);
    std::fflush(stdout);
}

} // namespace structscope::bench

int main(int argc, char** argv)
{
#ifdef STRUCTSCOPE_BENCH_GUI
    QApplication app(argc, argv);
#else
    QCoreApplication app(argc, argv);
#endif
    using namespace structscope::bench;
    const std::map<QString, std::function<int(const BenchArgs&)>> sections = {
        { u"scoring"_s, benchScoring },
        { u"import"_s, benchImport },
        { u"runner"_s, benchRunner },
        { u"store"_s, benchStore },
        { u"open"_s, benchOpen },
#ifdef STRUCTSCOPE_BENCH_GUI
        { u"cases"_s, benchCases },
#endif
    };
    BenchArgs args;
    const QStringList argList = app.arguments().mid(1);
    for (qsizetype i = 0; i < argList.size(); ++i) {
        const QString& arg = argList.at(i);
        if (arg == u"--records"_s && i + 1 < argList.size()) {
            bool ok = false;
            args.records = argList.at(++i).toInt(&ok);
            if (!ok || args.records < 1) {
                std::fprintf(stderr, "bench: --records needs a positive number\n");
                return 2;
            }
        } else if (arg == u"--keep-sob"_s && i + 1 < argList.size()) {
            args.keepSobFile = argList.at(++i);
        } else if (sections.count(arg)) {
            args.sections << arg;
        } else if (QFileInfo(arg).isDir()) {
            args.sobFolder = arg;
        } else {
            std::fprintf(stderr,
                "bench: unknown argument '%s'\nusage: bench [scoring|import|runner|store|open|cases]... [--records N] "
                "[--keep-sob FILE] [FOLDER] (cases: GUI builds only; --keep-sob: import also writes its SOB file "
                "there; FOLDER: import reads the SOB response files in it, e.g. SOB's data/images_responses, instead "
                "of generated ones)\n",
                qPrintable(arg));
            return 2;
        }
    }
    if (args.sections.isEmpty()) {
        for (const auto& [name, run] : sections)
            args.sections << name;
    }
    int status = 0;
    for (const QString& name : std::as_const(args.sections))
        status |= sections.at(name)(args);
    return status;
}
