// SPDX-License-Identifier: Apache-2.0
#include "json/sourcehighlights.h"

#include <algorithm>

namespace structscope {

namespace {

bool isWordChar(QChar c)
{
    return c.isLetterOrNumber();
}

bool overlaps(const std::vector<TextSpan>& kept, int start, int length)
{
    return std::any_of(kept.begin(), kept.end(),
        [start, length](const TextSpan& s) { return start < s.start + s.length && s.start < start + length; });
}

} // namespace

QString searchTextOf(const nlohmann::json& value)
{
    if (value.is_string())
        return QString::fromStdString(value.get<std::string>());
    if (value.is_number() || value.is_boolean())
        return QString::fromStdString(value.dump());
    return {};
}

std::vector<Needle> diffNeedles(const std::vector<AlignedRow>& rows, int selectedRow)
{
    std::vector<Needle> needles;
    if (selectedRow >= 0 && std::size_t(selectedRow) < rows.size()) {
        const AlignedRow& selected = rows[std::size_t(selectedRow)];
        if (selected.gold)
            needles.push_back({ searchTextOf(*selected.gold), SelectedGold });
        if (selected.predicted)
            needles.push_back({ searchTextOf(*selected.predicted), SelectedPredicted });
    }
    for (const AlignedRow& row : rows) {
        if (row.gold && !row.goldIsContainer())
            needles.push_back({ searchTextOf(*row.gold), GoldValue });
    }
    for (const AlignedRow& row : rows) {
        if (row.mark != DiffMark::Same && row.predicted && !row.predictedIsContainer())
            needles.push_back({ searchTextOf(*row.predicted), PredictedValue });
    }
    return needles;
}

std::vector<TextSpan> findValueSpans(const QString& text, const std::vector<Needle>& needles, int minLength)
{
    std::vector<TextSpan> spans;
    for (const Needle& needle : needles) {
        const QString n = needle.text.trimmed();
        if (n.isEmpty())
            continue;
        bool numeric = false;
        n.toDouble(&numeric);
        if (!numeric && n.size() < minLength)
            continue;
        qsizetype from = 0;
        while ((from = text.indexOf(n, from, Qt::CaseInsensitive)) >= 0) {
            const qsizetype end = from + n.size();
            const bool wordStart = from == 0 || !isWordChar(text[from - 1]) || !isWordChar(n.front());
            const bool wordEnd = end >= text.size() || !isWordChar(text[end]) || !isWordChar(n.back());
            if (wordStart && wordEnd && !overlaps(spans, int(from), int(n.size())))
                spans.push_back({ int(from), int(n.size()), needle.tag });
            from += 1;
        }
    }
    std::sort(spans.begin(), spans.end(), [](const TextSpan& a, const TextSpan& b) { return a.start < b.start; });
    return spans;
}

} // namespace structscope
