// SPDX-License-Identifier: Apache-2.0
#include "report/evaluation.h"

#include "report/schemaslots.h"
#include "run/retrylineage.h"
#include "scoring/grounding.h"
#include "scoring/pyformat.h"
#include "scoring/scorer.h"
#include "scoring/verdictcodec.h"
#include "stats/means.h"
#include "store/resultstore.h"
#include "util/prefault.h"
#include "util/sha256.h"
#include "json/parseladder.h"

#include <QHash>
#include <QSet>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <future>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

using nlohmann::json;
using namespace Qt::StringLiterals;

namespace structscope {

namespace {

/// A case's gold as the store holds it, parsed by the first job that scores an answer to the case: a SOB import has
/// a gold per answer, and a store that keeps its verdicts needs none of them parsed.
struct CaseGold
{
    ResultStore::GoldText stored;
    std::once_flag once;
    json value;
    bool damaged = false; ///< the column holds no JSON
};

/// What scoring needs to know about one stored case.
struct CaseFacts
{
    QString id;
    QString category;
    QString tier;
    QString difficulty;
    QString sourceKind;
    std::string schemaName; ///< the named schema (the suite's default when the case names none)
    const json* schema = nullptr; ///< points into the suite's manifest or the case's extra
    json extra;
    CaseGold* gold = nullptr; ///< none: the case has no gold revision (scored against null)
    qint64 goldRevisionRow = 0;
    double weight = 0;
    SchemaSlot* compiled = nullptr; ///< shared by the cases with the same document
};

/// Verdicts scored in this pass, by everything a verdict is a function of besides the suite's options (the scorer
/// is pure): the case — its gold and schema, one CaseFacts per case — and the SHA-256 of whether the answer is
/// SOB-encoded, its modality and its exact text. Identical answers to one case (repeats at temperature 0, models
/// and strategies that agree) are scored once and copied. An entry names the record that holds the verdict, which
/// must never change afterwards: only records of runs without retries take part (a retry may take a record over).
/// One per suite; thread-safe.
class VerdictMemo
{
public:
    using Digest = std::array<char, 32>;

    /// The record holding the verdict of this answer to this case, if one was scored.
    std::optional<std::size_t> find(const CaseFacts* facts, const Digest& digest) const
    {
        const std::lock_guard lock(m_mutex);
        const auto it = m_places.find(Key { facts, digest });
        if (it == m_places.end())
            return std::nullopt;
        return it->second;
    }
    /// After scoring the record at `place` (the first such answer wins; a second scored at the same time is equal).
    void insert(const CaseFacts* facts, const Digest& digest, std::size_t place)
    {
        const std::lock_guard lock(m_mutex);
        m_places.try_emplace(Key { facts, digest }, place);
    }

private:
    struct Key
    {
        const CaseFacts* facts = nullptr;
        Digest digest {};
        bool operator==(const Key&) const = default;
    };
    struct KeyHash
    {
        std::size_t operator()(const Key& key) const
        {
            std::size_t h = 0;
            std::memcpy(&h, key.digest.data(), sizeof h);
            return h ^ std::hash<const void*> {}(key.facts);
        }
    };
    mutable std::mutex m_mutex;
    std::unordered_map<Key, std::size_t, KeyHash> m_places;
};

/// What a run's records share, filled in by the jobs that make them (on the pool, off the reading thread).
struct RunFacts
{
    QString suite;
    QString model; ///< one string shared by the run's records
    QString strategy;
    QString modality;
    qint64 root = 0; ///< the first run of its family of retries
    bool simulated = false;
};

/// One response waiting to be scored, with everything it refers to. Its record lives in the evaluation's records.
struct Job
{
    const CaseFacts* facts = nullptr;
    const ScoringOptions* options = nullptr;
    ResponseRecord response;
    bool sobEncoded = false; ///< the raw text is the JSON encoding of SOB's candidate_response
    /// The record's place in the evaluation: its grouping facts are filled, the verdict and its cache key are set
    /// by scoring. A place, not an address: the records may grow while a run is read (never while it is scored).
    std::size_t index = 0;
    VerdictMemo* memo = nullptr; ///< the suite's, unless the record may be taken over by a retry
    /// The verdict the store keeps for this response and the case's gold (then the answer was not read): decoded
    /// instead of scored. Points into the bytes of the run's kept verdicts, held until the run's jobs are done.
    std::string_view stored;
    /// Set on the job that made the record (and on whatever job replaces it before it ran): its grouping facts are
    /// filled from these, the case's and the response's before it is scored. A takeover's job leaves them as they are.
    const RunFacts* fillFrom = nullptr;
    /// The schema the answer was asked with when it is not the case's (ResponseRecord::askedSchemaId): validation and
    /// every schema-based check use it. Null: the case's.
    const SchemaSlots::CaseSchema* asked = nullptr;
};

/// A verdict the store keeps for one of a run's responses: its bytes lie in the run's one buffer (a million small
/// strings were a tenth of reading them).
struct KeptVerdict
{
    qint64 responseId = 0;
    qint64 goldRevisionRow = 0;
    std::size_t offset = 0;
    std::size_t size = 0;
};

/// A run's kept verdicts, by response (ascending) and gold revision, and their bytes.
struct KeptVerdicts
{
    std::vector<KeptVerdict> verdicts;
    std::vector<char> bytes; ///< a vector: moving it keeps the data where the jobs' views point
    std::string_view of(const KeptVerdict& k) const { return { bytes.data() + k.offset, k.size }; }
    void clear()
    {
        verdicts.clear();
        bytes.clear();
    }
};

/// The version a verdict is kept under: the scorer's and the encoding's, so that a change of either makes every kept
/// verdict of before unread (and dropped the next time verdicts are kept) instead of misread or refused.
constexpr int kKeptVersion = kScorerVersion * 1000 + kVerdictCodecVersion;

/// The kept verdict of this response measured against this gold revision, if there is one.
const KeptVerdict* findKept(const std::vector<KeptVerdict>& kept, qint64 responseId, qint64 goldRevisionRow)
{
    auto it = std::lower_bound(
        kept.begin(), kept.end(), responseId, [](const KeptVerdict& k, qint64 id) { return k.responseId < id; });
    for (; it != kept.end() && it->responseId == responseId; ++it) {
        if (it->goldRevisionRow == goldRevisionRow)
            return &*it;
    }
    return nullptr;
}

/// The memo's digest of a job's answer: SOB encoding, modality and text, each length-prefixed, as UTF-8 bytes.
VerdictMemo::Digest answerDigest(const Job& job, const QString& modality)
{
    Sha256 sha;
    const auto addText = [&sha](const QByteArray& text) {
        const auto bytes = std::uint64_t(text.size());
        sha.addData(std::string_view(reinterpret_cast<const char*>(&bytes), sizeof bytes));
        sha.addData(std::string_view(text.constData(), std::size_t(text.size())));
    };
    const char sob = job.sobEncoded ? 1 : 0;
    sha.addData(std::string_view(&sob, 1));
    // Asked with another schema, the same answer can be valid or not: the schema is part of what is scored.
    const std::int64_t asked = job.asked ? job.response.askedSchemaId : 0;
    sha.addData(std::string_view(reinterpret_cast<const char*>(&asked), sizeof asked));
    addText(modality.toUtf8());
    addText(job.response.rawUtf8);
    const QByteArray result = sha.result();
    VerdictMemo::Digest digest {};
    std::memcpy(digest.data(), result.constData(), std::min(digest.size(), std::size_t(result.size())));
    return digest;
}

/// A (case, repeat) of a family of retry runs: the record that answers it, and whether that answer succeeded.
struct Slot
{
    std::size_t record = 0;
    bool answered = false;
    qint64 pendingRun = -1; ///< the run whose pending job scores it (a later answer of that run replaces the job)
    std::size_t pendingJob = 0;
};

/// Scores the job's answer into `record`; false (nothing scored) when the case's gold does not parse.
bool score(Job& job, ScoredRecord& record)
{
    static const json noGold;
    const CaseFacts& facts = *job.facts;
    ScoreInput input;
    input.gold = &noGold;
    if (CaseGold* const gold = facts.gold) {
        std::call_once(gold->once, [gold] {
            if (auto parsed = ResultStore::parseGoldText(gold->stored))
                gold->value = std::move(*parsed);
            else
                gold->damaged = true;
            gold->stored.utf8 = {};
        });
        if (gold->damaged)
            return false;
        input.gold = &gold->value;
    }
    SchemaSlot* const slot = job.asked ? job.asked->slot : facts.compiled;
    if (slot) {
        const CompiledForScoring& compiled = slot->compile(*job.options);
        input.compiledSchema = compiled.schema;
        input.groundingSchema = compiled.grounding;
    }
    input.schema = job.asked ? job.asked->document : facts.schema;
    input.modality = modalityFromId(record.modality.toStdString()).value_or(Modality::Text);
    const QByteArray& raw = job.response.rawUtf8; // read with ResponseFields::ForScoring
    input.response = std::string_view(raw.constData(), std::size_t(raw.size()));
    json decoded;
    if (job.sobEncoded) {
        std::string error;
        if (parseJsonDocument(std::string_view(raw.constData(), std::size_t(raw.size())), decoded, error))
            setImportedCandidate(input, decoded);
    }
    record.verdict = scoreResponse(input, *job.options);
    return true;
}

QString providerLabel(const RunRecord& run)
{
    // Imported runs are named "import:<model>"; show the model as the tool that produced it named it.
    if (run.modelSpec.startsWith(QLatin1String("import:")))
        return run.modelSpec.mid(7);
    return run.modelSpec;
}

} // namespace

namespace {

/// evaluateStore(), or with `onlyCases` (at most ResultStore::kMaxCasesPerQuery) the records of those cases only:
/// their facts, gold and responses read by case row, the responses in one query over the case index; no progress is
/// reported.
/// (response id, gold revision row) → the verdict an earlier evaluation scored for it.
using EarlierVerdicts = QHash<std::pair<qint64, qint64>, const Verdict*>;

/// The verdicts of an earlier evaluation that still hold (this scorer version), by their key; none without one.
EarlierVerdicts earlierVerdicts(const ScoredRecords* reuse)
{
    EarlierVerdicts earlier;
    if (!reuse)
        return earlier;
    earlier.reserve(reuse->size());
    for (const ScoredRecord& r : *reuse) {
        if (r.scorerVersion == kScorerVersion && r.responseId > 0)
            earlier.emplace(std::pair(r.responseId, r.goldRevisionRow), &r.verdict);
    }
    return earlier;
}

/// Fills the record of a job, on the pool: its grouping facts, then its verdict — taken over from the earlier
/// evaluation, decoded from the store's kept bytes, copied from an identical answer's record, or scored. Notes in
/// `reusedOf` which it was (1 taken over, 3 kept, 2 copied, 0 scored), and the run of the record's response.
struct RecordFiller
{
    const EarlierVerdicts& earlier;
    std::vector<ScoredRecord>& records;
    std::vector<std::uint8_t>& reusedOf;
    std::vector<qint64>& runOfRecord;
    std::atomic_bool& storedDamaged; ///< a kept verdict did not decode
    std::atomic<qint64>& damagedGoldRow; ///< a gold revision whose column holds no JSON, met while scoring

    void operator()(Job& job) const
    {
        ScoredRecord& record = records[job.index];
        if (const RunFacts* run = job.fillFrom) {
            // Latency and cost were set by the reading thread, which may add a retry's cost to them later.
            const CaseFacts& fact = *job.facts;
            record.suite = run->suite;
            record.model = run->model;
            record.strategy = run->strategy;
            record.runId = run->root;
            record.caseId = fact.id;
            record.caseRow = job.response.caseRow;
            record.repeat = job.response.repeat;
            record.category = fact.category;
            record.tier = fact.tier;
            record.difficulty = fact.difficulty;
            record.sourceKind = fact.sourceKind;
            record.modality = run->modality;
            record.simulated = run->simulated;
            record.weight = fact.weight;
        }
        record.responseId = job.response.id;
        record.error = transportErrorOf(job.response.errorKind);
        record.goldRevisionRow = job.facts->goldRevisionRow;
        record.scorerVersion = kScorerVersion;
        runOfRecord[job.index] = job.response.runId;
        if (!earlier.empty()) {
            if (const auto it = earlier.constFind({ job.response.id, job.facts->goldRevisionRow });
                it != earlier.cend()) {
                record.verdict = **it;
                reusedOf[job.index] = 1;
                return;
            }
        }
        if (!job.stored.empty()) {
            // Its answer was not read: a verdict that does not decode cannot be scored here. The pass is made again
            // without kept verdicts (evaluateStore()).
            reusedOf[job.index] = 3;
            if (!decodeVerdict(job.stored, record.verdict))
                storedDamaged = true;
            return;
        }
        reusedOf[job.index] = 0;
        const auto scoreHere = [&job, &record, this] {
            if (score(job, record))
                return true;
            qint64 none = 0;
            damagedGoldRow.compare_exchange_strong(none, job.facts->goldRevisionRow);
            return false;
        };
        if (!job.memo) {
            scoreHere();
            return;
        }
        const VerdictMemo::Digest digest = answerDigest(job, record.modality);
        if (const auto place = job.memo->find(job.facts, digest)) {
            // Scored before the entry was made (under the memo's lock), never changed afterwards.
            record.verdict = records[*place].verdict;
            reusedOf[job.index] = 2;
            return;
        }
        if (scoreHere())
            job.memo->insert(job.facts, digest, job.index);
    }
};

/// The runs of every suite, and (when counted) how many responses each holds: the work a pass reads.
struct RunsToRead
{
    std::vector<QList<RunRecord>> runsBySuite; ///< in the order of the suites
    std::unordered_map<qint64, qint64> countOfRun; ///< run row → its responses (when counted)
    qint64 total = 0; ///< the responses of every run (when counted)
};

/// Reads the runs of `suites` into `out`, counting each run's responses when `count` is set (one indexed count
/// each); the error, or "".
QString runsToRead(ResultStore& store, const QList<SuiteRecord>& suites, bool count, RunsToRead& out)
{
    for (const SuiteRecord& suite : suites) {
        auto runs = store.runs(suite.row);
        if (!runs)
            return runs.errorMessage();
        for (const RunRecord& run : runs.value()) {
            if (!count)
                break;
            const auto responses = store.responseCount(run.id);
            if (!responses)
                return responses.errorMessage();
            out.total += responses.value();
            out.countOfRun[run.id] = responses.value();
        }
        out.runsBySuite.push_back(std::move(runs.value()));
    }
    return {};
}

/// What a pass knows of one suite's cases while it scores their responses: their facts, gold and schemas. Jobs
/// point into it: it is filled in place and outlives them.
struct SuiteCases
{
    std::deque<CaseGold> golds; ///< parsed by the first job that needs each
    SchemaSlots schemaSlots; ///< compiled by the first job that needs each
    QHash<qint64, CaseFacts> facts; ///< case row → its facts
    std::unordered_map<qint64, SchemaSlots::CaseSchema> askedOf; ///< asked schema row → its document and slot
};

/// Fills `out` for a suite whose manifest is `manifest`: a CaseFacts per case (of `onlyCases` when given) with its
/// gold revision from `gold` and its schema; and a slot for each schema responses were asked with.
void fillSuiteCases(SuiteCases& out, const json& manifest, QList<CaseRecord>& cases,
    std::vector<ResultStore::GoldText>& gold, const std::map<qint64, json>& askedSchemas,
    const QList<qint64>* onlyCases)
{
    QHash<qint64, CaseGold*> goldByCase;
    goldByCase.reserve(qsizetype(gold.size()));
    for (ResultStore::GoldText& g : gold) {
        CaseGold& held = out.golds.emplace_back();
        held.stored = std::move(g);
        goldByCase.insert(held.stored.caseRow, &held);
    }
    const json* documents = nullptr;
    if (const auto it = manifest.find("schema_documents"); it != manifest.end() && it->is_object())
        documents = &*it;
    const std::string defaultSchema = manifest.value("default_schema", std::string());
    out.facts.reserve(cases.size());
    for (CaseRecord& c : cases) {
        if (onlyCases && !onlyCases->contains(c.row))
            continue;
        CaseFacts& f = out.facts[c.row];
        f.id = c.id;
        f.category = c.category;
        f.tier = c.tier;
        f.sourceKind = QString::fromStdString(c.extra.value("source_kind", c.category.toStdString()));
        f.difficulty = QString::fromStdString(caseDifficulty(c.extra));
        f.extra = std::move(c.extra);
        f.weight = complexityWeight(c.tier);
        if (CaseGold* const g = goldByCase.value(c.row)) {
            f.gold = g;
            f.goldRevisionRow = g->stored.row;
        }
        f.schemaName = c.schemaName.isEmpty() ? defaultSchema : c.schemaName.toStdString();
    }
    // Schema pointers are taken once the table no longer grows: each distinct document gets one slot, compiled by
    // the first job that needs it, and its cases share it.
    for (auto it = out.facts.begin(); it != out.facts.end(); ++it) {
        CaseFacts& f = it.value();
        const SchemaSlots::CaseSchema schema = out.schemaSlots.forCase(f.extra, f.schemaName, documents);
        f.schema = schema.document;
        f.compiled = schema.slot;
    }
    for (const auto& [row, document] : askedSchemas)
        out.askedOf.emplace(row, out.schemaSlots.forDocument(document));
}

/// Counts where the records' verdicts came from (RecordFiller's `reusedOf`) into `evaluation`, and lists the records
/// scored in this pass that the store does not keep yet (scored or copied, of a stored response).
void tallySources(Evaluation& evaluation, const std::vector<std::uint8_t>& reusedOf,
    const std::vector<qint64>& runOfRecord, const std::vector<ScoredRecord>& records)
{
    evaluation.reused = std::count(reusedOf.begin(), reusedOf.end(), std::uint8_t(1));
    evaluation.identical = std::count(reusedOf.begin(), reusedOf.end(), std::uint8_t(2));
    evaluation.stored = std::count(reusedOf.begin(), reusedOf.end(), std::uint8_t(3));
    for (std::size_t place = 0; place < records.size(); ++place) {
        if ((reusedOf[place] == 0 || reusedOf[place] == 2) && records[place].responseId > 0)
            evaluation.unkept.push_back({ place, runOfRecord[place] });
    }
}

Evaluation evaluate(ResultStore& store, const EvaluationOptions& options, const QList<qint64>* onlyCases)
{
    Evaluation evaluation;
    if (onlyCases && onlyCases->isEmpty())
        return evaluation;
    const auto suites = store.suites();
    if (!suites) {
        evaluation.error = suites.errorMessage();
        return evaluation;
    }

    // The schemas answers were asked with where not their case's: few documents, read once, compiled per suite.
    auto askedSchemas = store.askedSchemas();
    if (!askedSchemas) {
        evaluation.error = askedSchemas.errorMessage();
        return evaluation;
    }

    // Verdicts of an earlier evaluation whose key still holds are taken over, not scored again.
    const EarlierVerdicts earlier = earlierVerdicts(options.reuse);
    // Records are appended as responses are read, so their order is that of the suites, runs and responses. The
    // vector is reserved for every response counted below, and filled in place: no second copy of the records,
    // and no per-record allocation (a deque of them was both). Jobs refer to records by place.
    std::vector<ScoredRecord> records;
    // Whether each record's verdict was taken over (1) or copied from an identical answer's (2), else 0 (a slot a
    // retry run takes over is decided twice; the last counts).
    // 3: read from the store's kept verdicts. And the run of each record's response (a retry's, where it took the
    // slot over), for keeping what was scored.
    std::vector<std::uint8_t> reusedOf;
    std::vector<qint64> runOfRecord;
    std::atomic_bool storedDamaged = false;
    std::atomic<qint64> damagedGoldRow = 0; // a gold revision whose column holds no JSON, met while scoring
    const RecordFiller scoreOrReuse { earlier, records, reusedOf, runOfRecord, storedDamaged, damagedGoldRow };

    // The responses to read, for the progress: the runs' counts, one indexed count each.
    RunsToRead toRead;
    if (const QString error = runsToRead(store, suites.value(), onlyCases == nullptr, toRead); !error.isEmpty()) {
        evaluation.error = error;
        return evaluation;
    }
    qint64 total = toRead.total;
    std::unordered_map<qint64, qint64>& countOfRun = toRead.countOfRun;
    const std::vector<QList<RunRecord>>& runsBySuite = toRead.runsBySuite;
    // The responses of only some cases are read at once, in one query over the case index, and then handed out
    // run by run (a query per run cost more than the reading: ~0.3 ms each, a hundred runs after a gold edit). Their
    // jobs are scored together once every run has had its turn, not run by run on a helper thread: a hundred runs of
    // five answers each waited for the thread and the pool more than they scored.
    std::unordered_map<qint64, std::vector<ResponseRecord>> responsesOfCases;
    const bool allAtOnce = onlyCases != nullptr;
    if (onlyCases && !onlyCases->isEmpty()) {
        const auto read = store.forEachResponseOfCases(
            *onlyCases,
            [&responsesOfCases, &total](const ResponseRecord& response) {
                responsesOfCases[response.runId].push_back(response);
                ++total;
                return true;
            },
            ResponseFields::ForScoring);
        if (!read) {
            evaluation.error = read.errorMessage();
            return evaluation;
        }
    }
    reservePrefaulted(records, std::size_t(total)); // written by this thread, the one that reads the store
    reusedOf.reserve(std::size_t(total));
    runOfRecord.reserve(std::size_t(total));
    const bool readKept = options.useStoredVerdicts && !onlyCases && store.keepsVerdicts();
    qint64 done = 0;
    const qint64 chunk = std::max<qint64>(256, total / 100);
    std::atomic_bool cancelled = false;
    // Scores one run's jobs in chunks (progress and cancel are checked between them, not per response); the
    // responses, their raw text above all, are dropped once scored. False when cancelled. Runs on a helper thread
    // (see `settle` below), one run at a time: `done` and the progress calls are its alone.
    const auto scoreJobs = [&](std::vector<Job>& jobs) {
        for (std::size_t start = 0; start < jobs.size(); start += std::size_t(chunk)) {
            if ((options.cancel && options.cancel->load()) || cancelled)
                return false;
            const std::size_t end = std::min(jobs.size(), start + std::size_t(chunk));
            QtConcurrent::blockingMap(jobs.begin() + qsizetype(start), jobs.begin() + qsizetype(end), scoreOrReuse);
            done += qint64(end - start);
            if (options.progress && !options.progress(std::min(done, total), total))
                cancelled = true;
        }
        jobs.clear();
        return !cancelled;
    };

    for (std::size_t suiteIndex = 0; suiteIndex < std::size_t(suites->size()); ++suiteIndex) {
        const SuiteRecord& suite = suites->at(qsizetype(suiteIndex));
        const json& manifest = suite.manifest;
        static const json noCatalog;
        const auto catalog = manifest.find("catalog");
        ScoringOptions scoring
            = ScoringOptions::forManifest(manifest, catalog != manifest.end() ? *catalog : noCatalog);
        // Reports need valid or not; the Cases page re-scores the one response it shows with the error list.
        scoring.collectSchemaErrors = false;

        // Scoring never reads a case's input text, which is most of an imported SOB case.
        auto cases = onlyCases ? store.cases(suite.row, CaseFields::WithoutText, *onlyCases)
                               : store.cases(suite.row, CaseFields::WithoutText);
        // Gold is parsed, and schemas compiled, by the jobs that need them (SchemaSlot, CaseGold).
        auto gold = store.goldTextForSuite(suite.row, options.gold, onlyCases);
        if (!cases || !gold) {
            evaluation.error = cases ? gold.errorMessage() : cases.errorMessage();
            return evaluation;
        }
        SuiteCases suiteCases;
        fillSuiteCases(suiteCases, manifest, cases.value(), gold.value(), askedSchemas.value(), onlyCases);
        const QHash<qint64, CaseFacts>& facts = suiteCases.facts;
        const std::unordered_map<qint64, SchemaSlots::CaseSchema>& askedOf = suiteCases.askedOf;
        // A response that names an asked schema the store does not hold (response id, schema row).
        std::optional<std::pair<qint64, qint64>> askedMissing;

        const QList<RunRecord>& runs = runsBySuite[suiteIndex];
        // A run that retries the errored slots of another names it in settings.retry_of. A slot (case,
        // repeat) of such a family of runs counts once, under the first run: its latest successful answer,
        // else its latest failure (retryRoots names each run's first run, as the runner links them). A later
        // run's answer that takes a slot over is scored with that run; the slot's record keeps its place.
        const QHash<qint64, qint64> rootOf = retryRoots(runs);
        QSet<qint64> retriedRoots; // families of more than one run: their records may be taken over
        for (auto it = rootOf.cbegin(); it != rootOf.cend(); ++it) {
            if (it.key() != it.value())
                retriedRoots.insert(it.value());
        }
        std::map<qint64, QHash<ResponseKey, Slot>> slotsByRoot;
        std::vector<Job> jobs;
        // A run's responses are scored while the next run is read: reading stays on this thread (the store's
        // connection belongs to it), a helper drives the thread pool through the previous run's jobs. So at most
        // two runs' raw answers are held at a time. Declared after everything its jobs point to (this suite's facts
        // and options): leaving the scope, however early, waits for the helper first.
        VerdictMemo memo;
        std::deque<RunFacts> runFacts; // the jobs point at them
        std::vector<Job> inFlight;
        KeptVerdicts kept; // the run being read's
        KeptVerdicts inFlightKept; // the run being scored's: its jobs point into it
        std::future<bool> helper;
        // Waits for the run being scored; false when it was cancelled. Rethrows what scoring threw.
        const auto settle = [&inFlight, &inFlightKept, &helper]() {
            if (!helper.valid())
                return true;
            const bool finished = helper.get();
            inFlight.clear();
            inFlightKept.clear();
            return finished;
        };
        bool stopped = false;
        for (const RunRecord& run : runs) {
            const bool sob = run.settings.value("import_format", std::string()) == "sob";
            const RunFacts* const thisRun = &runFacts.emplace_back(RunFacts { suite.id, providerLabel(run),
                run.strategy, QString::fromStdString(run.settings.value("modality", std::string("text"))),
                rootOf.value(run.id, run.id), run.providerKind == QLatin1String("sim") });
            const qint64 root = thisRun->root;
            // Only a family of retry runs can answer a (case, repeat) twice: a run answers each once.
            const bool retried = retriedRoots.contains(root);
            QHash<ResponseKey, Slot>& slotTable = slotsByRoot[root];
            VerdictMemo* const runMemo = retried ? nullptr : &memo;
            jobs.reserve(std::size_t(countOfRun[run.id]));
            // The verdicts the store keeps for this run's responses, for the jobs that need them.
            kept.clear();
            if (readKept) {
                const auto read = store.forEachStoredVerdict(
                    run.id, kKeptVersion, [&kept](qint64 responseId, qint64 goldRow, std::string_view bytes) {
                        kept.verdicts.push_back({ responseId, goldRow, kept.bytes.size(), bytes.size() });
                        kept.bytes.insert(kept.bytes.end(), bytes.begin(), bytes.end());
                        return true;
                    });
                if (!read) {
                    evaluation.error = read.errorMessage();
                    return evaluation;
                }
            }
            // The last answer needsText() looked up, for the visit of the same row that follows.
            qint64 lookedUp = -1;
            const KeptVerdict* lookedUpKept = nullptr;
            const auto takeKept = [&](const ResponseRecord& response, qint64 goldRow) {
                const KeptVerdict* found = response.id == lookedUp ? lookedUpKept
                    : kept.verdicts.empty()                        ? nullptr
                                                                   : findKept(kept.verdicts, response.id, goldRow);
                // An empty answer text means it was not read: only then is the kept verdict used (a store of an
                // older schema, or a read that ignored needsText, read every answer and scores it).
                if (!found || !response.rawUtf8.isEmpty())
                    return std::string_view();
                return kept.of(*found);
            };
            // An answer is read only when neither the earlier evaluation nor the store has its verdict.
            const std::function<bool(qint64, qint64)> needsText = [&](qint64 responseId, qint64 caseRow) {
                lookedUp = responseId;
                lookedUpKept = nullptr;
                const auto fact = facts.constFind(caseRow);
                if (fact == facts.cend())
                    return false; // not scored at all
                const qint64 goldRow = fact->goldRevisionRow;
                if (!earlier.empty() && earlier.contains({ responseId, goldRow }))
                    return false;
                const KeptVerdict* found
                    = kept.verdicts.empty() ? nullptr : findKept(kept.verdicts, responseId, goldRow);
                if (found && found->size == 0)
                    found = nullptr; // nothing to decode: score the answer
                lookedUpKept = found;
                return found == nullptr;
            };
            const auto visit = [&](const ResponseRecord& response) {
                const auto fact = facts.constFind(response.caseRow);
                if (fact == facts.cend())
                    return true;
                const SchemaSlots::CaseSchema* asked = nullptr;
                if (response.askedSchemaId > 0) {
                    const auto found = askedOf.find(response.askedSchemaId);
                    if (found == askedOf.end()) {
                        askedMissing = std::pair(response.id, response.askedSchemaId);
                        return false;
                    }
                    asked = &found->second;
                }
                const ResponseKey key { response.caseRow, response.repeat };
                if (const auto seen = retried ? slotTable.find(key) : slotTable.end(); seen != slotTable.end()) {
                    Slot& slot = seen.value();
                    ScoredRecord& earlierRecord = records[slot.record];
                    // Every call of the slot was paid for, the failed ones too.
                    if (response.cost)
                        earlierRecord.cost = earlierRecord.cost.value_or(0.0) + *response.cost;
                    if (!response.errorKind.isEmpty() && slot.answered)
                        return true;
                    slot.answered = response.errorKind.isEmpty();
                    earlierRecord.latencyMs = response.latencyMs;
                    if (slot.pendingRun == run.id) {
                        jobs[slot.pendingJob].response = response;
                        jobs[slot.pendingJob].stored = takeKept(response, fact->goldRevisionRow);
                    } else if (allAtOnce) {
                        // The earlier run's job is not scored yet: this answer is scored instead, as it would be
                        // after it.
                        slot.pendingRun = run.id;
                        const RunFacts* fill = jobs[slot.pendingJob].fillFrom; // the record may not be filled yet
                        jobs[slot.pendingJob]
                            = { &fact.value(), &scoring, response, sob, slot.record, nullptr, {}, fill };
                    } else {
                        slot.pendingRun = run.id;
                        slot.pendingJob = jobs.size();
                        jobs.push_back({ &fact.value(), &scoring, response, sob, slot.record, nullptr,
                            takeKept(response, fact->goldRevisionRow) });
                    }
                    jobs[slot.pendingJob].asked = asked;
                    return true;
                }
                // Records are reserved for the responses counted before reading; more arrived meanwhile, and
                // growing moves them: not while the helper writes verdicts into them.
                if (records.size() == records.capacity() || reusedOf.size() == reusedOf.capacity()
                    || runOfRecord.size() == runOfRecord.capacity()) {
                    if (!settle()) {
                        stopped = true;
                        return false;
                    }
                }
                if (retried)
                    slotTable.insert(key, { records.size(), response.errorKind.isEmpty(), run.id, jobs.size() });
                // The rest of the record is filled by its job, on the pool: the reading thread is the one that waits.
                ScoredRecord& r = records.emplace_back();
                reusedOf.push_back(0);
                runOfRecord.push_back(run.id);
                r.latencyMs = response.latencyMs;
                r.cost = response.cost;
                const std::string_view stored = takeKept(response, fact->goldRevisionRow);
                VerdictMemo* const jobMemo = stored.empty() ? runMemo : nullptr; // no answer read to digest
                jobs.push_back(
                    { &fact.value(), &scoring, response, sob, records.size() - 1, jobMemo, stored, thisRun });
                jobs.back().asked = asked;
                return true;
            };
            StoreResult<qint64> visited = qint64(0);
            if (onlyCases) {
                if (const auto held = responsesOfCases.find(run.id); held != responsesOfCases.end()) {
                    for (const ResponseRecord& response : held->second) {
                        if (!visit(response))
                            break;
                    }
                }
            } else if (readKept || !earlier.empty()) {
                // The store keeps a verdict for each of the run's answers (of this gold or another): few are read.
                const bool fewTexts = !kept.verdicts.empty() && qint64(kept.verdicts.size()) >= countOfRun[run.id];
                visited = store.forEachResponseForScoring(run.id, visit, needsText, fewTexts);
            } else {
                visited = store.forEachResponse(run.id, visit, ResponseFields::ForScoring);
            }
            if (!visited) {
                evaluation.error = visited.errorMessage();
                return evaluation;
            }
            if (askedMissing) {
                evaluation.error
                    = u"responses row %1 names asked schema %2, which the store does not hold: the store "
                      "is damaged"_s.arg(QString::number(askedMissing->first), QString::number(askedMissing->second));
                return evaluation;
            }
            if (allAtOnce)
                continue;
            if (stopped || !settle()) {
                evaluation.cancelled = true;
                return evaluation;
            }
            inFlight = std::move(jobs);
            jobs.clear();
            std::swap(inFlightKept, kept); // the run's jobs point into its kept bytes (cleared above)
            helper = std::async(std::launch::async, [&scoreJobs, &inFlight] { return scoreJobs(inFlight); });
        }
        if (!settle() || (allAtOnce && !scoreJobs(jobs))) {
            evaluation.cancelled = true;
            return evaluation;
        }
    }

    if (const qint64 row = damagedGoldRow.load()) {
        evaluation.error = ResultStore::damagedGold(row).message;
        return evaluation;
    }
    // Responses of unknown cases and failures after an answer were read but not scored: the bar still ends full.
    if (options.progress && total > 0)
        options.progress(total, total);
    evaluation.storedDamaged = storedDamaged;
    tallySources(evaluation, reusedOf, runOfRecord, records);
    evaluation.records = ScoredRecords(std::move(records));
    return evaluation;
}

} // namespace

Evaluation evaluateStore(ResultStore& store, const EvaluationOptions& options)
{
    Evaluation evaluation = evaluate(store, options, nullptr);
    if (evaluation.storedDamaged && evaluation.ok()) {
        EvaluationOptions fromAnswers = options;
        fromAnswers.useStoredVerdicts = false;
        evaluation = evaluate(store, fromAnswers, nullptr);
        evaluation.storedDamaged = true;
    }
    return evaluation;
}

CasePlaces::CasePlaces(const ScoredRecords& records)
    : m_size(records.size())
{
    if (records.size() > std::numeric_limits<std::uint32_t>::max()) {
        m_complete = false;
        return;
    }
    // A case's repeats are neighbours: the last case's list is kept at hand.
    qint64 lastCase = 0;
    std::vector<std::uint32_t>* last = nullptr;
    std::uint32_t place = 0;
    for (std::size_t s = 0; s < records.spanCount(); ++s) {
        for (const ScoredRecord& r : records.span(s)) {
            if (r.caseRow == 0) {
                m_complete = false;
                m_places.clear();
                return;
            }
            if (!last || r.caseRow != lastCase) {
                lastCase = r.caseRow;
                last = &m_places[r.caseRow];
            }
            last->push_back(place++);
        }
    }
}

std::span<const std::uint32_t> CasePlaces::of(qint64 caseRow) const
{
    const auto it = m_places.find(caseRow);
    return it == m_places.end() ? std::span<const std::uint32_t>() : std::span<const std::uint32_t>(it->second);
}

Evaluation reevaluateCases(ResultStore& store, const ScoredRecords& earlier, const QSet<qint64>& caseRows,
    const EvaluationOptions& options, std::shared_ptr<const CasePlaces> earlierPlaces)
{
    EvaluationOptions full = options;
    full.reuse = &earlier;
    if (caseRows.size() > ResultStore::kMaxCasesPerQuery)
        return evaluateStore(store, full);
    const QList<qint64> rows(caseRows.cbegin(), caseRows.cend());
    EvaluationOptions partialOptions = options;
    partialOptions.progress = nullptr;
    partialOptions.reuse = nullptr;
    Evaluation partial = evaluate(store, partialOptions, &rows);
    if (!partial.ok())
        return partial;

    // The new records of the cases take the places of the earlier ones, slot by slot; should the slots differ
    // (responses added or gone meanwhile), everything is evaluated again.
    struct SlotKey
    {
        qint64 run, caseRow;
        int repeat;
        bool operator==(const SlotKey&) const = default;
    };
    struct SlotHash
    {
        std::size_t operator()(const SlotKey& k) const { return qHashMulti(0, k.run, k.caseRow, k.repeat); }
    };
    if (!earlierPlaces || earlierPlaces->size() != earlier.size())
        earlierPlaces = std::make_shared<const CasePlaces>(earlier);
    if (!earlierPlaces->complete())
        return evaluateStore(store, full); // from before records knew their case row
    std::unordered_map<SlotKey, std::size_t, SlotHash> placeOf;
    for (const qint64 caseRow : caseRows) {
        for (const std::uint32_t place : earlierPlaces->of(caseRow)) {
            const ScoredRecord& r = earlier[place];
            placeOf.emplace(SlotKey { r.runId, r.caseRow, r.repeat }, place);
        }
    }
    if (placeOf.size() != partial.records.size())
        return evaluateStore(store, full);
    std::vector<std::pair<std::size_t, ScoredRecord>> replacements;
    replacements.reserve(partial.records.size());
    std::vector<std::size_t> places;
    places.reserve(partial.records.size());
    for (const ScoredRecord& r : partial.records) {
        const auto place = placeOf.find(SlotKey { r.runId, r.caseRow, r.repeat });
        if (place == placeOf.end())
            return evaluateStore(store, full);
        replacements.emplace_back(place->second, r);
        places.push_back(place->second);
        placeOf.erase(place);
    }
    Evaluation evaluation;
    // The partial pass's places are those of its own records: each becomes the place its record takes.
    for (const UnkeptVerdict& u : partial.unkept)
        evaluation.unkept.push_back({ places[u.place], u.runId });
    std::sort(evaluation.unkept.begin(), evaluation.unkept.end(),
        [](const UnkeptVerdict& a, const UnkeptVerdict& b) { return a.place < b.place; });
    std::sort(places.begin(), places.end());
    evaluation.records = earlier.withReplaced(std::move(replacements));
    evaluation.reused = qint64(earlier.size() - places.size());
    evaluation.rescoredPlaces = std::move(places);
    evaluation.casePlaces = std::move(earlierPlaces); // the same slots
    if (options.progress)
        options.progress(qint64(evaluation.records.size()), qint64(evaluation.records.size()));
    return evaluation;
}

StoreResult<qint64> keepVerdicts(ResultStore& store, const ScoredRecords& records,
    const std::vector<UnkeptVerdict>& unkept, const std::atomic_bool* cancel)
{
    if (unkept.empty() || !store.keepsVerdicts())
        return qint64(0);
    // A batch is a few milliseconds of writing: a runner storing its answers meanwhile waits no longer than that.
    constexpr std::size_t kBatch = 4096;
    // Those of other versions can never be read again.
    if (auto dropped = store.dropStoredVerdictsExcept(kKeptVersion); !dropped)
        return dropped.error();
    qint64 written = 0;
    std::vector<StoredVerdict> batch;
    batch.reserve(std::min(kBatch, unkept.size()));
    for (std::size_t start = 0; start < unkept.size(); start += kBatch) {
        if (cancel && cancel->load())
            break;
        batch.clear();
        const std::size_t end = std::min(unkept.size(), start + kBatch);
        for (std::size_t i = start; i < end; ++i) {
            if (unkept[i].place >= records.size())
                return StoreError { StoreErrorKind::InvalidArgument,
                    QStringLiteral("a verdict to keep has no record (place %1 of %2)")
                        .arg(unkept[i].place)
                        .arg(records.size()) };
            const ScoredRecord& r = records[unkept[i].place];
            if (r.responseId <= 0 || r.scorerVersion != kScorerVersion || unkept[i].runId <= 0)
                continue; // not read from a store, or not by this scorer
            batch.push_back(
                { unkept[i].runId, r.responseId, r.goldRevisionRow, kKeptVersion, encodeVerdict(r.verdict) });
        }
        if (auto stored = store.storeVerdicts(batch); !stored)
            return stored.error();
        written += qint64(batch.size());
    }
    return written;
}

KeptVerdictsSummary scoreAndKeepVerdicts(ResultStore& store, EvaluationOptions options)
{
    KeptVerdictsSummary summary;
    if (!store.keepsVerdicts())
        return summary;
    const auto edited = store.hasEditedGold();
    if (!edited) {
        summary.error = edited.errorMessage();
        return summary;
    }
    std::vector<GoldBasis> bases { GoldBasis::Measured };
    if (edited.value())
        bases.push_back(GoldBasis::Adjusted);
    options.useStoredVerdicts = true;
    // The verdicts the first pass keeps, when a second follows: for a case whose gold was not edited the adjusted
    // gold is the measured one, and the second pass reads them back. They were not kept before this call.
    QSet<std::pair<qint64, qint64>> keptNow; // (response id, gold revision row)
    for (std::size_t pass = 0; pass < bases.size(); ++pass) {
        options.gold = bases[pass];
        const Evaluation evaluation = evaluateStore(store, options);
        if (!evaluation.ok()) {
            summary.cancelled = evaluation.cancelled;
            summary.error = evaluation.error;
            return summary;
        }
        summary.answers += qint64(evaluation.records.size());
        qint64 readBack = 0;
        if (!keptNow.isEmpty()) {
            auto unkept = evaluation.unkept.cbegin(); // ascending places
            for (std::size_t place = 0; place < evaluation.records.size(); ++place) {
                if (unkept != evaluation.unkept.cend() && unkept->place == place) {
                    ++unkept;
                    continue;
                }
                const ScoredRecord& r = evaluation.records[place];
                readBack += keptNow.contains({ r.responseId, r.goldRevisionRow }) ? 1 : 0;
            }
        }
        summary.alreadyKept += qint64(evaluation.records.size()) - qint64(evaluation.unkept.size()) - readBack;
        if (pass + 1 < bases.size()) {
            keptNow.reserve(qsizetype(evaluation.unkept.size()));
            for (const UnkeptVerdict& u : evaluation.unkept)
                keptNow.insert({ evaluation.records[u.place].responseId, evaluation.records[u.place].goldRevisionRow });
        }
        const auto kept = keepVerdicts(store, evaluation.records, evaluation.unkept, options.cancel);
        if (!kept) {
            summary.error = kept.errorMessage();
            return summary;
        }
        summary.kept += kept.value();
        if (options.cancel && options.cancel->load()) {
            summary.cancelled = true;
            return summary;
        }
    }
    return summary;
}

} // namespace structscope
