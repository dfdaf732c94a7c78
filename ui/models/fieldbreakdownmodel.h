// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/report.h"

#include <QAbstractTableModel>

#include <vector>

namespace structscope {

/// One group's fields as a table (a model's "by field" breakdown, docs/metrics.md "Fields"): a row per field with its
/// values, responses, accuracy and 95% interval, strict accuracy and the shares missing, wrong, invented and of
/// another type — worst accuracy first. Built from a report grouped by field (aggregateFields()).
class FieldBreakdownModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Field,
        Values,
        Responses,
        Accuracy,
        Interval95,
        Strict,
        Missing,
        Wrong,
        Invented,
        TypeError,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole, ///< the raw number (or the path) a column sorts by
        FieldRole, ///< the row's field path (QString)
    };

    explicit FieldBreakdownModel(QObject* parent = nullptr);

    /// Shows the groups of `report` (grouped by field, and possibly other keys) whose other keys equal `keys`, e.g.
    /// {{"model", "gpt-x"}}: their fields, worst accuracy first (fields without a value last, then by path).
    void setReport(const Report& report, const std::vector<std::pair<std::string, std::string>>& keys);
    /// The field path of a row.
    QString fieldAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QString field;
        ReportGroup group;
    };
    std::vector<Row> m_rows;
};

} // namespace structscope
