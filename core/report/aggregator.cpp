// SPDX-License-Identifier: Apache-2.0
#include "report/aggregator.h"

#include "scoring/metricregistry.h"
#include "stats/binomial.h"
#include "stats/bootstrap.h"
#include "stats/intervals.h"
#include "stats/percentile.h"
#include "stats/prng.h"
#include "stats/repeats.h"

#include <QHash>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>

namespace structscope {

namespace {

using Group = std::vector<const ScoredRecord*>;

/// How many records ahead a pass over records asks for the fields it will read (a record is ~600 bytes).
constexpr std::size_t kPrefetchAhead = 8;

std::string familyOf(std::string_view metricId)
{
    return std::string(metricId.substr(0, metricId.find('.')));
}

// The micro metrics of the extraction family, in one pass over summed counts.
constexpr std::array<std::string_view, 6> kMicroIds = { "extraction.score", "extraction.f1_micro",
    "extraction.doc_micro", "extraction.f1_keys", "extraction.f1_values", "extraction.f1_values_lenient" };

std::array<double, kMicroIds.size()> microValues(const ExtractionTotals& t)
{
    return { t.score(), t.f1Micro(), t.docMicro(), t.f1Keys(), t.f1Values(), t.f1ValuesLenient() };
}

using Sums = std::array<double, ExtractionAdds::Count>;

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

/// The micro metrics' point estimates from the totals of a group's extraction records.
void addMicroEstimates(const ExtractionTotals& all, ReportGroup& g)
{
    const auto values = microValues(all);
    for (std::size_t m = 0; m < kMicroIds.size(); ++m)
        g.mean[std::string(kMicroIds[m])] = values[m];
}

/// Micro metrics (from `all`, the records' totals as the group's blocks sum them) and their bootstrap intervals
/// (resampling records, recomputing from counts). Records that add the
/// same amounts are one class: a large group with few classes is resampled as multinomial counts over them; one
/// with many tallies its drawn indices per class; a small one sums the drawn records' ExtractionAdds from one flat
/// array (in draw order, so the sums are those ExtractionTotals::add makes; the counts among them are integers,
/// summed exactly either way). Without intervals (AggregateOptions::intervals), the values only.

void addMicro(const std::vector<const ExtractionRecord*>& records, const ExtractionTotals& all,
    const AggregateOptions& options, ReportGroup& g)
{
    if (records.empty())
        return;
    addMicroEstimates(all, g);
    if (!options.intervals)
        return;
    const BootstrapOptions& bootstrap = options.bootstrap;

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
    std::vector<std::uint32_t> classOf; // each record's class, when the classes were found
    if (bootstrapMayUseCounts(bootstrap, records.size())) {
        std::vector<MicroItem> items;
        items.reserve(records.size());
        for (const ExtractionRecord* r : records)
            items.push_back(microItem(*r));
        // The classes in `<` order, as distinctItems() gives them, and which class each record is in.
        std::vector<std::uint32_t> order(items.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = std::uint32_t(i);
        std::sort(
            order.begin(), order.end(), [&items](std::uint32_t a, std::uint32_t b) { return items[a] < items[b]; });
        classOf.resize(items.size());
        for (std::size_t i = 0; i < order.size();) {
            std::size_t j = i + 1;
            while (j < order.size() && !(items[order[i]] < items[order[j]]))
                ++j;
            for (std::size_t t = i; t < j; ++t)
                classOf[order[t]] = std::uint32_t(classes.items.size());
            classes.items.push_back(items[order[i]]);
            classes.frequencies.push_back(std::uint64_t(j - i));
            i = j;
        }
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
    } else if (!classOf.empty()) {
        // Too many classes for the counts method: record indices are drawn as below (the same generator, the same
        // indices in the same order) but counted per class — a draw touches two small arrays instead of a 48-byte
        // row — and a resample's sums are each class's adds times its count, summed in class order as the counts
        // method sums them.
        std::vector<std::array<double, ExtractionAdds::Count>> adds(classes.items.size());
        for (std::size_t c = 0; c < adds.size(); ++c)
            adds[c] = extractionAdds(*classes.items[c].record).values;
        // Four tallies taken in turn, added up after: consecutive draws of one large class would otherwise each
        // wait for the previous increment of the same counter.
        const std::size_t k = classes.items.size();
        std::vector<std::uint32_t> tallies(4 * k);
        std::vector<std::uint32_t> drawn(k);
        for (int b = 0; b < resamples; ++b) {
            std::fill(tallies.begin(), tallies.end(), 0);
            std::uint64_t j = 0;
            for (; j + 4 <= n; j += 4) {
                ++tallies[classOf[std::size_t(rng.bounded(n))]];
                ++tallies[k + classOf[std::size_t(rng.bounded(n))]];
                ++tallies[2 * k + classOf[std::size_t(rng.bounded(n))]];
                ++tallies[3 * k + classOf[std::size_t(rng.bounded(n))]];
            }
            for (; j < n; ++j)
                ++tallies[classOf[std::size_t(rng.bounded(n))]];
            for (std::size_t c = 0; c < k; ++c)
                drawn[c] = tallies[c] + tallies[k + c] + tallies[2 * k + c] + tallies[3 * k + c];
            Sums sums {};
            for (std::size_t c = 0; c < k; ++c) {
                if (drawn[c] == 0)
                    continue;
                const double times = drawn[c];
                for (std::size_t f = 0; f < sums.size(); ++f)
                    sums[f] += times * adds[c][f];
            }
            keep(b, ExtractionTotals::fromSums(sums, int(n)));
        }
    } else {
        // One 48-byte row per record: the two partial-credit sums as doubles, the counts as integers (summed
        // exactly, as the doubles of ExtractionTotals sum them). Points do not enter the micro metrics.
        struct Row
        {
            double valueTp = 0;
            double valueTpLenient = 0;
            std::array<std::int32_t, 8> counts {};
        };
        constexpr std::array<ExtractionAdds::Index, 7> kCounted
            = { ExtractionAdds::GoldValues, ExtractionAdds::Failed, ExtractionAdds::Correct, ExtractionAdds::KeyTp,
                  ExtractionAdds::KeyFp, ExtractionAdds::KeyFn, ExtractionAdds::PredictedValues };
        std::vector<Row> rows;
        rows.reserve(records.size());
        for (const ExtractionRecord* r : records) {
            const auto a = extractionAdds(*r).values;
            Row row;
            row.valueTp = a[ExtractionAdds::ValueTp];
            row.valueTpLenient = a[ExtractionAdds::ValueTpLenient];
            for (std::size_t c = 0; c < kCounted.size(); ++c)
                row.counts[c] = std::int32_t(a[kCounted[c]]);
            rows.push_back(row);
        }
        constexpr std::size_t kBatch = 256; // indices drawn ahead of the loads, as bootstrapMean does
        // Counts below 2^22 cannot overflow 32 bits in a batch of 256 draws (a record's gold values rarely reach
        // thousands); larger ones are summed in 64 bits draw by draw.
        bool narrow = true;
        for (const Row& row : rows) {
            for (std::int32_t c : row.counts)
                narrow = narrow && c < (1 << 22) && c > -(1 << 22);
        }
        std::array<std::size_t, kBatch> indices {};
        for (int b = 0; b < resamples; ++b) {
            double valueTp = 0;
            double valueTpLenient = 0;
            std::array<std::int64_t, 8> counts {};
            for (std::uint64_t done = 0; done < n;) {
                const std::size_t size = std::size_t(std::min<std::uint64_t>(kBatch, n - done));
                for (std::size_t j = 0; j < size; ++j)
                    indices[j] = std::size_t(rng.bounded(n));
                if (narrow) {
                    // 32-bit lanes the processor adds four at a time; a batch cannot overflow them (see narrow).
                    std::array<std::int32_t, 8> batchCounts {};
                    for (std::size_t j = 0; j < size; ++j) {
                        const Row& row = rows[indices[j]];
                        valueTp += row.valueTp;
                        valueTpLenient += row.valueTpLenient;
                        for (std::size_t c = 0; c < batchCounts.size(); ++c)
                            batchCounts[c] += row.counts[c];
                    }
                    for (std::size_t c = 0; c < counts.size(); ++c)
                        counts[c] += batchCounts[c];
                } else {
                    for (std::size_t j = 0; j < size; ++j) {
                        const Row& row = rows[indices[j]];
                        valueTp += row.valueTp;
                        valueTpLenient += row.valueTpLenient;
                        for (std::size_t c = 0; c < counts.size(); ++c)
                            counts[c] += row.counts[c];
                    }
                }
                done += size;
            }
            Sums sums {};
            sums[ExtractionAdds::ValueTp] = valueTp;
            sums[ExtractionAdds::ValueTpLenient] = valueTpLenient;
            for (std::size_t c = 0; c < kCounted.size(); ++c)
                sums[kCounted[c]] = double(counts[c]);
            keep(b, ExtractionTotals::fromSums(sums, int(n)));
        }
    }
    const double tail = (1.0 - bootstrap.confidence) / 2.0;
    for (std::size_t m = 0; m < kMicroIds.size(); ++m) {
        std::sort(samples[m].begin(), samples[m].end());
        g.ci95[std::string(kMicroIds[m])]
            = { quantileOfSorted(samples[m], tail), quantileOfSorted(samples[m], 1.0 - tail) };
    }
}

/// The per-record metrics (Rate and Mean) of the chosen families, each with its column number, and the column of
/// each interned metric key (MetricValues stores keys): one array lookup per value of a record.
class MetricColumns
{
public:
    explicit MetricColumns(const std::set<std::string>& families)
    {
        for (const MetricInfo& metric : allMetrics()) {
            if (families.contains(familyOf(metric.id))
                && (metric.kind == MetricKind::Rate || metric.kind == MetricKind::Mean)) {
                const MetricKey key = metricKey(metric.id);
                if (m_byKey.size() <= key)
                    m_byKey.resize(std::size_t(key) + 1, -1);
                m_byKey[key] = int(m_metrics.size());
                if (metric.id == "extraction.strategy_points")
                    m_extractionMarker = int(m_metrics.size());
                m_metrics.push_back(&metric);
            }
        }
    }

    std::size_t size() const { return m_metrics.size(); }
    const MetricInfo& metric(std::size_t column) const { return *m_metrics[column]; }
    /// The column of extraction.strategy_points, which every record of the extraction family carries (-1: none).
    int extractionMarker() const { return m_extractionMarker; }

    /// Column of the metric with this key, -1 when it is not one of the metrics (keys interned after this object
    /// was made are none of them: its metrics' keys were interned when it was made).
    int column(MetricKey key) const { return key < m_byKey.size() ? m_byKey[key] : -1; }

private:
    std::vector<const MetricInfo*> m_metrics;
    std::vector<int> m_byKey;
    int m_extractionMarker = -1;
};

/// One per-record metric of one group, computed on its own (several run at once) and then added to the group.
struct PerRecordResult
{
    bool present = false;
    double mean = 0;
    Interval ci;
    bool hasCi = true; ///< false: computed without intervals
    std::optional<double> weightedMean;
};

/// What the ladder family's group values (cost per success, latency percentiles, consistency and pass^k) need of
/// a record, gathered in the same pass as the metric columns.
struct LadderItem
{
    qint64 run = 0;
    qint64 caseRow = 0;
    const QString* suite = nullptr;
    const QString* caseId = nullptr;
    LadderLabel ladder = LadderLabel::InvalidJson;
};

/// A metric column's sums, from which its point estimates are computed (computeFromSums()): gathered instead of its
/// values when no interval is wanted, so a million values (and their weights) need not be held first.
struct ColumnSums
{
    qint64 count = 0;
    qint64 successes = 0; ///< values above 0.5 (a rate's successes)
    double sum = 0;
    bool finite = true;
    double weightSum = 0; ///< every weight, NaN and negative ones too
    double weighted = 0; ///< weightedMeanOf()'s sums: positive weights only
    double weightTotal = 0;
    bool weightsValid = true; ///< no weight is negative or not finite

    void add(double value, double weight)
    {
        ++count;
        successes += value > 0.5 ? 1 : 0;
        sum += value;
        finite = finite && std::isfinite(value);
        weightSum += weight;
        if (!std::isfinite(weight) || weight < 0.0)
            weightsValid = false;
        else if (weight != 0.0) {
            weighted += weight * value;
            weightTotal += weight;
        }
    }

    /// Adds the sums of the records after these (blocks are merged in order: the order is part of the result).
    void merge(const ColumnSums& other)
    {
        count += other.count;
        successes += other.successes;
        sum += other.sum;
        finite = finite && other.finite;
        weightSum += other.weightSum;
        weighted += other.weighted;
        weightTotal += other.weightTotal;
        weightsValid = weightsValid && other.weightsValid;
    }
};

/// Records of a group per block of sums. A group's sums are each block's (its records added in order), the blocks
/// then added in order — whichever path computes them, so the point estimates are the same with intervals or
/// without, and after a change to some records (a gold edit) only their blocks are summed again (PointEstimates).
constexpr std::size_t kSumBlock = 256;

/// A group's repeats (its ladder items) laid out case after case, with each case's part of consistency and pass^k, so
/// that a case whose labels changed is computed again alone (see repeatLayout(), addGroupValues()).
struct RepeatLayout
{
    struct CaseTerm
    {
        double pass = 0.0; ///< passAllProbability() of its samples, when complete
        bool consistent = false; ///< its samples all carry the same label
        bool complete = false; ///< it has k samples or more: it counts in pass^k
    };
    int k = 0; ///< the most samples any case has: below 2, no repeat values
    std::vector<RepeatSample<LadderLabel>> samples; ///< case after case, each case's in the items' order
    std::vector<std::size_t> caseEnds; ///< where each case's samples end
    std::vector<std::uint32_t> sampleOf; ///< per item: its sample
    std::vector<CaseTerm> cases;

    /// Case c's term, from its samples.
    void computeCase(std::size_t c);
    /// Item `item` now carries `label`: its case is computed again. Returns how many more items are correct (−1, 0, 1).
    int relabel(std::size_t item, LadderLabel label);
    /// Consistency and pass^k from the cases' terms, as repeatStats() of all the samples gives them.
    void putValues(ReportGroup& g) const;
};

/// A group on its way to a ReportGroup: each metric column's sums (and its values in record order, for intervals),
/// the extraction totals (and records) for the micro metrics and the ladder facts — all read in one pass over its
/// records, which are large and scattered, so each is visited once.
struct GroupWork
{
    const Group* group = nullptr;
    ReportGroup out;
    bool keepValues = false; ///< intervals are wanted: each column's values and the extraction records are kept
    std::vector<std::vector<double>> values; ///< for the bootstrap, when intervals are wanted
    std::vector<std::vector<ColumnSums>> blockSums; ///< [block][column], see kSumBlock
    std::vector<ExtractionTotals> microBlocks; ///< the extraction records' totals per block
    std::vector<ColumnSums> sums; ///< each column's: the blocks' sums added in order
    ExtractionTotals microTotals; ///< the blocks' totals added in order
    bool anyExtraction = false;
    std::vector<const ExtractionRecord*> extraction; ///< for the micro bootstrap, when intervals are wanted
    std::vector<PerRecordResult> results;
    std::vector<LadderItem> ladder; ///< one per record of the group, in its order
    RepeatLayout repeats; ///< of `ladder`, made by addGroupValues()
    qint64 correct = 0; ///< items of `ladder` labelled correct, counted by addGroupValues()
    std::vector<double> latencies;
    std::optional<LatencyPercentiles> latency;
    double cost = 0;
    bool anyCost = false;
};

/// A column's point estimates from its sums: the rate and its Wilson interval, the mean (NaN when a value is not
/// finite, as bootstrapMean() gives it) without interval, the weighted mean. What a view paints first.
void computeFromSums(const MetricInfo& metric, const ColumnSums& sums, PerRecordResult& out)
{
    if (sums.count == 0)
        return;
    out.present = true;
    if (metric.kind == MetricKind::Rate) {
        const RateEstimate rate = estimateRate(sums.successes, sums.count);
        out.mean = rate.rate;
        out.ci = rate.ci;
    } else {
        out.mean = sums.finite ? sums.sum / double(sums.count) : std::numeric_limits<double>::quiet_NaN();
        out.hasCi = false;
    }
    if (sums.weightSum > 0) {
        out.weightedMean = sums.weightsValid && sums.weightTotal > 0.0 ? sums.weighted / sums.weightTotal
                                                                       : std::numeric_limits<double>::quiet_NaN();
    }
}

/// The point estimates and bootstrap intervals of a group's columns that `bootstrapped` names (means, with
/// intervals), all bootstraps in one call: columns of one length draw the same indices, once (bootstrapMeans()).
/// The mean stays the one from the sums (the blocks'), as without intervals.
template <typename Bootstrapped>
void computeMeansWithIntervals(
    const MetricColumns& columns, const Bootstrapped& bootstrapped, const AggregateOptions& options, GroupWork& w)
{
    std::vector<std::size_t> chosen;
    std::vector<std::span<const double>> values;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (!bootstrapped(c))
            continue;
        computeFromSums(columns.metric(c), w.sums[c], w.results[c]);
        if (w.results[c].present) {
            chosen.push_back(c);
            values.emplace_back(w.values[c]);
        }
    }
    const std::vector<MeanEstimate> estimates = bootstrapMeans(values, options.bootstrap);
    for (std::size_t i = 0; i < chosen.size(); ++i) {
        w.results[chosen[i]].ci = estimates[i].ci;
        w.results[chosen[i]].hasCi = true;
    }
}

/// Sums block `block` of a group's records (kSumBlock of them from block · kSumBlock) into its column sums and
/// extraction totals, which must be empty. With `collect` (the first pass over the group) also gathers what else
/// the aggregate needs of each record: its values and extraction record for the bootstraps when intervals are wanted
/// (GroupWork::keepValues), and the ladder facts when `ladder` is set.
void gatherBlock(
    const MetricColumns& columns, bool micro, bool ladder, bool collect, std::size_t block, GroupWork& work)
{
    const Group& group = *work.group;
    const std::size_t first = block * kSumBlock;
    const std::size_t last = std::min(group.size(), first + kSumBlock);
    std::vector<ColumnSums>& sums = work.blockSums[block];
    ExtractionTotals* const microSums = micro ? &work.microBlocks[block] : nullptr;
    const bool values = collect && work.keepValues;
    std::vector<const ScoredRecord*> filledBy(columns.size(), nullptr);
    for (std::size_t at = first; at < last; ++at) {
        const ScoredRecord* r = group[at];
        // The records are large and apart: asking for a later one's fields now hides most of the wait for memory.
        if (at + kPrefetchAhead < group.size()) {
            const ScoredRecord* later = group[at + kPrefetchAhead];
            __builtin_prefetch(&later->verdict.values);
            __builtin_prefetch(&later->verdict.ladder);
            __builtin_prefetch(&later->latencyMs);
            if (micro) {
                // Its extraction counts span two cache lines of their own.
                const char* extraction = reinterpret_cast<const char*>(&later->verdict.extraction);
                __builtin_prefetch(extraction);
                __builtin_prefetch(extraction + sizeof(ExtractionRecord) - 1);
            }
        }
        const auto& recordValues = r->verdict.values;
        bool extraction = false;
        for (std::size_t i = 0; i < recordValues.size(); ++i) {
            const int column = columns.column(recordValues.key(i));
            if (column < 0)
                continue;
            // A record lists each id once; should one repeat, the first value counts, as Verdict::value() reads it.
            if (filledBy[std::size_t(column)] == r)
                continue;
            filledBy[std::size_t(column)] = r;
            sums[std::size_t(column)].add(recordValues.value(i), r->weight);
            if (values)
                work.values[std::size_t(column)].push_back(recordValues.value(i));
            extraction = extraction || column == columns.extractionMarker();
        }
        if (micro && extraction) {
            microSums->add(r->verdict.extraction);
            if (values)
                work.extraction.push_back(&r->verdict.extraction);
        }
        if (ladder && collect) {
            work.ladder.push_back({ r->runId, r->caseRow, &r->suite, &r->caseId, r->verdict.ladder });
            if (r->latencyMs)
                work.latencies.push_back(*r->latencyMs);
            if (r->cost) {
                work.cost += *r->cost;
                work.anyCost = true;
            }
        }
    }
}

/// The group's sums from its blocks', added in block order.
void foldBlocks(std::size_t columnCount, GroupWork& work)
{
    work.sums.assign(columnCount, {});
    for (const std::vector<ColumnSums>& block : work.blockSums) {
        for (std::size_t c = 0; c < columnCount; ++c)
            work.sums[c].merge(block[c]);
    }
    work.microTotals = {};
    for (const ExtractionTotals& block : work.microBlocks)
        work.microTotals.add(block);
    work.anyExtraction = work.microTotals.records > 0;
}

/// Sorts a group's records into its metric columns' sums, block by block (and into the columns' values too when
/// intervals are wanted), in one pass over each record's values, and gathers the ladder facts when `ladder` is set.
void gatherGroup(const MetricColumns& columns, bool micro, bool ladder, bool sumsOnly, GroupWork& work)
{
    const std::size_t blocks = (work.group->size() + kSumBlock - 1) / kSumBlock;
    work.results.assign(columns.size(), {});
    work.blockSums.assign(blocks, std::vector<ColumnSums>(columns.size()));
    work.microBlocks.assign(micro ? blocks : 0, {});
    work.keepValues = !sumsOnly;
    if (!sumsOnly) {
        work.values.assign(columns.size(), {});
        for (auto& column : work.values)
            column.reserve(work.group->size());
    }
    if (ladder)
        work.ladder.reserve(work.group->size());
    for (std::size_t block = 0; block < blocks; ++block)
        gatherBlock(columns, micro, ladder, true, block, work);
    foldBlocks(columns.size(), work);
}

/// Consistency and pass^k (docs/metrics.md §5, "Repeats") when the group holds cases asked more than once: a case is
/// (run, suite, case id), its samples are its repeats; k is the most samples any case of the group has. Cases
/// are taken in (run, case row) order, or (run, suite, case id) when some record has no case row (not read from a
/// store): either way the same records give the same sums in the same order, whatever order they come in.
RepeatLayout repeatLayout(const std::vector<LadderItem>& items)
{
    RepeatLayout layout;
    // Records read from a store also name their case's row, one per (suite, case id) — and a run answers one suite —
    // so when every record has one, a case is (run, row): two integers instead of two strings.
    const bool byRow = std::all_of(items.begin(), items.end(), [](const LadderItem& r) { return r.caseRow != 0; });
    const auto sameCase = [byRow](const LadderItem& a, const LadderItem& b) {
        return a.run == b.run && (byRow ? a.caseRow == b.caseRow : *a.suite == *b.suite && *a.caseId == *b.caseId);
    };
    const auto caseBefore = [byRow](const LadderItem& x, const LadderItem& y) {
        if (byRow)
            return std::tie(x.run, x.caseRow) < std::tie(y.run, y.caseRow);
        return std::tie(x.run, *x.suite, *x.caseId) < std::tie(y.run, *y.suite, *y.caseId);
    };
    // A case's repeats are usually stored one after the other: the records fall into stretches of one case each,
    // which are sorted (stably: a case's samples stay in record order) and joined — a few allocations per group,
    // where a map of cases to lists of samples made several per case.
    std::vector<std::pair<std::size_t, std::size_t>> stretches; // [first, last) of items
    for (std::size_t i = 0; i < items.size();) {
        std::size_t j = i + 1;
        while (j < items.size() && sameCase(items[i], items[j]))
            ++j;
        stretches.emplace_back(i, j);
        i = j;
    }
    std::stable_sort(stretches.begin(), stretches.end(),
        [&](const auto& a, const auto& b) { return caseBefore(items[a.first], items[b.first]); });
    layout.samples.reserve(items.size());
    layout.sampleOf.resize(items.size());
    std::size_t k = 0;
    for (std::size_t s = 0; s < stretches.size(); ++s) {
        for (std::size_t i = stretches[s].first; i < stretches[s].second; ++i) {
            layout.sampleOf[i] = std::uint32_t(layout.samples.size());
            layout.samples.push_back({ items[i].ladder, items[i].ladder == LadderLabel::Correct });
        }
        const bool lastOfCase
            = s + 1 == stretches.size() || !sameCase(items[stretches[s].first], items[stretches[s + 1].first]);
        if (lastOfCase) {
            k = std::max(k, layout.samples.size() - (layout.caseEnds.empty() ? 0 : layout.caseEnds.back()));
            layout.caseEnds.push_back(layout.samples.size());
        }
    }
    layout.k = int(k);
    if (layout.k < 2)
        return layout;
    layout.cases.resize(layout.caseEnds.size());
    for (std::size_t c = 0; c < layout.caseEnds.size(); ++c)
        layout.computeCase(c);
    return layout;
}

void RepeatLayout::computeCase(std::size_t c)
{
    const std::size_t begin = c == 0 ? 0 : caseEnds[c - 1];
    const std::size_t end[] = { caseEnds[c] - begin };
    const RepeatStats one
        = repeatStats<LadderLabel>(std::span<const RepeatSample<LadderLabel>>(samples).subspan(begin, end[0]),
            std::span<const std::size_t>(end), k);
    cases[c] = { one.passCases > 0 ? one.passHatK : 0.0, one.consistentCases > 0, one.passCases > 0 };
}

int RepeatLayout::relabel(std::size_t item, LadderLabel label)
{
    const std::uint32_t sample = sampleOf[item];
    const int correctMore = int(label == LadderLabel::Correct) - int(samples[sample].correct);
    samples[sample] = { label, label == LadderLabel::Correct };
    if (k >= 2) {
        const auto end = std::upper_bound(caseEnds.begin(), caseEnds.end(), std::size_t(sample));
        computeCase(std::size_t(end - caseEnds.begin()));
    }
    return correctMore;
}

void RepeatLayout::putValues(ReportGroup& g) const
{
    if (k < 2)
        return;
    // As repeatStats() over every case at once: the same counts, and the pass^k terms added in the same order.
    qint64 consistentCases = 0;
    qint64 passCases = 0;
    double passSum = 0.0;
    for (const CaseTerm& term : cases) {
        consistentCases += term.consistent ? 1 : 0;
        if (term.complete) {
            ++passCases;
            passSum += term.pass;
        }
    }
    if (!cases.empty())
        g.mean["ladder.consistency"] = static_cast<double>(consistentCases) / static_cast<double>(cases.size());
    if (passCases > 0)
        g.mean["ladder.pass_hat_k"] = passSum / static_cast<double>(passCases);
}

/// The ladder family's group values from the facts gatherGroup() collected (the latencies' percentiles taken once):
/// cost per success, consistency and pass^k, latency percentiles. The repeats' layout is made on the first call and
/// kept in `work`; a later call takes the ladder labels of the items at `relabelled` again (PointEstimates::update()).
void addGroupValues(GroupWork& work, const std::vector<std::uint32_t>* relabelled = nullptr)
{
    if (!work.latency && !work.latencies.empty()) {
        work.latency = latencyPercentiles(std::move(work.latencies));
        work.latencies = {};
    }
    ReportGroup& g = work.out;
    if (!relabelled) {
        work.correct = qint64(std::count_if(work.ladder.begin(), work.ladder.end(),
            [](const LadderItem& item) { return item.ladder == LadderLabel::Correct; }));
        work.repeats = repeatLayout(work.ladder);
    } else {
        for (const std::uint32_t item : *relabelled)
            work.correct += work.repeats.relabel(item, work.ladder[item].ladder);
    }
    if (work.anyCost)
        g.mean["ladder.cost_per_success"] = costPerSuccess(work.cost, work.correct);
    work.repeats.putValues(g);
    if (work.latency) {
        g.mean["ladder.latency_p50"] = work.latency->p50;
        g.mean["ladder.latency_p95"] = work.latency->p95;
        g.mean["ladder.latency_p99"] = work.latency->p99;
    }
}

/// The text field of a record a grouping key reads; nullptr for "run" (a number) and for unknown keys.
const QString ScoredRecord::*groupField(std::string_view key)
{
    static const std::array<std::pair<std::string_view, const QString ScoredRecord::*>, 10> fields = { {
        { "model", &ScoredRecord::model },
        { "strategy", &ScoredRecord::strategy },
        { "suite", &ScoredRecord::suite },
        { "category", &ScoredRecord::category },
        { "tier", &ScoredRecord::tier },
        { "schema_complexity", &ScoredRecord::tier },
        { "difficulty", &ScoredRecord::difficulty },
        { "source_kind", &ScoredRecord::sourceKind },
        { "modality", &ScoredRecord::modality },
        { "case", &ScoredRecord::caseId },
    } };
    for (const auto& [name, field] : fields) {
        if (name == key)
            return field;
    }
    return nullptr;
}

/// Small numbers for the values of one grouping key, so that records are grouped by integers, not strings. Two
/// QStrings of one value usually share their data (a run's model, a case's category), which is tried first.
class KeyInterner
{
public:
    explicit KeyInterner(const std::string& key)
        : m_field(groupField(key))
        , m_byRun(key == "run")
    { }

    std::uint32_t id(const ScoredRecord& r)
    {
        if (m_byRun)
            return m_runs.try_emplace(r.runId, std::uint32_t(m_runs.size())).first->second;
        if (!m_field)
            return 0; // an unknown key: one value, ""
        const QString& value = r.*m_field;
        if (m_lastData && value.constData() == m_lastData && value.size() == m_lastSize)
            return m_lastId;
        const auto it = m_strings.constFind(value);
        m_lastId = it != m_strings.cend() ? *it : *m_strings.insert(value, std::uint32_t(m_strings.size()));
        m_lastData = value.constData();
        m_lastSize = value.size();
        return m_lastId;
    }

    /// Asks for the field of a record id() will read soon.
    void prefetch(const ScoredRecord& r) const
    {
        if (m_field)
            __builtin_prefetch(&(r.*m_field));
        else if (m_byRun)
            __builtin_prefetch(&r.runId);
    }

    std::uint64_t cardinality() const
    {
        return m_byRun ? m_runs.size() : m_field ? std::uint64_t(m_strings.size()) : 1;
    }

private:
    const QString ScoredRecord::*m_field = nullptr;
    bool m_byRun = false;
    QHash<QString, std::uint32_t> m_strings;
    std::unordered_map<qint64, std::uint32_t> m_runs;
    const QChar* m_lastData = nullptr;
    qsizetype m_lastSize = 0;
    std::uint32_t m_lastId = 0;
};

/// Sorts records of `records` into their order there. Rare (groups merged after grouping), so it looks every
/// record up rather than keeping each record's place: records in chunks are not ordered by address.
void inRecordOrder(Group& group, RecordsView records)
{
    std::unordered_map<const ScoredRecord*, std::size_t> placeOf;
    placeOf.reserve(group.size());
    for (const ScoredRecord* r : group)
        placeOf.emplace(r, 0);
    records.forEach([&placeOf](const ScoredRecord& r, std::size_t index) {
        if (const auto it = placeOf.find(&r); it != placeOf.end())
            it->second = index;
    });
    std::sort(group.begin(), group.end(),
        [&placeOf](const ScoredRecord* a, const ScoredRecord* b) { return placeOf.at(a) < placeOf.at(b); });
}

/// A group of records by its key values: the records that are answers, in record order, and how many errored ones
/// (ScoredRecord::errored()) fell into it besides.
struct KeyedGroup
{
    std::vector<std::string> key;
    Group records;
    int errored = 0;
};

/// The records grouped by the keys, each group's answers in record order, groups in the order of their key values
/// (as strings). Values that differ as QStrings but not as UTF-8 (lone surrogates) are one group, as before. An
/// errored record is counted in its group's `errored`, never one of its records: no metric sees it. A group of
/// errored records only has no records. `placesOut` gets each group's records' places.
std::vector<KeyedGroup> groupRecords(RecordsView records, const std::vector<std::string>& groupBy,
    std::vector<std::vector<std::size_t>>* placesOut = nullptr)
{
    std::vector<KeyInterner> interners;
    interners.reserve(groupBy.size());
    for (const std::string& key : groupBy)
        interners.emplace_back(key);
    std::vector<std::uint32_t> ids(records.size() * groupBy.size());
    for (std::size_t s = 0, i = 0; s < records.spanCount(); ++s) {
        const std::span<const ScoredRecord> stretch = records.span(s);
        for (std::size_t j = 0; j < stretch.size(); ++j, ++i) {
            for (std::size_t k = 0; k < groupBy.size(); ++k) {
                if (j + kPrefetchAhead < stretch.size())
                    interners[k].prefetch(stretch[j + kPrefetchAhead]);
                ids[i * groupBy.size() + k] = interners[k].id(stretch[j]);
            }
        }
    }
    // Group numbers: the key ids as one mixed-radix number when that fits 64 bits, else the id tuple.
    std::uint64_t product = 1;
    bool fits = true;
    for (const KeyInterner& interner : interners)
        fits = fits && !__builtin_mul_overflow(product, std::max<std::uint64_t>(1, interner.cardinality()), &product);
    std::unordered_map<std::uint64_t, std::size_t> byNumber;
    std::map<std::vector<std::uint32_t>, std::size_t> byTuple;
    std::vector<Group> groups;
    std::vector<int> errored; // each group's errored records
    std::vector<std::vector<std::size_t>> places; // each group's records' places, when asked for
    std::vector<const ScoredRecord*> firsts;
    for (std::size_t i = 0; i < records.size(); ++i) {
        const ScoredRecord* record = &records[i];
        const std::uint32_t* key = ids.data() + i * groupBy.size();
        std::size_t index = 0;
        bool inserted = false;
        if (fits) {
            std::uint64_t number = 0;
            for (std::size_t k = 0; k < groupBy.size(); ++k)
                number = number * std::max<std::uint64_t>(1, interners[k].cardinality()) + key[k];
            const auto [it, added] = byNumber.try_emplace(number, groups.size());
            index = it->second;
            inserted = added;
        } else {
            const auto [it, added]
                = byTuple.try_emplace(std::vector<std::uint32_t>(key, key + groupBy.size()), groups.size());
            index = it->second;
            inserted = added;
        }
        if (inserted) {
            groups.emplace_back();
            errored.push_back(0);
            firsts.push_back(record);
            if (placesOut)
                places.emplace_back();
        }
        if (record->errored()) {
            ++errored[index];
            continue;
        }
        groups[index].push_back(record);
        if (placesOut)
            places[index].push_back(i);
    }
    std::map<std::vector<std::string>, std::size_t> byText; // → the group the others of the same text join
    for (std::size_t g = 0; g < groups.size(); ++g) {
        std::vector<std::string> text;
        text.reserve(groupBy.size());
        for (const std::string& k : groupBy)
            text.push_back(groupValue(*firsts[g], k));
        auto [it, inserted] = byText.try_emplace(std::move(text), g);
        if (inserted)
            continue;
        errored[it->second] += errored[g];
        Group& merged = groups[it->second];
        merged.insert(merged.end(), groups[g].begin(), groups[g].end());
        groups[g] = {};
        if (!placesOut) {
            inRecordOrder(merged, records);
            continue;
        }
        std::vector<std::size_t>& mergedPlaces = places[it->second];
        mergedPlaces.insert(mergedPlaces.end(), places[g].begin(), places[g].end());
        places[g] = {};
        std::vector<std::size_t> order(merged.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return mergedPlaces[a] < mergedPlaces[b]; });
        Group byPlace(merged.size());
        std::vector<std::size_t> sortedPlaces(merged.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            byPlace[i] = merged[order[i]];
            sortedPlaces[i] = mergedPlaces[order[i]];
        }
        merged = std::move(byPlace);
        mergedPlaces = std::move(sortedPlaces);
    }
    std::vector<KeyedGroup> sorted;
    sorted.reserve(byText.size());
    if (placesOut)
        placesOut->clear();
    for (auto& [text, g] : byText) {
        sorted.push_back({ text, std::move(groups[g]), errored[g] });
        if (placesOut)
            placesOut->push_back(std::move(places[g]));
    }
    return sorted;
}

/// How many values of each interned metric key the records that are answers carry (a table of the 65,536 possible
/// keys): an errored record's verdict is none of the model's.
std::vector<std::uint32_t> keyCounts(RecordsView records)
{
    std::vector<std::uint32_t> counts(std::size_t(std::numeric_limits<MetricKey>::max()) + 1);
    records.forEach([&counts](const ScoredRecord& r, std::size_t) {
        if (r.errored())
            return;
        const MetricValues& values = r.verdict.values;
        for (std::size_t i = 0; i < values.size(); ++i)
            ++counts[values.key(i)];
    });
    return counts;
}

/// The families of the keys that are counted.
std::set<std::string> familiesOfKeys(const std::vector<std::uint32_t>& counts)
{
    std::set<std::string> families;
    for (std::size_t key = 0; key < counts.size(); ++key) {
        if (counts[key] > 0)
            families.insert(familyOf(metricIdOf(MetricKey(key))));
    }
    return families;
}

/// The families whose metrics the records carry: each distinct interned id is looked up once (a set of ids
/// allocated a node per value looked up: ~15 million allocations at a million records).
std::set<std::string> familiesOf(RecordsView records)
{
    return familiesOfKeys(keyCounts(records));
}

/// A column's result in the group's report (nothing when the group has no value of the metric).
void putResult(const MetricInfo& metric, const PerRecordResult& r, ReportGroup& g)
{
    if (!r.present)
        return;
    const std::string id(metric.id);
    g.mean[id] = r.mean;
    if (r.hasCi)
        g.ci95[id] = r.ci;
    if (r.weightedMean)
        g.weightedMean[id] = *r.weightedMean;
}

/// A group's report from its work without intervals: each column's point estimates from its sums, the micro metrics
/// from the extraction totals, the ladder family's group values (GroupWork::out holds them already).
ReportGroup pointEstimatesOf(const MetricColumns& columns, bool micro, GroupWork& w)
{
    ReportGroup g = w.out;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        PerRecordResult r;
        computeFromSums(columns.metric(c), w.sums[c], r);
        putResult(columns.metric(c), r, g);
    }
    if (micro && w.anyExtraction) {
        ReportGroup microGroup;
        addMicroEstimates(w.microTotals, microGroup);
        g.mean.merge(microGroup.mean);
    }
    return g;
}

/// The metric ids the groups have a value of, in the registry's order.
std::vector<std::string> presentMetrics(const std::vector<ReportGroup>& groups)
{
    std::set<std::string> present;
    for (const ReportGroup& g : groups) {
        for (const auto& [id, value] : g.mean)
            present.insert(id);
    }
    std::vector<std::string> metrics;
    for (const MetricInfo& metric : allMetrics()) {
        if (present.contains(std::string(metric.id)))
            metrics.emplace_back(metric.id);
    }
    return metrics;
}

} // namespace

const std::vector<std::string>& groupKeys()
{
    static const std::vector<std::string> keys = { "model", "strategy", "run", "suite", "category", "tier",
        "schema_complexity", "difficulty", "source_kind", "modality", "case" };
    return keys;
}

std::string groupValue(const ScoredRecord& record, const std::string& key)
{
    if (key == "run")
        return std::to_string(record.runId);
    if (const auto field = groupField(key))
        return (record.*field).toStdString();
    return {};
}

std::vector<RecordGroup> groupRecordsBy(RecordsView records, const std::vector<std::string>& groupBy)
{
    std::vector<KeyedGroup> keyed = groupRecords(records, groupBy);
    std::vector<RecordGroup> groups;
    groups.reserve(keyed.size());
    for (KeyedGroup& g : keyed)
        groups.push_back({ std::move(g.key), std::move(g.records), g.errored });
    return groups;
}

Report aggregate(RecordsView records, const AggregateOptions& options)
{
    Report report;
    report.groupBy = options.groupBy;

    const std::set<std::string> families = options.families.empty()
        ? familiesOf(records)
        : std::set<std::string>(options.families.begin(), options.families.end());
    const MetricColumns columns(families);
    const bool micro = families.contains("extraction");
    const bool ladder = families.contains("ladder");

    auto groups = groupRecords(records, options.groupBy);

    // Groups go through in batches (bounding the memory their columns take): first each group's columns, then every
    // (group, metric) and (group, micro metrics) on the thread pool. Each bootstrap draws from its own seeded
    // generator, so computing them at the same time gives exactly the intervals of one after the other.
    constexpr std::size_t kBatch = 16;
    std::set<std::string> present;
    for (std::size_t first = 0; first < groups.size(); first += kBatch) {
        const std::size_t last = std::min(groups.size(), first + kBatch);
        std::vector<GroupWork> work(last - first);
        for (std::size_t i = 0; i < work.size(); ++i) {
            KeyedGroup& keyed = groups[first + i];
            GroupWork& w = work[i];
            w.group = &keyed.records;
            for (std::size_t k = 0; k < keyed.key.size(); ++k)
                w.out.key.emplace_back(options.groupBy[k], keyed.key[k]);
            w.out.n = int(keyed.records.size());
            w.out.errored = keyed.errored;
        }
        QtConcurrent::blockingMap(work, [&](GroupWork& w) {
            gatherGroup(columns, micro, ladder, !options.intervals, w);
            if (ladder) {
                addGroupValues(w);
                w.ladder = {};
                w.repeats = {};
            }
            w.blockSums = {};
        });
        // Task t < columns: metric t of its group (a mean with intervals: none, see the next); t == columns: the
        // group's micro metrics; t == columns + 1: the intervals of its means, whose bootstraps share their draws.
        std::vector<std::pair<GroupWork*, std::size_t>> tasks;
        for (GroupWork& w : work) {
            for (std::size_t c = 0; c <= columns.size() + 1; ++c)
                tasks.emplace_back(&w, c);
        }
        const auto bootstrapped
            = [&](std::size_t c) { return options.intervals && columns.metric(c).kind != MetricKind::Rate; };
        std::vector<ReportGroup> microGroups(work.size());
        QtConcurrent::blockingMap(tasks, [&](const std::pair<GroupWork*, std::size_t>& task) {
            GroupWork& w = *task.first;
            if (task.second < columns.size()) {
                if (!bootstrapped(task.second))
                    computeFromSums(columns.metric(task.second), w.sums[task.second], w.results[task.second]);
            } else if (task.second == columns.size() + 1) {
                computeMeansWithIntervals(columns, bootstrapped, options, w);
            } else if (micro && !options.intervals) {
                if (w.anyExtraction)
                    addMicroEstimates(w.microTotals, microGroups[std::size_t(&w - work.data())]);
            } else if (micro) {
                addMicro(w.extraction, w.microTotals, options, microGroups[std::size_t(&w - work.data())]);
            }
        });
        for (std::size_t i = 0; i < work.size(); ++i) {
            GroupWork& w = work[i];
            ReportGroup& g = w.out;
            for (std::size_t c = 0; c < columns.size(); ++c)
                putResult(columns.metric(c), w.results[c], g);
            g.mean.merge(microGroups[i].mean);
            g.ci95.merge(microGroups[i].ci95);
            for (const auto& [id, value] : g.mean)
                present.insert(id);
            report.groups.push_back(std::move(g));
        }
    }

    for (const MetricInfo& metric : allMetrics()) {
        if (present.contains(std::string(metric.id)))
            report.metrics.emplace_back(metric.id);
    }
    return report;
}

/// PointEstimates::State::groupOf of an errored record: no group holds it.
constexpr std::uint32_t kErroredPlace = std::numeric_limits<std::uint32_t>::max();

struct PointEstimates::State
{
    AggregateOptions options;
    bool discovered = false; ///< the families are those the records carry (options.families empty)
    std::vector<std::uint32_t> keyCounts; ///< when discovered: values per metric key, to see a family come or go
    std::set<std::string> families;
    std::unique_ptr<MetricColumns> columns;
    bool micro = false;
    bool ladder = false;
    std::vector<KeyedGroup> groups;
    std::vector<GroupWork> work; ///< per group: block sums, ladder facts, latencies and cost (unchanged by verdicts)
    std::vector<std::uint32_t> groupOf; ///< per place: its group (kErroredPlace: an errored record, in no group)
    std::vector<std::uint32_t> positionOf; ///< per place: its position in the group
    std::vector<const ScoredRecord*> spans; ///< where each stretch of the records began
    Report report;
};

PointEstimates::PointEstimates(RecordsView records, const AggregateOptions& options)
    : d(std::make_unique<State>())
{
    d->options = options;
    d->options.intervals = false;
    d->discovered = options.families.empty();
    if (d->discovered) {
        d->keyCounts = keyCounts(records);
        d->families = familiesOfKeys(d->keyCounts);
    } else {
        d->families = std::set<std::string>(options.families.begin(), options.families.end());
    }
    d->columns = std::make_unique<MetricColumns>(d->families);
    d->micro = d->families.contains("extraction");
    d->ladder = d->families.contains("ladder");

    std::vector<std::vector<std::size_t>> places;
    d->groups = groupRecords(records, options.groupBy, &places);
    d->groupOf.assign(records.size(), kErroredPlace);
    d->positionOf.assign(records.size(), 0);
    for (std::size_t g = 0; g < places.size(); ++g) {
        for (std::size_t at = 0; at < places[g].size(); ++at) {
            d->groupOf[places[g][at]] = std::uint32_t(g);
            d->positionOf[places[g][at]] = std::uint32_t(at);
        }
    }
    for (std::size_t s = 0; s < records.spanCount(); ++s)
        d->spans.push_back(records.span(s).data());

    d->work.resize(d->groups.size());
    for (std::size_t i = 0; i < d->work.size(); ++i) {
        KeyedGroup& keyed = d->groups[i];
        GroupWork& w = d->work[i];
        w.group = &keyed.records;
        for (std::size_t k = 0; k < keyed.key.size(); ++k)
            w.out.key.emplace_back(options.groupBy[k], keyed.key[k]);
        w.out.n = int(keyed.records.size());
        w.out.errored = keyed.errored;
    }
    std::vector<ReportGroup> out(d->work.size());
    QtConcurrent::blockingMap(d->work, [&](GroupWork& w) {
        gatherGroup(*d->columns, d->micro, d->ladder, true, w);
        if (d->ladder)
            addGroupValues(w); // the ladder facts stay: an update recounts them
        out[std::size_t(&w - d->work.data())] = pointEstimatesOf(*d->columns, d->micro, w);
    });
    d->report.groupBy = options.groupBy;
    d->report.groups = std::move(out);
    d->report.metrics = presentMetrics(d->report.groups);
}

PointEstimates::~PointEstimates() = default;

const Report& PointEstimates::report() const
{
    return d->report;
}

bool PointEstimates::update(RecordsView records, const std::vector<std::size_t>& allPlaces)
{
    if (records.size() != d->groupOf.size() || records.spanCount() != d->spans.size())
        return false;
    // An errored record stays errored (the same response) and counts in no metric: only the answers' places matter.
    std::vector<std::size_t> places;
    places.reserve(allPlaces.size());
    for (const std::size_t place : allPlaces) {
        if (place >= records.size())
            return false;
        if (records[place].errored() != (d->groupOf[place] == kErroredPlace))
            return false;
        if (!records[place].errored())
            places.push_back(place);
    }
    // Each replaced record must be another verdict of the same response — its slot, latency and cost, which the
    // kept group values (latency percentiles, cost) were computed from — in the group of the one it replaces, by the
    // same key text. The earlier records outlive this call: the groups still point at them.
    for (const std::size_t place : places) {
        const ScoredRecord& before = *d->groups[d->groupOf[place]].records[d->positionOf[place]];
        const ScoredRecord& after = records[place];
        if (before.runId != after.runId || before.caseRow != after.caseRow || before.repeat != after.repeat
            || before.latencyMs != after.latencyMs || before.cost != after.cost)
            return false;
        const auto& key = d->groups[d->groupOf[place]].key;
        for (std::size_t k = 0; k < key.size(); ++k) {
            if (groupValue(records[place], d->options.groupBy[k]) != key[k])
                return false;
        }
    }
    // The families must stay those the records carry: the replaced records' values are counted out and the new
    // ones' in.
    std::vector<std::uint32_t> counts;
    if (d->discovered) {
        counts = d->keyCounts;
        for (const std::size_t place : places) {
            const MetricValues& before = d->groups[d->groupOf[place]].records[d->positionOf[place]]->verdict.values;
            for (std::size_t i = 0; i < before.size(); ++i)
                --counts[before.key(i)];
            const MetricValues& after = records[place].verdict.values;
            for (std::size_t i = 0; i < after.size(); ++i)
                ++counts[after.key(i)];
        }
        if (familiesOfKeys(counts) != d->families)
            return false;
        d->keyCounts = std::move(counts);
    }

    // The groups point at the new records: those of every stretch that is not where it was (the replaced chunks).
    for (std::size_t s = 0, place = 0; s < records.spanCount(); ++s) {
        const std::span<const ScoredRecord> stretch = records.span(s);
        if (stretch.data() != d->spans[s]) {
            for (std::size_t j = 0; j < stretch.size(); ++j) {
                const ScoredRecord* r = &stretch[j];
                const std::uint32_t g = d->groupOf[place + j];
                if (g == kErroredPlace)
                    continue;
                const std::uint32_t at = d->positionOf[place + j];
                d->groups[g].records[at] = r;
                if (d->ladder) {
                    LadderItem& item = d->work[g].ladder[at];
                    item.suite = &r->suite;
                    item.caseId = &r->caseId;
                    item.ladder = r->verdict.ladder;
                }
            }
            d->spans[s] = stretch.data();
        }
        place += stretch.size();
    }
    // The blocks holding a replaced record are summed again; their groups' estimates are computed again.
    std::vector<std::set<std::size_t>> blocks(d->groups.size());
    std::vector<std::vector<std::uint32_t>> relabelled(d->ladder ? d->groups.size() : 0);
    for (const std::size_t place : places) {
        const std::uint32_t g = d->groupOf[place];
        blocks[g].insert(d->positionOf[place] / kSumBlock);
        if (d->ladder) {
            d->work[g].ladder[d->positionOf[place]].ladder = records[place].verdict.ladder;
            relabelled[g].push_back(d->positionOf[place]);
        }
    }
    std::vector<std::size_t> touched;
    for (std::size_t g = 0; g < blocks.size(); ++g) {
        if (!blocks[g].empty())
            touched.push_back(g);
    }
    QtConcurrent::blockingMap(touched, [&](std::size_t g) {
        GroupWork& w = d->work[g];
        for (const std::size_t block : blocks[g]) {
            w.blockSums[block].assign(d->columns->size(), {});
            if (d->micro)
                w.microBlocks[block] = {};
            gatherBlock(*d->columns, d->micro, d->ladder, false, block, w);
        }
        foldBlocks(d->columns->size(), w);
        w.out.mean.clear();
        if (d->ladder)
            addGroupValues(w, &relabelled[g]);
        d->report.groups[g] = pointEstimatesOf(*d->columns, d->micro, w);
    });
    d->report.metrics = presentMetrics(d->report.groups);
    return true;
}

} // namespace structscope
