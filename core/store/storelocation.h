// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/storeresult.h"

#include <QString>
#include <QStringList>

namespace structscope {

/// The database engine behind a store.
enum class StoreBackend { Sqlite, Postgres };

/// Where a store lives: a SQLite file, or a PostgreSQL database (`postgresql://user:pass@host:port/db?…`).
struct StoreLocation
{
    StoreBackend backend = StoreBackend::Sqlite;
    QString filePath; ///< SQLite: absolute path of the file

    // PostgreSQL
    QString host; ///< empty: libpq's default (local socket)
    int port = -1; ///< -1: libpq's default (5432)
    QString user;
    QString password;
    QString database;
    QString schema; ///< `?schema=name`: tables live in this PostgreSQL schema (created if missing)
    QStringList connectOptions; ///< libpq options from the query string, as "key=value"

    /// Parses a location; a string with a "scheme://" prefix is a URL, anything else a file path.
    /// Accepted: plain paths, `file://` URLs, `postgresql://` and `postgres://` URLs.
    static StoreResult<StoreLocation> parse(const QString& location);

    /// The location for messages and logs, with the password left out.
    QString displayName() const;

    /// `location` as given, but with the password of a postgresql:// URL left out (user, host, port, database and
    /// options kept, so that libpq can take the password from ~/.pgpass or PGPASSWORD). Anything else is returned
    /// unchanged. For what is remembered or shown: recent lists, settings, dialogs.
    static QString withoutPassword(const QString& location);
};

} // namespace structscope
