// SPDX-License-Identifier: Apache-2.0
#include "store/resultstore.h"

#include "store/migrations.h"
#include "store/sqlsupport.h"
#include "store/storeprobe.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>

#include <algorithm>
#include <atomic>
#include <mutex>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

QString nextConnectionName()
{
    static std::atomic<quint64> counter { 0 };
    return u"structscope-store-%1"_s.arg(++counter);
}

/// The SQLite files this process has connections to, and those it must not open now (see OpeningBlocked).
struct OpenFiles
{
    std::mutex mutex;
    QHash<QString, int> connections; ///< by absolute path
    QHash<QString, QString> blocked; ///< absolute path → why
};

OpenFiles& openFiles()
{
    static OpenFiles files;
    return files;
}

QString absolutePath(const QString& path)
{
    return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

// How long a SQLite connection waits for another writer (another ResultStore, another process).
constexpr int kSqliteBusyTimeoutMs = 15000;

// Points a QSQLITE connection at a store file. A read-only connection to a WAL-mode file needs its -shm
// file; in a folder it cannot write, SQLite can neither create one nor open the file. When there is no
// -wal file either, everything is in the main file, and `immutable` lets SQLite read it without them.
void configureSqlite(QSqlDatabase& db, const QString& path, bool readOnly)
{
    QString options = u"QSQLITE_BUSY_TIMEOUT=%1"_s.arg(kSqliteBusyTimeoutMs);
    const QFileInfo info(path);
    if (readOnly) {
        options += u";QSQLITE_OPEN_READONLY"_s;
        if (!QFileInfo(info.absolutePath()).isWritable() && !QFileInfo::exists(path + u"-wal"_s)
            && !QFileInfo::exists(path + u"-shm"_s)) {
            options += u";QSQLITE_OPEN_URI"_s;
            db.setDatabaseName(
                QUrl::fromLocalFile(info.absoluteFilePath()).toString(QUrl::FullyEncoded) + u"?immutable=1"_s);
            db.setConnectOptions(options);
            return;
        }
    }
    db.setDatabaseName(path);
    db.setConnectOptions(options);
}

} // namespace

ResultStore::ResultStore(StoreLocation location, QString connectionName)
    : m_location(std::move(location))
    , m_dialect(m_location.backend)
    , m_connectionName(std::move(connectionName))
{ }

ResultStore::~ResultStore()
{
    m_requestLookup.reset(); // a prepared statement must not outlive its connection
    if (QSqlDatabase::contains(m_connectionName)) {
        {
            QSqlDatabase database = QSqlDatabase::database(m_connectionName, false);
            database.close();
        }
        QSqlDatabase::removeDatabase(m_connectionName);
    }
    if (!m_countedPath.isEmpty()) {
        OpenFiles& files = openFiles();
        const std::lock_guard lock(files.mutex);
        if (--files.connections[m_countedPath] <= 0)
            files.connections.remove(m_countedPath);
    }
}

int ResultStore::openConnections(const QString& path)
{
    OpenFiles& files = openFiles();
    const std::lock_guard lock(files.mutex);
    return files.connections.value(absolutePath(path));
}

ResultStore::OpeningBlocked::OpeningBlocked(const QString& path, const QString& why)
    : m_path(absolutePath(path))
{
    OpenFiles& files = openFiles();
    const std::lock_guard lock(files.mutex);
    files.blocked.insert(m_path, why);
}

ResultStore::OpeningBlocked::~OpeningBlocked()
{
    OpenFiles& files = openFiles();
    const std::lock_guard lock(files.mutex);
    files.blocked.remove(m_path);
}

int ResultStore::supportedSchemaVersion()
{
    return latestSchemaVersion();
}

std::unique_ptr<ResultStore> ResultStore::open(const QString& location, const OpenOptions& options, StoreError* error)
{
    auto result = openImpl(location, options);
    if (!result) {
        if (error)
            *error = result.error();
        return nullptr;
    }
    return std::move(result).value();
}

std::unique_ptr<ResultStore> ResultStore::open(const QString& location, QString* error)
{
    StoreError storeError;
    auto store = open(location, OpenOptions {}, &storeError);
    if (!store && error)
        *error = storeError.message;
    return store;
}

std::unique_ptr<ResultStore> ResultStore::openAgain(StoreError* error) const
{
    OpenOptions options;
    options.readOnly = m_readOnly;
    options.createIfMissing = false;
    options.integrityCheck = false;
    return open(m_openedAs, options, error);
}

StoreResult<std::unique_ptr<ResultStore>> ResultStore::openImpl(const QString& location, const OpenOptions& options)
{
    auto parsed = StoreLocation::parse(location);
    if (!parsed)
        return parsed.error();
    std::unique_ptr<ResultStore> store(new ResultStore(parsed.value(), nextConnectionName()));
    store->m_openedAs = location;
    const auto opened
        = parsed->backend == StoreBackend::Sqlite ? store->openSqlite(options) : store->openPostgres(options);
    if (!opened)
        return opened.error();
    return store;
}

StoreResult<void> ResultStore::openSqlite(const OpenOptions& options)
{
    const QString path = m_location.filePath;
    const QFileInfo info(path);
    // Counted from before the first connection (the probe's) to the destructor, unless the file is being replaced.
    {
        const QString counted = absolutePath(path);
        OpenFiles& files = openFiles();
        const std::lock_guard lock(files.mutex);
        if (const auto why = files.blocked.constFind(counted); why != files.blocked.cend())
            return StoreError { StoreErrorKind::Connection, u"%1 cannot be opened now: %2"_s.arg(path, *why) };
        ++files.connections[counted];
        m_countedPath = counted;
    }
    m_readOnly = options.readOnly;
    if (m_readOnly)
        m_readOnlyReason = u"opened read-only"_s;

    int version = 0;
    if (info.exists()) {
        if (info.isDir())
            return StoreError { StoreErrorKind::InvalidLocation, u"%1 is a folder, not a store file"_s.arg(path) };
        if (!info.isFile())
            return StoreError { StoreErrorKind::InvalidLocation, u"%1 is not a regular file"_s.arg(path) };
        if (!m_readOnly && !info.isWritable()) {
            m_readOnly = true;
            m_readOnlyReason = u"the file is not writable"_s;
        } else if (!m_readOnly && !QFileInfo(info.absolutePath()).isWritable()) {
            // SQLite creates its -wal and -shm files next to the store.
            m_readOnly = true;
            m_readOnlyReason = u"its folder is not writable"_s;
        }
        if (info.size() > 0) {
            if (auto r = checkSqliteHeader(path); !r)
                return r.error();
            // Validate through a read-only connection first: nothing, not even the switch to WAL, is
            // written to a file that turns out not to be a usable store.
            const QString probeName = m_connectionName + u"-probe"_s;
            StoreResult<int> probed = 0;
            {
                QSqlDatabase probe = QSqlDatabase::addDatabase(m_dialect.driverName(), probeName);
                configureSqlite(probe, path, true);
                if (!probe.open()) {
                    probed = StoreError { StoreErrorKind::Connection,
                        u"cannot open %1: %2"_s.arg(path, sql::errorDetail(probe.lastError())) };
                } else {
                    probed = probeSchemaVersion(probe, m_dialect, path);
                    if (probed && probed.value() > 0 && options.integrityCheck) {
                        if (auto check = sqliteQuickCheck(probe, path); !check)
                            probed = check.error();
                    }
                    probe.close();
                }
            }
            QSqlDatabase::removeDatabase(probeName);
            if (!probed)
                return probed.error();
            version = probed.value();
        } else if (m_readOnly) {
            return StoreError { StoreErrorKind::NotAStore,
                u"%1 is an empty file, not a StructScope store"_s.arg(path) };
        }
    } else {
        if (m_readOnly || !options.createIfMissing)
            return StoreError { StoreErrorKind::NotFound, u"store %1 does not exist"_s.arg(path) };
        const QFileInfo folder(info.absolutePath());
        if (!folder.isDir())
            return StoreError { StoreErrorKind::NotFound,
                u"cannot create store %1: folder %2 does not exist"_s.arg(path, folder.filePath()) };
        if (!folder.isWritable())
            return StoreError { StoreErrorKind::ReadOnly,
                u"cannot create store %1: folder %2 is not writable"_s.arg(path, folder.filePath()) };
    }

    if (m_readOnly && version == 0)
        return StoreError { StoreErrorKind::NotAStore,
            u"%1 holds no StructScope store, and it cannot be created (%2)"_s.arg(path, m_readOnlyReason) };
    if (m_readOnly && version < oldestReadableSchemaVersion())
        return StoreError { StoreErrorKind::ReadOnly,
            u"%1 has schema v%2 and needs an upgrade to v%3, which a read-only store cannot do (%4)"_s.arg(
                path, QString::number(version), QString::number(latestSchemaVersion()), m_readOnlyReason) };
    if (version == 0 && !options.createIfMissing)
        return StoreError { StoreErrorKind::NotFound, u"%1 holds no StructScope store yet"_s.arg(path) };

    QSqlDatabase database = QSqlDatabase::addDatabase(m_dialect.driverName(), m_connectionName);
    configureSqlite(database, path, m_readOnly);
    if (!database.open())
        return StoreError { StoreErrorKind::Connection,
            u"cannot open %1: %2"_s.arg(path, sql::errorDetail(database.lastError())) };

    QSqlQuery query(database);
    QStringList pragmas { u"PRAGMA foreign_keys = ON"_s };
    if (m_readOnly) {
        pragmas << u"PRAGMA query_only = ON"_s;
    } else {
        // WAL keeps committed transactions across a killed process; FULL also across power loss.
        pragmas << u"PRAGMA journal_mode = WAL"_s << u"PRAGMA synchronous = FULL"_s;
    }
    for (const QString& pragma : pragmas) {
        if (!query.exec(pragma))
            return sql::databaseError(u"cannot configure %1 (%2)"_s.arg(path, pragma), query.lastError());
        if (pragma.contains(u"journal_mode"_s)) {
            const QString mode = query.next() ? query.value(0).toString() : QString();
            if (mode.compare(u"wal"_s, Qt::CaseInsensitive) != 0)
                return StoreError { StoreErrorKind::Connection,
                    u"cannot switch %1 to write-ahead logging (journal mode is \"%2\")"_s.arg(path, mode) };
        }
        query.finish();
    }
    m_versionAtOpen = version;
    return finishOpen();
}

StoreResult<void> ResultStore::openPostgres(const OpenOptions& options)
{
    const QString name = m_location.displayName();
    m_readOnly = options.readOnly;
    if (m_readOnly)
        m_readOnlyReason = u"opened read-only"_s;

    QSqlDatabase database = QSqlDatabase::addDatabase(m_dialect.driverName(), m_connectionName);
    if (!database.isValid())
        return StoreError { StoreErrorKind::Connection,
            u"the Qt PostgreSQL driver (QPSQL) is not available; install libqt6sql6-psql"_s };
    if (!m_location.host.isEmpty())
        database.setHostName(m_location.host);
    if (m_location.port > 0)
        database.setPort(m_location.port);
    database.setUserName(m_location.user);
    database.setPassword(m_location.password);
    database.setDatabaseName(m_location.database);
    QStringList connectOptions = m_location.connectOptions;
    const auto addDefault = [&connectOptions](const QString& key, const QString& value) {
        const bool given = std::any_of(connectOptions.cbegin(), connectOptions.cend(),
            [&key](const QString& option) { return option.startsWith(key % u'='); });
        if (!given)
            connectOptions << key % u'=' % value;
    };
    addDefault(u"application_name"_s, u"StructScope"_s);
    addDefault(u"connect_timeout"_s, u"10"_s);
    database.setConnectOptions(connectOptions.join(u';'));
    if (!database.open())
        return StoreError { StoreErrorKind::Connection,
            u"cannot connect to %1: %2"_s.arg(name, sql::errorDetail(database.lastError())) };

    QSqlQuery query(database);
    if (auto r = sql::exec(query, u"SET client_min_messages = warning"_s, {}, u"cannot configure the session"_s); !r)
        return r.error();
    if (!m_location.schema.isEmpty()) {
        if (auto r = sql::exec(query, u"SELECT count(*) FROM information_schema.schemata WHERE schema_name = ?"_s,
                { m_location.schema }, u"cannot look up schema %1"_s.arg(m_location.schema));
            !r)
            return r.error();
        const bool exists = query.next() && query.value(0).toLongLong() > 0;
        query.finish();
        if (!exists) {
            if (m_readOnly || !options.createIfMissing)
                return StoreError { StoreErrorKind::NotFound,
                    u"schema \"%1\" does not exist in %2"_s.arg(m_location.schema, name) };
            // The schema name was checked to be a plain lower-case identifier, so quoting it is enough.
            if (auto r = sql::exec(query, u"CREATE SCHEMA IF NOT EXISTS \"%1\""_s.arg(m_location.schema), {},
                    u"cannot create schema %1"_s.arg(m_location.schema));
                !r)
                return r.error();
        }
        if (auto r = sql::exec(query, u"SET search_path TO \"%1\""_s.arg(m_location.schema), {},
                u"cannot select schema %1"_s.arg(m_location.schema));
            !r)
            return r.error();
    }

    auto probed = probeSchemaVersion(database, m_dialect, name);
    if (!probed)
        return probed.error();
    const int version = probed.value();
    if (version == 0 && (m_readOnly || !options.createIfMissing))
        return StoreError { StoreErrorKind::NotFound, u"%1 holds no StructScope store"_s.arg(name) };
    if (m_readOnly && version < oldestReadableSchemaVersion())
        return StoreError { StoreErrorKind::ReadOnly,
            u"%1 has schema v%2 and needs an upgrade to v%3, which a read-only store cannot do"_s.arg(
                name, QString::number(version), QString::number(latestSchemaVersion())) };
    if (m_readOnly) {
        if (auto r = sql::exec(query, u"SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY"_s, {},
                u"cannot make the session read-only"_s);
            !r)
            return r.error();
    }
    m_versionAtOpen = version;
    return finishOpen();
}

StoreResult<void> ResultStore::finishOpen()
{
    if (m_readOnly)
        return {};
    auto migrated = migrateStore(db(), m_dialect);
    if (!migrated) {
        StoreError error = migrated.error();
        error.message = displayName() % u": "_s % error.message;
        return error;
    }
    m_versionAtOpen = migrated.value();
    return {};
}

QSqlDatabase ResultStore::db() const
{
    return QSqlDatabase::database(m_connectionName, false);
}

StoreResult<void> ResultStore::checkWritable() const
{
    if (m_readOnly)
        return StoreError { StoreErrorKind::ReadOnly,
            u"%1 is open read-only (%2); nothing was written"_s.arg(displayName(), m_readOnlyReason) };
    return {};
}

StoreError ResultStore::missing(const QString& what, qint64 row) const
{
    return { StoreErrorKind::NotFound, u"%1 has no %2 with id %3"_s.arg(displayName(), what, QString::number(row)) };
}

StoreResult<void> ResultStore::checkIntegrity()
{
    if (m_dialect.isSqlite())
        return sqliteQuickCheck(db(), displayName());
    QSqlQuery query(db());
    return sql::exec(query, u"SELECT 1"_s, {}, u"%1 does not answer"_s.arg(displayName()));
}

StoreResult<QString> ResultStore::contentStamp()
{
    const QString what = u"cannot read what the store holds"_s;
    QSqlQuery query(db());
    if (auto r = sql::exec(query,
            u"SELECT (SELECT value FROM meta WHERE key = 'created_at'), (SELECT max(id) FROM suites),"
            " (SELECT max(id) FROM runs), (SELECT max(id) FROM responses), (SELECT max(id) FROM gold_revisions)"_s,
            {}, what);
        !r)
        return r.error();
    if (!query.next())
        return sql::databaseError(what, query.lastError());
    QStringList parts;
    for (int i = 0; i < 5; ++i)
        parts.append(query.value(i).isNull() ? u"-"_s : query.value(i).toString());
    return parts.join(u'/'); // the gold revision last: see stampsDifferOnlyInGold()
}

bool ResultStore::stampsDifferOnlyInGold(const QString& before, const QString& after)
{
    const qsizetype a = before.lastIndexOf(u'/');
    const qsizetype b = after.lastIndexOf(u'/');
    return a > 0 && a == b && QStringView(before).left(a) == QStringView(after).left(b);
}

} // namespace structscope
