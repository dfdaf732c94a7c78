// SPDX-License-Identifier: Apache-2.0
#include "analysis/heatmapdata.h"

#include "report/reportformatting.h"
#include "scoring/metricregistry.h"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

double meanOf(const std::vector<double>& values)
{
    double sum = 0;
    int n = 0;
    for (double v : values) {
        if (!std::isnan(v)) {
            sum += v;
            ++n;
        }
    }
    return n == 0 ? std::nan("") : sum / n;
}

/// A stable order of `count` lines by `key(i)`: numbers (NaN last in either direction), then labels.
std::vector<int> sortedOrder(
    int count, const HeatmapSort& sort, const std::function<double(int)>& key, const QStringList& labels)
{
    std::vector<int> order(static_cast<std::size_t>(count));
    std::iota(order.begin(), order.end(), 0);
    const bool descending = sort.order == Qt::DescendingOrder;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        if (sort.by != HeatmapSort::By::Label) {
            const double x = key(a);
            const double y = key(b);
            if (std::isnan(x) != std::isnan(y))
                return std::isnan(y);
            if (!std::isnan(x) && x != y)
                return descending ? x > y : x < y;
        }
        const int byLabel = QString::localeAwareCompare(labels[a], labels[b]);
        return sort.by == HeatmapSort::By::Label && descending ? byLabel > 0 : byLabel < 0;
    });
    return order;
}

} // namespace

double HeatmapData::rowMean(int row) const
{
    std::vector<double> values;
    values.reserve(std::size_t(columnCount()));
    for (int c = 0; c < columnCount(); ++c)
        values.push_back(cell(row, c).value);
    return meanOf(values);
}

double HeatmapData::columnMean(int column) const
{
    std::vector<double> values;
    values.reserve(std::size_t(rowCount()));
    for (int r = 0; r < rowCount(); ++r)
        values.push_back(cell(r, column).value);
    return meanOf(values);
}

void HeatmapData::sortRows(const HeatmapSort& sort)
{
    const int column = columnLabels.indexOf(sort.line);
    if (sort.by == HeatmapSort::By::Line && column < 0)
        return;
    const auto order = sortedOrder(
        rowCount(), sort, [&](int r) { return sort.by == HeatmapSort::By::Mean ? rowMean(r) : cell(r, column).value; },
        rowLabels);
    HeatmapData sorted = *this;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const int from = order[i];
        sorted.rows[i] = rows[std::size_t(from)];
        sorted.rowLabels[qsizetype(i)] = rowLabels[from];
        for (int c = 0; c < columnCount(); ++c)
            sorted.cells[i * std::size_t(columnCount()) + std::size_t(c)] = cell(from, c);
    }
    *this = std::move(sorted);
}

void HeatmapData::sortColumns(const HeatmapSort& sort)
{
    const auto row
        = std::find_if(rowLabels.cbegin(), rowLabels.cend(), [&](const QString& l) { return l == sort.line; });
    const int r = int(row - rowLabels.cbegin());
    if (sort.by == HeatmapSort::By::Line && row == rowLabels.cend())
        return;
    const auto order = sortedOrder(
        columnCount(), sort, [&](int c) { return sort.by == HeatmapSort::By::Mean ? columnMean(c) : cell(r, c).value; },
        columnLabels);
    HeatmapData sorted = *this;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const int from = order[i];
        sorted.columnLabels[qsizetype(i)] = columnLabels[from];
        sorted.columnValues[qsizetype(i)] = columnValues[from];
        for (int rr = 0; rr < rowCount(); ++rr)
            sorted.cells[std::size_t(rr * columnCount()) + i] = cell(rr, from);
    }
    *this = std::move(sorted);
}

void HeatmapData::filterRows(const QString& text)
{
    if (text.isEmpty())
        return;
    HeatmapData kept = *this;
    kept.rows.clear();
    kept.rowLabels.clear();
    kept.cells.clear();
    for (int r = 0; r < rowCount(); ++r) {
        if (!rowLabels[r].contains(text, Qt::CaseInsensitive))
            continue;
        kept.rows.push_back(rows[std::size_t(r)]);
        kept.rowLabels << rowLabels[r];
        for (int c = 0; c < columnCount(); ++c)
            kept.cells.push_back(cell(r, c));
    }
    *this = std::move(kept);
}

void HeatmapData::filterColumns(const QString& text)
{
    if (text.isEmpty())
        return;
    std::vector<int> keep;
    for (int c = 0; c < columnCount(); ++c) {
        if (columnLabels[c].contains(text, Qt::CaseInsensitive))
            keep.push_back(c);
    }
    HeatmapData kept = *this;
    kept.columnLabels.clear();
    kept.columnValues.clear();
    kept.cells.clear();
    for (const int c : keep) {
        kept.columnLabels << columnLabels[c];
        kept.columnValues << columnValues[c];
    }
    for (int r = 0; r < rowCount(); ++r) {
        for (const int c : keep)
            kept.cells.push_back(cell(r, c));
    }
    *this = std::move(kept);
}

QString fieldCountsText(const ReportGroup& group)
{
    const auto elementsAt = group.mean.find("field.elements");
    if (elementsAt == group.mean.end() || !(elementsAt->second > 0))
        return {};
    const double elements = elementsAt->second;
    const auto count = [&](const char* id) {
        const auto it = group.mean.find(id);
        return it == group.mean.end() || std::isnan(it->second) ? qint64(0)
                                                                : qint64(std::llround(it->second * elements));
    };
    return QObject::tr("%1 values in %2 responses: %3 right (%4 strictly), %5 missing, %6 wrong (%7 of another type), "
                       "%8 invented")
        .arg(qint64(elements))
        .arg(group.n)
        .arg(count("field.accuracy"))
        .arg(count("field.accuracy_strict"))
        .arg(count("field.missing"))
        .arg(count("field.wrong"))
        .arg(count("field.type_error"))
        .arg(count("field.invented"));
}

HeatmapData buildHeatmap(const ReportData& data, const std::vector<std::string>& rowKeys, const std::string& columnKey,
    const std::string& metricId)
{
    HeatmapData heatmap;
    heatmap.metricId = metricId;
    heatmap.rowKeys = rowKeys;
    heatmap.columnKey = columnKey;
    const Report& report = data.report;
    std::vector<std::string> expected = rowKeys;
    expected.push_back(columnKey);
    if (report.groupBy != expected)
        return heatmap;

    std::map<std::string, int> columnIndex;
    for (const ReportGroup& group : report.groups)
        columnIndex.emplace(group.key.back().second, 0);
    int next = 0;
    for (auto& [value, index] : columnIndex) {
        index = next++;
        heatmap.columnValues << QString::fromStdString(value);
        heatmap.columnLabels << (value.empty() ? u"—"_s : QString::fromStdString(value));
    }

    // Report groups are sorted by key, so the groups of one row are adjacent.
    std::map<std::vector<std::pair<std::string, std::string>>, int> rowIndex;
    for (const ReportGroup& group : report.groups) {
        const std::vector<std::pair<std::string, std::string>> rowKey(group.key.begin(), group.key.end() - 1);
        auto [it, inserted] = rowIndex.emplace(rowKey, heatmap.rowCount());
        if (inserted) {
            heatmap.rows.push_back(GroupKey { rowKey });
            ReportGroup rowGroup;
            rowGroup.key = rowKey;
            heatmap.rowLabels << data.groupLabel(rowGroup);
            heatmap.cells.resize(heatmap.cells.size() + std::size_t(heatmap.columnCount()));
        }
        HeatmapCell& cell = heatmap.cells[std::size_t(it->second) * std::size_t(heatmap.columnCount())
            + std::size_t(columnIndex[group.key.back().second])];
        cell.value = metricValue(group, metricId);
        cell.ci = metricInterval(group, metricId);
        cell.n = group.n;
        cell.errored = group.errored;
        cell.detail = fieldCountsText(group);
    }

    const MetricInfo* info = findMetric(metricId);
    heatmap.higherIsBetter = !info || info->higherIsBetter;
    if (isPlainValueMetric(metricId)) {
        double lo = std::numeric_limits<double>::infinity();
        double hi = -lo;
        for (const HeatmapCell& cell : heatmap.cells) {
            if (std::isfinite(cell.value)) {
                lo = std::min(lo, cell.value);
                hi = std::max(hi, cell.value);
            }
        }
        if (lo > hi) {
            lo = 0;
            hi = 1;
        } else if (lo == hi) {
            hi = lo + 1;
        }
        heatmap.minimum = lo;
        heatmap.maximum = hi;
    }
    return heatmap;
}

} // namespace structscope
