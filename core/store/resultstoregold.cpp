// SPDX-License-Identifier: Apache-2.0
// ResultStore: suites, cases and gold revisions.
#include "store/resultstore.h"

#include "store/sqlitenative.h"
#include "store/sqlsupport.h"

#include <QSet>
#include <QSqlQuery>

#include <vector>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

const QString kSuiteColumns = u"id, suite_key, name, version, content_hash, manifest, imported_at"_s;
const QString kCaseColumns = u"id, suite_id, ordinal, case_key, category, tier, schema_name, input, question, extra"_s;
// The same columns for readCase(), with the texts left out.
const QString kCaseColumnsWithoutText
    = u"id, suite_id, ordinal, case_key, category, tier, schema_name, '' AS input, NULL AS question, extra"_s;
const QString kGoldColumns = u"id, case_id, revision, gold, author, reason, created_at"_s;

StoreError corrupt(const QString& table, qint64 row, const QString& column)
{
    return { StoreErrorKind::Corrupt,
        u"%1 row %2: column %3 %4"_s.arg(table, QString::number(row), column, sql::unreadableJson()) };
}

StoreResult<SuiteRow> readSuite(const QSqlQuery& q)
{
    SuiteRow s;
    s.row = q.value(0).toLongLong();
    s.id = q.value(1).toString();
    s.name = q.value(2).toString();
    s.version = q.value(3).toString();
    s.contentHash = q.value(4).toString();
    auto manifest = sql::jsonFromDb(q.value(5));
    if (!manifest)
        return corrupt(u"suites"_s, s.row, u"manifest"_s);
    s.manifest = std::move(*manifest);
    s.importedAt = sql::timeFromDb(q.value(6));
    return s;
}

StoreResult<CaseRow> readCase(const QSqlQuery& q)
{
    CaseRow c;
    c.row = q.value(0).toLongLong();
    c.suiteRow = q.value(1).toLongLong();
    c.ordinal = q.value(2).toInt();
    c.id = q.value(3).toString();
    c.category = q.value(4).toString();
    c.tier = q.value(5).toString();
    c.schemaName = q.value(6).toString();
    c.input = q.value(7).toString();
    c.question = sql::optionalText(q.value(8));
    auto extra = sql::jsonFromDb(q.value(9));
    if (!extra)
        return corrupt(u"cases"_s, c.row, u"extra"_s);
    c.extra = std::move(*extra);
    return c;
}

StoreResult<GoldRevision> readGoldRow(const QSqlQuery& q)
{
    GoldRevision g;
    g.row = q.value(0).toLongLong();
    g.caseRow = q.value(1).toLongLong();
    g.revision = q.value(2).toInt();
    auto gold = sql::jsonFromDb(q.value(3));
    if (!gold)
        return corrupt(u"gold_revisions"_s, g.row, u"gold"_s);
    g.gold = std::move(*gold);
    g.author = q.value(4).toString();
    g.reason = q.value(5).toString();
    g.createdAt = sql::timeFromDb(q.value(6));
    return g;
}

/// The condition on gold_revisions that picks each case's revision of `choice`.
QString goldBasisClause(GoldBasis choice)
{
    return choice == GoldBasis::Measured
        ? u"revision = 0"_s
        : u"revision = (SELECT max(g.revision) FROM gold_revisions g WHERE g.case_id = gold_revisions.case_id)"_s;
}

/// The condition on gold_revisions that picks the cases of suite `suiteRow`, and when `caseRows` is given only
/// those among them; with the values it binds.
StoreResult<std::pair<QString, QVariantList>> suiteCasesClause(qint64 suiteRow, const QList<qint64>* caseRows)
{
    const QString ofSuite = u"case_id IN (SELECT id FROM cases WHERE suite_id = ?)"_s;
    if (!caseRows)
        return std::pair<QString, QVariantList> { ofSuite, QVariantList { suiteRow } };
    auto among = sql::rowListClause(u"case_id"_s, *caseRows, ResultStore::kMaxCasesPerQuery);
    if (!among)
        return among.error();
    QVariantList values = among->second;
    values.append(suiteRow);
    return std::pair<QString, QVariantList> { among->first % u" AND "_s % ofSuite, std::move(values) };
}

/// Runs `sql` and reads every row with `read`.
template <typename Record, typename Reader>
StoreResult<QList<Record>> readAll(
    const QSqlDatabase& db, const QString& sql, const QVariantList& values, const QString& what, Reader read)
{
    QSqlQuery query(db);
    if (auto r = sql::exec(query, sql, values, what); !r)
        return r.error();
    QList<Record> out;
    while (query.next()) {
        auto record = read(query);
        if (!record)
            return record.error();
        out.append(std::move(record).value());
    }
    return out;
}

/// Executes a prepared INSERT … RETURNING id and returns the id.
StoreResult<qint64> insertReturningId(QSqlQuery& query, const QVariantList& values, const QString& what)
{
    if (auto r = sql::execPrepared(query, values, what); !r)
        return r.error();
    if (!query.next())
        return sql::databaseError(what, query.lastError());
    const qint64 id = query.value(0).toLongLong();
    query.finish();
    return id;
}

StoreResult<void> validateImport(const SuiteImport& suite)
{
    const auto invalid = [](const QString& message) { return StoreError { StoreErrorKind::InvalidArgument, message }; };
    if (suite.id.trimmed().isEmpty())
        return invalid(u"cannot import a suite without an id"_s);
    if (suite.contentHash.trimmed().isEmpty())
        return invalid(u"cannot import suite %1: it has no content hash"_s.arg(suite.id));
    QSet<QString> seen;
    for (qsizetype i = 0; i < suite.cases.size(); ++i) {
        const CaseImport& c = suite.cases.at(i);
        if (c.id.trimmed().isEmpty())
            return invalid(u"cannot import suite %1: case %2 has no id"_s.arg(suite.id, QString::number(i + 1)));
        if (seen.contains(c.id))
            return invalid(u"cannot import suite %1: case id \"%2\" appears twice"_s.arg(suite.id, c.id));
        seen.insert(c.id);
        if (c.gold.is_discarded())
            return invalid(u"cannot import suite %1: case \"%2\" has no valid gold"_s.arg(suite.id, c.id));
    }
    return {};
}

} // namespace

StoreResult<SuiteImportResult> ResultStore::importSuite(const SuiteImport& suite)
{
    if (auto r = checkWritable(); !r)
        return r.error();
    if (auto r = validateImport(suite); !r)
        return r.error();

    // Before the transaction: freed after its rollback (see storeVerdicts).
    QSqlQuery query(db());
    // Thousands of rows, each with a few KB of text: SQLite's own API where the store is SQLite.
    sql::RowInsert caseInsert(db(),
        u"INSERT INTO cases (suite_id, case_key, ordinal, category, tier, schema_name, input, question, extra) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"_s);
    sql::RowInsert goldInsert(db(),
        u"INSERT INTO gold_revisions (case_id, revision, gold, author, reason, created_at) VALUES (?, 0, ?, ?, ?, ?)"_s);
    sql::Transaction tx(db(), m_dialect);
    if (auto r = tx.begin(); !r)
        return r.error();

    {
        auto existing = readAll<SuiteRow>(db(),
            u"SELECT %1 FROM suites WHERE suite_key = ? AND content_hash = ?"_s.arg(kSuiteColumns),
            { suite.id, suite.contentHash }, u"cannot look up suite %1"_s.arg(suite.id), readSuite);
        if (!existing)
            return existing.error();
        if (!existing->isEmpty())
            return SuiteImportResult { existing->constFirst(), false };
    }

    SuiteRow record;
    record.id = suite.id;
    record.name = suite.name;
    record.version = suite.version;
    record.contentHash = suite.contentHash;
    record.manifest = suite.manifest.is_discarded() ? json::object() : suite.manifest;
    record.importedAt = QDateTime::currentDateTimeUtc();
    const QString what = u"cannot import suite %1"_s.arg(suite.id);

    query.setForwardOnly(true);
    if (!query.prepare(u"INSERT INTO suites (suite_key, name, version, content_hash, manifest, imported_at) "
                       "VALUES (?, ?, ?, ?, ?, ?) RETURNING id"_s))
        return sql::databaseError(what, query.lastError());
    auto suiteRow = insertReturningId(query,
        { sql::textToDb(record.id), sql::textToDb(record.name), sql::textToDb(record.version),
            sql::textToDb(record.contentHash), sql::jsonToDb(record.manifest), sql::timeToDb(record.importedAt) },
        what);
    if (!suiteRow)
        return suiteRow.error();
    record.row = suiteRow.value();

    const QString author = suite.author.isEmpty() ? u"structscope"_s : suite.author;
    const QString reason = u"original gold of suite %1 %2"_s.arg(suite.id, suite.version);
    const QString now = sql::timeToDb(record.importedAt);
    if (auto r = caseInsert.prepare(what); !r)
        return r.error();
    if (auto r = goldInsert.prepare(what); !r)
        return r.error();
    for (qsizetype i = 0; i < suite.cases.size(); ++i) {
        const CaseImport& c = suite.cases.at(i);
        caseInsert.add(record.row);
        caseInsert.add(c.id);
        caseInsert.add(int(i));
        caseInsert.add(c.category);
        caseInsert.add(c.tier);
        caseInsert.add(c.schemaName);
        caseInsert.add(c.input);
        caseInsert.add(c.question);
        caseInsert.addUtf8(c.extra.is_null() ? std::string("{}") : sql::jsonToUtf8(c.extra));
        qint64 caseRow = 0;
        if (!caseInsert.run(&caseRow))
            return caseInsert.error(what % u", case "_s % c.id);
        goldInsert.add(caseRow);
        goldInsert.addUtf8(sql::jsonToUtf8(c.gold));
        goldInsert.add(author);
        goldInsert.add(reason);
        goldInsert.add(now);
        if (!goldInsert.run())
            return goldInsert.error(what % u", case "_s % c.id);
    }

    AuditEntry audit;
    audit.at = record.importedAt;
    audit.author = author;
    audit.action = u"suite.import"_s;
    audit.entity = u"suite"_s;
    audit.entityId = QString::number(record.row);
    audit.details = { { "suite", suite.id.toStdString() }, { "version", suite.version.toStdString() },
        { "content_hash", suite.contentHash.toStdString() }, { "cases", suite.cases.size() } };
    if (auto r = insertAudit(audit); !r)
        return r.error();

    query.finish();
    if (auto r = tx.commit(); !r)
        return r.error();
    return SuiteImportResult { record, true };
}

StoreResult<QList<SuiteRow>> ResultStore::suites()
{
    return readAll<SuiteRow>(
        db(), u"SELECT %1 FROM suites ORDER BY id"_s.arg(kSuiteColumns), {}, u"cannot list suites"_s, readSuite);
}

StoreResult<SuiteRow> ResultStore::suite(qint64 suiteRow)
{
    auto found = readAll<SuiteRow>(db(), u"SELECT %1 FROM suites WHERE id = ?"_s.arg(kSuiteColumns), { suiteRow },
        u"cannot read suite %1"_s.arg(suiteRow), readSuite);
    if (!found)
        return found.error();
    if (found->isEmpty())
        return missing(u"suite"_s, suiteRow);
    return found->constFirst();
}

StoreResult<QList<CaseRow>> ResultStore::cases(qint64 suiteRow, CaseFields fields)
{
    const QString& columns = fields == CaseFields::All ? kCaseColumns : kCaseColumnsWithoutText;
    return readAll<CaseRow>(db(), u"SELECT %1 FROM cases WHERE suite_id = ? ORDER BY ordinal"_s.arg(columns),
        { suiteRow }, u"cannot list the cases of suite %1"_s.arg(suiteRow), readCase);
}

StoreResult<QList<CaseRow>> ResultStore::cases(qint64 suiteRow, CaseFields fields, const QList<qint64>& caseRows)
{
    auto among = sql::rowListClause(u"id"_s, caseRows, kMaxCasesPerQuery);
    if (!among)
        return among.error();
    const QString& columns = fields == CaseFields::All ? kCaseColumns : kCaseColumnsWithoutText;
    QVariantList values { suiteRow };
    values.append(among->second);
    return readAll<CaseRow>(db(),
        u"SELECT %1 FROM cases WHERE suite_id = ? AND %2 ORDER BY ordinal"_s.arg(columns, among->first), values,
        u"cannot list the cases of suite %1"_s.arg(suiteRow), readCase);
}

StoreResult<QHash<QString, qint64>> ResultStore::caseRows(qint64 suiteRow)
{
    QSqlQuery query(db());
    query.setForwardOnly(true);
    const QString what = u"cannot list the cases of suite %1"_s.arg(suiteRow);
    if (!query.prepare(u"SELECT id, case_key FROM cases WHERE suite_id = ?"_s))
        return sql::databaseError(what, query.lastError());
    if (auto r = sql::execPrepared(query, { suiteRow }, what); !r)
        return r.error();
    QHash<QString, qint64> rows;
    while (query.next())
        rows.insert(query.value(1).toString(), query.value(0).toLongLong());
    return rows;
}

StoreResult<CaseRow> ResultStore::caseRecord(qint64 caseRow)
{
    auto found = readAll<CaseRow>(db(), u"SELECT %1 FROM cases WHERE id = ?"_s.arg(kCaseColumns), { caseRow },
        u"cannot read case %1"_s.arg(caseRow), readCase);
    if (!found)
        return found.error();
    if (found->isEmpty())
        return missing(u"case"_s, caseRow);
    return found->constFirst();
}

StoreResult<QList<GoldRevision>> ResultStore::readGold(const QString& where, const QVariantList& values)
{
    return readAll<GoldRevision>(db(),
        u"SELECT %1 FROM gold_revisions WHERE %2 ORDER BY case_id, revision"_s.arg(kGoldColumns, where), values,
        u"cannot read gold revisions"_s, readGoldRow);
}

StoreResult<QList<GoldRevision>> ResultStore::goldRevisions(qint64 caseRow)
{
    auto revisions = readGold(u"case_id = ?"_s, { caseRow });
    if (revisions && revisions->isEmpty())
        return missing(u"case"_s, caseRow);
    return revisions;
}

StoreResult<bool> ResultStore::hasEditedGold()
{
    QSqlQuery query(db());
    if (auto r = sql::exec(query, u"SELECT 1 FROM gold_revisions WHERE revision > 0 LIMIT 1"_s, {},
            u"cannot read the gold revisions"_s);
        !r)
        return r.error();
    return query.next();
}

StoreResult<GoldRevision> ResultStore::currentGold(qint64 caseRow)
{
    auto latest = readGold(u"case_id = ? AND revision = (SELECT max(revision) FROM gold_revisions WHERE case_id = ?)"_s,
        { caseRow, caseRow });
    if (!latest)
        return latest.error();
    if (latest->isEmpty())
        return missing(u"case"_s, caseRow);
    return latest->constFirst();
}

StoreResult<QHash<qint64, GoldRevision>> ResultStore::goldForSuite(qint64 suiteRow, GoldBasis choice)
{
    auto cases = suiteCasesClause(suiteRow, nullptr);
    return goldOfCases(cases->first, cases->second, choice);
}

StoreResult<QHash<qint64, GoldRevision>> ResultStore::goldForSuite(
    qint64 suiteRow, GoldBasis choice, const QList<qint64>& caseRows)
{
    auto cases = suiteCasesClause(suiteRow, &caseRows);
    if (!cases)
        return cases.error();
    return goldOfCases(cases->first, cases->second, choice);
}

StoreResult<QHash<qint64, GoldRevision>> ResultStore::goldOfCases(
    const QString& cases, const QVariantList& values, GoldBasis choice)
{
    auto revisions = readGold(cases % u" AND "_s % goldBasisClause(choice), values);
    if (!revisions)
        return revisions.error();
    QHash<qint64, GoldRevision> out;
    out.reserve(revisions->size());
    for (GoldRevision& g : revisions.value()) {
        const qint64 caseRow = g.caseRow;
        out.emplace(caseRow, std::move(g));
    }
    return out;
}

StoreResult<std::vector<ResultStore::GoldText>> ResultStore::goldTextForSuite(
    qint64 suiteRow, GoldBasis choice, const QList<qint64>* caseRows)
{
    auto cases = suiteCasesClause(suiteRow, caseRows);
    if (!cases)
        return cases.error();
    QSqlQuery query(db());
    query.setForwardOnly(true);
    const QString what = u"cannot read gold revisions"_s;
    if (!query.prepare(u"SELECT id, case_id, gold FROM gold_revisions WHERE %1 AND %2"_s.arg(
            cases->first, goldBasisClause(choice))))
        return sql::databaseError(what, query.lastError());
    if (auto r = sql::execPrepared(query, cases->second, what); !r)
        return r.error();
    std::vector<GoldText> out;
    while (query.next()) {
        GoldText& g = out.emplace_back();
        g.row = query.value(0).toLongLong();
        g.caseRow = query.value(1).toLongLong();
        const QVariant gold = query.value(2);
        if (!gold.isNull())
            g.utf8 = gold.toString().toUtf8();
    }
    if (query.lastError().isValid())
        return sql::databaseError(what, query.lastError());
    return out;
}

std::optional<json> ResultStore::parseGoldText(const GoldText& gold)
{
    if (gold.utf8.isNull())
        return std::nullopt;
    return sql::jsonFromUtf8(std::string_view(gold.utf8.constData(), std::size_t(gold.utf8.size())));
}

StoreError ResultStore::damagedGold(qint64 goldRow)
{
    return corrupt(u"gold_revisions"_s, goldRow, u"gold"_s);
}

GoldEditResult ResultStore::addGoldRevision(
    qint64 caseRow, const json& gold, const QString& author, const QString& reason, int basedOnRevision)
{
    GoldEditResult result;
    result.mine.caseRow = caseRow;
    result.mine.revision = basedOnRevision + 1;
    result.mine.gold = gold;
    result.mine.author = author;
    result.mine.reason = reason;
    result.mine.createdAt = QDateTime::currentDateTimeUtc();
    const auto fail = [&result](StoreError error) {
        result.outcome = GoldEditResult::Outcome::Failed;
        result.error = std::move(error);
        return result;
    };
    const auto conflict = [&result, basedOnRevision](GoldRevision theirs) {
        result.outcome = GoldEditResult::Outcome::Conflict;
        result.error = { StoreErrorKind::Conflict,
            u"the gold was changed by %1 at %2 (revision %3) after revision %4, which this edit is based "
            "on; nothing was written"_s.arg(theirs.author, theirs.createdAt.toString(Qt::ISODate),
                QString::number(theirs.revision), QString::number(basedOnRevision)) };
        result.theirs = std::move(theirs);
        return result;
    };

    if (auto r = checkWritable(); !r)
        return fail(r.error());
    if (author.trimmed().isEmpty())
        return fail({ StoreErrorKind::InvalidArgument, u"a gold revision needs an author"_s });
    if (reason.trimmed().isEmpty())
        return fail({ StoreErrorKind::InvalidArgument, u"a gold revision needs a reason"_s });
    if (gold.is_discarded())
        return fail({ StoreErrorKind::InvalidArgument, u"the new gold is not valid JSON"_s });
    if (basedOnRevision < 0)
        return fail({ StoreErrorKind::InvalidArgument, u"basedOnRevision must be 0 or more"_s });

    {
        QSqlQuery query(db()); // before the transaction: freed after its rollback (see storeVerdicts)
        sql::Transaction tx(db(), m_dialect);
        if (auto r = tx.begin(); !r)
            return fail(r.error());
        auto latest
            = readGold(u"case_id = ? AND revision = (SELECT max(revision) FROM gold_revisions WHERE case_id = ?)"_s,
                { caseRow, caseRow });
        if (!latest)
            return fail(latest.error());
        if (latest->isEmpty())
            return fail(missing(u"case"_s, caseRow));
        GoldRevision before = latest->constFirst();
        if (before.revision != basedOnRevision)
            return conflict(std::move(before));

        const QString what = u"cannot store gold revision %1 of case %2"_s.arg(
            QString::number(result.mine.revision), QString::number(caseRow));
        query.setForwardOnly(true);
        bool inserted = query.prepare(u"INSERT INTO gold_revisions (case_id, revision, gold, author, reason, "
                                      "created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id"_s);
        StoreResult<qint64> row = sql::databaseError(what, query.lastError());
        if (inserted) {
            row = insertReturningId(query,
                { caseRow, result.mine.revision, sql::jsonToDb(gold), sql::textToDb(author), sql::textToDb(reason),
                    sql::timeToDb(result.mine.createdAt) },
                what);
        }
        if (row) {
            AuditEntry audit;
            audit.at = result.mine.createdAt;
            audit.author = author;
            audit.action = u"gold.revise"_s;
            audit.entity = u"case"_s;
            audit.entityId = QString::number(caseRow);
            audit.details = { { "revision", result.mine.revision }, { "based_on", basedOnRevision },
                { "reason", reason.toStdString() }, { "before", before.gold }, { "after", gold } };
            auto audited = insertAudit(audit);
            query.finish();
            if (audited) {
                if (auto committed = tx.commit(); committed) {
                    result.outcome = GoldEditResult::Outcome::Added;
                    result.added = result.mine;
                    result.added.row = row.value();
                    result.mine = {};
                    return result;
                } else {
                    row = committed.error();
                }
            } else {
                row = audited.error();
            }
        }
        // Two writers that both read the same latest revision (PostgreSQL, READ COMMITTED) both try to
        // insert the next one; UNIQUE (case_id, revision) lets only one succeed. Below, outside the failed
        // transaction, find out whether that is what happened.
        tx.rollback();
        auto after = currentGold(caseRow);
        if (after && after->revision != basedOnRevision)
            return conflict(after.value());
        return fail(row.error());
    }
}

} // namespace structscope
