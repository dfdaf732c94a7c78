// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#include "analysis/reportdata.h"
#include "charts/headlesscharts.h"
#include "export/chartexport.h"
#include "export/exportablechart.h"
#include "report/evaluation.h"
#include "report/failureoverlaps.h"
#include "report/fieldreport.h"
#include "scoring/metricregistry.h"
#include "store/resultstore.h"

#include <QCommandLineParser>

#include <memory>

using namespace Qt::StringLiterals;

namespace structscope::cli {

namespace {

int usage(const QString& message)
{
    return usageError(u"chart"_s, message);
}

std::vector<std::string> splitKeys(const QString& text)
{
    std::vector<std::string> keys;
    for (const QString& key : text.split(u',', Qt::SkipEmptyParts))
        keys.push_back(key.trimmed().toStdString());
    return keys;
}

bool knownKey(const std::string& key)
{
    return key == kFieldGroupKey || key == kFieldRootGroupKey
        || std::find(groupKeys().begin(), groupKeys().end(), key) != groupKeys().end();
}

/// The metric to draw: the one asked for, else the first score the report has (ladder.correct first).
std::string chooseMetric(const ReportData& data, const QString& asked)
{
    if (!asked.isEmpty())
        return asked.toStdString();
    for (const QString& family : data.families()) {
        const auto metrics = data.scoreMetrics(family);
        if (!metrics.empty())
            return metrics.front();
    }
    return {};
}

/// `chart --kind upset|venn`: which cases fail for which sets (the --by groups, default model), as the Errors page
/// draws it across models. The common options are checked by chartCommand().
int overlapsChart(const QCommandLineParser& parser, const QString& kind, const QString& outPath, int dpi)
{
    QString criterionError;
    const std::optional<FailureCriterion> criterion
        = FailureCriterion::parse(parser.value(u"criterion"_s), &criterionError);
    if (!criterion)
        return usage(criterionError);
    const std::vector<std::string> groupBy
        = parser.isSet(u"by"_s) ? splitKeys(parser.value(u"by"_s)) : std::vector<std::string> { "model" };
    if (groupBy.empty())
        return usage(u"--by needs at least one key"_s);
    for (const std::string& key : groupBy) {
        if (!knownKey(key))
            return usage(u"cannot group by '%1'"_s.arg(QString::fromStdString(key)));
    }
    bool topOk = false;
    const int top = parser.value(u"top"_s).toInt(&topOk);
    if (!topOk || top < 1)
        return usage(u"--top needs a positive number"_s);

    const QString gold = parser.value(u"gold"_s);
    int exitCode = ExitOk;
    std::optional<FailureOverlaps> counted = storeFailureOverlaps(parser.value(u"store"_s), gold, groupBy, *criterion,
        parser.value(u"sets"_s).split(u',', Qt::SkipEmptyParts), u"chart"_s, exitCode);
    if (!counted)
        return exitCode;
    FailureOverlaps& overlaps = *counted;
    if (kind == u"venn"_s && overlaps.sets.size() > 3)
        return usage(
            u"a Venn diagram draws one to three sets, not %1: pick them with --sets, or use --kind upset"_s.arg(
                overlaps.sets.size()));
    QStringList by;
    for (const std::string& key : groupBy)
        by << QString::fromStdString(key);
    const QString title = u"Cases failed (%1), by %2: %3 sets (%4 gold)"_s.arg(
        overlaps.criterion.describe(), by.join(u" × "_s), QString::number(overlaps.sets.size()), gold);
    const auto chart = makeOverlapsChart(std::move(overlaps), title, top, kind == u"upset"_s);
    const QString error = exportChart(*chart, outPath, dpi);
    if (!error.isEmpty()) {
        err(u"structscope chart: %1\n"_s.arg(error));
        return ExitFailure;
    }
    return ExitOk;
}

} // namespace

int chartCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Render a chart of a store's results headless (PNG, SVG or PDF)."_s);
    parser.addHelpOption();
    parser.addOption({ u"store"_s, u"SQLite file or postgresql:// URL."_s, u"DB"_s });
    parser.addOption({ u"kind"_s,
        u"leaderboard (bars with 95% intervals), heatmap, scatter (cost vs. metric), or upset / venn (which cases "
        u"fail for which --by groups)."_s,
        u"KIND"_s });
    parser.addOption(
        { u"metric"_s, u"Metric id (default: the first score in the store, e.g. ladder.correct)."_s, u"ID"_s });
    parser.addOption({ u"by"_s,
        u"leaderboard/scatter: group keys (comma-separated, default model); heatmap: the column key "
        u"(default category)."_s,
        u"KEY"_s });
    parser.addOption({ u"columns"_s,
        u"heatmap: the column key, as --by (field: a column per field of the gold, field_root: per top-level key; "
        u"with the field metrics)."_s,
        u"KEY"_s });
    parser.addOption({ u"rows"_s,
        u"heatmap: row keys (default model; e.g. model,strategy; or field, or field_root, with --columns model)."_s,
        u"KEYS"_s, u"model"_s });
    parser.addOption(
        { u"gold"_s, u"measured (original gold) or adjusted (current revision)."_s, u"BASIS"_s, u"measured"_s });
    parser.addOption({ u"dpi"_s, u"Resolution of PNG output (default 150)."_s, u"N"_s, u"150"_s });
    parser.addOption({ u"criterion"_s,
        u"upset/venn: when an answer fails: not-correct (default), error:KIND (mk, mv, wv, ...) or METRIC<THRESHOLD "
        u"(e.g. grounding.value_accuracy<0.8)."_s,
        u"C"_s });
    parser.addOption(
        { u"sets"_s, u"upset/venn: the sets to draw (comma-separated labels; default all)."_s, u"LABELS"_s });
    parser.addOption({ u"top"_s, u"upset: draw the N largest intersections (default 20)."_s, u"N"_s, u"20"_s });
    parser.addOption({ u"out"_s, u"Output file; the format follows the suffix: .png, .svg or .pdf."_s, u"FILE"_s });
    if (const std::optional<int> exit = parseCommandLine(parser, args, u"chart"_s, Positional::Refused))
        return *exit;
    const QString storeLocation = parser.value(u"store"_s);
    const QString kind = parser.value(u"kind"_s);
    const QString outPath = parser.value(u"out"_s);
    if (storeLocation.isEmpty() || kind.isEmpty() || outPath.isEmpty())
        return usage(u"--store DB, --kind leaderboard|heatmap|scatter|upset|venn and --out FILE are required"_s);
    const bool overlaps = kind == u"upset"_s || kind == u"venn"_s;
    if (kind != u"leaderboard"_s && kind != u"heatmap"_s && kind != u"scatter"_s && !overlaps)
        return usage(u"unknown kind '%1' (use leaderboard, heatmap, scatter, upset or venn)"_s.arg(kind));
    if (!overlaps && (parser.isSet(u"criterion"_s) || parser.isSet(u"sets"_s) || parser.isSet(u"top"_s)))
        return usage(u"--criterion, --sets and --top apply to --kind upset and venn only"_s);
    if (!chartFormatForPath(outPath))
        return usage(u"%1: the file name must end in .png, .svg or .pdf"_s.arg(outPath));
    const QString gold = parser.value(u"gold"_s);
    if (gold != u"measured"_s && gold != u"adjusted"_s)
        return usage(u"--gold must be measured or adjusted, not '%1'"_s.arg(gold));
    bool dpiOk = false;
    const int dpi = parser.value(u"dpi"_s).toInt(&dpiOk);
    if (!dpiOk || dpi < 36 || dpi > 1200)
        return usage(u"--dpi needs a number from 36 to 1200"_s);
    if (overlaps) {
        if (parser.isSet(u"metric"_s) || parser.isSet(u"rows"_s))
            return usage(u"--kind %1 takes --criterion instead of --metric, and --by instead of --rows"_s.arg(kind));
        return overlapsChart(parser, kind, outPath, dpi);
    }
    const QString metricArg = parser.value(u"metric"_s);
    if (!metricArg.isEmpty() && !findMetric(metricArg.toStdString()))
        return usage(u"unknown metric '%1' (see the metric glossary, e.g. ladder.correct)"_s.arg(metricArg));

    const bool heatmap = kind == u"heatmap"_s;
    AggregateOptions options;
    std::vector<std::string> rowKeys;
    if (heatmap) {
        if (parser.isSet(u"by"_s) && parser.isSet(u"columns"_s))
            return usage(u"--columns and --by name the same key of a heatmap: give one"_s);
        rowKeys = splitKeys(parser.value(u"rows"_s));
        options.groupBy = rowKeys;
        const QString column = parser.isSet(u"columns"_s) ? parser.value(u"columns"_s)
            : parser.isSet(u"by"_s)                       ? parser.value(u"by"_s)
                                                          : u"category"_s;
        options.groupBy.push_back(column.trimmed().toStdString());
        const auto fieldKeys = std::count_if(options.groupBy.begin(), options.groupBy.end(),
            [](const std::string& key) { return key == kFieldGroupKey || key == kFieldRootGroupKey; });
        if (fieldKeys > 1)
            return usage(u"a heatmap has one field axis"_s);
    } else {
        if (parser.isSet(u"columns"_s))
            return usage(u"--columns applies to --kind heatmap only"_s);
        options.groupBy
            = parser.isSet(u"by"_s) ? splitKeys(parser.value(u"by"_s)) : std::vector<std::string> { "model" };
    }
    for (const std::string& key : options.groupBy) {
        if (!knownKey(key))
            return usage(u"cannot group by '%1'"_s.arg(QString::fromStdString(key)));
    }
    if (options.groupBy.empty() || (heatmap && rowKeys.empty()))
        return usage(u"--by and --rows need at least one key"_s);

    auto store = openStoreReadOnly(storeLocation, u"chart"_s);
    if (!store)
        return ExitFailure;
    EvaluationOptions evaluationOptions;
    evaluationOptions.gold = gold == u"adjusted"_s ? GoldBasis::Adjusted : GoldBasis::Measured;
    const Evaluation evaluation = evaluateStore(*store, evaluationOptions);
    if (!evaluation.ok()) {
        err(u"structscope chart: %1\n"_s.arg(evaluation.error));
        return ExitFailure;
    }
    const ReportDataPtr data = makeReportData(evaluation.records, options, gold.toStdString());
    if (data->report.groups.empty()) {
        err(u"structscope chart: the store holds no responses to chart\n"_s);
        return ExitFailure;
    }
    const std::string metric = chooseMetric(*data, metricArg);
    if (std::find(data->report.metrics.begin(), data->report.metrics.end(), metric) == data->report.metrics.end()) {
        err(u"structscope chart: the store has no values of %1\n"_s.arg(QString::fromStdString(metric)));
        return ExitFailure;
    }

    std::unique_ptr<ExportableChart> chart;
    if (heatmap)
        chart = makeHeatmapChart(*data, rowKeys, options.groupBy.back(), metric);
    else if (kind == u"scatter"_s)
        chart = makeScatterChart(data, metric);
    else
        chart = makeLeaderboardChart(data, metric);
    const QString error = exportChart(*chart, outPath, dpi);
    if (!error.isEmpty()) {
        err(u"structscope chart: %1\n"_s.arg(error));
        return ExitFailure;
    }
    return ExitOk;
}

} // namespace structscope::cli
