#include "stats/percentile.h"

#include <algorithm>
#include <cmath>

namespace structscope {

double quantileOfSorted(std::span<const double> sorted, double q)
{
    if (sorted.empty() || !(q >= 0.0 && q <= 1.0))
        return std::numeric_limits<double>::quiet_NaN();
    const double h = static_cast<double>(sorted.size() - 1) * q;
    const auto below = static_cast<std::size_t>(std::floor(h));
    if (below + 1 >= sorted.size())
        return sorted.back();
    const double fraction = h - static_cast<double>(below);
    const double a = sorted[below];
    const double b = sorted[below + 1];
    // a == b must give a exactly, also for infinities where b − a is NaN.
    if (fraction == 0.0 || a == b)
        return a;
    // Two statements, so that no compiler fuses them into an FMA: results stay bit-identical everywhere.
    const double step = fraction * (b - a);
    return a + step;
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
    std::sort(latencies.begin(), latencies.end());
    LatencyPercentiles result;
    result.count = static_cast<qint64>(latencies.size());
    result.p50 = quantileOfSorted(latencies, 0.50);
    result.p95 = quantileOfSorted(latencies, 0.95);
    result.p99 = quantileOfSorted(latencies, 0.99);
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
