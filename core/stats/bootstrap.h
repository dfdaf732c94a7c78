#pragma once

#include "stats/intervals.h"

#include <QMetaType>
#include <QString>

#include <cstdint>
#include <limits>
#include <span>

namespace structscope {

/// The seed used when a caller does not choose one.
inline constexpr std::uint64_t kDefaultBootstrapSeed = 20240229;

/// Settings of a percentile bootstrap.
struct BootstrapOptions
{
    int resamples = 1000; ///< B, at least 1
    std::uint64_t seed = kDefaultBootstrapSeed; ///< same seed, same interval, on every platform
    double confidence = 0.95; ///< in (0, 1)
};

/// A mean with its bootstrap percentile interval.
struct MeanEstimate
{
    double mean = std::numeric_limits<double>::quiet_NaN(); ///< on all records (weighted where asked)
    Interval ci;
    qint64 n = 0; ///< records
    int resamplesUsed = 0; ///< resamples that entered the percentiles (weighted: total weight > 0)
    QString error; ///< empty when the input was valid; otherwise mean and ci are NaN

    bool ok() const { return error.isEmpty(); }
};

/// Percentile bootstrap of the mean: B resamples of n records drawn with replacement (indices from
/// Xoshiro256(seed).bounded(n), resample by resample, record by record), the B means sorted, and
/// the (1−c)/2 and (1+c)/2 quantiles taken by linear interpolation (quantileOfSorted()).
/// No values: NaN mean and interval, no error. A value that is not finite is an error. O(B·n).
MeanEstimate bootstrapMean(std::span<const double> values, const BootstrapOptions& options = {});

/// As bootstrapMean(), for the weighted mean Σwx/Σw (SOB's complexity-weighted means): records are
/// resampled with their weights. A resample whose total weight is 0 has no mean and is skipped, so
/// the percentiles come from resamplesUsed ≤ B means (NaN interval when none is left). Weights must
/// be finite and ≥ 0; records of weight 0 may hold any value (it is never used).
MeanEstimate bootstrapWeightedMean(
    std::span<const double> values, std::span<const double> weights, const BootstrapOptions& options = {});

} // namespace structscope

Q_DECLARE_METATYPE(structscope::BootstrapOptions)
Q_DECLARE_METATYPE(structscope::MeanEstimate)
