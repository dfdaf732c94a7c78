// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "json/jsondiff.h"

namespace structscope {

/// SchemaBench's label of one response: the first that applies, ranked by severity.
enum class LadderLabel { InvalidJson, SchemaViolation, HallucinatedOnMissing, ValueIncorrect, Correct };

/// "invalid_json", "schema_violation", "hallucinated_on_missing", "value_incorrect", "correct".
const char* ladderLabelId(LadderLabel label);

/// The label from the facts the scorer already has: did the response parse, does it validate,
/// and the counted gold-vs-prediction diff (lenient for the main label, strict for `correct_strict`).
/// A key absent where gold is null is not wrong (absent and null say the same).
LadderLabel ladderLabel(bool parsed, bool schemaValid, const DiffCounts& counts);

} // namespace structscope
