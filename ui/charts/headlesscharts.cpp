// SPDX-License-Identifier: Apache-2.0
#include "charts/headlesscharts.h"

#include "report/fieldreport.h"

#include "analysis/heatmapdata.h"
#include "analysis/metricformat.h"
#include "charts/comparisonchart.h"
#include "charts/costaccuracychart.h"
#include "charts/errorsetschart.h"
#include "charts/heatmapwidget.h"
#include "charts/metricbarchart.h"
#include "charts/overlapschart.h"

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

/// The charts export at their on-screen size while visible: a widget that is "shown" without ever
/// reaching the screen exports at `size` (0 keeps the chart's own width or height).
template <typename Chart> std::unique_ptr<ExportableChart> sized(std::unique_ptr<Chart> chart, const QSize& size)
{
    if (size.width() > 0 || size.height() > 0) {
        const QSize own = chart->exportSize();
        chart->setAttribute(Qt::WA_DontShowOnScreen);
        chart->resize(size.width() > 0 ? size.width() : own.width(), size.height() > 0 ? size.height() : own.height());
        chart->show();
    }
    return chart;
}

} // namespace

std::unique_ptr<ExportableChart> makeLeaderboardChart(
    ReportDataPtr data, const std::string& metricId, const QSize& size)
{
    auto chart = std::make_unique<MetricBarChart>();
    // A picture has no tooltips: the reader needs every group's whole name. Horizontal bars write each on its
    // row, and the chart's export size leaves room for the longest.
    chart->setAlwaysHorizontal(true);
    chart->setReport(std::move(data), metricId);
    return sized(std::move(chart), size);
}

std::unique_ptr<ExportableChart> makeScatterChart(ReportDataPtr data, const std::string& metricId, const QSize& size)
{
    auto chart = std::make_unique<CostAccuracyChart>();
    chart->setReport(std::move(data), metricId);
    return sized(std::move(chart), size);
}

std::unique_ptr<ExportableChart> makeHeatmapChart(const ReportData& data, const std::vector<std::string>& rowKeys,
    const std::string& columnKey, const std::string& metricId, const QSize& size)
{
    auto widget = std::make_unique<HeatmapWidget>();
    widget->setData(buildHeatmap(data, rowKeys, columnKey, metricId));
    // Fields (docs/metrics.md "Fields") come worst first, as the Heatmap page shows them.
    const auto isField = [](const std::string& key) { return key == kFieldGroupKey || key == kFieldRootGroupKey; };
    const HeatmapSort worst { HeatmapSort::By::Mean, {},
        widget->data().higherIsBetter ? Qt::AscendingOrder : Qt::DescendingOrder };
    if (rowKeys.size() == 1 && isField(rowKeys.front()))
        widget->setRowSort(worst);
    if (isField(columnKey))
        widget->setColumnSort(worst);
    QString column = QString::fromStdString(columnKey);
    widget->setTitle(u"%1 by %2"_s.arg(metricLabel(metricId), column.replace(u'_', u' ')));
    return sized(std::move(widget), size);
}

std::unique_ptr<ExportableChart> makeErrorSetsChart(
    std::vector<ErrorSetCounts> groups, const QString& title, const QSize& size)
{
    auto chart = std::make_unique<ErrorSetsChart>();
    chart->setTitle(title);
    chart->setData(std::move(groups));
    return sized(std::move(chart), size);
}

std::unique_ptr<ExportableChart> makeComparisonChart(
    const std::vector<ConfigComparison>& comparisons, const QSize& size)
{
    auto chart = std::make_unique<ComparisonChart>();
    chart->setComparisons(comparisons);
    return sized(std::move(chart), size);
}

std::unique_ptr<ExportableChart> makeOverlapsChart(
    FailureOverlaps overlaps, const QString& title, int topN, bool upSet, const QSize& size)
{
    auto chart = std::make_unique<OverlapsChart>();
    chart->setTitle(title);
    chart->setTopN(topN);
    chart->setUpSetAlways(upSet);
    chart->setData(std::move(overlaps));
    return sized(std::move(chart), size);
}

} // namespace structscope
