// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/evaluation.h"

#include <QFutureWatcher>
#include <QMetaType>
#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include <atomic>
#include <map>
#include <memory>
#include <vector>

namespace structscope {

/// Every response of a store scored against one gold basis. Shared read-only between pages.
struct ScoredSet
{
    GoldBasis gold = GoldBasis::Measured;
    ScoredRecords records; ///< shares its chunks with `basedOn`'s
    QString error; ///< the store could not be read
    bool cancelled = false;
    qint64 elapsedMs = 0;
    qint64 reused = 0; ///< verdicts taken over from the previous pass (unchanged response and gold)
    QString stamp; ///< the store's contentStamp() taken before reading it ("" if it could not be read)
    /// After a gold edit: this set is `basedOn`'s records with only those at `rescored` (ascending) scored again,
    /// in the same places, so a view showing `basedOn` can update those rows alone. Empty after a full pass.
    std::weak_ptr<const ScoredSet> basedOn;
    std::vector<std::size_t> rescored;
    /// Where each case's records lie, for the next gold edit's re-scoring (made once, shared by the sets edits
    /// make from this one).
    std::shared_ptr<const CasePlaces> casePlaces;
    qint64 stored = 0; ///< verdicts read from those the store keeps instead of scored
    /// Verdicts this pass scored that the store does not keep yet: the service has it keep them once the set is out.
    std::vector<UnkeptVerdict> unkept;
    bool ok() const { return error.isEmpty() && !cancelled; }
};

using ScoredSetPtr = std::shared_ptr<const ScoredSet>;

/// Scores a workspace's store off the GUI thread and keeps the result per gold basis, so pages
/// that show the same data share one scoring pass. The worker opens its own store connection
/// (a ResultStore belongs to one thread); a generation counter drops results of superseded jobs
/// (the store changed, another workspace was opened).
class ScoringService : public QObject
{
    Q_OBJECT
public:
    explicit ScoringService(QObject* parent = nullptr);
    ~ScoringService() override;

    /// The store to score ("" for none). Drops what was cached and cancels running jobs.
    void setLocation(const QString& location);
    QString location() const { return m_location; }
    /// The store's content changed: drop the cache and re-score the bases scored so far. The dropped sets'
    /// verdicts are reused where response and gold revision are unchanged (a gold edit re-scores one case).
    void invalidate();
    /// Only the gold of these cases changed: the measured basis (the gold the suites shipped with) stays as
    /// scored; the adjusted one is scored again from the previous set, reading only those cases' responses
    /// (reevaluateCases). Edits arriving while that runs add their cases to it.
    void invalidateCases(const QSet<qint64>& caseRows);
    /// The cached set for `gold`, if any; otherwise starts scoring it (once) and returns nullptr.
    /// The set arrives through scored().
    ScoredSetPtr request(GoldBasis gold);
    ScoredSetPtr cached(GoldBasis gold) const;
    bool isBusy() const { return !m_jobs.empty(); }
    /// Stops the running jobs; each announces a cancelled set through scored().
    void cancel();
    /// How long the service waits, idle, before the store keeps what its passes scored: gold edits come in bursts,
    /// and a write between two of them would hold up the next one's pass.
    static constexpr int kKeepDelayMs = 2000;

Q_SIGNALS:
    /// A scoring pass finished (also when it failed: see ScoredSet::error).
    void scored(structscope::GoldBasis gold, const structscope::ScoredSetPtr& set);
    /// Responses scored so far by the running job (throttled by the future's progress reporting).
    void progress(qint64 done, qint64 total);
    void busyChanged(bool busy);

private:
    struct Job
    {
        quint64 generation = 0;
        std::shared_ptr<std::atomic_bool> cancel;
        QFutureWatcher<ScoredSetPtr>* watcher = nullptr;
    };
    void start(GoldBasis gold);
    void invalidateBases(const std::vector<GoldBasis>& bases);
    void cancelJobs();
    void queueKeep(GoldBasis gold, const ScoredSetPtr& set);
    void keepNow();
    void stopKeeping();

    QString m_location;
    quint64 m_generation = 0;
    std::map<GoldBasis, ScoredSetPtr> m_cache;
    std::map<GoldBasis, ScoredSetPtr> m_previous; ///< invalidated sets, until their successor is scored
    /// Cases whose gold changed since m_previous was scored, per basis; absent: anything may have changed.
    std::map<GoldBasis, QSet<qint64>> m_changedCases;
    std::map<GoldBasis, Job> m_jobs;
    QThreadPool m_pool; ///< one pass at a time; evaluateStore spreads each pass over the global pool
    /// Set while a set's new verdicts are written (on m_pool, after the set went out): cleared to stop the writing
    /// before the next pass, which would otherwise wait for it.
    std::shared_ptr<std::atomic_bool> m_keeping;
    /// Per basis, sets and the places of their records whose verdicts the store does not keep yet. The gold edits
    /// since the last write are merged into their latest set (an edit's set has its predecessor's places); a full
    /// pass is another entry (it takes the earlier verdicts over without counting them as unkept).
    struct ToKeep
    {
        ScoredSetPtr set;
        std::vector<UnkeptVerdict> unkept;
    };
    std::map<GoldBasis, std::vector<ToKeep>> m_toKeep;
    QTimer* m_keepTimer = nullptr;
};

} // namespace structscope

Q_DECLARE_METATYPE(structscope::GoldBasis)
Q_DECLARE_METATYPE(structscope::ScoredSetPtr)
