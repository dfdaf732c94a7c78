// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "stats/prng.h"

#include <cstdint>
#include <span>

namespace structscope {

/// One Binomial(n, p) variate drawn from `rng`: by inversion of the distribution function when
/// n·min(p, 1 − p) < 10, else by Hörmann's transformed rejection with squeeze (BTRS, 1993), whose expected
/// cost does not grow with n. p outside [0, 1] is clamped; n = 0 gives 0.
std::uint64_t drawBinomial(Xoshiro256& rng, std::uint64_t n, double p);

/// One Multinomial(n; f_1/F … f_k/F) variate, F = Σ f_i, written to `counts` (same size as `frequencies`): the
/// multiplicities of k categories in n draws with replacement from a population where category i occurs f_i
/// times. Drawn as conditional binomials, so its cost is O(k), not O(n).
void drawMultinomial(
    Xoshiro256& rng, std::uint64_t n, std::span<const std::uint64_t> frequencies, std::span<std::uint64_t> counts);

} // namespace structscope
