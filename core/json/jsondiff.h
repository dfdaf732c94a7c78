#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace structscope {

/// How arrays are aligned before comparison (METRICS.md §0).
enum class ArrayMatching { Ordered, Unordered };

/// Strict compares strings byte-exactly; Lenient trims, folds case and whitespace and
/// strips one trailing full stop. Numbers always compare by value (1 == 1.0).
enum class Equality { Strict, Lenient };

/// Kind of one structural difference between gold and prediction (LLMStructBench).
enum class DiffKind {
    MissingKey,   ///< MK: key in gold, absent in prediction
    MissingValue, ///< MV: gold leaf non-null; prediction lacks the key or holds null
    WrongValue,   ///< WV: both present and non-null, not equal (see WrongValueKind)
    ExtraKey      ///< key in prediction, absent in gold
};

/// Sub-type of a wrong value.
enum class WrongValueKind {
    None,
    Deviation,  ///< both strings; `levenshtein` holds lev(gold, pred) / max(1, len(gold))
    ValueError, ///< same primitive type, other content
    Coercible,  ///< types differ but the stringified forms are equal ("42" vs 42)
    TypeError   ///< anything else (including container vs primitive)
};

const char* diffKindId(DiffKind kind);             ///< "missing_key", "missing_value", "wrong_value", "extra_key"
const char* wrongValueKindId(WrongValueKind kind); ///< "", "deviation", "value_error", "coercible", "type_error"

/// One typed difference, located by JSON pointer (into gold for MK/MV/WV, into prediction for extra keys).
struct Difference
{
    DiffKind kind = DiffKind::WrongValue;
    WrongValueKind wrongKind = WrongValueKind::None;
    std::string pointer;     ///< RFC 6901 pointer
    std::string path;        ///< the same location as a dotted leaf path
    nlohmann::json gold;     ///< gold value at that place (null for extra keys)
    nlohmann::json predicted; ///< predicted value (null when absent)
    double levenshtein = 0.0; ///< normalised distance, set for Deviation
};

struct DiffOptions
{
    ArrayMatching arrays = ArrayMatching::Ordered;
    Equality equality = Equality::Strict;
};

/// Structural diff of gold vs prediction. Deterministic order (gold document order, then extras).
std::vector<Difference> diffJson(const nlohmann::json& gold, const nlohmann::json& predicted,
                                 const DiffOptions& options = {});

/// Leaf equality as METRICS.md §0 defines it (numbers by value, strings per `equality`).
bool valuesEqual(const nlohmann::json& a, const nlohmann::json& b, Equality equality);

/// Levenshtein distance over Unicode code points of two UTF-8 strings.
std::size_t levenshtein(std::string_view a, std::string_view b);

} // namespace structscope
