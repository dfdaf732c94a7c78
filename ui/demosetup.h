// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/resultstore.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <memory>

namespace structscope {

class ActivityIndicator;
class Settings;
class Workspace;

/// Creates the demo workspace: a new store filled in the background by runDemo() (the built-in suites
/// answered by the simulated models), with its progress in the status bar's activity indicator, then
/// opened as the workspace so every page fills. Runs on a first start (no workspace was ever opened)
/// and on demand (File ▸ Create Demo Workspace), each time from scratch.
class DemoSetup : public QObject
{
    Q_OBJECT
public:
    DemoSetup(Workspace* workspace, Settings* settings, ActivityIndicator* activity, QObject* parent = nullptr);
    /// Cancels a demo that still runs and waits for it.
    ~DemoSetup() override;

    /// demo.structscope in the application's data folder (QStandardPaths::AppDataLocation).
    static QString defaultLocation();
    /// True when no workspace was ever opened: no recent workspace and no last one.
    bool isFirstStart() const;
    /// On a first start, starts the demo (see start()); false otherwise.
    bool startIfFirstStart();

    /// (Re)creates the demo store at `location` (a SQLite file; an open workspace there is closed and the
    /// old file replaced once no connection of this process reads it) and fills it in the background. False
    /// (and finished() with the reason, unless one is already running) when it cannot start; a file that
    /// cannot be replaced ends it later, through finished().
    bool start(const QString& location = defaultLocation());
    bool isRunning() const { return m_running; }
    /// Stops the demo; what was stored is kept, but the workspace is not opened.
    void cancel();

Q_SIGNALS:
    void progress(qint64 done, qint64 total);
    /// The demo ended: `ok` when the workspace is open with every answer; `message` says what happened.
    void finished(bool ok, const QString& message);

private:
    static QString activityLabel();
    /// Replaces the old files and starts the worker once no connection of this process reads them; waits (polling)
    /// until `deadline` otherwise.
    void replaceWhenUnused(const QString& location, quint64 generation, qint64 deadline);
    void runWorker(const QString& location, quint64 generation);
    void complete(const QString& location, bool ok, bool cancelled, const QString& error, qint64 elapsedMs);

    Workspace* m_workspace;
    Settings* m_settings;
    ActivityIndicator* m_activity;
    QThreadPool m_pool; ///< one demo at a time; then(this, …) needs this alive, so the destructor waits
    std::shared_ptr<std::atomic_bool> m_cancel;
    /// Held from start() until the old files are gone: nothing opens them meanwhile.
    std::unique_ptr<ResultStore::OpeningBlocked> m_blocked;
    QElapsedTimer m_clock;
    quint64 m_generation = 0;
    bool m_running = false;
};

} // namespace structscope
