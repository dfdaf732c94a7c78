// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#include "io/sobimporter.h"
#include "report/aggregator.h"
#include "report/evaluation.h"
#include "report/failureoverlaps.h"
#include "report/fieldreport.h"
#include "report/pairmatrixwriter.h"
#include "report/reportwriter.h"
#include "report/sidebyside.h"
#include "report/sobevaluation.h"
#include "scoring/metricregistry.h"
#include "store/resultstore.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace structscope::cli {

namespace {

/// Writes a report's text to `outPath` (atomically), or to stdout when it is empty; false, with why on stderr, when
/// the file cannot be written.
bool writeReportText(const QString& outPath, const std::string& text)
{
    if (outPath.isEmpty()) {
        out(QString::fromStdString(text));
        return true;
    }
    QSaveFile file(outPath);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) < 0 || !file.commit()) {
        err(u"structscope report: cannot write %1: %2\n"_s.arg(outPath, file.errorString()));
        return false;
    }
    return true;
}

void addPairsOptions(QCommandLineParser& parser)
{
    parser.addOption({ u"pairs"_s,
        u"Instead of the table of groups, compare every pair of configurations (--by model, strategy or "
        u"model,strategy) on the cases both answered: Δ in points with a paired bootstrap 95% interval, the exact "
        u"McNemar p (a rate) or sign test p (a mean) and that p adjusted over all pairs (docs/metrics.md)."_s });
    parser.addOption({ u"metric"_s, u"With --pairs: the metric compared (default ladder.correct)."_s, u"ID"_s,
        u"ladder.correct"_s });
    parser.addOption({ u"adjust"_s,
        u"With --pairs: holm (family-wise error, default) or bh (Benjamini-Hochberg false discovery rate)."_s,
        u"METHOD"_s, u"holm"_s });
}

/// `report --pairs`: nothing when --pairs is not asked for (then the pairs' options are refused), else the exit code.
std::optional<int> pairsReport(const QCommandLineParser& parser, bool fromFiles, const QStringList& files,
    const std::optional<Modality>& modality, const BootstrapOptions& bootstrap)
{
    if (!parser.isSet(u"pairs"_s)) {
        for (const QString& option : { u"metric"_s, u"adjust"_s }) {
            if (parser.isSet(option)) {
                err(u"structscope report: --%1 applies to --pairs only\n"_s.arg(option));
                return ExitUsage;
            }
        }
        return std::nullopt;
    }
    const std::optional<PAdjustMethod> adjust = pAdjustMethodFromName(parser.value(u"adjust"_s).toStdString());
    if (!adjust) {
        err(u"structscope report: --adjust must be holm or bh, not '%1'\n"_s.arg(parser.value(u"adjust"_s)));
        return ExitUsage;
    }
    for (const QString& option : { u"metrics"_s, u"keep-verdicts"_s }) {
        if (parser.isSet(option)) {
            err(u"structscope report: --%1 does not apply to --pairs\n"_s.arg(option));
            return ExitUsage;
        }
    }
    const QString gold = parser.value(u"gold"_s);
    if (gold == u"both"_s) {
        err(u"structscope report: --pairs compares on one gold basis; use --gold measured or adjusted\n"_s);
        return ExitUsage;
    }
    PairMatrixOptions options;
    options.metric = parser.value(u"metric"_s).trimmed().toStdString();
    options.adjust = *adjust;
    options.bootstrap = bootstrap;
    options.by.clear();
    for (const QString& key : parser.value(u"by"_s).split(u',', Qt::SkipEmptyParts)) {
        const std::string k = key.trimmed().toStdString();
        const auto& allowed = pairConfigurationKeys();
        if (std::find(allowed.begin(), allowed.end(), k) == allowed.end()
            || std::find(options.by.begin(), options.by.end(), k) != options.by.end()) {
            err(u"structscope report: with --pairs, --by is model, strategy or model,strategy, not '%1'\n"_s.arg(
                parser.value(u"by"_s)));
            return ExitUsage;
        }
        options.by.push_back(k);
    }
    if (options.by.empty())
        options.by = { "model" };
    if (!findMetric(options.metric)) {
        // Known before anything is read: say so at once, with the metrics that can be compared.
        QString names;
        for (const MetricInfo& info : allMetrics()) {
            if (info.kind == MetricKind::Rate || info.kind == MetricKind::Mean)
                names += (names.isEmpty() ? u""_s : u", "_s)
                    + QString::fromUtf8(info.id.data(), qsizetype(info.id.size()));
        }
        err(u"structscope report: unknown metric '%1' for --pairs; metrics compared case by case: %2\n"_s.arg(
            QString::fromStdString(options.metric), names));
        return ExitUsage;
    }

    Evaluation evaluation;
    bool refusedLines = false;
    std::unique_ptr<SobRecords> read; // what the evaluation was scored from, kept until the pairs are written
    if (fromFiles) {
        SobImportOptions readOptions;
        readOptions.modality = modality;
        read = std::make_unique<SobRecords>(readSobFiles(files, readOptions));
        printProblems(read->summary.problems);
        refusedLines = hasErrors(read->summary.problems);
        EvaluationOptions scoring;
        scoring.fieldTallies = false; // the pairs compare metrics
        evaluation = evaluateSobRecords(*read, scoring);
    } else {
        const auto store = openStoreReadOnly(parser.value(u"store"_s), u"report"_s);
        if (!store)
            return ExitFailure;
        EvaluationOptions evaluationOptions;
        evaluationOptions.gold = gold == u"adjusted"_s ? GoldBasis::Adjusted : GoldBasis::Measured;
        evaluation = evaluateStore(*store, evaluationOptions);
    }
    if (!evaluation.ok()) {
        err(u"structscope report: %1\n"_s.arg(evaluation.error));
        return ExitFailure;
    }
    const PairMatrix matrix = computePairMatrix(evaluation.records, options);
    if (!matrix.ok()) {
        err(u"structscope report: --pairs: %1\n"_s.arg(matrix.error));
        return ExitFailure;
    }
    const ReportText text = writePairMatrix(matrix, parser.value(u"format"_s).toStdString());
    if (!text.ok()) {
        err(u"structscope report: %1\n"_s.arg(text.error));
        return ExitFailure;
    }
    if (!writeReportText(parser.value(u"out"_s), text.text))
        return ExitFailure;
    if (refusedLines) {
        err(u"structscope report: the pairs are written, without the lines refused above\n"_s);
        return ExitFailure;
    }
    return ExitOk;
}

/// `report --overlaps`: which cases fail for which models (docs/user-guide.md), as region counts in JSON or CSV.
int overlapsReport(const QCommandLineParser& parser)
{
    const auto usage = [](const QString& message) {
        err(u"structscope report: %1\n"_s.arg(message));
        return int(ExitUsage);
    };
    if (parser.isSet(u"sob"_s))
        return usage(u"--overlaps reads a store; import the files first (structscope import --format sob)"_s);
    for (const QString& option : { u"pairs"_s, u"metric"_s, u"adjust"_s, u"metrics"_s, u"keep-verdicts"_s }) {
        if (parser.isSet(option))
            return usage(u"--%1 does not apply to --overlaps"_s.arg(option));
    }
    const QString storeLocation = parser.value(u"store"_s);
    const QString format = parser.value(u"format"_s);
    if (storeLocation.isEmpty() || format.isEmpty())
        return usage(u"--overlaps needs --store DB and --format json|csv"_s);
    if (format != u"json"_s && format != u"csv"_s)
        return usage(u"--overlaps writes json or csv, not '%1'"_s.arg(format));
    const QString gold = parser.value(u"gold"_s);
    if (gold != u"measured"_s && gold != u"adjusted"_s)
        return usage(u"--overlaps takes --gold measured or adjusted, not '%1'"_s.arg(gold));
    QString criterionError;
    const std::optional<FailureCriterion> criterion
        = FailureCriterion::parse(parser.value(u"criterion"_s), &criterionError);
    if (!criterion)
        return usage(criterionError);
    std::vector<std::string> groupBy;
    for (const QString& key : parser.value(u"by"_s).split(u',', Qt::SkipEmptyParts)) {
        const std::string k = key.trimmed().toStdString();
        if (std::find(groupKeys().begin(), groupKeys().end(), k) == groupKeys().end())
            return usage(u"cannot group by '%1'"_s.arg(key));
        groupBy.push_back(k);
    }
    if (groupBy.empty())
        return usage(u"--by needs at least one key"_s);

    int exitCode = ExitOk;
    const std::optional<FailureOverlaps> counted = storeFailureOverlaps(storeLocation, gold, groupBy, *criterion,
        parser.value(u"sets"_s).split(u',', Qt::SkipEmptyParts), u"report"_s, exitCode);
    if (!counted)
        return exitCode;
    const FailureOverlaps& overlaps = *counted;
    const std::string text
        = format == u"json"_s ? failureOverlapsJson(overlaps, gold.toStdString()) : failureOverlapsCsv(overlaps);
    return writeReportText(parser.value(u"out"_s), text) ? ExitOk : ExitFailure;
}

/// Declares every option of `structscope report`.
void addReportOptions(QCommandLineParser& parser)
{
    parser.setApplicationDescription(u"Score every stored response and aggregate the metrics into a table."_s);
    parser.addHelpOption();
    parser.addOption({ u"store"_s, u"SQLite file or postgresql:// URL."_s, u"DB"_s });
    parser.addOption({ u"metrics"_s,
        u"Families to report: ladder, extraction, grounding, contract (comma-separated; "
        u"default: every family the store's suites declare)."_s,
        u"FAMILY"_s });
    parser.addOption({ u"by"_s,
        u"Group by these keys (comma-separated; default model): "_s + QString::fromStdString([] {
            std::string keys;
            for (const std::string& k : groupKeys())
                keys += (keys.empty() ? "" : ", ") + k;
            return keys;
        }())
            + u", field (a row per field of the gold, with the field metrics only), field_root (the same "
              u"per top-level key)"_s,
        u"KEY"_s, u"model"_s });
    parser.addOption({ u"format"_s, u"json, md, csv or latex."_s, u"FORMAT"_s });
    parser.addOption({ u"gold"_s,
        u"measured (original gold), adjusted (current revision) or both (side by side, a row per basis)."_s, u"BASIS"_s,
        u"measured"_s });
    parser.addOption({ u"out"_s, u"Write to this file instead of standard output."_s, u"FILE"_s });
    parser.addOption(
        { u"bootstrap"_s, u"Bootstrap resamples for mean intervals (default 1000)."_s, u"B"_s, u"1000"_s });
    parser.addOption({ u"sob"_s,
        u"Score SOB response files (FILE...) directly, without a store, as SOB's own evaluator does: read, checked "
        u"and scored exactly as `structscope import --format sob` and a report of the new store would, but nothing "
        u"is written. Instead of --store."_s });
    parser.addOption({ u"modality"_s, u"With --sob: text, image or audio (default: from each file name, else text)."_s,
        u"MODALITY"_s });
    parser.addPositionalArgument(u"FILE"_s, u"With --sob: SOB response files (JSONL)."_s, u"[FILE...]"_s);
    parser.addOption({ u"keep-verdicts"_s,
        u"Also keep what this report scores in the store (opened for writing), so that later reports and the app "
        u"read the verdicts instead of scoring every answer again."_s });
    addPairsOptions(parser);
    parser.addOption({ u"overlaps"_s,
        u"Instead of metrics: which cases fail for which sets (the --by groups, default model), as region counts "
        u"(json or csv)."_s });
    parser.addOption({ u"criterion"_s,
        u"With --overlaps: when an answer fails: not-correct (default), error:KIND (mk, mv, wv, ...) or "
        u"METRIC<THRESHOLD (e.g. grounding.value_accuracy<0.8)."_s,
        u"C"_s });
    parser.addOption(
        { u"sets"_s, u"With --overlaps: the sets to count (comma-separated labels; default all)."_s, u"LABELS"_s });
}

/// Checks where the responses come from (--store, or --sob FILE...) and the options that go with each; an exit code
/// when they do not fit together.
std::optional<int> checkSource(const QCommandLineParser& parser)
{
    const bool fromFiles = parser.isSet(u"sob"_s);
    const QStringList files = parser.positionalArguments();
    if (!fromFiles && !files.isEmpty()) {
        err(u"structscope report: unexpected argument '%1' (response files are read with --sob)\n"_s.arg(
            files.constFirst()));
        return ExitUsage;
    }
    const QString storeLocation = parser.value(u"store"_s);
    const QString format = parser.value(u"format"_s);
    if (fromFiles) {
        if (parser.isSet(u"store"_s)) {
            err(u"structscope report: --sob reads response files instead of a store; give one or the other\n"_s);
            return ExitUsage;
        }
        if (files.isEmpty() || format.isEmpty()) {
            err(u"structscope report: --sob needs at least one FILE, and --format json|md|csv|latex\n"_s);
            return ExitUsage;
        }
        if (parser.isSet(u"keep-verdicts"_s)) {
            err(u"structscope report: --keep-verdicts needs a store; --sob writes nothing\n"_s);
            return ExitUsage;
        }
        if (parser.value(u"gold"_s) != u"measured"_s) {
            err(u"structscope report: response files carry their gold as measured only; --gold %1 needs a store\n"_s
                    .arg(parser.value(u"gold"_s)));
            return ExitUsage;
        }
        if (!allReadableFiles(files, u"report"_s))
            return ExitUsage;
    } else if (parser.isSet(u"modality"_s)) {
        err(u"structscope report: --modality applies to --sob only\n"_s);
        return ExitUsage;
    } else if (storeLocation.isEmpty() || format.isEmpty()) {
        err(u"structscope report: --store DB (or --sob FILE...) and --format json|md|csv|latex are required\n"_s);
        return ExitUsage;
    }
    return std::nullopt;
}

/// Reads --by, --metrics and --bootstrap into `options`; an exit code when one is not valid.
std::optional<int> readAggregateOptions(const QCommandLineParser& parser, AggregateOptions& options)
{
    options.groupBy.clear();
    for (const QString& key : parser.value(u"by"_s).split(u',', Qt::SkipEmptyParts)) {
        const std::string k = key.trimmed().toStdString();
        if (k != kFieldGroupKey && k != kFieldRootGroupKey
            && std::find(groupKeys().begin(), groupKeys().end(), k) == groupKeys().end()) {
            err(u"structscope report: cannot group by '%1'\n"_s.arg(key));
            return ExitUsage;
        }
        options.groupBy.push_back(k);
    }
    for (const QString& family : parser.value(u"metrics"_s).split(u',', Qt::SkipEmptyParts)) {
        const std::string f = family.trimmed().toStdString();
        if (familyMetrics(f).empty()) {
            err(u"structscope report: unknown metric family '%1' (ladder, extraction, grounding, contract, field)\n"_s
                    .arg(family));
            return ExitUsage;
        }
        options.families.push_back(f);
    }
    // The field family is per field: reported by field, and alone.
    const bool byField = groupsByField(options.groupBy);
    for (const std::string& f : options.families) {
        if ((f == "field") != byField) {
            err(byField ? u"structscope report: --by field reports the field family only, not '%1'\n"_s.arg(
                    QString::fromStdString(f))
                        : u"structscope report: the field family needs --by ...,field\n"_s);
            return ExitUsage;
        }
    }
    bool numberOk = false;
    options.bootstrap.resamples = parser.value(u"bootstrap"_s).toInt(&numberOk);
    if (!numberOk || options.bootstrap.resamples < 1) {
        err(u"structscope report: --bootstrap needs a positive number\n"_s);
        return ExitUsage;
    }
    return std::nullopt;
}

/// The table of a report: per field for --by ...,field, else per group.
Report aggregateAny(RecordsView records, const AggregateOptions& options)
{
    return groupsByField(options.groupBy) ? aggregateFields(records, options) : aggregate(records, options);
}

/// Writes the report where asked; false (and why, on stderr) when it cannot.
bool writeOut(const QCommandLineParser& parser, const Report& report)
{
    const ReportText text = writeReport(report, parser.value(u"format"_s).toStdString());
    if (!text.ok()) {
        err(u"structscope report: %1\n"_s.arg(text.error));
        return false;
    }
    return writeReportText(parser.value(u"out"_s), text.text);
}

/// `report --sob`: the files read, checked and scored in memory; the report is made from them as from a store.
int sobFilesReport(
    const QCommandLineParser& parser, const std::optional<Modality>& modality, const AggregateOptions& aggregateOptions)
{
    QElapsedTimer timer;
    timer.start();
    SobImportOptions readOptions;
    readOptions.modality = modality;
    // The command ends with the report: what it read and scored — for 7,000 SOB records about a million small
    // JSON nodes — goes back to the system with the process, at once, instead of being freed node by node, which
    // takes 130-190 ms on one thread (docs/performance.md). Held from static pointers, so that a leak checker
    // sees it as reachable, not lost.
    static const SobRecords* heldRecords = nullptr;
    static const Evaluation* heldEvaluation = nullptr;
    delete heldEvaluation; // a second call in one process: the first one's are done with
    heldEvaluation = nullptr;
    delete heldRecords;
    heldRecords = new SobRecords(readSobFiles(parser.positionalArguments(), readOptions));
    const SobRecords& read = *heldRecords;
    printProblems(read.summary.problems);
    const ImportSummary& summary = read.summary;
    EvaluationOptions scoring;
    scoring.fieldTallies = groupsByField(aggregateOptions.groupBy); // only a report by field reads them
    heldEvaluation = new Evaluation(evaluateSobRecords(read, scoring));
    const Evaluation& evaluation = *heldEvaluation;
    if (!evaluation.ok()) {
        err(u"structscope report: %1\n"_s.arg(evaluation.error));
        return ExitFailure;
    }
    err(u"structscope report: scored %1 response(s) from %2 file(s) in %3 s: %4 line(s), %5 malformed, %6 "
        u"skipped, %7 case(s)\n"_s.arg(QString::number(summary.responses), QString::number(summary.files),
            QString::number(double(timer.elapsed()) / 1000.0, 'f', 2), QString::number(summary.lines),
            QString::number(summary.malformed), QString::number(summary.skipped), QString::number(summary.cases)));
    Report report = aggregateAny(evaluation.records, aggregateOptions);
    report.gold = "measured";
    if (!writeOut(parser, report))
        return ExitFailure;
    if (hasErrors(summary.problems)) {
        err(u"structscope report: the report is written, without the lines refused above\n"_s);
        return ExitFailure;
    }
    return ExitOk;
}

/// `report --store`: the store's responses on the gold basis asked for, or on both side by side.
int storeReport(const QCommandLineParser& parser, const AggregateOptions& aggregateOptions)
{
    const QString storeLocation = parser.value(u"store"_s);
    const QString gold = parser.value(u"gold"_s);
    // A report reads the store only, unless asked to keep its verdicts there.
    const bool keep = parser.isSet(u"keep-verdicts"_s);
    auto store = keep ? openStoreForWriting(storeLocation, u"report"_s) : openStoreReadOnly(storeLocation, u"report"_s);
    if (!store)
        return ExitFailure;
    Report report;
    QString keepError; // the report is still written when keeping fails; the exit code says it failed
    auto reportFor = [&](GoldBasis basis, Report& report) {
        EvaluationOptions evaluationOptions;
        evaluationOptions.gold = basis;
        const Evaluation evaluation = evaluateStore(*store, evaluationOptions);
        if (!evaluation.ok()) {
            err(u"structscope report: %1\n"_s.arg(evaluation.error));
            return false;
        }
        if (keep && keepError.isEmpty()) {
            if (const auto kept = keepVerdicts(*store, evaluation.records, evaluation.unkept); !kept)
                keepError = kept.errorMessage();
        }
        report = aggregateAny(evaluation.records, aggregateOptions);
        report.gold = basis == GoldBasis::Adjusted ? "adjusted" : "measured";
        return true;
    };
    if (gold == u"both"_s) {
        Report measured;
        Report adjusted;
        if (!reportFor(GoldBasis::Measured, measured) || !reportFor(GoldBasis::Adjusted, adjusted))
            return ExitFailure;
        report = goldSideBySide(measured, adjusted);
    } else if (!reportFor(gold == u"adjusted"_s ? GoldBasis::Adjusted : GoldBasis::Measured, report)) {
        return ExitFailure;
    }
    if (!writeOut(parser, report))
        return ExitFailure;
    if (!keepError.isEmpty()) {
        err(u"structscope report: the report is written, but its verdicts were not kept: %1\n"_s.arg(keepError));
        return ExitFailure;
    }
    return ExitOk;
}

} // namespace

int reportCommand(const QStringList& args)
{
    QCommandLineParser parser;
    addReportOptions(parser);
    if (const std::optional<int> exit = parseCommandLine(parser, args, u"report"_s, Positional::Allowed))
        return *exit;
    if (parser.isSet(u"overlaps"_s))
        return overlapsReport(parser);
    if (parser.isSet(u"criterion"_s) || parser.isSet(u"sets"_s)) {
        err(u"structscope report: --criterion and --sets apply to --overlaps only\n"_s);
        return ExitUsage;
    }
    if (const std::optional<int> exit = checkSource(parser))
        return *exit;
    std::optional<Modality> modality;
    if (!modalityOption(parser, u"report"_s, modality))
        return ExitUsage;
    const QString format = parser.value(u"format"_s);
    const auto formats = reportFormatNames();
    if (std::find(formats.begin(), formats.end(), format.toStdString()) == formats.end()) {
        err(u"structscope report: unknown format '%1' (use json, md, csv or latex)\n"_s.arg(format));
        return ExitUsage;
    }
    const QString gold = parser.value(u"gold"_s);
    if (gold != u"measured"_s && gold != u"adjusted"_s && gold != u"both"_s) {
        err(u"structscope report: --gold must be measured, adjusted or both, not '%1'\n"_s.arg(gold));
        return ExitUsage;
    }
    AggregateOptions aggregateOptions;
    if (const std::optional<int> exit = readAggregateOptions(parser, aggregateOptions))
        return *exit;

    const bool fromFiles = parser.isSet(u"sob"_s);
    if (const std::optional<int> pairsExit
        = pairsReport(parser, fromFiles, parser.positionalArguments(), modality, aggregateOptions.bootstrap))
        return *pairsExit;
    return fromFiles ? sobFilesReport(parser, modality, aggregateOptions) : storeReport(parser, aggregateOptions);
}

} // namespace structscope::cli
