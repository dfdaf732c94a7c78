// SPDX-License-Identifier: Apache-2.0
#include "models/failureoverlapsmodel.h"

#include "analysis/metricformat.h"

#include <algorithm>
#include <bit>
#include <map>

using namespace Qt::StringLiterals;

namespace structscope {

OverlapSetsModel::OverlapSetsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void OverlapSetsModel::setMatrix(FailureMatrixPtr matrix)
{
    std::map<QString, bool> previous;
    if (m_matrix) {
        for (std::size_t i = 0; i < m_matrix->sets.size(); ++i)
            previous[m_matrix->sets[i].label()] = m_checked[i];
    }
    beginResetModel();
    m_matrix = std::move(matrix);
    m_checked.assign(m_matrix ? m_matrix->sets.size() : 0, true);
    if (m_matrix) {
        for (std::size_t i = 0; i < m_matrix->sets.size(); ++i) {
            const auto it = previous.find(m_matrix->sets[i].label());
            if (it != previous.end())
                m_checked[i] = it->second;
        }
    }
    endResetModel();
    Q_EMIT checkedChanged();
}

std::vector<int> OverlapSetsModel::checkedSets() const
{
    std::vector<int> sets;
    for (std::size_t i = 0; i < m_checked.size(); ++i) {
        if (m_checked[i])
            sets.push_back(int(i));
    }
    return sets;
}

bool OverlapSetsModel::isChecked(int row) const
{
    return row >= 0 && row < int(m_checked.size()) && m_checked[std::size_t(row)];
}

void OverlapSetsModel::setChecked(int row, bool checked)
{
    if (row < 0 || row >= int(m_checked.size()) || m_checked[std::size_t(row)] == checked)
        return;
    m_checked[std::size_t(row)] = checked;
    Q_EMIT dataChanged(index(row, Set), index(row, Set), { Qt::CheckStateRole });
    Q_EMIT checkedChanged();
}

void OverlapSetsModel::setAllChecked(bool checked)
{
    if (m_checked.empty())
        return;
    std::fill(m_checked.begin(), m_checked.end(), checked);
    Q_EMIT dataChanged(index(0, Set), index(rowCount() - 1, Set), { Qt::CheckStateRole });
    Q_EMIT checkedChanged();
}

void OverlapSetsModel::setCheckedLabels(const QStringList& labels)
{
    if (m_checked.empty())
        return;
    for (std::size_t i = 0; i < m_checked.size(); ++i)
        m_checked[i] = labels.contains(m_matrix->sets[i].label());
    Q_EMIT dataChanged(index(0, Set), index(rowCount() - 1, Set), { Qt::CheckStateRole });
    Q_EMIT checkedChanged();
}

int OverlapSetsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_matrix ? 0 : int(m_matrix->sets.size());
}

int OverlapSetsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OverlapSetsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_matrix || index.row() >= rowCount())
        return {};
    const OverlapSet& set = m_matrix->sets[std::size_t(index.row())];
    const bool display = role == Qt::DisplayRole;
    if (role == Qt::CheckStateRole && index.column() == Set)
        return m_checked[std::size_t(index.row())] ? Qt::Checked : Qt::Unchecked;
    if (role == Qt::ToolTipRole && index.column() == Set)
        return tr("%1: fails %2 of the %3 cases it answered (%4 ties, not failed)")
            .arg(set.label())
            .arg(set.failed)
            .arg(set.answered)
            .arg(set.ties);
    if (role == Qt::TextAlignmentRole && index.column() != Set)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (!display && role != SortRole)
        return {};
    switch (Column(index.column())) {
    case Set: {
        if (!display)
            return set.label();
        QStringList values;
        for (const auto& [key, value] : set.parts) {
            const QString v = QString::fromStdString(value);
            values << (key == "model" ? displayModelName(v, set.simulated) : v);
        }
        return values.join(u" · "_s);
    }
    case Failed:
        return set.failed;
    case Answered:
        return set.answered;
    case Ties:
        return set.ties;
    case ColumnCount:
        break;
    }
    return {};
}

bool OverlapSetsModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || index.column() != Set || role != Qt::CheckStateRole || index.row() >= rowCount())
        return false;
    setChecked(index.row(), Qt::CheckState(value.toInt()) == Qt::Checked);
    return true;
}

Qt::ItemFlags OverlapSetsModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == Set)
        f |= Qt::ItemIsUserCheckable;
    return f;
}

QVariant OverlapSetsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Set:
        return tr("Set");
    case Failed:
        return tr("Fails");
    case Answered:
        return tr("Answered");
    case Ties:
        return tr("Ties");
    case ColumnCount:
        break;
    }
    return {};
}

OverlapRegionsModel::OverlapRegionsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void OverlapRegionsModel::setOverlaps(std::shared_ptr<const FailureOverlaps> overlaps)
{
    beginResetModel();
    m_overlaps = std::move(overlaps);
    endResetModel();
}

int OverlapRegionsModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_overlaps || m_overlaps->sets.empty())
        return 0;
    return int(m_overlaps->regions.size()) + 1; // the last row: none of these
}

int OverlapRegionsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OverlapRegionsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_overlaps || index.row() >= rowCount())
        return {};
    const bool none = index.row() == int(m_overlaps->regions.size());
    const std::uint64_t mask = none ? 0 : m_overlaps->regions[std::size_t(index.row())].mask;
    const int count = m_overlaps->region(mask);
    if (role == MaskRole)
        return QVariant::fromValue(quint64(mask));
    if (role == GroupKeyRole) {
        const QString caption = mask == 0 ? tr("failed by none of the chosen sets")
                                          : tr("failed by %1 only").arg(m_overlaps->regionLabel(mask));
        return QVariant::fromValue(overlapDrillKey(*m_overlaps, overlapRegionCases(*m_overlaps, mask), caption));
    }
    if (role == Qt::TextAlignmentRole && index.column() != Sets)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == Sets)
        return m_overlaps->regionLabel(mask);
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (Column(index.column())) {
    case Sets:
        return m_overlaps->regionLabel(mask);
    case Degree:
        return std::popcount(mask);
    case Cases:
        return count;
    case ColumnCount:
        break;
    }
    return {};
}

QVariant OverlapRegionsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Sets:
        return tr("Failed by exactly");
    case Degree:
        return tr("Sets");
    case Cases:
        return tr("Cases");
    case ColumnCount:
        break;
    }
    return {};
}

std::vector<CaseKey> overlapRegionCases(const FailureOverlaps& overlaps, std::uint64_t mask)
{
    if (mask == 0)
        return overlaps.none;
    for (const OverlapRegion& r : overlaps.regions) {
        if (r.mask == mask)
            return r.cases;
    }
    return {};
}

std::vector<CaseKey> overlapSetCases(const FailureOverlaps& overlaps, int set)
{
    std::vector<CaseKey> cases;
    for (const OverlapRegion& r : overlaps.regions) {
        if ((r.mask >> set) & 1u)
            cases.insert(cases.end(), r.cases.begin(), r.cases.end());
    }
    std::sort(cases.begin(), cases.end());
    return cases;
}

GroupKey overlapDrillKey(const FailureOverlaps& overlaps, const std::vector<CaseKey>& cases, const QString& caption)
{
    QStringList caseLines;
    for (const CaseKey& c : cases)
        caseLines << c.suite + u'\t' + c.caseId;
    QStringList setLines;
    for (const OverlapSet& s : overlaps.sets) {
        QStringList parts;
        for (const auto& [key, value] : s.parts)
            parts << QString::fromStdString(key) + u'=' + QString::fromStdString(value);
        setLines << parts.join(u'\t');
    }
    GroupKey key;
    key.parts.emplace_back(kOverlapKey, caption.toStdString());
    key.parts.emplace_back(kOverlapCasesKey, caseLines.join(u'\n').toStdString());
    key.parts.emplace_back(kOverlapSetsKey, setLines.join(u'\n').toStdString());
    return key;
}

} // namespace structscope
