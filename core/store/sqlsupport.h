// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/sqldialect.h"
#include "store/storeresult.h"

#include <nlohmann/json.hpp>

#include <string_view>

#include <QDateTime>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QVariant>
#include <QVariantList>

#include <cstddef>
#include <optional>
#include <utility>

// Small helpers shared by the store's implementation files; not part of the public API.
namespace structscope::sql {

/// The database's message for an error, with the driver's context when it adds something.
QString errorDetail(const QSqlError& error);

/// "<what>: <database message>", for a failed statement.
StoreError databaseError(const QString& what, const QSqlError& error);
/// The same from the parts: `nativeCode` as QSqlError::nativeErrorCode() gives it (SQLite's extended result code
/// in decimal, or PostgreSQL's SQLSTATE), `detail` the database's message. A full disk is told apart from other
/// failures, whichever API ran the statement.
StoreError databaseError(const QString& what, const QString& nativeCode, const QString& detail);

/// Prepares `sql` on a forward-only query, binds `values` positionally and executes it; without values
/// the statement runs unprepared.
StoreResult<void> exec(QSqlQuery& query, const QString& sql, const QVariantList& values, const QString& what);

/// Executes with new values a query that exec() already prepared.
StoreResult<void> execPrepared(QSqlQuery& query, const QVariantList& values, const QString& what);

/// UTC ISO 8601 with milliseconds ("2024-05-01T12:00:00.123Z"): sorts as text, reads the same in both engines.
QString timeToDb(const QDateTime& time);
/// Parses timeToDb(); an invalid QDateTime for NULL or garbage.
QDateTime timeFromDb(const QVariant& value);

/// Compact JSON text. Invalid UTF-8 in strings is replaced rather than thrown on.
QString jsonToDb(const nlohmann::json& value);
/// The same text as UTF-8, for a column bound as such (RowInsert::addUtf8()).
std::string jsonToUtf8(const nlohmann::json& value);
/// Limits on JSON read back from a store, which may come from anyone: those of any JSON input (the parse ladder's
/// 512 levels; the largest input line an importer accepts, 64 MiB), plus a few levels for the envelopes the store
/// wraps around an input value (an audit entry's details hold a gold value).
inline constexpr int kStoredJsonMaxDepth = 512 + 8;
inline constexpr std::size_t kStoredJsonMaxBytes = std::size_t(64) * 1024 * 1024;

/// Parses jsonToDb(); nullopt when the stored text is not JSON or is over the limits above.
std::optional<nlohmann::json> jsonFromDb(const QVariant& value);
/// The same for the column's text as UTF-8.
std::optional<nlohmann::json> jsonFromUtf8(std::string_view utf8);
/// "does not hold JSON within the store's limits (…)", for the error that names a row jsonFromDb() refused.
QString unreadableJson();

/// Text for a NOT NULL column: a null QString becomes ''. PostgreSQL text cannot hold U+0000, so both
/// engines store U+FFFD instead and hold the same data.
QString textToDb(const QString& text);
/// "<column> IN (?, ?, ...)" and its values for a list of row ids: an InvalidArgument error when the list is empty or
/// longer than `most` (a statement's parameters are limited).
StoreResult<std::pair<QString, QVariantList>> rowListClause(
    const QString& column, const QList<qint64>& rows, qsizetype most);

QVariant nullable(const std::optional<double>& value);
QVariant nullable(const std::optional<qint64>& value);
QVariant nullable(const std::optional<QString>& value);
std::optional<double> optionalDouble(const QVariant& value);
std::optional<qint64> optionalInt64(const QVariant& value);
std::optional<QString> optionalText(const QVariant& value);

/// A transaction that rolls back unless committed, so an early return never leaves one open.
class Transaction
{
public:
    Transaction(const QSqlDatabase& db, const SqlDialect& dialect);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

    /// Starts a write transaction (SQLite: BEGIN IMMEDIATE).
    StoreResult<void> begin();
    StoreResult<void> commit();
    void rollback();

private:
    QSqlDatabase m_db;
    SqlDialect m_dialect;
    bool m_open = false;
};

} // namespace structscope::sql
