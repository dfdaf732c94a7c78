// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QDateTime>

#include <chrono>
#include <optional>

namespace structscope {

/// Wait before the next attempt after `failedAttempts` (≥ 1) failures: exponential back-off
/// base·2^(n−1), capped at `max`, with "equal jitter" (a uniformly random half added to a fixed half)
/// so that many callers that failed together do not come back together. `random01` ∈ [0, 1).
std::chrono::milliseconds backoffDelay(
    int failedAttempts, std::chrono::milliseconds base, std::chrono::milliseconds max, double random01);

/// The wait a Retry-After header asks for: delta-seconds ("120", fractions accepted) or an HTTP-date
/// (a date in the past means 0). nullopt when absent or unreadable.
std::optional<std::chrono::milliseconds> parseRetryAfter(const QByteArray& value, const QDateTime& now);

/// A concurrency limit that backs off multiplicatively and recovers additively (AIMD): halved on
/// every rate limit (never below 1), raised by one after as many successes in a row as the limit.
class AdaptiveLimit
{
public:
    explicit AdaptiveLimit(int max = 1);

    int current() const { return m_current; }
    int max() const { return m_max; }
    void onRateLimited();
    void onSuccess();

private:
    int m_max;
    int m_current;
    int m_successes = 0;
};

} // namespace structscope
