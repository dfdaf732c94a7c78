// SPDX-License-Identifier: Apache-2.0
#include "analysis/configcomparison.h"

#include "analysis/metricformat.h"
#include "scoring/metricregistry.h"

#include <map>
#include <tuple>

using namespace Qt::StringLiterals;

namespace structscope {

PairConfiguration pairConfigurationOf(const Configuration& c)
{
    PairConfiguration p;
    p.key = { { "model", c.model.toStdString() }, { "strategy", c.strategy.toStdString() } };
    p.simulated = c.simulated;
    return p;
}

Configuration configurationOf(const PairConfiguration& c)
{
    return { QString::fromStdString(c.value("model")), QString::fromStdString(c.value("strategy")), c.simulated };
}

QString Configuration::label() const
{
    return displayModelName(model, simulated) + u" · "_s + strategy;
}

std::vector<Configuration> configurationsOf(RecordsView records)
{
    std::map<std::pair<QString, QString>, bool> seen;
    for (const ScoredRecord& r : records)
        seen[{ r.model, r.strategy }] = seen[{ r.model, r.strategy }] || r.simulated;
    std::vector<Configuration> configurations;
    configurations.reserve(seen.size());
    for (const auto& [key, simulated] : seen)
        configurations.push_back({ key.first, key.second, simulated });
    return configurations;
}

ConfigComparison compareConfigurations(RecordsView records, const Configuration& a, const Configuration& b,
    const std::string& metric, const BootstrapOptions& options)
{
    ConfigComparison result;
    result.a = a;
    result.b = b;
    result.metric = metric;
    const MetricInfo* info = findMetric(metric);
    if (!info || (info->kind != MetricKind::Rate && info->kind != MetricKind::Mean)) {
        result.error = QObject::tr("%1 cannot be compared case by case.").arg(QString::fromStdString(metric));
        return result;
    }
    result.rate = info->kind == MetricKind::Rate;
    const PairedRecords pairs = pairRecords(records, pairConfigurationOf(a), pairConfigurationOf(b), metric);
    result.onlyA = pairs.onlyA;
    result.onlyB = pairs.onlyB;
    for (std::size_t i = 0; i < pairs.a.size(); ++i) {
        const ScoredRecord* ra = pairs.a[i];
        const ScoredRecord* rb = pairs.b[i];
        const double va = *ra->verdict.value(metric);
        const double vb = *rb->verdict.value(metric);
        const bool differ = result.rate ? (va >= 0.5) != (vb >= 0.5) : std::abs(va - vb) > 1e-12;
        if (differ) {
            DiscordantCase d;
            d.suite = ra->suite;
            d.caseId = ra->caseId;
            d.category = ra->category;
            d.repeat = ra->repeat;
            d.a = va;
            d.b = vb;
            d.verdictA = ra->verdict.ladder;
            d.verdictB = rb->verdict.ladder;
            d.refA = caseRefOf(*ra);
            d.refB = caseRefOf(*rb);
            result.discordant.push_back(std::move(d));
        }
    }
    result.stats = comparePairedRecords(pairs, metric, result.rate, options);
    return result;
}

} // namespace structscope
