// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/scoredrecord.h"

#include <QtGlobal>

#include <optional>
#include <string_view>
#include <vector>

namespace structscope {

/// An error label a response can carry (from its strict extraction diff and schema check): the sets
/// of the Errors page's Venn diagrams, the Cases page's error filter and the "error of a kind" criterion
/// of failure overlaps.
enum class ErrorLabel {
    MissingKey, ///< ≥ 1 MK
    MissingValue, ///< ≥ 1 MV
    WrongValue, ///< ≥ 1 WV of any sub-type
    Deviation, ///< ≥ 1 WV deviation
    ValueError, ///< ≥ 1 WV value error
    Coercible, ///< ≥ 1 WV coercible
    TypeError, ///< ≥ 1 WV type error
    ExtraKey, ///< ≥ 1 extra key
    Invented, ///< a value where gold has null or nothing
    SchemaViolation, ///< parsed but not valid against the schema
};

/// Every label, in menu order.
const std::vector<ErrorLabel>& errorLabels();
/// "mk", "mv", "wv", "wv_deviation", "wv_value", "wv_coercible", "wv_type", "extra", "invented", "schema".
const char* errorLabelId(ErrorLabel label);
std::optional<ErrorLabel> errorLabelFromId(std::string_view id);

/// The labels a record carries, as bits (1 << int(label)); none for an errored slot.
quint32 errorFlags(const ScoredRecord& record);
inline bool hasLabel(quint32 flags, ErrorLabel label)
{
    return (flags >> int(label)) & 1u;
}

} // namespace structscope
