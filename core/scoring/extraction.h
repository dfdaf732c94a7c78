// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "json/jsondiff.h"

#include <nlohmann/json.hpp>

#include <array>
#include <vector>

namespace structscope {

/// Per-record counts of the extraction family (LLMStructBench), in one equality mode. The micro
/// metrics of a group are computed from sums of these (see ExtractionTotals).
struct ExtractionCounts
{
    // The integers first and the double last: 56 bytes, not 64 (a million records hold two of these each).
    DiffCounts diff;
    int goldKeys = 0; ///< gold leaves and empty containers below the root (F1_keys' TP + FN)
    int goldValues = 0; ///< N_v: non-null gold leaves (a null is the absence of a value)
    int predictedValues = 0; ///< N_pred_v: non-null predicted leaves, extra keys included
    double partialCredit = 0; ///< Σ C(l_i) over string deviations

    /// TP_v of docs/metrics.md §2 for this record (may be negative: a far-off string costs a value).
    /// Values invented where gold is null are not among the N_v gold values, so they are not
    /// subtracted here; they lower precision through N_pred_v. This keeps precision ≤ 1.
    double valueTruePositives() const;
};

/// One record of the extraction family.
struct ExtractionRecord
{
    ExtractionCounts strict;
    ExtractionCounts lenient;
    bool failed = false; ///< empty, unparsable, or a root of another type than gold's
    bool correct = false; ///< not failed, and no MK / MV / WV / extra key (strict)
    double points = 0; ///< strategy points of this case
};

/// C(l) of docs/metrics.md §2: 1 if l ≤ 0.1; γ·(1 − l) if 0.1 < l < 2.0 (γ = 0.5); −1 if l ≥ 2.0.
double deviationCredit(double l);

/// Scores one record. `prediction` is nullptr when the response did not parse. A failed record has
/// no diff: in the totals it misses every gold key and value and predicts nothing.
/// `credit` false: the partial credit of string deviations is left 0 and their edit distances are not computed
/// (the costly part of a diff of long strings): for a suite without the extraction family, whose metrics are the
/// only readers of the credit. The counts, the points and the ladder's labels are the same either way.
ExtractionRecord scoreExtraction(const nlohmann::json& gold, const nlohmann::json* prediction, ArrayMatching arrays,
    std::vector<Difference>* strictDifferences = nullptr, bool credit = true);

/// What one record adds to ExtractionTotals besides itself, as ten numbers (failed and correct as 0 or 1). A
/// bootstrap resample of a large group sums these over its draws from one flat array, instead of calling
/// ExtractionTotals::add (two partial-credit sums and a branch) on records scattered through memory.
struct ExtractionAdds
{
    enum Index {
        Points,
        GoldValues,
        Failed,
        Correct,
        KeyTp,
        KeyFp,
        KeyFn,
        ValueTp,
        ValueTpLenient,
        PredictedValues,
        Count
    };
    std::array<double, Count> values {};
};

ExtractionAdds extractionAdds(const ExtractionRecord& record);

/// Sums of a group of records, and the micro metrics computed from them.
struct ExtractionTotals
{
    double keyTp = 0, keyFp = 0, keyFn = 0;
    double valueTp = 0, valueTpLenient = 0, goldValues = 0, predictedValues = 0;
    int records = 0, correct = 0, failed = 0;
    double points = 0;

    /// Adds `record` `times` times (a bootstrap resample adds each distinct record as often as it was drawn).
    void add(const ExtractionRecord& record, int times = 1);
    /// Adds the totals of other records, field by field.
    void add(const ExtractionTotals& other);
    /// The totals of `records` records whose ExtractionAdds sum to `sums` (each field the same sum as add() makes
    /// when the records are added in the same order).
    static ExtractionTotals fromSums(const std::array<double, ExtractionAdds::Count>& sums, int records);
    double f1Keys() const;
    double f1Values() const;
    double f1ValuesLenient() const;
    double f1Micro() const; ///< 0.25·F1_keys + 0.75·F1_values
    double docMicro() const; ///< (#correct/#tests)·(1 − #failed/#tests)
    double score() const; ///< 0.5·f1_micro + 0.5·doc_micro
    double meanPoints() const;
};

} // namespace structscope
