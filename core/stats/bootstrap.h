// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "stats/intervals.h"

#include <QMetaType>
#include <QString>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace structscope {

/// The seed used when a caller does not choose one.
inline constexpr std::uint64_t kDefaultBootstrapSeed = 20240229;

/// How a bootstrap draws its resamples; both draw from the same distribution (n records with replacement).
enum class BootstrapMethod {
    /// Counts when there are at least kBootstrapCountsMinRecords records and at most 1/32 as many distinct
    /// ones (rates, scores on a few fields, counts), else Indexed.
    Automatic,
    /// n record indices per resample, Xoshiro256(seed).bounded(n), resample by resample: O(B·n).
    Indexed,
    /// The multiplicities of the k distinct records in a resample, drawn at once as Multinomial(n; f_1/n … f_k/n)
    /// (drawMultinomial()): the same resampling distribution in O(B·k) — what makes a million records cheap.
    Counts,
};

/// Records from which Automatic considers the counts method.
inline constexpr std::size_t kBootstrapCountsMinRecords = 4096;

/// Settings of a percentile bootstrap.
struct BootstrapOptions
{
    int resamples = 1000; ///< B, at least 1
    std::uint64_t seed = kDefaultBootstrapSeed; ///< same seed, same interval, on every platform
    double confidence = 0.95; ///< in (0, 1)
    BootstrapMethod method = BootstrapMethod::Automatic;
};

/// Whether the counts method may apply to n records, so that finding the distinct ones is worth it: always with
/// Counts, from kBootstrapCountsMinRecords records with Automatic.
inline bool bootstrapMayUseCounts(const BootstrapOptions& options, std::size_t n)
{
    return options.method == BootstrapMethod::Counts
        || (options.method == BootstrapMethod::Automatic && n >= kBootstrapCountsMinRecords);
}

/// Whether Automatic uses the counts method for n records of which `distinct` differ.
inline bool bootstrapUsesCounts(const BootstrapOptions& options, std::size_t n, std::size_t distinct)
{
    if (options.method != BootstrapMethod::Automatic)
        return options.method == BootstrapMethod::Counts;
    return n >= kBootstrapCountsMinRecords && distinct * 32 <= n;
}

/// The distinct items of a sample, in `<` order (items neither less than the other are one), each with how often it
/// occurs: the categories the counts method resamples.
template <typename T> struct DistinctItems
{
    std::vector<T> items; ///< one of each run of equal items
    std::vector<std::uint64_t> frequencies;
};

template <typename T> DistinctItems<T> distinctItems(std::vector<T> sample)
{
    std::sort(sample.begin(), sample.end());
    DistinctItems<T> d;
    for (std::size_t i = 0; i < sample.size();) {
        std::size_t j = i + 1;
        while (j < sample.size() && !(sample[i] < sample[j]))
            ++j;
        d.items.push_back(sample[i]);
        d.frequencies.push_back(std::uint64_t(j - i));
        i = j;
    }
    return d;
}

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

/// Percentile bootstrap of the mean: B resamples of n records drawn with replacement (Indexed: indices from
/// Xoshiro256(seed).bounded(n), resample by resample, record by record; Counts: see BootstrapMethod), the B
/// means sorted, and the (1−c)/2 and (1+c)/2 quantiles taken by linear interpolation (quantileOfSorted()).
/// No values: NaN mean and interval, no error. A value that is not finite is an error. O(B·n) or O(B·k).
MeanEstimate bootstrapMean(std::span<const double> values, const BootstrapOptions& options = {});

/// bootstrapMean() of each column, exactly as one call per column gives it. Columns of one size that resample
/// record by record (not by counts) draw the same indices from the same seed: they share one stream of draws,
/// which is most of the work for a few hundred records.
std::vector<MeanEstimate> bootstrapMeans(
    std::span<const std::span<const double>> columns, const BootstrapOptions& options = {});

/// As bootstrapMean(), for the weighted mean Σwx/Σw (SOB's complexity-weighted means): records are
/// resampled with their weights. A resample whose total weight is 0 has no mean and is skipped, so
/// the percentiles come from resamplesUsed ≤ B means (NaN interval when none is left). Weights must
/// be finite and ≥ 0; records of weight 0 may hold any value (it is never used).
MeanEstimate bootstrapWeightedMean(
    std::span<const double> values, std::span<const double> weights, const BootstrapOptions& options = {});

} // namespace structscope

Q_DECLARE_METATYPE(structscope::BootstrapOptions)
Q_DECLARE_METATYPE(structscope::MeanEstimate)
