// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/report.h"
#include "report/scoredrecords.h"
#include "stats/bootstrap.h"

#include <QString>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace structscope {

/// The keys a report can be grouped by.
const std::vector<std::string>& groupKeys();

/// The value of a grouping key for a record ("" for an unknown key).
std::string groupValue(const ScoredRecord& record, const std::string& key);

struct AggregateOptions
{
    std::vector<std::string> groupBy = { "model" };
    std::vector<std::string> families; ///< empty: every family the records carry
    BootstrapOptions bootstrap;
    /// False: point estimates only — every mean, weighted mean, rate, micro metric and group value exactly as with
    /// intervals, the rates' Wilson intervals (closed form), but no bootstrap interval (those metrics have no ci95
    /// entry). What a view paints at once while the bootstrap of a large set runs.
    bool intervals = true;
};

/// Records grouped as aggregate() groups them: a group's answers in record order, its errored records counted
/// apart, groups in the order of their key values.
struct RecordGroup
{
    std::vector<std::string> key; ///< one value per grouping key
    std::vector<const ScoredRecord*> records;
    int errored = 0;
};
std::vector<RecordGroup> groupRecordsBy(RecordsView records, const std::vector<std::string>& groupBy);

/// Groups records and computes every metric of the chosen families: means (rates and per-record
/// values), complexity-weighted means, Wilson or bootstrap 95% intervals, micro metrics from summed
/// counts, cost per success and latency percentiles. Groups come sorted by their key.
Report aggregate(RecordsView records, const AggregateOptions& options);

/// An aggregate's point estimates (AggregateOptions::intervals false) kept with the sums they come from, so that after
/// some records changed — a gold edit re-scores one case's responses — only the blocks of sums holding them are
/// summed again, instead of every record: the same report, to the bit, as aggregate() of the changed records.
class PointEstimates
{
public:
    /// Aggregates `records`, which must outlive this object or the next update().
    PointEstimates(RecordsView records, const AggregateOptions& options);
    ~PointEstimates();
    PointEstimates(const PointEstimates&) = delete;
    PointEstimates& operator=(const PointEstimates&) = delete;

    /// aggregate(records, options) with options.intervals false.
    const Report& report() const;

    /// The aggregate of `records`: the records this one was last computed from with those at `places` replaced (by
    /// other verdicts of the same responses: ScoredRecords::withReplaced(), reevaluateCases()). False, with nothing
    /// changed, when that cannot be done from the sums — the count differs, a replaced record belongs to another
    /// group, a family appears or disappears —: aggregate anew then. `records` must outlive this object or the next
    /// update().
    bool update(RecordsView records, const std::vector<std::size_t>& places);

private:
    struct State;
    std::unique_ptr<State> d;
};

} // namespace structscope
