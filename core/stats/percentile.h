// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMetaType>

#include <limits>
#include <span>
#include <vector>

namespace structscope {

/// The q-quantile (q in [0, 1]) of an ascending, NaN-free sequence by linear interpolation,
/// numpy's default 'linear' method: h = (n − 1)·q, result = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
/// Empty input, or q outside [0, 1] or NaN, gives NaN.
double quantileOfSorted(std::span<const double> sorted, double q);

/// quantileOfSorted() on unsorted values; NaN values are dropped first (a missing measurement).
double quantile(std::vector<double> values, double q);

/// Latency percentiles in the unit of the input (StructScope uses milliseconds).
struct LatencyPercentiles
{
    qint64 count = 0; ///< values used (NaN dropped)
    double p50 = std::numeric_limits<double>::quiet_NaN();
    double p95 = std::numeric_limits<double>::quiet_NaN();
    double p99 = std::numeric_limits<double>::quiet_NaN();
};

/// p50/p95/p99 by quantile() (linear interpolation); all NaN when no value is left.
LatencyPercentiles latencyPercentiles(std::vector<double> latencies);

/// Total cost / successes. No success: +infinity when money was spent (it bought nothing, and
/// sorts last), NaN when totalCost is 0 too (0/0: a free model, or no cost recorded). A negative
/// or NaN cost, or negative successes, give NaN.
double costPerSuccess(double totalCost, qint64 successes);

} // namespace structscope

Q_DECLARE_METATYPE(structscope::LatencyPercentiles)
