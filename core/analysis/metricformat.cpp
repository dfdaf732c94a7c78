// SPDX-License-Identifier: Apache-2.0
#include "analysis/metricformat.h"

#include "report/reportformatting.h"
#include "scoring/metricregistry.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

QString number(std::string_view metricId, double value)
{
    return QString::fromStdString(displayNumber(value, 3, isPlainValueMetric(metricId)));
}

} // namespace

QString formatMetricValue(std::string_view metricId, double value)
{
    if (std::isnan(value))
        return u"—"_s;
    if (metricId == "ladder.cost_per_success")
        return std::isinf(value) ? u"∞ (no success)"_s : u"$"_s + number(metricId, value);
    if (metricId.starts_with("ladder.latency_"))
        return number(metricId, value) + u" ms"_s;
    return number(metricId, value);
}

QString formatInterval(std::string_view metricId, const Interval& ci)
{
    if (!ci.isValid())
        return {};
    return u"["_s + number(metricId, ci.low) + u", "_s + number(metricId, ci.high) + u"]"_s;
}

QString metricLabel(std::string_view metricId)
{
    if (const MetricInfo* info = findMetric(metricId))
        return QString::fromUtf8(info->label.data(), qsizetype(info->label.size()));
    return QString::fromUtf8(metricId.data(), qsizetype(metricId.size()));
}

QString metricToolTip(std::string_view metricId)
{
    const MetricInfo* info = findMetric(metricId);
    if (!info)
        return QString::fromUtf8(metricId.data(), qsizetype(metricId.size()));
    return u"<b>%1</b> <code>%2</code><br>%3<br><i>%4 is better.</i>"_s.arg(metricLabel(metricId).toHtmlEscaped(),
        QString::fromUtf8(info->id.data(), qsizetype(info->id.size())),
        QString::fromUtf8(info->description.data(), qsizetype(info->description.size())).toHtmlEscaped(),
        info->higherIsBetter ? u"Higher"_s : u"Lower"_s);
}

QString displayModelName(const QString& model, bool simulated)
{
    return simulated ? model + u" (simulated)"_s : model;
}

QString formatErrored(int answers, int errored)
{
    ReportGroup group;
    group.n = answers;
    group.errored = errored;
    return u"errored = "_s + QString::fromStdString(erroredCell(group));
}

} // namespace structscope
