#include "report/evaluation.h"

#include "json/parseladder.h"
#include "run/retrylineage.h"
#include "scoring/pyformat.h"
#include "scoring/scorer.h"
#include "stats/means.h"
#include "store/resultstore.h"

#include <QHash>
#include <QtConcurrent/QtConcurrentMap>

#include <map>
#include <memory>
#include <unordered_map>

using nlohmann::json;

namespace structscope {

namespace {

/// What scoring needs to know about one stored case.
struct CaseFacts
{
    QString id;
    QString category;
    QString tier;
    QString sourceKind;
    std::string schemaName; ///< the named schema (the suite's default when the case names none)
    const json* schema = nullptr; ///< points into the suite's manifest or the case's extra
    json extra;
    json gold;
    qint64 goldRevisionRow = 0;
    double weight = 0;
    CompiledForScoring compiled; ///< the schema compiled once for all of the case's responses
};

/// One response waiting to be scored, with everything it refers to.
struct Job
{
    const CaseFacts* facts = nullptr;
    const ScoringOptions* options = nullptr;
    ResponseRecord response;
    bool sobEncoded = false; ///< rawText is the JSON encoding of SOB's candidate_response
    ScoredRecord record;     ///< grouping facts, filled before scoring
};

void score(Job& job)
{
    ScoreInput input;
    input.gold = &job.facts->gold;
    input.schema = job.facts->schema;
    input.modality = modalityFromId(job.record.modality.toStdString()).value_or(Modality::Text);
    input.compiledSchema = job.facts->compiled.schema;
    input.groundingSchema = job.facts->compiled.grounding;
    const QByteArray raw = job.response.rawText.toUtf8();
    json decoded;
    std::string text;
    if (job.sobEncoded) {
        std::string error;
        if (parseJsonDocument(std::string_view(raw.constData(), std::size_t(raw.size())), decoded, error)) {
            if (decoded.is_string()) {
                text = decoded.get<std::string>();
                input.importedAsString = true;
            } else {
                input.imported = &decoded;
            }
        }
    }
    input.response = input.importedAsString ? std::string_view(text) : std::string_view(raw.constData(), std::size_t(raw.size()));
    job.record.verdict = scoreResponse(input, *job.options);
}

QString providerLabel(const RunRecord& run)
{
    // Imported runs are named "import:<model>"; show the model as the tool that produced it named it.
    if (run.modelSpec.startsWith(QLatin1String("import:")))
        return run.modelSpec.mid(7);
    return run.modelSpec;
}

} // namespace

Evaluation evaluateStore(ResultStore& store, const EvaluationOptions& options)
{
    Evaluation evaluation;
    const auto suites = store.suites();
    if (!suites) {
        evaluation.error = suites.errorMessage();
        return evaluation;
    }

    // Owned for the whole evaluation: jobs point into these.
    std::vector<std::unique_ptr<ScoringOptions>> scoringOptions;
    std::vector<std::unique_ptr<json>> manifests;
    std::vector<std::unique_ptr<QHash<qint64, CaseFacts>>> caseTables;
    std::vector<Job> jobs;

    for (const SuiteRecord& suite : suites.value()) {
        manifests.push_back(std::make_unique<json>(suite.manifest));
        const json& manifest = *manifests.back();
        static const json noCatalog;
        const auto catalog = manifest.find("catalog");
        scoringOptions.push_back(std::make_unique<ScoringOptions>(
            ScoringOptions::forManifest(manifest, catalog != manifest.end() ? *catalog : noCatalog)));
        // Reports need valid or not; the Cases page re-scores the one response it shows with the error list.
        scoringOptions.back()->collectSchemaErrors = false;
        const ScoringOptions* scoring = scoringOptions.back().get();

        // Scoring never reads a case's input text, which is most of an imported SOB case.
        auto cases = store.cases(suite.row, CaseFields::WithoutText);
        auto gold = store.goldForSuite(
            suite.row, options.gold == GoldBasis::Adjusted ? GoldChoice::Current : GoldChoice::Original);
        if (!cases || !gold) {
            evaluation.error = cases ? gold.errorMessage() : cases.errorMessage();
            return evaluation;
        }
        caseTables.push_back(std::make_unique<QHash<qint64, CaseFacts>>());
        QHash<qint64, CaseFacts>& facts = *caseTables.back();
        const json* documents = nullptr;
        if (const auto it = manifest.find("schema_documents"); it != manifest.end() && it->is_object())
            documents = &*it;
        const std::string defaultSchema = manifest.value("default_schema", std::string());
        facts.reserve(cases->size());
        QHash<qint64, GoldRevision>& goldByCase = gold.value();
        for (CaseRecord& c : cases.value()) {
            CaseFacts& f = facts[c.row];
            f.id = c.id;
            f.category = c.category;
            f.tier = c.tier;
            f.sourceKind = QString::fromStdString(c.extra.value("source_kind", c.category.toStdString()));
            f.extra = std::move(c.extra);
            f.weight = complexityWeight(c.tier);
            if (const auto g = goldByCase.find(c.row); g != goldByCase.end()) {
                f.gold = std::move(g->gold);
                f.goldRevisionRow = g->row;
            }
            f.schemaName = c.schemaName.isEmpty() ? defaultSchema : c.schemaName.toStdString();
        }
        // Schema pointers are taken once the table no longer grows. Imported SOB cases each carry a copy of one of
        // a few hundred schemas: each distinct document is compiled once, and its cases share the result.
        std::unordered_multimap<std::size_t, const CaseFacts*> compiledBySchema;
        for (auto it = facts.begin(); it != facts.end(); ++it) {
            CaseFacts& f = it.value();
            if (const auto inlineSchema = f.extra.find("schema"); inlineSchema != f.extra.end()
                && (inlineSchema->is_object() || inlineSchema->is_boolean())) {
                f.schema = &*inlineSchema;
            } else if (documents) {
                if (const auto doc = documents->find(f.schemaName); doc != documents->end())
                    f.schema = &*doc;
            }
            if (!f.schema)
                continue;
            const std::size_t key = std::hash<json> {}(*f.schema);
            const CaseFacts* same = nullptr;
            for (auto [at, end] = compiledBySchema.equal_range(key); at != end && !same; ++at) {
                if (canonicalJsonEquals(*at->second->schema, *f.schema))
                    same = at->second;
            }
            if (same) {
                f.compiled = same->compiled;
            } else {
                f.compiled = compileForScoring(*f.schema, *scoring);
                compiledBySchema.emplace(key, &f);
            }
        }

        const auto runs = store.runs(suite.row);
        if (!runs) {
            evaluation.error = runs.errorMessage();
            return evaluation;
        }
        // A run that retries the errored slots of another names it in settings.retry_of. A slot (case,
        // repeat) of such a family of runs counts once, under the first run: its latest successful answer,
        // else its latest failure (retryRoots names each run's first run, as the runner links them).
        const QHash<qint64, qint64> rootOf = retryRoots(runs.value());
        std::map<qint64, QHash<ResponseKey, std::size_t>> slotsByRoot;
        for (const RunRecord& run : runs.value()) {
            const bool sob = run.settings.value("import_format", std::string()) == "sob";
            const QString modality = QString::fromStdString(run.settings.value("modality", std::string("text")));
            const bool simulated = run.providerKind == QLatin1String("sim");
            const QString model = providerLabel(run); // one string shared by the run's records
            const qint64 root = rootOf.value(run.id, run.id);
            QHash<ResponseKey, std::size_t>& slotJobs = slotsByRoot[root];
            const auto visited = store.forEachResponse(run.id, [&](const ResponseRecord& response) {
                const auto fact = facts.constFind(response.caseRow);
                if (fact == facts.cend())
                    return true;
                const ResponseKey key { response.caseRow, response.repeat };
                if (const auto seen = slotJobs.constFind(key); seen != slotJobs.cend()) {
                    Job& earlier = jobs[seen.value()];
                    // Every call of the slot was paid for, the failed ones too.
                    std::optional<double> cost = earlier.record.cost;
                    if (response.cost)
                        cost = cost.value_or(0.0) + *response.cost;
                    earlier.record.cost = cost;
                    if (!response.errorKind.isEmpty() && earlier.response.errorKind.isEmpty())
                        return true;
                    earlier.response = response;
                    earlier.record.latencyMs = response.latencyMs;
                    return true;
                }
                slotJobs.insert(key, jobs.size());
                Job job;
                job.facts = &fact.value();
                job.options = scoring;
                job.sobEncoded = sob;
                job.response = response;
                ScoredRecord& r = job.record;
                r.suite = suite.id;
                r.model = model;
                r.strategy = run.strategy;
                r.runId = root;
                r.caseId = fact->id;
                r.repeat = response.repeat;
                r.category = fact->category;
                r.tier = fact->tier;
                r.sourceKind = fact->sourceKind;
                r.modality = modality;
                r.simulated = simulated;
                r.weight = fact->weight;
                r.latencyMs = response.latencyMs;
                r.cost = response.cost;
                jobs.push_back(std::move(job));
                return true;
            });
            if (!visited) {
                evaluation.error = visited.errorMessage();
                return evaluation;
            }
        }
    }

    // Verdicts of an earlier evaluation whose key still holds are taken over, not scored again.
    QHash<std::pair<qint64, qint64>, const Verdict*> earlier; // (response id, gold revision row) → verdict
    if (options.reuse) {
        earlier.reserve(options.reuse->size());
        for (const ScoredRecord& r : *options.reuse) {
            if (r.scorerVersion == kScorerVersion && r.responseId > 0)
                earlier.emplace(std::pair(r.responseId, r.goldRevisionRow), &r.verdict);
        }
    }
    std::atomic<qint64> reused = 0;
    const auto scoreOrReuse = [&earlier, &reused](Job& job) {
        job.record.responseId = job.response.id;
        job.record.goldRevisionRow = job.facts->goldRevisionRow;
        job.record.scorerVersion = kScorerVersion;
        if (!earlier.empty()) {
            if (const auto it = earlier.constFind({ job.response.id, job.facts->goldRevisionRow });
                it != earlier.cend()) {
                job.record.verdict = **it;
                reused.fetch_add(1, std::memory_order_relaxed);
                return;
            }
        }
        score(job);
    };

    // Score in chunks so progress and cancel are checked between them, not per response.
    const qint64 total = qint64(jobs.size());
    const qint64 chunk = std::max<qint64>(256, total / 100);
    std::atomic_bool cancelled = false;
    for (qint64 start = 0; start < total; start += chunk) {
        if ((options.cancel && options.cancel->load()) || cancelled) {
            evaluation.cancelled = true;
            return evaluation;
        }
        const qint64 end = std::min(total, start + chunk);
        QtConcurrent::blockingMap(jobs.begin() + start, jobs.begin() + end, scoreOrReuse);
        if (options.progress && !options.progress(end, total))
            cancelled = true;
    }
    if (cancelled) {
        evaluation.cancelled = true;
        return evaluation;
    }
    evaluation.reused = reused.load();
    evaluation.records.reserve(jobs.size());
    for (Job& job : jobs)
        evaluation.records.push_back(std::move(job.record));
    return evaluation;
}

} // namespace structscope
