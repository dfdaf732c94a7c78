// SPDX-License-Identifier: Apache-2.0
#include "models/runsmodel.h"

#include "analysis/metricformat.h"
#include "providers/modelspec.h"
#include "report/reportformatting.h"

using namespace Qt::StringLiterals;

namespace structscope {

RunsModel::RunsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
    qRegisterMetaType<RunSummariesPtr>();
}

void RunsModel::setSummaries(RunSummariesPtr summaries)
{
    beginResetModel();
    m_summaries = std::move(summaries);
    endResetModel();
}

void RunsModel::setActiveRuns(const QSet<qint64>& runIds)
{
    if (runIds == m_active)
        return;
    m_active = runIds;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, Status), index(rowCount() - 1, Status));
}

const RunSummary* RunsModel::summaryAt(int row) const
{
    if (!m_summaries || row < 0 || row >= m_summaries->runs.size())
        return nullptr;
    return &m_summaries->runs[row];
}

int RunsModel::rowOf(qint64 runId) const
{
    for (int row = 0; row < rowCount(); ++row) {
        if (m_summaries->runs[row].run.id == runId)
            return row;
    }
    return -1;
}

QString RunsModel::statusText(const RunSummary& summary) const
{
    const RunStatus status = summary.run.status;
    if ((status == RunStatus::Running || status == RunStatus::Paused) && !m_active.contains(summary.run.id))
        return tr("stopped");
    return runStatusName(status);
}

int RunsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_summaries ? 0 : int(m_summaries->runs.size());
}

int RunsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RunsModel::timeText(const QDateTime& at)
{
    return at.isValid() ? at.toLocalTime().toString(u"yyyy-MM-dd HH:mm:ss"_s) : QString();
}

QString RunsModel::costText(const std::optional<double>& cost)
{
    return cost ? u"$"_s + QString::fromStdString(displayNumber(*cost, 3, true)) : u"—"_s;
}

QString RunsModel::errorKindsText(const QMap<QString, qint64>& byKind)
{
    QStringList parts;
    for (auto it = byKind.cbegin(); it != byKind.cend(); ++it)
        parts << u"%1 %2"_s.arg(QString::number(it.value()), it.key());
    return parts.join(u", "_s);
}

QVariant RunsModel::display(const RunSummary& s, int column) const
{
    switch (column) {
    case Id:
        return s.retryOf ? tr("%1 (retry of %2)").arg(s.run.id).arg(*s.retryOf) : QString::number(s.run.id);
    case Model: {
        // The provider and model; the endpoint and options are in the tooltip.
        const auto spec = parseModelSpec(s.run.modelSpec);
        return displayModelName(spec ? spec->label() : s.run.modelSpec, s.simulated());
    }
    case Strategy:
        return s.run.strategy;
    case Suite:
        return s.suiteId;
    case Status:
        return statusText(s);
    case Started:
        return timeText(s.run.startedAt);
    case Ended:
        return timeText(s.run.finishedAt);
    case Answered:
        return u"%1/%2"_s.arg(QString::number(s.answered), QString::number(s.total));
    case Errors:
        return QString::number(s.errors);
    case Cost:
        return costText(s.cost);
    default:
        return {};
    }
}

QVariant RunsModel::sortValue(const RunSummary& s, int column) const
{
    switch (column) {
    case Id:
        return s.run.id;
    case Started:
        return s.run.startedAt;
    case Ended:
        return s.run.finishedAt;
    case Answered:
        return s.answered;
    case Errors:
        return s.errors;
    case Cost:
        return s.cost.value_or(-1.0);
    default:
        return display(s, column);
    }
}

QVariant RunsModel::toolTip(const RunSummary& s, int column) const
{
    switch (column) {
    case Id:
        return s.retryOf ? tr("Asks the errored answers of run %1 again").arg(*s.retryOf) : QVariant();
    case Model:
        return s.simulated() ? tr("Simulated model: answers made from the gold with seeded faults")
                             : QVariant(s.run.modelSpec);
    case Suite:
        return tr("%1 (%2, version %3)").arg(s.suiteName, s.suiteId, s.suiteVersion);
    case Status:
        if (statusText(s) == tr("stopped"))
            return tr("No session sends for this run (StructScope was closed while it ran): resume it to finish");
        return {};
    case Answered:
        return tr("%1 of %2 (case, repeat) slots have a stored answer").arg(s.answered).arg(s.total);
    case Errors:
        return s.errors > 0 ? errorKindsText(s.errorsByKind) : QVariant();
    default:
        return {};
    }
}

QVariant RunsModel::data(const QModelIndex& index, int role) const
{
    const RunSummary* s = index.isValid() ? summaryAt(index.row()) : nullptr;
    if (!s || index.column() >= ColumnCount)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return display(*s, index.column());
    case SortRole:
        return sortValue(*s, index.column());
    case RunIdRole:
        return s->run.id;
    case Qt::ToolTipRole:
        return toolTip(*s, index.column());
    case Qt::TextAlignmentRole:
        if (index.column() == Id || index.column() == Answered || index.column() == Errors || index.column() == Cost)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant RunsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Id:
        return tr("Run");
    case Model:
        return tr("Model");
    case Strategy:
        return tr("Strategy");
    case Suite:
        return tr("Suite");
    case Status:
        return tr("Status");
    case Started:
        return tr("Started");
    case Ended:
        return tr("Ended");
    case Answered:
        return tr("Answered");
    case Errors:
        return tr("Errors");
    case Cost:
        return tr("Cost");
    default:
        return {};
    }
}

} // namespace structscope
