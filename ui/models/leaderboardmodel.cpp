// SPDX-License-Identifier: Apache-2.0
#include "models/leaderboardmodel.h"

#include "analysis/metricformat.h"
#include "report/reportformatting.h"
#include "scoring/metricregistry.h"

#include <QFont>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

QString keyTitle(const std::string& key)
{
    QString title = QString::fromStdString(key);
    title.replace(u'_', u' ');
    if (!title.isEmpty())
        title[0] = title[0].toUpper();
    return title;
}

} // namespace

QString erroredToolTip(const ReportGroup& group)
{
    return formatErrored(group.n, group.errored)
        + LeaderboardModel::tr(": slots the transport or provider failed, in neither n nor any score");
}

LeaderboardModel::LeaderboardModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

const std::vector<std::string>& LeaderboardModel::trailingMetrics()
{
    static const std::vector<std::string> ids
        = { "ladder.cost_per_success", "ladder.latency_p50", "ladder.latency_p95" };
    return ids;
}

void LeaderboardModel::setReport(ReportDataPtr data)
{
    beginResetModel();
    m_data = std::move(data);
    rebuildColumns();
    endResetModel();
}

void LeaderboardModel::setFamily(const QString& family)
{
    if (family == m_family)
        return;
    beginResetModel();
    m_family = family;
    rebuildColumns();
    endResetModel();
}

void LeaderboardModel::rebuildColumns()
{
    m_columns.clear();
    m_best.clear();
    if (!m_data)
        return;
    const Report& report = m_data->report;
    for (const std::string& key : report.groupBy)
        m_columns.push_back({ ColumnKind::Key, key });
    for (const std::string& id : m_data->scoreMetrics(m_family))
        m_columns.push_back({ ColumnKind::Metric, id });
    m_columns.push_back({ ColumnKind::Count, "n" });
    if (std::any_of(report.groups.begin(), report.groups.end(), [](const ReportGroup& g) { return g.errored > 0; }))
        m_columns.push_back({ ColumnKind::Errored, "errored" });
    for (const std::string& id : trailingMetrics())
        m_columns.push_back({ ColumnKind::Metric, id });
    // Repeats: only when the data asked cases more than once.
    for (const std::string id : { "ladder.consistency", "ladder.pass_hat_k" }) {
        if (std::find(report.metrics.begin(), report.metrics.end(), id) != report.metrics.end())
            m_columns.push_back({ ColumnKind::Metric, id });
    }

    // The best value of each metric column is shown in bold, as the LaTeX writer does.
    for (const Column& column : m_columns) {
        double best = std::nan("");
        const MetricInfo* info = column.kind == ColumnKind::Metric ? findMetric(column.id) : nullptr;
        if (info && report.groups.size() > 1) {
            for (const ReportGroup& group : report.groups) {
                const double v = metricValue(group, column.id);
                if (std::isfinite(v) && (std::isnan(best) || (info->higherIsBetter ? v > best : v < best)))
                    best = v;
            }
        }
        m_best.push_back(best);
    }
}

int LeaderboardModel::columnOf(const std::string& metricId) const
{
    for (std::size_t c = 0; c < m_columns.size(); ++c) {
        if (m_columns[c].kind == ColumnKind::Metric && m_columns[c].id == metricId)
            return int(c);
    }
    return -1;
}

GroupKey LeaderboardModel::groupKeyAt(int row) const
{
    if (!m_data || row < 0 || row >= rowCount())
        return {};
    return GroupKey { m_data->report.groups[std::size_t(row)].key };
}

Report LeaderboardModel::shownReport() const
{
    if (!m_data)
        return {};
    Report shown = m_data->report;
    shown.metrics.clear();
    for (const Column& column : m_columns) {
        if (column.kind == ColumnKind::Metric)
            shown.metrics.push_back(column.id);
    }
    return shown;
}

int LeaderboardModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_data ? 0 : int(m_data->report.groups.size());
}

int LeaderboardModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant LeaderboardModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ReportGroup& group = m_data->report.groups[std::size_t(index.row())];
    const Column& column = m_columns[std::size_t(index.column())];
    if (role == GroupKeyRole)
        return QVariant::fromValue(GroupKey { group.key });
    if (role == MetricIdRole)
        return column.kind == ColumnKind::Metric ? QString::fromStdString(column.id) : QString();

    switch (column.kind) {
    case ColumnKind::Key: {
        const auto& value = group.key[std::size_t(index.column())].second;
        const QString text = QString::fromStdString(value);
        switch (role) {
        case Qt::DisplayRole:
            return column.id == "model" ? displayModelName(text, m_data->simulatedModels.contains(text)) : text;
        case SortRole:
        case Qt::ToolTipRole:
            return text;
        default:
            return {};
        }
    }
    case ColumnKind::Count:
        switch (role) {
        case Qt::DisplayRole:
        case SortRole:
            return group.n;
        case Qt::TextAlignmentRole:
            return int(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
        }
    case ColumnKind::Errored:
        switch (role) {
        case Qt::DisplayRole:
            return QString::fromStdString(erroredCell(group));
        case SortRole:
            return group.errored;
        case Qt::ToolTipRole:
            return erroredToolTip(group);
        case Qt::TextAlignmentRole:
            return int(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
        }
    case ColumnKind::Metric:
        break;
    }
    if (role == Qt::FontRole) {
        const double best = m_best[std::size_t(index.column())];
        const double v = metricValue(group, column.id);
        if (!std::isnan(best) && v == best) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    }
    return metricData(group, column, role);
}

QVariant LeaderboardModel::metricData(const ReportGroup& group, const Column& column, int role) const
{
    const double value = metricValue(group, column.id);
    const Interval ci = metricInterval(group, column.id);
    switch (role) {
    case Qt::DisplayRole: {
        const QString interval = formatInterval(column.id, ci);
        return interval.isEmpty() ? formatMetricValue(column.id, value)
                                  : formatMetricValue(column.id, value) + u"  "_s + interval;
    }
    case SortRole:
        return value;
    case IntervalRole:
        return QVariant::fromValue(ci);
    case Qt::TextAlignmentRole:
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole: {
        QString tip = u"<b>%1</b> — %2<br>%3 = %4"_s.arg(m_data->groupLabel(group).toHtmlEscaped(),
            metricLabel(column.id).toHtmlEscaped(), metricLabel(column.id).toHtmlEscaped(),
            formatMetricValue(column.id, value));
        if (ci.isValid())
            tip += u"<br>95% CI "_s + formatInterval(column.id, ci);
        if (const auto w = group.weightedMean.find(column.id); w != group.weightedMean.end())
            tip += u"<br>complexity-weighted "_s + formatMetricValue(column.id, w->second);
        tip += u"<br>n = %1"_s.arg(group.n);
        if (group.errored > 0)
            tip += u"<br>"_s + erroredToolTip(group);
        return tip;
    }
    default:
        return {};
    }
}

QVariant LeaderboardModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    const Column& column = m_columns[std::size_t(section)];
    switch (role) {
    case Qt::DisplayRole:
        switch (column.kind) {
        case ColumnKind::Key:
            return keyTitle(column.id);
        case ColumnKind::Count:
            return u"n"_s;
        case ColumnKind::Errored:
            return tr("Errored");
        case ColumnKind::Metric:
            return metricLabel(column.id);
        }
        return {};
    case Qt::ToolTipRole:
        if (column.kind == ColumnKind::Count)
            return tr("Answers in the group: the denominator of its scores");
        if (column.kind == ColumnKind::Errored)
            return tr("Slots whose last attempt failed at the transport or provider (timeout, HTTP error, rate limit, "
                      "malformed body, network): not answers of the model, left out of every score");
        return column.kind == ColumnKind::Metric ? metricToolTip(column.id) : QVariant();
    case MetricIdRole:
        return column.kind == ColumnKind::Metric ? QString::fromStdString(column.id) : QString();
    case ColumnIdRole:
        switch (column.kind) {
        case ColumnKind::Key:
            return QString(u"key:"_s + QString::fromStdString(column.id));
        case ColumnKind::Count:
            return u"n"_s;
        case ColumnKind::Errored:
            return u"errored"_s;
        case ColumnKind::Metric:
            return QString::fromStdString(column.id);
        }
        return {};
    default:
        return {};
    }
}

} // namespace structscope
