// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/heatmapdata.h"

#include <QAbstractTableModel>

namespace structscope {

/// A heatmap as a table: one row per heatmap row, one column per heatmap column (after the row
/// label), each cell "value [low, high] · n". The exact numbers behind the colours, sortable and
/// reachable by keyboard. Holds one HeatmapData value.
class HeatmapModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Role {
        SortRole = Qt::UserRole, ///< the raw value (double, NaN when missing) or the row label
        GroupKeyRole, ///< the cell's GroupKey: the row's key plus (column key, column value)
        IntervalRole, ///< the cell's Interval
        CountRole, ///< the cell's n
    };

    explicit HeatmapModel(QObject* parent = nullptr);

    void setHeatmap(HeatmapData data);
    const HeatmapData& heatmap() const { return m_data; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    HeatmapData m_data;
};

} // namespace structscope
