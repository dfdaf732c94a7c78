// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reading through SQLite's own API on the connection Qt's SQLite driver holds, where Qt's per-column QVariant and
// UTF-16 conversion would cost more than the work done with the rows. Only this file's implementation includes
// sqlite3.h.

#include "store/rows.h"
#include "store/storeresult.h"

#include <QByteArray>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariantList>

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace structscope::sql {

/// One INSERT run many times inside the caller's transaction, each row's values added in column order. On an SQLite
/// store it runs through SQLite's own API on the connection Qt's driver holds: binding through QSqlQuery costs a
/// QVariant per value and hands every text to SQLite as UTF-16, which SQLite turns back into the UTF-8 the file
/// holds — more than SQLite's own work in a bulk insert. On PostgreSQL it is a prepared QSqlQuery. Either way a
/// text goes in as textToDb() gives it (a null QString as '', U+0000 as U+FFFD), so both store the same data.
class RowInsert
{
public:
    RowInsert(const QSqlDatabase& db, QString sql);
    ~RowInsert();
    RowInsert(const RowInsert&) = delete;
    RowInsert& operator=(const RowInsert&) = delete;

    /// Prepares the statement: the error, "<what>: <database message>", when it does not prepare.
    StoreResult<void> prepare(const QString& what);

    void add(qint64 value);
    void add(int value) { add(qint64(value)); }
    void add(double value);
    void add(const QString& text);
    /// UTF-8 text (JSON as nlohmann's dump() writes it, say).
    void addUtf8(std::string_view text);
    /// Bytes for a BLOB (PostgreSQL: BYTEA) column.
    void addBlob(std::string_view bytes);
    void add(const std::optional<double>& value);
    void add(const std::optional<qint64>& value);
    void add(const std::optional<QString>& text);

    /// Runs the statement with the values added since the last run, then starts a new row. `returnedId`: the first
    /// column of the row a RETURNING clause gives back. False on failure: error() then tells it.
    bool run(qint64* returnedId = nullptr);
    /// The last failure of prepare() or run() as a StoreError for "<what>", its kind as databaseError() classifies it.
    StoreError error(const QString& what) const;

    /// Whether the rows go through SQLite's own API (for tests).
    bool isNative() const { return m_handle != nullptr; }

private:
    template <typename T> void addOptional(const std::optional<T>& value);
    void addNull();
    void bindHeld(QByteArray text);
    void noteSqliteError(); ///< the connection's last error, for error()

    sqlite3* m_handle = nullptr;
    sqlite3_stmt* m_statement = nullptr;
    QString m_sql;
    QSqlQuery m_query; ///< PostgreSQL (or any connection that is not Qt's SQLite driver's)
    QVariantList m_values;
    std::vector<QByteArray> m_held; ///< the UTF-8 of this row's texts, bound without a copy until run()
    int m_column = 0;
    QString m_errorCode;
    QString m_errorText;
};

/// Reads `SELECT <scoring columns> FROM responses WHERE <clause>` (`values` bound to the placeholders; the clause
/// may end in ORDER BY) and visits each row as ResponseFields::ForScoring gives it, until `visit` returns false: the
/// count visited, or the error. Nothing when `db` is not an open connection of Qt's SQLite driver, or a value has a
/// type this reader does not bind (integers, doubles and text): the caller then reads through QSqlQuery.
///
/// Qt's SQLite driver on Debian links the system SQLite, as this library does, so the driver's handle is a
/// connection of the same library (QSqlDriver::handle() documents this use).
/// `needsText`, where given, is asked (response id, case row) before a row's raw text is read: false leaves rawUtf8
/// empty, and SQLite never copies the text (nor reads its overflow pages).
/// `textsApart` (with `needsText`): for a read where few texts are needed (a run whose verdicts the store keeps). The
/// rows are read without their text — from the responses_scoring index alone, which holds every other column read,
/// instead of from the table's pages, answers and all — and each text needed is looked up by its id.
/// `askedSchemas`: the table has the asked_schema_id column (schema v5); it is read with each text read (without one,
/// askedSchemaId stays 0).
std::optional<StoreResult<qint64>> visitScoringResponses(const QSqlDatabase& db, const QString& clause,
    const QVariantList& values, const std::function<bool(const ResponseRow&)>& visit,
    const std::function<bool(qint64, qint64)>* needsText = nullptr, bool textsApart = false, bool askedSchemas = true);

/// Reads `SELECT response_id, gold_revision_id, verdict FROM scored_verdicts WHERE run_id = ? AND scorer_version = ?
/// ORDER BY response_id` through SQLite's own API and visits each row, the verdict's bytes valid during the call,
/// until `visit` returns false: the count visited. Nothing when `db` is not Qt's SQLite driver's.
std::optional<StoreResult<qint64>> visitStoredVerdicts(const QSqlDatabase& db, qint64 runId, int scorerVersion,
    const std::function<bool(qint64, qint64, std::string_view)>& visit);

/// Text read as UTF-8 bytes, as a round trip through QString would give it back: the bytes themselves when they
/// are ASCII (nearly every answer) or valid UTF-8, else with each invalid sequence replaced by U+FFFD
/// (structscope::replaceInvalidUtf8(), the one replacing policy) — so what is scored never depends on which reader
/// read it.
QByteArray replaceInvalidUtf8(const char* data, qsizetype size);

} // namespace structscope::sql
