#pragma once

#include "report/report.h"
#include "report/scoredrecords.h"
#include "stats/bootstrap.h"

#include <QString>

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
    std::vector<std::string> groupBy = {"model"};
    std::vector<std::string> families; ///< empty: every family the records carry
    BootstrapOptions bootstrap;
    /// False: point estimates only — every mean, weighted mean, rate, micro metric and group value exactly as with
    /// intervals, the rates' Wilson intervals (closed form), but no bootstrap interval (those metrics have no ci95
    /// entry). What a view paints at once while the bootstrap of a large set runs.
    bool intervals = true;
};

/// Groups records and computes every metric of the chosen families: means (rates and per-record
/// values), complexity-weighted means, Wilson or bootstrap 95% intervals, micro metrics from summed
/// counts, cost per success and latency percentiles. Groups come sorted by their key.
Report aggregate(RecordsView records, const AggregateOptions& options);

} // namespace structscope
