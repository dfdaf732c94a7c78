// SPDX-License-Identifier: Apache-2.0
#include "stats/repeats.h"

namespace structscope {

double passAllProbability(qint64 n, qint64 correct, int k)
{
    if (k < 1 || n < k || correct < 0 || correct > n)
        return std::numeric_limits<double>::quiet_NaN();
    if (correct < k)
        return 0.0;
    // C(correct, k)/C(n, k) = Π_{j<k} (correct − j)/(n − j): every factor is in (0, 1], no overflow.
    double p = 1.0;
    for (qint64 j = 0; j < k; ++j)
        p *= static_cast<double>(correct - j) / static_cast<double>(n - j);
    return p;
}

} // namespace structscope
