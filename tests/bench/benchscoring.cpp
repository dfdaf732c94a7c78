// SPDX-License-Identifier: Apache-2.0
// Scoring throughput: the grounding family (SOB) on generated SOB-like records, parsing included — each
// response goes from its raw text through the parse ladder to a verdict, as `structscope report` scores a
// store (gold and schema are parsed once per case there, so here too).
#include "bench.h"
#include "sobgen.h"

#include "schema/schemavalidator.h"
#include "scoring/scorer.h"
#include "scoring/verdictcodec.h"
#include "json/jsontext.h"

#include <QElapsedTimer>

#include <atomic>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <thread>

using nlohmann::json;
using namespace Qt::StringLiterals;

namespace structscope::bench {

namespace {

struct Totals
{
    double valueAccuracy = 0;
    qint64 scored = 0;
    double cpuSeconds = 0; ///< CPU time the workers used (summed): unlike wall time, not inflated by other load
};

double threadCpuSeconds()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

// What the scorer gets per response once a store is open: the response text as the model sent it, and
// the case's gold and schema, parsed once per case (evaluateStore holds them per case, not per response).
struct Item
{
    std::string response;
    std::shared_ptr<const json> gold;
    std::shared_ptr<const json> schema;
    CompiledForScoring compiled;
};

std::vector<Item> prepare(const std::vector<std::string>& lines)
{
    std::vector<Item> items;
    items.reserve(lines.size());
    for (const std::string& text : lines) {
        const json line = json::parse(text);
        const json& candidate = line.at("output").at("candidate_response");
        items.push_back({ candidate.is_string() ? candidate.get<std::string>() : candidate.dump(),
            std::make_shared<const json>(line.at("output").at("ground_truth")),
            std::make_shared<const json>(line.at("input").at("json_schema")), {} });
    }
    return items;
}

// Runs `work` on every index with `threads` workers pulling chunks from a shared counter; returns seconds.
template <typename Fn> double run(std::size_t count, int threads, Fn work, Totals& totals)
{
    constexpr std::size_t kChunk = 256;
    std::atomic<std::size_t> next { 0 };
    std::vector<Totals> perThread(static_cast<std::size_t>(threads));
    QElapsedTimer timer;
    timer.start();
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            Totals& mine = perThread[std::size_t(t)];
            const double cpuStart = threadCpuSeconds();
            for (;;) {
                const std::size_t begin = next.fetch_add(kChunk);
                if (begin >= count)
                    break;
                const std::size_t end = std::min(count, begin + kChunk);
                for (std::size_t i = begin; i < end; ++i) {
                    mine.valueAccuracy += work(i);
                    ++mine.scored;
                }
            }
            mine.cpuSeconds = threadCpuSeconds() - cpuStart;
        });
    }
    for (std::thread& worker : workers)
        worker.join();
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    totals = {};
    for (const Totals& t : perThread) {
        totals.valueAccuracy += t.valueAccuracy;
        totals.scored += t.scored;
        totals.cpuSeconds += t.cpuSeconds;
    }
    return seconds;
}

/// One record's verdict, scored as evaluateStore scores it.
Verdict scoreItem(const Item& item, const ScoringOptions& options)
{
    ScoreInput input;
    input.compiledSchema = item.compiled.schema;
    input.groundingSchema = item.compiled.grounding;
    input.response = item.response;
    input.gold = item.gold.get();
    input.schema = item.schema.get();
    input.modality = Modality::Text;
    return scoreResponse(input, options);
}

/// The verdict codec (what a store keeps per response, and reads back instead of scoring): encoding and decoding the
/// verdicts of up to 20,000 of the records, each decoded 50 times (at most a million decodes), one thread.
int benchVerdictCodec(const std::vector<Item>& items, const ScoringOptions& options)
{
    const std::size_t count = std::min<std::size_t>(items.size(), 20000);
    if (count == 0)
        return 0;
    std::vector<Verdict> verdicts;
    verdicts.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        verdicts.push_back(scoreItem(items[i], options));
    std::vector<std::string> encoded(count);
    QElapsedTimer timer;
    timer.start();
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < count; ++i) {
        encoded[i] = encodeVerdict(verdicts[i]);
        bytes += encoded[i].size();
    }
    const double encodeSeconds = double(timer.nsecsElapsed()) / 1e9;
    report("scoring", u"verdict codec: encode (%1 verdicts, mean %2 bytes)"_s.arg(count).arg(bytes / count),
        double(count) / encodeSeconds, "verdicts/s");
    const std::size_t decodes = std::min<std::size_t>(1000000, count * 50);
    std::size_t decoded = 0;
    timer.restart();
    for (std::size_t i = 0; i < decodes; ++i) {
        Verdict v; // fresh, as a store's reading makes each
        decoded += decodeVerdict(encoded[i % count], v) ? 1 : 0;
    }
    const double decodeSeconds = double(timer.nsecsElapsed()) / 1e9;
    if (decoded != decodes) {
        std::fprintf(
            stderr, "bench scoring: %zu of %zu verdict encodings did not decode\n", decodes - decoded, decodes);
        return 1;
    }
    report("scoring", u"verdict codec: decode into a fresh verdict (%1 decodes)"_s.arg(decodes),
        double(decodes) / decodeSeconds, "verdicts/s");
    return 0;
}

} // namespace

int benchScoring(const BenchArgs& args)
{
    SobGenOptions gen;
    gen.records = args.records > 0 ? args.records : 100000;
    QElapsedTimer timer;
    timer.start();
    const std::vector<std::string> lines = generateSobLines(gen);
    qint64 bytes = 0;
    for (const std::string& line : lines)
        bytes += qint64(line.size());
    report("scoring",
        u"generated %1 SOB-like records (mean %2 bytes)"_s.arg(lines.size()).arg(bytes / qint64(lines.size())),
        double(timer.elapsed()) / 1000.0, "s");

    Totals totals;
    // The import path parses whole SOB lines (context text included) once; measured on its own, with each parser.
    const auto parseLines = [&](const char* what, auto parse) {
        Totals parsed;
        const double seconds = run(
            lines.size(), 1,
            [&](std::size_t i) {
                json value;
                parse(lines[i], value);
                return double(value.size());
            },
            parsed);
        report("scoring", u"parse whole SOB lines (import path), %1, 1 thread"_s.arg(QLatin1StringView(what)),
            double(lines.size()) / seconds, "records/s");
        report("scoring", u"  the same in MB/s"_s, double(bytes) / 1e6 / seconds, "MB/s");
    };
    parseLines("nlohmann/json", [](const std::string& line, json& out) { parseJsonTextWithNlohmann(line, 512, out); });
    parseLines("simdjson, converted", [](const std::string& line, json& out) {
        if (!parseJsonQuickly(line, 512, out))
            std::abort(); // every generated line takes the quick path
    });

    std::vector<Item> items = prepare(lines);
    ScoringOptions options = ScoringOptions::forFamilies({ u"grounding"_s });
    options.collectSchemaErrors = false; // as evaluateStore scores

    // Once per case, as evaluateStore does (here every record is a case, so this is timed apart).
    QElapsedTimer compileTimer;
    compileTimer.start();
    for (Item& item : items)
        item.compiled = compileForScoring(*item.schema, options);
    report("scoring", u"schema lookup per case (%1 cases, 200 distinct schemas)"_s.arg(items.size()),
        double(items.size()) / (double(compileTimer.nsecsElapsed()) / 1e9), "cases/s");
    const auto scoreOne = [&](std::size_t i) {
        const Verdict verdict = scoreItem(items[i], options);
        return verdict.grounding ? verdict.grounding->valueAccuracy : 0.0;
    };
    double mean = 0;
    for (int threads : { 1, 2 }) {
        const double seconds = run(items.size(), threads, scoreOne, totals);
        if (totals.scored != qint64(items.size())) {
            std::fprintf(stderr, "bench scoring: scored %lld of %zu records\n", totals.scored, items.size());
            return 1;
        }
        mean = totals.valueAccuracy / double(totals.scored);
        report("scoring", u"grounding: parse response + score, %1 thread(s)"_s.arg(threads),
            double(items.size()) / seconds, "records/s");
        report("scoring", u"  the same per CPU-second of the workers"_s, double(items.size()) / totals.cpuSeconds,
            "records/s");
    }
    // A check on the work itself: a generator or scorer change that makes everything 0 shows here.
    report("scoring", u"mean grounding.value_accuracy (sanity)"_s, mean * 1000.0, "‰");
    return benchVerdictCodec(items, options);
}

} // namespace structscope::bench
