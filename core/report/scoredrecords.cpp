// SPDX-License-Identifier: Apache-2.0
#include "report/scoredrecords.h"

#include <algorithm>
#include <unordered_set>

namespace structscope {

ScoredRecords::ScoredRecords(std::vector<ScoredRecord>&& records)
    : m_size(records.size())
{
    if (records.empty())
        return;
    auto owner = std::make_shared<const std::vector<ScoredRecord>>(std::move(records));
    m_chunks.reserve((m_size + kChunk - 1) / kChunk);
    for (std::size_t first = 0; first < m_size; first += kChunk)
        m_chunks.push_back(owner->data() + first);
    m_owners.push_back(std::move(owner));
}

ScoredRecords::ScoredRecords(std::span<const ScoredRecord> records)
    : ScoredRecords(std::vector<ScoredRecord>(records.begin(), records.end()))
{ }

ScoredRecords ScoredRecords::withReplaced(std::vector<std::pair<std::size_t, ScoredRecord>>&& replacements) const
{
    ScoredRecords out = *this; // the chunk table and the owners: no record is copied
    if (replacements.empty())
        return out;
    std::sort(replacements.begin(), replacements.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    // Each chunk holding a place becomes a copy of its records, one array per chunk.
    for (std::size_t i = 0; i < replacements.size();) {
        const std::size_t chunk = replacements[i].first >> kChunkBits;
        const std::span<const ScoredRecord> old = span(chunk);
        auto copy = std::make_shared<std::vector<ScoredRecord>>(old.begin(), old.end());
        for (; i < replacements.size() && (replacements[i].first >> kChunkBits) == chunk; ++i)
            (*copy)[replacements[i].first & (kChunk - 1)] = std::move(replacements[i].second);
        out.m_chunks[chunk] = copy->data();
        out.m_owners.push_back(std::move(copy));
    }
    // Arrays no chunk points into any more (chunks an earlier replacement copied, now copied again) are let go.
    std::unordered_set<const ScoredRecord*> used(out.m_chunks.begin(), out.m_chunks.end());
    std::erase_if(out.m_owners, [&used](const Owner& owner) {
        if (owner->empty())
            return true;
        for (std::size_t first = 0; first < owner->size(); first += kChunk) {
            if (used.contains(owner->data() + first))
                return false;
        }
        return true;
    });
    return out;
}

std::size_t ScoredRecords::ownerCount() const
{
    return m_owners.size();
}

std::vector<ScoredRecord> ScoredRecords::toVector() const
{
    std::vector<ScoredRecord> out;
    out.reserve(m_size);
    for (std::size_t s = 0; s < spanCount(); ++s) {
        const auto records = span(s);
        out.insert(out.end(), records.begin(), records.end());
    }
    return out;
}

} // namespace structscope
