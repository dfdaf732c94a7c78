// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/aggregator.h"
#include "store/goldbasis.h"
#include "store/storeresult.h"

#include <QSet>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace structscope {

class ResultStore;

struct EvaluationOptions
{
    GoldBasis gold = GoldBasis::Measured;
    /// Called with (done, total) about every 1% of the responses; return false to cancel.
    std::function<bool(qint64, qint64)> progress;
    const std::atomic_bool* cancel = nullptr; ///< checked between chunks from every worker
    /// An earlier evaluation of the same store: a record whose cache key (response, gold revision, scorer
    /// version) is there keeps that verdict instead of being scored again — after a gold edit only the
    /// edited case's responses are. Must outlive the call.
    const ScoredRecords* reuse = nullptr;
    /// Verdicts the store keeps (ResultStore::storeVerdicts, keepVerdicts() below) are read instead of scored, and
    /// their answers are not read at all. Off: everything is scored from the answers.
    bool useStoredVerdicts = true;
    /// The verdicts carry their field tallies (Verdict::fields: what the Fields views and a report by field read).
    /// Off, they are left out, which saves about a sixth of scoring; only evaluateSobRecords() reads this (a store's
    /// pass keeps its verdicts, which keep their tallies), for a report of metrics.
    bool fieldTallies = true;
};

/// A record whose verdict was scored by a pass and is not kept by the store yet: its place in the evaluation's
/// records, and the run its response belongs to (a retry run's, where it took the slot over).
struct UnkeptVerdict
{
    std::size_t place = 0;
    qint64 runId = 0;
};

/// Where each case's records lie in a set, found in one pass over it: after a gold edit, the places of the edited
/// case's records are looked up instead of found by a pass over every record (~12 ms at a million). A set and the
/// sets reevaluateCases() makes from it have the same slots, so they share one.
class CasePlaces
{
public:
    explicit CasePlaces(const ScoredRecords& records);
    /// The number of records it was made from.
    std::size_t size() const { return m_size; }
    /// False when a record has no case row (read before records knew theirs) or the set is too large for 32-bit
    /// places: then no lookup can be trusted.
    bool complete() const { return m_complete; }
    /// The places of the case's records, ascending (empty for a case with none).
    std::span<const std::uint32_t> of(qint64 caseRow) const;

private:
    std::unordered_map<qint64, std::vector<std::uint32_t>> m_places;
    std::size_t m_size = 0;
    bool m_complete = true;
};

struct Evaluation
{
    ScoredRecords records; ///< shares its chunks with the earlier evaluation's after reevaluateCases()
    QString error; ///< set when the store could not be read (records are then empty)
    bool cancelled = false;
    qint64 reused = 0; ///< verdicts taken from EvaluationOptions::reuse instead of scored
    /// Verdicts copied from an identical answer to the same case scored earlier in this pass (the scorer is a pure
    /// function of the answer, the case and the suite), instead of scored again.
    qint64 identical = 0;
    qint64 stored = 0; ///< verdicts read from the store (EvaluationOptions::useStoredVerdicts) instead of scored
    /// A verdict the store keeps did not decode (a damaged or foreign store): the pass was made again from the
    /// answers, ignoring every kept verdict.
    bool storedDamaged = false;
    /// The records scored (or copied from an identical answer) by this pass, for keepVerdicts(), ascending.
    std::vector<UnkeptVerdict> unkept;
    /// Set by reevaluateCases() when the records are `earlier`'s with only these places (ascending) read and
    /// scored again: a view showing `earlier` updates those rows instead of everything. Unset after a full pass.
    std::optional<std::vector<std::size_t>> rescoredPlaces;
    /// Set by reevaluateCases(): where each case's records lie in `records` (the earlier set's, shared: the same
    /// slots), for the next edit's call.
    std::shared_ptr<const CasePlaces> casePlaces;
    bool ok() const { return error.isEmpty() && !cancelled; }
};

/// Reads every suite, case, gold revision, run and response of a store and scores each response
/// (in parallel, on QThreadPool::globalInstance()). Responses are facts; nothing is written. Responses are read
/// and scored run by run — each run scored while the next is read — so at most two runs' raw answers are held at a
/// time. Progress is reported, and `cancel` checked, from the thread that drives the scoring, not the caller's.
Evaluation evaluateStore(ResultStore& store, const EvaluationOptions& options = {});

/// After the gold of some cases changed and nothing else did: `earlier` (an evaluation of this store on the same
/// gold basis) with the responses of those cases read and scored again, each record in its earlier place; the
/// rest is shared with `earlier` (ScoredRecords::withReplaced), neither read nor copied. The same records as
/// evaluateStore() gives. Falls back to evaluateStore() reusing
/// `earlier` when the cases' slots no longer match it (responses added meanwhile) or there are more than
/// ResultStore::kMaxCasesPerQuery cases. `earlierPlaces`, where given, are CasePlaces of `earlier` (else made here).
Evaluation reevaluateCases(ResultStore& store, const ScoredRecords& earlier, const QSet<qint64>& caseRows,
    const EvaluationOptions& options = {}, std::shared_ptr<const CasePlaces> earlierPlaces = nullptr);

/// Has the store keep the verdicts of `unkept` (an evaluation of it: Evaluation::unkept), in batches of a few
/// thousand, each its own transaction, so that later passes read them instead of scoring: how many were written.
/// Stops between batches when `cancel` is set (what was written stays: each batch is whole). Needs a writable store;
/// a store that keeps no verdicts (read-only and older than schema v3) gets none.
StoreResult<qint64> keepVerdicts(ResultStore& store, const ScoredRecords& records,
    const std::vector<UnkeptVerdict>& unkept, const std::atomic_bool* cancel = nullptr);

/// What scoreAndKeepVerdicts() did.
struct KeptVerdictsSummary
{
    qint64 answers = 0; ///< records of the passes (a store on both gold bases counts each answer twice)
    /// Read from the store's kept verdicts (or copied from an earlier pass): nothing to do. Not counted here: what the
    /// adjusted pass reads back of what the measured pass of the same call kept (cases whose gold was not edited).
    qint64 alreadyKept = 0;
    qint64 kept = 0; ///< scored by the passes and now kept by the store
    bool cancelled = false;
    QString error; ///< the store could not be read, or refused the verdicts (what was kept before stays)
    bool ok() const { return error.isEmpty() && !cancelled; }
};

/// Scores every answer whose verdict the store does not keep yet, against the gold as measured and — when some gold
/// was edited since (ResultStore::hasEditedGold) — as adjusted, and has the store keep them (keepVerdicts()). What
/// the commands that write answers (`structscope run`, `import`) do before they end, so that the app and every
/// report open their store on kept verdicts instead of scoring every answer. A store that keeps no verdicts (read
/// only) gets none. `options.gold` and `options.useStoredVerdicts` are set by the call.
KeptVerdictsSummary scoreAndKeepVerdicts(ResultStore& store, EvaluationOptions options = {});

} // namespace structscope
