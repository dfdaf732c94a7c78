// SPDX-License-Identifier: Apache-2.0
#include "report/errorlabels.h"

namespace structscope {

const std::vector<ErrorLabel>& errorLabels()
{
    static const std::vector<ErrorLabel> labels = { ErrorLabel::MissingKey, ErrorLabel::MissingValue,
        ErrorLabel::WrongValue, ErrorLabel::Deviation, ErrorLabel::ValueError, ErrorLabel::Coercible,
        ErrorLabel::TypeError, ErrorLabel::ExtraKey, ErrorLabel::Invented, ErrorLabel::SchemaViolation };
    return labels;
}

const char* errorLabelId(ErrorLabel label)
{
    switch (label) {
    case ErrorLabel::MissingKey:
        return "mk";
    case ErrorLabel::MissingValue:
        return "mv";
    case ErrorLabel::WrongValue:
        return "wv";
    case ErrorLabel::Deviation:
        return "wv_deviation";
    case ErrorLabel::ValueError:
        return "wv_value";
    case ErrorLabel::Coercible:
        return "wv_coercible";
    case ErrorLabel::TypeError:
        return "wv_type";
    case ErrorLabel::ExtraKey:
        return "extra";
    case ErrorLabel::Invented:
        return "invented";
    case ErrorLabel::SchemaViolation:
        return "schema";
    }
    return "";
}

std::optional<ErrorLabel> errorLabelFromId(std::string_view id)
{
    for (ErrorLabel label : errorLabels()) {
        if (id == errorLabelId(label))
            return label;
    }
    return std::nullopt;
}

quint32 errorFlags(const ScoredRecord& record)
{
    if (record.errored())
        return 0; // no answer, no error of the model
    const DiffCounts& d = record.verdict.extraction.strict.diff;
    quint32 flags = 0;
    const auto set = [&flags](ErrorLabel label, bool on) {
        if (on)
            flags |= 1u << int(label);
    };
    set(ErrorLabel::MissingKey, d.mk > 0);
    set(ErrorLabel::MissingValue, d.mv > 0);
    set(ErrorLabel::WrongValue, d.wv() > 0);
    set(ErrorLabel::Deviation, d.wvDeviation > 0);
    set(ErrorLabel::ValueError, d.wvValue > 0);
    set(ErrorLabel::Coercible, d.wvCoercible > 0);
    set(ErrorLabel::TypeError, d.wvType > 0);
    set(ErrorLabel::ExtraKey, d.extra > 0);
    set(ErrorLabel::Invented, d.hallucinated());
    set(ErrorLabel::SchemaViolation, record.verdict.rung != ParseRung::Failed && !record.verdict.schemaValid);
    return flags;
}

} // namespace structscope
