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

// What bootstrapMean() does before resampling record by record: the checks, the mean, and the counts method where
// it applies. True when that finished `result`; false when the values are to be resampled record by record
// (resampleByIndex), with result.n and result.mean set.
bool startBootstrap(std::span<const double> values, const BootstrapOptions& options, MeanEstimate& result)
{
    const auto n = static_cast<qint64>(values.size());
    if (QString error = checkOptions(options); !error.isEmpty()) {
        result = failed(n, error);
        return true;
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!std::isfinite(values[i])) {
            result = failed(n, u"bootstrap: value at index %1 is not a finite number"_s.arg(i));
            return true;
        }
    }
    result = MeanEstimate {};
    result.n = n;
    if (values.empty())
        return true;

    result.mean = meanOf(values);
    if (!bootstrapMayUseCounts(options, values.size()))
        return false;
    const DistinctItems<double> distinct = distinctItems(std::vector<double>(values.begin(), values.end()));
    if (!bootstrapUsesCounts(options, values.size(), distinct.items.size()))
        return false;
    Xoshiro256 rng(options.seed);
    std::vector<double> means(static_cast<std::size_t>(options.resamples));
    const auto count = static_cast<double>(values.size());
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
    return true;
}

// Resamples columns of one length record by record, each index drawn once for all of them, and finishes their
// results (started by startBootstrap). A column's sum adds the same values in the same order as its own draws would:
// each interval is the one a column resampled alone gets.
void resampleByIndex(
    std::span<const std::span<const double>> columns, const BootstrapOptions& options, std::span<MeanEstimate*> results)
{
    const std::size_t n = columns.front().size();
    const auto count = static_cast<double>(n);
    std::vector<std::vector<double>> means(columns.size(), std::vector<double>(std::size_t(options.resamples)));
    std::vector<double> sums(columns.size());
    Xoshiro256 rng(options.seed);
    IndexBatch batch;
    for (std::size_t b = 0; b < std::size_t(options.resamples); ++b) {
        std::fill(sums.begin(), sums.end(), 0.0);
        for (std::size_t done = 0; done < n;) {
            const std::size_t size = batch.fill(rng, n, n - done);
            for (std::size_t c = 0; c < columns.size(); ++c) {
                const double* values = columns[c].data();
                double sum = sums[c];
                for (std::size_t j = 0; j < size; ++j)
                    sum += values[batch.indices[j]];
                sums[c] = sum;
            }
            done += size;
        }
        for (std::size_t c = 0; c < columns.size(); ++c)
            means[c][b] = sums[c] / count;
    }
    for (std::size_t c = 0; c < columns.size(); ++c) {
        results[c]->resamplesUsed = options.resamples;
        results[c]->ci = percentileInterval(means[c], options.confidence);
    }
}

} // namespace

MeanEstimate bootstrapMean(std::span<const double> values, const BootstrapOptions& options)
{
    MeanEstimate result;
    if (startBootstrap(values, options, result))
        return result;
    MeanEstimate* out = &result;
    resampleByIndex({ &values, 1 }, options, { &out, 1 });
    return result;
}

std::vector<MeanEstimate> bootstrapMeans(
    std::span<const std::span<const double>> columns, const BootstrapOptions& options)
{
    std::vector<MeanEstimate> results(columns.size());
    // The columns resampled record by record, by length: each length's columns share the draws.
    std::vector<std::size_t> lengths;
    std::vector<std::vector<std::span<const double>>> byLength;
    std::vector<std::vector<MeanEstimate*>> resultsByLength;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (startBootstrap(columns[c], options, results[c]))
            continue;
        const auto known = std::ranges::find(lengths, columns[c].size());
        const auto at = std::size_t(known - lengths.begin());
        if (known == lengths.end()) {
            lengths.push_back(columns[c].size());
            byLength.emplace_back();
            resultsByLength.emplace_back();
        }
        byLength[at].push_back(columns[c]);
        resultsByLength[at].push_back(&results[c]);
    }
    for (std::size_t l = 0; l < lengths.size(); ++l)
        resampleByIndex(byLength[l], options, resultsByLength[l]);
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
