// Scoring throughput: the grounding family (SOB) on generated SOB-like records, parsing included — each
// record goes from its JSONL text to a verdict, as `structscope report` does after an import.
#include "bench.h"
#include "sobgen.h"

#include "schema/schemavalidator.h"
#include "scoring/scorer.h"

#include <QElapsedTimer>

#include <atomic>
#include <thread>

using nlohmann::json;
using namespace Qt::StringLiterals;

namespace structscope::bench {

namespace {

struct Totals
{
    double valueAccuracy = 0;
    qint64 scored = 0;
};

Totals scoreLine(const std::string& text, const ScoringOptions& options, bool parseOnly)
{
    const json line = json::parse(text);
    const json& output = line.at("output");
    const json& candidate = output.at("candidate_response");
    if (parseOnly)
        return {0, 1};
    ScoreInput input;
    input.imported = &candidate;
    input.importedAsString = candidate.is_string();
    input.gold = &output.at("ground_truth");
    input.schema = &line.at("input").at("json_schema");
    input.modality = Modality::Text;
    const Verdict verdict = scoreResponse(input, options);
    return {verdict.grounding ? verdict.grounding->valueAccuracy : 0.0, 1};
}

// Scores every line with `threads` workers pulling chunks from a shared counter; returns seconds.
double run(const std::vector<std::string>& lines, int threads, bool parseOnly, Totals& totals)
{
    SchemaCache::clear();
    const ScoringOptions options = ScoringOptions::forFamilies({u"grounding"_s});
    constexpr std::size_t kChunk = 256;
    std::atomic<std::size_t> next { 0 };
    std::vector<Totals> perThread(static_cast<std::size_t>(threads));
    QElapsedTimer timer;
    timer.start();
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            Totals& mine = perThread[std::size_t(t)];
            for (;;) {
                const std::size_t begin = next.fetch_add(kChunk);
                if (begin >= lines.size())
                    break;
                const std::size_t end = std::min(lines.size(), begin + kChunk);
                for (std::size_t i = begin; i < end; ++i) {
                    const Totals one = scoreLine(lines[i], options, parseOnly);
                    mine.valueAccuracy += one.valueAccuracy;
                    mine.scored += one.scored;
                }
            }
        });
    }
    for (std::thread& worker : workers)
        worker.join();
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    totals = {};
    for (const Totals& t : perThread) {
        totals.valueAccuracy += t.valueAccuracy;
        totals.scored += t.scored;
    }
    return seconds;
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
    report("scoring", u"generated %1 SOB-like records (mean %2 bytes)"_s.arg(lines.size()).arg(bytes / qint64(lines.size())),
        double(timer.elapsed()) / 1000.0, "s");

    Totals totals;
    const double parseSeconds = run(lines, 1, true, totals);
    report("scoring", u"parse only, 1 thread"_s, double(lines.size()) / parseSeconds, "records/s");
    double mean = 0;
    for (int threads : {1, 2}) {
        const double seconds = run(lines, threads, false, totals);
        if (totals.scored != qint64(lines.size())) {
            std::fprintf(stderr, "bench scoring: scored %lld of %zu records\n", totals.scored, lines.size());
            return 1;
        }
        mean = totals.valueAccuracy / double(totals.scored);
        report("scoring", u"grounding, parse + score, %1 thread(s)"_s.arg(threads), double(lines.size()) / seconds,
            "records/s");
    }
    // A check on the work itself: a generator or scorer change that makes everything 0 shows here.
    report("scoring", u"mean grounding.value_accuracy (sanity)"_s, mean * 1000.0, "‰");
    return 0;
}

} // namespace structscope::bench
