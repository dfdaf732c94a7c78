#include "models/configcomparison.h"

#include "models/metricformat.h"
#include "scoring/metricregistry.h"

#include <map>
#include <tuple>

using namespace Qt::StringLiterals;

namespace structscope {

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
    for (const auto& [key, simulated] : seen)
        configurations.push_back({ key.first, key.second, simulated });
    return configurations;
}

std::vector<std::string> comparableMetrics(RecordsView records)
{
    // Differences are read as points of a share or score: metrics with values outside [0, 1] (strategy
    // points) are left out.
    std::map<std::string_view, bool> inUnitRange;
    for (const ScoredRecord& r : records) {
        if (r.errored())
            continue;
        for (const auto& [id, value] : r.verdict.values) {
            auto [it, inserted] = inUnitRange.try_emplace(id, true);
            it->second = it->second && value >= 0.0 && value <= 1.0;
        }
    }
    std::vector<std::string> metrics;
    for (const MetricInfo& info : allMetrics()) {
        const auto it = inUnitRange.find(info.id);
        if ((info.kind == MetricKind::Rate || info.kind == MetricKind::Mean) && it != inUnitRange.end() && it->second)
            metrics.emplace_back(info.id);
    }
    return metrics;
}

ConfigComparison compareConfigurations(RecordsView records, const Configuration& a,
    const Configuration& b, const std::string& metric, const BootstrapOptions& options)
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
    using Key = std::tuple<QString, QString, int>;
    std::map<Key, const ScoredRecord*> sideA, sideB;
    for (const ScoredRecord& r : records) {
        // An errored slot is no answer: a pair needs both sides' answers.
        if (r.errored() || !r.verdict.value(metric))
            continue;
        if (r.model == a.model && r.strategy == a.strategy)
            sideA[{ r.suite, r.caseId, r.repeat }] = &r;
        if (r.model == b.model && r.strategy == b.strategy)
            sideB[{ r.suite, r.caseId, r.repeat }] = &r;
    }
    std::vector<double> valuesA, valuesB;
    for (const auto& [key, ra] : sideA) {
        const auto it = sideB.find(key);
        if (it == sideB.end()) {
            ++result.onlyA;
            continue;
        }
        const ScoredRecord* rb = it->second;
        const double va = *ra->verdict.value(metric);
        const double vb = *rb->verdict.value(metric);
        valuesA.push_back(va);
        valuesB.push_back(vb);
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
    for (const auto& [key, rb] : sideB)
        result.onlyB += sideA.count(key) ? 0 : 1;
    if (result.rate) {
        std::vector<bool> outcomesA, outcomesB;
        for (std::size_t i = 0; i < valuesA.size(); ++i) {
            outcomesA.push_back(valuesA[i] >= 0.5);
            outcomesB.push_back(valuesB[i] >= 0.5);
        }
        result.stats = comparePairedOutcomes(outcomesA, outcomesB, options);
    } else {
        result.stats = comparePairedScores(valuesA, valuesB, options);
    }
    return result;
}

} // namespace structscope
