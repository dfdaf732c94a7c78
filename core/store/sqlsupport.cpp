// SPDX-License-Identifier: Apache-2.0
#include "store/sqlsupport.h"

#include "json/jsontext.h"
#include "json/parseladder.h"

#include <QSqlError>

#include <limits>
#include <new>

using namespace Qt::StringLiterals;

namespace structscope::sql {

static_assert(kStoredJsonMaxDepth >= ParseLimits {}.maxDepth + 8, "stored JSON must read back what input accepts");

QString errorDetail(const QSqlError& error)
{
    QString detail = error.databaseText().trimmed();
    const QString driver = error.driverText().trimmed();
    if (detail.isEmpty())
        detail = driver;
    else if (!driver.isEmpty() && !detail.contains(driver))
        detail += u" (" % driver % u')';
    if (detail.isEmpty())
        detail = u"unknown database error"_s;
    return detail;
}

StoreError databaseError(const QString& what, const QSqlError& error)
{
    return databaseError(what, error.nativeErrorCode(), errorDetail(error));
}

StoreError databaseError(const QString& what, const QString& code, const QString& detail)
{
    // PostgreSQL names errors by five-character SQLSTATEs; SQLite gives its extended result code, whose low byte is
    // the primary code.
    bool numeric = false;
    const int sqliteCode = code.size() < 5 ? code.toInt(&numeric) & 0xff : -1;
    // SQLite's SQLITE_FULL (13), PostgreSQL's disk_full (53100).
    if ((numeric && sqliteCode == 13) || code == u"53100"_s) {
        return { StoreErrorKind::DiskFull,
            what % u": the disk is full (" % detail
                % u"). Nothing of this change was stored and everything stored before is intact; free some space"
                  u" and try again."_s };
    }
    // SQLITE_IOERR (10): the file system refused a write or read — on a write, a full disk or quota, a file size
    // limit (EFBIG) or a failing device. The statement's transaction is rolled back either way.
    if (numeric && sqliteCode == 10) {
        return { StoreErrorKind::Database,
            what % u": the disk refused the data (" % detail
                % u"); it may be full, over a quota or failing. Nothing of this change was stored and everything"
                  u" stored before is intact."_s };
    }
    return { StoreErrorKind::Database, what % u": " % detail };
}

StoreResult<void> exec(QSqlQuery& query, const QString& sql, const QVariantList& values, const QString& what)
{
    query.setForwardOnly(true);
    // QPSQL prepares on the server (PREPARE … AS), which SET, CREATE and other utility statements refuse.
    if (values.isEmpty()) {
        if (!query.exec(sql))
            return databaseError(what, query.lastError());
        return {};
    }
    if (!query.prepare(sql))
        return databaseError(what, query.lastError());
    return execPrepared(query, values, what);
}

StoreResult<void> execPrepared(QSqlQuery& query, const QVariantList& values, const QString& what)
{
    for (qsizetype i = 0; i < values.size(); ++i)
        query.bindValue(int(i), values.at(i));
    if (!query.exec())
        return databaseError(what, query.lastError());
    return {};
}

QString timeToDb(const QDateTime& time)
{
    return time.toUTC().toString(Qt::ISODateWithMs);
}

QDateTime timeFromDb(const QVariant& value)
{
    if (value.isNull())
        return {};
    return QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
}

QString jsonToDb(const nlohmann::json& value)
{
    const std::string text = jsonToUtf8(value);
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

std::string jsonToUtf8(const nlohmann::json& value)
{
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<nlohmann::json> jsonFromDb(const QVariant& value)
{
    if (value.isNull())
        return std::nullopt;
    const QString text = value.toString();
    // UTF-8 takes at least one byte per UTF-16 unit: a longer text is over the limit before it is converted.
    if (std::size_t(text.size()) > kStoredJsonMaxBytes)
        return std::nullopt;
    const QByteArray utf8 = text.toUtf8();
    return jsonFromUtf8(std::string_view(utf8.constData(), std::size_t(utf8.size())));
}

std::optional<nlohmann::json> jsonFromUtf8(std::string_view utf8)
{
    // A store may come from anyone (a shared database, a file sent along): what it holds is parsed under limits,
    // like any input, so that a crafted value cannot exhaust the stack or the memory of whatever walks it later.
    if (utf8.size() > kStoredJsonMaxBytes)
        return std::nullopt;
    nlohmann::json parsed;
    try {
        if (!parseJsonText(utf8, kStoredJsonMaxDepth, parsed).ok)
            return std::nullopt;
    } catch (const std::bad_alloc&) {
        return std::nullopt;
    }
    return parsed;
}

QString unreadableJson()
{
    return u"does not hold JSON within the store's limits (valid JSON, nested at most %1 levels, at most %2 MiB)"_s
        .arg(kStoredJsonMaxDepth)
        .arg(qulonglong(kStoredJsonMaxBytes / (std::size_t(1024) * 1024)));
}

StoreResult<std::pair<QString, QVariantList>> rowListClause(
    const QString& column, const QList<qint64>& rows, qsizetype most)
{
    if (rows.isEmpty() || rows.size() > most)
        return StoreError { StoreErrorKind::InvalidArgument,
            u"cannot look up %1 rows at once (1 to %2)"_s.arg(rows.size()).arg(most) };
    QString clause = column + u" IN (?"_s;
    QVariantList values { rows.constFirst() };
    values.reserve(rows.size());
    for (qsizetype i = 1; i < rows.size(); ++i) {
        clause += u", ?"_s;
        values.append(rows.at(i));
    }
    clause += u')';
    return std::pair { clause, values };
}

QString textToDb(const QString& text)
{
    // Qt binds a null QString as SQL NULL; the NOT NULL text columns want ''.
    if (text.isNull())
        return u""_s;
    if (!text.contains(QChar(0)))
        return text;
    QString copy = text;
    copy.replace(QChar(0), QChar(QChar::ReplacementCharacter));
    return copy;
}

QVariant nullable(const std::optional<double>& value)
{
    return value ? QVariant(*value) : QVariant(QMetaType::fromType<double>());
}

QVariant nullable(const std::optional<qint64>& value)
{
    return value ? QVariant(*value) : QVariant(QMetaType::fromType<qint64>());
}

QVariant nullable(const std::optional<QString>& value)
{
    return value ? QVariant(textToDb(*value)) : QVariant(QMetaType::fromType<QString>());
}

std::optional<double> optionalDouble(const QVariant& value)
{
    if (value.isNull())
        return std::nullopt;
    return value.toDouble();
}

std::optional<qint64> optionalInt64(const QVariant& value)
{
    if (value.isNull())
        return std::nullopt;
    return value.toLongLong();
}

std::optional<QString> optionalText(const QVariant& value)
{
    if (value.isNull())
        return std::nullopt;
    return value.toString();
}

Transaction::Transaction(const QSqlDatabase& db, const SqlDialect& dialect)
    : m_db(db)
    , m_dialect(dialect)
{ }

Transaction::~Transaction()
{
    if (m_open)
        rollback();
}

StoreResult<void> Transaction::begin()
{
    QSqlQuery query(m_db);
    if (!query.exec(m_dialect.beginWrite()))
        return databaseError(u"cannot start a transaction"_s, query.lastError());
    m_open = true;
    return {};
}

StoreResult<void> Transaction::commit()
{
    QSqlQuery query(m_db);
    if (!query.exec(u"COMMIT"_s)) {
        auto error = databaseError(u"cannot commit"_s, query.lastError());
        rollback();
        return error;
    }
    m_open = false;
    return {};
}

void Transaction::rollback()
{
    QSqlQuery query(m_db);
    query.exec(u"ROLLBACK"_s);
    m_open = false;
}

} // namespace structscope::sql
