// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "stats/bootstrap.h"
#include "stats/intervals.h"

#include <QMetaType>
#include <QString>

#include <limits>
#include <span>
#include <vector>

namespace structscope {

/// Two configurations A and B compared on the same cases.
struct PairedComparison
{
    qint64 n = 0; ///< paired cases
    double meanA = std::numeric_limits<double>::quiet_NaN(); ///< rate (outcomes) or mean score of A
    double meanB = std::numeric_limits<double>::quiet_NaN();
    double deltaPoints = std::numeric_limits<double>::quiet_NaN(); ///< 100·(meanB − meanA), percentage points
    Interval deltaCiPoints; ///< paired bootstrap interval of deltaPoints (case indices resampled)
    qint64 b = 0; ///< discordant cases where A is better (outcomes: A right, B wrong)
    qint64 c = 0; ///< discordant cases where B is better (outcomes: A wrong, B right)
    double pValue = std::numeric_limits<double>::quiet_NaN(); ///< mcnemarExactP(b, c)
    QString error; ///< empty when the input was valid; otherwise every number is NaN

    bool ok() const { return error.isEmpty(); }
};

/// Paired comparison of per-case 0/1 outcomes (a[i] and b[i] belong to the same case): rates, their
/// difference in percentage points with a paired bootstrap interval (bootstrapMean() of bᵢ − aᵢ, so
/// the same seed rules), and the exact McNemar p. No cases: NaN means and interval, p = 1, no error.
/// Vectors of different lengths are an error.
PairedComparison comparePairedOutcomes(
    const std::vector<bool>& a, const std::vector<bool>& b, const BootstrapOptions& options = {});

/// The same for per-case scores (StructScope's scores lie in [0, 1], so deltaPoints reads as points
/// of score). b and c count cases where A scores higher and where B does, ties dropped: pValue is
/// the exact two-sided sign test, which on 0/1 scores is McNemar's test. Non-finite scores are errors.
PairedComparison comparePairedScores(
    std::span<const double> a, std::span<const double> b, const BootstrapOptions& options = {});

} // namespace structscope

Q_DECLARE_METATYPE(structscope::PairedComparison)
