// SPDX-License-Identifier: Apache-2.0
#include "stats/bootstrap.h"
#include "stats/binomial.h"

#include "stats/means.h"
#include "stats/percentile.h"
#include "stats/prng.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

QString checkOptions(const BootstrapOptions& options)
{
    if (options.resamples < 1)
        return u"bootstrap: resamples must be at least 1 (got %1)"_s.arg(options.resamples);
    if (!(options.confidence > 0.0 && options.confidence < 1.0))
        return u"bootstrap: confidence must lie strictly between 0 and 1 (got %1)"_s.arg(options.confidence);
    return {};
}

Interval percentileInterval(std::vector<double>& means, double confidence)
{
    if (means.empty())
        return {};
    std::sort(means.begin(), means.end());
    const double tail = (1.0 - confidence) / 2.0;
    return { quantileOfSorted(means, tail), quantileOfSorted(means, 1.0 - tail) };
}

// Draws indices ahead of the loads: with the generator out of the loop that reads the values, the
// processor overlaps many cache misses at once (the values of 10^6 records do not fit in cache).
// The draw order, and therefore every result, is the same as drawing one index per record.
struct IndexBatch
{
    static constexpr std::size_t kCapacity = 256;
    std::array<std::size_t, kCapacity> indices {};

    std::size_t fill(Xoshiro256& rng, std::size_t bound, std::size_t remaining)
    {
        const std::size_t size = std::min(kCapacity, remaining);
        for (std::size_t j = 0; j < size; ++j)
            indices[j] = rng.bounded(bound);
        return size;
    }
};

struct WeightedRecord
{
    double weightedValue = 0.0;
    double weight = 0.0;
    friend bool operator<(const WeightedRecord& a, const WeightedRecord& b)
    {
        return a.weightedValue < b.weightedValue || (a.weightedValue == b.weightedValue && a.weight < b.weight);
    }
};

MeanEstimate failed(qint64 n, QString error)
{
    MeanEstimate e;
    e.n = n;
    e.error = std::move(error);
    return e;
}

} // namespace

MeanEstimate bootstrapMean(std::span<const double> values, const BootstrapOptions& options)
{
    const auto n = static_cast<qint64>(values.size());
    if (QString error = checkOptions(options); !error.isEmpty())
        return failed(n, error);
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!std::isfinite(values[i]))
            return failed(n, u"bootstrap: value at index %1 is not a finite number"_s.arg(i));
    }
    MeanEstimate result;
    result.n = n;
    if (values.empty())
        return result;

    result.mean = meanOf(values);
    Xoshiro256 rng(options.seed);
    std::vector<double> means(static_cast<std::size_t>(options.resamples));
    const auto count = static_cast<double>(values.size());
    if (bootstrapMayUseCounts(options, values.size())) {
        const DistinctItems<double> distinct = distinctItems(std::vector<double>(values.begin(), values.end()));
        if (bootstrapUsesCounts(options, values.size(), distinct.items.size())) {
            std::vector<std::uint64_t> counts(distinct.items.size());
            for (double& m : means) {
                drawMultinomial(rng, values.size(), distinct.frequencies, counts);
                double sum = 0.0;
                for (std::size_t i = 0; i < counts.size(); ++i)
                    sum += double(counts[i]) * distinct.items[i];
                m = sum / count;
            }
            result.resamplesUsed = options.resamples;
            result.ci = percentileInterval(means, options.confidence);
            return result;
        }
    }
    IndexBatch batch;
    for (double& m : means) {
        double sum = 0.0;
        for (std::size_t done = 0; done < values.size();) {
            const std::size_t size = batch.fill(rng, values.size(), values.size() - done);
            for (std::size_t j = 0; j < size; ++j)
                sum += values[batch.indices[j]];
            done += size;
        }
        m = sum / count;
    }
    result.resamplesUsed = options.resamples;
    result.ci = percentileInterval(means, options.confidence);
    return result;
}

std::vector<MeanEstimate> bootstrapMeans(
    std::span<const std::span<const double>> columns, const BootstrapOptions& options)
{
    std::vector<MeanEstimate> results(columns.size());
    // Columns resampled index by index, by size: each size's columns share the draws.
    std::vector<std::vector<std::size_t>> bySize;
    std::vector<std::size_t> sizes;
    const bool valid = checkOptions(options).isEmpty();
    for (std::size_t c = 0; c < columns.size(); ++c) {
        const std::span<const double> values = columns[c];
        const bool indexed = valid && !values.empty()
            && std::ranges::all_of(values, [](double v) { return std::isfinite(v); })
            && (!bootstrapMayUseCounts(options, values.size())
                || !bootstrapUsesCounts(options, values.size(),
                    distinctItems(std::vector<double>(values.begin(), values.end())).items.size()));
        if (!indexed) {
            results[c] = bootstrapMean(values, options);
            continue;
        }
        const auto known = std::ranges::find(sizes, values.size());
        if (known == sizes.end()) {
            sizes.push_back(values.size());
            bySize.push_back({ c });
        } else {
            bySize[std::size_t(known - sizes.begin())].push_back(c);
        }
    }
    for (std::size_t s = 0; s < sizes.size(); ++s) {
        const std::vector<std::size_t>& members = bySize[s];
        const std::size_t n = sizes[s];
        const auto count = static_cast<double>(n);
        std::vector<std::vector<double>> means(members.size(), std::vector<double>(std::size_t(options.resamples)));
        std::vector<double> sums(members.size());
        Xoshiro256 rng(options.seed);
        IndexBatch batch;
        for (std::size_t b = 0; b < std::size_t(options.resamples); ++b) {
            std::fill(sums.begin(), sums.end(), 0.0);
            for (std::size_t done = 0; done < n;) {
                const std::size_t size = batch.fill(rng, n, n - done);
                // Column by column over the batch: each sum adds the same values in the same order as alone.
                for (std::size_t m = 0; m < members.size(); ++m) {
                    const double* values = columns[members[m]].data();
                    double sum = sums[m];
                    for (std::size_t j = 0; j < size; ++j)
                        sum += values[batch.indices[j]];
                    sums[m] = sum;
                }
                done += size;
            }
            for (std::size_t m = 0; m < members.size(); ++m)
                means[m][b] = sums[m] / count;
        }
        for (std::size_t m = 0; m < members.size(); ++m) {
            MeanEstimate& result = results[members[m]];
            result.n = static_cast<qint64>(n);
            result.mean = meanOf(columns[members[m]]);
            result.resamplesUsed = options.resamples;
            result.ci = percentileInterval(means[m], options.confidence);
        }
    }
    return results;
}

MeanEstimate bootstrapWeightedMean(
    std::span<const double> values, std::span<const double> weights, const BootstrapOptions& options)
{
    const auto n = static_cast<qint64>(values.size());
    if (QString error = checkOptions(options); !error.isEmpty())
        return failed(n, error);
    if (values.size() != weights.size())
        return failed(n, u"weighted bootstrap: %1 values but %2 weights"_s.arg(values.size()).arg(weights.size()));
    // w·x is computed once, so that a resample adds one product per record and never a NaN·0; it
    // sits next to w so that each random draw touches one cache line, not two.
    std::vector<WeightedRecord> records(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!std::isfinite(weights[i]) || weights[i] < 0.0)
            return failed(n, u"weighted bootstrap: weight at index %1 is not a finite number ≥ 0"_s.arg(i));
        if (weights[i] == 0.0)
            continue;
        if (!std::isfinite(values[i]))
            return failed(n, u"weighted bootstrap: value at index %1 is not a finite number"_s.arg(i));
        records[i] = { weights[i] * values[i], weights[i] };
    }
    MeanEstimate result;
    result.n = n;
    if (values.empty())
        return result;

    result.mean = weightedMeanOf(values, weights);
    Xoshiro256 rng(options.seed);
    std::vector<double> means;
    means.reserve(static_cast<std::size_t>(options.resamples));
    if (bootstrapMayUseCounts(options, values.size())) {
        const DistinctItems<WeightedRecord> distinct = distinctItems(records);
        if (bootstrapUsesCounts(options, values.size(), distinct.items.size())) {
            std::vector<std::uint64_t> counts(distinct.items.size());
            for (int r = 0; r < options.resamples; ++r) {
                drawMultinomial(rng, values.size(), distinct.frequencies, counts);
                double sumWx = 0.0;
                double sumW = 0.0;
                for (std::size_t i = 0; i < counts.size(); ++i) {
                    sumWx += double(counts[i]) * distinct.items[i].weightedValue;
                    sumW += double(counts[i]) * distinct.items[i].weight;
                }
                if (sumW > 0.0)
                    means.push_back(sumWx / sumW);
            }
            result.resamplesUsed = static_cast<int>(means.size());
            result.ci = percentileInterval(means, options.confidence);
            return result;
        }
    }
    IndexBatch batch;
    for (int r = 0; r < options.resamples; ++r) {
        double sumWx = 0.0;
        double sumW = 0.0;
        for (std::size_t done = 0; done < values.size();) {
            const std::size_t size = batch.fill(rng, values.size(), values.size() - done);
            for (std::size_t j = 0; j < size; ++j) {
                const WeightedRecord& record = records[batch.indices[j]];
                sumWx += record.weightedValue;
                sumW += record.weight;
            }
            done += size;
        }
        if (sumW > 0.0)
            means.push_back(sumWx / sumW);
    }
    result.resamplesUsed = static_cast<int>(means.size());
    result.ci = percentileInterval(means, options.confidence);
    return result;
}

} // namespace structscope
