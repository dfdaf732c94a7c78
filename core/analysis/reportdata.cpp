// SPDX-License-Identifier: Apache-2.0
#include "analysis/reportdata.h"

#include "analysis/metricformat.h"
#include "report/fieldreport.h"
#include "scoring/metricregistry.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace Qt::StringLiterals;

namespace structscope {

QStringList ReportData::families() const
{
    std::set<std::string> present(report.metrics.begin(), report.metrics.end());
    QStringList result;
    for (const MetricInfo& metric : allMetrics()) {
        const QString family = QString::fromUtf8(metric.family.data(), qsizetype(metric.family.size()));
        if (present.contains(std::string(metric.id)) && !result.contains(family))
            result << family;
    }
    return result;
}

QString ReportData::defaultFamily() const
{
    const QStringList all = families();
    QStringList own = all;
    own.removeAll(u"ladder"_s);
    if (own.size() == 1)
        return own.front();
    return all.contains(u"ladder"_s) ? u"ladder"_s : all.value(0);
}

std::vector<std::string> ReportData::scoreMetrics(const QString& family) const
{
    std::vector<std::string> result;
    for (const MetricInfo& metric : familyMetrics(family.toStdString())) {
        if (metric.kind == MetricKind::Value)
            continue;
        const std::string id(metric.id);
        if (std::find(report.metrics.begin(), report.metrics.end(), id) != report.metrics.end())
            result.push_back(id);
    }
    return result;
}

QString ReportData::groupLabel(const ReportGroup& group) const
{
    QStringList values;
    for (const auto& [key, value] : group.key) {
        const QString text = value.empty() ? u"—"_s : QString::fromStdString(value);
        values << (key == "model" ? displayModelName(text, simulatedModels.contains(text)) : text);
    }
    return values.join(u" · "_s);
}

ReportDataPtr makeReportData(RecordsView records, const AggregateOptions& options, const std::string& gold)
{
    auto data = std::make_shared<ReportData>();
    data->report = groupsByField(options.groupBy) ? aggregateFields(records, options) : aggregate(records, options);
    data->report.gold = gold;
    data->provisional = !options.intervals;
    data->simulatedModels = simulatedModelsOf(records);
    return data;
}

QSet<QString> simulatedModelsOf(RecordsView records)
{
    QSet<QString> models;
    records.forEach([&models](const ScoredRecord& record, std::size_t) {
        if (record.simulated)
            models.insert(record.model);
    });
    return models;
}

double metricValue(const ReportGroup& group, const std::string& metricId)
{
    const auto it = group.mean.find(metricId);
    return it == group.mean.end() ? std::nan("") : it->second;
}

Interval metricInterval(const ReportGroup& group, const std::string& metricId)
{
    const auto it = group.ci95.find(metricId);
    return it == group.ci95.end() ? Interval {} : it->second;
}

} // namespace structscope
