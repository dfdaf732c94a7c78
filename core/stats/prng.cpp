// SPDX-License-Identifier: Apache-2.0
#include "stats/prng.h"

#include <bit>

namespace structscope {

std::uint64_t splitMix64(std::uint64_t& state)
{
    state += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

Xoshiro256::Xoshiro256(std::uint64_t seed)
{
    std::uint64_t state = seed;
    for (std::uint64_t& word : m_s)
        word = splitMix64(state);
    // splitmix64 is a bijection of a counter, so four successive outputs are never all zero.
}

std::uint64_t Xoshiro256::boundedWide(std::uint64_t bound)
{
    // Smallest all-ones mask covering bound − 1; each draw is accepted with probability > 1/2.
    const std::uint64_t mask = ~std::uint64_t(0) >> std::countl_zero(bound - 1);
    std::uint64_t x = next() & mask;
    while (x >= bound)
        x = next() & mask;
    return x;
}

} // namespace structscope
