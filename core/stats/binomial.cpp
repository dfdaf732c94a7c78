// SPDX-License-Identifier: Apache-2.0
#include "stats/binomial.h"

#include "stats/mcnemar.h" // logFactorial

#include <cmath>

namespace structscope {

namespace {

/// Inversion: walk the probability function from 0, subtracting each term from one uniform draw. The expected
/// number of steps is n·p + 1, which the caller keeps below about 10. Requires p ≤ 0.5.
std::uint64_t binomialByInversion(Xoshiro256& rng, std::uint64_t n, double p)
{
    const double q = 1.0 - p;
    const double ratio = p / q;
    const double first = std::pow(q, double(n)); // P(X = 0)
    for (;;) {
        double u = uniform01(rng);
        double term = first;
        std::uint64_t x = 0;
        while (u > term) {
            u -= term;
            ++x;
            if (x > n)
                break; // rounding left u above the total mass: draw again
            // P(X = x) / P(X = x − 1) = (n − x + 1)/x · p/q
            term *= double(n - x + 1) / double(x) * ratio;
        }
        if (x <= n)
            return x;
    }
}

/// BTRS (W. Hörmann, "The generation of binomial random variates", J. Stat. Comput. Simul. 46, 1993): a
/// transformed-rejection hat around the mode, with a cheap squeeze that accepts most draws without a logarithm.
/// Requires p ≤ 0.5 and n·p ≥ 10.
std::uint64_t binomialByRejection(Xoshiro256& rng, std::uint64_t n, double p)
{
    const double q = 1.0 - p;
    const auto nd = double(n);
    const double spq = std::sqrt(nd * p * q);
    const double b = 1.15 + 2.53 * spq;
    const double a = -0.0873 + 0.0248 * b + 0.01 * p;
    const double c = nd * p + 0.5;
    const double alpha = (2.83 + 5.1 / b) * spq;
    const double vr = 0.92 - 4.2 / b;
    const double lpq = std::log(p / q);
    const double m = std::floor((nd + 1.0) * p); // the mode
    const double h = logFactorial(qint64(m)) + logFactorial(qint64(nd - m));
    for (;;) {
        const double u = uniform01(rng) - 0.5;
        double v = uniform01(rng);
        const double us = 0.5 - std::abs(u);
        const double k = std::floor((2.0 * a / us + b) * u + c);
        if (k < 0.0 || k > nd)
            continue;
        if (us >= 0.07 && v <= vr)
            return std::uint64_t(k);
        if (us <= 0.0)
            continue;
        v = std::log(v * alpha / (a / (us * us) + b));
        if (v <= h - logFactorial(qint64(k)) - logFactorial(qint64(nd - k)) + (k - m) * lpq)
            return std::uint64_t(k);
    }
}

} // namespace

std::uint64_t drawBinomial(Xoshiro256& rng, std::uint64_t n, double p)
{
    if (n == 0 || !(p > 0.0))
        return 0;
    if (p >= 1.0)
        return n;
    if (p > 0.5)
        return n - drawBinomial(rng, n, 1.0 - p);
    if (double(n) * p < 10.0)
        return binomialByInversion(rng, n, p);
    return binomialByRejection(rng, n, p);
}

void drawMultinomial(
    Xoshiro256& rng, std::uint64_t n, std::span<const std::uint64_t> frequencies, std::span<std::uint64_t> counts)
{
    std::uint64_t massLeft = 0;
    for (const std::uint64_t f : frequencies)
        massLeft += f;
    std::uint64_t drawsLeft = n;
    for (std::size_t i = 0; i < frequencies.size(); ++i) {
        if (drawsLeft == 0 || massLeft == 0) {
            counts[i] = 0;
            continue;
        }
        // Given the draws that went to the categories before, the rest fall into category i with probability
        // f_i / (the mass still left).
        const std::uint64_t c = frequencies[i] >= massLeft
            ? drawsLeft
            : drawBinomial(rng, drawsLeft, double(frequencies[i]) / double(massLeft));
        counts[i] = c;
        drawsLeft -= c;
        massLeft -= frequencies[i];
    }
}

} // namespace structscope
