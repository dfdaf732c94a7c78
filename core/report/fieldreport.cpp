// SPDX-License-Identifier: Apache-2.0
#include "report/fieldreport.h"

#include "scoring/metricregistry.h"
#include "stats/binomial.h"
#include "stats/intervals.h"
#include "stats/percentile.h"
#include "stats/prng.h"

#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

namespace structscope {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A response's tally of one field without its key: what its resampling class is.
using TallyCounts = std::array<std::uint32_t, 7>;

TallyCounts countsOf(const FieldTally& t)
{
    return { t.elements, t.correct, t.lenient, t.missing, t.wrong, t.invented, t.typeError };
}

struct TallyHash
{
    std::size_t operator()(const TallyCounts& c) const
    {
        std::uint64_t h = 1469598103934665603ull;
        for (const std::uint32_t v : c)
            h = (h ^ v) * 1099511628211ull;
        return std::size_t(h);
    }
};

/// One field of one group on its way to a ReportGroup.
struct Cell
{
    std::size_t group = 0;
    FieldKey field = 0;
    std::string path;
    FieldCounts counts;
    bool single = true; ///< every response had one element of the field
    std::unordered_map<TallyCounts, std::uint64_t, TallyHash> classes; ///< for the bootstrap
    ReportGroup out;
};

/// The shares whose intervals are computed: numerators of FieldCounts over its elements.
constexpr std::array<std::pair<std::string_view, qint64 FieldCounts::*>, 6> kShares = { {
    { "field.accuracy", &FieldCounts::lenient },
    { "field.accuracy_strict", &FieldCounts::correct },
    { "field.missing", &FieldCounts::missing },
    { "field.wrong", &FieldCounts::wrong },
    { "field.invented", &FieldCounts::invented },
    { "field.type_error", &FieldCounts::typeError },
} };

void finishCell(Cell& cell, const AggregateOptions& options)
{
    ReportGroup& g = cell.out;
    const FieldCounts& c = cell.counts;
    g.n = int(c.responses);
    for (const std::string& id : fieldMetricIds())
        g.mean[id] = c.value(id);
    if (c.elements == 0)
        return;
    if (cell.single) {
        // One element per response: the elements are the responses, and each share a rate over them.
        for (const auto& [id, member] : kShares)
            g.ci95[std::string(id)] = wilsonInterval(c.*member, c.elements);
        return;
    }
    if (!options.intervals)
        return;
    // Elements of one response are not independent draws: responses are resampled (a cluster bootstrap of the
    // ratio), as multinomial counts over their distinct tallies.
    std::vector<TallyCounts> items;
    std::vector<std::uint64_t> frequencies;
    items.reserve(cell.classes.size());
    for (const auto& [tally, frequency] : cell.classes)
        items.push_back(tally);
    std::sort(items.begin(), items.end()); // a fixed order: the same draws whatever the hash table's order
    frequencies.reserve(items.size());
    for (const TallyCounts& t : items)
        frequencies.push_back(cell.classes.at(t));
    const int resamples = std::max(1, options.bootstrap.resamples);
    std::array<std::vector<double>, kShares.size()> samples;
    for (auto& s : samples)
        s.reserve(std::size_t(resamples));
    Xoshiro256 rng(options.bootstrap.seed);
    std::vector<std::uint64_t> drawn(items.size());
    constexpr std::array<std::size_t, kShares.size()> kColumn = { 2, 1, 3, 4, 5, 6 }; // in TallyCounts
    for (int b = 0; b < resamples; ++b) {
        drawMultinomial(rng, std::uint64_t(c.responses), frequencies, drawn);
        std::array<double, 7> sums {};
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (drawn[i] == 0)
                continue;
            for (std::size_t f = 0; f < sums.size(); ++f)
                sums[f] += double(drawn[i]) * double(items[i][f]);
        }
        if (sums[0] <= 0)
            continue; // no element drawn: no share
        for (std::size_t m = 0; m < kShares.size(); ++m)
            samples[m].push_back(sums[kColumn[m]] / sums[0]);
    }
    const double tail = (1.0 - options.bootstrap.confidence) / 2.0;
    for (std::size_t m = 0; m < kShares.size(); ++m) {
        std::sort(samples[m].begin(), samples[m].end());
        g.ci95[std::string(kShares[m].first)] = samples[m].empty()
            ? Interval {}
            : Interval { quantileOfSorted(samples[m], tail), quantileOfSorted(samples[m], 1.0 - tail) };
    }
}

} // namespace

std::string fieldRoot(std::string_view path)
{
    if (path.starts_with('['))
        return "[]"; // a root array's elements
    return std::string(path.substr(0, path.find_first_of(".[")));
}

bool groupsByField(const std::vector<std::string>& groupBy)
{
    return std::any_of(groupBy.begin(), groupBy.end(),
        [](const std::string& key) { return key == kFieldGroupKey || key == kFieldRootGroupKey; });
}

void FieldCounts::add(const FieldTally& t, std::uint64_t times)
{
    const auto k = qint64(times);
    responses += k;
    elements += k * t.elements;
    correct += k * t.correct;
    lenient += k * t.lenient;
    missing += k * t.missing;
    wrong += k * t.wrong;
    invented += k * t.invented;
    typeError += k * t.typeError;
}

double FieldCounts::value(std::string_view metricId) const
{
    if (metricId == "field.elements")
        return double(elements);
    for (const auto& [id, member] : kShares) {
        if (id == metricId)
            return elements > 0 ? double(this->*member) / double(elements) : kNaN;
    }
    return kNaN;
}

const std::vector<std::string>& fieldMetricIds()
{
    static const std::vector<std::string> ids = [] {
        std::vector<std::string> out;
        for (const MetricInfo& metric : familyMetrics("field"))
            out.emplace_back(metric.id);
        return out;
    }();
    return ids;
}

Report aggregateFields(RecordsView records, const AggregateOptions& options)
{
    Report report;
    report.groupBy = options.groupBy;
    std::vector<std::string> others;
    std::size_t fieldAt = 0;
    bool roots = false;
    for (std::size_t k = 0; k < options.groupBy.size(); ++k) {
        if (options.groupBy[k] == kFieldGroupKey || options.groupBy[k] == kFieldRootGroupKey) {
            fieldAt = k;
            roots = options.groupBy[k] == kFieldRootGroupKey;
        } else {
            others.push_back(options.groupBy[k]);
        }
    }
    // By top-level key: each field's root, interned as a field key of its own, looked up once per field.
    std::vector<std::int64_t> rootOf;
    const auto rootKey = [&rootOf](FieldKey field) {
        if (rootOf.size() <= field)
            rootOf.resize(std::size_t(field) + 1, -1);
        if (rootOf[field] < 0)
            rootOf[field] = fieldKey(fieldRoot(fieldPathOf(field)));
        return FieldKey(rootOf[field]);
    };
    FieldTallies summed; // one response's tallies by root
    const std::vector<RecordGroup> groups = groupRecordsBy(records, others);

    // Each group's fields in a table indexed by field key (keys are small numbers), then sorted by path.
    std::vector<Cell> cells;
    const bool classes = options.intervals;
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
        const RecordGroup& group = groups[gi];
        // Verdicts share equal tallies (shareTallies()): each distinct object is counted, then added once with its
        // frequency — a million responses are a few thousand objects. The sums are integers: the order of adding
        // does not matter.
        std::unordered_map<const FieldTallies*, std::uint64_t> frequency;
        for (const ScoredRecord* r : group.records) {
            if (const FieldTallies* tallies = r->verdict.fields.get())
                ++frequency[tallies];
        }
        std::vector<std::int64_t> cellOf;
        const std::size_t first = cells.size();
        for (const auto& [shared, times] : frequency) {
            const FieldTallies* tallies = shared;
            if (roots) {
                summed.clear();
                for (const FieldTally& t : *tallies) {
                    const FieldKey root = rootKey(t.field);
                    auto it = std::find_if(
                        summed.begin(), summed.end(), [root](const FieldTally& s) { return s.field == root; });
                    if (it == summed.end()) {
                        FieldTally added;
                        added.field = root;
                        summed.push_back(added);
                        it = summed.end() - 1;
                    }
                    it->elements += t.elements;
                    it->correct += t.correct;
                    it->lenient += t.lenient;
                    it->missing += t.missing;
                    it->wrong += t.wrong;
                    it->invented += t.invented;
                    it->typeError += t.typeError;
                }
                tallies = &summed;
            }
            for (const FieldTally& t : *tallies) {
                if (cellOf.size() <= t.field)
                    cellOf.resize(std::size_t(t.field) + 1, -1);
                std::int64_t& at = cellOf[t.field];
                if (at < 0) {
                    at = std::int64_t(cells.size());
                    Cell& cell = cells.emplace_back();
                    cell.group = gi;
                    cell.field = t.field;
                    cell.path = fieldPathOf(t.field);
                }
                Cell& cell = cells[std::size_t(at)];
                cell.counts.add(t, times);
                cell.single = cell.single && t.elements == 1;
                if (classes)
                    cell.classes[countsOf(t)] += times;
            }
        }
        std::sort(cells.begin() + std::ptrdiff_t(first), cells.end(),
            [](const Cell& a, const Cell& b) { return a.path < b.path; });
    }
    QtConcurrent::blockingMap(cells, [&](Cell& cell) { finishCell(cell, options); });
    for (Cell& cell : cells) {
        const RecordGroup& group = groups[cell.group];
        ReportGroup& g = cell.out;
        std::size_t other = 0;
        for (std::size_t k = 0; k < options.groupBy.size(); ++k) {
            if (k == fieldAt)
                g.key.emplace_back(options.groupBy[k], cell.path);
            else
                g.key.emplace_back(options.groupBy[k], group.key[other++]);
        }
        g.errored = group.errored;
        report.groups.push_back(std::move(g));
    }
    // Sorted by the whole key, as aggregate() sorts its groups (the field need not be the last key).
    std::stable_sort(report.groups.begin(), report.groups.end(),
        [](const ReportGroup& a, const ReportGroup& b) { return a.key < b.key; });
    if (!report.groups.empty())
        report.metrics = fieldMetricIds();
    return report;
}

bool fieldWrong(const Verdict& verdict, FieldKey field)
{
    if (!verdict.fields)
        return false;
    for (const FieldTally& t : *verdict.fields) {
        if (t.field == field)
            return t.lenient < t.elements;
    }
    return false;
}

} // namespace structscope
