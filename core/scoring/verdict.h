// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "schema/schemavalidator.h"
#include "scoring/contract.h"
#include "scoring/extraction.h"
#include "scoring/fieldtally.h"
#include "scoring/grounding.h"
#include "scoring/ladder.h"
#include "scoring/metricvalues.h"
#include "json/jsondiff.h"
#include "json/parseladder.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace structscope {

/// Bumped whenever any metric's computation changes; part of the verdict cache key.
inline constexpr int kScorerVersion = 3;

/// Everything the scorer says about one response. A value: cheap to move, safe to share across threads (what it
/// shares is immutable).
struct Verdict
{
    // The small fields together (no padding between them): a million verdicts are held at once.
    ParseRung rung = ParseRung::Failed;
    LadderLabel ladder = LadderLabel::InvalidJson; ///< lenient equality
    LadderLabel ladderStrict = LadderLabel::InvalidJson; ///< strict equality
    bool schemaValid = false;
    std::string parseReason;
    std::vector<SchemaError> schemaErrors;
    ExtractionRecord extraction;
    std::vector<Difference> differences; ///< strict gold-vs-prediction diff (kept when asked for)
    /// The grounding and contract families' scores, where scored. Shared, not copied, with copies of the verdict
    /// (an evaluation reusing verdicts holds them twice); a record of another family pays one pointer each.
    std::shared_ptr<const GroundingScores> grounding;
    std::shared_ptr<const ContractScores> contract;
    /// What the response did with each field of its gold (docs/metrics.md, "Fields"); null when the gold has none.
    /// Shared like the scores above.
    std::shared_ptr<const FieldTallies> fields;

    /// Per-record values of the Rate and Mean metrics that apply, as (metric id, value).
    MetricValues values;

    /// The value of one per-record metric, if it applies to this record.
    std::optional<double> value(std::string_view metricId) const;
};

} // namespace structscope
