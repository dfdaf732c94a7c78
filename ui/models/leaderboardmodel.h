// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/groupkey.h"
#include "analysis/reportdata.h"

#include <QAbstractTableModel>

#include <string>
#include <vector>

namespace structscope {

/// One row per report group: its key columns, the scores of one metric family with their 95%
/// intervals, n, the errored slots (when there are any), cost per success and p50/p95 latency. Holds one ReportData
/// value and never touches a widget.
class LeaderboardModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Role {
        SortRole = Qt::UserRole, ///< the raw value: a double (NaN when missing) or the key text
        GroupKeyRole, ///< the row's GroupKey, for drill-down
        IntervalRole, ///< the cell's Interval (metric columns)
        MetricIdRole, ///< the column's metric id (QString; empty for key and n columns)
        ColumnIdRole, ///< a stable name of the column: "key:<name>", the metric id, "n" or "errored" (column chooser)
    };

    /// Count: the group's answers (n). Errored: its errored slots, count and share, shown when some group has any.
    enum class ColumnKind { Key, Metric, Count, Errored };
    struct Column
    {
        ColumnKind kind = ColumnKind::Key;
        std::string id; ///< key name or metric id
    };

    explicit LeaderboardModel(QObject* parent = nullptr);

    void setReport(ReportDataPtr data);
    ReportDataPtr report() const { return m_data; }
    /// Shows the scores of this family ("ladder", "grounding", ...).
    void setFamily(const QString& family);
    QString family() const { return m_family; }

    const std::vector<Column>& columns() const { return m_columns; }
    /// The column showing this metric, or -1.
    int columnOf(const std::string& metricId) const;
    GroupKey groupKeyAt(int row) const;
    /// The table as shown (these rows, these metrics), for export through the report writers.
    Report shownReport() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Fixed columns after the family's scores.
    static const std::vector<std::string>& trailingMetrics();

private:
    void rebuildColumns();
    QVariant metricData(const ReportGroup& group, const Column& column, int role) const;

    ReportDataPtr m_data;
    QString m_family;
    std::vector<Column> m_columns;
    std::vector<double> m_best; ///< per column: the best value of a metric column (NaN otherwise)
};

/// A group's errored slots for a tooltip: "errored = 5 (6.3%): …", what they are and that no score counts them.
QString erroredToolTip(const ReportGroup& group);

} // namespace structscope
