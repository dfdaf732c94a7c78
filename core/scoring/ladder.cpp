// SPDX-License-Identifier: Apache-2.0
#include "scoring/ladder.h"

namespace structscope {

const char* ladderLabelId(LadderLabel label)
{
    switch (label) {
    case LadderLabel::InvalidJson:
        return "invalid_json";
    case LadderLabel::SchemaViolation:
        return "schema_violation";
    case LadderLabel::HallucinatedOnMissing:
        return "hallucinated_on_missing";
    case LadderLabel::ValueIncorrect:
        return "value_incorrect";
    case LadderLabel::Correct:
        return "correct";
    }
    return "invalid_json";
}

LadderLabel ladderLabel(bool parsed, bool schemaValid, const DiffCounts& counts)
{
    if (!parsed)
        return LadderLabel::InvalidJson;
    if (!schemaValid)
        return LadderLabel::SchemaViolation;
    if (counts.hallucinated())
        return LadderLabel::HallucinatedOnMissing;
    // A missing key with non-null gold always comes with a missing value, so MV covers it.
    if (counts.mv + counts.wv() > 0)
        return LadderLabel::ValueIncorrect;
    return LadderLabel::Correct;
}

} // namespace structscope
