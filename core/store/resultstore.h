// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/goldbasis.h"
#include "store/rows.h"
#include "store/sqldialect.h"
#include "store/storelocation.h"
#include "store/storeresult.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QSqlDatabase>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

class QSqlQuery;

namespace structscope {

/// The outcome of ResultStore::addGoldRevision.
struct GoldEditResult
{
    enum class Outcome { Added, Conflict, Failed };
    Outcome outcome = Outcome::Failed;
    GoldRevision added; ///< Added: the stored revision
    GoldRevision theirs; ///< Conflict: the latest revision, written by someone else in the meantime
    GoldRevision mine; ///< Conflict: the edit that was refused (row 0, not stored)
    StoreError error; ///< Conflict / Failed: what happened

    bool ok() const { return outcome == Outcome::Added; }
    bool isConflict() const { return outcome == Outcome::Conflict; }
};

/// The outcome of ResultStore::importSuite.
struct SuiteImportResult
{
    SuiteRow suite;
    bool created = false; ///< false when this exact content (id, hash) was already stored
};

/// What ResultStore::cases reads of each case.
enum class CaseFields {
    All,
    WithoutText ///< everything but `input` (left empty) and `question` (nullopt): what scoring needs
};

/// What ResultStore::forEachResponse reads of each response.
enum class ResponseFields {
    All,
    /// What scoring needs: id, run, case, repeat, raw text (as UTF-8 in rawUtf8; rawText stays empty), HTTP status,
    /// error kind, latency, cost and its source, attempts. The request hash and error message stay empty, ttft and
    /// token counts unset, createdAt invalid: no 64-character hash or message converted and no creation time parsed
    /// from text per row. An SQLite store's responses of a run, in id order, are read through SQLite's own API
    /// (sqlitenative.h): no QVariant per column, no UTF-16.
    ForScoring
};

/// Filter for ResultStore::auditLog; empty fields match everything.
struct AuditQuery
{
    QString entity;
    QString entityId;
    qint64 afterId = 0; ///< only entries with a larger id (for paging and polling)
    int limit = 0; ///< 0: no limit
};

/// Persistent store of suites, gold revisions, runs, raw responses, the audit log and cached verdicts,
/// in a SQLite file (default) or a PostgreSQL database (a `postgresql://` location), with the same schema.
///
/// Responses are append-only facts; verdicts are a cache. Every call reports failure through its
/// result and never throws. A ResultStore is used from one thread (the one that opened it): the
/// runner and the UI each open their own. Each instance has its own database connection.
class ResultStore
{
public:
    struct OpenOptions
    {
        bool readOnly = false; ///< never write; SQLite files that are not writable open read-only anyway
        bool createIfMissing = true; ///< create a new SQLite file / initialise an empty database
        bool integrityCheck = true; ///< run SQLite's quick_check before use (reads the whole file)
    };

    /// Opens (or creates) the store at `location`: a file path (SQLite) or a postgresql:// URL.
    /// Nothing is written to a file or database that turns out not to be a usable store.
    static std::unique_ptr<ResultStore> open(
        const QString& location, const OpenOptions& options, StoreError* error = nullptr);
    /// open() with default options and the error as text.
    static std::unique_ptr<ResultStore> open(const QString& location, QString* error = nullptr);

    /// A second connection to this same store, for another thread: call it in the thread that will use
    /// the result. Never creates, migrates or checks anything; read-only if this one is.
    std::unique_ptr<ResultStore> openAgain(StoreError* error = nullptr) const;

    /// How many connections of this process are open to the SQLite file at `path` (its absolute path).
    static int openConnections(const QString& path);
    /// While held, no connection of this process opens the SQLite file at `path`: open() refuses, saying
    /// why. For replacing a store's files, which is safe only once every connection to them is closed —
    /// one still open would read the new file's -wal and -shm as its own (SQLite opens them by name).
    class OpeningBlocked
    {
    public:
        OpeningBlocked(const QString& path, const QString& why);
        ~OpeningBlocked();
        OpeningBlocked(const OpeningBlocked&) = delete;
        OpeningBlocked& operator=(const OpeningBlocked&) = delete;

    private:
        QString m_path;
    };

    ~ResultStore();
    ResultStore(const ResultStore&) = delete;
    ResultStore& operator=(const ResultStore&) = delete;

    StoreBackend backend() const { return m_location.backend; }
    /// The location without password, for display.
    QString displayName() const { return m_location.displayName(); }
    bool isReadOnly() const { return m_readOnly; }
    /// Why the store is read-only (empty when it is not).
    QString readOnlyReason() const { return m_readOnlyReason; }
    /// Schema version the store had when opened, before any migration (0: created now).
    int schemaVersionAtOpen() const { return m_versionAtOpen; }
    /// The newest schema version this build supports.
    static int supportedSchemaVersion();

    /// Runs the database's own consistency check (SQLite quick_check; a trivial query on PostgreSQL).
    StoreResult<void> checkIntegrity();

    // ---- suites, cases, gold ------------------------------------------------------------------
    /// Stores a suite with its cases and their gold as revision 0; a second import of the same (id,
    /// contentHash) returns the stored suite and changes nothing.
    StoreResult<SuiteImportResult> importSuite(const SuiteImport& suite);
    StoreResult<QList<SuiteRow>> suites();
    /// A short text that changes whenever anything a report is computed from changes: the store's creation time
    /// and the newest row of suites, runs, responses and gold revisions (rows are only ever added to those; a
    /// run's later updates, its status, enter no report). Caches of derived results (the report cache) are keyed
    /// by it. Take it before reading what it stamps: rows added during the read then make it stale, never wrong.
    StoreResult<QString> contentStamp();
    /// Whether two content stamps differ at most in the newest gold revision: nothing but gold was added between
    /// them (so re-scoring the edited cases is enough).
    static bool stampsDifferOnlyInGold(const QString& before, const QString& after);
    StoreResult<SuiteRow> suite(qint64 suiteRow);
    /// The cases of a suite in order; WithoutText skips their largest part (imported SOB contexts are KBs each).
    StoreResult<QList<CaseRow>> cases(qint64 suiteRow, CaseFields fields = CaseFields::All);
    /// Those of a suite's cases whose rows are among `caseRows` (at most kMaxCasesPerQuery), in order.
    StoreResult<QList<CaseRow>> cases(qint64 suiteRow, CaseFields fields, const QList<qint64>& caseRows);
    /// Case id → row of a suite's cases; reads two columns only (importers map every line through it).
    StoreResult<QHash<QString, qint64>> caseRows(qint64 suiteRow);
    StoreResult<CaseRow> caseRecord(qint64 caseRow);
    /// All revisions of a case's gold, oldest (revision 0) first.
    StoreResult<QList<GoldRevision>> goldRevisions(qint64 caseRow);
    /// The latest gold revision of a case.
    StoreResult<GoldRevision> currentGold(qint64 caseRow);
    /// Whether any case of any suite has a gold revision after its original one: then a report on the adjusted gold
    /// measures some answers against other gold than one on the gold as measured.
    StoreResult<bool> hasEditedGold();
    /// For every case of a suite: case row → its original or current gold.
    StoreResult<QHash<qint64, GoldRevision>> goldForSuite(qint64 suiteRow, GoldBasis choice);
    /// goldForSuite() for those of its cases whose rows are among `caseRows` (at most kMaxCasesPerQuery).
    StoreResult<QHash<qint64, GoldRevision>> goldForSuite(
        qint64 suiteRow, GoldBasis choice, const QList<qint64>& caseRows);
    /// A gold revision's rows and its JSON as stored, not parsed (goldTextForSuite()).
    struct GoldText
    {
        qint64 row = 0;
        qint64 caseRow = 0;
        QByteArray utf8; ///< null when the column is NULL
    };
    /// goldForSuite() without parsing (or reading the author, reason and time of) each revision: for a reader that
    /// needs the gold of only some cases, or parses it elsewhere (on the thread pool). `caseRows`: only those cases
    /// (at most kMaxCasesPerQuery); null: all.
    StoreResult<std::vector<GoldText>> goldTextForSuite(
        qint64 suiteRow, GoldBasis choice, const QList<qint64>* caseRows = nullptr);
    /// Parses GoldText::utf8 as goldForSuite() parses the column; nullopt when it holds no JSON (damagedGold() then
    /// tells it).
    static std::optional<nlohmann::json> parseGoldText(const GoldText& gold);
    /// What goldForSuite() reports for a revision whose column holds no JSON.
    static StoreError damagedGold(qint64 goldRow);
    /// Appends gold revision basedOnRevision + 1, if basedOnRevision is still the latest; otherwise
    /// reports a Conflict with both versions. Also writes an audit entry, in the same transaction.
    GoldEditResult addGoldRevision(
        qint64 caseRow, const nlohmann::json& gold, const QString& author, const QString& reason, int basedOnRevision);

    // ---- runs and responses -------------------------------------------------------------------
    /// Stores a new run and returns it with id, startedAt and status set. Refuses settings that contain
    /// secret-looking keys or values (see secretkeys.h); strip them with withoutSecrets() first.
    StoreResult<RunRow> createRun(const RunRow& run);
    StoreResult<void> updateRunStatus(qint64 runId, RunStatus status);
    /// Sets the final status and finishedAt (now when invalid).
    StoreResult<void> finishRun(qint64 runId, RunStatus status = RunStatus::Finished, const QDateTime& at = {});
    StoreResult<RunRow> run(qint64 runId);
    /// All runs, oldest first (or only those of one suite when suiteRow > 0).
    StoreResult<QList<RunRow>> runs(qint64 suiteRow = 0);

    /// Appends a batch of responses in one transaction: all of them are stored, or none. Each
    /// (run, case, repeat) is stored at most once; a second one fails the batch. Returns the new ids.
    StoreResult<QList<qint64>> appendResponses(const QList<ResponseRow>& responses);
    /// The responses of a run, in the order they were stored.
    StoreResult<QList<ResponseRow>> responses(qint64 runId);
    /// Streams the responses of a run without holding them all; stop early by returning false.
    /// Returns how many were visited.
    StoreResult<qint64> forEachResponse(qint64 runId, const std::function<bool(const ResponseRow&)>& visit,
        ResponseFields fields = ResponseFields::All);
    /// forEachResponse() with ResponseFields::ForScoring, where the raw text of a response is read only when
    /// `needsText(response id, case row)` says so (else rawUtf8 stays empty): a pass that has a response's verdict
    /// kept does not read its answer. Only an SQLite store skips the reading; any other reads every text.
    /// `fewTexts`: most answers will not be needed (the store keeps most of the run's verdicts): the rows are read
    /// from an index that holds all but the answers, and each answer needed is looked up (sql::visitScoringResponses).
    StoreResult<qint64> forEachResponseForScoring(qint64 runId, const std::function<bool(const ResponseRow&)>& visit,
        const std::function<bool(qint64 responseId, qint64 caseRow)>& needsText, bool fewTexts = false);
    /// The responses of some cases (at most kMaxCasesPerQuery), of every run, in the order they were stored: one
    /// lookup in the case index per case, where forEachResponse() per run makes a query of each run.
    StoreResult<qint64> forEachResponseOfCases(const QList<qint64>& caseRows,
        const std::function<bool(const ResponseRow&)>& visit, ResponseFields fields = ResponseFields::All);
    static constexpr qsizetype kMaxCasesPerQuery = 500;
    /// Responses of any run that were made with this request hash.
    StoreResult<QList<ResponseRow>> responsesByRequestHash(const QString& requestHash);
    /// The newest answer without an error made with this request hash, if any: what the runner's request
    /// cache reuses. Asked before every request, so it is one indexed lookup through a statement
    /// prepared once per store, and the record is read only on a hit.
    StoreResult<std::optional<ResponseRow>> latestAnswerForRequest(const QString& requestHash);
    StoreResult<qint64> responseCount(qint64 runId);
    /// The (case, repeat) slots of a run that already have a stored response, errors included: the
    /// runner's resume asks only for the others.
    StoreResult<QSet<ResponseKey>> answeredKeys(qint64 runId);

    // ---- asked schemas (schema v5) -------------------------------------------------------------
    /// Whether responses can name the schema they were asked with: every writable store (opening migrates it), a
    /// read-only one from schema v5 on. Without it, every response was asked with its case's schema.
    bool hasAskedSchemas() const;
    /// Stores each document once (by the SHA-256 of its compact dump; 1 and 1.0 are two documents), in one
    /// transaction: its row, for ResponseRow::askedSchemaId, in the order given.
    StoreResult<std::vector<qint64>> storeAskedSchemas(const std::vector<const nlohmann::json*>& documents);
    /// Every asked schema, by row: what a scoring pass validates the answers that name one against.
    StoreResult<std::map<qint64, nlohmann::json>> askedSchemas();

    // ---- audit log ----------------------------------------------------------------------------
    /// Appends an entry (at = now when invalid) and returns its id.
    StoreResult<qint64> appendAudit(const AuditEntry& entry);
    /// Entries matching the query, oldest first.
    StoreResult<QList<AuditEntry>> auditLog(const AuditQuery& filter = {});

    // ---- stored verdicts (schema v3) -----------------------------------------------------------
    /// Whether this store keeps scored verdicts: every writable store does (opening migrates it), a read-only one
    /// from schema v3 on. Without them the calls below read nothing and store nothing.
    bool keepsVerdicts() const;
    /// Adds verdicts, in verdictcodec's form, in one transaction: all of the batch or none. One already kept under
    /// the same key is replaced (it can only differ if it was damaged).
    StoreResult<void> storeVerdicts(const std::vector<StoredVerdict>& verdicts);
    /// Visits the kept verdicts of a run's responses made by this scorer version, by response, until `visit`
    /// returns false: the count visited. The bytes are valid during the call only.
    StoreResult<qint64> forEachStoredVerdict(qint64 runId, int scorerVersion,
        const std::function<bool(qint64 responseId, qint64 goldRevisionRow, std::string_view verdict)>& visit);
    /// Drops the kept verdicts of every scorer version but this one (they can never be read again): how many. Notes
    /// the version in meta (`kept_verdicts_version`) and does nothing while it is the one noted.
    StoreResult<qint64> dropStoredVerdictsExcept(int scorerVersion);
    /// How many verdicts are kept, of every version.
    StoreResult<qint64> storedVerdictCount();

private:
    ResultStore(StoreLocation location, QString connectionName);

    static StoreResult<std::unique_ptr<ResultStore>> openImpl(const QString& location, const OpenOptions& options);
    StoreResult<void> openSqlite(const OpenOptions& options);
    StoreResult<void> openPostgres(const OpenOptions& options);
    StoreResult<void> finishOpen();

    StoreResult<void> checkWritable() const;
    StoreError missing(const QString& what, qint64 row) const;
    QSqlDatabase db() const;
    StoreResult<qint64> insertAudit(const AuditEntry& entry);
    StoreResult<QList<GoldRevision>> readGold(const QString& where, const QVariantList& values);
    /// The original or current gold of the cases `cases` (a condition on case_id) selects, by case row.
    StoreResult<QHash<qint64, GoldRevision>> goldOfCases(
        const QString& cases, const QVariantList& values, GoldBasis choice);
    StoreResult<QList<RunRow>> readRuns(const QString& where, const QVariantList& values);
    StoreResult<QList<ResponseRow>> readResponses(const QString& where, const QVariantList& values);
    /// How visitResponses() gets the rows in id order: from the database (ORDER BY id), or read in the order of
    /// the index the database picks, held and sorted here — for small sets whose best index is not in id order.
    enum class ResponseOrder { ByDatabase, SortedHere };
    StoreResult<qint64> visitResponses(const QString& where, const QVariantList& values,
        const std::function<bool(const ResponseRow&)>& visit, ResponseFields fields = ResponseFields::All,
        ResponseOrder order = ResponseOrder::ByDatabase, const std::function<bool(qint64, qint64)>* needsText = nullptr,
        bool textsApart = false);

    StoreLocation m_location;
    QString m_openedAs; ///< the location as given to open() (with any password: kept in memory only)
    SqlDialect m_dialect;
    QString m_connectionName;
    bool m_readOnly = false;
    QString m_readOnlyReason;
    int m_versionAtOpen = 0;
    std::unique_ptr<QSqlQuery> m_requestLookup; ///< latestAnswerForRequest's statement, prepared on first use
    QString m_countedPath; ///< the SQLite file this connection is counted under (openConnections())
};

} // namespace structscope
