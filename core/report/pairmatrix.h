// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/scoredrecords.h"
#include "stats/bootstrap.h"
#include "stats/multiplicity.h"
#include "stats/paired.h"

#include <QString>

#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace structscope {

/// The keys a configuration of a pairwise comparison can be made of: "model" and "strategy". A configuration is one
/// value of each key chosen (a model; a strategy; a model under a strategy); its records are paired with another
/// configuration's on the same suite, case and repeat, and on the value of the key not chosen (models compared
/// under the same strategy, strategies compared on the same model).
const std::vector<std::string>& pairConfigurationKeys();

/// One configuration: the value of each chosen key.
struct PairConfiguration
{
    std::vector<std::pair<std::string, std::string>> key; ///< (key, value), in the order the keys were chosen
    bool simulated = false; ///< some record of it came from a simulated model

    /// The values joined with " · " ("gpt-x · P").
    std::string label() const;
    /// The value of `name`, or "" when it is not one of the keys.
    std::string value(std::string_view name) const;
    friend bool operator==(const PairConfiguration& a, const PairConfiguration& b) { return a.key == b.key; }
};

/// Every configuration of the records for the chosen keys, sorted by their values. Unknown keys give none.
std::vector<PairConfiguration> pairConfigurationsOf(RecordsView records, const std::vector<std::string>& by);

/// The per-record metrics of the records that can be compared case by case, in registry order: rates (0/1 per
/// record) and means, whose values of every answered record lie in [0, 1], so that a difference reads as points.
std::vector<std::string> comparableMetrics(RecordsView records);

/// Why `metric` cannot be compared case by case on these records ("" when it can): not a metric, a metric of a
/// group rather than of a record (micro, latency, cost), carried by no answered record, or a mean with values
/// outside [0, 1].
QString comparableMetricError(RecordsView records, const std::string& metric);

/// The records of two configurations on the cases both answered. An errored slot, or a record without the metric,
/// is no answer. Pairs come in (suite, case, other key, repeat) order, so that a bootstrap over them is
/// reproducible. When a configuration has several records of one case (several runs), the last one counts.
struct PairedRecords
{
    std::vector<const ScoredRecord*> a;
    std::vector<const ScoredRecord*> b; ///< b[i] answers the case of a[i]
    int onlyA = 0; ///< cases A answered and B did not (left out)
    int onlyB = 0;
};

/// Pairs the records of A and B carrying `metric` (see PairedRecords). Configurations are matched on the keys they
/// hold, which must be among pairConfigurationKeys().
PairedRecords pairRecords(
    RecordsView records, const PairConfiguration& a, const PairConfiguration& b, const std::string& metric);

/// The paired statistics of `metric` over the pairs: for a rate, each value ≥ 0.5 counts as 1 and
/// comparePairedOutcomes() gives Δ, its paired bootstrap interval and the exact McNemar p; for a mean,
/// comparePairedScores() gives Δ, its interval and the exact sign test p (ties dropped).
PairedComparison comparePairedRecords(
    const PairedRecords& pairs, const std::string& metric, bool rate, const BootstrapOptions& options = {});

/// One pair of configurations of a PairMatrix: B compared with A, Δ = B − A.
struct PairCell
{
    std::size_t a = 0; ///< index into PairMatrix::configurations
    std::size_t b = 0;
    PairedComparison stats; ///< n, means, Δ in points, 95% interval, b/c discordant counts, unadjusted p
    int onlyA = 0; ///< cases only A answered
    int onlyB = 0;
    /// stats.pValue corrected over every tested pair of the matrix; NaN for a pair with no paired case (not tested).
    double adjustedP = std::numeric_limits<double>::quiet_NaN();
    bool significant = false; ///< adjustedP ≤ PairMatrix::alpha

    bool tested() const { return stats.ok() && stats.n > 0; }
};

/// Settings of computePairMatrix().
struct PairMatrixOptions
{
    std::string metric = "ladder.correct";
    std::vector<std::string> by = { "model" }; ///< configuration keys, from pairConfigurationKeys()
    PAdjustMethod adjust = PAdjustMethod::Holm;
    double alpha = 0.05; ///< a pair is significant when its adjusted p is at most this
    BootstrapOptions bootstrap; ///< every pair's bootstrap starts from the same seed
    /// The configurations to compare, in this order; empty: every configuration of the records.
    std::vector<PairConfiguration> configurations;
};

/// Every pair of a set of configurations compared on one metric.
struct PairMatrix
{
    std::string metric;
    bool rate = true; ///< a 0/1 metric (McNemar); else a mean (sign test)
    std::vector<std::string> by;
    PAdjustMethod adjust = PAdjustMethod::Holm;
    double alpha = 0.05;
    BootstrapOptions bootstrap;
    std::vector<PairConfiguration> configurations;
    /// One cell per unordered pair, a < b, in the order (0,1), (0,2), …, (1,2), …
    std::vector<PairCell> pairs;
    int tested = 0; ///< pairs with at least one paired case: the m of the correction
    QString error; ///< empty when the matrix could be computed

    bool ok() const { return error.isEmpty(); }
    /// The cell of configurations i and j in either order (Δ is B − A of the cell, whichever was asked), or nullptr.
    const PairCell* cell(std::size_t i, std::size_t j) const;
    /// "McNemar (exact)" for a rate, "sign test (exact)" for a mean.
    QString testName() const;
};

/// Compares every pair of configurations on `options.metric` (pairRecords(), comparePairedRecords()) and corrects
/// their p values together (setAdjustment()). Errors: a metric that cannot be compared (comparableMetricError()), an
/// unknown configuration key, fewer than two configurations. Pure; pairs are computed in parallel with identical
/// results.
PairMatrix computePairMatrix(RecordsView records, const PairMatrixOptions& options);

/// Corrects the matrix's p values with `method` over its tested pairs and marks the significant ones at `alpha`:
/// what choosing another correction changes, without computing the pairs again.
void setAdjustment(PairMatrix& matrix, PAdjustMethod method, double alpha = 0.05);

} // namespace structscope
