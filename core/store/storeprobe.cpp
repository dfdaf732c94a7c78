// SPDX-License-Identifier: Apache-2.0
#include "store/storeprobe.h"

#include "store/migrations.h"
#include "store/sqlsupport.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

StoreError notAStore(const QString& name, const QString& why)
{
    return { StoreErrorKind::NotAStore, u"%1 is not a StructScope store (%2); it was not modified"_s.arg(name, why) };
}

StoreError unreadable(const QString& name, const QSqlError& error)
{
    return { StoreErrorKind::Corrupt,
        u"%1 cannot be read as a database: %2; it was not modified"_s.arg(name, sql::errorDetail(error)) };
}

/// The first few names of a list, for a message.
QString shortList(const QStringList& names)
{
    constexpr qsizetype shown = 5;
    QString list = names.mid(0, shown).join(u", "_s);
    if (names.size() > shown)
        list += u", …"_s;
    return list;
}

} // namespace

StoreResult<void> checkSqliteHeader(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return StoreError { StoreErrorKind::Connection, u"cannot read %1: %2"_s.arg(path, file.errorString()) };
    const QByteArray header = file.read(100);
    static const QByteArray magic("SQLite format 3\0", 16);
    if (!header.startsWith(magic))
        return notAStore(path, u"not a SQLite database"_s);
    if (header.size() < 100)
        return StoreError { StoreErrorKind::Corrupt,
            u"%1 is truncated: it ends inside the SQLite header; it was not modified"_s.arg(path) };

    const auto u8 = [&header](int offset) { return quint32(quint8(header.at(offset))); };
    const auto u32
        = [&u8](int offset) { return u8(offset) << 24 | u8(offset + 1) << 16 | u8(offset + 2) << 8 | u8(offset + 3); };
    const quint32 rawPageSize = u8(16) << 8 | u8(17);
    const qint64 pageSize = rawPageSize == 1 ? 65536 : rawPageSize;
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) != 0)
        return StoreError { StoreErrorKind::Corrupt,
            u"%1 has a damaged SQLite header (page size %2); it was not modified"_s.arg(
                path, QString::number(rawPageSize)) };
    // The page count at offset 28 is only meaningful when the change counter matches "version-valid-for".
    // With a non-empty -wal file the WAL decides the size: a checkpoint killed half-way leaves page 1
    // (with the new count) in the main file before the pages that extend it, and SQLite recovers that.
    const qint64 pageCount = u32(28);
    const bool walDecides = QFileInfo(path + u"-wal"_s).size() > 0;
    if (!walDecides && pageCount > 0 && u32(24) == u32(92) && pageCount * pageSize > file.size())
        return StoreError { StoreErrorKind::Corrupt,
            u"%1 is truncated: its header describes %2 bytes, the file has %3; it was not modified"_s.arg(
                path, QString::number(pageCount * pageSize), QString::number(file.size())) };
    return {};
}

bool isMarkedStoreFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray header = file.read(72);
    static const QByteArray magic("SQLite format 3\0", 16);
    if (header.size() < 72 || !header.startsWith(magic))
        return false;
    const auto byte = [&header](int offset) { return quint32(quint8(header.at(offset))); };
    const quint32 applicationId = byte(68) << 24 | byte(69) << 16 | byte(70) << 8 | byte(71);
    return applicationId == quint32(kSqliteApplicationId);
}

StoreResult<int> probeSchemaVersion(const QSqlDatabase& db, const SqlDialect& dialect, const QString& name)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    QStringList tables;
    if (!query.exec(dialect.listTables())) {
        if (!dialect.isSqlite())
            return sql::databaseError(u"cannot list the tables of %1"_s.arg(name), query.lastError());
        return unreadable(name, query.lastError());
    }
    while (query.next())
        tables.append(query.value(0).toString());
    if (query.lastError().isValid())
        return dialect.isSqlite() ? unreadable(name, query.lastError())
                                  : sql::databaseError(u"cannot list the tables of %1"_s.arg(name), query.lastError());

    if (dialect.isSqlite()) {
        if (!query.exec(u"PRAGMA application_id"_s) || !query.next())
            return unreadable(name, query.lastError());
        const qint64 appId = query.value(0).toLongLong();
        if (appId != 0 && appId != kSqliteApplicationId)
            return notAStore(name, u"the SQLite file belongs to another application (application_id %1)"_s.arg(appId));
    }

    if (tables.isEmpty()) {
        // Only a database holding nothing at all may become a store. Views, triggers or a user_version that
        // another program set mean the file is someone else's, even without a single table.
        if (dialect.isSqlite()) {
            if (!query.exec(u"SELECT type || ' ' || name FROM sqlite_master ORDER BY name"_s))
                return unreadable(name, query.lastError());
            QStringList objects;
            while (query.next())
                objects.append(query.value(0).toString());
            if (query.lastError().isValid())
                return unreadable(name, query.lastError());
            if (!objects.isEmpty())
                return notAStore(name, u"it holds no tables but other objects: %1"_s.arg(shortList(objects)));
            if (!query.exec(u"PRAGMA user_version"_s) || !query.next())
                return unreadable(name, query.lastError());
            if (const qint64 userVersion = query.value(0).toLongLong(); userVersion != 0)
                return notAStore(
                    name, u"the SQLite file is marked by another program (user_version %1)"_s.arg(userVersion));
        }
        return 0;
    }
    if (!tables.contains(u"meta"_s))
        return notAStore(name, u"it holds other tables: %1"_s.arg(shortList(tables)));

    QHash<QString, QString> meta;
    if (!query.exec(u"SELECT key, value FROM meta"_s))
        return notAStore(name, u"its meta table is not StructScope's"_s);
    while (query.next())
        meta.insert(query.value(0).toString(), query.value(1).toString());
    if (query.lastError().isValid())
        return dialect.isSqlite()
            ? unreadable(name, query.lastError())
            : sql::databaseError(u"cannot read the meta table of %1"_s.arg(name), query.lastError());
    if (meta.value(u"application"_s) != kStoreApplicationName)
        return notAStore(name, u"its meta table is not StructScope's"_s);

    bool ok = false;
    const int version = meta.value(u"schema_version"_s).toInt(&ok);
    if (!ok || version < 1)
        return StoreError { StoreErrorKind::Corrupt,
            u"%1 has no valid schema_version (\"%2\"); it was not modified"_s.arg(
                name, meta.value(u"schema_version"_s)) };
    if (version > latestSchemaVersion())
        return StoreError { StoreErrorKind::NewerSchema,
            u"%1 was written by a newer StructScope (schema v%2, this build reads up to v%3); "
            "it was not modified"_s.arg(name, QString::number(version), QString::number(latestSchemaVersion())) };
    return version;
}

StoreResult<void> sqliteQuickCheck(const QSqlDatabase& db, const QString& name)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!query.exec(u"PRAGMA quick_check(5)"_s))
        return unreadable(name, query.lastError());
    QStringList problems;
    while (query.next())
        problems.append(query.value(0).toString());
    if (query.lastError().isValid())
        return unreadable(name, query.lastError());
    if (problems == QStringList { u"ok"_s })
        return {};
    if (problems.isEmpty())
        problems.append(u"the integrity check returned nothing"_s);
    return StoreError { StoreErrorKind::Corrupt,
        u"%1 is damaged (SQLite integrity check: %2); it was not modified"_s.arg(name, problems.join(u"; "_s)) };
}

} // namespace structscope
