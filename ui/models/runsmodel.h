// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/runsummary.h"

#include <QAbstractTableModel>
#include <QSet>

namespace structscope {

/// The past runs of a workspace, newest first: model, strategy, suite, status, start and end, answered of
/// total slots, errors (by kind in the tooltip) and cost. Holds one RunSummaries value and never touches a
/// widget. Runs of the session in progress show their live status; a run the store calls "running" that no
/// session drives (StructScope was closed or crashed meanwhile) shows as "stopped".
class RunsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Id, Model, Strategy, Suite, Status, Started, Ended, Answered, Errors, Cost, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole, ///< the raw value (number, text or date)
        RunIdRole, ///< the run's id (qint64), every column
    };

    explicit RunsModel(QObject* parent = nullptr);

    void setSummaries(RunSummariesPtr summaries);
    RunSummariesPtr summaries() const { return m_summaries; }
    /// The runs a session is sending for right now (their stored "running"/"paused" is live).
    void setActiveRuns(const QSet<qint64>& runIds);
    const RunSummary* summaryAt(int row) const;
    /// The row of a run, or -1.
    int rowOf(qint64 runId) const;
    /// "finished", "cancelled", "interrupted", "paused", "running" or "stopped" (see the class comment).
    QString statusText(const RunSummary& summary) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "2025-04-17 09:30:05" in local time, "" when invalid.
    static QString timeText(const QDateTime& at);
    /// "$0.00123", "—" when unknown.
    static QString costText(const std::optional<double>& cost);
    /// "2 timeout, 1 http_5xx".
    static QString errorKindsText(const QMap<QString, qint64>& byKind);

private:
    QVariant display(const RunSummary& s, int column) const;
    QVariant sortValue(const RunSummary& s, int column) const;
    QVariant toolTip(const RunSummary& s, int column) const;

    RunSummariesPtr m_summaries;
    QSet<qint64> m_active;
};

} // namespace structscope
