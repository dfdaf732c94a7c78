// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "io/importjob.h"
#include "workspace/scoringservice.h"

#include <QObject>
#include <QSet>
#include <QThreadPool>

#include <atomic>
#include <memory>
#include <optional>

namespace structscope {

/// The open workspace: one store (SQLite file or PostgreSQL URL) and the suites imported into it.
/// Pages read it through the scoring service; imports run off the GUI thread, each with its own
/// store connection, and announce changed data when done.
class Workspace : public QObject
{
    Q_OBJECT
public:
    explicit Workspace(QObject* parent = nullptr);
    ~Workspace() override;

    /// Opens the store at `location` (creating a SQLite file when `create`), checking that it is a
    /// usable store. On failure the previous workspace stays open and `error` says why.
    bool open(const QString& location, bool create, QString* error = nullptr);
    void close();
    bool isOpen() const { return !m_location.isEmpty(); }
    QString location() const { return m_location; }
    /// The location without a password, for titles and messages.
    QString displayName() const { return m_displayName; }

    ScoringService* scoring() { return &m_scoring; }

    /// Imports files and suite folders in the background (see importIntoStore); progress and the
    /// outcome arrive through importProgress() and importFinished(). False when no workspace is
    /// open or an import is already running.
    bool startImport(const ImportRequest& request);
    bool isImporting() const { return m_importing; }
    void cancelImport();

    /// The store's content changed (an import, a run): every view re-reads it.
    void notifyDataChanged();
    /// Only the gold of these cases changed (a gold edit or its undo): every view re-reads it, and scoring reads
    /// and scores again only those cases' responses.
    void notifyGoldChanged(const QSet<qint64>& caseRows);
    /// Moves whenever the store's content may have changed beyond its gold: opened, closed, imported into, run.
    /// What a gold edit cannot change (the cases' input texts) need be read again only when this moved.
    quint64 contentGeneration() const { return m_contentGeneration; }
    /// The cases whose gold alone changed with the last dataChanged(), or nullopt when anything may have changed:
    /// a view of one case keeps what it shows when another case's gold was edited.
    const std::optional<QSet<qint64>>& goldOnlyChangedCases() const { return m_goldOnlyChangedCases; }

Q_SIGNALS:
    void opened(const QString& location);
    void closed();
    void dataChanged();
    void importProgress(qint64 done, qint64 total);
    void importFinished(const structscope::ImportOutcome& outcome);

private:
    QString m_location;
    QString m_displayName;
    ScoringService m_scoring;
    QThreadPool m_importPool;
    std::shared_ptr<std::atomic_bool> m_importCancel;
    bool m_importing = false;
    quint64 m_importGeneration = 0;
    quint64 m_contentGeneration = 0;
    std::optional<QSet<qint64>> m_goldOnlyChangedCases;
};

} // namespace structscope
