// SPDX-License-Identifier: Apache-2.0
#include "scoring/metricvalues.h"

#include <deque>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

namespace structscope {

namespace {

constexpr std::size_t kMaxKeys = std::size_t(std::numeric_limits<MetricKey>::max()) + 1;

/// The interned ids. A slot is written once, before its key is handed out (under the mutex), and never again:
/// whoever holds a key reads its slot without a lock. The slots are allocated on first use (1 MiB, touched only
/// as far as ids are interned).
struct Interned
{
    std::mutex mutex;
    std::deque<std::string> texts; ///< a deque never moves its elements: the slots point into them
    std::unordered_map<std::string_view, MetricKey> keys;
    std::unique_ptr<std::string_view[]> slots = std::make_unique<std::string_view[]>(kMaxKeys);
};

Interned& interned()
{
    static Interned table;
    return table;
}

} // namespace

MetricKey metricKey(std::string_view id)
{
    // Each thread remembers the keys it has looked up (the interned storage as the map's keys), so scoring a
    // million records takes the lock once per id and thread.
    thread_local std::unordered_map<std::string_view, MetricKey> known;
    if (const auto it = known.find(id); it != known.end())
        return it->second;
    Interned& table = interned();
    std::lock_guard lock(table.mutex);
    auto it = table.keys.find(id);
    if (it == table.keys.end()) {
        if (table.texts.size() >= kMaxKeys)
            throw std::length_error("more than 65,536 distinct metric ids");
        const std::string& text = table.texts.emplace_back(id);
        const auto key = MetricKey(table.texts.size() - 1);
        table.slots[key] = text;
        it = table.keys.emplace(text, key).first;
    }
    known.emplace(it->first, it->second);
    return it->second;
}

std::string_view metricIdOf(MetricKey key)
{
    return interned().slots[key];
}

MetricValues::MetricValues(std::initializer_list<value_type> values)
{
    for (const auto& [id, value] : values)
        emplace_back(id, value);
}

MetricValues::MetricValues(const MetricValues& other)
    : m_values(other.m_values)
    , m_keys(other.m_keys)
    , m_size(other.m_size)
    , m_more(other.m_more ? std::make_unique<More>(*other.m_more) : nullptr)
{ }

MetricValues& MetricValues::operator=(const MetricValues& other)
{
    if (this != &other) {
        m_values = other.m_values;
        m_keys = other.m_keys;
        m_size = other.m_size;
        m_more = other.m_more ? std::make_unique<More>(*other.m_more) : nullptr;
    }
    return *this;
}

MetricValues::MetricValues(MetricValues&& other) noexcept
    : m_values(other.m_values)
    , m_keys(other.m_keys)
    , m_size(std::exchange(other.m_size, 0))
    , m_more(std::move(other.m_more))
{ }

MetricValues& MetricValues::operator=(MetricValues&& other) noexcept
{
    if (this != &other) {
        m_values = other.m_values;
        m_keys = other.m_keys;
        m_size = std::exchange(other.m_size, 0);
        m_more = std::move(other.m_more);
    }
    return *this;
}

void MetricValues::emplace_back(MetricKey key, double value)
{
    if (m_size == std::numeric_limits<decltype(m_size)>::max())
        throw std::length_error("more than 65,535 values in one verdict");
    if (m_size < kInline) {
        m_keys[m_size] = key;
        m_values[m_size] = value;
    } else {
        if (!m_more)
            m_more = std::make_unique<More>();
        m_more->emplace_back(key, value);
    }
    ++m_size;
}

void MetricValues::clear()
{
    m_size = 0;
    m_more.reset();
}

std::optional<double> MetricValues::find(std::string_view id) const
{
    for (std::size_t i = 0; i < m_size; ++i) {
        if (this->id(i) == id)
            return value(i);
    }
    return std::nullopt;
}

bool MetricValues::operator==(const MetricValues& other) const
{
    if (m_size != other.m_size)
        return false;
    for (std::size_t i = 0; i < m_size; ++i) {
        if (key(i) != other.key(i) || !(value(i) == other.value(i)))
            return false;
    }
    return true;
}

} // namespace structscope
