// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtGlobal>

namespace structscope {

/// ln(n!) for n ≥ 0 (NaN for n < 0). Thread-safe, unlike std::lgamma, which writes the global signgam.
double logFactorial(qint64 n);

/// Exact two-sided McNemar p from the discordant counts b and c:
/// p = min(1, 2·Σ_{i=0}^{min(b,c)} C(b+c, i)·0.5^(b+c)); b = c = 0 gives 1, a negative count NaN.
/// Relative error about 1e-12 for b + c near 10^3 and 1e-9 near 10^5 (rounding of ln n!); a p below
/// the smallest double (≈ 5e-324) is returned as 0.
double mcnemarExactP(qint64 b, qint64 c);

} // namespace structscope
