// SPDX-License-Identifier: Apache-2.0
#include "stats/mcnemar.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

namespace structscope {

namespace {

constexpr int kExactTableSize = 256;

// ln(k!) for small k by summing logarithms, where Stirling's series is least accurate.
const std::array<double, kExactTableSize>& smallLogFactorials()
{
    static const std::array<double, kExactTableSize> table = [] {
        std::array<double, kExactTableSize> t {};
        for (int k = 1; k < kExactTableSize; ++k)
            t[k] = t[k - 1] + std::log(static_cast<double>(k));
        return t;
    }();
    return table;
}

} // namespace

double logFactorial(qint64 n)
{
    if (n < 0)
        return std::numeric_limits<double>::quiet_NaN();
    if (n < kExactTableSize)
        return smallLogFactorials()[static_cast<std::size_t>(n)];
    // Stirling's series; for n ≥ 256 the first omitted term (1/(1188 n⁹)) is below 1e-24.
    const auto x = static_cast<double>(n);
    const double inv = 1.0 / x;
    const double inv2 = inv * inv;
    const double series = inv * (1.0 / 12.0 - inv2 * (1.0 / 360.0 - inv2 * (1.0 / 1260.0 - inv2 / 1680.0)));
    return x * std::log(x) - x + 0.5 * std::log(2.0 * std::numbers::pi * x) + series;
}

double mcnemarExactP(qint64 b, qint64 c)
{
    if (b < 0 || c < 0)
        return std::numeric_limits<double>::quiet_NaN();
    const qint64 n = b + c;
    const qint64 m = std::min(b, c);
    if (n == 0)
        return 1.0;
    // Σ_{i≤m} pmf(i) = pmf(m)·(1 + r_m + r_m·r_{m−1} + …), r_i = pmf(i−1)/pmf(i) = i/(n−i+1) < 1 for
    // m ≤ n/2. Only pmf(m) goes through logarithms; the bracket stays in [1, m+1], so nothing
    // underflows however small pmf(m) is.
    double bracket = 1.0;
    double term = 1.0;
    for (qint64 i = m; i >= 1; --i) {
        term *= static_cast<double>(i) / static_cast<double>(n - i + 1);
        bracket += term;
        if (term < bracket * 1e-17)
            break;
    }
    const double logPmf
        = logFactorial(n) - logFactorial(m) - logFactorial(n - m) - static_cast<double>(n) * std::numbers::ln2;
    const double p = std::exp(std::numbers::ln2 + logPmf + std::log(bracket));
    return std::min(1.0, p);
}

} // namespace structscope
