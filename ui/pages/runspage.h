// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/runsummary.h"
#include "pages/page.h"
#include "run/runplan.h"
#include "run/runprogress.h"
#include "run/runsetup.h"
#include "widgets/launchdialog.h"

#include <QHash>
#include <QPointer>
#include <QSet>
#include <QThreadPool>
#include <QTimer>

#include <atomic>
#include <deque>
#include <functional>
#include <memory>

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace structscope {

class ResultStore;
class Runner;
class RunProgressPanel;
class RunsModel;

/// Runs: launches suites against models (the launch dialog), shows the live progress of the session
/// per model (bars, done/total, ETA, retries, errors by kind) with pause, resume and cancel, and lists
/// the workspace's past runs, from which an interrupted or cancelled run resumes (only its unanswered
/// slots are asked) and errored answers are asked again.
///
/// The Runner lives on the GUI thread (it is asynchronous) with its own connection to the workspace
/// store. While answers arrive the workspace is told its data changed at most every two seconds, and
/// once when the session ends, so other pages re-score.
class RunsPage : public Page
{
    Q_OBJECT
public:
    explicit RunsPage(Workspace* workspace, QWidget* parent = nullptr);
    ~RunsPage() override;

    QString title() const override { return tr("Runs"); }
    QString pageId() const override { return QStringLiteral("runs"); }

    RunsModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* view() const { return m_view; }
    /// True once the past-runs list was read from the open workspace (and no newer read is pending).
    bool hasLoadedRuns() const { return m_runsLoaded && m_pendingLoads == 0; }

    /// Opens the launch dialog (not modal: it is returned, and calls startRuns when the user starts).
    LaunchDialog* openLaunchDialog();
    LaunchDialog* launchDialog() const { return m_dialog; }

    /// Starts a run of the plan in the workspace store. False, with why (also shown on the page), when the
    /// store cannot be opened, a session is already running, or the runner refuses the plan.
    bool startRun(const RunPlan& plan, QString* error = nullptr);
    /// Starts the plans one after the other (one runner session each).
    bool startRuns(const QList<RunPlan>& plans, QString* error = nullptr);
    /// Continues stored runs, asking only for their unanswered slots. The suite each was made with is
    /// looked for among the suites run from this page, the workspace's suite folders and the built-in
    /// suites (same content hash); that search runs in the background, so a false return means refused
    /// at once, and a later failure shows on the page (message()).
    bool resumeRuns(const QList<qint64>& runIds, QString* error = nullptr);
    /// Asks the errored answers of stored runs again, in new runs (see resumeRuns for the suite).
    bool retryErrors(const QList<qint64>& runIds, QString* error = nullptr);

    void pause();
    void resumeSending();
    void cancel();
    bool isRunning() const;
    bool isPaused() const;
    /// True while a session runs, a queued one waits, or a resume looks for its suite.
    bool isBusy() const;
    /// The runner (nullptr before the first run); it lives as long as the workspace location does not change.
    Runner* runner() const { return m_runner.get(); }
    /// The last progress of the current (or last) session.
    RunnerProgress progress() const { return m_progress; }
    /// The page's message line: what happened last, or why something failed.
    QString message() const;
    /// The runs selected in the past-runs table.
    QList<qint64> selectedRunIds() const;
    void selectRuns(const QList<qint64>& runIds);

    /// Used for resumes and retries (a launched plan brings its own).
    void setRunnerOptions(const RunnerOptions& options) { m_options = options; }
    /// Model specs that replace stored ones of the same endpoint when resuming (they bring back headers).
    void setModelProfiles(const QList<ModelSpec>& profiles) { m_profiles = profiles; }
    /// Asked before a resume or retry sends keys or `$VAR` headers to endpoints that only the store names
    /// (none of the user's profiles or of this page's runs has them); true: send. By default a dialog shows
    /// each origin and the variables it would receive.
    using StoreOriginConfirmer = std::function<bool(const QList<StoredEndpoint>&)>;
    void setStoreOriginConfirmer(StoreOriginConfirmer confirm) { m_confirmStoreOrigins = std::move(confirm); }

Q_SIGNALS:
    /// A session ended (the next queued one, if any, starts after this).
    void sessionFinished(structscope::RunStatus status);
    /// Every queued session has ended, or one could not start.
    void allFinished();
    /// The past-runs list was read.
    void runsLoaded();

protected:
    void reload() override;
    void reportReady(const ReportDataPtr&, const QString&) override { }

private:
    /// Keeps the launcher's profiles for this session and the next (without secrets).
    void setProfiles(const QList<ModelSpec>& profiles);
    struct Session
    {
        QString label;
        std::function<bool(Runner&, QString*)> begin;
    };

    QWidget* makePastRunsBox();
    bool ensureRunner(QString* error);
    bool startSessions(std::deque<Session> sessions, QString* error);
    bool startNext(QString* error);
    void sessionEnded(RunStatus status);
    /// Whether the endpoints of these stored runs may have the user's secrets: true when the store names
    /// none the user did not, or the user confirms (then `trust` is set); false with why otherwise.
    bool confirmStoreOrigins(const QList<qint64>& runIds, bool* trust, QString* error);
    void continueStored(const QList<qint64>& runIds, bool retry, bool trust);
    void showProgress(const RunnerProgress& progress);
    void applyRuns(const RunSummariesPtr& runs);
    void updateActions();
    void setMessage(const QString& text, bool error = false);
    void remember(const QList<RunPlan>& plans);
    void notifyWorkspace();
    QStringList suiteFolders() const;

    RunsModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QPushButton* m_newRun;
    QPushButton* m_pause;
    QPushButton* m_resume;
    QPushButton* m_cancel;
    QPushButton* m_resumeRun;
    QPushButton* m_retry;
    QLabel* m_message;
    RunProgressPanel* m_panel;
    QPointer<LaunchDialog> m_dialog;

    std::unique_ptr<ResultStore> m_store;
    QString m_storeLocation;
    std::unique_ptr<Runner> m_runner;
    std::deque<Session> m_queue;
    QString m_sessionLabel;
    RunnerProgress m_progress;
    RunnerOptions m_options;
    QList<ModelSpec> m_profiles; ///< the launcher's user profiles, remembered in Settings
    StoreOriginConfirmer m_confirmStoreOrigins;

    QHash<QByteArray, SuitePtr> m_knownSuites; ///< content hash → suite run from this page
    QStringList m_folders; ///< suite folders used from this page
    QList<RunPlan> m_lastPlans; ///< the last launch's choices, to prefill the dialog
    bool m_locating = false;
    bool m_runsLoaded = false;
    int m_pendingLoads = 0;
    quint64 m_loadGeneration = 0;
    std::shared_ptr<std::atomic_bool> m_loadCancel;
    QTimer m_notifyTimer;
    QThreadPool m_pool; ///< waited for in the destructor: continuations need the page alive
};

} // namespace structscope
