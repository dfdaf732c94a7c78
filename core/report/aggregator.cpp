#include "report/aggregator.h"

#include "scoring/metricregistry.h"
#include "stats/binomial.h"
#include "stats/bootstrap.h"
#include "stats/intervals.h"
#include "stats/means.h"
#include "stats/percentile.h"
#include "stats/prng.h"
#include "stats/repeats.h"

#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace structscope {

namespace {

using Group = std::vector<const ScoredRecord*>;

std::string familyOf(std::string_view metricId)
{
    return std::string(metricId.substr(0, metricId.find('.')));
}

bool hasExtraction(const ScoredRecord& r)
{
    return r.verdict.value("extraction.strategy_points").has_value();
}

// The micro metrics of the extraction family, in one pass over summed counts.
constexpr std::array<std::string_view, 6> kMicroIds = {"extraction.score",     "extraction.f1_micro",
                                                       "extraction.doc_micro", "extraction.f1_keys",
                                                       "extraction.f1_values", "extraction.f1_values_lenient"};

std::array<double, kMicroIds.size()> microValues(const ExtractionTotals& t)
{
    return {t.score(), t.f1Micro(), t.docMicro(), t.f1Keys(), t.f1Values(), t.f1ValuesLenient()};
}

/// A record with what it adds to ExtractionTotals: records with the same amounts are one category of the counts
/// method, any of them standing for all.
struct MicroItem
{
    std::array<double, 10> adds {};
    const ExtractionRecord* record = nullptr;
    friend bool operator<(const MicroItem& a, const MicroItem& b) { return a.adds < b.adds; }
};

MicroItem microItem(const ExtractionRecord& r)
{
    const ExtractionCounts& s = r.strict;
    return { { r.failed ? 1.0 : 0.0, r.correct ? 1.0 : 0.0, r.points, double(s.goldValues), double(s.goldKeys),
                 double(s.diff.mk), double(s.diff.extra), s.valueTruePositives(), r.lenient.valueTruePositives(),
                 double(s.predictedValues) },
        &r };
}

/// Micro metrics and their bootstrap intervals (resampling records, recomputing from counts).
void addMicro(const std::vector<const ExtractionRecord*>& records, const BootstrapOptions& bootstrap, ReportGroup& g)
{
    if (records.empty())
        return;
    ExtractionTotals all;
    for (const ExtractionRecord* r : records)
        all.add(*r);
    const auto values = microValues(all);
    for (std::size_t m = 0; m < kMicroIds.size(); ++m)
        g.mean[std::string(kMicroIds[m])] = values[m];

    const int resamples = std::max(1, bootstrap.resamples);
    std::vector<std::vector<double>> samples(kMicroIds.size(), std::vector<double>(std::size_t(resamples)));
    Xoshiro256 rng(bootstrap.seed);
    const auto n = std::uint64_t(records.size());
    const auto keep = [&samples](int b, const ExtractionTotals& t) {
        const auto v = microValues(t);
        for (std::size_t m = 0; m < kMicroIds.size(); ++m)
            samples[m][std::size_t(b)] = v[m];
    };
    DistinctItems<MicroItem> classes;
    if (bootstrapMayUseCounts(bootstrap, records.size())) {
        std::vector<MicroItem> items;
        items.reserve(records.size());
        for (const ExtractionRecord* r : records)
            items.push_back(microItem(*r));
        classes = distinctItems(std::move(items));
    }
    if (!classes.items.empty() && bootstrapUsesCounts(bootstrap, records.size(), classes.items.size())) {
        std::vector<std::uint64_t> counts(classes.items.size());
        for (int b = 0; b < resamples; ++b) {
            drawMultinomial(rng, n, classes.frequencies, counts);
            ExtractionTotals t;
            for (std::size_t i = 0; i < counts.size(); ++i) {
                if (counts[i] > 0)
                    t.add(*classes.items[i].record, int(counts[i]));
            }
            keep(b, t);
        }
    } else {
        for (int b = 0; b < resamples; ++b) {
            ExtractionTotals t;
            for (std::uint64_t i = 0; i < n; ++i)
                t.add(*records[std::size_t(rng.bounded(n))]);
            keep(b, t);
        }
    }
    const double tail = (1.0 - bootstrap.confidence) / 2.0;
    for (std::size_t m = 0; m < kMicroIds.size(); ++m) {
        std::sort(samples[m].begin(), samples[m].end());
        g.ci95[std::string(kMicroIds[m])] = {quantileOfSorted(samples[m], tail), quantileOfSorted(samples[m], 1.0 - tail)};
    }
}

/// One per-record metric of one group, computed on its own (several run at once) and then added to the group.
struct PerRecordResult
{
    const MetricInfo* metric = nullptr;
    bool present = false;
    double mean = 0;
    Interval ci;
    std::optional<double> weightedMean;
};

void computePerRecord(const Group& group, const BootstrapOptions& bootstrap, PerRecordResult& out)
{
    const MetricInfo& metric = *out.metric;
    std::vector<double> values;
    std::vector<double> weights;
    values.reserve(group.size());
    weights.reserve(group.size());
    for (const ScoredRecord* r : group) {
        if (const auto v = r->verdict.value(metric.id)) {
            values.push_back(*v);
            weights.push_back(r->weight);
        }
    }
    if (values.empty())
        return;
    out.present = true;
    if (metric.kind == MetricKind::Rate) {
        qint64 successes = 0;
        for (double v : values)
            successes += v > 0.5 ? 1 : 0;
        const RateEstimate rate = estimateRate(successes, qint64(values.size()));
        out.mean = rate.rate;
        out.ci = rate.ci;
    } else {
        const MeanEstimate estimate = bootstrapMean(values, bootstrap);
        out.mean = estimate.mean;
        out.ci = estimate.ci;
    }
    double totalWeight = 0;
    for (double w : weights)
        totalWeight += w;
    if (totalWeight > 0)
        out.weightedMean = weightedMeanOf(values, weights);
}

/// Every Rate and Mean metric of the families, for one group. Each bootstrap draws from its own seeded generator,
/// so computing them at the same time (on the thread pool) gives exactly the intervals of one after the other.
void addPerRecord(
    const std::set<std::string>& families, const Group& group, const BootstrapOptions& bootstrap, ReportGroup& g)
{
    std::vector<PerRecordResult> results;
    for (const MetricInfo& metric : allMetrics()) {
        if (families.count(familyOf(metric.id)) && (metric.kind == MetricKind::Rate || metric.kind == MetricKind::Mean))
            results.emplace_back().metric = &metric;
    }
    QtConcurrent::blockingMap(results, [&](PerRecordResult& r) { computePerRecord(group, bootstrap, r); });
    for (const PerRecordResult& r : results) {
        if (!r.present)
            continue;
        const std::string id(r.metric->id);
        g.mean[id] = r.mean;
        g.ci95[id] = r.ci;
        if (r.weightedMean)
            g.weightedMean[id] = *r.weightedMean;
    }
}

/// Consistency and pass^k (METRICS.md §5, "Repeats") when the group holds cases asked more than once: a case is
/// (run, suite, case id), its samples are its repeats; k is the most samples any case of the group has.
void addRepeatValues(const Group& group, ReportGroup& g)
{
    std::map<std::tuple<qint64, QString, QString>, std::vector<RepeatSample<LadderLabel>>> samples;
    for (const ScoredRecord* r : group)
        samples[{ r->runId, r->suite, r->caseId }].push_back({ r->verdict.ladder, r->verdict.ladder == LadderLabel::Correct });
    std::size_t k = 0;
    std::vector<std::vector<RepeatSample<LadderLabel>>> perCase;
    perCase.reserve(samples.size());
    for (auto& [key, caseSamples] : samples) {
        k = std::max(k, caseSamples.size());
        perCase.push_back(std::move(caseSamples));
    }
    if (k < 2)
        return;
    const RepeatStats stats = repeatStats(perCase, int(k));
    g.mean["ladder.consistency"] = stats.consistency;
    if (stats.passCases > 0)
        g.mean["ladder.pass_hat_k"] = stats.passHatK;
}

void addGroupValues(const Group& group, ReportGroup& g)
{
    std::vector<double> latencies;
    double cost = 0;
    bool anyCost = false;
    qint64 correct = 0;
    for (const ScoredRecord* r : group) {
        if (r->latencyMs)
            latencies.push_back(*r->latencyMs);
        if (r->cost) {
            cost += *r->cost;
            anyCost = true;
        }
        correct += r->verdict.ladder == LadderLabel::Correct ? 1 : 0;
    }
    if (anyCost)
        g.mean["ladder.cost_per_success"] = costPerSuccess(cost, correct);
    addRepeatValues(group, g);
    if (!latencies.empty()) {
        const LatencyPercentiles p = latencyPercentiles(std::move(latencies));
        g.mean["ladder.latency_p50"] = p.p50;
        g.mean["ladder.latency_p95"] = p.p95;
        g.mean["ladder.latency_p99"] = p.p99;
    }
}

} // namespace

const std::vector<std::string>& groupKeys()
{
    static const std::vector<std::string> keys = {"model",    "strategy", "run",        "suite",       "category",
                                                  "tier",     "schema_complexity",    "source_kind", "modality",
                                                  "case"};
    return keys;
}

std::string groupValue(const ScoredRecord& record, const std::string& key)
{
    if (key == "model")
        return record.model.toStdString();
    if (key == "strategy")
        return record.strategy.toStdString();
    if (key == "run")
        return std::to_string(record.runId);
    if (key == "suite")
        return record.suite.toStdString();
    if (key == "category")
        return record.category.toStdString();
    if (key == "tier" || key == "schema_complexity")
        return record.tier.toStdString();
    if (key == "source_kind")
        return record.sourceKind.toStdString();
    if (key == "modality")
        return record.modality.toStdString();
    if (key == "case")
        return record.caseId.toStdString();
    return {};
}

Report aggregate(std::span<const ScoredRecord> records, const AggregateOptions& options)
{
    Report report;
    report.groupBy = options.groupBy;

    std::set<std::string> families(options.families.begin(), options.families.end());
    if (families.empty()) {
        for (const ScoredRecord& r : records) {
            for (const auto& [id, value] : r.verdict.values)
                families.insert(familyOf(id));
        }
    }

    std::map<std::vector<std::string>, Group> groups;
    for (const ScoredRecord& r : records) {
        std::vector<std::string> key;
        key.reserve(options.groupBy.size());
        for (const std::string& k : options.groupBy)
            key.push_back(groupValue(r, k));
        groups[key].push_back(&r);
    }

    std::set<std::string> present;
    for (const auto& [key, group] : groups) {
        ReportGroup g;
        for (std::size_t i = 0; i < key.size(); ++i)
            g.key.emplace_back(options.groupBy[i], key[i]);
        g.n = int(group.size());

        addPerRecord(families, group, options.bootstrap, g);
        if (families.count("extraction")) {
            std::vector<const ExtractionRecord*> extraction;
            for (const ScoredRecord* r : group) {
                if (hasExtraction(*r))
                    extraction.push_back(&r->verdict.extraction);
            }
            addMicro(extraction, options.bootstrap, g);
        }
        if (families.count("ladder"))
            addGroupValues(group, g);

        for (const auto& [id, value] : g.mean)
            present.insert(id);
        report.groups.push_back(std::move(g));
    }

    for (const MetricInfo& metric : allMetrics()) {
        if (present.count(std::string(metric.id)))
            report.metrics.emplace_back(metric.id);
    }
    return report;
}

} // namespace structscope
