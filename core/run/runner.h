// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "net/httpcall.h"
#include "providers/modelspec.h"
#include "providers/pricetable.h"
#include "providers/promptbuilder.h"
#include "providers/strategy.h"
#include "run/retrypolicy.h"
#include "run/runplan.h"
#include "run/runprogress.h"
#include "run/runsetup.h"
#include "store/rows.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QRandomGenerator>
#include <QTimer>

#include <deque>
#include <memory>
#include <vector>

class QLockFile;
class QNetworkAccessManager;

namespace structscope {

class ResponseWriter;
class ResultStore;
struct SimProfile;

/// Sends every (case, repeat) of a plan to its models and stores each answer as it arrives.
///
/// One stored run per (model, strategy). Everything is asynchronous on the thread the Runner lives in
/// (QNetworkAccessManager; simulated models answer from the event loop): per-model and global
/// concurrency limits, a per-model limit halved on 429 and recovered slowly, retries with exponential
/// back-off and jitter honouring Retry-After, connect/idle/total timeouts, pause/resume/cancel, a
/// request cache, and cost (provider-reported first, else the price table).
///
/// Answers go to the store through a ResponseWriter in small batches. A slot with a stored answer —
/// an error included — is never asked again by resume(); retryErrors() asks errored slots again in a
/// new run whose settings carry "retry_of": <old run id>. A report should count, per (first run of
/// such a family, case, repeat), the latest successful answer, else the latest one (retrylineage.h).
///
/// While a session sends a run, it holds a lock file for it (per store and run, in the temporary folder):
/// another Runner — in this process or another on this machine — refuses to continue or resume that run
/// rather than store a second answer for its slots. A process that dies leaves a lock that is then stale.
///
/// An answer reused from the request cache is stored with attempts = 0 (no request was sent) and the
/// original answer's text, usage, latency and cost.
class Runner : public QObject
{
    Q_OBJECT
public:
    explicit Runner(ResultStore& store, QObject* parent = nullptr);
    ~Runner() override;

    /// Creates the runs of the plan in the store — or continues the plan's unfinished ones, see
    /// RunPlan::continueUnfinished — and starts sending from the event loop (finished() is never emitted
    /// before this returns). False (and why) when the plan or the store refuse; nothing is sent then.
    bool start(const RunPlan& plan, QString* error = nullptr);
    /// Continues stored runs, asking only for the slots that have no stored answer.
    bool resume(const ResumePlan& plan, QString* error = nullptr);
    /// Asks the errored slots of stored runs again (see RetryPlan), in new runs.
    bool retryErrors(const RetryPlan& plan, QString* error = nullptr);

    /// Sends nothing new; calls in flight finish and are stored.
    void pause();
    void resumeSending();
    /// Aborts calls in flight (their answers are not stored, so resume asks them again), stores what
    /// arrived, and marks the runs `status` (Cancelled, or Interrupted for Ctrl-C).
    void cancel(RunStatus status = RunStatus::Cancelled);

    bool isActive() const { return m_active; }
    bool isPaused() const { return m_paused; }
    /// The runs of the current (or last) session, as stored when it started.
    QList<RunRow> runs() const;
    /// The runs of the session that were stored before it: continued by start() (RunPlan::continueUnfinished).
    QList<qint64> continuedRuns() const { return m_continued; }
    RunnerProgress progress() const;
    /// Uses this price table instead of the one named in the options.
    void setPriceTable(const PriceTable& table);

signals:
    /// Throttled to about ten per second, plus one when the session ends.
    void progressChanged(const structscope::RunnerProgress& progress);
    /// An answer was handed to the store (it is committed with its batch).
    void responseReceived(const structscope::ResponseRow& response);
    /// Something the user should know that does not stop the run (missing API key, a failed batch).
    void warning(const QString& message);
    /// The session ended: Finished, Cancelled or Interrupted. Everything received is stored.
    void finished(structscope::RunStatus status);

private:
    struct Slot
    {
        int job = 0;
        int caseIndex = 0;
        int repeat = 0;
        int attempts = 0; ///< attempts already made
    };
    /// What every repeat of a case sends: the prompt, its request digest and the request body.
    struct PreparedCase
    {
        Prompt prompt;
        QByteArray digest;
        QByteArray body;
    };
    struct Job
    {
        RunRow run;
        ModelSpec spec;
        Strategy strategy = Strategy::P;
        const SimProfile* profile = nullptr;
        int model = 0;
        std::deque<Slot> queue;
        RunProgress progress;
        /// Per case index, built on first use and shared by the repeats.
        std::vector<std::shared_ptr<const PreparedCase>> prompts;
    };
    struct ModelState
    {
        QString key;
        AdaptiveLimit limit;
        int inFlight = 0;
        qint64 blockedUntilMs = 0; ///< on m_clock; after a 429, nothing is sent before
    };
    struct Flight
    {
        Slot slot;
        QString requestHash;
        HttpCall* call = nullptr;
        int nam = -1;
    };

    bool beginSession(const SuitePtr& suite, const RunnerOptions& options, QString* error);
    /// Takes the lock of a run this session sends; false (and who holds it) when another session holds it.
    bool lockRun(qint64 runId, QString* holder);
    int modelIndex(const ModelSpec& spec);
    /// A job sending `run` with `spec` under `strategy`, its simulated profile looked up.
    static Job jobFor(RunRow run, const ModelSpec& spec, Strategy strategy);
    void addJob(
        Job job, const QHash<QString, qint64>& caseRows, const QSet<ResponseKey>& skip, const QSet<ResponseKey>* only);
    void launch();
    /// sendMore(), then finishes the session if nothing is left.
    void pump();
    /// Sends what the limits allow.
    void sendMore();
    bool dispatch(const Slot& slot);
    bool answerFromCache(const Slot& slot, const QString& hash);
    void sendSimulated(quint64 id, const Slot& slot);
    void sendHttp(quint64 id, const Slot& slot, const PreparedCase& prepared);
    void complete(quint64 id, const HttpOutcome& outcome);
    void storeAnswer(const Slot& slot, const QString& hash, const HttpOutcome& outcome, int attempts);
    void scheduleRetry(Slot slot, ErrorKind kind, const QByteArray& retryAfter);
    void scheduleProgress();
    void checkFinished();
    void finishSession(RunStatus status);
    QNetworkAccessManager& networkFor(int& index);
    void setRunStatus(RunStatus status);

    ResultStore& m_store;
    std::unique_ptr<ResponseWriter> m_writer;
    std::vector<std::unique_ptr<QNetworkAccessManager>> m_nams;
    std::vector<int> m_namLoad;
    SuitePtr m_suite;
    RunnerOptions m_options;
    PriceTable m_prices;
    bool m_pricesSet = false;
    std::vector<Job> m_jobs;
    std::vector<ModelState> m_models;
    StoredSuite m_stored;
    QHash<QString, qint64> m_caseRows;
    QHash<quint64, Flight> m_flights;
    quint64 m_nextFlight = 1;
    quint64 m_generation = 0;
    int m_inFlight = 0;
    int m_waitingRetries = 0;
    std::size_t m_roundRobin = 0;
    bool m_active = false;
    bool m_paused = false;
    bool m_stopping = false;
    QElapsedTimer m_clock;
    QTimer m_progressTimer;
    QTimer m_unblockTimer;
    QRandomGenerator m_random;
    qint64 m_doneThisSession = 0;
    QMap<QString, qint64> m_errorsByKind;
    QMap<QString, qint64> m_retriesByKind;
    QStringList m_warnedKeys;
    QList<qint64> m_continued;
    std::vector<std::unique_ptr<QLockFile>> m_locks; ///< of the runs this session sends
};

} // namespace structscope
