// SPDX-License-Identifier: Apache-2.0
// ResultStore: runs and their responses.
#include "store/resultstore.h"

#include "store/secretkeys.h"
#include "store/sqlitenative.h"
#include "store/sqlsupport.h"
#include "util/sha256.h"

#include <QSet>
#include <QSqlQuery>

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

const QString kRunColumns = u"id, suite_id, model_spec, provider_kind, strategy, repeats, settings, suite_hash, "
                            "started_at, finished_at, status"_s;
const QString kResponseColumns = u"id, run_id, case_id, repeat_index, request_hash, raw_text, http_status, "
                                 "error_kind, error_message, latency_ms, ttft_ms, tokens_in, tokens_out, cost, "
                                 "cost_source, attempts, created_at, %1"_s;
// ResponseFields::ForScoring: the same columns in the same places (one reader for both), those scoring does not
// need as constants — no 64-character hash or message to convert, no creation time to parse per row.
const QString kScoringResponseColumns = u"id, run_id, case_id, repeat_index, '', raw_text, http_status, error_kind, "
                                        "'', latency_ms, NULL, NULL, NULL, cost, cost_source, attempts, NULL, %1"_s;

StoreResult<RunRow> readRun(const QSqlQuery& q)
{
    RunRow r;
    r.id = q.value(0).toLongLong();
    r.suiteRow = q.value(1).toLongLong();
    r.modelSpec = q.value(2).toString();
    r.providerKind = q.value(3).toString();
    r.strategy = q.value(4).toString();
    r.repeats = q.value(5).toInt();
    auto settings = sql::jsonFromDb(q.value(6));
    const auto status = runStatusFromName(q.value(10).toString());
    if (!settings)
        return StoreError { StoreErrorKind::Corrupt,
            u"runs row %1: column settings %2"_s.arg(QString::number(r.id), sql::unreadableJson()) };
    if (!status)
        return StoreError { StoreErrorKind::Corrupt, u"runs row %1: status is not readable"_s.arg(r.id) };
    r.settings = std::move(*settings);
    r.suiteHash = q.value(7).toString();
    r.startedAt = sql::timeFromDb(q.value(8));
    r.finishedAt = sql::timeFromDb(q.value(9));
    r.status = *status;
    return r;
}

StoreResult<ResponseRow> readResponse(const QSqlQuery& q)
{
    ResponseRow r;
    r.id = q.value(0).toLongLong();
    r.runId = q.value(1).toLongLong();
    r.caseRow = q.value(2).toLongLong();
    r.repeat = q.value(3).toInt();
    r.requestHash = q.value(4).toString();
    r.rawText = q.value(5).toString();
    r.httpStatus = q.value(6).toInt();
    r.errorKind = q.value(7).toString();
    r.errorMessage = q.value(8).toString();
    r.latencyMs = sql::optionalDouble(q.value(9));
    r.ttftMs = sql::optionalDouble(q.value(10));
    r.tokensIn = sql::optionalInt64(q.value(11));
    r.tokensOut = sql::optionalInt64(q.value(12));
    r.cost = sql::optionalDouble(q.value(13));
    const auto source = costSourceFromName(q.value(14).toString());
    if (!source)
        return StoreError { StoreErrorKind::Corrupt,
            u"responses row %1: cost_source \"%2\" is not readable"_s.arg(
                QString::number(r.id), q.value(14).toString()) };
    r.costSource = *source;
    r.attempts = q.value(15).toInt();
    r.createdAt = sql::timeFromDb(q.value(16));
    r.askedSchemaId = q.value(17).toLongLong();
    return r;
}

QString validateResponse(const ResponseRow& r)
{
    if (r.runId <= 0)
        return u"it has no run id"_s;
    if (r.caseRow <= 0)
        return u"it has no case row"_s;
    if (r.repeat < 0)
        return u"repeat %1 is negative"_s.arg(r.repeat);
    if (r.attempts < 0)
        return u"attempts %1 is negative"_s.arg(r.attempts);
    if (r.cost.has_value() != (r.costSource != CostSource::None))
        return r.cost ? u"it has a cost but no cost source"_s : u"it names a cost source but has no cost"_s;
    if ((r.tokensIn && *r.tokensIn < 0) || (r.tokensOut && *r.tokensOut < 0))
        return u"a token count is negative"_s;
    if (r.askedSchemaId < 0)
        return u"asked schema %1 is negative"_s.arg(r.askedSchemaId);
    return {};
}

StoreResult<qint64> affectedRows(QSqlQuery& query, const QString& sql, const QVariantList& values, const QString& what)
{
    if (auto r = sql::exec(query, sql, values, what); !r)
        return r.error();
    return qint64(query.numRowsAffected());
}

} // namespace

StoreResult<RunRow> ResultStore::createRun(const RunRow& run)
{
    if (auto r = checkWritable(); !r)
        return r.error();
    const auto invalid = [](const QString& message) { return StoreError { StoreErrorKind::InvalidArgument, message }; };
    if (run.modelSpec.trimmed().isEmpty())
        return invalid(u"a run needs a model spec"_s);
    if (run.strategy.trimmed().isEmpty())
        return invalid(u"a run needs a strategy"_s);
    if (run.repeats < 1)
        return invalid(u"a run needs at least one repeat (got %1)"_s.arg(run.repeats));
    if (!run.settings.is_object() && !run.settings.is_null())
        return invalid(u"run settings must be a JSON object"_s);
    if (const QStringList secrets = findSecretKeys(run.settings); !secrets.isEmpty())
        return invalid(u"run settings must not contain secrets, and these look like secrets: %1 "
                       "(remove them, e.g. with withoutSecrets()); nothing was stored"_s.arg(secrets.join(u", "_s)));

    // Only the suite's content hash, not the suite: an imported suite's manifest holds hundreds of schemas, and an
    // import creates a run per model file.
    QString suiteHash;
    {
        QSqlQuery owner(db());
        const QString what = u"cannot read suite %1"_s.arg(run.suiteRow);
        if (auto r = sql::exec(owner, u"SELECT content_hash FROM suites WHERE id = ?"_s, { run.suiteRow }, what); !r)
            return r.error();
        if (!owner.next())
            return missing(u"suite"_s, run.suiteRow);
        suiteHash = owner.value(0).toString();
    }

    RunRow stored = run;
    if (stored.settings.is_null())
        stored.settings = json::object();
    if (stored.suiteHash.isEmpty())
        stored.suiteHash = suiteHash;
    if (!stored.startedAt.isValid())
        stored.startedAt = QDateTime::currentDateTimeUtc();

    QSqlQuery query(db());
    const QString what = u"cannot store the run of %1"_s.arg(run.modelSpec);
    if (auto r = sql::exec(query,
            u"INSERT INTO runs (suite_id, model_spec, provider_kind, strategy, repeats, settings, "
            "suite_hash, started_at, finished_at, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "RETURNING id"_s,
            { stored.suiteRow, sql::textToDb(stored.modelSpec), sql::textToDb(stored.providerKind),
                sql::textToDb(stored.strategy), stored.repeats, sql::jsonToDb(stored.settings),
                sql::textToDb(stored.suiteHash), sql::timeToDb(stored.startedAt),
                stored.finishedAt.isValid() ? QVariant(sql::timeToDb(stored.finishedAt))
                                            : QVariant(QMetaType::fromType<QString>()),
                runStatusName(stored.status) },
            what);
        !r)
        return r.error();
    if (!query.next())
        return sql::databaseError(what, query.lastError());
    stored.id = query.value(0).toLongLong();
    return stored;
}

StoreResult<void> ResultStore::updateRunStatus(qint64 runId, RunStatus status)
{
    if (auto r = checkWritable(); !r)
        return r.error();
    QSqlQuery query(db());
    auto changed = affectedRows(query, u"UPDATE runs SET status = ? WHERE id = ?"_s, { runStatusName(status), runId },
        u"cannot update run %1"_s.arg(runId));
    if (!changed)
        return changed.error();
    if (changed.value() == 0)
        return missing(u"run"_s, runId);
    return {};
}

StoreResult<void> ResultStore::finishRun(qint64 runId, RunStatus status, const QDateTime& at)
{
    if (auto r = checkWritable(); !r)
        return r.error();
    if (status == RunStatus::Running || status == RunStatus::Paused)
        return StoreError { StoreErrorKind::InvalidArgument,
            u"a run cannot finish as \"%1\""_s.arg(runStatusName(status)) };
    const QDateTime finished = at.isValid() ? at : QDateTime::currentDateTimeUtc();
    QSqlQuery query(db());
    auto changed = affectedRows(query, u"UPDATE runs SET status = ?, finished_at = ? WHERE id = ?"_s,
        { runStatusName(status), sql::timeToDb(finished), runId }, u"cannot finish run %1"_s.arg(runId));
    if (!changed)
        return changed.error();
    if (changed.value() == 0)
        return missing(u"run"_s, runId);
    return {};
}

StoreResult<QList<RunRow>> ResultStore::readRuns(const QString& where, const QVariantList& values)
{
    QSqlQuery query(db());
    const QString sql = u"SELECT %1 FROM runs %2 ORDER BY id"_s.arg(kRunColumns, where);
    if (auto r = sql::exec(query, sql, values, u"cannot read runs"_s); !r)
        return r.error();
    QList<RunRow> out;
    while (query.next()) {
        auto run = readRun(query);
        if (!run)
            return run.error();
        out.append(std::move(run).value());
    }
    return out;
}

StoreResult<RunRow> ResultStore::run(qint64 runId)
{
    auto found = readRuns(u"WHERE id = ?"_s, { runId });
    if (!found)
        return found.error();
    if (found->isEmpty())
        return missing(u"run"_s, runId);
    return found->constFirst();
}

StoreResult<QList<RunRow>> ResultStore::runs(qint64 suiteRow)
{
    if (suiteRow > 0)
        return readRuns(u"WHERE suite_id = ?"_s, { suiteRow });
    return readRuns(QString(), {});
}

StoreResult<QList<qint64>> ResultStore::appendResponses(const QList<ResponseRow>& responses)
{
    if (auto r = checkWritable(); !r)
        return r.error();
    std::set<std::tuple<qint64, qint64, int>> keys;
    for (qsizetype i = 0; i < responses.size(); ++i) {
        const ResponseRow& r = responses.at(i);
        QString problem = validateResponse(r);
        if (problem.isEmpty() && !keys.emplace(r.runId, r.caseRow, r.repeat).second)
            problem = u"the batch holds (run %1, case %2, repeat %3) twice"_s.arg(
                QString::number(r.runId), QString::number(r.caseRow), QString::number(r.repeat));
        if (!problem.isEmpty())
            return StoreError { StoreErrorKind::InvalidArgument,
                u"response %1 of the batch cannot be stored: %2; nothing of the batch was stored"_s.arg(
                    QString::number(i + 1), problem) };
    }
    if (responses.isEmpty())
        return QList<qint64> {};

    // Before the transaction: freed after its rollback (see storeVerdicts). SQLite's own API where the store is
    // SQLite: a batch is hundreds of rows, each with its answer's text.
    sql::RowInsert insert(db(),
        u"INSERT INTO responses (run_id, case_id, repeat_index, request_hash, raw_text, http_status, error_kind, "
        "error_message, latency_ms, ttft_ms, tokens_in, tokens_out, cost, cost_source, attempts, created_at, "
        "asked_schema_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"_s);
    sql::Transaction tx(db(), m_dialect);
    if (auto r = tx.begin(); !r)
        return r.error();
    if (auto r = insert.prepare(u"cannot store responses"_s); !r)
        return r.error();

    const QString nowText = sql::timeToDb(QDateTime::currentDateTimeUtc());
    QList<qint64> ids;
    ids.reserve(responses.size());
    for (const ResponseRow& r : responses) {
        insert.add(r.runId);
        insert.add(r.caseRow);
        insert.add(r.repeat);
        insert.add(r.requestHash);
        insert.add(r.rawText);
        insert.add(r.httpStatus);
        insert.add(r.errorKind);
        insert.add(r.errorMessage);
        insert.add(r.latencyMs);
        insert.add(r.ttftMs);
        insert.add(r.tokensIn);
        insert.add(r.tokensOut);
        insert.add(r.cost);
        insert.add(costSourceName(r.costSource));
        insert.add(r.attempts);
        insert.add(r.createdAt.isValid() ? sql::timeToDb(r.createdAt) : nowText);
        insert.add(r.askedSchemaId > 0 ? std::optional<qint64>(r.askedSchemaId) : std::nullopt);
        qint64 id = 0;
        // Only a failure needs the message; building it for every row costs more than binding the row.
        if (!insert.run(&id))
            return insert.error(
                u"cannot store the response for run %1, case %2, repeat %3 (nothing of the batch was "
                "stored)"_s.arg(QString::number(r.runId), QString::number(r.caseRow), QString::number(r.repeat)));
        ids.append(id);
    }
    if (auto r = tx.commit(); !r)
        return r.error();
    return ids;
}

StoreResult<qint64> ResultStore::visitResponses(const QString& where, const QVariantList& values,
    const std::function<bool(const ResponseRow&)>& visit, ResponseFields fields, ResponseOrder order,
    const std::function<bool(qint64, qint64)>* needsText, bool textsApart)
{
    const bool sortHere = order == ResponseOrder::SortedHere;
    qint64 count = 0;
    std::vector<ResponseRow> held;
    const auto take = [&](const ResponseRow& response) {
        if (sortHere) {
            held.push_back(response);
            return true;
        }
        ++count;
        return visit(response);
    };
    const QString clause = sortHere ? where : where + u" ORDER BY id"_s;
    // Scoring's reads of an SQLite store, whatever their order, all go through SQLite's own API: the same bytes
    // of every answer whichever pass reads it.
    std::optional<StoreResult<qint64>> native;
    if (fields == ResponseFields::ForScoring)
        native = sql::visitScoringResponses(db(), clause, values, take, needsText, textsApart, hasAskedSchemas());
    if (native && !native->ok())
        return native->error();
    if (!native) {
        QSqlQuery query(db());
        const QString columns = (fields == ResponseFields::ForScoring ? kScoringResponseColumns : kResponseColumns)
                                    .arg(hasAskedSchemas() ? u"asked_schema_id"_s : u"NULL"_s);
        const QString sql = u"SELECT %1 FROM responses WHERE %2"_s.arg(columns, clause);
        if (auto r = sql::exec(query, sql, values, u"cannot read responses"_s); !r)
            return r.error();
        while (query.next()) {
            auto response = readResponse(query);
            if (!response)
                return response.error();
            if (fields == ResponseFields::ForScoring) {
                ResponseRow& r = response.value();
                r.rawUtf8 = r.rawText.toUtf8();
                r.rawText.clear();
            }
            if (!take(response.value()))
                break;
        }
        if (query.lastError().isValid())
            return sql::databaseError(u"cannot read responses"_s, query.lastError());
    }
    std::sort(held.begin(), held.end(), [](const ResponseRow& a, const ResponseRow& b) { return a.id < b.id; });
    for (const ResponseRow& response : held) {
        ++count;
        if (!visit(response))
            break;
    }
    return count;
}

StoreResult<QList<ResponseRow>> ResultStore::readResponses(const QString& where, const QVariantList& values)
{
    QList<ResponseRow> out;
    auto visited = visitResponses(where, values, [&out](const ResponseRow& r) {
        out.append(r);
        return true;
    });
    if (!visited)
        return visited.error();
    return out;
}

StoreResult<QList<ResponseRow>> ResultStore::responses(qint64 runId)
{
    return readResponses(u"run_id = ?"_s, { runId });
}

StoreResult<qint64> ResultStore::forEachResponse(
    qint64 runId, const std::function<bool(const ResponseRow&)>& visit, ResponseFields fields)
{
    return visitResponses(u"run_id = ?"_s, { runId }, visit, fields);
}

StoreResult<qint64> ResultStore::forEachResponseForScoring(qint64 runId,
    const std::function<bool(const ResponseRow&)>& visit,
    const std::function<bool(qint64 responseId, qint64 caseRow)>& needsText, bool fewTexts)
{
    return visitResponses(
        u"run_id = ?"_s, { runId }, visit, ResponseFields::ForScoring, ResponseOrder::ByDatabase, &needsText, fewTexts);
}

StoreResult<qint64> ResultStore::forEachResponseOfCases(
    const QList<qint64>& caseRows, const std::function<bool(const ResponseRow&)>& visit, ResponseFields fields)
{
    if (caseRows.isEmpty())
        return qint64(0);
    auto where = sql::rowListClause(u"case_id"_s, caseRows, kMaxCasesPerQuery);
    if (!where)
        return where.error();
    // Sorted here: asked to order by id, SQLite would walk a whole index in id order to spare a sort of these few
    // rows, instead of looking each case up in the case index.
    return visitResponses(where->first, where->second, visit, fields, ResponseOrder::SortedHere);
}

StoreResult<QList<ResponseRow>> ResultStore::responsesByRequestHash(const QString& requestHash)
{
    return readResponses(u"request_hash = ?"_s, { requestHash });
}

StoreResult<std::optional<ResponseRow>> ResultStore::latestAnswerForRequest(const QString& requestHash)
{
    const QString what = u"cannot look up earlier answers to the same request"_s;
    if (!m_requestLookup) {
        auto query = std::make_unique<QSqlQuery>(db());
        query->setForwardOnly(true);
        if (!query->prepare(u"SELECT id FROM responses WHERE request_hash = ? AND error_kind = '' "
                            "ORDER BY id DESC LIMIT 1"_s))
            return sql::databaseError(what, query->lastError());
        m_requestLookup = std::move(query);
    }
    QSqlQuery& query = *m_requestLookup;
    if (auto r = sql::execPrepared(query, { requestHash }, what); !r)
        return r.error();
    if (!query.next()) {
        const QSqlError error = query.lastError();
        query.finish();
        if (error.isValid())
            return sql::databaseError(what, error);
        return std::optional<ResponseRow>();
    }
    const qint64 id = query.value(0).toLongLong();
    query.finish();
    auto records = readResponses(u"id = ?"_s, { id });
    if (!records)
        return records.error();
    if (records->isEmpty())
        return std::optional<ResponseRow>();
    return std::optional<ResponseRow>(records->constFirst());
}

StoreResult<qint64> ResultStore::responseCount(qint64 runId)
{
    QSqlQuery query(db());
    if (auto r = sql::exec(
            query, u"SELECT count(*) FROM responses WHERE run_id = ?"_s, { runId }, u"cannot count responses"_s);
        !r)
        return r.error();
    if (!query.next())
        return sql::databaseError(u"cannot count responses"_s, query.lastError());
    return query.value(0).toLongLong();
}

StoreResult<QSet<ResponseKey>> ResultStore::answeredKeys(qint64 runId)
{
    QSqlQuery query(db());
    if (auto r = sql::exec(query, u"SELECT case_id, repeat_index FROM responses WHERE run_id = ?"_s, { runId },
            u"cannot read the answered cases of run %1"_s.arg(runId));
        !r)
        return r.error();
    QSet<ResponseKey> keys;
    while (query.next())
        keys.insert({ query.value(0).toLongLong(), query.value(1).toInt() });
    if (query.lastError().isValid())
        return sql::databaseError(u"cannot read the answered cases of run %1"_s.arg(runId), query.lastError());
    return keys;
}

bool ResultStore::hasAskedSchemas() const
{
    // A writable store was migrated at open; a read-only one is read at the version it has.
    return !m_readOnly || m_versionAtOpen >= 5;
}

StoreResult<std::vector<qint64>> ResultStore::storeAskedSchemas(const std::vector<const json*>& documents)
{
    if (auto r = checkWritable(); !r)
        return r.error();
    std::vector<qint64> ids;
    ids.reserve(documents.size());
    if (documents.empty())
        return ids;
    sql::Transaction tx(db(), m_dialect);
    if (auto r = tx.begin(); !r)
        return r.error();
    QSqlQuery query(db());
    for (const json* document : documents) {
        if (!document)
            return StoreError { StoreErrorKind::InvalidArgument, u"an asked schema cannot be absent"_s };
        const std::string text = document->dump(-1, ' ', false, json::error_handler_t::replace);
        const QString digest = QString::fromLatin1(Sha256::hash(text).toHex());
        const QString what = u"cannot store an asked schema"_s;
        if (auto r = sql::exec(query,
                u"INSERT INTO asked_schemas (digest, document) VALUES (?, ?) "
                "ON CONFLICT (digest) DO NOTHING"_s,
                { digest, QString::fromStdString(text) }, what);
            !r)
            return r.error();
        if (auto r = sql::exec(query, u"SELECT id FROM asked_schemas WHERE digest = ?"_s, { digest }, what); !r)
            return r.error();
        if (!query.next())
            return sql::databaseError(what, query.lastError());
        ids.push_back(query.value(0).toLongLong());
    }
    query.finish();
    if (auto r = tx.commit(); !r)
        return r.error();
    return ids;
}

StoreResult<std::map<qint64, json>> ResultStore::askedSchemas()
{
    std::map<qint64, json> out;
    if (!hasAskedSchemas())
        return out;
    QSqlQuery query(db());
    query.setForwardOnly(true);
    if (auto r = sql::exec(
            query, u"SELECT id, document FROM asked_schemas ORDER BY id"_s, {}, u"cannot read the asked schemas"_s);
        !r)
        return r.error();
    while (query.next()) {
        const qint64 id = query.value(0).toLongLong();
        auto document = sql::jsonFromDb(query.value(1));
        if (!document)
            return StoreError { StoreErrorKind::Corrupt,
                u"asked_schemas row %1: column document %2; the store is damaged"_s.arg(
                    QString::number(id), sql::unreadableJson()) };
        out.emplace(id, std::move(*document));
    }
    if (query.lastError().isValid())
        return sql::databaseError(u"cannot read the asked schemas"_s, query.lastError());
    return out;
}

} // namespace structscope
