// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstdint>

namespace structscope {

/// One step of splitmix64 (Steele, Lea, Flood 2014): advances state and returns the next output.
std::uint64_t splitMix64(std::uint64_t& state);

/// xoshiro256** (Blackman, Vigna 2018) seeded through splitmix64. Every bit of the stream, and of
/// bounded(), is fixed by the seed alone, on every platform and standard library — unlike
/// std::uniform_int_distribution, whose algorithm each library chooses.
class Xoshiro256
{
public:
    /// The four state words are four successive splitmix64 outputs starting from seed.
    explicit Xoshiro256(std::uint64_t seed);

    /// The next 64 random bits.
    std::uint64_t next()
    {
        const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
        const std::uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }

    /// A uniform integer in [0, bound), without modulo bias; bound 0 gives 0.
    /// Bounds below 2^32 use Lemire's multiply-and-reject on the upper 32 bits of next();
    /// larger ones reject masked 64-bit draws.
    std::uint64_t bounded(std::uint64_t bound)
    {
        if (bound <= 0xFFFFFFFFu)
            return bounded32(static_cast<std::uint32_t>(bound));
        return boundedWide(bound);
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

    std::uint64_t bounded32(std::uint32_t range)
    {
        if (range == 0)
            return 0;
        std::uint64_t product = (next() >> 32) * range;
        auto low = static_cast<std::uint32_t>(product);
        if (low < range) {
            // 2^32 mod range: the draws below it would make the low values over-represented.
            const std::uint32_t threshold = (0u - range) % range;
            while (low < threshold) {
                product = (next() >> 32) * range;
                low = static_cast<std::uint32_t>(product);
            }
        }
        return product >> 32;
    }

    std::uint64_t boundedWide(std::uint64_t bound);

    std::array<std::uint64_t, 4> m_s {};
};

/// A uniform double in [0, 1) from the top 53 bits of one draw (the simulator's dice, the binomial sampler).
inline double uniform01(Xoshiro256& rng)
{
    return static_cast<double>(rng.next() >> 11) * 0x1.0p-53;
}

} // namespace structscope
