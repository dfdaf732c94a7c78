// SPDX-License-Identifier: Apache-2.0
// ResultStore: the audit log and the kept verdicts.
#include "store/resultstore.h"

#include "store/sqlitenative.h"
#include "store/sqlsupport.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace structscope {

StoreResult<qint64> ResultStore::insertAudit(const AuditEntry& entry)
{
    QSqlQuery query(db());
    const QString what = u"cannot append to the audit log"_s;
    if (auto r = sql::exec(query,
            u"INSERT INTO audit_log (at, author, action, entity, entity_id, details) "
            "VALUES (?, ?, ?, ?, ?, ?) RETURNING id"_s,
            { sql::timeToDb(entry.at.isValid() ? entry.at : QDateTime::currentDateTimeUtc()),
                sql::textToDb(entry.author), sql::textToDb(entry.action), sql::textToDb(entry.entity),
                sql::textToDb(entry.entityId),
                sql::jsonToDb(entry.details.is_discarded() ? nlohmann::json::object() : entry.details) },
            what);
        !r)
        return r.error();
    if (!query.next())
        return sql::databaseError(what, query.lastError());
    const qint64 id = query.value(0).toLongLong();
    query.finish();
    return id;
}

StoreResult<qint64> ResultStore::appendAudit(const AuditEntry& entry)
{
    if (auto r = checkWritable(); !r)
        return r.error();
    if (entry.action.trimmed().isEmpty())
        return StoreError { StoreErrorKind::InvalidArgument, u"an audit entry needs an action"_s };
    if (entry.author.trimmed().isEmpty())
        return StoreError { StoreErrorKind::InvalidArgument, u"an audit entry needs an author"_s };
    return insertAudit(entry);
}

StoreResult<QList<AuditEntry>> ResultStore::auditLog(const AuditQuery& filter)
{
    QStringList where { u"id > ?"_s };
    QVariantList values { filter.afterId };
    if (!filter.entity.isEmpty()) {
        where << u"entity = ?"_s;
        values << filter.entity;
    }
    if (!filter.entityId.isEmpty()) {
        where << u"entity_id = ?"_s;
        values << filter.entityId;
    }
    QString sql
        = u"SELECT id, at, author, action, entity, entity_id, details FROM audit_log WHERE %1 ORDER BY id"_s.arg(
            where.join(u" AND "_s));
    if (filter.limit > 0)
        sql += u" LIMIT %1"_s.arg(filter.limit);

    QSqlQuery query(db());
    if (auto r = sql::exec(query, sql, values, u"cannot read the audit log"_s); !r)
        return r.error();
    QList<AuditEntry> out;
    while (query.next()) {
        AuditEntry e;
        e.id = query.value(0).toLongLong();
        e.at = sql::timeFromDb(query.value(1));
        e.author = query.value(2).toString();
        e.action = query.value(3).toString();
        e.entity = query.value(4).toString();
        e.entityId = query.value(5).toString();
        auto details = sql::jsonFromDb(query.value(6));
        if (!details)
            return StoreError { StoreErrorKind::Corrupt,
                u"audit_log row %1: column details %2"_s.arg(QString::number(e.id), sql::unreadableJson()) };
        e.details = std::move(*details);
        out.append(std::move(e));
    }
    return out;
}

bool ResultStore::keepsVerdicts() const
{
    // A writable store was migrated at open; a read-only one is read at the version it has.
    return !m_readOnly || m_versionAtOpen >= 3;
}

StoreResult<void> ResultStore::storeVerdicts(const std::vector<StoredVerdict>& verdicts)
{
    if (auto r = checkWritable(); !r)
        return r.error();
    for (const StoredVerdict& v : verdicts) {
        if (v.runId <= 0 || v.responseId <= 0 || v.goldRevisionRow < 0 || v.scorerVersion <= 0 || v.verdict.empty())
            return StoreError { StoreErrorKind::InvalidArgument,
                u"a kept verdict needs a run, a response, a scorer version and its bytes (response %1); nothing of "
                "the batch was stored"_s.arg(v.responseId) };
    }
    if (verdicts.empty())
        return {};
    // Declared before the transaction so that, on PostgreSQL, the prepared statement is freed after the rollback of
    // a failed transaction rather than inside it.
    sql::RowInsert insert(db(),
        u"INSERT INTO scored_verdicts (run_id, response_id, gold_revision_id, scorer_version, verdict) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (run_id, response_id, gold_revision_id, scorer_version) "
        "DO UPDATE SET verdict = excluded.verdict"_s);
    sql::Transaction tx(db(), m_dialect);
    if (auto r = tx.begin(); !r)
        return r.error();
    const QString what = u"cannot keep verdicts (none of the batch was stored)"_s;
    if (auto r = insert.prepare(what); !r)
        return r.error();
    for (const StoredVerdict& v : verdicts) {
        insert.add(v.runId);
        insert.add(v.responseId);
        insert.add(v.goldRevisionRow);
        insert.add(v.scorerVersion);
        insert.addBlob(v.verdict);
        if (!insert.run())
            return insert.error(what);
    }
    return tx.commit();
}

StoreResult<qint64> ResultStore::forEachStoredVerdict(qint64 runId, int scorerVersion,
    const std::function<bool(qint64 responseId, qint64 goldRevisionRow, std::string_view verdict)>& visit)
{
    if (!keepsVerdicts())
        return qint64(0);
    if (auto native = sql::visitStoredVerdicts(db(), runId, scorerVersion, visit))
        return std::move(*native);
    QSqlQuery query(db());
    query.setForwardOnly(true);
    if (auto r = sql::exec(query,
            u"SELECT response_id, gold_revision_id, verdict FROM scored_verdicts WHERE run_id = ? AND "
            "scorer_version = ? ORDER BY response_id"_s,
            { runId, scorerVersion }, u"cannot read kept verdicts"_s);
        !r)
        return r.error();
    qint64 count = 0;
    while (query.next()) {
        const QByteArray bytes = query.value(2).toByteArray();
        ++count;
        if (!visit(query.value(0).toLongLong(), query.value(1).toLongLong(),
                std::string_view(bytes.constData(), std::size_t(bytes.size()))))
            break;
    }
    if (query.lastError().isValid())
        return sql::databaseError(u"cannot read kept verdicts"_s, query.lastError());
    return count;
}

StoreResult<qint64> ResultStore::dropStoredVerdictsExcept(int scorerVersion)
{
    if (auto r = checkWritable(); !r)
        return r.error();
    // The version last kept is noted in meta, so that keeping a gold edit's few verdicts does not scan (and hold the
    // write lock over) a million rows to find none of another version.
    const QString version = QString::number(scorerVersion);
    const QString what = u"cannot drop kept verdicts"_s;
    QSqlQuery query(db());
    if (auto r = sql::exec(query, u"SELECT value FROM meta WHERE key = 'kept_verdicts_version'"_s, {}, what); !r)
        return r.error();
    if (query.next() && query.value(0).toString() == version)
        return qint64(0);
    query.finish();
    sql::Transaction tx(db(), m_dialect);
    if (auto r = tx.begin(); !r)
        return r.error();
    if (auto r = sql::exec(query, u"DELETE FROM scored_verdicts WHERE scorer_version <> ?"_s, { scorerVersion }, what);
        !r)
        return r.error();
    const qint64 dropped = query.numRowsAffected();
    if (auto r = sql::exec(query,
            u"INSERT INTO meta (key, value) VALUES ('kept_verdicts_version', ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value"_s,
            { version }, what);
        !r)
        return r.error();
    query.finish();
    if (auto r = tx.commit(); !r)
        return r.error();
    return dropped;
}

StoreResult<qint64> ResultStore::storedVerdictCount()
{
    if (!keepsVerdicts())
        return qint64(0);
    QSqlQuery query(db());
    if (auto r = sql::exec(query, u"SELECT count(*) FROM scored_verdicts"_s, {}, u"cannot count kept verdicts"_s); !r)
        return r.error();
    return query.next() ? query.value(0).toLongLong() : qint64(0);
}

} // namespace structscope
