// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMetaType>
#include <QtGlobal>

#include <limits>

namespace structscope {

/// Φ⁻¹(0.975): the normal quantile of a two-sided 95% interval.
inline constexpr double kZ95 = 1.959963984540054;

/// A closed interval [low, high]; NaN bounds mean "not defined" (no data, invalid input).
struct Interval
{
    double low = std::numeric_limits<double>::quiet_NaN();
    double high = std::numeric_limits<double>::quiet_NaN();

    /// True when both bounds are numbers and low <= high.
    bool isValid() const;
    /// True when x lies in [low, high] (false for an invalid interval or a NaN x).
    bool contains(double x) const;
    /// high − low (NaN for an invalid interval).
    double width() const { return high - low; }
};

/// Wilson score interval for the rate successes/trials, clamped to [0, 1].
/// trials == 0 gives [0, 1] (the formula's own value there: no data rules nothing out);
/// negative counts, successes > trials, or a z that is not a positive number give NaN bounds.
Interval wilsonInterval(qint64 successes, qint64 trials, double z = kZ95);

/// A rate with its Wilson interval.
struct RateEstimate
{
    qint64 successes = 0;
    qint64 trials = 0;
    double rate = std::numeric_limits<double>::quiet_NaN(); ///< successes / trials; NaN when trials == 0
    Interval ci;
};

/// successes/trials with its Wilson interval (see wilsonInterval for the edge cases).
RateEstimate estimateRate(qint64 successes, qint64 trials, double z = kZ95);

} // namespace structscope

Q_DECLARE_METATYPE(structscope::Interval)
Q_DECLARE_METATYPE(structscope::RateEstimate)
