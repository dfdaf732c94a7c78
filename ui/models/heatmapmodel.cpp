// SPDX-License-Identifier: Apache-2.0
#include "models/heatmapmodel.h"

#include "analysis/metricformat.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace structscope {

HeatmapModel::HeatmapModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void HeatmapModel::setHeatmap(HeatmapData data)
{
    beginResetModel();
    m_data = std::move(data);
    endResetModel();
}

int HeatmapModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_data.rowCount();
}

int HeatmapModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || m_data.isEmpty() ? 0 : m_data.columnCount() + 1;
}

QVariant HeatmapModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    if (index.column() == 0) {
        switch (role) {
        case Qt::DisplayRole:
        case SortRole:
            return m_data.rowLabels[row];
        case GroupKeyRole:
            return QVariant::fromValue(m_data.rows[std::size_t(row)]);
        default:
            return {};
        }
    }
    const int column = index.column() - 1;
    const HeatmapCell& cell = m_data.cell(row, column);
    switch (role) {
    case Qt::DisplayRole: {
        if (std::isnan(cell.value))
            return u"—"_s;
        QString text = formatMetricValue(m_data.metricId, cell.value);
        if (cell.ci.isValid())
            text += u"  "_s + formatInterval(m_data.metricId, cell.ci);
        return QString(text + u"  · n = %1"_s.arg(cell.n));
    }
    case SortRole:
        return cell.value;
    case GroupKeyRole:
        return QVariant::fromValue(
            m_data.rows[std::size_t(row)].with(m_data.columnKey, m_data.columnValues[column].toStdString()));
    case IntervalRole:
        return QVariant::fromValue(cell.ci);
    case CountRole:
        return cell.n;
    case Qt::TextAlignmentRole:
        return int(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant HeatmapModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section == 0) {
        QStringList keys;
        for (const std::string& key : m_data.rowKeys)
            keys << QString::fromStdString(key).replace(u'_', u' ');
        QString title = keys.join(u" × "_s);
        if (!title.isEmpty())
            title[0] = title[0].toUpper();
        return title;
    }
    return m_data.columnLabels[section - 1];
}

} // namespace structscope
