// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace structscope {

/// How arrays are aligned before comparison (docs/metrics.md §0).
enum class ArrayMatching { Ordered, Unordered };

/// Strict compares strings byte-exactly; Lenient trims, folds case and whitespace and
/// strips one trailing full stop. Numbers always compare by value (1 == 1.0).
enum class Equality { Strict, Lenient };

/// Kind of one structural difference between gold and prediction (LLMStructBench).
enum class DiffKind {
    MissingKey, ///< MK: key in gold, absent in prediction
    MissingValue, ///< MV: gold leaf non-null; prediction lacks the key or holds null
    WrongValue, ///< WV: both present and non-null, not equal (see WrongValueKind)
    ExtraKey ///< key in prediction, absent in gold
};

/// Sub-type of a wrong value.
enum class WrongValueKind {
    None,
    Deviation, ///< both strings; `levenshtein` holds lev(gold, pred) / max(1, len(gold))
    ValueError, ///< same primitive type, other content
    Coercible, ///< types differ but the stringified forms are equal ("42" vs 42)
    TypeError ///< anything else (including container vs primitive)
};

const char* diffKindId(DiffKind kind); ///< "missing_key", "missing_value", "wrong_value", "extra_key"
const char* wrongValueKindId(WrongValueKind kind); ///< "", "deviation", "value_error", "coercible", "type_error"

/// One typed difference, located by JSON pointer (into gold for MK/MV/WV, into prediction for extra keys).
/// Invariants the metrics rely on: every gold leaf (and every empty {} / [], the root included)
/// yields at most one MissingKey and at most one of {MissingValue, WrongValue}; every predicted leaf
/// (or empty container) under a key gold lacks yields exactly one ExtraKey. A missing key and its
/// missing value are two entries with the same pointer (MissingKey first).
struct Difference
{
    DiffKind kind = DiffKind::WrongValue;
    WrongValueKind wrongKind = WrongValueKind::None;
    std::string pointer; ///< RFC 6901 pointer
    std::string path; ///< the same location as a dotted leaf path
    nlohmann::json gold; ///< gold value at that place (null for extra keys)
    nlohmann::json predicted; ///< predicted value (null when absent)
    double levenshtein = 0.0; ///< normalised distance, set for Deviation
    /// TypeError where gold holds null and the prediction a non-null value at the same place: a value
    /// invented where gold has none (the ladder's hallucinated_on_missing; extra keys are the other case).
    bool goldNull = false;
};

/// Options of diffJson(). Unordered matching aligns the elements of every array pair greedily (see
/// diffJson); arrays too large to align within a fixed budget fall back to index order.
struct DiffOptions
{
    ArrayMatching arrays = ArrayMatching::Ordered;
    Equality equality = Equality::Strict;
    /// False: a Deviation's `levenshtein` is left 0 (its edit distance, the costly part of a diff of long strings,
    /// is not computed). Every difference is the same either way.
    bool distances = true;
};

/// Structural diff of gold vs prediction at leaf granularity. Deterministic order: gold document
/// order (nlohmann's: keys sorted bytewise, arrays by index), then the extra keys in walk order.
/// - key absent: MissingKey per gold leaf under it (one at the key for a leaf or an empty container),
///   plus MissingValue per non-null gold leaf;
/// - prediction null: MissingValue per non-null gold leaf there or under it (nothing for an empty one);
/// - gold null, prediction non-null: WrongValue/TypeError with goldNull;
/// - gold container vs a non-null prediction of another kind: WrongValue/TypeError per gold leaf under
///   it (one for an empty container), `predicted` holding the predicted value at the container;
/// - both non-null leaves, not valuesEqual: Deviation (two strings), ValueError (number/number,
///   bool/bool), Coercible (stringified forms equal: "42" vs 42 or 42.0, "true" vs true; compared
///   leniently in Lenient mode), else TypeError. Booleans are not numbers (true vs 1 is a TypeError);
/// - arrays: Ordered compares index to index, surplus gold elements are missing, surplus predicted
///   ones extra. Unordered scores every (gold, predicted) element pair by equal leaves, takes pairs
///   greedily (most equal leaves, then fewest unequal, then nearest index, then lowest indices), pairs
///   the rest in index order, and reports gold-side differences at gold indices, extras at predicted
///   indices.
/// Recursion follows the documents' nesting; parse them with the ladder's depth limit.
std::vector<Difference> diffJson(
    const nlohmann::json& gold, const nlohmann::json& predicted, const DiffOptions& options = {});

/// The pairing diffJson() uses for one array pair under ArrayMatching::Unordered: for each gold element the
/// index of its predicted partner, or kNoArrayPartner. Pairs are taken greedily by equal leaves (see
/// diffJson); what shares no equal leaf is then paired in index order, as an ordered comparison would.
/// Both arguments must be arrays (anything else gives no pairs).
std::vector<std::size_t> alignArrayElements(
    const nlohmann::json& gold, const nlohmann::json& predicted, Equality equality);

/// alignArrayElements()'s "no partner".
inline constexpr std::size_t kNoArrayPartner = static_cast<std::size_t>(-1);

/// How much two array elements share: leaves (and empty containers) at the same relative pointer with equal
/// values (valuesEqual), out of each side's leaf count. The score alignArrayElements() pairs by.
struct ElementAgreement
{
    std::size_t equal = 0;
    std::size_t goldLeaves = 0;
    std::size_t predictedLeaves = 0;
};
ElementAgreement elementAgreement(const nlohmann::json& gold, const nlohmann::json& predicted, Equality equality);

/// Leaf equality as docs/metrics.md §0 defines it (numbers by value, strings per `equality`). Containers
/// compare deeply (arrays in order); a boolean never equals a number.
bool valuesEqual(const nlohmann::json& a, const nlohmann::json& b, Equality equality);

/// Levenshtein distance over Unicode code points of two UTF-8 strings (an invalid byte is one
/// symbol). After trimming the common prefix and suffix, bit-parallel (Myers 1999, Hyyrö's blocks of 64 rows): time
/// O(n·⌈m/64⌉) for lengths m ≤ n, memory O(m). When the exact answer would take more than 2^26 word steps (two
/// strings of over ~64,000 code points each that differ near both ends) it returns max(len), an upper bound.
std::size_t levenshtein(std::string_view a, std::string_view b);

/// levenshtein(gold, predicted) / max(1, code points of gold): LLMStructBench's deviation `l`.
double normalizedLevenshtein(std::string_view gold, std::string_view predicted);

/// Difference counts of one case, in the units of docs/metrics.md §2.
struct DiffCounts
{
    int mk = 0; ///< missing keys
    int mv = 0; ///< missing values
    int wvDeviation = 0; ///< wrong values: string deviations
    int wvValue = 0; ///< wrong values: value errors
    int wvCoercible = 0; ///< wrong values: coercible
    int wvType = 0; ///< wrong values: type errors (goldNull ones included)
    int extra = 0; ///< extra keys
    int goldNull = 0; ///< of wvType: gold null, prediction non-null
    /// goldNull differences and extra keys whose predicted value is neither null nor an empty {} / []
    /// (an empty container where gold has nothing invents no content).
    int invented = 0;

    int wv() const { return wvDeviation + wvValue + wvCoercible + wvType; }
    int total() const { return mk + mv + wv() + extra; }
    bool perfect() const { return total() == 0; }
    /// A value where gold has null or nothing (SchemaBench's hallucinated_on_missing).
    bool hallucinated() const { return invented > 0; }
};

/// Tallies a diff by kind.
DiffCounts countDifferences(const std::vector<Difference>& differences);

/// countDifferences(diffJson(gold, predicted, options)) without building the differences (no pointers, paths or
/// copies of values). With `deviations`, also the `levenshtein` of each Deviation, in diffJson()'s order.
DiffCounts countDiff(const nlohmann::json& gold, const nlohmann::json& predicted, const DiffOptions& options,
    std::vector<double>* deviations = nullptr);

} // namespace structscope
