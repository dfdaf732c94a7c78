// SPDX-License-Identifier: Apache-2.0
#include "store/sqlitenative.h"

#include "store/sqlsupport.h"

#include "json/textnorm.h"

#include <QSqlDriver>

#include <sqlite3.h>

#include <cstring>
#include <utility>

using namespace Qt::StringLiterals;

namespace structscope::sql {

namespace {

/// The connection's SQLite handle, or nullptr when it is not Qt's SQLite driver's or not open.
sqlite3* sqliteHandle(const QSqlDatabase& db)
{
    if (!db.isOpen() || !db.driver())
        return nullptr;
    const QVariant handle = db.driver()->handle();
    if (!handle.isValid() || std::strcmp(handle.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3* const*>(handle.data());
}

/// A prepared statement, finalized however the reading ends.
class Statement
{
public:
    Statement(sqlite3* db, const QByteArray& sql)
        : m_rc(sqlite3_prepare_v2(db, sql.constData(), int(sql.size()), &m_statement, nullptr))
    { }
    ~Statement() { sqlite3_finalize(m_statement); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    bool ok() const { return m_rc == SQLITE_OK && m_statement; }
    sqlite3_stmt* get() const { return m_statement; }

private:
    sqlite3_stmt* m_statement = nullptr;
    int m_rc = SQLITE_OK;
};

StoreError readError(sqlite3* db)
{
    return { StoreErrorKind::Database,
        u"cannot read responses: %1 (SQLite code %2)"_s.arg(QString::fromUtf8(sqlite3_errmsg(db)))
            .arg(sqlite3_extended_errcode(db)) };
}

QString text(sqlite3_stmt* s, int column)
{
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(s, column));
    return data ? QString::fromUtf8(data, sqlite3_column_bytes(s, column)) : QString();
}

std::optional<double> optionalDouble(sqlite3_stmt* s, int column)
{
    if (sqlite3_column_type(s, column) == SQLITE_NULL)
        return std::nullopt;
    return sqlite3_column_double(s, column);
}

} // namespace

QByteArray replaceInvalidUtf8(const char* data, qsizetype size)
{
    unsigned char any = 0;
    for (qsizetype i = 0; i < size; ++i)
        any |= static_cast<unsigned char>(data[i]);
    if ((any & 0x80) == 0)
        return QByteArray(data, size);
    return QByteArray::fromStdString(structscope::replaceInvalidUtf8(std::string_view(data, std::size_t(size))));
}

std::optional<StoreResult<qint64>> visitScoringResponses(const QSqlDatabase& db, const QString& clause,
    const QVariantList& values, const std::function<bool(const ResponseRow&)>& visit,
    const std::function<bool(qint64, qint64)>* needsText, bool textsApart, bool askedSchemas)
{
    sqlite3* handle = sqliteHandle(db);
    if (!handle)
        return std::nullopt;
    textsApart = textsApart && needsText;
    for (const QVariant& value : values) {
        switch (value.typeId()) {
        case QMetaType::Int:
        case QMetaType::LongLong:
        case QMetaType::Double:
        case QMetaType::QString:
            break;
        default:
            return std::nullopt;
        }
    }
    // The asked schema matters only to a response whose answer is scored: read with its text (the index that serves
    // a read of texts apart does not hold it).
    const QString asked = askedSchemas ? u"asked_schema_id"_s : u"NULL"_s;
    const QByteArray sql = (u"SELECT id, run_id, case_id, repeat_index, %1, http_status, error_kind, latency_ms, "
                            u"cost, cost_source, attempts, %2 FROM responses WHERE "_s.arg(
                                textsApart ? u"NULL"_s : u"raw_text"_s, textsApart ? u"NULL"_s : asked)
        + clause)
                               .toUtf8();
    Statement statement(handle, sql);
    if (!statement.ok())
        return StoreResult<qint64>(readError(handle));
    sqlite3_stmt* s = statement.get();
    std::optional<Statement> textOf;
    if (textsApart) {
        textOf.emplace(handle, (u"SELECT raw_text, %1 FROM responses WHERE id = ?"_s.arg(asked)).toUtf8());
        if (!textOf->ok())
            return StoreResult<qint64>(readError(handle));
    }
    for (int i = 0; i < int(values.size()); ++i) {
        const QVariant& value = values.at(i);
        int rc = SQLITE_OK;
        if (value.typeId() == QMetaType::Double) {
            rc = sqlite3_bind_double(s, i + 1, value.toDouble());
        } else if (value.typeId() == QMetaType::QString) {
            const QByteArray utf8 = value.toString().toUtf8();
            rc = sqlite3_bind_text(s, i + 1, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
        } else {
            rc = sqlite3_bind_int64(s, i + 1, value.toLongLong());
        }
        if (rc != SQLITE_OK)
            return StoreResult<qint64>(readError(handle));
    }
    qint64 count = 0;
    ResponseRow r;
    for (;;) {
        const int rc = sqlite3_step(s);
        if (rc == SQLITE_DONE)
            break;
        if (rc != SQLITE_ROW)
            return StoreResult<qint64>(readError(handle));
        // As readResponse() converts Qt's values: integers from any storage class, NULL as 0 or unset.
        r.id = sqlite3_column_int64(s, 0);
        r.runId = sqlite3_column_int64(s, 1);
        r.caseRow = sqlite3_column_int64(s, 2);
        r.repeat = sqlite3_column_int(s, 3);
        if (!needsText || (*needsText)(r.id, r.caseRow)) {
            sqlite3_stmt* from = s;
            int column = 4;
            if (textsApart) {
                from = textOf->get();
                column = 0;
                sqlite3_reset(from);
                const int found = sqlite3_bind_int64(from, 1, r.id) == SQLITE_OK ? sqlite3_step(from) : SQLITE_ERROR;
                if (found != SQLITE_ROW)
                    return StoreResult<qint64>(
                        found == SQLITE_DONE ? StoreError { StoreErrorKind::Corrupt,
                            u"responses row %1 is listed by the responses index but not in the table: the store is damaged"_s
                                .arg(r.id) }
                                             : readError(handle));
            }
            const auto* raw = reinterpret_cast<const char*>(sqlite3_column_text(from, column));
            r.rawUtf8 = raw ? replaceInvalidUtf8(raw, sqlite3_column_bytes(from, column)) : QByteArray();
            r.askedSchemaId = sqlite3_column_int64(from, textsApart ? 1 : 11);
        } else {
            r.rawUtf8.clear();
            r.askedSchemaId = 0;
        }
        r.httpStatus = sqlite3_column_int(s, 5);
        r.errorKind = text(s, 6);
        r.latencyMs = optionalDouble(s, 7);
        r.cost = optionalDouble(s, 8);
        const auto* sourceName = reinterpret_cast<const char*>(sqlite3_column_text(s, 9));
        const auto source = costSourceFromUtf8(
            sourceName ? std::string_view(sourceName, std::size_t(sqlite3_column_bytes(s, 9))) : std::string_view());
        if (!source)
            return StoreResult<qint64>(StoreError { StoreErrorKind::Corrupt,
                u"responses row %1: cost_source \"%2\" is not readable"_s.arg(QString::number(r.id), text(s, 9)) });
        r.costSource = *source;
        r.attempts = sqlite3_column_int(s, 10);
        ++count;
        if (!visit(r))
            break;
    }
    return StoreResult<qint64>(count);
}

std::optional<StoreResult<qint64>> visitStoredVerdicts(const QSqlDatabase& db, qint64 runId, int scorerVersion,
    const std::function<bool(qint64, qint64, std::string_view)>& visit)
{
    sqlite3* handle = sqliteHandle(db);
    if (!handle)
        return std::nullopt;
    Statement statement(handle,
        QByteArrayLiteral("SELECT response_id, gold_revision_id, verdict FROM scored_verdicts "
                          "WHERE run_id = ? AND scorer_version = ? ORDER BY response_id"));
    const auto failed = [handle]() {
        return StoreResult<qint64>(StoreError { StoreErrorKind::Database,
            u"cannot read kept verdicts: %1 (SQLite code %2)"_s.arg(QString::fromUtf8(sqlite3_errmsg(handle)))
                .arg(sqlite3_extended_errcode(handle)) });
    };
    if (!statement.ok())
        return failed();
    sqlite3_stmt* s = statement.get();
    if (sqlite3_bind_int64(s, 1, runId) != SQLITE_OK || sqlite3_bind_int64(s, 2, scorerVersion) != SQLITE_OK)
        return failed();
    qint64 count = 0;
    for (;;) {
        const int rc = sqlite3_step(s);
        if (rc == SQLITE_DONE)
            break;
        if (rc != SQLITE_ROW)
            return failed();
        // A verdict stored as text by a foreign writer reads as its bytes; the decoder judges them.
        const void* bytes = sqlite3_column_blob(s, 2);
        const int size = sqlite3_column_bytes(s, 2);
        ++count;
        if (!visit(sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1),
                std::string_view(static_cast<const char*>(bytes), bytes ? std::size_t(size) : 0)))
            break;
    }
    return StoreResult<qint64>(count);
}

RowInsert::RowInsert(const QSqlDatabase& db, QString sql)
    : m_handle(sqliteHandle(db))
    , m_sql(std::move(sql))
    , m_query(m_handle ? QSqlQuery() : QSqlQuery(db))
{ }

RowInsert::~RowInsert()
{
    sqlite3_finalize(m_statement);
}

StoreResult<void> RowInsert::prepare(const QString& what)
{
    if (!m_handle) {
        m_query.setForwardOnly(true);
        if (!m_query.prepare(m_sql))
            return databaseError(what, m_query.lastError());
        return {};
    }
    const QByteArray utf8 = m_sql.toUtf8();
    if (sqlite3_prepare_v2(m_handle, utf8.constData(), int(utf8.size()), &m_statement, nullptr) != SQLITE_OK
        || !m_statement) {
        noteSqliteError();
        return error(what);
    }
    return {};
}

void RowInsert::add(qint64 value)
{
    if (m_statement)
        sqlite3_bind_int64(m_statement, ++m_column, value);
    else
        m_values.append(value);
}

void RowInsert::add(double value)
{
    if (m_statement)
        sqlite3_bind_double(m_statement, ++m_column, value);
    else
        m_values.append(value);
}

void RowInsert::add(const QString& text)
{
    if (m_statement)
        bindHeld(textToDb(text).toUtf8());
    else
        m_values.append(textToDb(text));
}

void RowInsert::addUtf8(std::string_view text)
{
    if (!m_statement || text.find('\0') != std::string_view::npos)
        return add(QString::fromUtf8(text.data(), qsizetype(text.size())));
    sqlite3_bind_text(m_statement, ++m_column, text.data(), int(text.size()), SQLITE_TRANSIENT);
}

void RowInsert::addBlob(std::string_view bytes)
{
    if (m_statement)
        sqlite3_bind_blob64(m_statement, ++m_column, bytes.data(), sqlite3_uint64(bytes.size()), SQLITE_TRANSIENT);
    else
        m_values.append(QByteArray(bytes.data(), qsizetype(bytes.size())));
}

template <typename T> void RowInsert::addOptional(const std::optional<T>& value)
{
    if (value)
        add(*value);
    else if (m_statement)
        addNull();
    else
        m_values.append(nullable(value)); // a NULL of the column's type
}

void RowInsert::add(const std::optional<double>& value)
{
    addOptional(value);
}

void RowInsert::add(const std::optional<qint64>& value)
{
    addOptional(value);
}

void RowInsert::add(const std::optional<QString>& text)
{
    addOptional(text);
}

void RowInsert::noteSqliteError()
{
    m_errorCode = QString::number(sqlite3_extended_errcode(m_handle));
    m_errorText = QString::fromUtf8(sqlite3_errmsg(m_handle));
}

void RowInsert::addNull()
{
    sqlite3_bind_null(m_statement, ++m_column);
}

void RowInsert::bindHeld(QByteArray text)
{
    const QByteArray& held = m_held.emplace_back(std::move(text));
    sqlite3_bind_text(m_statement, ++m_column, held.constData(), int(held.size()), SQLITE_STATIC);
}

bool RowInsert::run(qint64* returnedId)
{
    if (!m_statement) {
        for (qsizetype i = 0; i < m_values.size(); ++i)
            m_query.bindValue(int(i), m_values.at(i));
        m_values.clear();
        bool ok = m_query.exec() && (!returnedId || m_query.next());
        if (ok && returnedId)
            *returnedId = m_query.value(0).toLongLong();
        if (!ok) {
            m_errorCode = m_query.lastError().nativeErrorCode();
            m_errorText = errorDetail(m_query.lastError());
        }
        m_query.finish();
        return ok;
    }
    int rc = sqlite3_step(m_statement);
    if (rc == SQLITE_ROW && returnedId)
        *returnedId = sqlite3_column_int64(m_statement, 0);
    const bool ok = rc == SQLITE_ROW || (rc == SQLITE_DONE && !returnedId);
    if (!ok) {
        if (rc == SQLITE_DONE) {
            m_errorCode.clear();
            m_errorText = u"the statement returned no row"_s;
        } else {
            noteSqliteError();
        }
    }
    // Resetting finishes a RETURNING statement (its changes are made by the first step) and frees the row's texts.
    sqlite3_reset(m_statement);
    sqlite3_clear_bindings(m_statement);
    m_held.clear();
    m_column = 0;
    return ok;
}

StoreError RowInsert::error(const QString& what) const
{
    return databaseError(what, m_errorCode, m_errorText.isEmpty() ? u"unknown database error"_s : m_errorText);
}

} // namespace structscope::sql
