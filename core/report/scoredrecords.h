// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/scoredrecord.h"

#include <cstddef>
#include <iterator>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace structscope {

/// A random-access iterator over the records of `Records` (ScoredRecords, RecordsView) by place: their records do
/// not lie in one array, so it asks `Records` for each one.
template <typename Records> class RecordIterator
{
public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = ScoredRecord;
    using difference_type = std::ptrdiff_t;
    using pointer = const ScoredRecord*;
    using reference = const ScoredRecord&;

    RecordIterator() = default;
    RecordIterator(const Records* records, std::size_t index)
        : m_records(records)
        , m_index(index)
    { }
    reference operator*() const { return (*m_records)[m_index]; }
    pointer operator->() const { return &(*m_records)[m_index]; }
    reference operator[](difference_type n) const { return (*m_records)[std::size_t(difference_type(m_index) + n)]; }
    RecordIterator& operator++()
    {
        ++m_index;
        return *this;
    }
    RecordIterator operator++(int)
    {
        RecordIterator before = *this;
        ++m_index;
        return before;
    }
    RecordIterator& operator--()
    {
        --m_index;
        return *this;
    }
    RecordIterator operator--(int)
    {
        RecordIterator before = *this;
        --m_index;
        return before;
    }
    RecordIterator& operator+=(difference_type n)
    {
        m_index = std::size_t(difference_type(m_index) + n);
        return *this;
    }
    RecordIterator& operator-=(difference_type n) { return *this += -n; }
    friend RecordIterator operator+(RecordIterator it, difference_type n) { return it += n; }
    friend RecordIterator operator+(difference_type n, RecordIterator it) { return it += n; }
    friend RecordIterator operator-(RecordIterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const RecordIterator& a, const RecordIterator& b)
    {
        return difference_type(a.m_index) - difference_type(b.m_index);
    }
    friend bool operator==(const RecordIterator& a, const RecordIterator& b) { return a.m_index == b.m_index; }
    friend auto operator<=>(const RecordIterator& a, const RecordIterator& b) { return a.m_index <=> b.m_index; }

private:
    const Records* m_records = nullptr;
    std::size_t m_index = 0;
};

/// The scored records of an evaluation, held in chunks of kChunk records that copies share: copying a set copies a
/// table of chunk pointers, not the records, and withReplaced() copies only the chunks it changes. A gold edit at a
/// million records so makes its new set from the earlier one by copying a few hundred records instead of all of them
/// (0.3 s and 600 MB). Immutable once made; safe to read from several threads.
class ScoredRecords
{
public:
    /// 64 records (~40 KB): a gold edit copies the chunks holding its case's responses, one or two per run — 64
    /// records each is ~3 ms at a million, 256 were ~12 ms; the spans a pass walks stay long enough not to count.
    static constexpr std::size_t kChunkBits = 6;
    static constexpr std::size_t kChunk = std::size_t(1) << kChunkBits;

    ScoredRecords() = default;
    /// Takes the records over; the chunks are stretches of that one array (nothing is copied).
    explicit ScoredRecords(std::vector<ScoredRecord>&& records);
    /// Copies the records.
    explicit ScoredRecords(std::span<const ScoredRecord> records);

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const ScoredRecord& operator[](std::size_t i) const { return m_chunks[i >> kChunkBits][i & (kChunk - 1)]; }
    const ScoredRecord& front() const { return (*this)[0]; }
    const ScoredRecord& back() const { return (*this)[m_size - 1]; }

    /// The records in order, as stretches of consecutive records (each chunk's, or longer).
    std::size_t spanCount() const { return m_chunks.size(); }
    std::span<const ScoredRecord> span(std::size_t i) const
    {
        return { m_chunks[i], std::min(kChunk, m_size - (i << kChunkBits)) };
    }

    /// These records with the ones at the given places (each < size(), no place twice) replaced: shares every chunk
    /// with this set except those holding the places, which are copied first. Leaves `replacements` moved from.
    ScoredRecords withReplaced(std::vector<std::pair<std::size_t, ScoredRecord>>&& replacements) const;

    /// How many distinct arrays hold the chunks (1 for a set made from one vector; a test of the sharing).
    std::size_t ownerCount() const;

    using const_iterator = RecordIterator<ScoredRecords>;
    const_iterator begin() const { return { this, 0 }; }
    const_iterator end() const { return { this, m_size }; }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }

    /// The records as one array (a copy).
    std::vector<ScoredRecord> toVector() const;

private:
    using Owner = std::shared_ptr<const std::vector<ScoredRecord>>;
    std::vector<const ScoredRecord*> m_chunks; ///< the first record of each chunk
    std::vector<Owner> m_owners; ///< the arrays the chunks point into, each once
    std::size_t m_size = 0;
};

/// Records to read, whoever holds them: one array (a vector, a span) or a ScoredRecords. Like a span, it does not
/// own them. What a report, chart or table is computed from.
class RecordsView
{
public:
    RecordsView() = default;
    RecordsView(std::span<const ScoredRecord> records)
        : m_flat(records.data())
        , m_size(records.size())
    { }
    RecordsView(const std::vector<ScoredRecord>& records)
        : RecordsView(std::span<const ScoredRecord>(records))
    { }
    RecordsView(const ScoredRecords& records)
        : m_chunked(&records)
        , m_size(records.size())
    { }

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const ScoredRecord& operator[](std::size_t i) const { return m_chunked ? (*m_chunked)[i] : m_flat[i]; }

    /// The records in order, as stretches of consecutive records: a loop over a million records goes stretch by
    /// stretch instead of asking where each record is.
    std::size_t spanCount() const { return m_chunked ? m_chunked->spanCount() : (m_size > 0 ? 1 : 0); }
    std::span<const ScoredRecord> span(std::size_t i) const
    {
        return m_chunked ? m_chunked->span(i) : std::span<const ScoredRecord>(m_flat, m_size);
    }
    /// Calls f(record, index) for every record in order.
    template <typename F> void forEach(F&& f) const
    {
        std::size_t index = 0;
        for (std::size_t s = 0; s < spanCount(); ++s) {
            for (const ScoredRecord& r : span(s))
                f(r, index++);
        }
    }

    using const_iterator = RecordIterator<RecordsView>;
    const_iterator begin() const { return { this, 0 }; }
    const_iterator end() const { return { this, m_size }; }

private:
    const ScoredRecord* m_flat = nullptr;
    const ScoredRecords* m_chunked = nullptr;
    std::size_t m_size = 0;
};

} // namespace structscope
