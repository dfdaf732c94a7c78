// SPDX-License-Identifier: Apache-2.0
#include "stats/intervals.h"

#include <algorithm>
#include <cmath>

namespace structscope {

bool Interval::isValid() const
{
    return !std::isnan(low) && !std::isnan(high) && low <= high;
}

bool Interval::contains(double x) const
{
    return isValid() && x >= low && x <= high;
}

Interval wilsonInterval(qint64 successes, qint64 trials, double z)
{
    if (trials < 0 || successes < 0 || successes > trials || !std::isfinite(z) || z <= 0.0)
        return {};
    if (trials == 0)
        return { 0.0, 1.0 };

    // The form multiplied through by n avoids dividing k by n before squaring, which keeps
    // k = 0 and k = n exact up to the final clamp.
    const auto k = static_cast<double>(successes);
    const auto n = static_cast<double>(trials);
    const double z2 = z * z;
    const double denom = n + z2;
    const double centre = (k + z2 / 2.0) / denom;
    const double half = z / denom * std::sqrt(k * (n - k) / n + z2 / 4.0);

    Interval ci { std::max(0.0, centre - half), std::min(1.0, centre + half) };
    // Mathematically exact bounds; rounding would otherwise leave 1e-17-sized residues.
    if (successes == 0)
        ci.low = 0.0;
    if (successes == trials)
        ci.high = 1.0;
    return ci;
}

RateEstimate estimateRate(qint64 successes, qint64 trials, double z)
{
    RateEstimate r;
    r.successes = successes;
    r.trials = trials;
    if (trials > 0 && successes >= 0 && successes <= trials)
        r.rate = static_cast<double>(successes) / static_cast<double>(trials);
    r.ci = wilsonInterval(successes, trials, z);
    return r;
}

} // namespace structscope
