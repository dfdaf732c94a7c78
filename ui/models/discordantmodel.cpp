// SPDX-License-Identifier: Apache-2.0
#include "models/discordantmodel.h"

#include "analysis/metricformat.h"
#include "scoring/metricregistry.h"

using namespace Qt::StringLiterals;

namespace structscope {

DiscordantModel::DiscordantModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void DiscordantModel::setComparison(ConfigComparisonPtr comparison)
{
    beginResetModel();
    m_comparison = std::move(comparison);
    endResetModel();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

int DiscordantModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_comparison ? 0 : int(m_comparison->discordant.size());
}

int DiscordantModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

CaseRef DiscordantModel::worseSide(int row) const
{
    if (!m_comparison || row < 0 || row >= rowCount())
        return {};
    const DiscordantCase& d = m_comparison->discordant[std::size_t(row)];
    const MetricInfo* info = findMetric(m_comparison->metric);
    const bool higherIsBetter = !info || info->higherIsBetter;
    const bool aWorse = higherIsBetter ? d.a < d.b : d.a > d.b;
    return aWorse ? d.refA : d.refB;
}

QVariant DiscordantModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_comparison || index.row() >= rowCount())
        return {};
    const DiscordantCase& d = m_comparison->discordant[std::size_t(index.row())];
    if (role == GroupKeyRole) {
        const CaseRef ref = worseSide(index.row());
        return QVariant::fromValue(GroupKey { { { "suite", ref.suite.toStdString() },
            { "case", ref.caseId.toStdString() }, { "model", ref.model.toStdString() },
            { "strategy", ref.strategy.toStdString() }, { "repeat", std::to_string(ref.repeat) } } });
    }
    if (role == Qt::TextAlignmentRole) {
        const int column = index.column();
        return column == Repeat || column == ValueA || column == ValueB
            ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
            : QVariant();
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool display = role == Qt::DisplayRole;
    const auto label = [](LadderLabel l) { return QString::fromLatin1(ladderLabelId(l)).replace(u'_', u' '); };
    switch (Column(index.column())) {
    case Suite:
        return d.suite;
    case Case:
        return d.caseId;
    case Category:
        return d.category;
    case Repeat:
        return d.repeat;
    case ValueA:
        return display ? QVariant(formatMetricValue(m_comparison->metric, d.a)) : QVariant(d.a);
    case ValueB:
        return display ? QVariant(formatMetricValue(m_comparison->metric, d.b)) : QVariant(d.b);
    case VerdictA:
        return label(d.verdictA);
    case VerdictB:
        return label(d.verdictB);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant DiscordantModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Suite:
        return tr("Suite");
    case Case:
        return tr("Case");
    case Category:
        return tr("Category");
    case Repeat:
        return tr("Repeat");
    case ValueA:
        return tr("A: %1").arg(m_comparison ? metricLabel(m_comparison->metric) : QString());
    case ValueB:
        return tr("B: %1").arg(m_comparison ? metricLabel(m_comparison->metric) : QString());
    case VerdictA:
        return tr("A verdict");
    case VerdictB:
        return tr("B verdict");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace structscope
