// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/sqldialect.h"
#include "store/storeresult.h"

#include <QList>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

namespace structscope {

/// One step of the store schema. Statements use SqlDialect::expand() placeholders so that SQLite and
/// PostgreSQL get the same logical schema.
struct Migration
{
    int version = 0; ///< the schema version after this step
    QString summary;
    QStringList statements;
    /// A store that lacks this step still reads correctly, only slower (the step adds indexes and nothing else):
    /// a read-only store of the version before it opens without the step.
    bool readableWithout = false;
};

/// The value of meta.application in every store; tells a StructScope store from other databases.
inline constexpr QLatin1StringView kStoreApplicationName { "structscope" };
/// SQLite header application_id of a store ("SSst"), so `file` and other tools can recognise it too.
inline constexpr qint32 kSqliteApplicationId = 0x53537374;

/// Every migration, in order; step i has version i + 1.
const QList<Migration>& storeMigrations();

/// The newest schema version this build reads and writes.
int latestSchemaVersion();

/// The oldest schema version this build reads without migrating it: every later step is readableWithout. A
/// read-only store older than this cannot be read, since upgrading it would need writing.
int oldestReadableSchemaVersion();

/// Brings the database to latestSchemaVersion(), each step in its own transaction. Safe when several
/// clients open the same store at once: the version is re-read under the write lock before each step.
/// Returns the version before migrating (0 for a new store).
StoreResult<int> migrateStore(const QSqlDatabase& db, const SqlDialect& dialect);

} // namespace structscope
