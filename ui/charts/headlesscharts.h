// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/configcomparison.h"
#include "analysis/errorsets.h"
#include "analysis/reportdata.h"
#include "report/failureoverlaps.h"

#include <QSize>
#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace structscope {

class ExportableChart;

// The charts the headless commands (`structscope chart`, `structscope demo`) draw: the widgets of the
// pages, filled with one value each, ready for exportChart(). They need a QApplication (offscreen is
// enough) and never appear on a screen. `size` is the export size in logical pixels; a width or height of
// 0 keeps the chart's own (the default 900 × 540 of a QtCharts chart, a heatmap's natural size, an
// error-set chart's height for its width).

/// Bars of one metric per report group, best first, with 95% intervals (the Leaderboard page's chart), laid
/// horizontally whatever their number: every group's name is written whole on its row (on screen long names are
/// elided in the middle, with the whole name in the tooltip), and the picture is at least as large as the names
/// and rows need, whatever `size` asks.
std::unique_ptr<ExportableChart> makeLeaderboardChart(
    ReportDataPtr data, const std::string& metricId, const QSize& size = {});
/// Cost against a metric per group.
std::unique_ptr<ExportableChart> makeScatterChart(
    ReportDataPtr data, const std::string& metricId, const QSize& size = {});
/// A metric by row groups (`rowKeys`) × the values of `columnKey`, titled "<metric> by <column>". `data`
/// must be grouped by rowKeys + {columnKey}.
std::unique_ptr<ExportableChart> makeHeatmapChart(const ReportData& data, const std::vector<std::string>& rowKeys,
    const std::string& columnKey, const std::string& metricId, const QSize& size = {});
/// Error-set Venn diagrams (UpSet plots beyond three labels), one panel per group.
std::unique_ptr<ExportableChart> makeErrorSetsChart(
    std::vector<ErrorSetCounts> groups, const QString& title, const QSize& size = {});
/// Which cases fail for which sets (the Errors page across models): a Venn diagram of one to three sets, else (or
/// with `upSet`) an UpSet plot of the `topN` largest intersections.
std::unique_ptr<ExportableChart> makeOverlapsChart(
    FailureOverlaps overlaps, const QString& title, int topN, bool upSet, const QSize& size = {});
/// Paired comparisons as a forest plot of B − A with bootstrap intervals.
std::unique_ptr<ExportableChart> makeComparisonChart(
    const std::vector<ConfigComparison>& comparisons, const QSize& size = {});

} // namespace structscope
