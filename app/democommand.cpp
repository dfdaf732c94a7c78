// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "demoreport.h"

#include "analysis/configcomparison.h"
#include "analysis/errorsets.h"
#include "analysis/metricformat.h"
#include "analysis/reportdata.h"
#include "charts/headlesscharts.h"
#include "demo/demogoldmistakes.h"
#include "demo/demoworkspace.h"
#include "export/chartexport.h"
#include "export/exportablechart.h"
#include "report/evaluation.h"
#include "report/reportwriter.h"
#include "scoring/metricregistry.h"
#include "sim/simprofile.h"
#include "store/resultstore.h"

#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QSaveFile>
#include <QSet>

#include <cmath>
#include <map>

#include <unistd.h>

using namespace Qt::StringLiterals;

namespace structscope::cli {

namespace {

constexpr auto kMetric = "ladder.correct";
const QString kStoreName = u"demo.structscope"_s;
const QStringList kCharts = { u"leaderboard"_s, u"heatmap"_s, u"venn"_s, u"comparison"_s };

int usage(const QString& message)
{
    return usageError(u"demo"_s, message);
}

int failure(const QString& message)
{
    err(u"structscope demo: %1\n"_s.arg(message));
    return ExitFailure;
}

/// The files the demo writes into DIR (besides its default store), relative to DIR.
QStringList reportFiles()
{
    QStringList files = { u"report.md"_s, u"report.html"_s };
    for (const QString& chart : kCharts)
        files << u"charts/"_s + chart + u".png"_s << u"charts/"_s + chart + u".svg"_s;
    return files;
}

bool writtenByDemo(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    return file.read(256).contains(ReportDocument::marker().toUtf8());
}

bool writeText(const QString& path, const QString& text, QString* error)
{
    QSaveFile file(path);
    const QByteArray bytes = text.toUtf8();
    if (file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size() && file.commit())
        return true;
    *error = u"cannot write %1: %2"_s.arg(path, file.errorString());
    return false;
}

/// A SQLite store and the files SQLite keeps next to it.
bool removeStoreFiles(const QString& path, QString* error)
{
    for (const QString& suffix : { u""_s, u"-wal"_s, u"-shm"_s, u"-journal"_s }) {
        QFile file(path + suffix);
        if (file.exists() && !file.remove()) {
            *error = u"cannot replace %1: %2"_s.arg(file.fileName(), file.errorString());
            return false;
        }
    }
    return true;
}

/// Keeps the metric columns a reader compares first (every metric is in `structscope report`).
Report headline(Report report)
{
    static const std::vector<std::string> keep = { "ladder.correct", "ladder.invalid_json", "ladder.schema_violation",
        "ladder.hallucinated_on_missing", "ladder.value_incorrect", "extraction.score", "extraction.f1_micro",
        "grounding.value_accuracy", "grounding.json_pass", "grounding.faithfulness", "contract.semantic_success",
        "contract.unsafe_acceptance", "contract.status_accuracy", "ladder.latency_p50", "ladder.cost_per_success" };
    std::vector<std::string> metrics;
    for (const std::string& id : keep) {
        if (std::find(report.metrics.begin(), report.metrics.end(), id) != report.metrics.end())
            metrics.push_back(id);
    }
    report.metrics = metrics;
    // Complexity-weighted means would double the columns; `structscope report` has them.
    for (ReportGroup& group : report.groups)
        group.weightedMean.clear();
    return report;
}

QString reportTable(RecordsView records, const std::vector<std::string>& groupBy)
{
    AggregateOptions options;
    options.groupBy = groupBy;
    return QString::fromStdString(writeReportMarkdown(headline(aggregate(records, options))));
}

QString points(double value)
{
    return std::isfinite(value) ? QLocale::c().toString(value, 'f', 1) : u"—"_s;
}

QString share(double value)
{
    return std::isfinite(value) ? QLocale::c().toString(value, 'f', 3) : u"—"_s;
}

QString pValue(double p)
{
    if (std::isnan(p))
        return u"—"_s;
    return p < 0.001 ? u"< 0.001"_s : QLocale::c().toString(p, 'f', 3);
}

/// Writes one chart as PNG and SVG; the error of the first that fails.
QString exportBoth(ExportableChart& chart, const QString& base, int dpi)
{
    QString error = exportChart(chart, base + u".png"_s, dpi);
    if (error.isEmpty())
        error = exportChart(chart, base + u".svg"_s, dpi);
    return error;
}

/// The --out folder, checked: ours to write only where the demo wrote before or where nothing is in the way. An
/// exit code when it is not; else `dir` and `storeLocation` are set and an earlier demo's store is removed.
std::optional<int> prepareFolder(const QCommandLineParser& parser, QDir& dir, QString& storeLocation)
{
    const QString outArg = parser.value(u"out"_s);
    const QFileInfo outInfo(outArg);
    if (outInfo.exists() && !outInfo.isDir())
        return usage(u"--out %1 is a file, not a folder"_s.arg(outArg));
    dir = QDir(outInfo.absoluteFilePath());
    if (!dir.mkpath(u"charts"_s))
        return failure(u"cannot create %1"_s.arg(dir.filePath(u"charts"_s)));
    const bool ours = writtenByDemo(dir.filePath(u"report.md"_s)) || writtenByDemo(dir.filePath(u"report.html"_s));
    const bool defaultStore = !parser.isSet(u"store"_s);
    storeLocation = defaultStore ? dir.filePath(kStoreName) : parser.value(u"store"_s);
    if (!ours) {
        QStringList inTheWay;
        for (const QString& file : reportFiles() + (defaultStore ? QStringList { kStoreName } : QStringList())) {
            if (QFileInfo::exists(dir.filePath(file)))
                inTheWay << file;
        }
        if (!inTheWay.isEmpty())
            return failure(u"%1 already holds %2, not written by an earlier 'structscope demo'; choose another "
                           "--out folder"_s.arg(QDir::toNativeSeparators(dir.path()), inTheWay.join(u", "_s)));
    }
    QString error;
    if (defaultStore && ours && !removeStoreFiles(storeLocation, &error))
        return failure(error);
    return std::nullopt;
}

/// Scores the demo's store, and keeps the verdicts in it as `run` does: the app opening the demo workspace reads
/// them instead of scoring.
Evaluation scoreDemoStore(const QString& storeLocation)
{
    ResultStore::OpenOptions options;
    options.createIfMissing = false;
    options.integrityCheck = false;
    StoreError openError;
    auto store = ResultStore::open(storeLocation, options, &openError);
    if (!store) {
        Evaluation failed;
        failed.error = openError.message;
        return failed;
    }
    Evaluation evaluation = evaluateStore(*store);
    if (evaluation.ok()) {
        if (const auto kept = keepVerdicts(*store, evaluation.records, evaluation.unkept); !kept)
            err(u"structscope demo: the verdicts were not kept (the app will score the answers): %1\n"_s.arg(
                kept.errorMessage()));
    }
    return evaluation;
}

/// Each model's first strategy against its second, on the same cases.
std::vector<ConfigComparison> compareStrategies(RecordsView records, const QString& strategyA, const QString& strategyB)
{
    std::vector<ConfigComparison> comparisons;
    const std::vector<Configuration> configurations = configurationsOf(records);
    for (const Configuration& a : configurations) {
        if (a.strategy != strategyA)
            continue;
        const Configuration b { a.model, strategyB, a.simulated };
        comparisons.push_back(compareConfigurations(records, a, b, kMetric));
    }
    return comparisons;
}

/// Draws the report's four charts into DIR/charts as PNG and SVG; the first error, else empty.
QString writeCharts(
    const ScoredRecords& records, const std::vector<ConfigComparison>& comparisons, const QDir& dir, int dpi)
{
    const std::string metric = kMetric;
    AggregateOptions options;
    options.groupBy = { "model", "strategy" };
    const ReportDataPtr byModelStrategy = makeReportData(records, options);
    options.groupBy.push_back("suite");
    const ReportDataPtr heatmapData = makeReportData(records, options);
    const std::vector<ErrorLabel> vennLabels
        = { ErrorLabel::MissingKey, ErrorLabel::MissingValue, ErrorLabel::WrongValue };
    const std::map<QString, std::unique_ptr<ExportableChart>> charts = [&] {
        std::map<QString, std::unique_ptr<ExportableChart>> map;
        // Wider than the defaults: twelve labelled bars, four suite columns, six Venn panels.
        map[u"leaderboard"_s] = makeLeaderboardChart(byModelStrategy, metric, QSize(1100, 640));
        map[u"heatmap"_s] = makeHeatmapChart(*heatmapData, { "model", "strategy" }, "suite", metric, QSize(1000, 0));
        map[u"venn"_s] = makeErrorSetsChart(countErrorSets(records, { "model" }, vennLabels),
            u"Responses with MK, MV and WV errors, by model (measured gold)"_s, QSize(999, 0));
        map[u"comparison"_s] = makeComparisonChart(comparisons, QSize(1100, 560));
        return map;
    }();
    for (const auto& [name, chart] : charts) {
        if (QString error = exportBoth(*chart, dir.filePath(u"charts/"_s + name), dpi); !error.isEmpty())
            return error;
    }
    return {};
}

/// The report: what the demo is, the leaderboard, each suite, the charts, the paired comparison and the planted
/// gold mistakes.
ReportDocument demoReport(const ScoredRecords& records, const std::vector<ConfigComparison>& comparisons,
    const DemoOutcome& demo, const QString& strategyA, const QString& strategyB)
{
    const std::string metric = kMetric;
    // Tables show the models as every view does: simulated ones marked.
    std::vector<ScoredRecord> labelled = records.toVector();
    for (ScoredRecord& r : labelled)
        r.model = displayModelName(r.model, r.simulated);

    ReportDocument doc;
    doc.title = u"StructScope demo report"_s;
    QStringList suiteCounts;
    std::map<QString, QSet<QString>> casesPerSuite;
    for (const ScoredRecord& r : records)
        casesPerSuite[r.suite].insert(r.caseId);
    for (const auto& [suite, cases] : casesPerSuite)
        suiteCounts << u"`%1` (%2 cases)"_s.arg(suite).arg(cases.size());
    doc.paragraph(u"Every answer in this report comes from a simulated model, not from a language model: StructScope's "
                  "simulated provider takes each case's gold answer and applies seeded faults (code fences, prose, "
                  "truncation, dropped keys, wrong or invented values, unsafe status flips…) at the rates of a "
                  "named profile. Simulated models are marked \"(simulated)\" and their specs start with `sim:`. "
                  "The numbers show what StructScope measures and how it tells models apart; they say nothing "
                  "about any real model."_s);
    doc.paragraph(u"Suites: %1. Strategies: %2 (the prompt only) and %3 (the response schema as the output format). "
                  "%4 answers, one per case, model and strategy, scored against the gold as the demo stores it: the "
                  "gold the suites ship with, except for %5 mistakes planted on purpose (see \"Planted gold "
                  "mistakes\" below)."_s.arg(suiteCounts.join(u", "_s), strategyA, strategyB)
                      .arg(records.size())
                      .arg(demo.plantedMistakes));
    QList<QStringList> profileRows;
    for (const SimProfile& p : simProfiles())
        profileRows << QStringList { displayModelName(u"sim:"_s + p.name, true), p.description };
    doc.table(markdownTable({ u"model"_s, u"profile"_s }, profileRows, { false, false }));

    doc.heading(u"Leaderboard"_s);
    doc.paragraph(u"All suites together, by model and strategy; each cell is the mean with its 95% interval. "
                  "`structscope report --store %1 --format md` lists every metric."_s.arg(kStoreName));
    doc.table(reportTable(labelled, { "model", "strategy" }));
    doc.chart(u"%1 by model and strategy, with 95% intervals"_s.arg(metricLabel(metric)), u"charts/leaderboard"_s);

    doc.heading(u"By suite"_s);
    doc.paragraph(u"Each suite with the metric families it declares."_s);
    for (const auto& [suite, cases] : casesPerSuite) {
        std::vector<ScoredRecord> ofSuite;
        for (const ScoredRecord& r : labelled) {
            if (r.suite == suite)
                ofSuite.push_back(r);
        }
        doc.paragraph(u"`%1` (%2 cases)"_s.arg(suite).arg(cases.size()));
        doc.table(reportTable(ofSuite, { "model", "strategy" }));
    }

    doc.heading(u"Heatmap"_s);
    doc.chart(u"%1 by model × strategy and suite"_s.arg(metricLabel(metric)), u"charts/heatmap"_s);

    doc.heading(u"Errors"_s);
    doc.paragraph(
        u"Which errors go together: among the answers that are neither perfect nor failed, those with missing "
        "keys (MK), missing values (MV) and wrong values (WV), per model. The oracle makes none."_s);
    doc.chart(u"Error sets (Venn) by model"_s, u"charts/venn"_s);

    doc.heading(u"Paired comparison: %1 against %2"_s.arg(strategyB, strategyA));
    doc.paragraph(
        u"Each model against itself on the same cases: the difference in %1 in percentage points with a "
        "paired bootstrap 95% interval, and the exact McNemar p (b: cases only %2 gets right, c: only %3)."_s.arg(
            metricLabel(metric), strategyA, strategyB));
    QList<QStringList> comparisonRows;
    for (const ConfigComparison& c : comparisons) {
        const PairedComparison& s = c.stats;
        comparisonRows << QStringList { displayModelName(c.a.model, c.a.simulated), QString::number(s.n),
            share(s.meanA), share(s.meanB),
            u"%1 [%2, %3]"_s.arg(points(s.deltaPoints), points(s.deltaCiPoints.low), points(s.deltaCiPoints.high)),
            QString::number(s.b), QString::number(s.c), pValue(s.pValue) };
    }
    doc.table(markdownTable(
        { u"model"_s, u"n"_s, strategyA, strategyB, u"Δ points [95% CI]"_s, u"b"_s, u"c"_s, u"McNemar p"_s },
        comparisonRows, { false, true, true, true, true, true, true, true }));
    doc.chart(u"%1 − %2 in %3 per model, with paired bootstrap 95% intervals"_s.arg(
                  strategyB, strategyA, metricLabel(metric)),
        u"charts/comparison"_s);
    doc.heading(u"Planted gold mistakes"_s);
    doc.paragraph(u"The demo stores a few cases' gold with a mistake of the kinds real gold has, while the simulated "
                  "models answer from the suites' correct gold: every model, the oracle included, disagrees with the "
                  "stored gold at these fields, so every number above counts these cases as failed by every model. "
                  "They are there for the gold audit to find: `structscope audit --store %1` lists each with the "
                  "true value as the models' consensus, and accepting it (Audit page, or Accept this value on the "
                  "Cases page) stores a corrected revision of the gold; the \"adjusted\" gold then scores the "
                  "oracle perfect."_s.arg(kStoreName));
    QList<QStringList> mistakeRows;
    for (const DemoGoldMistake& m : demoGoldMistakes())
        mistakeRows << QStringList { m.suite, m.caseId, QString::fromStdString(m.path), demoGoldValueText(m.planted),
            demoGoldValueText(m.truth), m.kind + u": "_s + m.note };
    doc.table(markdownTable({ u"suite"_s, u"case"_s, u"field"_s, u"stored gold"_s, u"true value"_s, u"mistake"_s },
        mistakeRows, { false, false, false, false, false, false }));
    doc.paragraph(u"Open the store in StructScope (`structscope`, File ▸ Open Workspace: %1) to drill into any cell, "
                  "diff an answer against its gold, or audit the gold."_s.arg(kStoreName));

    return doc;
}

} // namespace

int demoCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Run the built-in suites on the simulated models and write a report (Markdown and HTML) with the "
        "leaderboard, heatmap, Venn and comparison charts (PNG and SVG). Needs no network and no display."_s);
    parser.addHelpOption();
    parser.addOption({ u"out"_s,
        u"Folder for report.md, report.html, charts/ and the store (created if missing). A report the demo wrote "
        "there before is replaced; other files are never touched."_s,
        u"DIR"_s });
    parser.addOption({ u"store"_s,
        u"A new store for the answers: SQLite file or postgresql:// URL (default DIR/%1)."_s.arg(kStoreName),
        u"DB"_s });
    parser.addOption({ u"dpi"_s, u"Resolution of the PNG charts (default 150)."_s, u"N"_s, u"150"_s });
    if (const std::optional<int> exit = parseCommandLine(parser, args, u"demo"_s, Positional::Refused))
        return *exit;
    const QString outArg = parser.value(u"out"_s);
    if (outArg.isEmpty())
        return usage(u"--out DIR is required"_s);
    if (parser.isSet(u"store"_s) && parser.value(u"store"_s).isEmpty())
        return usage(u"--store needs a file path or a postgresql:// URL"_s);
    bool dpiOk = false;
    const int dpi = parser.value(u"dpi"_s).toInt(&dpiOk);
    if (!dpiOk || dpi < 36 || dpi > 1200)
        return usage(u"--dpi needs a number from 36 to 1200"_s);

    QDir dir;
    QString storeLocation;
    if (const std::optional<int> exit = prepareFolder(parser, dir, storeLocation))
        return *exit;

    // Run.
    const bool terminal = isatty(fileno(stderr));
    int lastTenth = -1;
    const DemoOutcome demo = runDemo(storeLocation, defaultDemoPlan(), [&](qint64 done, qint64 total) {
        const int tenth = total > 0 ? int(done * 10 / total) : 10;
        if (terminal)
            err(u"\rstructscope demo: %1/%2 answers"_s.arg(done).arg(total));
        else if (tenth != lastTenth)
            err(u"structscope demo: %1/%2 answers\n"_s.arg(done).arg(total));
        lastTenth = tenth;
        return true;
    });
    if (terminal)
        err(u"\n"_s);
    if (!demo.ok())
        return failure(demo.error.isEmpty() ? u"the demo stopped early"_s : demo.error);

    // Score.
    QElapsedTimer clock;
    clock.start();
    const Evaluation evaluation = scoreDemoStore(storeLocation);
    if (!evaluation.ok())
        return failure(evaluation.error);
    const qint64 scoreMs = clock.restart();
    const ScoredRecords& records = evaluation.records;

    // Charts, then the report.
    const QString strategyA = strategyName(defaultDemoPlan().strategies.value(0));
    const QString strategyB = strategyName(defaultDemoPlan().strategies.value(1));
    const std::vector<ConfigComparison> comparisons = compareStrategies(records, strategyA, strategyB);
    if (const QString error = writeCharts(records, comparisons, dir, dpi); !error.isEmpty())
        return failure(error);
    const qint64 chartMs = clock.restart();
    const ReportDocument doc = demoReport(records, comparisons, demo, strategyA, strategyB);
    QString error;
    if (!writeText(dir.filePath(u"report.md"_s), doc.toMarkdown(), &error)
        || !writeText(dir.filePath(u"report.html"_s), doc.toHtml(), &error))
        return failure(error);

    out(u"Demo: %1 answers from %2 simulated runs in %3 s (scored in %4 s, charts in %5 s)\n"
        "  store:  %6\n  report: %7\n          %8\n  charts: %9\n"_s.arg(QString::number(demo.stored),
            QString::number(demo.runs.size()), QLocale::c().toString(demo.elapsedMs / 1000.0, 'f', 1),
            QLocale::c().toString(scoreMs / 1000.0, 'f', 1), QLocale::c().toString(chartMs / 1000.0, 'f', 1),
            QDir::toNativeSeparators(storeLocation), QDir::toNativeSeparators(dir.filePath(u"report.md"_s)),
            QDir::toNativeSeparators(dir.filePath(u"report.html"_s)),
            QDir::toNativeSeparators(dir.filePath(u"charts"_s) + u'/')));
    return ExitOk;
}

} // namespace structscope::cli
