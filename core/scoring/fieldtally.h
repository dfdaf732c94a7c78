// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "json/jsondiff.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace structscope {

/// A field of a gold document (docs/metrics.md, "Fields"): a leaf path with every array index replaced by "[]"
/// (`items[].sku`, `customer.address.city`), interned: the same path has the same key for the life of the program.
using FieldKey = std::uint32_t;

/// The key of a field path (thread-safe; each thread remembers the keys it has looked up).
FieldKey fieldKey(std::string_view path);
/// The path of a key fieldKey() gave.
std::string fieldPathOf(FieldKey key);
/// How many field paths have been interned so far (every key is below it).
std::size_t fieldKeyCount();

/// What one response did with one field of its gold: its gold values (the field's elements — one for a field outside
/// arrays, one per array element holding it otherwise) sorted into outcomes. Every element is exactly one of
/// lenient-correct, missing, wrong or invented (they sum to `elements`); `correct` (strict) ≤ `lenient`, and
/// `typeError` ≤ `wrong`.
struct FieldTally
{
    FieldKey field = 0;
    std::uint32_t elements = 0; ///< gold leaves of the field, null ones included
    std::uint32_t correct = 0; ///< no difference at the leaf under strict equality
    std::uint32_t lenient = 0; ///< correct, or a wrong value whose two sides are equal under lenient equality
    std::uint32_t missing = 0; ///< missing key or missing value (the prediction lacks it or holds null)
    std::uint32_t wrong = 0; ///< a wrong value (deviation, value error, coercible, type error) not invented
    std::uint32_t invented = 0; ///< gold null, the prediction a value (neither null nor an empty {} / [])
    std::uint32_t typeError = 0; ///< of `wrong`: a type error (another JSON type, not coercible)

    friend bool operator==(const FieldTally&, const FieldTally&) = default;
};

/// A response's tallies, one per field of its gold in the gold's document order (a field's first leaf).
using FieldTallies = std::vector<FieldTally>;

/// `tallies` as a shared, immutable object: an equal one still alive anywhere in the program is returned instead of a
/// new one. Tallies are counts, so the responses to one case — and to cases of one shape — mostly have equal ones: a
/// million verdicts hold a few thousand distinct objects, not a million. Thread-safe. Empty tallies give nullptr.
std::shared_ptr<const FieldTallies> shareTallies(FieldTallies tallies);

/// Tallies one response from the strict diff of gold against its prediction (diffJson() with Equality::Strict, the
/// suite's array matching), as the scorer makes it: a gold leaf with a MissingKey or MissingValue is missing; one
/// with a WrongValue is invented (gold null, the value neither an empty container), lenient-correct (its two sides
/// are equal under lenient equality, valuesEqual()), or else wrong; any other gold leaf is correct. `failed` (the
/// response has no usable prediction, ExtractionRecord::failed; the differences are then not read): every element is
/// missing. A gold that is not an object or array has no fields.
FieldTallies tallyFields(const nlohmann::json& gold, const std::vector<Difference>* strictDifferences, bool failed);

} // namespace structscope
