// SPDX-License-Identifier: Apache-2.0
// Import → report, end to end, as `structscope import` then `structscope report --format json` do it:
// SOB response files into a new SQLite store, then scoring, aggregation and the JSON report; then again with the
// import keeping its verdicts (the commands' default) and the report reading them; and last as `structscope report
// --sob` does it, scoring the file without a store, as SOB's own evaluator works.
#include "bench.h"
#include "sobgen.h"

#include "io/sobimporter.h"
#include "report/evaluation.h"
#include "report/reportwriter.h"
#include "report/sobevaluation.h"
#include "store/resultstore.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <ctime>

using namespace Qt::StringLiterals;

namespace structscope::bench {

namespace {

/// CPU time of the whole process (every thread): unlike wall time, not inflated by other load on the machine.
double processCpuSeconds()
{
    timespec ts {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

} // namespace

int benchImport(const BenchArgs& args)
{
    SobGenOptions gen;
    gen.records = args.records > 0 ? args.records : 7000;
    gen.seed = 7;
    QTemporaryDir dir;
    const auto writeLines = [](const QString& path, const std::vector<std::string>& content) {
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly)) {
            std::fprintf(stderr, "bench import: cannot write %s\n", qPrintable(path));
            return false;
        }
        for (const std::string& line : content) {
            out.write(line.data(), qint64(line.size()));
            out.write("\n", 1);
        }
        return true;
    };
    // The files: SOB's own (or any folder of SOB response files) when one is given, else generated.
    QStringList files;
    qint64 lineCount = 0;
    double megabytes = 0;
    if (!args.sobFolder.isEmpty()) {
        const QDir folder(args.sobFolder);
        for (const QString& name : folder.entryList({ u"*.jsonl"_s }, QDir::Files, QDir::Name))
            files << folder.filePath(name);
        if (files.isEmpty()) {
            std::fprintf(stderr, "bench import: no *.jsonl files in %s\n", qPrintable(args.sobFolder));
            return 1;
        }
        for (const QString& name : std::as_const(files)) {
            QFile in(name);
            if (!in.open(QIODevice::ReadOnly)) {
                std::fprintf(stderr, "bench import: cannot read %s\n", qPrintable(name));
                return 1;
            }
            while (!in.atEnd()) {
                if (!in.readLine().trimmed().isEmpty())
                    ++lineCount;
            }
            megabytes += double(in.size()) / 1e6;
        }
        std::printf("import     %lld SOB records in %lld files of %s\n", lineCount, qint64(files.size()),
            qPrintable(args.sobFolder));
    } else {
        const std::vector<std::string> lines = generateSobLines(gen);
        const QString file = dir.filePath(u"response_model-0.jsonl"_s);
        if (!writeLines(file, lines))
            return 1;
        files << file;
        lineCount = qint64(lines.size());
        megabytes = double(QFileInfo(file).size()) / 1e6;
        if (!args.keepSobFile.isEmpty()) {
            QFile::remove(args.keepSobFile);
            if (!QFile::copy(file, args.keepSobFile)) {
                std::fprintf(stderr, "bench import: cannot write %s\n", qPrintable(args.keepSobFile));
                return 1;
            }
        }
    }

    // First (in a fresh process, as the command runs), without a store: the file read, checked and scored in memory,
    // then the same report as from a store — the same digest. What SOB's own evaluator does.
    AggregateOptions fileAggregate;
    fileAggregate.families = { "grounding" };
    QElapsedTimer fileTimer;
    fileTimer.start();
    const double cpuFiles = processCpuSeconds();
    double commandSeconds = 0; // what the command waits for: it leaves freeing the records to the process's end
    double readFileSeconds = 0;
    double readFileCpu = 0;
    double scoreFileSeconds = 0;
    double fileReportSeconds = 0;
    QString fileDigest;
    {
        const SobRecords held = readSobFiles(files);
        readFileSeconds = double(fileTimer.nsecsElapsed()) / 1e9;
        readFileCpu = processCpuSeconds() - cpuFiles;
        if (!held.summary.ok() || held.summary.responses != lineCount) {
            std::fprintf(stderr, "bench import: without a store, %lld of %lld records read\n", held.summary.responses,
                lineCount);
            return 1;
        }
        QElapsedTimer fileStep;
        fileStep.start();
        EvaluationOptions asTheCommand; // report --sob: a report, no field tallies
        asTheCommand.fieldTallies = false;
        const Evaluation fromFile = evaluateSobRecords(held, asTheCommand);
        scoreFileSeconds = double(fileStep.nsecsElapsed()) / 1e9;
        fileStep.restart();
        const Report fileReport = aggregate(fromFile.records, fileAggregate);
        const ReportText fileText = writeReport(fileReport, "json");
        fileReportSeconds = double(fileStep.nsecsElapsed()) / 1e9;
        if (!fromFile.ok() || !fileText.ok()) {
            std::fprintf(stderr, "bench import: without a store: %s\n", qPrintable(fromFile.error));
            return 1;
        }
        fileDigest = reportDigest(fileReport);
        commandSeconds = double(fileTimer.nsecsElapsed()) / 1e9;
    } // what it held is freed here; the command leaves that to the end of its process
    const double fileTotal = double(fileTimer.nsecsElapsed()) / 1e9;
    const double fileCpu = processCpuSeconds() - cpuFiles;
    report("import", u"without a store (report --sob): read + check the file"_s, readFileSeconds * 1000.0, "ms");
    report("import", u"  its CPU time (all threads)"_s, readFileCpu * 1000.0, "ms");
    report("import", u"  score every response"_s, scoreFileSeconds * 1000.0, "ms");
    report("import", u"  aggregate (bootstrap CIs) + JSON report"_s, fileReportSeconds * 1000.0, "ms");
    report("import", u"  end to end, as the command (freeing left to exit)"_s, commandSeconds * 1000.0, "ms");
    report("import", u"  end to end throughput"_s, double(lineCount) / commandSeconds, "records/s");
    report("import", u"  end to end, freeing what it held included"_s, fileTotal * 1000.0, "ms");
    report("import", u"  CPU time (all threads, freeing included)"_s, fileCpu * 1000.0, "ms");
    std::printf("import     report digest without a store %s\n", qPrintable(fileDigest));

    QElapsedTimer total;
    total.start();
    const double cpuStart = processCpuSeconds();
    double cpuMark = cpuStart;
    const auto cpuStep = [&cpuMark] {
        const double now = processCpuSeconds();
        const double used = now - cpuMark;
        cpuMark = now;
        return used;
    };
    QString error;
    auto store = ResultStore::open(dir.filePath(u"bench.db"_s), &error);
    if (!store) {
        std::fprintf(stderr, "bench import: %s\n", qPrintable(error));
        return 1;
    }
    QElapsedTimer step;
    step.start();
    const ImportSummary summary = importSobFiles(*store, files);
    const double importSeconds = double(step.nsecsElapsed()) / 1e9;
    const double importCpu = cpuStep();
    if (!summary.ok() || summary.responses != lineCount) {
        std::fprintf(stderr, "bench import: imported %lld of %lld records\n", summary.responses, lineCount);
        return 1;
    }
    step.restart();
    const Evaluation evaluation = evaluateStore(*store);
    const double scoreSeconds = double(step.nsecsElapsed()) / 1e9;
    const double scoreCpu = cpuStep();
    step.restart();
    AggregateOptions aggregateOptions;
    aggregateOptions.families = { "grounding" };
    const Report aggregated = aggregate(evaluation.records, aggregateOptions);
    const ReportText text = writeReport(aggregated, "json");
    const double reportSeconds = double(step.nsecsElapsed()) / 1e9;
    const double reportCpu = cpuStep();
    const double seconds = double(total.nsecsElapsed()) / 1e9;
    const double cpu = cpuMark - cpuStart;
    if (!evaluation.ok() || !text.ok()) {
        std::fprintf(stderr, "bench import: %s\n", qPrintable(evaluation.error));
        return 1;
    }
    const QString what = u"%1 records, %2 MB"_s.arg(lineCount).arg(megabytes, 0, 'f', 1);
    report("import", u"open store + import SOB file (%1)"_s.arg(what), importSeconds * 1000.0, "ms");
    report("import", u"  CPU time (all threads)"_s, importCpu * 1000.0, "ms");
    report("import", u"read + score every response"_s, scoreSeconds * 1000.0, "ms");
    report("import", u"  CPU time (all threads)"_s, scoreCpu * 1000.0, "ms");
    report("import", u"aggregate (bootstrap CIs) + JSON report"_s, reportSeconds * 1000.0, "ms");
    report("import", u"  CPU time (all threads)"_s, reportCpu * 1000.0, "ms");
    report("import", u"end to end"_s, seconds * 1000.0, "ms");
    report("import", u"  CPU time (all threads)"_s, cpu * 1000.0, "ms");
    report("import", u"end to end throughput"_s, double(lineCount) / seconds, "records/s");
    // The store's size on disk (the WAL apart: SQLite keeps it at its largest until the last connection closes),
    // and a digest of the JSON report: a change to how the import stores its records must leave the report as it
    // was, and can be seen to.
    const QString db = dir.filePath(u"bench.db"_s);
    report("import", u"store file size"_s, double(QFileInfo(db).size()) / 1e6, "MB");
    report("import", u"  its write-ahead log"_s, double(std::max<qint64>(0, QFileInfo(db + u"-wal"_s).size())) / 1e6,
        "MB");
    const QString digest = reportDigest(aggregated);
    std::printf("import     report digest %s\n", qPrintable(digest));

    // The commands as they are by default: `structscope import` scores what it stored and keeps the verdicts before
    // it ends (scoreAndKeepVerdicts), and the report reads them instead of scoring. Into a second, new store.
    total.restart();
    QString keptError;
    auto keptStore = ResultStore::open(dir.filePath(u"kept.db"_s), &keptError);
    if (!keptStore) {
        std::fprintf(stderr, "bench import: %s\n", qPrintable(keptError));
        return 1;
    }
    step.restart();
    const ImportSummary again = importSobFiles(*keptStore, files);
    const double againSeconds = double(step.nsecsElapsed()) / 1e9;
    step.restart();
    const KeptVerdictsSummary keeping = scoreAndKeepVerdicts(*keptStore);
    const double keepSeconds = double(step.nsecsElapsed()) / 1e9;
    if (!again.ok() || !keeping.ok() || keeping.kept != lineCount) {
        std::fprintf(stderr, "bench import: import %s, verdicts kept %lld of %lld: %s\n", again.ok() ? "ok" : "failed",
            keeping.kept, lineCount, qPrintable(keeping.error));
        return 1;
    }
    step.restart();
    const Evaluation read = evaluateStore(*keptStore);
    const Report readReport = aggregate(read.records, aggregateOptions);
    const ReportText readText = writeReport(readReport, "json");
    const double readSeconds = double(step.nsecsElapsed()) / 1e9;
    const double keptTotal = double(total.nsecsElapsed()) / 1e9;
    if (!read.ok() || !readText.ok() || read.stored != lineCount) {
        std::fprintf(stderr, "bench import: the report read %lld kept verdicts of %lld: %s\n", read.stored, lineCount,
            qPrintable(read.error));
        return 1;
    }
    report("import", u"as the commands do by default: open store + import"_s, againSeconds * 1000.0, "ms");
    report("import", u"  scoring and keeping the verdicts"_s, keepSeconds * 1000.0, "ms");
    report("import", u"  a report: read the kept verdicts + aggregate + JSON"_s, readSeconds * 1000.0, "ms");
    report("import", u"  end to end"_s, keptTotal * 1000.0, "ms");
    const QString readDigest = reportDigest(readReport);
    std::printf("import     report digest from kept verdicts %s%s\n", qPrintable(readDigest),
        readDigest == digest ? "" : " (DIFFERS)");
    if (fileDigest != digest)
        std::printf("import     the report without a store DIFFERS from the store's\n");

    // Records that each carry a schema of their own: every schema compiled, thousands of them held at once.
    // Generated data only.
    if (!args.sobFolder.isEmpty())
        return readDigest == digest && fileDigest == digest ? 0 : 1;
    SobGenOptions ownSchemas = gen;
    ownSchemas.schemas = gen.records;
    const QString ownFile = dir.filePath(u"response_model-1.jsonl"_s);
    if (!writeLines(ownFile, generateSobLines(ownSchemas)))
        return 1;
    step.restart();
    {
        const SobRecords held = readSobFiles({ ownFile });
        EvaluationOptions asTheCommand;
        asTheCommand.fieldTallies = false;
        const Evaluation scored = evaluateSobRecords(held, asTheCommand);
        const ReportText text = writeReport(aggregate(scored.records, fileAggregate), "json");
        if (!held.summary.ok() || !scored.ok() || !text.ok() || held.summary.responses != lineCount) {
            std::fprintf(stderr, "bench import: a schema per record: %lld of %lld records scored\n",
                held.summary.responses, lineCount);
            return 1;
        }
    }
    const double ownSeconds = double(step.nsecsElapsed()) / 1e9;
    report("import", u"without a store, a schema per record: read + score + report"_s, ownSeconds * 1000.0, "ms");
    report("import", u"  throughput"_s, double(lineCount) / ownSeconds, "records/s");
    return readDigest == digest && fileDigest == digest ? 0 : 1;
}

} // namespace structscope::bench
