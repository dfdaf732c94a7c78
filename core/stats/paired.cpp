// SPDX-License-Identifier: Apache-2.0
#include "stats/paired.h"

#include "stats/mcnemar.h"
#include "stats/means.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

PairedComparison failed(qint64 n, QString error)
{
    PairedComparison result;
    result.n = n;
    result.error = std::move(error);
    return result;
}

} // namespace

PairedComparison comparePairedScores(
    std::span<const double> a, std::span<const double> b, const BootstrapOptions& options)
{
    if (a.size() != b.size())
        return failed(0, u"paired comparison: A has %1 cases but B has %2"_s.arg(a.size()).arg(b.size()));
    const auto n = static_cast<qint64>(a.size());
    std::vector<double> differences(a.size());
    PairedComparison result;
    result.n = n;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (!std::isfinite(a[i]) || !std::isfinite(b[i]))
            return failed(n, u"paired comparison: case at index %1 has a score that is not a finite number"_s.arg(i));
        differences[i] = b[i] - a[i];
        if (a[i] > b[i])
            ++result.b;
        else if (b[i] > a[i])
            ++result.c;
    }
    const MeanEstimate delta = bootstrapMean(differences, options);
    if (!delta.ok())
        return failed(n, delta.error);
    result.meanA = meanOf(a);
    result.meanB = meanOf(b);
    result.deltaPoints = 100.0 * (result.meanB - result.meanA);
    result.deltaCiPoints = { 100.0 * delta.ci.low, 100.0 * delta.ci.high };
    result.pValue = mcnemarExactP(result.b, result.c);
    return result;
}

PairedComparison comparePairedOutcomes(
    const std::vector<bool>& a, const std::vector<bool>& b, const BootstrapOptions& options)
{
    if (a.size() != b.size())
        return failed(0, u"paired comparison: A has %1 cases but B has %2"_s.arg(a.size()).arg(b.size()));
    std::vector<double> scoresA(a.begin(), a.end());
    std::vector<double> scoresB(b.begin(), b.end());
    return comparePairedScores(scoresA, scoresB, options);
}

} // namespace structscope
