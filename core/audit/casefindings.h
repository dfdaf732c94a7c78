// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "stats/suspicion.h"

#include <nlohmann/json.hpp>

#include <QString>
#include <QStringList>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace structscope {

/// What a consensus of models says is wrong with a case's gold (docs/metrics.md §5).
enum class FindingKind {
    Value, ///< a leaf: the models agree on another value (after the arrays are aligned)
    MissingElement, ///< gold lacks an array element that most models give (the proposed element comes along)
    ExtraElement, ///< most models lack a gold array element
    MergeSplit, ///< most models merge gold elements of an array, or split them (one finding per array)
    Format ///< the models write the gold's content another way (case, quotes, "35%" vs 35, …)
};

/// "value", "gold_lacks_element", "models_lack_element", "merge_split", "format".
const char* findingKindId(FindingKind kind);

/// One parsed answer of one model to a case.
struct CaseAnswer
{
    QString model;
    nlohmann::json value;
};

/// One finding on one case's gold.
struct CaseFinding
{
    FindingKind kind = FindingKind::Value;
    FormatVariant format = FormatVariant::None; ///< Format: how the values differ
    std::string path; ///< dotted path of the place; MissingElement: "<array>[+i]" (inserted before element i);
                      ///< MergeSplit: the array's own path
    std::string pointer; ///< gold pointer of the place; MissingElement: "<array>/i", where Accept inserts
    std::string arrayPath; ///< the innermost gold array holding the place ("" when none): the finding's group
    std::string arrayPointer;
    std::optional<nlohmann::json>
        gold; ///< the gold there (a leaf, an element, MergeSplit: the array); nullopt for MissingElement
    nlohmann::json consensus; ///< Value/Format: the agreed value; MissingElement: the proposed element; else null
    bool consensusAbsent = false; ///< Value: the agreeing models lack the key (only with absentEqualsNull off)
    int agreeing = 0; ///< models behind the finding
    int answered = 0; ///< models heard at the place (Value/Format) or on the array (element findings)
    double support = 0.0; ///< agreeing / answered
    QStringList agreeingModels; ///< sorted
    std::vector<ModelAnswer> answers; ///< each heard model's value at the place (element findings: its aligned
                                      ///< element; MergeSplit: its array)
    int merging = 0; ///< MergeSplit: models that merge gold elements
    int splitting = 0; ///< MergeSplit: models that split a gold element
};

/// The findings on one case. Each model's answer is first aligned to the gold: in every array the elements
/// are paired by best match, as the scorer's unordered matching pairs them (alignArrayElements, lenient
/// equality), and such a pair counts when the two share at least a third of the smaller one's leaves. What is
/// left is read, in this order, for: a string holding two or more gold strings as whole words (merge) or a gold
/// string holding two or more of the answer's (split); pairs of elements whose texts are alike (mean token F1 of
/// their leaves ≥ 0.5, best first); a string holding the other as whole words (paired); a gold element whose
/// words (half of them) or leaves sit in another element's partner, bringing what that one's gold lacks (merge), or an
/// answer element holding what a paired gold element has and its partner lacks (split). A model is heard at a gold leaf
/// only when every array element on the way has a partner in its answer that is neither a split piece nor holds a
/// merged element (a missing key inside a paired element is heard as null with absentEqualsNull); it is heard on an
/// array when it answers there with an array. With n the models heard at a place (n ≥ minModels and n ≥ minHeardShare
/// of the models that answered the case), a share ≥ minSupport of them:
/// - Value: agree, under the scorer's lenient equality, on a leaf value other than gold's;
/// - Format: the same, but the agreed value is gold's written another way (formatVariantOf), or the models
///   agree on one spelling that is leniently equal to gold's but not byte-equal;
/// - MissingElement: give an unpaired element that is alike across them (similarity ≥ 0.5); the proposed
///   element is the one most alike the others, inserted where most put it (before the gold partner of the
///   next paired element of their answer);
/// - ExtraElement: give no partner for a gold element (and neither merge nor split it);
/// - MergeSplit: merge or split elements of the array (one finding for the array).
/// `answers` holds one parsed answer per model. Findings come in gold document order, element findings
/// of an array after its leaves.
std::vector<CaseFinding> findCaseSuspects(
    const nlohmann::json& gold, const std::vector<CaseAnswer>& answers, const SuspicionOptions& options = {});

} // namespace structscope
