// SPDX-License-Identifier: Apache-2.0
#include "stats/means.h"

#include <cmath>
#include <limits>

namespace structscope {

double meanOf(std::span<const double> values)
{
    if (values.empty())
        return std::numeric_limits<double>::quiet_NaN();
    double sum = 0.0;
    for (double v : values)
        sum += v;
    return sum / static_cast<double>(values.size());
}

double weightedMeanOf(std::span<const double> values, std::span<const double> weights)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (values.size() != weights.size())
        return nan;
    double weighted = 0.0;
    double total = 0.0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!std::isfinite(weights[i]) || weights[i] < 0.0)
            return nan;
        // A zero weight excludes the record entirely, even a NaN value in it.
        if (weights[i] == 0.0)
            continue;
        weighted += weights[i] * values[i];
        total += weights[i];
    }
    return total > 0.0 ? weighted / total : nan;
}

double complexityWeight(QStringView tier)
{
    if (tier == u"easy")
        return 1.0;
    if (tier == u"medium")
        return 2.0;
    if (tier == u"hard")
        return 3.0;
    return 0.0;
}

} // namespace structscope
