// SPDX-License-Identifier: Apache-2.0
#include "report/pairmatrix.h"

#include "scoring/metricregistry.h"

#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

const QString& fieldOf(const ScoredRecord& record, std::string_view key)
{
    return key == "model" ? record.model : record.strategy;
}

bool validKeys(const std::vector<std::string>& by)
{
    if (by.empty())
        return false;
    for (std::size_t i = 0; i < by.size(); ++i) {
        const auto& keys = pairConfigurationKeys();
        if (std::find(keys.begin(), keys.end(), by[i]) == keys.end()
            || std::find(by.begin(), by.begin() + std::ptrdiff_t(i), by[i]) != by.begin() + std::ptrdiff_t(i))
            return false;
    }
    return true;
}

bool fixes(const PairConfiguration& configuration, std::string_view name)
{
    return std::any_of(
        configuration.key.begin(), configuration.key.end(), [name](const auto& k) { return k.first == name; });
}

/// What pairs two records of different configurations: the case, the repeat, and the value of each configuration
/// key the configurations do not fix.
using PairKey = std::tuple<QString, QString, QString, QString, int>;

using Answers = std::map<PairKey, const ScoredRecord*>;

Answers answersOf(RecordsView records, const PairConfiguration& configuration, const std::string& metric)
{
    std::vector<std::pair<std::string_view, QString>> wanted;
    for (const auto& [key, value] : configuration.key)
        wanted.emplace_back(key, QString::fromStdString(value));
    const bool fixesModel = fixes(configuration, "model");
    const bool fixesStrategy = fixes(configuration, "strategy");
    Answers answers;
    for (const ScoredRecord& r : records) {
        if (r.errored()
            || !std::all_of(
                wanted.begin(), wanted.end(), [&r](const auto& w) { return fieldOf(r, w.first) == w.second; })
            || !r.verdict.value(metric))
            continue;
        answers[{
            r.suite, r.caseId, fixesModel ? QString() : r.model, fixesStrategy ? QString() : r.strategy, r.repeat }]
            = &r;
    }
    return answers;
}

PairedRecords join(const Answers& a, const Answers& b)
{
    PairedRecords pairs;
    auto ia = a.begin();
    auto ib = b.begin();
    while (ia != a.end() || ib != b.end()) {
        if (ib == b.end() || (ia != a.end() && ia->first < ib->first)) {
            ++pairs.onlyA;
            ++ia;
        } else if (ia == a.end() || ib->first < ia->first) {
            ++pairs.onlyB;
            ++ib;
        } else {
            pairs.a.push_back(ia->second);
            pairs.b.push_back(ib->second);
            ++ia;
            ++ib;
        }
    }
    return pairs;
}

} // namespace

const std::vector<std::string>& pairConfigurationKeys()
{
    static const std::vector<std::string> keys { "model", "strategy" };
    return keys;
}

std::string PairConfiguration::label() const
{
    std::string text;
    for (const auto& [name, v] : key)
        text += (text.empty() ? "" : " · ") + v;
    return text;
}

std::string PairConfiguration::value(std::string_view name) const
{
    for (const auto& [k, v] : key) {
        if (k == name)
            return v;
    }
    return {};
}

std::vector<PairConfiguration> pairConfigurationsOf(RecordsView records, const std::vector<std::string>& by)
{
    if (!validKeys(by))
        return {};
    std::map<std::vector<std::string>, bool> seen;
    for (const ScoredRecord& r : records) {
        std::vector<std::string> values;
        values.reserve(by.size());
        for (const std::string& key : by)
            values.push_back(fieldOf(r, key).toStdString());
        bool& simulated = seen[values];
        simulated = simulated || r.simulated;
    }
    std::vector<PairConfiguration> configurations;
    for (const auto& [values, simulated] : seen) {
        PairConfiguration c;
        for (std::size_t i = 0; i < by.size(); ++i)
            c.key.emplace_back(by[i], values[i]);
        c.simulated = simulated;
        configurations.push_back(std::move(c));
    }
    return configurations;
}

std::vector<std::string> comparableMetrics(RecordsView records)
{
    // Differences are read as points of a share or score: metrics with values outside [0, 1] (strategy points) are
    // left out.
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

QString comparableMetricError(RecordsView records, const std::string& metric)
{
    const MetricInfo* info = findMetric(metric);
    const QString name = QString::fromStdString(metric);
    if (!info)
        return u"no metric is called '%1' (docs/metrics.md lists them)"_s.arg(name);
    if (info->kind != MetricKind::Rate && info->kind != MetricKind::Mean)
        return u"%1 is a statistic of a group, not of each answer, so it cannot be compared case by case"_s.arg(name);
    bool carried = false;
    for (const ScoredRecord& r : records) {
        if (r.errored())
            continue;
        const std::optional<double> value = r.verdict.value(metric);
        if (!value)
            continue;
        carried = true;
        if (!(*value >= 0.0 && *value <= 1.0))
            return u"%1 has values outside [0, 1] (%2 on case %3), so a difference would not read as points"_s.arg(
                name, QString::number(*value), r.caseId);
    }
    if (!carried)
        return u"no answered record carries %1"_s.arg(name);
    return {};
}

PairedRecords pairRecords(
    RecordsView records, const PairConfiguration& a, const PairConfiguration& b, const std::string& metric)
{
    return join(answersOf(records, a, metric), answersOf(records, b, metric));
}

PairedComparison comparePairedRecords(
    const PairedRecords& pairs, const std::string& metric, bool rate, const BootstrapOptions& options)
{
    if (rate) {
        std::vector<bool> outcomesA;
        std::vector<bool> outcomesB;
        outcomesA.reserve(pairs.a.size());
        outcomesB.reserve(pairs.b.size());
        for (std::size_t i = 0; i < pairs.a.size(); ++i) {
            outcomesA.push_back(*pairs.a[i]->verdict.value(metric) >= 0.5);
            outcomesB.push_back(*pairs.b[i]->verdict.value(metric) >= 0.5);
        }
        return comparePairedOutcomes(outcomesA, outcomesB, options);
    }
    std::vector<double> valuesA;
    std::vector<double> valuesB;
    valuesA.reserve(pairs.a.size());
    valuesB.reserve(pairs.b.size());
    for (std::size_t i = 0; i < pairs.a.size(); ++i) {
        valuesA.push_back(*pairs.a[i]->verdict.value(metric));
        valuesB.push_back(*pairs.b[i]->verdict.value(metric));
    }
    return comparePairedScores(valuesA, valuesB, options);
}

const PairCell* PairMatrix::cell(std::size_t i, std::size_t j) const
{
    const std::size_t a = std::min(i, j);
    const std::size_t b = std::max(i, j);
    const std::size_t k = configurations.size();
    if (a == b || b >= k)
        return nullptr;
    // Pairs of rows before a: (k − 1) + (k − 2) + … + (k − a).
    const std::size_t place = a * k - a * (a + 1) / 2 + (b - a - 1);
    return place < pairs.size() ? &pairs[place] : nullptr;
}

QString PairMatrix::testName() const
{
    return rate ? u"McNemar (exact)"_s : u"sign test (exact)"_s;
}

PairMatrix computePairMatrix(RecordsView records, const PairMatrixOptions& options)
{
    PairMatrix matrix;
    matrix.metric = options.metric;
    matrix.by = options.by;
    matrix.adjust = options.adjust;
    matrix.alpha = options.alpha;
    matrix.bootstrap = options.bootstrap;
    if (!validKeys(options.by)) {
        matrix.error = u"configurations are made of model, strategy or both, each once"_s;
        return matrix;
    }
    if (const QString why = comparableMetricError(records, options.metric); !why.isEmpty()) {
        matrix.error = why;
        return matrix;
    }
    matrix.rate = findMetric(options.metric)->kind == MetricKind::Rate;
    matrix.configurations
        = options.configurations.empty() ? pairConfigurationsOf(records, options.by) : options.configurations;
    if (matrix.configurations.size() < 2) {
        matrix.error = matrix.configurations.empty()
            ? u"there are no configurations to compare"_s
            : u"comparing pairs needs at least two configurations; there is one (%1)"_s.arg(
                QString::fromStdString(matrix.configurations.front().label()));
        return matrix;
    }
    for (const PairConfiguration& c : matrix.configurations) {
        if (c.key.size() != options.by.size()
            || !std::equal(c.key.begin(), c.key.end(), options.by.begin(),
                [](const auto& kv, const std::string& key) { return kv.first == key; })) {
            matrix.error = u"configuration %1 is not made of the chosen keys"_s.arg(QString::fromStdString(c.label()));
            return matrix;
        }
    }

    std::vector<Answers> answers;
    answers.reserve(matrix.configurations.size());
    for (const PairConfiguration& c : matrix.configurations)
        answers.push_back(answersOf(records, c, options.metric));
    for (std::size_t i = 0; i < matrix.configurations.size(); ++i) {
        for (std::size_t j = i + 1; j < matrix.configurations.size(); ++j) {
            PairCell cell;
            cell.a = i;
            cell.b = j;
            matrix.pairs.push_back(cell);
        }
    }
    // Each pair's bootstrap draws from its own generator seeded alike, so the order they run in changes nothing.
    QtConcurrent::blockingMap(matrix.pairs, [&](PairCell& cell) {
        const PairedRecords paired = join(answers[cell.a], answers[cell.b]);
        cell.onlyA = paired.onlyA;
        cell.onlyB = paired.onlyB;
        cell.stats = comparePairedRecords(paired, options.metric, matrix.rate, options.bootstrap);
    });
    setAdjustment(matrix, options.adjust, options.alpha);
    return matrix;
}

void setAdjustment(PairMatrix& matrix, PAdjustMethod method, double alpha)
{
    matrix.adjust = method;
    matrix.alpha = alpha;
    std::vector<double> p;
    p.reserve(matrix.pairs.size());
    matrix.tested = 0;
    for (const PairCell& cell : matrix.pairs) {
        p.push_back(cell.tested() ? cell.stats.pValue : std::numeric_limits<double>::quiet_NaN());
        matrix.tested += cell.tested() ? 1 : 0;
    }
    const std::vector<double> adjusted = adjustPValues(p, method);
    for (std::size_t i = 0; i < matrix.pairs.size(); ++i) {
        matrix.pairs[i].adjustedP = adjusted[i];
        matrix.pairs[i].significant = !std::isnan(adjusted[i]) && adjusted[i] <= alpha;
    }
}

} // namespace structscope
