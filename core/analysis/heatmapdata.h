// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/groupkey.h"
#include "analysis/reportdata.h"
#include "stats/intervals.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <limits>
#include <string>
#include <vector>

namespace structscope {

/// One cell of a heatmap: the metric's value in one (row group, column value), its interval and size.
struct HeatmapCell
{
    double value = std::numeric_limits<double>::quiet_NaN(); ///< NaN: no record in this cell
    Interval ci;
    int n = 0; ///< answers
    int errored = 0; ///< errored slots, in no value (ReportGroup::errored)
    /// More about the cell for its tooltip (the outcome counts of a field cell); may be empty. Plain text.
    QString detail {};
};

/// How heatmap rows (or columns) are ordered.
struct HeatmapSort
{
    enum class By {
        Label, ///< by their label text
        Mean, ///< by the mean of their cells (missing cells ignored)
        Line ///< by the cells of one column (when sorting rows) or one row (when sorting columns)
    };
    By by = By::Label;
    QString line; ///< the label of that column or row (By::Line)
    Qt::SortOrder order = Qt::AscendingOrder;

    friend bool operator==(const HeatmapSort&, const HeatmapSort&) = default;
};

/// A metric laid out as rows (model, or model × strategy) by columns (category, tier, ...). A value.
struct HeatmapData
{
    std::string metricId;
    std::vector<std::string> rowKeys; ///< e.g. {"model"} or {"model", "strategy"}
    std::string columnKey; ///< e.g. "category"
    std::vector<GroupKey> rows; ///< each row's key (rowKeys order)
    QStringList rowLabels; ///< simulated models marked
    QStringList columnLabels; ///< the column key's values ("—" for an empty value)
    QStringList columnValues; ///< the raw values ("" allowed)
    std::vector<HeatmapCell> cells; ///< row-major, rows × columns
    double minimum = 0; ///< colour scale range: [0, 1] for shares and means, the data range otherwise
    double maximum = 1;
    bool higherIsBetter = true;

    int rowCount() const { return int(rows.size()); }
    int columnCount() const { return int(columnLabels.size()); }
    bool isEmpty() const { return rows.empty() || columnLabels.isEmpty(); }
    const HeatmapCell& cell(int row, int column) const
    {
        return cells[std::size_t(row) * std::size_t(columnCount()) + std::size_t(column)];
    }
    /// Mean of a row's (column's) values that are not NaN; NaN when it has none.
    double rowMean(int row) const;
    double columnMean(int column) const;

    /// Reorders rows (with their labels and cells). Missing values sort last in either order; ties
    /// keep the label order.
    void sortRows(const HeatmapSort& sort);
    void sortColumns(const HeatmapSort& sort);
    /// Keeps the rows (columns) whose label contains `text` (case-insensitive); empty text keeps all.
    void filterRows(const QString& text);
    void filterColumns(const QString& text);
};

/// The outcome counts of a field cell (field.* metrics) as one line: "12 values in 5 responses: 7 right (6 strictly),
/// 2 missing, 2 wrong (1 of another type), 1 invented". Empty for a group without field metrics.
QString fieldCountsText(const ReportGroup& group);

/// Builds a heatmap from a report grouped by rowKeys + {columnKey} (in that order). Rows and
/// columns come in label order. Empty when the report has another grouping.
HeatmapData buildHeatmap(const ReportData& data, const std::vector<std::string>& rowKeys, const std::string& columnKey,
    const std::string& metricId);

} // namespace structscope

Q_DECLARE_METATYPE(structscope::HeatmapData)
