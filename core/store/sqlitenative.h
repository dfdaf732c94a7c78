#pragma once

// Reading through SQLite's own API on the connection Qt's SQLite driver holds, where Qt's per-column QVariant and
// UTF-16 conversion would cost more than the work done with the rows. Only this file's implementation includes
// sqlite3.h.

#include "store/records.h"
#include "store/storeresult.h"

#include <QByteArray>
#include <QSqlDatabase>
#include <QString>
#include <QVariantList>

#include <functional>
#include <optional>

namespace structscope::sql {

/// Reads `SELECT <scoring columns> FROM responses WHERE <clause>` (`values` bound to the placeholders; the clause
/// may end in ORDER BY) and visits each row as ResponseFields::ForScoring gives it, until `visit` returns false: the
/// count visited, or the error. Nothing when `db` is not an open connection of Qt's SQLite driver, or a value has a type this reader
/// does not bind (integers, doubles and text): the caller then reads through QSqlQuery.
///
/// Qt's SQLite driver on Debian links the system SQLite, as this library does, so the driver's handle is a
/// connection of the same library (QSqlDriver::handle() documents this use).
std::optional<StoreResult<qint64>> visitScoringResponses(const QSqlDatabase& db, const QString& clause,
    const QVariantList& values, const std::function<bool(const ResponseRecord&)>& visit);

/// Text read as UTF-8 bytes, as a round trip through QString would give it back: the bytes themselves when they
/// are ASCII (nearly every answer) or valid UTF-8, else with each invalid sequence replaced as QString::fromUtf8()
/// replaces it — so what is scored never depends on which reader read it.
QByteArray validUtf8(const char* data, qsizetype size);

} // namespace structscope::sql
