// SPDX-License-Identifier: Apache-2.0
#include "report/evaluation.h"

#include "report/schemaslots.h"
#include "scoring/grounding.h"
#include "scoring/pyformat.h"
#include "scoring/scorer.h"
#include "scoring/verdictcodec.h"
#include "stats/means.h"
#include "store/resultstore.h"
#include "store/retrylineage.h"
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
    ResponseRow response;
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
    /// The schema the answer was asked with when it is not the case's (ResponseRow::askedSchemaId): validation and
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

QString providerLabel(const RunRow& run)
{
    // Imported runs are named "import:<model>"; show the model as the tool that produced it named it.
    if (run.modelSpec.startsWith(QLatin1String("import:")))
        return run.modelSpec.mid(7);
    return run.modelSpec;
}

} // namespace

namespace {

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
    std::vector<QList<RunRow>> runsBySuite; ///< in the order of the suites
    std::unordered_map<qint64, qint64> countOfRun; ///< run row → its responses (when counted)
    qint64 total = 0; ///< the responses of every run (when counted)
};

/// Reads the runs of `suites` into `out`, counting each run's responses when `count` is set (one indexed count
/// each); the error, or "".
QString runsToRead(ResultStore& store, const QList<SuiteRow>& suites, bool count, RunsToRead& out)
{
    for (const SuiteRow& suite : suites) {
        auto runs = store.runs(suite.row);
        if (!runs)
            return runs.errorMessage();
        for (const RunRow& run : runs.value()) {
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
void fillSuiteCases(SuiteCases& out, const json& manifest, QList<CaseRow>& cases,
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
    for (CaseRow& c : cases) {
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

/// What one pass over a store shares across its suites: the records it fills, where each verdict came from, the
/// responses it reads and how far scoring got.
struct Pass
{
    Pass(ResultStore& store, const EvaluationOptions& options, const QList<qint64>* onlyCases)
        : store(store)
        , options(options)
        , onlyCases(onlyCases)
        , earlier(earlierVerdicts(options.reuse))
    { }

    /// Reads the runs of `suites` and counts their responses, or with `onlyCases` reads those cases' responses at
    /// once; then reserves the records. The error, or "".
    QString prepare(const QList<SuiteRow>& suites);
    /// Scores jobs in chunks (progress and cancel are checked between them, not per response); the responses, their
    /// raw text above all, are dropped once scored. False when cancelled. One thread at a time (a SuitePass's helper,
    /// one run after another): `done` and the progress calls are its alone.
    bool scoreJobs(std::vector<Job>& jobs);
    /// The responses of only some cases: read at once, in one query over the case index, and handed out run by run
    /// (a query per run cost more than the reading: ~0.3 ms each, a hundred runs after a gold edit). Their jobs are
    /// scored together once every run has had its turn, not run by run on a helper thread: a hundred runs of five
    /// answers each waited for the thread and the pool more than they scored.
    bool allAtOnce() const { return onlyCases != nullptr; }

    ResultStore& store;
    const EvaluationOptions& options;
    const QList<qint64>* const onlyCases;
    /// Verdicts of an earlier evaluation whose key still holds are taken over, not scored again.
    const EarlierVerdicts earlier;
    /// Records are appended as responses are read, so their order is that of the suites, runs and responses. The
    /// vector is reserved for every response counted, and filled in place: no second copy of the records, and no
    /// per-record allocation (a deque of them was both). Jobs refer to records by place.
    std::vector<ScoredRecord> records;
    /// Whether each record's verdict was taken over (1) or copied from an identical answer's (2), else 0 (a slot a
    /// retry run takes over is decided twice; the last counts). 3: read from the store's kept verdicts.
    std::vector<std::uint8_t> reusedOf;
    /// The run of each record's response (a retry's, where it took the slot over), for keeping what was scored.
    std::vector<qint64> runOfRecord;
    std::atomic_bool storedDamaged = false;
    std::atomic<qint64> damagedGoldRow = 0; ///< a gold revision whose column holds no JSON, met while scoring
    const RecordFiller scoreOrReuse { earlier, records, reusedOf, runOfRecord, storedDamaged, damagedGoldRow };

    RunsToRead toRead; ///< the responses to read, for the progress: the runs' counts, one indexed count each
    qint64 total = 0; ///< responses to read
    std::unordered_map<qint64, std::vector<ResponseRow>> responsesOfCases; ///< with `onlyCases`: by run
    bool readKept = false; ///< the store's kept verdicts are read (a whole pass over a store that keeps them)
    qint64 done = 0; ///< responses scored
    qint64 chunk = 256;
    std::atomic_bool cancelled = false;
};

QString Pass::prepare(const QList<SuiteRow>& suites)
{
    if (QString error = runsToRead(store, suites, onlyCases == nullptr, toRead); !error.isEmpty())
        return error;
    total = toRead.total;
    if (onlyCases && !onlyCases->isEmpty()) {
        const auto read = store.forEachResponseOfCases(
            *onlyCases,
            [this](const ResponseRow& response) {
                responsesOfCases[response.runId].push_back(response);
                ++total;
                return true;
            },
            ResponseFields::ForScoring);
        if (!read)
            return read.errorMessage();
    }
    reservePrefaulted(records, std::size_t(total)); // written by this thread, the one that reads the store
    reusedOf.reserve(std::size_t(total));
    runOfRecord.reserve(std::size_t(total));
    readKept = options.useStoredVerdicts && !onlyCases && store.keepsVerdicts();
    chunk = std::max<qint64>(256, total / 100);
    return {};
}

bool Pass::scoreJobs(std::vector<Job>& jobs)
{
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
}

/// One suite's runs, read and scored. A run's responses are scored while the next run is read: reading stays on
/// this thread (the store's connection belongs to it), a helper drives the thread pool through the previous run's
/// jobs. So at most two runs' raw answers are held at a time. The jobs point into it and into the suite's cases and
/// scoring options, which must outlive it; destroying it, however early, waits for the helper first.
class SuitePass
{
public:
    SuitePass(Pass& pass, QString suiteId, const SuiteCases& cases, const ScoringOptions& scoring)
        : m_pass(pass)
        , m_suiteId(std::move(suiteId))
        , m_cases(cases)
        , m_scoring(scoring)
    { }

    enum class Outcome { Done, Failed, Cancelled };
    /// Reads and scores every run of the suite; Failed with why in `error`.
    Outcome run(const QList<RunRow>& runs, QString& error);

private:
    /// Waits for the run being scored; false when it was cancelled. Rethrows what scoring threw.
    bool settle();
    /// Sets up the reading of `run`: its facts, its family of retries, its kept verdicts (the error, or "").
    QString startRun(const RunRow& run);
    /// Hands every response of the run being read to visit().
    StoreResult<qint64> readRun();
    /// The kept verdict of a response the store did not read the answer of, else an empty view.
    std::string_view takeKept(const ResponseRow& response, qint64 goldRow);
    /// Whether an answer must be read: neither the earlier evaluation nor the store has its verdict.
    bool needsText(qint64 responseId, qint64 caseRow);
    /// Makes the job of one response: a new record, or the slot a retry takes over. False stops the reading.
    bool visit(const ResponseRow& response);

    Pass& m_pass;
    const QString m_suiteId;
    const SuiteCases& m_cases;
    const ScoringOptions& m_scoring;
    /// A run that retries the errored slots of another names it in settings.retry_of. A slot (case, repeat) of such
    /// a family of runs counts once, under the first run: its latest successful answer, else its latest failure
    /// (retryRoots names each run's first run, as the runner links them). A later run's answer that takes a slot over
    /// is scored with that run; the slot's record keeps its place.
    QHash<qint64, qint64> m_rootOf;
    QSet<qint64> m_retriedRoots; ///< families of more than one run: their records may be taken over
    std::map<qint64, QHash<ResponseKey, Slot>> m_slotsByRoot;
    /// A response that names an asked schema the store does not hold (response id, schema row).
    std::optional<std::pair<qint64, qint64>> m_askedMissing;
    bool m_stopped = false; ///< cancelled while the records grew
    std::vector<Job> m_jobs; ///< the run being read's

    // The run being read.
    const RunRow* m_run = nullptr;
    bool m_sob = false;
    const RunFacts* m_runFacts = nullptr;
    bool m_retried = false; ///< only a family of retry runs can answer a (case, repeat) twice
    QHash<ResponseKey, Slot>* m_slotTable = nullptr;
    VerdictMemo* m_runMemo = nullptr;
    qint64 m_lookedUp = -1; ///< the last answer needsText() looked up, for the visit of the same row that follows
    const KeptVerdict* m_lookedUpKept = nullptr;

    // What the jobs point to, declared last so that the helper is waited for before any of it goes.
    VerdictMemo m_memo;
    std::deque<RunFacts> m_runs;
    std::vector<Job> m_inFlight;
    KeptVerdicts m_kept; ///< the run being read's
    KeptVerdicts m_inFlightKept; ///< the run being scored's: its jobs point into it
    std::future<bool> m_helper;
};

SuitePass::Outcome SuitePass::run(const QList<RunRow>& runs, QString& error)
{
    m_rootOf = retryRoots(runs);
    for (auto it = m_rootOf.cbegin(); it != m_rootOf.cend(); ++it) {
        if (it.key() != it.value())
            m_retriedRoots.insert(it.value());
    }
    for (const RunRow& run : runs) {
        error = startRun(run);
        if (!error.isEmpty())
            return Outcome::Failed;
        const StoreResult<qint64> visited = readRun();
        if (!visited) {
            error = visited.errorMessage();
            return Outcome::Failed;
        }
        if (m_askedMissing) {
            error
                = u"responses row %1 names asked schema %2, which the store does not hold: the store is damaged"_s.arg(
                    QString::number(m_askedMissing->first), QString::number(m_askedMissing->second));
            return Outcome::Failed;
        }
        if (m_pass.allAtOnce())
            continue;
        if (m_stopped || !settle())
            return Outcome::Cancelled;
        m_inFlight = std::move(m_jobs);
        m_jobs.clear();
        std::swap(m_inFlightKept, m_kept); // the run's jobs point into its kept bytes (cleared by the next run)
        m_helper = std::async(std::launch::async, [this] { return m_pass.scoreJobs(m_inFlight); });
    }
    if (!settle() || (m_pass.allAtOnce() && !m_pass.scoreJobs(m_jobs)))
        return Outcome::Cancelled;
    return Outcome::Done;
}

bool SuitePass::settle()
{
    if (!m_helper.valid())
        return true;
    const bool finished = m_helper.get();
    m_inFlight.clear();
    m_inFlightKept.clear();
    return finished;
}

QString SuitePass::startRun(const RunRow& run)
{
    m_run = &run;
    m_sob = run.settings.value("import_format", std::string()) == "sob";
    m_runFacts = &m_runs.emplace_back(RunFacts { m_suiteId, providerLabel(run), run.strategy,
        QString::fromStdString(run.settings.value("modality", std::string("text"))), m_rootOf.value(run.id, run.id),
        run.providerKind == QLatin1String("sim") });
    m_retried = m_retriedRoots.contains(m_runFacts->root);
    m_slotTable = &m_slotsByRoot[m_runFacts->root];
    m_runMemo = m_retried ? nullptr : &m_memo;
    m_jobs.reserve(std::size_t(m_pass.toRead.countOfRun[run.id]));
    m_lookedUp = -1;
    m_lookedUpKept = nullptr;
    // The verdicts the store keeps for this run's responses, for the jobs that need them.
    m_kept.clear();
    if (!m_pass.readKept)
        return {};
    const auto read = m_pass.store.forEachStoredVerdict(
        run.id, kKeptVersion, [this](qint64 responseId, qint64 goldRow, std::string_view bytes) {
            m_kept.verdicts.push_back({ responseId, goldRow, m_kept.bytes.size(), bytes.size() });
            m_kept.bytes.insert(m_kept.bytes.end(), bytes.begin(), bytes.end());
            return true;
        });
    return read ? QString() : read.errorMessage();
}

StoreResult<qint64> SuitePass::readRun()
{
    const qint64 runId = m_run->id;
    const auto visitOne = [this](const ResponseRow& response) { return visit(response); };
    if (m_pass.onlyCases) {
        if (const auto held = m_pass.responsesOfCases.find(runId); held != m_pass.responsesOfCases.end()) {
            for (const ResponseRow& response : held->second) {
                if (!visitOne(response))
                    break;
            }
        }
        return qint64(0);
    }
    if (m_pass.readKept || !m_pass.earlier.empty()) {
        // The store keeps a verdict for each of the run's answers (of this gold or another): few are read.
        const bool fewTexts
            = !m_kept.verdicts.empty() && qint64(m_kept.verdicts.size()) >= m_pass.toRead.countOfRun[runId];
        return m_pass.store.forEachResponseForScoring(
            runId, visitOne, [this](qint64 responseId, qint64 caseRow) { return needsText(responseId, caseRow); },
            fewTexts);
    }
    return m_pass.store.forEachResponse(runId, visitOne, ResponseFields::ForScoring);
}

std::string_view SuitePass::takeKept(const ResponseRow& response, qint64 goldRow)
{
    const KeptVerdict* found = response.id == m_lookedUp ? m_lookedUpKept
        : m_kept.verdicts.empty()                        ? nullptr
                                                         : findKept(m_kept.verdicts, response.id, goldRow);
    // An empty answer text means it was not read: only then is the kept verdict used (a store of an older schema,
    // or a read that ignored needsText, read every answer and scores it).
    if (!found || !response.rawUtf8.isEmpty())
        return {};
    return m_kept.of(*found);
}

bool SuitePass::needsText(qint64 responseId, qint64 caseRow)
{
    m_lookedUp = responseId;
    m_lookedUpKept = nullptr;
    const auto fact = m_cases.facts.constFind(caseRow);
    if (fact == m_cases.facts.cend())
        return false; // not scored at all
    const qint64 goldRow = fact->goldRevisionRow;
    if (!m_pass.earlier.empty() && m_pass.earlier.contains({ responseId, goldRow }))
        return false;
    const KeptVerdict* found = m_kept.verdicts.empty() ? nullptr : findKept(m_kept.verdicts, responseId, goldRow);
    if (found && found->size == 0)
        found = nullptr; // nothing to decode: score the answer
    m_lookedUpKept = found;
    return found == nullptr;
}

bool SuitePass::visit(const ResponseRow& response)
{
    const auto fact = m_cases.facts.constFind(response.caseRow);
    if (fact == m_cases.facts.cend())
        return true;
    const SchemaSlots::CaseSchema* asked = nullptr;
    if (response.askedSchemaId > 0) {
        const auto found = m_cases.askedOf.find(response.askedSchemaId);
        if (found == m_cases.askedOf.end()) {
            m_askedMissing = std::pair(response.id, response.askedSchemaId);
            return false;
        }
        asked = &found->second;
    }
    const qint64 runId = m_run->id;
    const ResponseKey key { response.caseRow, response.repeat };
    if (const auto seen = m_retried ? m_slotTable->find(key) : m_slotTable->end(); seen != m_slotTable->end()) {
        Slot& slot = seen.value();
        ScoredRecord& earlierRecord = m_pass.records[slot.record];
        // Every call of the slot was paid for, the failed ones too.
        if (response.cost)
            earlierRecord.cost = earlierRecord.cost.value_or(0.0) + *response.cost;
        if (!response.errorKind.isEmpty() && slot.answered)
            return true;
        slot.answered = response.errorKind.isEmpty();
        earlierRecord.latencyMs = response.latencyMs;
        if (slot.pendingRun == runId) {
            m_jobs[slot.pendingJob].response = response;
            m_jobs[slot.pendingJob].stored = takeKept(response, fact->goldRevisionRow);
        } else if (m_pass.allAtOnce()) {
            // The earlier run's job is not scored yet: this answer is scored instead, as it would be after it.
            slot.pendingRun = runId;
            const RunFacts* fill = m_jobs[slot.pendingJob].fillFrom; // the record may not be filled yet
            m_jobs[slot.pendingJob] = { &fact.value(), &m_scoring, response, m_sob, slot.record, nullptr, {}, fill };
        } else {
            slot.pendingRun = runId;
            slot.pendingJob = m_jobs.size();
            m_jobs.push_back({ &fact.value(), &m_scoring, response, m_sob, slot.record, nullptr,
                takeKept(response, fact->goldRevisionRow) });
        }
        m_jobs[slot.pendingJob].asked = asked;
        return true;
    }
    // Records are reserved for the responses counted before reading; more arrived meanwhile, and growing moves
    // them: not while the helper writes verdicts into them.
    std::vector<ScoredRecord>& records = m_pass.records;
    if (records.size() == records.capacity() || m_pass.reusedOf.size() == m_pass.reusedOf.capacity()
        || m_pass.runOfRecord.size() == m_pass.runOfRecord.capacity()) {
        if (!settle()) {
            m_stopped = true;
            return false;
        }
    }
    if (m_retried)
        m_slotTable->insert(key, { records.size(), response.errorKind.isEmpty(), runId, m_jobs.size() });
    // The rest of the record is filled by its job, on the pool: the reading thread is the one that waits.
    ScoredRecord& r = records.emplace_back();
    m_pass.reusedOf.push_back(0);
    m_pass.runOfRecord.push_back(runId);
    r.latencyMs = response.latencyMs;
    r.cost = response.cost;
    const std::string_view stored = takeKept(response, fact->goldRevisionRow);
    VerdictMemo* const jobMemo = stored.empty() ? m_runMemo : nullptr; // no answer read to digest
    m_jobs.push_back({ &fact.value(), &m_scoring, response, m_sob, records.size() - 1, jobMemo, stored, m_runFacts });
    m_jobs.back().asked = asked;
    return true;
}

/// evaluateStore(), or with `onlyCases` (at most ResultStore::kMaxCasesPerQuery) the records of those cases only:
/// their facts, gold and responses read by case row, the responses in one query over the case index; no progress is
/// reported.
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
    Pass pass(store, options, onlyCases);
    if (const QString error = pass.prepare(suites.value()); !error.isEmpty()) {
        evaluation.error = error;
        return evaluation;
    }

    for (std::size_t suiteIndex = 0; suiteIndex < std::size_t(suites->size()); ++suiteIndex) {
        const SuiteRow& suite = suites->at(qsizetype(suiteIndex));
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
        SuitePass suitePass(pass, suite.id, suiteCases, scoring); // after what its jobs point to: gone first
        QString error;
        const SuitePass::Outcome outcome = suitePass.run(pass.toRead.runsBySuite[suiteIndex], error);
        if (outcome == SuitePass::Outcome::Failed) {
            evaluation.error = error;
            return evaluation;
        }
        if (outcome == SuitePass::Outcome::Cancelled) {
            evaluation.cancelled = true;
            return evaluation;
        }
    }

    if (const qint64 row = pass.damagedGoldRow.load()) {
        evaluation.error = ResultStore::damagedGold(row).message;
        return evaluation;
    }
    // Responses of unknown cases and failures after an answer were read but not scored: the bar still ends full.
    if (options.progress && pass.total > 0)
        options.progress(pass.total, pass.total);
    evaluation.storedDamaged = pass.storedDamaged;
    tallySources(evaluation, pass.reusedOf, pass.runOfRecord, pass.records);
    evaluation.records = ScoredRecords(std::move(pass.records));
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
