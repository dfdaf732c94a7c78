// SPDX-License-Identifier: Apache-2.0
#include "sim/simfaults.h"
#include "json/parseladder.h"

#include <array>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

// No brace, bracket or backtick in these: the prose must not look like JSON or a fence itself.
constexpr std::array<const char16_t*, 4> kLeadIns {
    u"Here is the extracted data:",
    u"Sure! Here's the JSON you asked for:",
    u"Based on the text, this is the answer:",
    u"I have filled in the schema with what the text states.",
};
constexpr std::array<const char16_t*, 4> kSignOffs {
    u"Let me know if you need anything else.",
    u"I used null for the values the text does not state.",
    u"Note: please double-check the dates.",
    u"",
};

bool parses(const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    return parseResponse(std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size()))).ok();
}

qsizetype safeCut(const QString& text, qsizetype cut)
{
    cut = std::clamp<qsizetype>(cut, 0, text.size());
    if (cut > 0 && cut < text.size() && text[cut].isLowSurrogate())
        --cut;
    return cut;
}

} // namespace

QString applyTextFault(FaultKind kind, const QString& text, Xoshiro256& rng)
{
    switch (kind) {
    case FaultKind::CodeFence:
        return (rng.bounded(5) == 0 ? u"```\n"_s : u"```json\n"_s) + text + u"\n```"_s;
    case FaultKind::Prose: {
        QString out = QString::fromUtf16(kLeadIns[rng.bounded(kLeadIns.size())]) + u"\n\n"_s + text;
        const QString signOff = QString::fromUtf16(kSignOffs[rng.bounded(kSignOffs.size())]);
        if (!signOff.isEmpty())
            out += u"\n\n"_s + signOff;
        return out;
    }
    case FaultKind::Truncate: {
        // Output stopped by a token limit: somewhere in the second half, then shorter still if a
        // complete inner object happens to survive (the ladder would extract it).
        const auto fraction = 50 + static_cast<qsizetype>(rng.bounded(40));
        qsizetype cut = safeCut(text, text.size() * fraction / 100);
        while (cut > 0 && parses(text.left(cut)))
            cut = safeCut(text, cut * 2 / 3);
        return text.left(cut);
    }
    default:
        return text;
    }
}

} // namespace structscope
