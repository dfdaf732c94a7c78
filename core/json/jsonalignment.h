// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "json/jsondiff.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace structscope {

/// How one aligned place of gold vs prediction differs, as the diff view colours it.
enum class DiffMark {
    Same,
    MissingKey, ///< MK: the prediction lacks the key
    MissingValue, ///< MV: the prediction holds null (or lacks the key) where gold has a value
    Deviation, ///< WV: two different strings
    ValueError, ///< WV: same primitive type, other content
    Coercible, ///< WV: equal once stringified ("42" vs 42)
    TypeMismatch, ///< WV: types differ (container vs primitive included)
    Invented, ///< WV: a value where gold holds null
    ExtraKey, ///< a key gold does not have
};

/// Every mark but Same, in legend order.
const std::vector<DiffMark>& diffMarks();
/// "missing_key", "missing_value", "deviation", "value_error", "coercible", "type_mismatch", "invented",
/// "extra_key"; "" for Same.
const char* diffMarkId(DiffMark mark);
/// The mark a difference gets on its own (DiffKind plus its wrong-value sub-type).
DiffMark diffMarkOf(const Difference& difference);

/// One row of gold and prediction side by side: a place that exists in gold, in the prediction or in
/// both, with the values at that place (containers as themselves).
struct AlignedRow
{
    std::string pointer; ///< RFC 6901 pointer of the place ("" for the root)
    std::string path; ///< the dotted leaf path ("" for the root)
    std::string key; ///< the last step: an object key, "[i]", or "" for the root
    int depth = 0; ///< 0 for the root
    std::optional<nlohmann::json> gold; ///< nullopt: gold has no such place
    std::optional<nlohmann::json> predicted; ///< nullopt: the prediction has no such place
    DiffMark mark = DiffMark::Same;
    bool alsoMissingValue = false; ///< a MissingKey row whose gold value is non-null (MK and MV together)
    double levenshtein = 0; ///< normalised distance of a Deviation
    bool differenceBelow = false; ///< a container with a marked row somewhere under it

    bool goldIsContainer() const { return gold && gold->is_structured(); }
    bool predictedIsContainer() const { return predicted && predicted->is_structured(); }
};

/// Aligns gold and prediction place by place, in gold's document order with the prediction's extra
/// keys after gold's keys of the same object (array elements by index), one row per container and
/// per leaf, and marks each row with the differences diffJson() reported at its pointer (gold-side
/// kinds at gold pointers, extra keys at predicted pointers). Precedence at one pointer: missing key,
/// missing value, wrong value, extra key. A container the prediction lacks is marked MissingKey when
/// a missing key lies under it; one gold lacks is ExtraKey; a gold container met by a predicted
/// primitive is TypeMismatch. `predicted` nullptr (nothing parsed) gives gold's rows only.
/// Differences are expected from diffJson(gold, *predicted) with ordered arrays; with unordered
/// matching, elements are still shown by index.
std::vector<AlignedRow> alignJson(
    const nlohmann::json& gold, const nlohmann::json* predicted, const std::vector<Difference>& differences);

/// Indices of the rows that carry a difference (mark != Same), in row order: F8 / Shift+F8 walk these.
std::vector<int> differenceRows(const std::vector<AlignedRow>& rows);

/// The next (forward) or previous difference row from `current` (-1: from before the first row),
/// wrapping around; -1 when there is none.
int stepDifference(const std::vector<int>& differenceRows, int current, bool forward);

} // namespace structscope
