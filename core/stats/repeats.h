// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMetaType>
#include <QtGlobal>

#include <algorithm>
#include <limits>
#include <span>
#include <vector>

namespace structscope {

/// One of the k samples of a case: its verdict label (a ladder label, an int code…) and whether it is correct.
template <typename Label> struct RepeatSample
{
    Label verdict {};
    bool correct = false;
};

/// Agreement and reliability over repeated samples of the same cases.
struct RepeatStats
{
    int k = 0;
    qint64 cases = 0; ///< cases with at least one sample
    qint64 consistentCases = 0; ///< cases whose samples all carry the same verdict
    double consistency = std::numeric_limits<double>::quiet_NaN(); ///< consistentCases / cases
    qint64 passCases = 0; ///< cases with at least k samples: the denominator of passHatK
    double passHatK = std::numeric_limits<double>::quiet_NaN(); ///< pass^k
    qint64 incompleteCases = 0; ///< cases with 1 … k−1 samples (in consistency, not in pass^k)
};

/// Chance that k samples drawn without replacement from n samples, of which `correct` are correct,
/// are all correct: C(correct, k) / C(n, k) (the unbiased pass^k estimator). 1 or 0 when n == k.
/// NaN when k < 1 or n < k or correct is outside [0, n].
double passAllProbability(qint64 n, qint64 correct, int k);

/// The repeat statistics of `caseCount` cases, case c's samples being samplesOf(c) (a span); see repeatStats().
template <typename Label, typename SamplesOf>
RepeatStats repeatStatsOf(std::size_t caseCount, SamplesOf&& samplesOf, int k)
{
    RepeatStats stats;
    stats.k = k;
    if (k < 1)
        return stats;
    double passSum = 0.0;
    for (std::size_t c = 0; c < caseCount; ++c) {
        const std::span<const RepeatSample<Label>> samples = samplesOf(c);
        if (samples.empty())
            continue;
        ++stats.cases;
        const Label& first = samples.front().verdict;
        if (std::all_of(samples.begin(), samples.end(), [&](const auto& s) { return s.verdict == first; }))
            ++stats.consistentCases;
        const auto n = static_cast<qint64>(samples.size());
        if (n < k) {
            ++stats.incompleteCases;
            continue;
        }
        const auto correct = static_cast<qint64>(
            std::count_if(samples.begin(), samples.end(), [](const auto& s) { return s.correct; }));
        ++stats.passCases;
        passSum += passAllProbability(n, correct, k);
    }
    if (stats.cases > 0)
        stats.consistency = static_cast<double>(stats.consistentCases) / static_cast<double>(stats.cases);
    if (stats.passCases > 0)
        stats.passHatK = passSum / static_cast<double>(stats.passCases);
    return stats;
}

/// consistency: share of cases whose samples all agree, over cases with ≥ 1 sample — a case with
/// fewer than k samples is judged on those it has, so one sample is consistent; a case with none is
/// not counted. pass^k: mean over cases with ≥ k samples of passAllProbability(); with exactly k
/// samples that is "all k correct", so pass^k is the share of cases correct in all k. Cases short of
/// k samples cannot show k successes and are left out of pass^k (counted in incompleteCases).
/// k < 1 gives NaN for both rates.
template <typename Label>
RepeatStats repeatStats(const std::vector<std::vector<RepeatSample<Label>>>& samplesPerCase, int k)
{
    return repeatStatsOf<Label>(
        samplesPerCase.size(), [&](std::size_t c) { return std::span<const RepeatSample<Label>>(samplesPerCase[c]); },
        k);
}

/// As repeatStats(), for samples held case after case in one array: case c's samples are
/// samples[caseEnds[c − 1] .. caseEnds[c]) (from 0 for the first case).
template <typename Label>
RepeatStats repeatStats(std::span<const RepeatSample<Label>> samples, std::span<const std::size_t> caseEnds, int k)
{
    return repeatStatsOf<Label>(
        caseEnds.size(),
        [&](std::size_t c) {
            const std::size_t begin = c == 0 ? 0 : caseEnds[c - 1];
            return samples.subspan(begin, caseEnds[c] - begin);
        },
        k);
}

} // namespace structscope

Q_DECLARE_METATYPE(structscope::RepeatStats)
