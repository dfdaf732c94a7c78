// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/sqldialect.h"
#include "store/storeresult.h"

#include <QSqlDatabase>
#include <QString>

namespace structscope {

// Read-only checks run before the store writes anything to a database it did not create: a file or
// database that is not a store, is from a newer StructScope, or is damaged must be left exactly as it is.

/// Checks the SQLite header of an existing, non-empty file without opening it as a database: the magic
/// string, a valid page size, and a file at least as long as the header says (a truncated copy).
StoreResult<void> checkSqliteHeader(const QString& path);

/// True when `path` is a SQLite file whose header carries a StructScope store's application_id ("SSst" at offset 68,
/// what the shared-mime-info type application/x-structscope-store matches on). Reads 72 bytes; opens nothing.
bool isMarkedStoreFile(const QString& path);

/// Reads which schema version the database holds: 0 when it holds nothing at all (a new store: no
/// tables, views or triggers, and on SQLite a user_version of 0), the
/// version of a StructScope store, or NotAStore / NewerSchema / Corrupt. `name` is used in messages.
StoreResult<int> probeSchemaVersion(const QSqlDatabase& db, const SqlDialect& dialect, const QString& name);

/// PRAGMA quick_check on a SQLite database: Corrupt with the first problems when it finds any.
StoreResult<void> sqliteQuickCheck(const QSqlDatabase& db, const QString& name);

} // namespace structscope
