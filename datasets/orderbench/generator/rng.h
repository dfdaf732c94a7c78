// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace structscope::orderbench {

/// splitmix64 (Steele, Lea, Flood 2014): every draw is fixed by the seed on every platform and
/// standard library, which std:: distributions do not promise.
class Rng
{
public:
    explicit Rng(std::uint64_t seed)
        : m_state(seed)
    { }

    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    /// An index in [0, n); 0 when n is 0. The modulo bias is negligible for menu-sized n and,
    /// more to the point, deterministic.
    std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }

    /// True with the given probability in percent.
    bool chance(int percent) { return static_cast<int>(below(100)) < percent; }

    template <typename T> const T& pick(const std::vector<T>& values) { return values[below(values.size())]; }

private:
    std::uint64_t m_state;
};

} // namespace structscope::orderbench
