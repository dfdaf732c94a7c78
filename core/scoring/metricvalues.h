// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace structscope {

/// A metric id as a small number. Ids are interned: the first use of an id keeps a copy of its text, and every
/// later use of the same text gets the same key and the same storage back, for the life of the program.
using MetricKey = std::uint16_t;

/// The key of a metric id, interned on first use. Thread-safe; a lookup of a known id takes no lock.
/// Throws std::length_error past 65,536 distinct ids (ids come from the code's metric registry, not from input).
MetricKey metricKey(std::string_view id);
/// The id of a key metricKey() gave: always the same storage for the same key.
std::string_view metricIdOf(MetricKey key);

/// The per-record values of a verdict's Rate and Mean metrics, as (metric id, value) in the order they were added.
/// Compact because a million of them are held at once: up to seven values live inside the object (a record of the
/// ladder and extraction families has seven), each as a two-byte key and a double, so copying a verdict allocates
/// nothing; further values go to the heap. 80 bytes, where a vector of (id, value) pairs took 24 bytes and a
/// 208-byte heap block.
class MetricValues
{
public:
    using value_type = std::pair<std::string_view, double>;
    static constexpr std::size_t kInline = 7;

    MetricValues() = default;
    MetricValues(std::initializer_list<value_type> values);
    MetricValues(const MetricValues& other);
    MetricValues(MetricValues&& other) noexcept; ///< leaves `other` empty
    MetricValues& operator=(const MetricValues& other);
    MetricValues& operator=(MetricValues&& other) noexcept;
    ~MetricValues() = default;

    void emplace_back(std::string_view id, double value) { emplace_back(metricKey(id), value); }
    void emplace_back(MetricKey key, double value);
    void clear();

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    MetricKey key(std::size_t i) const { return i < kInline ? m_keys[i] : (*m_more)[i - kInline].first; }
    double value(std::size_t i) const { return i < kInline ? m_values[i] : (*m_more)[i - kInline].second; }
    std::string_view id(std::size_t i) const { return metricIdOf(key(i)); }
    value_type operator[](std::size_t i) const { return { id(i), value(i) }; }

    /// The first value listed for the id, if any (compares texts: looking an id up never interns it).
    std::optional<double> find(std::string_view id) const;

    class const_iterator
    {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = MetricValues::value_type;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = value_type;

        const_iterator() = default;
        const_iterator(const MetricValues* values, std::size_t index)
            : m_values(values)
            , m_index(index)
        { }
        value_type operator*() const { return (*m_values)[m_index]; }
        const_iterator& operator++()
        {
            ++m_index;
            return *this;
        }
        const_iterator operator++(int)
        {
            const_iterator before = *this;
            ++m_index;
            return before;
        }
        bool operator==(const const_iterator& other) const { return m_index == other.m_index; }

    private:
        const MetricValues* m_values = nullptr;
        std::size_t m_index = 0;
    };
    const_iterator begin() const { return { this, 0 }; }
    const_iterator end() const { return { this, m_size }; }

    /// Same keys and values in the same order (a NaN value equals nothing, as a double does).
    bool operator==(const MetricValues& other) const;

private:
    std::array<double, kInline> m_values {};
    std::array<MetricKey, kInline> m_keys {};
    std::uint16_t m_size = 0;
    using More = std::vector<std::pair<MetricKey, double>>;
    std::unique_ptr<More> m_more; ///< values past the first kInline, when there are any
};

} // namespace structscope
