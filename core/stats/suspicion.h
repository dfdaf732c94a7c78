// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>
#include <string>
#include <vector>

namespace structscope {

/// One model's answer at a gold leaf: the predicted value, or nullopt when its prediction lacks the path.
struct ModelAnswer
{
    QString model;
    std::optional<nlohmann::json> value;
};

/// A gold leaf of one case, with the answers of the models whose responses are to be heard there
/// (leave out models whose response did not parse: every listed model counts as having answered).
struct LeafAnswers
{
    QString caseId;
    std::string path; ///< leaf path as flattenLeaves() writes it
    nlohmann::json gold;
    std::vector<ModelAnswer> answers; ///< one per model; a repeated model's later answers are ignored
};

/// Thresholds of the gold-suspicion rule (docs/metrics.md §5).
struct SuspicionOptions
{
    int minModels = 3; ///< distinct models that must have answered
    double minSupport = 0.6; ///< share of them that must agree on one value other than gold
    bool absentEqualsNull = true; ///< a missing path counts as null (models drop null keys routinely)
    /// findCaseSuspects only: share of the models that answered the case that must be heard at a place (after
    /// the arrays are aligned), so that a few models that happen to pair an element do not speak for all.
    double minHeardShare = 0.5;
};

/// A (case, path) whose gold a consensus of models contradicts.
struct SuspectLeaf
{
    QString caseId;
    std::string path;
    nlohmann::json gold;
    nlohmann::json consensus; ///< the agreed value as the first agreeing model wrote it (null if absent)
    bool consensusAbsent = false; ///< the agreeing models all lack the path (only with absentEqualsNull off)
    int agreeing = 0; ///< models that gave the consensus value
    int answered = 0; ///< distinct models that answered
    double support = 0.0; ///< agreeing / answered
    QStringList agreeingModels; ///< sorted
};

/// The comparison key of a value: compact JSON with sorted keys, numbers by value (1 and 1.0 and
/// -0.0/0 give one key; true and 1 do not), strings byte-exact (invalid UTF-8 replaced by U+FFFD).
std::string consensusKey(const nlohmann::json& value);

/// consensusKey() under the scorer's lenient equality (docs/metrics.md §0): strings are keyed by their
/// lenient form (trimmed, whitespace collapsed, case folded, one trailing full stop dropped), at any depth.
std::string lenientConsensusKey(const nlohmann::json& value);

/// How two different values are the same content written another way (a "format disagreement").
enum class FormatVariant {
    None, ///< a real disagreement
    Lenient, ///< equal under lenient equality: case, whitespace, a trailing full stop
    Quotes, ///< equal once quotation marks (straight, curly, backticks) are dropped
    Unit, ///< a number against the same number with a unit sign: "35%" vs 35, "$25" vs 25
    Symbol, ///< equal once symbols are spelled alike: ≤ vs <=, ≥ vs >=, ≠ vs !=, – or — vs -, … vs ...
    Markup, ///< equal once compatibility characters and markup are dropped: Er³⁺ vs Er3+, \(k^{th}\) vs k^{th}, a_b vs
            ///< a b
    WordOrder, ///< the same two to five words in another order: "Zhou, Guangwei" vs "Guangwei Zhou"
    Contains, ///< one value's text holds the other's as whole words ("IFC" in "Interfraternity Conference (IFC)")
    Date, ///< the same calendar date written another way: "May 22, 1914" vs "May twentysecond, Nineteen hundred and
          ///< fourteen" vs "1914-05-22" (see parseDateText)
    Abridged, ///< one text is the other with words left out: each word of the shorter (at least three, articles
              ///< aside) is a word of the longer, or its stem of five letters or more ("verbal" for "verbally"), and no
              ///< word left out is a number (in digits or words) or a negation ("not", "no", "never", "without", …):
              ///< "behaviour pursuant to Paragraph 1 (harassment) which is sexual in nature" vs the same without
              ///< "(harassment)"
    Spacing ///< the same letters and digits in the same order, spaced or punctuated another way, each number kept
            ///< whole: "Low- power" vs "Low-power", "U.S." vs "US" (not "1,5" vs "15"). A letter changed is no format
            ///< variant: "Brookes" for "Brooks" may be the gold's typo, however much it looks like an OCR slip.
};

/// "", "lenient", "quotes", "unit", "symbol", "markup", "word_order", "contains", "date", "abridged", "spacing".
const char* formatVariantId(FormatVariant variant);

/// Whether `a` and `b` (leaves: strings, numbers, booleans) differ only in format, and how. Null against
/// anything is never a format variant, nor are two values that are equal byte for byte (None). Numbers
/// compare by their JSON text, so 21 is not "contained" in 211 (whole words only).
FormatVariant formatVariantOf(const nlohmann::json& a, const nlohmann::json& b);

/// The audit queue: leaves where at least minModels distinct models answered and a share
/// ≥ minSupport of them agree on one value whose key differs from gold's. Should two values qualify
/// (only possible with minSupport ≤ 0.5) the one with more votes wins, then the smaller key.
/// Ranked by support, then agreeing count (both descending), then case id and path (ascending).
std::vector<SuspectLeaf> goldSuspicionQueue(
    const std::vector<LeafAnswers>& leaves, const SuspicionOptions& options = {});

/// A model's failure rate (in [0, 1]) in a category; NaN means "no cases" and is skipped.
struct CategoryFailureRate
{
    QString category;
    QString model;
    double rate = 0.0;
};

/// Thresholds of the uniform-failure flag.
struct UniformFailureOptions
{
    int minModels = 3; ///< distinct models with a rate in the category
    double minRate = 0.5; ///< every model fails at least this often
    double maxSpread = 0.2; ///< highest rate − lowest rate at most this
};

/// A category where all models fail alike: a likely gold or schema bug rather than a model weakness.
struct UniformFailureFlag
{
    QString category;
    int models = 0;
    double minRate = 0.0;
    double maxRate = 0.0;
};

/// Categories whose rates satisfy every threshold of options (compared with a 1e-9 tolerance, so that
/// 0.8 − 0.6 counts as a spread of 0.2); a repeated (category, model) keeps its first rate.
/// Ranked by lowest rate descending, then category.
std::vector<UniformFailureFlag> uniformFailureFlags(
    const std::vector<CategoryFailureRate>& rates, const UniformFailureOptions& options = {});

} // namespace structscope

Q_DECLARE_METATYPE(structscope::SuspectLeaf)
Q_DECLARE_METATYPE(structscope::UniformFailureFlag)
