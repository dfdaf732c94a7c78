// SPDX-License-Identifier: Apache-2.0
#include "store/migrations.h"

#include "store/sqlsupport.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

// Conventions: `id` columns are row ids, `*_key` columns are the ids written in suite files, `*_id` columns
// reference rows. Times are UTC ISO 8601 text (sql::timeToDb), JSON is text. Absent optional text is ''
// where "absent" and "empty" mean the same, NULL where they differ (question, finished_at).
Migration version1()
{
    Migration m;
    m.version = 1;
    m.summary = u"initial schema"_s;
    m.statements = {
        u"CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"_s,
        u"CREATE TABLE suites ("
        " id {pk},"
        " suite_key TEXT NOT NULL,"
        " version TEXT NOT NULL,"
        " content_hash TEXT NOT NULL,"
        " name TEXT NOT NULL,"
        " manifest TEXT NOT NULL,"
        " imported_at TEXT NOT NULL,"
        " UNIQUE (suite_key, content_hash))"_s,
        u"CREATE TABLE cases ("
        " id {pk},"
        " suite_id {bigint} NOT NULL REFERENCES suites (id),"
        " case_key TEXT NOT NULL,"
        " ordinal INTEGER NOT NULL,"
        " category TEXT NOT NULL,"
        " tier TEXT NOT NULL,"
        " schema_name TEXT NOT NULL,"
        " input TEXT NOT NULL,"
        " question TEXT,"
        " extra TEXT NOT NULL,"
        " UNIQUE (suite_id, case_key))"_s,
        u"CREATE TABLE gold_revisions ("
        " id {pk},"
        " case_id {bigint} NOT NULL REFERENCES cases (id),"
        " revision INTEGER NOT NULL CHECK (revision >= 0),"
        " gold TEXT NOT NULL,"
        " author TEXT NOT NULL,"
        " reason TEXT NOT NULL,"
        " created_at TEXT NOT NULL,"
        " UNIQUE (case_id, revision))"_s,
        u"CREATE TABLE runs ("
        " id {pk},"
        " suite_id {bigint} NOT NULL REFERENCES suites (id),"
        " model_spec TEXT NOT NULL,"
        " provider_kind TEXT NOT NULL,"
        " strategy TEXT NOT NULL,"
        " repeats INTEGER NOT NULL CHECK (repeats >= 1),"
        " settings TEXT NOT NULL,"
        " suite_hash TEXT NOT NULL,"
        " started_at TEXT NOT NULL,"
        " finished_at TEXT,"
        " status TEXT NOT NULL CHECK (status IN ('running', 'paused', 'cancelled', 'finished', 'interrupted')))"_s,
        u"CREATE INDEX runs_suite ON runs (suite_id)"_s,
        // The UNIQUE index leads with run_id and so also serves every per-run lookup.
        u"CREATE TABLE responses ("
        " id {pk},"
        " run_id {bigint} NOT NULL REFERENCES runs (id),"
        " case_id {bigint} NOT NULL REFERENCES cases (id),"
        " repeat_index INTEGER NOT NULL CHECK (repeat_index >= 0),"
        " request_hash TEXT NOT NULL,"
        " raw_text TEXT NOT NULL,"
        " http_status INTEGER NOT NULL,"
        " error_kind TEXT NOT NULL,"
        " error_message TEXT NOT NULL,"
        " latency_ms {double},"
        " ttft_ms {double},"
        " tokens_in {bigint},"
        " tokens_out {bigint},"
        " cost {double},"
        " cost_source TEXT NOT NULL CHECK (cost_source IN ('none', 'provider', 'price_table')),"
        " attempts INTEGER NOT NULL CHECK (attempts >= 0),"
        " created_at TEXT NOT NULL,"
        " UNIQUE (run_id, case_id, repeat_index))"_s,
        u"CREATE INDEX responses_case ON responses (case_id)"_s,
        u"CREATE INDEX responses_request_hash ON responses (request_hash)"_s,
        u"CREATE TABLE audit_log ("
        " id {pk},"
        " at TEXT NOT NULL,"
        " author TEXT NOT NULL,"
        " action TEXT NOT NULL,"
        " entity TEXT NOT NULL,"
        " entity_id TEXT NOT NULL,"
        " details TEXT NOT NULL)"_s,
        u"CREATE INDEX audit_log_entity ON audit_log (entity, entity_id)"_s,
        u"CREATE TABLE verdicts ("
        " response_id {bigint} NOT NULL REFERENCES responses (id),"
        " gold_revision_id {bigint} NOT NULL REFERENCES gold_revisions (id),"
        " scorer_version TEXT NOT NULL,"
        " verdict TEXT NOT NULL,"
        " computed_at TEXT NOT NULL,"
        " PRIMARY KEY (response_id, gold_revision_id, scorer_version))"_s,
        u"CREATE INDEX verdicts_scorer ON verdicts (scorer_version)"_s,
        u"CREATE INDEX verdicts_gold ON verdicts (gold_revision_id)"_s,
    };
    return m;
}

StoreResult<int> versionInTransaction(const QSqlDatabase& db, const SqlDialect& dialect)
{
    QSqlQuery query(db);
    if (auto r = sql::exec(query, dialect.tableExists(), { u"meta"_s }, u"cannot read the store's tables"_s); !r)
        return r.error();
    if (!query.next() || query.value(0).toLongLong() == 0)
        return 0;
    if (auto r = sql::exec(
            query, u"SELECT value FROM meta WHERE key = 'schema_version'"_s, {}, u"cannot read the schema version"_s);
        !r)
        return r.error();
    bool ok = false;
    const int version = query.next() ? query.value(0).toString().toInt(&ok) : 0;
    if (!ok || version < 1)
        return StoreError { StoreErrorKind::Corrupt, u"the store's schema_version is missing or not a number"_s };
    return version;
}

// The responses of a run in the order they were stored are the most read rows of a store (every scoring pass
// reads all of them run by run). The (run, case, repeat) index finds a run's rows, but in case order, so each read
// sorted the whole run — raw answers included — in a temporary B-tree: about a quarter of reading a million
// responses. With (run_id, id) the index gives them in order. Index only: stores without it read the same rows.
Migration version2()
{
    Migration m;
    m.version = 2;
    m.summary = u"index of each run's responses in stored order"_s;
    m.statements = { u"CREATE INDEX responses_run_order ON responses (run_id, id)"_s };
    m.readableWithout = true;
    return m;
}

// Scoring a million responses takes seconds of CPU; reading back what an earlier pass scored takes a fraction. Each
// verdict is kept, in verdictcodec's binary form, under everything it is a function of: the response, the gold
// revision it was measured against (0: the case has none) and the scorer version. Rows lie by run (a WITHOUT ROWID
// table on SQLite: the key is the table's order), so that a pass reads a run's verdicts in one range, as it reads the
// run's responses. A cache: derived, never a fact, so a store without the table reads the same, only slower (the v1
// `verdicts` table, JSON keyed by response alone, was never filled; v6 drops it).
Migration version3()
{
    Migration m;
    m.version = 3;
    m.summary = u"verdicts kept as they are scored"_s;
    m.statements = {
        u"CREATE TABLE scored_verdicts ("
        " run_id {bigint} NOT NULL REFERENCES runs (id),"
        " response_id {bigint} NOT NULL REFERENCES responses (id),"
        " gold_revision_id {bigint} NOT NULL,"
        " scorer_version INTEGER NOT NULL,"
        " verdict {blob} NOT NULL,"
        " PRIMARY KEY (run_id, response_id, gold_revision_id, scorer_version)){without_rowid}"_s,
    };
    m.readableWithout = true;
    return m;
}

// A pass over a store that keeps its verdicts reads every response's facts but no answer. From the table, that read
// brought every page of it in, answers and all (a million answers: ~450 MB); this index holds the facts a pass reads
// in run and stored order, ~40 bytes a row, and SQLite reads it alone (a covering index). It replaces v2's
// (run_id, id), its first two columns. Index only: stores without it read the same rows, from the table.
Migration version4()
{
    Migration m;
    m.version = 4;
    m.summary = u"index of each run's responses holding what a scoring pass reads besides the answers"_s;
    m.statements = {
        u"CREATE INDEX responses_scoring ON responses (run_id, id, case_id, repeat_index, http_status, error_kind,"
        " latency_ms, cost, cost_source, attempts)"_s,
        u"DROP INDEX IF EXISTS responses_run_order"_s,
    };
    m.readableWithout = true;
    return m;
}

// The schema a response was asked with is not always its case's: a provider gets a variant it accepts (SOB sent
// models that refuse `additionalProperties: false` a copy without it), and an answer is judged against what was
// sent. Each such document is stored once (by the SHA-256 of its compact dump), and a response names it; NULL is the
// case's own schema, as every response of an older store has. A store without the step reads correctly: it holds
// no such response (ResultStore reads NULL in place of the column).
Migration version5()
{
    Migration m;
    m.version = 5;
    m.summary = u"schemas responses were asked with, where not their case's"_s;
    m.statements = {
        u"CREATE TABLE asked_schemas ("
        " id {pk},"
        " digest TEXT NOT NULL UNIQUE,"
        " document TEXT NOT NULL)"_s,
        u"ALTER TABLE responses ADD COLUMN asked_schema_id {bigint} REFERENCES asked_schemas (id)"_s,
    };
    m.readableWithout = true;
    return m;
}

// v1's `verdicts` table (JSON keyed by response alone) was never filled: `scored_verdicts` (v3) keeps the verdicts.
// The empty table and its two indexes go. A store without the step reads the same: nothing reads the table.
Migration version6()
{
    Migration m;
    m.version = 6;
    m.summary = u"the unused v1 verdicts table dropped"_s;
    m.statements = {
        u"DROP INDEX IF EXISTS verdicts_scorer"_s,
        u"DROP INDEX IF EXISTS verdicts_gold"_s,
        u"DROP TABLE IF EXISTS verdicts"_s,
    };
    m.readableWithout = true;
    return m;
}

} // namespace

const QList<Migration>& storeMigrations()
{
    static const QList<Migration> migrations { version1(), version2(), version3(), version4(), version5(), version6() };
    return migrations;
}

int latestSchemaVersion()
{
    return int(storeMigrations().size());
}

int oldestReadableSchemaVersion()
{
    int version = latestSchemaVersion();
    while (version > 1 && storeMigrations().at(version - 1).readableWithout)
        --version;
    return version;
}

StoreResult<int> migrateStore(const QSqlDatabase& db, const SqlDialect& dialect)
{
    std::optional<int> initial;
    for (;;) {
        sql::Transaction tx(db, dialect);
        if (auto r = tx.begin(); !r)
            return r.error();
        QSqlQuery query(db);
        if (!dialect.isSqlite()) {
            // Serialises concurrent first opens of one database; released at commit/rollback.
            if (auto r = sql::exec(query, u"SELECT pg_advisory_xact_lock(5462723437195331)"_s, {},
                    u"cannot lock the store for migration"_s);
                !r)
                return r.error();
        }
        auto current = versionInTransaction(db, dialect);
        if (!current)
            return current.error();
        if (!initial)
            initial = current.value();
        if (current.value() > latestSchemaVersion())
            return StoreError { StoreErrorKind::NewerSchema,
                u"the store was upgraded to schema v%1 by a newer StructScope while opening"_s.arg(current.value()) };
        if (current.value() == latestSchemaVersion())
            return *initial;

        const Migration& step = storeMigrations().at(current.value());
        for (const QString& statement : step.statements) {
            if (auto r = sql::exec(query, dialect.expand(statement), {},
                    u"migration to schema v%1 (%2) failed"_s.arg(step.version).arg(step.summary));
                !r)
                return r.error();
        }
        const QString now = sql::timeToDb(QDateTime::currentDateTimeUtc());
        const QString app = u"StructScope "_s % QString::fromLatin1(STRUCTSCOPE_VERSION);
        QVariantList rows;
        if (current.value() == 0) {
            rows = { u"application"_s, QString(kStoreApplicationName), u"created_by"_s, app, u"created_at"_s, now };
            if (dialect.isSqlite()) {
                if (auto r = sql::exec(query, u"PRAGMA application_id = %1"_s.arg(kSqliteApplicationId), {},
                        u"cannot mark the file as a StructScope store"_s);
                    !r)
                    return r.error();
            }
        }
        rows << u"schema_version"_s << QString::number(step.version) << u"migrated_by"_s << app << u"migrated_at"_s
             << now;
        const QString upsert = u"INSERT INTO meta (key, value) VALUES (?, ?) "
                               "ON CONFLICT (key) DO UPDATE SET value = excluded.value"_s;
        for (qsizetype i = 0; i + 1 < rows.size(); i += 2) {
            if (auto r
                = sql::exec(query, upsert, { rows.at(i), rows.at(i + 1) }, u"cannot record the schema version"_s);
                !r)
                return r.error();
        }
        query.finish();
        if (auto r = tx.commit(); !r)
            return r.error();
    }
}

} // namespace structscope
