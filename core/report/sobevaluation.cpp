// SPDX-License-Identifier: Apache-2.0
#include "report/sobevaluation.h"

#include "io/sobimporter.h"
#include "report/schemaslots.h"
#include "scoring/grounding.h"
#include "scoring/pyformat.h"
#include "scoring/scorer.h"
#include "stats/means.h"
#include "util/prefault.h"

#include <QtConcurrent/QtConcurrentMap>

#include <numeric>
#include <unordered_set>

using nlohmann::json;

namespace structscope {

namespace {

/// What scoring a record read from SOB files needs of its case (a store's pass keeps more per case: CaseFacts in
/// evaluation.cpp).
struct SobCase
{
    const json* schema = nullptr; ///< in the manifest or the case's extra; nullptr: none that validates
    SchemaSlot* slot = nullptr;
    double weight = 0;
    QString difficulty;
};

/// What the records of one SOB file (one model's run) share.
struct SobRun
{
    QString model;
    QString modality;
    Modality kind = Modality::Text;
};

} // namespace

Evaluation evaluateSobRecords(const SobRecords& read, const EvaluationOptions& options)
{
    Evaluation evaluation;
    static const json noCatalog;
    ScoringOptions scoring = ScoringOptions::forManifest(read.manifest, noCatalog);
    scoring.collectSchemaErrors = false; // as every bulk pass: valid or not
    scoring.fields = options.fieldTallies;

    // The schema of a case is the document it names in the manifest or the object (or boolean) in its extra, as the
    // store's pass reads an imported case's; the cases that carry one document share its compiled form.
    const json* documents = nullptr;
    if (const auto it = read.manifest.find("schema_documents"); it != read.manifest.end() && it->is_object())
        documents = &*it;
    SchemaSlots schemaSlots;
    std::vector<SobCase> facts(read.cases.size());
    for (std::size_t i = 0; i < read.cases.size(); ++i) {
        const CaseImport& c = read.cases[i];
        SobCase& f = facts[i];
        f.weight = complexityWeight(c.tier);
        f.difficulty = QString::fromStdString(caseDifficulty(c.extra));
        const SchemaSlots::CaseSchema schema = schemaSlots.forCase(c.extra, c.schemaName.toStdString(), documents);
        f.schema = schema.document;
        f.slot = schema.slot;
    }
    // The schemas answers were asked with where not their case's: validation and the schema-based checks use them.
    std::vector<SchemaSlots::CaseSchema> asked;
    asked.reserve(read.askedSchemas.size());
    for (const json& document : read.askedSchemas)
        asked.push_back(schemaSlots.forDocument(document));

    // Every schema an answer is scored against, compiled first, in parallel: answers are scored case by case (below),
    // and both threads would otherwise often wait for the one compiling the case's schema.
    std::vector<SchemaSlot*> needed;
    {
        std::unordered_set<const SchemaSlot*> seen;
        for (const SobRecords::Response& response : read.responses) {
            SchemaSlot* const slot = response.askedSchema >= 0 ? asked[std::size_t(response.askedSchema)].slot
                                                               : facts[std::size_t(response.caseIndex)].slot;
            if (slot != nullptr && seen.insert(slot).second)
                needed.push_back(slot);
        }
    }
    QtConcurrent::blockingMap(needed, [&scoring](SchemaSlot* slot) { (void)slot->compile(scoring); });

    std::vector<SobRun> runs;
    runs.reserve(read.runs.size());
    for (const SobRecords::Run& run : read.runs)
        runs.push_back({ run.model, QString::fromLatin1(modalityId(run.modality)), run.modality });
    const QString suite = QString::fromStdString(read.manifest.value("id", std::string("sob")));

    // A store's pass reads run by run, each run's responses in the order they were written (the lines').
    std::vector<std::size_t> order(read.responses.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
        [&read](std::size_t a, std::size_t b) { return read.responses[a].run < read.responses[b].run; });

    std::vector<ScoredRecord> records;
    reservePrefaulted(records, order.size());
    records.resize(order.size());
    std::vector<std::size_t> places(order.size());
    std::iota(places.begin(), places.end(), std::size_t(0));
    // Scored case by case (each record still goes to its place): the answers to one case share its gold and schema,
    // which stay in the caches while a thread scores them one after another.
    std::stable_sort(places.begin(), places.end(), [&](std::size_t a, std::size_t b) {
        return read.responses[order[a]].caseIndex < read.responses[order[b]].caseIndex;
    });
    const auto scoreOne = [&](std::size_t place) {
        const SobRecords::Response& response = read.responses[order[place]];
        const CaseImport& c = read.cases[std::size_t(response.caseIndex)];
        const SobCase& f = facts[std::size_t(response.caseIndex)];
        const SobRun& run = runs[std::size_t(response.run)];
        ScoredRecord& record = records[place];
        record.suite = suite;
        record.model = run.model;
        record.strategy = read.strategy;
        record.runId = response.run + 1;
        record.caseId = c.id;
        record.caseRow = response.caseIndex + 1;
        record.repeat = response.repeat;
        record.category = c.category;
        record.tier = c.tier;
        record.difficulty = f.difficulty;
        record.sourceKind = c.category; // an imported SOB case has no source_kind of its own
        record.modality = run.modality;
        record.weight = f.weight;
        record.latencyMs = response.latencyMs;
        record.cost = response.cost;
        record.scorerVersion = kScorerVersion;

        ScoreInput input;
        input.gold = &c.gold;
        const SchemaSlots::CaseSchema* const askedWith
            = response.askedSchema >= 0 ? &asked[std::size_t(response.askedSchema)] : nullptr;
        input.schema = askedWith ? askedWith->document : f.schema;
        if (SchemaSlot* const slot = askedWith ? askedWith->slot : f.slot) {
            const CompiledForScoring& compiled = slot->compile(scoring);
            input.compiledSchema = compiled.schema;
            input.groundingSchema = compiled.grounding;
        }
        input.modality = run.kind;
        setImportedCandidate(input, response.candidate);
        record.verdict = scoreResponse(input, scoring);
    };

    const auto total = qint64(places.size());
    const std::size_t chunk = std::size_t(std::max<qint64>(256, total / 100));
    for (std::size_t start = 0; start < places.size(); start += chunk) {
        if (options.cancel && options.cancel->load()) {
            evaluation.cancelled = true;
            return evaluation;
        }
        const std::size_t end = std::min(places.size(), start + chunk);
        QtConcurrent::blockingMap(places.begin() + qsizetype(start), places.begin() + qsizetype(end), scoreOne);
        if (options.progress && !options.progress(qint64(end), total)) {
            evaluation.cancelled = true;
            return evaluation;
        }
    }
    if (options.progress && total == 0)
        options.progress(0, 0);
    evaluation.records = ScoredRecords(std::move(records));
    return evaluation;
}

} // namespace structscope
