// SPDX-License-Identifier: Apache-2.0
#include "run/retrypolicy.h"

#include <QLocale>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace structscope {

std::chrono::milliseconds backoffDelay(
    int failedAttempts, std::chrono::milliseconds base, std::chrono::milliseconds max, double random01)
{
    const int exponent = std::clamp(failedAttempts - 1, 0, 30);
    const double full = std::min(double(base.count()) * std::ldexp(1.0, exponent), double(max.count()));
    const double r = std::clamp(random01, 0.0, 1.0);
    return std::chrono::milliseconds(qint64(full / 2 + r * full / 2));
}

std::optional<std::chrono::milliseconds> parseRetryAfter(const QByteArray& value, const QDateTime& now)
{
    const QByteArray text = value.trimmed();
    if (text.isEmpty())
        return std::nullopt;
    bool ok = false;
    const double seconds = text.toDouble(&ok);
    if (ok) {
        if (!std::isfinite(seconds) || seconds < 0)
            return std::nullopt;
        return std::chrono::milliseconds(qint64(std::min(seconds, 1e9) * 1000.0));
    }
    // IMF-fixdate, e.g. "Wed, 21 Oct 2015 07:28:00 GMT" (the obsolete formats are not worth it).
    QDateTime at = QLocale::c().toDateTime(QString::fromLatin1(text), u"ddd, dd MMM yyyy HH:mm:ss 'GMT'"_s);
    if (!at.isValid())
        return std::nullopt;
    at.setTimeZone(QTimeZone::utc());
    return std::chrono::milliseconds(std::max<qint64>(0, now.msecsTo(at)));
}

AdaptiveLimit::AdaptiveLimit(int max)
    : m_max(std::max(1, max))
    , m_current(m_max)
{ }

void AdaptiveLimit::onRateLimited()
{
    m_current = std::max(1, m_current / 2);
    m_successes = 0;
}

void AdaptiveLimit::onSuccess()
{
    if (m_current >= m_max)
        return;
    if (++m_successes >= m_current) {
        ++m_current;
        m_successes = 0;
    }
}

} // namespace structscope
