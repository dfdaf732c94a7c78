// SPDX-License-Identifier: Apache-2.0
#include "stats/percentile.h"

#include <algorithm>
#include <cmath>

namespace structscope {

namespace {

/// Where quantile q of n values lies: between the order statistics `below` and below + 1.
struct QuantilePlace
{
    std::size_t below = 0;
    double fraction = 0;
    bool last = false; ///< at or beyond the largest value
};

QuantilePlace quantilePlace(std::size_t n, double q)
{
    const double h = static_cast<double>(n - 1) * q;
    const auto below = static_cast<std::size_t>(std::floor(h));
    if (below + 1 >= n)
        return { n - 1, 0.0, true };
    return { below, h - static_cast<double>(below), false };
}

double interpolate(double a, double b, double fraction)
{
    // a == b must give a exactly, also for infinities where b − a is NaN.
    if (fraction == 0.0 || a == b)
        return a;
    // Two statements, so that no compiler fuses them into an FMA: results stay bit-identical everywhere.
    const double step = fraction * (b - a);
    return a + step;
}

/// quantileOfSorted() of the values in sorted order, by selection instead of a full sort: `values` is reordered, and
/// [from, end) holds every value not below the previous quantile's (quantiles asked in ascending order).
double quantileBySelection(std::vector<double>& values, std::size_t& from, double q)
{
    const QuantilePlace place = quantilePlace(values.size(), q);
    const auto at = values.begin() + std::ptrdiff_t(place.below);
    std::nth_element(values.begin() + std::ptrdiff_t(from), at, values.end());
    from = place.below;
    if (place.last)
        return *at;
    return interpolate(*at, *std::min_element(at + 1, values.end()), place.fraction);
}

} // namespace

double quantileOfSorted(std::span<const double> sorted, double q)
{
    if (sorted.empty() || !(q >= 0.0 && q <= 1.0))
        return std::numeric_limits<double>::quiet_NaN();
    const QuantilePlace place = quantilePlace(sorted.size(), q);
    if (place.last)
        return sorted.back();
    return interpolate(sorted[place.below], sorted[place.below + 1], place.fraction);
}

double quantile(std::vector<double> values, double q)
{
    // NaN breaks std::sort's strict weak ordering, which is undefined behaviour.
    std::erase_if(values, [](double v) { return std::isnan(v); });
    std::sort(values.begin(), values.end());
    return quantileOfSorted(values, q);
}

LatencyPercentiles latencyPercentiles(std::vector<double> latencies)
{
    std::erase_if(latencies, [](double v) { return std::isnan(v); });
    LatencyPercentiles result;
    result.count = static_cast<qint64>(latencies.size());
    if (latencies.empty()) {
        result.p50 = result.p95 = result.p99 = std::numeric_limits<double>::quiet_NaN();
        return result;
    }
    // Three order statistics (and their neighbours) of up to a million values: selected, not sorted.
    std::size_t from = 0;
    result.p50 = quantileBySelection(latencies, from, 0.50);
    result.p95 = quantileBySelection(latencies, from, 0.95);
    result.p99 = quantileBySelection(latencies, from, 0.99);
    return result;
}

double costPerSuccess(double totalCost, qint64 successes)
{
    if (std::isnan(totalCost) || totalCost < 0.0 || successes < 0)
        return std::numeric_limits<double>::quiet_NaN();
    if (successes == 0)
        return totalCost > 0.0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
    return totalCost / static_cast<double>(successes);
}

} // namespace structscope
