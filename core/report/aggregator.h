#pragma once

#include "report/report.h"
#include "scoring/verdict.h"
#include "stats/bootstrap.h"

#include <QString>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace structscope {

/// One scored response with the facts it is grouped by.
struct ScoredRecord
{
    QString suite;
    QString model;
    QString strategy;
    qint64 runId = 0;
    QString caseId;
    qint64 caseRow = 0; ///< the case's row in the store (0 for records not read from a store)
    QString category;
    QString tier;       ///< also the schema complexity of SOB records
    QString sourceKind; ///< the case's "source_kind", else its category
    QString modality;   ///< "text", "image", "audio"
    double weight = 0;  ///< complexity weight of the tier (easy 1, medium 2, hard 3, else 0)
    std::optional<double> latencyMs;
    std::optional<double> cost;
    Verdict verdict;
    // The verdict's cache key (as in the store's verdicts table): a verdict is a pure function of the response,
    // the gold revision and the scorer, since a stored suite's schemas and options never change.
    qint64 responseId = 0;
    qint64 goldRevisionRow = 0; ///< 0: the case has no gold
    int scorerVersion = 0;
    // The small fields last, together (no padding between them): a million records are held at once.
    int repeat = 0;
    bool simulated = false; ///< answered by a simulated model
};

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
Report aggregate(std::span<const ScoredRecord> records, const AggregateOptions& options);

} // namespace structscope
