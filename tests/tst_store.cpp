// SPDX-License-Identifier: Apache-2.0
// Tests of the result store (core/store). Every test that takes a "backend" column runs against SQLite
// always and against PostgreSQL when STRUCTSCOPE_TEST_PG holds a postgresql:// URL; each PostgreSQL test
// works in a schema of its own, dropped afterwards.
#include "store/migrations.h"
#include "store/responsewriter.h"
#include "store/resultstore.h"
#include "store/secretkeys.h"
#include "store/sqlitenative.h"
#include "store/sqlsupport.h"
#include "store/storelocation.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <memory>

using namespace Qt::StringLiterals;
using namespace structscope;
using nlohmann::json;

Q_DECLARE_METATYPE(structscope::StoreErrorKind)

namespace {

const QString kSqlite = u"sqlite"_s;
const QString kPostgres = u"postgres"_s;
const char* const kPgEnv = "STRUCTSCOPE_TEST_PG";

QString testData(const QString& name)
{
    return QStringLiteral(STRUCTSCOPE_TEST_DATA) % u"/store/"_s % name;
}

QByteArray sha256(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return hash.result().toHex();
}

/// What a file looks like from outside: its bytes and its modification time.
struct FileFingerprint
{
    QByteArray hash;
    QDateTime modified;
    qint64 size = -1;
    static FileFingerprint of(const QString& path)
    {
        const QFileInfo info(path);
        return { sha256(path), info.lastModified(), info.exists() ? info.size() : -1 };
    }
    friend bool operator==(const FileFingerprint&, const FileFingerprint&) = default;
};

json j(const char* text)
{
    return json::parse(text);
}

QString dumpJson(const json& value)
{
    return QString::fromStdString(value.dump());
}

// QCOMPARE cannot take nlohmann::json directly (its conversions make the overloads ambiguous).
#define QCOMPARE_JSON(actual, expected) QCOMPARE(dumpJson(actual), dumpJson(expected))

/// A plain Qt SQL connection to a store location, to set up and inspect stores behind the API's back.
class RawDb
{
public:
    explicit RawDb(const QString& location)
        : m_name(u"tst-raw-%1"_s.arg(++s_counter))
    {
        const auto loc = StoreLocation::parse(location).value();
        QSqlDatabase db
            = QSqlDatabase::addDatabase(loc.backend == StoreBackend::Sqlite ? u"QSQLITE"_s : u"QPSQL"_s, m_name);
        if (loc.backend == StoreBackend::Sqlite) {
            db.setDatabaseName(loc.filePath);
        } else {
            db.setHostName(loc.host);
            db.setPort(loc.port);
            db.setUserName(loc.user);
            db.setPassword(loc.password);
            db.setDatabaseName(loc.database);
        }
        m_ok = db.open();
        if (m_ok && loc.backend == StoreBackend::Postgres)
            exec(u"SET client_min_messages = warning"_s);
        if (m_ok && !loc.schema.isEmpty()) {
            exec(u"CREATE SCHEMA IF NOT EXISTS %1"_s.arg(loc.schema));
            exec(u"SET search_path TO %1"_s.arg(loc.schema));
        }
    }
    ~RawDb()
    {
        {
            QSqlDatabase db = QSqlDatabase::database(m_name, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_name);
    }
    bool isOpen() const { return m_ok; }
    QString name() const { return m_name; }
    bool exec(const QString& sql)
    {
        QSqlQuery query(QSqlDatabase::database(m_name, false));
        if (!query.exec(sql)) {
            qWarning().noquote() << "RawDb:" << sql << query.lastError().text();
            return false;
        }
        return true;
    }
    /// First column of every row, as text.
    QStringList column(const QString& sql)
    {
        QSqlQuery query(QSqlDatabase::database(m_name, false));
        QStringList out;
        if (!query.exec(sql)) {
            qWarning().noquote() << "RawDb:" << sql << query.lastError().text();
            return { u"<error>"_s };
        }
        while (query.next())
            out << query.value(0).toString();
        return out;
    }

private:
    static inline int s_counter = 0;
    QString m_name;
    bool m_ok = false;
};

/// Two cases plus one with a question; enough for every record kind.
SuiteImport sampleSuite(const QString& hash = u"hash-1"_s)
{
    SuiteImport s;
    s.id = u"email-extraction"_s;
    s.name = u"Email extraction"_s;
    s.version = u"1.0.0"_s;
    s.contentHash = hash;
    s.manifest
        = j(R"({"id": "email-extraction", "default_schema": "ticket", "options": {"array_matching": "ordered"}})");
    s.author = u"importer"_s;
    CaseImport a;
    a.id = u"st-001"_s;
    a.category = u"support_ticket"_s;
    a.tier = u"easy"_s;
    a.schemaName = u"ticket"_s;
    a.input = u"Dear IT, my laptop ☕ broke."_s;
    a.gold = j(R"({"priority": "high", "device": "laptop"})");
    CaseImport b;
    b.id = u"st-002"_s;
    b.category = u"support_ticket"_s;
    b.input = u"Printer jam on floor 3"_s;
    b.extra = j(R"({"source_kind": "synthetic"})");
    b.gold = j(R"({"priority": "low", "device": null})");
    CaseImport c;
    c.id = u"qa-001"_s;
    c.category = u"qa"_s;
    c.tier = u"hard"_s;
    c.input = u"Kant was born in 1724."_s;
    c.question = u"When was Kant born?"_s;
    c.gold = j(R"({"year": 1724})");
    s.cases = { a, b, c };
    return s;
}

ResponseRow response(qint64 runId, qint64 caseRow, int repeat, const QString& text = u"{}"_s)
{
    ResponseRow r;
    r.runId = runId;
    r.caseRow = caseRow;
    r.repeat = repeat;
    r.requestHash = u"rh-%1-%2"_s.arg(caseRow).arg(repeat);
    r.rawText = text;
    r.httpStatus = 200;
    return r;
}

/// A store with the sample suite and one run, for tests about runs and responses.
struct Fixture
{
    std::unique_ptr<ResultStore> store;
    SuiteRow suite;
    QList<CaseRow> cases;
    RunRow run;
};

} // namespace

class TestStore : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_pgBase;
    QStringList m_pgSchemas;
    int m_counter = 0;

    /// A new, empty location for this backend; empty when the backend is not available.
    QString newLocation(const QString& backend)
    {
        ++m_counter;
        if (backend == kSqlite)
            return m_tmp.filePath(u"store-%1.db"_s.arg(m_counter));
        if (m_pgBase.isEmpty())
            return {};
        const QString schema = u"tst_store_%1_%2"_s.arg(QCoreApplication::applicationPid()).arg(m_counter);
        m_pgSchemas << schema;
        return m_pgBase % (m_pgBase.contains(u'?') ? u'&' : u'?') % u"schema="_s % schema;
    }

    void addBackendRows()
    {
        QTest::addColumn<QString>("backend");
        QTest::newRow("sqlite") << kSqlite;
        QTest::newRow("postgres") << kPostgres;
    }

    Fixture makeFixture(const QString& location)
    {
        Fixture f;
        StoreError error;
        f.store = ResultStore::open(location, {}, &error);
        if (!f.store) {
            qWarning().noquote() << error.message;
            return f;
        }
        f.suite = f.store->importSuite(sampleSuite()).value().suite;
        f.cases = f.store->cases(f.suite.row).value();
        RunRow run;
        run.suiteRow = f.suite.row;
        run.modelSpec = u"sim:careful"_s;
        run.providerKind = u"simulated"_s;
        run.strategy = u"PJ"_s;
        run.repeats = 3;
        run.settings = j(R"({"temperature": 0, "max_tokens": 512})");
        f.run = f.store->createRun(run).value();
        return f;
    }

#define STORE_LOCATION(var, backend)                                                                                   \
    const QString var = newLocation(backend);                                                                          \
    if (var.isEmpty())                                                                                                 \
        QSKIP("PostgreSQL tests skipped: set STRUCTSCOPE_TEST_PG=postgresql://user:pass@host:port/db to run them");

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    // ---- locations ------------------------------------------------------------------------------

    void parseLocation_data();
    void parseLocation();
    void parsePostgresFields();
    void locationWithoutPassword_data();
    void locationWithoutPassword();
    void unreachablePostgresGivesClearError();
    // ---- secrets --------------------------------------------------------------------------------

    void secretKeyNames_data();
    void secretKeyNames();
    void secretsInSettings_data();
    void secretsInSettings();
    // ---- schema and migrations ------------------------------------------------------------------

    void newStoreIsMigratedAndReopenIsIdempotent_data();
    void newStoreIsMigratedAndReopenIsIdempotent();
    void emptyDatabasesBecomeStores_data();
    void emptyDatabasesBecomeStores();
    void migrationsAreNumberedInOrder();
    void readsSchemaV1Fixture();
    void olderStoreReadsWithoutItsIndexSteps();
    void responsesAreReadThroughTheirIndexes();
    // ---- files that are not (usable) stores ---------------------------------------------------------

    void wrongFilesAreRefusedAndUntouched_data();
    void wrongFilesAreRefusedAndUntouched();
    // ---- read-only --------------------------------------------------------------------------------

    void readOnlyStoreRefusesWrites_data();
    void readOnlyStoreRefusesWrites();
    void connectionsAreCountedAndOpeningCanBeBlocked();
    void unwritableStoreOpensReadOnly_data();
    void unwritableStoreOpensReadOnly();
    void missingFolderGivesClearError();
    void createIfMissingFalse_data();
    void createIfMissingFalse();
    // ---- PostgreSQL databases that are not (usable) stores --------------------------------------

    void wrongPostgresSchemasAreRefusedAndUntouched_data();
    void wrongPostgresSchemasAreRefusedAndUntouched();
    // ---- round trips ------------------------------------------------------------------------------

    void suitesAndGoldRoundTrip_data();
    void suitesAndGoldRoundTrip();
    void badSuiteImports_data();
    void badSuiteImports();
    void runsAndResponsesRoundTrip_data();
    void runsAndResponsesRoundTrip();
    void askedSchemasRoundTrip_data();
    void askedSchemasRoundTrip();
    void rowInsertStoresWhatQtWould_data();
    void rowInsertStoresWhatQtWould();
    void scoringReadKeepsTheStoredBytes_data();
    void scoringReadKeepsTheStoredBytes();
    void someCasesResponsesComeInStoredOrder_data();
    void someCasesResponsesComeInStoredOrder();
    void tamperedJsonIsAnErrorNamingTheRow_data();
    void tamperedJsonIsAnErrorNamingTheRow();
    void badRuns_data();
    void badRuns();
    // ---- batches ------------------------------------------------------------------------------------

    void badBatchStoresNothing_data();
    void badBatchStoresNothing();
    void answeredKeys_data();
    void answeredKeys();
    void responseWriterBatches_data();
    void responseWriterBatches();
    void responseWriterInItsOwnThread_data();
    void responseWriterInItsOwnThread();
    void responseWriterWithoutASecondConnectionCommitsInline();
    void manyResponsesInBatches_data();
    void manyResponsesInBatches();
    // ---- gold revisions -------------------------------------------------------------------------------

    void goldRevisionConflict_data();
    void goldRevisionConflict();
    void badGoldEdits_data();
    void badGoldEdits();
    void concurrentGoldEditorsNeverOverwrite_data();
    void concurrentGoldEditorsNeverOverwrite();
    // ---- audit log and verdict cache ---------------------------------------------------------------

    void auditLog_data();
    void auditLog();
    void storedVerdicts_data();
    void storedVerdicts();
    void connectionsAreReleased_data();
    void connectionsAreReleased();
    // ---- crash safety -------------------------------------------------------------------------------

    void killedWriterLosesOnlyTheOpenBatch();
    /// SIGKILL during gold edits, ten times at random points: every edit reported committed is there, each
    /// revision is whole (its gold, its number one past the one before, its audit entry), and none twice.
    void killedGoldEditsLoseNothingCommitted();
    /// A full disk (here: a file size limit, which SQLite meets as EFBIG, "disk I/O error"): the writer gets
    /// a message that says so, the failed batch is rolled back, every committed batch stays, and the store
    /// takes writes again once there is space.
    void fullDiskKeepsWhatWasCommitted();
};

void TestStore::initTestCase()
{
    QVERIFY(m_tmp.isValid());
    m_pgBase = qEnvironmentVariable(kPgEnv);
    if (m_pgBase.isEmpty())
        qInfo("STRUCTSCOPE_TEST_PG is not set: the PostgreSQL rows of these tests are skipped");
}

void TestStore::cleanup()
{
    if (m_pgSchemas.isEmpty())
        return;
    RawDb raw(m_pgBase);
    for (const QString& schema : std::as_const(m_pgSchemas))
        raw.exec(u"DROP SCHEMA IF EXISTS %1 CASCADE"_s.arg(schema));
    m_pgSchemas.clear();
}

void TestStore::parseLocation_data()
{
    QTest::addColumn<QString>("location");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("expected"); // display name, or a piece of the error message

    const QString abs = QDir::current().absoluteFilePath(u"results.db"_s);
    QTest::newRow("relative path") << u"results.db"_s << true << abs;
    QTest::newRow("absolute path") << u"/tmp/x/results.db"_s << true << u"/tmp/x/results.db"_s;
    QTest::newRow("file url") << u"file:///tmp/a%20b.db"_s << true << u"/tmp/a b.db"_s;
    QTest::newRow("postgresql url") << u"postgresql://ann:s%40cret@db.example:5433/bench?sslmode=require"_s << true
                                    << u"postgresql://ann@db.example:5433/bench?sslmode=require"_s;
    QTest::newRow("postgres alias with schema") << u"postgres://ann@localhost/bench?schema=team_a"_s << true
                                                << u"postgresql://ann@localhost/bench?schema=team_a"_s;
    QTest::newRow("empty") << u""_s << false << u"no store location"_s;
    QTest::newRow("blank") << u"   "_s << false << u"no store location"_s;
    QTest::newRow("unknown scheme") << u"mysql://u:p@h/db"_s << false << u"unsupported store location \"mysql"_s;
    QTest::newRow("http") << u"http://example.org/x.db"_s << false << u"unsupported"_s;
    QTest::newRow("no database") << u"postgresql://u:p@h:5432"_s << false << u"names no database"_s;
    QTest::newRow("nested path") << u"postgresql://u@h/db/extra"_s << false << u"single database name"_s;
    QTest::newRow("bad port") << u"postgresql://u:pw@h:99999x/db"_s << false << u"malformed"_s;
    QTest::newRow("unknown option") << u"postgresql://u@h/db?sslmod=require"_s << false
                                    << u"unknown option \"sslmod\""_s;
    QTest::newRow("option twice") << u"postgresql://u@h/db?sslmode=a&sslmode=b"_s << false << u"appears twice"_s;
    QTest::newRow("option with space") << u"postgresql://u@h/db?application_name=a%20b"_s << false << u"spaces"_s;
    QTest::newRow("option smuggling") << u"postgresql://u@h/db?application_name=x%27%20password%3D1"_s << false
                                      << u"quotes"_s;
    QTest::newRow("password in query") << u"postgresql://u@h/db?password=x"_s << false << u"into the URL itself"_s;
    QTest::newRow("schema with capitals")
        << u"postgresql://u@h/db?schema=Team"_s << false << u"not a plain lower-case name"_s;
    QTest::newRow("schema injection") << u"postgresql://u@h/db?schema=a%22;drop"_s << false
                                      << u"not a plain lower-case name"_s;
    QTest::newRow("fragment") << u"postgresql://u@h/db#x"_s << false << u"fragment"_s;
}

void TestStore::parseLocation()
{
    QFETCH(QString, location);
    QFETCH(bool, valid);
    QFETCH(QString, expected);
    const auto parsed = StoreLocation::parse(location);
    QCOMPARE(parsed.ok(), valid);
    if (valid) {
        QCOMPARE(parsed->displayName(), expected);
    } else {
        QCOMPARE(parsed.errorKind(), StoreErrorKind::InvalidLocation);
        QVERIFY2(parsed.errorMessage().contains(expected), qPrintable(parsed.errorMessage()));
        QVERIFY2(!parsed.errorMessage().contains(u"pw"_s), "an error message must not echo the password");
    }
}

void TestStore::parsePostgresFields()
{
    const auto loc = StoreLocation::parse(u"postgresql://ann:p%40ss%3Aw@10.0.0.7:6543/bench?connect_timeout=3"_s);
    QVERIFY(loc.ok());
    QCOMPARE(loc->backend, StoreBackend::Postgres);
    QCOMPARE(loc->user, u"ann"_s);
    QCOMPARE(loc->password, u"p@ss:w"_s);
    QCOMPARE(loc->host, u"10.0.0.7"_s);
    QCOMPARE(loc->port, 6543);
    QCOMPARE(loc->database, u"bench"_s);
    QCOMPARE(loc->connectOptions, QStringList { u"connect_timeout=3"_s });
    QVERIFY(!loc->displayName().contains(u"p@ss"_s));
}

void TestStore::locationWithoutPassword_data()
{
    QTest::addColumn<QString>("location");
    QTest::addColumn<QString>("expected");
    QTest::newRow("password dropped") << u"postgresql://ann:p%40ss%3Aw@10.0.0.7:6543/bench?schema=evals"_s
                                      << u"postgresql://ann@10.0.0.7:6543/bench?schema=evals"_s;
    QTest::newRow("postgres scheme") << u"postgres://ann:secret@db/x"_s << u"postgres://ann@db/x"_s;
    QTest::newRow("no password kept as given")
        << u"postgresql://ann@db.example.org/x"_s << u"postgresql://ann@db.example.org/x"_s;
    QTest::newRow("malformed URL still loses it")
        << u"postgresql://ann:se/cret@db:port/x"_s << u"postgresql://ann@db:port/x"_s;
    QTest::newRow("file path untouched") << u"/tmp/a:b@c.db"_s << u"/tmp/a:b@c.db"_s;
}

void TestStore::locationWithoutPassword()
{
    QFETCH(QString, location);
    QFETCH(QString, expected);
    QCOMPARE(StoreLocation::withoutPassword(location), expected);
}

void TestStore::unreachablePostgresGivesClearError()
{
    StoreError error;
    const auto store
        = ResultStore::open(u"postgresql://ann:topsecret@127.0.0.1:1/bench?connect_timeout=2"_s, {}, &error);
    QVERIFY(!store);
    QCOMPARE(error.kind, StoreErrorKind::Connection);
    QVERIFY2(
        error.message.startsWith(u"cannot connect to postgresql://ann@127.0.0.1:1/bench"_s), qPrintable(error.message));
    QVERIFY(!error.message.contains(u"topsecret"_s));
}

void TestStore::secretKeyNames_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("secret");
    for (const char* key :
        { "api_key", "apiKey", "X-Api-Key", "OPENAI_API_KEY", "apikey", "Authorization", "authorization",
            "access_token", "token", "refreshToken", "oauth_token", "secret", "client_secret", "password", "db_passwd",
            "passphrase", "Cookie", "credentials", "bearer", "private_key", "aws_access_key_id", "proxy-auth" })
        QTest::newRow(key) << QString::fromLatin1(key) << true;
    for (const char* key : { "max_tokens", "tokens_in", "token_limit", "temperature", "model", "keyword", "monkey",
             "author", "authority", "key", "base_url", "tokenizer", "secretary_name", "headers", "seed", "top_p", "" })
        QTest::newRow(*key ? key : "(empty)") << QString::fromLatin1(key) << false;
}

void TestStore::secretKeyNames()
{
    QFETCH(QString, key);
    QFETCH(bool, secret);
    QCOMPARE(isSecretKeyName(key), secret);
}

void TestStore::secretsInSettings_data()
{
    QTest::addColumn<QString>("backend");
    QTest::addColumn<QString>("settings");
    QTest::addColumn<QStringList>("pointers");
    QTest::addColumn<QString>("stripped");
    const QList<std::tuple<const char*, const char*, QStringList, const char*>> rows {
        { "top-level api_key", R"({"api_key": "abc", "temperature": 0.2})", { u"/api_key"_s },
            R"({"temperature":0.2})" },
        { "nested header", R"({"headers": {"Authorization": "x", "Accept": "json"}, "max_tokens": 9})",
            { u"/headers/Authorization"_s }, R"({"headers":{"Accept":"json"},"max_tokens":9})" },
        { "header list with bearer value", R"({"headers": [{"name": "Authorization", "value": "Bearer abc"}]})",
            { u"/headers/0/value"_s }, R"({"headers":[{"name":"Authorization"}]})" },
        { "api key value under innocent key", R"({"extra": ["sk-abcdefghijklmnopqrstuvwxyz0123"]})", { u"/extra/0"_s },
            R"({"extra":[]})" },
        { "two secrets", R"({"password": 1, "opts": {"access_token": null}})",
            { u"/opts/access_token"_s, u"/password"_s }, R"({"opts":{}})" },
        { "key with slash", R"({"a/secret": 1})", { u"/a~1secret"_s }, R"({})" },
    };
    for (const QString& backend : { kSqlite, kPostgres }) {
        for (const auto& [name, settings, pointers, stripped] : rows)
            QTest::addRow("%s: %s", qPrintable(backend), name)
                << backend << QString::fromUtf8(settings) << pointers << QString::fromUtf8(stripped);
    }
}

void TestStore::secretsInSettings()
{
    QFETCH(QString, backend);
    QFETCH(QString, settings);
    QFETCH(QStringList, pointers);
    QFETCH(QString, stripped);
    STORE_LOCATION(location, backend);

    const json value = json::parse(settings.toStdString());
    QStringList found = findSecretKeys(value);
    found.sort();
    QCOMPARE(found, pointers);
    QCOMPARE(QString::fromStdString(withoutSecrets(value).dump()), stripped);

    auto f = makeFixture(location);
    QVERIFY(f.store);
    RunRow run = f.run;
    run.settings = value;
    const auto refused = f.store->createRun(run);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.errorKind(), StoreErrorKind::InvalidArgument);
    for (const QString& pointer : pointers)
        QVERIFY2(refused.errorMessage().contains(pointer), qPrintable(refused.errorMessage()));
    QCOMPARE(f.store->runs()->size(), 1); // only the fixture's run

    run.settings = withoutSecrets(value);
    const auto accepted = f.store->createRun(run);
    QVERIFY2(accepted.ok(), qPrintable(accepted.errorMessage()));
    QCOMPARE(QString::fromStdString(f.store->run(accepted->id)->settings.dump()), stripped);
}

void TestStore::newStoreIsMigratedAndReopenIsIdempotent_data()
{
    addBackendRows();
}

void TestStore::newStoreIsMigratedAndReopenIsIdempotent()
{
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    const QString metaSql = u"SELECT key || '=' || value FROM meta ORDER BY key"_s;
    QStringList metaAfterCreate;
    QStringList tablesAfterCreate;
    {
        StoreError error;
        auto store = ResultStore::open(location, {}, &error);
        QVERIFY2(store, qPrintable(error.message));
        QCOMPARE(store->schemaVersionAtOpen(), 0);
        QCOMPARE(store->isReadOnly(), false);
        RawDb raw(location);
        metaAfterCreate = raw.column(metaSql);
        tablesAfterCreate = raw.column(backend == kSqlite
                ? u"SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"_s
                : u"SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
                  "ORDER BY table_name"_s);
    }
    QCOMPARE(tablesAfterCreate,
        (QStringList { u"asked_schemas"_s, u"audit_log"_s, u"cases"_s, u"gold_revisions"_s, u"meta"_s, u"responses"_s,
            u"runs"_s, u"scored_verdicts"_s, u"suites"_s }));
    QVERIFY(metaAfterCreate.contains(u"application=structscope"_s));
    QVERIFY(metaAfterCreate.contains(u"schema_version=%1"_s.arg(latestSchemaVersion())));
    QVERIFY(metaAfterCreate.filter(QRegularExpression(u"^created_by=StructScope "_s)).size() == 1);

    const FileFingerprint before = backend == kSqlite ? FileFingerprint::of(location) : FileFingerprint {};
    for (int i = 0; i < 2; ++i) {
        auto store = ResultStore::open(location);
        QVERIFY(store);
        QCOMPARE(store->schemaVersionAtOpen(), latestSchemaVersion());
        RawDb raw(location);
        QCOMPARE(raw.column(metaSql), metaAfterCreate);
    }
    if (backend == kSqlite) {
        QCOMPARE(FileFingerprint::of(location).hash, before.hash);
        RawDb raw(location);
        QCOMPARE(raw.column(u"PRAGMA application_id"_s), QStringList { QString::number(kSqliteApplicationId) });
        QCOMPARE(raw.column(u"PRAGMA journal_mode"_s), QStringList { u"wal"_s });
    }
}

void TestStore::emptyDatabasesBecomeStores_data()
{
    QTest::addColumn<QString>("make");
    QTest::newRow("empty file") << u"empty"_s;
    QTest::newRow("SQLite database without tables") << u"no-tables"_s;
}

void TestStore::emptyDatabasesBecomeStores()
{
    QFETCH(QString, make);
    const QString path = newLocation(kSqlite);
    if (make == u"empty") {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
    } else {
        // A SQLite file that once held a table and holds nothing now.
        RawDb raw(path);
        QVERIFY(raw.exec(u"CREATE TABLE scratch (x INTEGER)"_s));
        QVERIFY(raw.exec(u"DROP TABLE scratch"_s));
    }
    StoreError error;
    auto store = ResultStore::open(path, {}, &error);
    QVERIFY2(store, qPrintable(error.message));
    QCOMPARE(store->schemaVersionAtOpen(), 0);
    QVERIFY(store->importSuite(sampleSuite()).ok());
    store.reset();
    store = ResultStore::open(path);
    QCOMPARE(store->schemaVersionAtOpen(), latestSchemaVersion());
    QCOMPARE(store->suites()->size(), 1);
}

void TestStore::migrationsAreNumberedInOrder()
{
    const auto& steps = storeMigrations();
    QVERIFY(!steps.isEmpty());
    for (qsizetype i = 0; i < steps.size(); ++i) {
        QCOMPARE(steps.at(i).version, int(i + 1));
        QVERIFY(!steps.at(i).statements.isEmpty());
    }
    QCOMPARE(latestSchemaVersion(), int(steps.size()));
}

void TestStore::readsSchemaV1Fixture()
{
    // tests/data/store/schema-v1.db was written by the first schema; later builds must keep reading it.
    const QString copy = m_tmp.filePath(u"fixture-v1.db"_s);
    QFile::remove(copy);
    QVERIFY(QFile::copy(testData(u"schema-v1.db"_s), copy));
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
    StoreError error;
    auto store = ResultStore::open(copy, {}, &error);
    QVERIFY2(store, qPrintable(error.message));
    QCOMPARE(store->schemaVersionAtOpen(), 1);
    const auto suites = store->suites().value();
    QCOMPARE(suites.size(), 1);
    QCOMPARE(suites.at(0).id, u"email-extraction"_s);
    QCOMPARE(suites.at(0).contentHash, u"hash-1"_s);
    const auto cases = store->cases(suites.at(0).row).value();
    QCOMPARE(cases.size(), 3);
    QCOMPARE(cases.at(2).question, std::optional<QString>(u"When was Kant born?"_s));
    const auto history = store->goldRevisions(cases.at(0).row).value();
    QCOMPARE(history.size(), 2);
    QCOMPARE(history.at(1).author, u"ann"_s);
    QCOMPARE_JSON(history.at(1).gold, j(R"({"priority": "urgent", "device": "laptop"})"));
    const auto runs = store->runs().value();
    QCOMPARE(runs.size(), 1);
    QCOMPARE(runs.at(0).status, RunStatus::Finished);
    const auto responses = store->responses(runs.at(0).id).value();
    QCOMPARE(responses.size(), 3);
    QCOMPARE(responses.at(1).errorKind, u"http_error"_s);
    QCOMPARE(responses.at(0).cost, std::optional<double>(0.0004));
    QCOMPARE(responses.at(0).costSource, CostSource::PriceTable);
    QCOMPARE(store->auditLog()->size(), 2); // the import and the gold edit
}

void TestStore::olderStoreReadsWithoutItsIndexSteps()
{
    // Schema v2 only adds an index: a v1 store opened read-only is read as it is (and not modified); opened
    // for writing, it gets the index.
    QCOMPARE(oldestReadableSchemaVersion(), 1);
    QVERIFY(storeMigrations().at(1).readableWithout);
    const QString copy = m_tmp.filePath(u"fixture-v1-read-only.db"_s);
    QFile::remove(copy);
    QVERIFY(QFile::copy(testData(u"schema-v1.db"_s), copy));
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
    // v2's (run_id, id) index, which v4 replaced by responses_scoring: a v1 store opened for writing ends with
    // the latter only.
    const auto hasIndex = [&copy] {
        RawDb raw(copy);
        return raw.column(u"SELECT group_concat(name) FROM sqlite_master WHERE type = 'index' AND name IN "
                          "('responses_run_order', 'responses_scoring')"_s)
            == QStringList { u"responses_scoring"_s };
    };
    const FileFingerprint before = FileFingerprint::of(copy);
    {
        ResultStore::OpenOptions options;
        options.readOnly = true;
        StoreError error;
        auto store = ResultStore::open(copy, options, &error);
        QVERIFY2(store, qPrintable(error.message));
        QCOMPARE(store->schemaVersionAtOpen(), 1);
        const auto runs = store->runs().value();
        QCOMPARE(runs.size(), 1);
        QList<qint64> ids;
        const auto visited = store->forEachResponse(runs.at(0).id, [&ids](const ResponseRow& r) {
            ids << r.id;
            return true;
        });
        QVERIFY2(visited.ok(), qPrintable(visited.errorMessage()));
        QCOMPARE(ids.size(), 3);
        QVERIFY(std::is_sorted(ids.cbegin(), ids.cend()));
        // Nor has it the kept verdicts of v3 or the asked schemas of v5: none are read, and asking is no error.
        QVERIFY(!store->keepsVerdicts());
        QVERIFY(!store->hasAskedSchemas());
        const auto asked = store->askedSchemas();
        QVERIFY2(asked.ok(), qPrintable(asked.errorMessage()));
        QVERIFY(asked->empty());
        const auto scored = store->forEachResponseForScoring(
            runs.at(0).id, [](const ResponseRow& r) { return r.askedSchemaId == 0; },
            [](qint64, qint64) { return true; });
        QVERIFY2(scored.ok(), qPrintable(scored.errorMessage()));
        QCOMPARE(scored.value(), 3);
        const auto kept
            = store->forEachStoredVerdict(runs.at(0).id, 1, [](qint64, qint64, std::string_view) { return true; });
        QVERIFY2(kept.ok(), qPrintable(kept.errorMessage()));
        QCOMPARE(kept.value(), 0);
    }
    QCOMPARE(FileFingerprint::of(copy), before);
    QVERIFY(!hasIndex());
    {
        auto store = ResultStore::open(copy);
        QVERIFY(store);
        QCOMPARE(store->schemaVersionAtOpen(), 1);
    }
    QVERIFY(hasIndex());
    // v1's unused `verdicts` table is gone once the store is brought up to date (v6), its indexes with it.
    {
        RawDb raw(copy);
        QCOMPARE(
            raw.column(u"SELECT count(*) FROM sqlite_master WHERE name LIKE 'verdicts%'"_s), QStringList { u"0"_s });
        QCOMPARE(
            raw.column(u"SELECT count(*) FROM sqlite_master WHERE name = 'scored_verdicts'"_s), QStringList { u"1"_s });
    }
    auto store = ResultStore::open(copy);
    QVERIFY(store);
    QCOMPARE(store->schemaVersionAtOpen(), latestSchemaVersion());
    QCOMPARE(store->responses(store->runs()->constFirst().id)->size(), 3);
}

void TestStore::responsesAreReadThroughTheirIndexes()
{
    // The reads scoring makes, as SQLite plans them on a store's schema: a run's responses in stored order
    // straight from the (run_id, id, …) index — without it SQLite sorted each whole run, raw answers included, in a
    // temporary B-tree (a quarter of reading a million responses) — and the responses of some cases, one lookup
    // per case instead of a walk over the run or the table (so those queries ask for no order: the store sorts
    // its few rows itself).
    const QString path = newLocation(kSqlite);
    {
        auto f = makeFixture(path);
        QVERIFY(f.store);
    }
    RawDb raw(path);
    const auto plan = [&raw](const QString& sql) {
        QSqlQuery query(QSqlDatabase::database(raw.name(), false));
        QStringList details;
        if (!query.exec(u"EXPLAIN QUERY PLAN "_s + sql))
            return QStringList { query.lastError().text() };
        while (query.next())
            details << query.value(3).toString();
        return details;
    };
    const QStringList run = plan(u"SELECT id, raw_text FROM responses WHERE run_id = 1 ORDER BY id"_s);
    QVERIFY2(run.join(u'|').contains(u"USING INDEX responses_scoring (run_id=?)"_s), qPrintable(run.join(u'|')));
    QVERIFY2(!run.join(u'|').contains(u"TEMP B-TREE"_s), qPrintable(run.join(u'|')));
    // Without the answers (a pass over kept verdicts, sql::visitScoringResponses's textsApart): from the index
    // alone, never from the table's pages.
    const QStringList facts = plan(u"SELECT id, run_id, case_id, repeat_index, NULL, http_status, error_kind, "
                                   "latency_ms, cost, cost_source, attempts FROM responses WHERE run_id = 1 "
                                   "ORDER BY id"_s);
    QVERIFY2(facts.join(u'|').contains(u"USING COVERING INDEX responses_scoring (run_id=?)"_s),
        qPrintable(facts.join(u'|')));
    QVERIFY2(!facts.join(u'|').contains(u"TEMP B-TREE"_s), qPrintable(facts.join(u'|')));
    const QStringList someCases = plan(u"SELECT id, raw_text FROM responses WHERE run_id = 1 AND case_id IN (1, 2)"_s);
    QVERIFY2(someCases.join(u'|').contains(u"sqlite_autoindex_responses_1 (run_id=? AND case_id=?)"_s),
        qPrintable(someCases.join(u'|')));
    // Some cases' responses of every run (after a gold edit): the case index, not a scan of the table.
    const QStringList ofCases = plan(u"SELECT id, raw_text FROM responses WHERE case_id IN (1, 2)"_s);
    QVERIFY2(ofCases.join(u'|').contains(u"USING INDEX responses_case (case_id=?)"_s), qPrintable(ofCases.join(u'|')));
}

void TestStore::wrongFilesAreRefusedAndUntouched_data()
{
    QTest::addColumn<QString>("make");
    QTest::addColumn<bool>("readOnly");
    QTest::addColumn<StoreErrorKind>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("text file named x.db")
        << u"text"_s << false << StoreErrorKind::NotAStore << u"is not a StructScope store (not a SQLite database)"_s;
    QTest::newRow("random bytes") << u"random"_s << false << StoreErrorKind::NotAStore << u"not a SQLite database"_s;
    QTest::newRow("short file") << u"short"_s << false << StoreErrorKind::NotAStore << u"not a SQLite database"_s;
    QTest::newRow("SQLite header then garbage")
        << u"header-garbage"_s << false << StoreErrorKind::Corrupt << u"has a damaged SQLite header"_s;
    QTest::newRow("truncated store") << u"truncated"_s << false << StoreErrorKind::Corrupt
                                     << u"is truncated: its header describes 25600 bytes, the file has 12800"_s;
    QTest::newRow("store cut inside its header")
        << u"cut-header"_s << false << StoreErrorKind::Corrupt << u"ends inside the SQLite header"_s;
    QTest::newRow("store with a damaged page") << u"damaged"_s << false << StoreErrorKind::Corrupt << u""_s;
    QTest::newRow("another application's database")
        << u"other-app"_s << false << StoreErrorKind::NotAStore << u"it holds other tables: foo"_s;
    QTest::newRow("another application's meta table")
        << u"other-meta"_s << false << StoreErrorKind::NotAStore << u"its meta table is not StructScope's"_s;
    QTest::newRow("another application id")
        << u"other-app-id"_s << false << StoreErrorKind::NotAStore << u"belongs to another application"_s;
    QTest::newRow("a database holding only a view")
        << u"view-only"_s << false << StoreErrorKind::NotAStore << u"it holds no tables but other objects: view v"_s;
    QTest::newRow("an empty database with user_version 42")
        << u"user-version"_s << false << StoreErrorKind::NotAStore << u"user_version 42"_s;
    QTest::newRow("schema_version 999")
        << u"newer"_s << false << StoreErrorKind::NewerSchema
        << u"was written by a newer StructScope (schema v999, this build reads up to v%1); it was not modified"_s.arg(
               latestSchemaVersion());
    QTest::newRow("schema_version garbage")
        << u"bad-version"_s << false << StoreErrorKind::Corrupt << u"has no valid schema_version"_s;
    QTest::newRow("empty file, read-only") << u"empty"_s << true << StoreErrorKind::NotAStore << u"is an empty file"_s;
    QTest::newRow("missing file, read-only") << u"missing"_s << true << StoreErrorKind::NotFound << u"does not exist"_s;
    QTest::newRow("a folder") << u"folder"_s << false << StoreErrorKind::InvalidLocation << u"is a folder"_s;
}

void TestStore::wrongFilesAreRefusedAndUntouched()
{
    QFETCH(QString, make);
    QFETCH(bool, readOnly);
    QFETCH(StoreErrorKind, kind);
    QFETCH(QString, message);

    const QString path = m_tmp.filePath(u"x-%1.db"_s.arg(++m_counter));
    const auto writeFile = [&path](const QByteArray& bytes) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(bytes), bytes.size());
    };
    const auto copyFixture = [&path](const QString& name) {
        QVERIFY(QFile::copy(testData(name), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    };
    QRandomGenerator rng(4242);
    QByteArray random(8192, '\0');
    for (char& c : random)
        c = char(rng.bounded(256));

    if (make == u"text") {
        copyFixture(u"not-a-store.db"_s);
    } else if (make == u"random") {
        writeFile(random);
    } else if (make == u"short") {
        writeFile("SQLite");
    } else if (make == u"header-garbage") {
        writeFile(QByteArray("SQLite format 3\0", 16) + random);
    } else if (make == u"cut-header") {
        QFile fixture(testData(u"schema-v1.db"_s));
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        writeFile(fixture.read(50));
    } else if (make == u"truncated" || make == u"damaged") {
        copyFixture(u"schema-v1.db"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        const qint64 size = file.size();
        QVERIFY(size > 8 * 1024);
        if (make == u"truncated") {
            QVERIFY(file.resize(size / 2));
        } else {
            // Overwrite the middle of the file, past the schema page, with noise.
            QVERIFY(file.seek(size / 2));
            file.write(random.left(2048));
        }
    } else if (make == u"other-app") {
        copyFixture(u"other-app.db"_s);
    } else if (make == u"other-meta") {
        RawDb raw(path);
        QVERIFY(raw.exec(u"CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)"_s));
        QVERIFY(raw.exec(u"INSERT INTO meta VALUES ('schema_version', '3')"_s));
    } else if (make == u"other-app-id") {
        RawDb raw(path);
        QVERIFY(raw.exec(u"PRAGMA application_id = 1234"_s));
        QVERIFY(raw.exec(u"CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)"_s));
    } else if (make == u"newer" || make == u"bad-version") {
        copyFixture(u"schema-v1.db"_s);
        RawDb raw(path);
        QVERIFY(raw.exec(u"UPDATE meta SET value = '%1' WHERE key = 'schema_version'"_s.arg(
            make == u"newer" ? u"999"_s : u"v-two"_s)));
    } else if (make == u"view-only") {
        RawDb raw(path);
        QVERIFY(raw.exec(u"CREATE VIEW v AS SELECT 1 AS one"_s));
    } else if (make == u"user-version") {
        RawDb raw(path);
        QVERIFY(raw.exec(u"PRAGMA user_version = 42"_s));
    } else if (make == u"empty") {
        writeFile({});
    } else if (make == u"folder") {
        QVERIFY(QDir().mkpath(path));
    }
    const FileFingerprint before = FileFingerprint::of(path);
    QTest::qWait(20); // a write after this would show in the modification time

    for (const bool integrityCheck : { true, false }) {
        if (make == u"damaged" && !integrityCheck)
            continue; // only the integrity check reads the damaged pages
        ResultStore::OpenOptions options;
        options.readOnly = readOnly;
        options.integrityCheck = integrityCheck;
        StoreError error;
        const auto store = ResultStore::open(path, options, &error);
        QVERIFY2(!store, "a wrong file must not open");
        QCOMPARE(error.kind, kind);
        QVERIFY2(error.message.contains(message), qPrintable(error.message));
        QVERIFY2(error.message.contains(QFileInfo(path).fileName()), "the error names the file");
    }
    QCOMPARE(FileFingerprint::of(path), before);
    // A database in rollback-journal mode stays in it: no write-ahead log is switched on.
    if (make == u"view-only" || make == u"user-version" || make == u"other-meta" || make == u"other-app-id")
        QVERIFY2(!QFileInfo::exists(path + u"-wal"_s), "no write-ahead log was switched on");
    if (make == u"missing")
        QVERIFY(!QFileInfo::exists(path));
}

void TestStore::readOnlyStoreRefusesWrites_data()
{
    addBackendRows();
}

void TestStore::readOnlyStoreRefusesWrites()
{
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    qint64 caseRow = 0;
    qint64 runId = 0;
    {
        auto f = makeFixture(location);
        QVERIFY(f.store);
        caseRow = f.cases.at(0).row;
        runId = f.run.id;
        QVERIFY(f.store->appendResponses({ response(runId, caseRow, 0) }).ok());
    }
    const FileFingerprint before = backend == kSqlite ? FileFingerprint::of(location) : FileFingerprint {};
    QTest::qWait(20);

    ResultStore::OpenOptions options;
    options.readOnly = true;
    StoreError error;
    auto store = ResultStore::open(location, options, &error);
    QVERIFY2(store, qPrintable(error.message));
    QVERIFY(store->isReadOnly());
    QCOMPARE(store->responses(runId)->size(), 1);
    QCOMPARE(store->currentGold(caseRow)->revision, 0);

    const auto expectReadOnly = [](StoreErrorKind kind, const QString& message) {
        QCOMPARE(kind, StoreErrorKind::ReadOnly);
        QVERIFY2(message.contains(u"read-only"_s), qPrintable(message));
    };
    {
        auto r = store->appendResponses({ response(runId, caseRow, 1) });
        QVERIFY(!r);
        expectReadOnly(r.errorKind(), r.errorMessage());
    }
    {
        auto r = store->importSuite(sampleSuite(u"hash-2"_s));
        QVERIFY(!r);
        expectReadOnly(r.errorKind(), r.errorMessage());
    }
    {
        auto r = store->addGoldRevision(caseRow, j("{}"), u"ann"_s, u"fix"_s, 0);
        QCOMPARE(r.outcome, GoldEditResult::Outcome::Failed);
        expectReadOnly(r.error.kind, r.error.message);
    }
    {
        auto r = store->updateRunStatus(runId, RunStatus::Paused);
        QVERIFY(!r);
        expectReadOnly(r.errorKind(), r.errorMessage());
    }
    {
        AuditEntry e;
        e.author = u"ann"_s;
        e.action = u"note"_s;
        auto r = store->appendAudit(e);
        QVERIFY(!r);
        expectReadOnly(r.errorKind(), r.errorMessage());
    }
    {
        auto r = store->storeVerdicts({ { runId, 1, 1, 1, std::string("x") } });
        QVERIFY(!r);
        expectReadOnly(r.errorKind(), r.errorMessage());
    }
    store.reset();
    if (backend == kSqlite)
        QCOMPARE(FileFingerprint::of(location), before);
    auto reopened = ResultStore::open(location);
    QCOMPARE(reopened->responses(runId)->size(), 1);
    QCOMPARE(reopened->run(runId)->status, RunStatus::Running);
}

void TestStore::connectionsAreCountedAndOpeningCanBeBlocked()
{
    // What a replacement of a store's files waits for: every connection of this process to them closed, and
    // none opened meanwhile.
    const QString path = m_tmp.filePath(u"counted-%1.db"_s.arg(++m_counter));
    QCOMPARE(ResultStore::openConnections(path), 0);
    auto first = ResultStore::open(path);
    QVERIFY(first);
    QCOMPARE(ResultStore::openConnections(path), 1);
    QCOMPARE(ResultStore::openConnections(QDir(m_tmp.path()).filePath(u"./"_s + QFileInfo(path).fileName())), 1);
    auto second = first->openAgain();
    QVERIFY(second);
    QCOMPARE(ResultStore::openConnections(path), 2);
    second.reset();
    QCOMPARE(ResultStore::openConnections(path), 1);
    {
        const ResultStore::OpeningBlocked blocked(path, u"it is being replaced"_s);
        StoreError error;
        QVERIFY(!ResultStore::open(path, ResultStore::OpenOptions {}, &error));
        QVERIFY2(error.message.contains(u"it is being replaced"_s), qPrintable(error.message));
        QCOMPARE(ResultStore::openConnections(path), 1); // the refused one is not counted
        QVERIFY(ResultStore::open(m_tmp.filePath(u"other-%1.db"_s.arg(++m_counter)))); // other files open
    }
    auto again = ResultStore::open(path);
    QVERIFY(again);
    QCOMPARE(ResultStore::openConnections(path), 2);
    first.reset();
    again.reset();
    QCOMPARE(ResultStore::openConnections(path), 0);
    // A failed open is not left counted.
    const QString missing = m_tmp.filePath(u"missing-%1.db"_s.arg(++m_counter));
    ResultStore::OpenOptions noCreate;
    noCreate.createIfMissing = false;
    QVERIFY(!ResultStore::open(missing, noCreate));
    QCOMPARE(ResultStore::openConnections(missing), 0);
}

void TestStore::unwritableStoreOpensReadOnly_data()
{
    QTest::addColumn<bool>("lockFolder");
    QTest::addColumn<QString>("reason");
    QTest::newRow("file not writable") << false << u"the file is not writable"_s;
    QTest::newRow("folder not writable") << true << u"its folder is not writable"_s;
}

void TestStore::unwritableStoreOpensReadOnly()
{
    QFETCH(bool, lockFolder);
    QFETCH(QString, reason);
    if (::geteuid() == 0)
        QSKIP("running as root: file permissions do not stop root from writing (scripts/test.sh runs this as an "
              "unprivileged user)");
    const QString folder = m_tmp.filePath(u"locked-%1"_s.arg(++m_counter));
    QVERIFY(QDir().mkpath(folder));
    const QString path = folder + u"/store.db"_s;
    {
        auto f = makeFixture(path);
        QVERIFY(f.store);
    }
    const auto rw = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner;
    const auto ro = QFile::ReadOwner | QFile::ExeOwner;
    const auto unlock = qScopeGuard([&] {
        QFile::setPermissions(folder, rw);
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    });
    QVERIFY(lockFolder ? QFile::setPermissions(folder, ro) : QFile::setPermissions(path, QFile::ReadOwner));
    const FileFingerprint before = FileFingerprint::of(path);
    // SQLite may add its -wal/-shm companions next to a read-only file; nothing else may appear.
    const QStringList filesBefore = QDir(folder).entryList(QDir::Files);
    const auto storeFiles = [&folder] {
        QStringList files = QDir(folder).entryList(QDir::Files);
        files.removeIf([](const QString& name) { return name.endsWith(u"-wal"_s) || name.endsWith(u"-shm"_s); });
        return files;
    };
    {
        StoreError error;
        auto store = ResultStore::open(path, {}, &error);
        QVERIFY2(store, qPrintable(error.message));
        QVERIFY(store->isReadOnly());
        QCOMPARE(store->readOnlyReason(), reason);
        QCOMPARE(store->suites()->size(), 1);
        const auto refused = store->importSuite(sampleSuite(u"hash-2"_s));
        QCOMPARE(refused.errorKind(), StoreErrorKind::ReadOnly);
        QVERIFY2(refused.errorMessage().contains(reason), qPrintable(refused.errorMessage()));
    }
    QCOMPARE(FileFingerprint::of(path), before);
    QCOMPARE(storeFiles(), filesBefore);
}

void TestStore::missingFolderGivesClearError()
{
    StoreError error;
    const QString path = m_tmp.filePath(u"no/such/folder/x.db"_s);
    QVERIFY(!ResultStore::open(path, {}, &error));
    QCOMPARE(error.kind, StoreErrorKind::NotFound);
    QVERIFY2(error.message.contains(u"does not exist"_s), qPrintable(error.message));
    QVERIFY(!QFileInfo::exists(path));
}

void TestStore::createIfMissingFalse_data()
{
    addBackendRows();
}

void TestStore::createIfMissingFalse()
{
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    ResultStore::OpenOptions options;
    options.createIfMissing = false;
    StoreError error;
    QVERIFY(!ResultStore::open(location, options, &error));
    QCOMPARE(error.kind, StoreErrorKind::NotFound);
    if (backend == kSqlite)
        QVERIFY(!QFileInfo::exists(location));
    QVERIFY(ResultStore::open(location));
    QVERIFY(ResultStore::open(location, options, &error));
}

void TestStore::wrongPostgresSchemasAreRefusedAndUntouched_data()
{
    QTest::addColumn<QString>("setup");
    QTest::addColumn<StoreErrorKind>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("other tables") << u"CREATE TABLE foo (x INTEGER)"_s << StoreErrorKind::NotAStore
                                  << u"it holds other tables: foo"_s;
    QTest::newRow("other meta") << u"CREATE TABLE meta (key TEXT, value TEXT)"_s << StoreErrorKind::NotAStore
                                << u"its meta table is not StructScope's"_s;
    QTest::newRow("schema_version 999") << u"UPDATE meta SET value = '999' WHERE key = 'schema_version'"_s
                                        << StoreErrorKind::NewerSchema
                                        << u"(schema v999, this build reads up to v%1); it was not modified"_s.arg(
                                               latestSchemaVersion());
}

void TestStore::wrongPostgresSchemasAreRefusedAndUntouched()
{
    QFETCH(QString, setup);
    QFETCH(StoreErrorKind, kind);
    QFETCH(QString, message);
    STORE_LOCATION(location, kPostgres);
    if (setup.startsWith(u"UPDATE"_s))
        QVERIFY(ResultStore::open(location));
    const QString tablesSql = u"SELECT table_name FROM information_schema.tables WHERE table_schema = "
                              "current_schema() ORDER BY table_name"_s;
    QStringList tables;
    {
        RawDb raw(location);
        QVERIFY(raw.isOpen());
        QVERIFY(raw.exec(setup));
        tables = raw.column(tablesSql);
    }
    StoreError error;
    QVERIFY(!ResultStore::open(location, {}, &error));
    QCOMPARE(error.kind, kind);
    QVERIFY2(error.message.contains(message), qPrintable(error.message));
    RawDb raw(location);
    QCOMPARE(raw.column(tablesSql), tables);
    if (kind == StoreErrorKind::NewerSchema)
        QCOMPARE(raw.column(u"SELECT value FROM meta WHERE key = 'schema_version'"_s), QStringList { u"999"_s });
}

void TestStore::suitesAndGoldRoundTrip_data()
{
    addBackendRows();
}

void TestStore::suitesAndGoldRoundTrip()
{
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    SuiteImport input = sampleSuite();
    input.cases[1].input = u"NUL here:"_s % QChar(0) % u"end"_s;
    qint64 suiteRow = 0;
    {
        auto store = ResultStore::open(location);
        QVERIFY(store);
        const auto first = store->importSuite(input);
        QVERIFY2(first.ok(), qPrintable(first.errorMessage()));
        QVERIFY(first->created);
        suiteRow = first->suite.row;
        const auto again = store->importSuite(input);
        QVERIFY(again.ok());
        QVERIFY(!again->created);
        QCOMPARE(again->suite.row, suiteRow);
        const auto changed = store->importSuite(sampleSuite(u"hash-2"_s));
        QVERIFY(changed.ok());
        QVERIFY(changed->created);
        QVERIFY(changed->suite.row != suiteRow);
    }
    auto store = ResultStore::open(location);
    QVERIFY(store);
    const auto suites = store->suites().value();
    QCOMPARE(suites.size(), 2);
    const SuiteRow& s = suites.at(0);
    QCOMPARE(s.row, suiteRow);
    QCOMPARE(s.id, input.id);
    QCOMPARE(s.name, input.name);
    QCOMPARE(s.version, input.version);
    QCOMPARE(s.contentHash, input.contentHash);
    QCOMPARE_JSON(s.manifest, input.manifest);
    QVERIFY(s.importedAt.isValid());
    QVERIFY(qAbs(s.importedAt.secsTo(QDateTime::currentDateTimeUtc())) < 120);
    QCOMPARE(store->suite(suiteRow)->id, input.id);
    QCOMPARE(store->suite(987654).errorKind(), StoreErrorKind::NotFound);

    const auto cases = store->cases(suiteRow).value();
    QCOMPARE(cases.size(), input.cases.size());
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const CaseRow& c = cases.at(i);
        const CaseImport& in = input.cases.at(i);
        QCOMPARE(c.suiteRow, suiteRow);
        QCOMPARE(c.ordinal, int(i));
        QCOMPARE(c.id, in.id);
        QCOMPARE(c.category, in.category);
        QCOMPARE(c.tier, in.tier);
        QCOMPARE(c.schemaName, in.schemaName);
        QCOMPARE(c.question, in.question);
        QCOMPARE_JSON(c.extra, in.extra);
        QCOMPARE(store->caseRecord(c.row)->id, in.id);
        const auto gold = store->goldRevisions(c.row).value();
        QCOMPARE(gold.size(), 1);
        QCOMPARE(gold.at(0).revision, 0);
        QCOMPARE_JSON(gold.at(0).gold, in.gold);
        QCOMPARE(gold.at(0).author, u"importer"_s);
        QCOMPARE(gold.at(0).reason, u"original gold of suite email-extraction 1.0.0"_s);
        QCOMPARE(store->currentGold(c.row)->row, gold.at(0).row);
    }
    QCOMPARE(cases.at(0).input, input.cases.at(0).input);
    QCOMPARE(cases.at(1).input, u"NUL here:\uFFFDend"_s); // PostgreSQL text cannot hold U+0000
    QCOMPARE(store->caseRecord(987654).errorKind(), StoreErrorKind::NotFound);
    QCOMPARE(store->goldRevisions(987654).errorKind(), StoreErrorKind::NotFound);

    const auto audit = store->auditLog({ u"suite"_s, QString::number(suiteRow), 0, 0 }).value();
    QCOMPARE(audit.size(), 1);
    QCOMPARE(audit.at(0).action, u"suite.import"_s);
    QCOMPARE(audit.at(0).author, u"importer"_s);
    QCOMPARE_JSON(audit.at(0).details, j(R"({"suite": "email-extraction", "version": "1.0.0",
                                            "content_hash": "hash-1", "cases": 3})"));
}

void TestStore::badSuiteImports_data()
{
    QTest::addColumn<QString>("backend");
    QTest::addColumn<QString>("defect");
    QTest::addColumn<QString>("message");
    for (const QString& backend : { kSqlite, kPostgres }) {
        QTest::addRow("%s: no id", qPrintable(backend)) << backend << u"id"_s << u"without an id"_s;
        QTest::addRow("%s: no hash", qPrintable(backend)) << backend << u"hash"_s << u"no content hash"_s;
        QTest::addRow("%s: duplicate case", qPrintable(backend))
            << backend << u"duplicate"_s << u"case id \"st-001\" appears twice"_s;
        QTest::addRow("%s: case without id", qPrintable(backend)) << backend << u"case-id"_s << u"case 2 has no id"_s;
    }
}

void TestStore::badSuiteImports()
{
    QFETCH(QString, backend);
    QFETCH(QString, defect);
    QFETCH(QString, message);
    STORE_LOCATION(location, backend);
    SuiteImport input = sampleSuite();
    if (defect == u"id")
        input.id.clear();
    else if (defect == u"hash")
        input.contentHash = u"  "_s;
    else if (defect == u"duplicate")
        input.cases[2].id = u"st-001"_s;
    else if (defect == u"case-id")
        input.cases[1].id.clear();
    auto store = ResultStore::open(location);
    QVERIFY(store);
    const auto result = store->importSuite(input);
    QVERIFY(!result);
    QCOMPARE(result.errorKind(), StoreErrorKind::InvalidArgument);
    QVERIFY2(result.errorMessage().contains(message), qPrintable(result.errorMessage()));
    QCOMPARE(store->suites()->size(), 0);
}

void TestStore::runsAndResponsesRoundTrip_data()
{
    addBackendRows();
}

void TestStore::runsAndResponsesRoundTrip()
{
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    QList<ResponseRow> written;
    RunRow createdRun;
    {
        auto f = makeFixture(location);
        QVERIFY(f.store);
        createdRun = f.run;
        QVERIFY(createdRun.id > 0);
        QCOMPARE(createdRun.status, RunStatus::Running);
        QCOMPARE(createdRun.suiteHash, u"hash-1"_s); // filled in from the suite
        QVERIFY(createdRun.startedAt.isValid());

        ResponseRow full = response(f.run.id, f.cases.at(0).row, 0, u"```json\n{\"priority\": \"high\"}\n```"_s);
        full.latencyMs = 812.5;
        full.ttftMs = 120.25;
        full.tokensIn = 900;
        full.tokensOut = 120;
        full.cost = 0.0004;
        full.costSource = CostSource::Provider;
        full.attempts = 2;
        full.createdAt = QDateTime(QDate(2024, 5, 1), QTime(12, 0, 0, 123), Qt::UTC);
        ResponseRow failed = response(f.run.id, f.cases.at(1).row, 0, QString());
        failed.httpStatus = 429;
        failed.errorKind = u"rate_limited"_s;
        failed.errorMessage = u"Too Many Requests"_s;
        failed.attempts = 5;
        ResponseRow noHttp = response(f.run.id, f.cases.at(2).row, 0, QString());
        noHttp.httpStatus = 0;
        noHttp.errorKind = u"timeout"_s;
        noHttp.cost = 0.0;
        noHttp.costSource = CostSource::PriceTable;
        ResponseRow large = response(f.run.id, f.cases.at(0).row, 1, QString(200000, QChar(0x00e9)));
        written = { full, failed, noHttp, large };
        const auto ids = f.store->appendResponses(written);
        QVERIFY2(ids.ok(), qPrintable(ids.errorMessage()));
        QCOMPARE(ids->size(), 4);
        for (qsizetype i = 0; i < ids->size(); ++i)
            written[i].id = ids->at(i);
        QVERIFY(f.store->updateRunStatus(f.run.id, RunStatus::Paused).ok());
        QCOMPARE(f.store->updateRunStatus(987654, RunStatus::Paused).errorKind(), StoreErrorKind::NotFound);
    }
    auto store = ResultStore::open(location);
    QVERIFY(store);
    RunRow run = store->run(createdRun.id).value();
    QCOMPARE(run.status, RunStatus::Paused);
    QCOMPARE(run.suiteRow, createdRun.suiteRow);
    QCOMPARE(run.modelSpec, u"sim:careful"_s);
    QCOMPARE(run.providerKind, u"simulated"_s);
    QCOMPARE(run.strategy, u"PJ"_s);
    QCOMPARE(run.repeats, 3);
    QCOMPARE_JSON(run.settings, j(R"({"temperature": 0, "max_tokens": 512})"));
    QCOMPARE(run.suiteHash, u"hash-1"_s);
    QCOMPARE(run.startedAt.toMSecsSinceEpoch(), createdRun.startedAt.toMSecsSinceEpoch());
    QVERIFY(!run.finishedAt.isValid());

    const auto read = store->responses(run.id).value();
    QCOMPARE(read.size(), written.size());
    for (qsizetype i = 0; i < read.size(); ++i) {
        const ResponseRow& a = read.at(i);
        const ResponseRow& b = written.at(i);
        QCOMPARE(a.id, b.id);
        QCOMPARE(a.runId, b.runId);
        QCOMPARE(a.caseRow, b.caseRow);
        QCOMPARE(a.repeat, b.repeat);
        QCOMPARE(a.requestHash, b.requestHash);
        QCOMPARE(a.rawText, b.rawText);
        QCOMPARE(a.httpStatus, b.httpStatus);
        QCOMPARE(a.errorKind, b.errorKind);
        QCOMPARE(a.errorMessage, b.errorMessage);
        QCOMPARE(a.latencyMs, b.latencyMs);
        QCOMPARE(a.ttftMs, b.ttftMs);
        QCOMPARE(a.tokensIn, b.tokensIn);
        QCOMPARE(a.tokensOut, b.tokensOut);
        QCOMPARE(a.cost, b.cost);
        QCOMPARE(a.costSource, b.costSource);
        QCOMPARE(a.attempts, b.attempts);
        QVERIFY(a.createdAt.isValid());
    }
    QCOMPARE(read.at(0).createdAt, written.at(0).createdAt);
    // What scoring reads: the same rows in the same order, the fields it needs as stored, the rest left unset.
    qsizetype scoringSeen = 0;
    const auto scoringRead = store->forEachResponse(
        run.id,
        [&](const ResponseRow& a) {
            const ResponseRow& b = read.at(scoringSeen++);
            return a.id == b.id && a.runId == b.runId && a.caseRow == b.caseRow && a.repeat == b.repeat
                && a.rawUtf8 == b.rawText.toUtf8() && a.rawText.isEmpty() && a.httpStatus == b.httpStatus
                && a.errorKind == b.errorKind && a.latencyMs == b.latencyMs && a.cost == b.cost
                && a.costSource == b.costSource && a.attempts == b.attempts && a.requestHash.isEmpty()
                && a.errorMessage.isEmpty() && !a.ttftMs && !a.tokensIn && !a.tokensOut && !a.createdAt.isValid();
        },
        ResponseFields::ForScoring);
    QVERIFY2(scoringRead.ok(), qPrintable(scoringRead.errorMessage()));
    QCOMPARE(scoringRead.value(), 4);
    QCOMPARE(scoringSeen, 4);
    QCOMPARE(store->responseCount(run.id).value(), 4);
    QCOMPARE(store->responsesByRequestHash(written.at(1).requestHash)->size(), 1);
    QCOMPARE(store->responsesByRequestHash(u"nope"_s)->size(), 0);
    // The request cache's lookup: the newest answer without an error, else nothing.
    QCOMPARE(store->latestAnswerForRequest(written.at(0).requestHash).value()->id, written.at(0).id);
    QCOMPARE(store->latestAnswerForRequest(written.at(0).requestHash).value()->rawText, written.at(0).rawText);
    QVERIFY(!store->latestAnswerForRequest(written.at(1).requestHash).value().has_value()); // rate_limited
    QVERIFY(!store->latestAnswerForRequest(u"nope"_s).value().has_value());
    {
        ResponseRow again = written.at(0);
        again.id = 0;
        again.repeat = 7; // another slot (one answer per run, case and repeat), the same request
        again.rawText = u"{\"priority\": \"low\"}"_s;
        ResponseRow failedAgain = again;
        failedAgain.rawText.clear();
        failedAgain.errorKind = u"server_error"_s;
        failedAgain.repeat = 8;
        const auto added = store->appendResponses({ again, failedAgain });
        QVERIFY2(added.ok(), qPrintable(added.errorMessage()));
        const auto newest = store->latestAnswerForRequest(written.at(0).requestHash).value();
        QCOMPARE(newest->id, added->at(0));
        QCOMPARE(newest->rawText, again.rawText);
    }

    qint64 seen = 0;
    const auto visited = store->forEachResponse(run.id, [&seen](const ResponseRow&) { return ++seen < 2; });
    QCOMPARE(visited.value(), 2);

    QVERIFY(store->finishRun(run.id, RunStatus::Cancelled).ok());
    QCOMPARE(store->run(run.id)->status, RunStatus::Cancelled);
    QVERIFY(store->run(run.id)->finishedAt.isValid());
    QCOMPARE(store->finishRun(run.id, RunStatus::Running).errorKind(), StoreErrorKind::InvalidArgument);
    QCOMPARE(store->finishRun(987654).errorKind(), StoreErrorKind::NotFound);
    QCOMPARE(store->runs().value().size(), 1);
    QCOMPARE(store->runs(run.suiteRow).value().size(), 1);
    QCOMPARE(store->runs(987654).value().size(), 0);
}

void TestStore::askedSchemasRoundTrip_data()
{
    addBackendRows();
}

void TestStore::askedSchemasRoundTrip()
{
    // The schema a response was asked with, where not its case's: each document stored once, named by the
    // response, and read back by every read of responses (the scoring read too, with or without its text apart).
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    auto f = makeFixture(location);
    QVERIFY(f.store);
    QVERIFY(f.store->hasAskedSchemas());
    const json variant = j(R"({"type": "object", "properties": {"n": {"type": "integer", "maximum": 1}}})");
    const json asFloat = j(R"({"type": "object", "properties": {"n": {"type": "integer", "maximum": 1.0}}})");
    const auto ids = f.store->storeAskedSchemas({ &variant, &asFloat, &variant });
    QVERIFY2(ids.ok(), qPrintable(ids.errorMessage()));
    QCOMPARE(ids->size(), std::size_t(3));
    QCOMPARE(ids->at(2), ids->at(0)); // one document, stored once
    QVERIFY(ids->at(1) != ids->at(0)); // 1 and 1.0 are two documents
    const auto again = f.store->storeAskedSchemas({ &variant });
    QVERIFY(again.ok());
    QCOMPARE(again->at(0), ids->at(0)); // a later import finds it
    const auto documents = f.store->askedSchemas();
    QVERIFY2(documents.ok(), qPrintable(documents.errorMessage()));
    QCOMPARE(documents->size(), std::size_t(2));
    QCOMPARE_JSON(documents->at(ids->at(0)), variant);
    QCOMPARE(documents->at(ids->at(1)).dump(), asFloat.dump());

    ResponseRow asked = response(f.run.id, f.cases.at(0).row, 0, u"{\"n\": 1}"_s);
    asked.askedSchemaId = ids->at(1);
    const ResponseRow own = response(f.run.id, f.cases.at(1).row, 0, u"{\"n\": 2}"_s);
    const auto stored = f.store->appendResponses({ asked, own });
    QVERIFY2(stored.ok(), qPrintable(stored.errorMessage()));
    ResponseRow negative = response(f.run.id, f.cases.at(2).row, 0);
    negative.askedSchemaId = -4;
    QCOMPARE(f.store->appendResponses({ negative }).errorKind(), StoreErrorKind::InvalidArgument);

    QMap<qint64, qint64> expected { { stored->at(0), ids->at(1) }, { stored->at(1), 0 } };
    QMap<qint64, qint64> full;
    const auto records = f.store->responses(f.run.id);
    QVERIFY2(records.ok(), qPrintable(records.errorMessage()));
    for (const ResponseRow& r : records.value())
        full.insert(r.id, r.askedSchemaId);
    QCOMPARE(full, expected);
    for (const bool fewTexts : { false, true }) {
        QMap<qint64, qint64> scoring;
        const auto visited = f.store->forEachResponseForScoring(
            f.run.id,
            [&scoring](const ResponseRow& r) {
                scoring.insert(r.id, r.askedSchemaId);
                return true;
            },
            [](qint64, qint64) { return true; }, fewTexts);
        QVERIFY2(visited.ok(), qPrintable(visited.errorMessage()));
        QCOMPARE(scoring, expected);
    }
}

void TestStore::rowInsertStoresWhatQtWould_data()
{
    addBackendRows();
}

void TestStore::rowInsertStoresWhatQtWould()
{
    // The bulk inserts (cases, gold, responses) bind through SQLite's own API on an SQLite store and through
    // QSqlQuery on PostgreSQL: the same values must come back either way, as textToDb() defines them.
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    QVERIFY(ResultStore::open(location)); // creates the file or schema
    RawDb raw(location);
    QVERIFY(raw.isOpen());
    const bool sqlite = backend == kSqlite;
    QVERIFY(raw.exec(u"CREATE TABLE scratch (id %1 PRIMARY KEY, a BIGINT, b DOUBLE PRECISION, c TEXT NOT NULL, "
                     "d TEXT, e TEXT UNIQUE)"_s.arg(sqlite ? u"INTEGER"_s : u"BIGSERIAL"_s)));
    const QSqlDatabase db = QSqlDatabase::database(raw.name(), false);
    sql::RowInsert insert(db, u"INSERT INTO scratch (a, b, c, d, e) VALUES (?, ?, ?, ?, ?) RETURNING id"_s);
    QCOMPARE(insert.isNative(), sqlite);
    QVERIFY(insert.prepare(u"cannot prepare"_s).ok());

    QList<qint64> ids;
    const auto row = [&](auto a, auto b, const QString& c, const std::optional<QString>& d, auto e) {
        insert.add(a);
        insert.add(b);
        insert.add(c);
        insert.add(d);
        if constexpr (std::is_same_v<decltype(e), std::string_view>)
            insert.addUtf8(e);
        else
            insert.add(e);
        qint64 id = 0;
        const bool ok = insert.run(&id);
        if (ok)
            ids.append(id);
        return ok;
    };
    QVERIFY(
        row(qint64(1) << 40, 0.25, u"NUL:"_s % QChar(0) % u"end"_s, std::nullopt, std::string_view("{\"k\":\"é\"}")));
    QVERIFY(
        row(-3, std::optional<double>(), QString(), std::optional<QString>(u"☕ mug"_s), std::string_view("a\0b", 3)));
    QVERIFY(row(std::optional<qint64>(), 1e300, u"x"_s, std::optional<QString>(QString()), QString()));
    // A failed row: the error names what failed and the statement stays usable.
    QVERIFY(!row(7, 0.5, u"dup"_s, std::nullopt, QString()));
    const StoreError error = insert.error(u"cannot store the row"_s);
    QCOMPARE(error.kind, StoreErrorKind::Database);
    QVERIFY2(
        error.message.startsWith(u"cannot store the row: "_s) && error.message.size() > 24, qPrintable(error.message));
    QVERIFY(row(8, 0.5, u"after"_s, std::nullopt, std::string_view("z")));
    QCOMPARE(ids.size(), 4);
    QVERIFY(ids.at(0) < ids.at(1) && ids.at(1) < ids.at(2) && ids.at(2) < ids.at(3));

    QSqlQuery query(db);
    QVERIFY(query.exec(u"SELECT a, b, c, d, e FROM scratch ORDER BY id"_s));
    QStringList rows;
    while (query.next()) {
        QStringList values;
        for (int i = 0; i < 5; ++i)
            values << (query.value(i).isNull() ? u"NULL"_s : query.value(i).toString());
        rows << values.join(u'|');
    }
    QCOMPARE(rows,
        QStringList({ u"1099511627776|0.25|NUL:\uFFFDend|NULL|{\"k\":\"é\"}"_s, u"-3|NULL||☕ mug|a\uFFFDb"_s,
            u"NULL|1e+300|x||"_s, u"8|0.5|after|NULL|z"_s }));
}

void TestStore::scoringReadKeepsTheStoredBytes_data()
{
    addBackendRows();
}

void TestStore::scoringReadKeepsTheStoredBytes()
{
    // What scoring reads of each answer: its stored UTF-8, the same bytes through a run's read and a few
    // cases' read (SQLite: both through SQLite's own API), and the same as the full read's text.
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    auto f = makeFixture(location);
    QVERIFY(f.store);
    ResponseRow costed = response(f.run.id, f.cases.at(2).row, 0, u"{\"n\": 2}"_s);
    costed.cost = 0.25;
    costed.costSource = CostSource::Provider;
    costed.latencyMs = 12.5;
    ResponseRow failed = response(f.run.id, f.cases.at(1).row, 1, QString());
    failed.errorKind = u"timeout"_s;
    failed.httpStatus = 0;
    const auto ids = f.store->appendResponses({ response(f.run.id, f.cases.at(0).row, 0, u"Grüße 🙂 {\"a\": 1}"_s),
        response(f.run.id, f.cases.at(1).row, 0, u"{\"b\": \"x\"}"_s), costed, failed });
    QVERIFY2(ids.ok(), qPrintable(ids.errorMessage()));
    QMap<qint64, QByteArray> expected;
    const auto full = f.store->responses(f.run.id).value();
    for (const ResponseRow& r : full)
        expected[r.id] = r.rawText.toUtf8();
    QCOMPARE(expected.value(ids->at(0)),
        QByteArray("Gr\xc3\xbc\xc3\x9f"
                   "e \xf0\x9f\x99\x82 {\"a\": 1}"));
    if (backend == kSqlite) {
        // Bytes written behind the store's back: an invalid byte inside text (replaced as QString replaces
        // it), and valid UTF-8 stored as a BLOB (read as the text it is).
        RawDb raw(location);
        QVERIFY(raw.isOpen());
        QVERIFY(raw.exec(
            u"UPDATE responses SET raw_text = CAST(X'7B2262223A2022FF227D' AS TEXT) WHERE id = %1"_s.arg(ids->at(1))));
        QVERIFY(raw.exec(u"UPDATE responses SET raw_text = X'7B226E223A20327D' WHERE id = %1"_s.arg(ids->at(2))));
        expected[ids->at(1)] = QString::fromUtf8("{\"b\": \"\xff\"}").toUtf8();
        QCOMPARE(expected[ids->at(1)], QByteArray("{\"b\": \"\xef\xbf\xbd\"}"));
    }
    const auto check = [&](const ResponseRow& a) {
        const auto b = std::find_if(full.begin(), full.end(), [&a](const ResponseRow& r) { return r.id == a.id; });
        return b != full.end() && a.rawText.isEmpty() && a.rawUtf8 == expected.value(a.id) && a.runId == b->runId
            && a.caseRow == b->caseRow && a.repeat == b->repeat && a.httpStatus == b->httpStatus
            && a.errorKind == b->errorKind && a.latencyMs == b->latencyMs && a.cost == b->cost
            && a.costSource == b->costSource && a.attempts == b->attempts;
    };
    QList<qint64> byRun;
    const auto runRead = f.store->forEachResponse(
        f.run.id,
        [&](const ResponseRow& a) {
            byRun << a.id;
            return check(a);
        },
        ResponseFields::ForScoring);
    QVERIFY2(runRead.ok(), qPrintable(runRead.errorMessage()));
    QCOMPARE(byRun, ids.value());
    QList<qint64> byCases;
    const auto casesRead = f.store->forEachResponseOfCases(
        { f.cases.at(0).row, f.cases.at(1).row, f.cases.at(2).row },
        [&](const ResponseRow& a) {
            byCases << a.id;
            return check(a);
        },
        ResponseFields::ForScoring);
    QVERIFY2(casesRead.ok(), qPrintable(casesRead.errorMessage()));
    QCOMPARE(byCases, ids.value());

    // A row the reader cannot take (past the CHECK constraint, as a damaged or foreign file may be) is an error
    // naming it, from both reads, not a row skipped.
    if (backend != kSqlite)
        return;
    {
        RawDb raw(location);
        QVERIFY(raw.exec(u"PRAGMA ignore_check_constraints = ON"_s));
        QVERIFY(raw.exec(u"UPDATE responses SET cost_source = 'bogus' WHERE id = %1"_s.arg(ids->at(2))));
    }
    const auto bad = f.store->forEachResponse(
        f.run.id, [](const ResponseRow&) { return true; }, ResponseFields::ForScoring);
    QCOMPARE(bad.errorKind(), StoreErrorKind::Corrupt);
    QVERIFY2(bad.errorMessage().contains(u"responses row %1"_s.arg(ids->at(2))), qPrintable(bad.errorMessage()));
    const auto badCases = f.store->forEachResponseOfCases(
        { f.cases.at(2).row }, [](const ResponseRow&) { return true; }, ResponseFields::ForScoring);
    QCOMPARE(badCases.errorKind(), StoreErrorKind::Corrupt);
}

void TestStore::someCasesResponsesComeInStoredOrder_data()
{
    addBackendRows();
}

void TestStore::someCasesResponsesComeInStoredOrder()
{
    // Stored in another order than the (run, case, repeat) index's: the second case's answer first.
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    auto f = makeFixture(location);
    QVERIFY(f.store);
    const qint64 first = f.cases.at(0).row;
    const qint64 second = f.cases.at(1).row;
    const auto ids = f.store->appendResponses({ response(f.run.id, second, 0), response(f.run.id, first, 1),
        response(f.run.id, first, 0), response(f.run.id, f.cases.at(2).row, 0) });
    QVERIFY2(ids.ok(), qPrintable(ids.errorMessage()));
    for (const ResponseFields fields : { ResponseFields::All, ResponseFields::ForScoring }) {
        QList<qint64> seen;
        const auto visited = f.store->forEachResponseOfCases(
            { first, second },
            [&seen](const ResponseRow& r) {
                seen << r.id;
                return true;
            },
            fields);
        QVERIFY2(visited.ok(), qPrintable(visited.errorMessage()));
        QCOMPARE(seen, ids->mid(0, 3));
        QCOMPARE(visited.value(), 3);
        // Stopping early stops at the response that said so.
        seen.clear();
        QCOMPARE(f.store
                     ->forEachResponseOfCases(
                         { first, second },
                         [&seen](const ResponseRow& r) {
                             seen << r.id;
                             return seen.size() < 2;
                         },
                         fields)
                     .value(),
            2);
        QCOMPARE(seen, ids->mid(0, 2));
    }

    // The same cases' responses of every run at once (a second run answers the first case), in stored order;
    // their cases and gold read by row as well.
    RunRow other = f.run;
    other.modelSpec = u"sim:other"_s;
    const auto otherRun = f.store->createRun(other);
    QVERIFY2(otherRun.ok(), qPrintable(otherRun.errorMessage()));
    const auto more = f.store->appendResponses({ response(otherRun->id, first, 0) });
    QVERIFY2(more.ok(), qPrintable(more.errorMessage()));
    for (const ResponseFields fields : { ResponseFields::All, ResponseFields::ForScoring }) {
        QList<qint64> seen;
        const auto visited = f.store->forEachResponseOfCases(
            { second, first },
            [&seen](const ResponseRow& r) {
                seen << r.id;
                return true;
            },
            fields);
        QVERIFY2(visited.ok(), qPrintable(visited.errorMessage()));
        QCOMPARE(seen, ids->mid(0, 3) + more.value());
        QCOMPARE(visited.value(), 4);
    }
    QCOMPARE(f.store->forEachResponseOfCases({}, [](const ResponseRow&) { return true; }).value(), 0);
    QList<qint64> tooMany;
    for (qsizetype i = 0; i <= ResultStore::kMaxCasesPerQuery; ++i)
        tooMany << first;
    const auto refused = f.store->forEachResponseOfCases(tooMany, [](const ResponseRow&) { return true; });
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().kind, StoreErrorKind::InvalidArgument);
    const auto someCases = f.store->cases(f.run.suiteRow, CaseFields::WithoutText, { f.cases.at(2).row, first });
    QVERIFY2(someCases.ok(), qPrintable(someCases.errorMessage()));
    QCOMPARE(someCases->size(), 2);
    QCOMPARE(someCases->at(0).row, first); // in the suite's order
    QCOMPARE(someCases->at(1).row, f.cases.at(2).row);
    QVERIFY(someCases->at(0).input.isEmpty());
    QCOMPARE(f.store->cases(f.run.suiteRow + 1000, CaseFields::All, { first })->size(), 0); // another suite's
    const auto gold = f.store->goldForSuite(f.run.suiteRow, GoldBasis::Adjusted, { second });
    QVERIFY2(gold.ok(), qPrintable(gold.errorMessage()));
    QCOMPARE(gold->size(), 1);
    QCOMPARE(gold->value(second).caseRow, second);
    QCOMPARE(gold->value(second).row, f.store->currentGold(second)->row);
    QVERIFY(!f.store->goldForSuite(f.run.suiteRow, GoldBasis::Measured, {}).ok());
}

void TestStore::tamperedJsonIsAnErrorNamingTheRow_data()
{
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("column");
    QTest::addColumn<int>("depth");
    for (const auto& [table, column] : { std::pair { "gold_revisions", "gold" }, { "suites", "manifest" },
             { "cases", "extra" }, { "runs", "settings" }, { "audit_log", "details" } }) {
        QTest::addRow("%s.%s nested 70,000 deep", table, column)
            << QString::fromLatin1(table) << QString::fromLatin1(column) << 70000;
        QTest::addRow("%s.%s one level past the limit", table, column)
            << QString::fromLatin1(table) << QString::fromLatin1(column) << sql::kStoredJsonMaxDepth + 1;
    }
}

void TestStore::tamperedJsonIsAnErrorNamingTheRow()
{
    QFETCH(QString, table);
    QFETCH(QString, column);
    QFETCH(int, depth);
    const QString location = newLocation(kSqlite);
    Fixture f = makeFixture(location);
    QVERIFY(f.store);
    QVERIFY(!f.store->auditLog()->isEmpty());
    const auto status
        = [](const auto& result) { return result.ok() ? StoreResult<void> {} : StoreResult<void> { result.error() }; };
    const auto read = [&]() -> StoreResult<void> {
        if (table == u"gold_revisions")
            return status(f.store->goldRevisions(f.cases.at(0).row));
        if (table == u"suites")
            return status(f.store->suites());
        if (table == u"cases")
            return status(f.store->cases(f.suite.row));
        if (table == u"runs")
            return status(f.store->runs());
        return status(f.store->auditLog());
    };
    const auto write = [&](const QString& value) {
        RawDb raw(location);
        QSqlQuery query(QSqlDatabase::database(raw.name(), false));
        if (!query.exec(u"SELECT min(id) FROM %1"_s.arg(table)) || !query.next())
            return qint64(0);
        const qint64 row = query.value(0).toLongLong();
        if (!query.prepare(u"UPDATE %1 SET %2 = ? WHERE id = ?"_s.arg(table, column)))
            return qint64(0);
        query.addBindValue(value);
        query.addBindValue(row);
        return query.exec() ? row : qint64(0);
    };

    // The limit itself reads back: whatever input accepts, wrapped by the store.
    const int limit = sql::kStoredJsonMaxDepth;
    QVERIFY(write(QString(limit, u'[') + QString(limit, u']')) > 0);
    const auto atLimit = read();
    QVERIFY2(atLimit.ok(), qPrintable(atLimit.errorMessage()));

    const qint64 row = write(QString(depth, u'[') + QString(depth, u']'));
    QVERIFY(row > 0);
    const auto tampered = read();
    QVERIFY2(!tampered.ok(), "a tampered row must not read");
    QCOMPARE(tampered.errorKind(), StoreErrorKind::Corrupt);
    QVERIFY2(tampered.errorMessage().contains(u"%1 row %2: column %3"_s.arg(table).arg(row).arg(column)),
        qPrintable(tampered.errorMessage()));
}

void TestStore::badRuns_data()
{
    QTest::addColumn<QString>("backend");
    QTest::addColumn<QString>("defect");
    QTest::addColumn<StoreErrorKind>("kind");
    for (const QString& backend : { kSqlite, kPostgres }) {
        QTest::addRow("%s: no model", qPrintable(backend)) << backend << u"model"_s << StoreErrorKind::InvalidArgument;
        QTest::addRow("%s: no strategy", qPrintable(backend))
            << backend << u"strategy"_s << StoreErrorKind::InvalidArgument;
        QTest::addRow("%s: zero repeats", qPrintable(backend))
            << backend << u"repeats"_s << StoreErrorKind::InvalidArgument;
        QTest::addRow("%s: settings array", qPrintable(backend))
            << backend << u"settings"_s << StoreErrorKind::InvalidArgument;
        QTest::addRow("%s: unknown suite", qPrintable(backend)) << backend << u"suite"_s << StoreErrorKind::NotFound;
    }
}

void TestStore::badRuns()
{
    QFETCH(QString, backend);
    QFETCH(QString, defect);
    QFETCH(StoreErrorKind, kind);
    STORE_LOCATION(location, backend);
    auto f = makeFixture(location);
    QVERIFY(f.store);
    RunRow run = f.run;
    run.id = 0;
    if (defect == u"model")
        run.modelSpec.clear();
    else if (defect == u"strategy")
        run.strategy = u" "_s;
    else if (defect == u"repeats")
        run.repeats = 0;
    else if (defect == u"settings")
        run.settings = json::array();
    else if (defect == u"suite")
        run.suiteRow = 987654;
    QCOMPARE(f.store->createRun(run).errorKind(), kind);
    QCOMPARE(f.store->runs()->size(), 1);
}

void TestStore::badBatchStoresNothing_data()
{
    QTest::addColumn<QString>("backend");
    QTest::addColumn<QString>("defect");
    QTest::addColumn<StoreErrorKind>("kind");
    QTest::addColumn<QString>("message");
    for (const QString& backend : { kSqlite, kPostgres }) {
        const auto row = [&backend](const char* name, const char* defect, StoreErrorKind kind, const char* msg) {
            QTest::addRow("%s: %s", qPrintable(backend), name)
                << backend << QString::fromLatin1(defect) << kind << QString::fromUtf8(msg);
        };
        row("already stored", "stored", StoreErrorKind::Database, "run 1, case 1, repeat 0");
        row("twice in the batch", "twice", StoreErrorKind::InvalidArgument, "twice");
        row("unknown run", "run", StoreErrorKind::Database, "nothing of the batch was stored");
        row("unknown case", "case", StoreErrorKind::Database, "nothing of the batch was stored");
        row("no run id", "zero-run", StoreErrorKind::InvalidArgument, "response 3 of the batch");
        row("cost without source", "cost", StoreErrorKind::InvalidArgument, "a cost but no cost source");
        row("source without cost", "source", StoreErrorKind::InvalidArgument, "no cost");
        row("negative repeat", "repeat", StoreErrorKind::InvalidArgument, "negative");
        row("negative tokens", "tokens", StoreErrorKind::InvalidArgument, "token count is negative");
    }
}

void TestStore::badBatchStoresNothing()
{
    QFETCH(QString, backend);
    QFETCH(QString, defect);
    QFETCH(StoreErrorKind, kind);
    QFETCH(QString, message);
    STORE_LOCATION(location, backend);
    auto f = makeFixture(location);
    QVERIFY(f.store);
    const qint64 run = f.run.id;
    const qint64 c0 = f.cases.at(0).row;
    const qint64 c1 = f.cases.at(1).row;
    QVERIFY(f.store->appendResponses({ response(run, c0, 0) }).ok());

    QList<ResponseRow> batch { response(run, c1, 0), response(run, c1, 1), response(run, c1, 2) };
    ResponseRow& bad = batch[2];
    if (defect == u"stored") {
        bad.caseRow = c0;
        bad.repeat = 0;
    } else if (defect == u"twice") {
        bad.repeat = 1;
    } else if (defect == u"run") {
        bad.runId = 987654;
    } else if (defect == u"case") {
        bad.caseRow = 987654;
    } else if (defect == u"zero-run") {
        bad.runId = 0;
    } else if (defect == u"cost") {
        bad.cost = 0.1;
    } else if (defect == u"source") {
        bad.costSource = CostSource::Provider;
    } else if (defect == u"repeat") {
        bad.repeat = -1;
    } else if (defect == u"tokens") {
        bad.tokensOut = -5;
    }
    const auto result = f.store->appendResponses(batch);
    QVERIFY(!result);
    QCOMPARE(result.errorKind(), kind);
    QVERIFY2(result.errorMessage().contains(message), qPrintable(result.errorMessage()));
    QCOMPARE(f.store->responseCount(run).value(), 1);
    // The store is still usable after a failed batch.
    QVERIFY(f.store->appendResponses({ response(run, c1, 0) }).ok());
    QCOMPARE(f.store->responseCount(run).value(), 2);
}

void TestStore::answeredKeys_data()
{
    addBackendRows();
}

void TestStore::answeredKeys()
{
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    auto f = makeFixture(location);
    QVERIFY(f.store);
    RunRow other = f.run;
    other.strategy = u"J"_s;
    other = f.store->createRun(other).value();
    const qint64 c0 = f.cases.at(0).row;
    const qint64 c1 = f.cases.at(1).row;
    ResponseRow error = response(f.run.id, c1, 0, QString());
    error.errorKind = u"timeout"_s;
    QVERIFY(f.store->appendResponses({ response(f.run.id, c0, 0), error, response(f.run.id, c0, 2) }).ok());
    QVERIFY(f.store->appendResponses({ response(other.id, c1, 1) }).ok());
    QCOMPARE(f.store->answeredKeys(f.run.id).value(), (QSet<ResponseKey> { { c0, 0 }, { c1, 0 }, { c0, 2 } }));
    QCOMPARE(f.store->answeredKeys(other.id).value(), (QSet<ResponseKey> { { c1, 1 } }));
    QCOMPARE(f.store->answeredKeys(987654).value(), QSet<ResponseKey> {});
}

void TestStore::responseWriterBatches_data()
{
    addBackendRows();
}

void TestStore::responseWriterBatches()
{
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    auto f = makeFixture(location);
    QVERIFY(f.store);
    const qint64 run = f.run.id;
    const qint64 c0 = f.cases.at(0).row;
    {
        ResponseWriter writer(*f.store, 3, std::chrono::hours(1));
        QSignalSpy flushed(&writer, &ResponseWriter::flushed);
        for (int i = 0; i < 7; ++i) {
            QVERIFY(writer.append(response(run, c0, i)));
            const qint64 expected = (i + 1) / 3 * 3;
            QCOMPARE(f.store->responseCount(run).value(), expected);
        }
        QCOMPARE(writer.pendingCount(), 1);
        QCOMPARE(writer.committedCount(), 6);
        QCOMPARE(writer.flush().value(), 1);
        QCOMPARE(writer.flush().value(), 0);
        QCOMPARE(flushed.size(), 3);
        QCOMPARE(flushed.at(2).at(0).value<qsizetype>(), 1);
        QCOMPARE(flushed.at(2).at(1).toLongLong(), 7);
    }
    {
        // The delay trigger flushes a batch that never fills up.
        ResponseWriter writer(*f.store, 100, std::chrono::milliseconds(50));
        QVERIFY(writer.append(response(run, c0, 7)));
        QCOMPARE(f.store->responseCount(run).value(), 7);
        QTRY_COMPARE_WITH_TIMEOUT(f.store->responseCount(run).value(), 8, 5000);
    }
    {
        // The destructor flushes.
        ResponseWriter writer(*f.store, 100, std::chrono::hours(1));
        QVERIFY(writer.append(response(run, c0, 8)));
        QVERIFY(writer.append(response(run, c0, 9)));
    }
    QCOMPARE(f.store->responseCount(run).value(), 10);
    {
        // A failed batch stays buffered and is reported.
        ResponseWriter writer(*f.store, 2, std::chrono::hours(1));
        QSignalSpy failed(&writer, &ResponseWriter::flushFailed);
        QVERIFY(writer.append(response(run, c0, 10)));
        QVERIFY(!writer.append(response(run, c0, 0))); // already stored
        QCOMPARE(failed.size(), 1);
        QCOMPARE(writer.pendingCount(), 2);
        QCOMPARE(f.store->responseCount(run).value(), 10);
        const auto taken = writer.takePending();
        QCOMPARE(taken.size(), 2);
        QCOMPARE(writer.pendingCount(), 0);
        QVERIFY(writer.append(taken.at(0)));
    }
    QCOMPARE(f.store->responseCount(run).value(), 11);
}

void TestStore::responseWriterInItsOwnThread_data()
{
    addBackendRows();
}

void TestStore::responseWriterInItsOwnThread()
{
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    auto f = makeFixture(location);
    QVERIFY(f.store);
    const qint64 run = f.run.id;
    const qint64 c0 = f.cases.at(0).row;
    {
        ResponseWriter writer(*f.store, 3, std::chrono::hours(1));
        QString why;
        QVERIFY2(writer.commitInOwnThread(&why), qPrintable(why));
        QVERIFY(writer.commitsInOwnThread());
        QSignalSpy flushed(&writer, &ResponseWriter::flushed);

        // Another connection holds the write lock: full batches are handed over without waiting for it.
        RawDb other(location);
        QVERIFY(other.isOpen());
        QVERIFY(other.exec(backend == kSqlite ? u"BEGIN IMMEDIATE"_s : u"BEGIN"_s));
        if (backend != kSqlite)
            QVERIFY(other.exec(u"LOCK TABLE responses IN EXCLUSIVE MODE"_s));
        QElapsedTimer clock;
        clock.start();
        for (int i = 0; i < 7; ++i)
            QVERIFY(writer.append(response(run, c0, i)));
        QVERIFY2(clock.elapsed() < 2000, "append waited for the store");
        QCOMPARE(writer.pendingCount(), 7);
        QCOMPARE(writer.committedCount(), 0);
        QVERIFY(other.exec(u"COMMIT"_s));

        QTRY_COMPARE_WITH_TIMEOUT(writer.committedCount(), 6, 20000);
        QCOMPARE(f.store->responseCount(run).value(), 6);
        QCOMPARE(writer.pendingCount(), 1);
        QCOMPARE(writer.flush().value(), 1);
        QCOMPARE(writer.flush().value(), 0);
        QCOMPARE(f.store->responseCount(run).value(), 7);
        QCOMPARE(writer.pendingCount(), 0);
        QCOMPARE(flushed.size(), 3);
        QCOMPARE(flushed.at(2).at(0).value<qsizetype>(), 1);
        QCOMPARE(flushed.at(2).at(1).toLongLong(), 7);
    }
    {
        // A failed batch stays with the writer, is reported, and can be taken back.
        ResponseWriter writer(*f.store, 2, std::chrono::hours(1));
        QVERIFY(writer.commitInOwnThread());
        QSignalSpy failed(&writer, &ResponseWriter::flushFailed);
        QVERIFY(writer.append(response(run, c0, 7)));
        QVERIFY(writer.append(response(run, c0, 0))); // already stored: its batch fails, later
        QVERIFY(writer.append(response(run, c0, 8)));
        QVERIFY(!writer.flush());
        QVERIFY(failed.size() >= 1);
        QVERIFY(failed.constFirst().at(0).toString().contains(u"repeat 0"_s));
        QCOMPARE(writer.pendingCount(), 3);
        QCOMPARE(f.store->responseCount(run).value(), 7);
        const auto taken = writer.takePending();
        QCOMPARE(taken.size(), 3);
        QCOMPARE(taken.at(0).repeat, 7); // oldest first
        QCOMPARE(taken.at(2).repeat, 8);
        QCOMPARE(writer.pendingCount(), 0);
        QVERIFY(writer.append(taken.at(0)));
        QVERIFY(writer.append(taken.at(2)));
    }
    QCOMPARE(f.store->responseCount(run).value(), 9); // the destructor flushed
}

void TestStore::responseWriterWithoutASecondConnectionCommitsInline()
{
    const QString path = m_tmp.filePath(u"writer-unlinked.db"_s);
    auto f = makeFixture(path);
    QVERIFY(f.store);
    QVERIFY(QFile::remove(path)); // the open connection goes on; a second one cannot be opened
    ResponseWriter writer(*f.store, 2, std::chrono::hours(1));
    QString why;
    QVERIFY(!writer.commitInOwnThread(&why));
    QVERIFY2(why.contains(u"does not exist"_s), qPrintable(why));
    QVERIFY(!writer.commitsInOwnThread());
    QVERIFY(writer.append(response(f.run.id, f.cases.at(0).row, 0)));
    QVERIFY(writer.append(response(f.run.id, f.cases.at(0).row, 1)));
    QCOMPARE(f.store->responseCount(f.run.id).value(), 2);
}

void TestStore::manyResponsesInBatches_data()
{
    addBackendRows();
}

void TestStore::manyResponsesInBatches()
{
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    auto f = makeFixture(location);
    QVERIFY(f.store);
    constexpr int total = 3000;
    QElapsedTimer clock;
    clock.start();
    {
        ResponseWriter writer(*f.store, 500, std::chrono::hours(1));
        for (int i = 0; i < total; ++i) {
            ResponseRow r = response(f.run.id, f.cases.at(i % 3).row, i / 3, u"answer %1"_s.arg(i));
            r.tokensIn = i;
            QVERIFY(writer.append(r));
        }
    }
    const qint64 writeMs = clock.restart();
    qint64 sum = 0;
    const auto visited = f.store->forEachResponse(f.run.id, [&sum](const ResponseRow& r) {
        sum += *r.tokensIn;
        return true;
    });
    QCOMPARE(visited.value(), total);
    QCOMPARE(sum, qint64(total) * (total - 1) / 2);
    qInfo("%s: wrote %d responses in %lld ms, read them in %lld ms", qPrintable(backend), total, writeMs,
        clock.elapsed());
}

void TestStore::goldRevisionConflict_data()
{
    addBackendRows();
}

void TestStore::goldRevisionConflict()
{
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    auto ann = ResultStore::open(location);
    QVERIFY(ann);
    const SuiteRow suite = ann->importSuite(sampleSuite())->suite;
    const qint64 caseRow = ann->cases(suite.row)->at(0).row;
    auto bob = ResultStore::open(location);
    QVERIFY(bob);

    // Both start from revision 0.
    QCOMPARE(ann->currentGold(caseRow)->revision, 0);
    QCOMPARE(bob->currentGold(caseRow)->revision, 0);
    const json annGold = j(R"({"priority": "urgent", "device": "laptop"})");
    const json bobGold = j(R"({"priority": "high", "device": "notebook"})");

    const auto first = ann->addGoldRevision(caseRow, annGold, u"ann"_s, u"customer says urgent"_s, 0);
    QVERIFY2(first.ok(), qPrintable(first.error.message));
    QCOMPARE(first.added.revision, 1);
    QVERIFY(first.added.row > 0);

    const auto second = bob->addGoldRevision(caseRow, bobGold, u"bob"_s, u"it is a notebook"_s, 0);
    QVERIFY(second.isConflict());
    QCOMPARE(second.error.kind, StoreErrorKind::Conflict);
    QVERIFY2(second.error.message.contains(u"changed by ann"_s), qPrintable(second.error.message));
    QCOMPARE(second.theirs.revision, 1);
    QCOMPARE(second.theirs.author, u"ann"_s);
    QCOMPARE_JSON(second.theirs.gold, annGold);
    QCOMPARE_JSON(second.mine.gold, bobGold);
    QCOMPARE(second.mine.revision, 1);
    QCOMPARE(second.mine.author, u"bob"_s);

    // Bob merges and tries again on top of Ann's revision.
    const auto third = bob->addGoldRevision(caseRow, bobGold, u"bob"_s, u"it is a notebook"_s, 1);
    QVERIFY2(third.ok(), qPrintable(third.error.message));
    QCOMPARE(third.added.revision, 2);

    // A stale or future base is a conflict too.
    QVERIFY(ann->addGoldRevision(caseRow, annGold, u"ann"_s, u"again"_s, 1).isConflict());
    QVERIFY(ann->addGoldRevision(caseRow, annGold, u"ann"_s, u"again"_s, 7).isConflict());

    const auto history = ann->goldRevisions(caseRow).value();
    QCOMPARE(history.size(), 3);
    QCOMPARE_JSON(history.at(0).gold, sampleSuite().cases.at(0).gold);
    QCOMPARE_JSON(history.at(1).gold, annGold);
    QCOMPARE(history.at(1).reason, u"customer says urgent"_s);
    QCOMPARE_JSON(history.at(2).gold, bobGold);
    QCOMPARE(history.at(2).author, u"bob"_s);
    QCOMPARE(ann->currentGold(caseRow)->revision, 2);

    const auto original = ann->goldForSuite(suite.row, GoldBasis::Measured).value();
    const auto current = ann->goldForSuite(suite.row, GoldBasis::Adjusted).value();
    QCOMPARE(original.size(), 3);
    QCOMPARE(current.size(), 3);
    QCOMPARE(original.value(caseRow).revision, 0);
    QCOMPARE(current.value(caseRow).revision, 2);
    const qint64 otherCase = ann->cases(suite.row)->at(1).row;
    QCOMPARE(current.value(otherCase).revision, 0);
    // The same revisions unparsed: rows, cases and JSON as goldForSuite() gives them.
    for (const GoldBasis choice : { GoldBasis::Measured, GoldBasis::Adjusted }) {
        const auto parsed = ann->goldForSuite(suite.row, choice).value();
        const auto texts = ann->goldTextForSuite(suite.row, choice);
        QVERIFY2(texts.ok(), qPrintable(texts.errorMessage()));
        QCOMPARE(qsizetype(texts->size()), parsed.size());
        for (const ResultStore::GoldText& text : texts.value()) {
            const GoldRevision& revision = parsed.value(text.caseRow);
            QCOMPARE(text.row, revision.row);
            const auto json = ResultStore::parseGoldText(text);
            QVERIFY(json);
            QCOMPARE_JSON(*json, revision.gold);
        }
    }
    const QList<qint64> justThis { caseRow };
    const auto onlyOne = ann->goldTextForSuite(suite.row, GoldBasis::Adjusted, &justThis);
    QVERIFY2(onlyOne.ok(), qPrintable(onlyOne.errorMessage()));
    QCOMPARE(onlyOne->size(), std::size_t(1));
    QCOMPARE(onlyOne->front().row, ann->currentGold(caseRow)->row);
    const QList<qint64> none;
    QVERIFY(!ann->goldTextForSuite(suite.row, GoldBasis::Adjusted, &none).ok());
    QVERIFY(!ResultStore::parseGoldText({ 1, caseRow, QByteArray() }));
    QVERIFY(!ResultStore::parseGoldText({ 1, caseRow, QByteArray("{\"a\": ") }));
    QVERIFY(ResultStore::damagedGold(42).message.contains(u"gold_revisions row 42"_s));

    const auto audit = ann->auditLog({ u"case"_s, QString::number(caseRow), 0, 0 }).value();
    QCOMPARE(audit.size(), 2);
    QCOMPARE(audit.at(0).action, u"gold.revise"_s);
    QCOMPARE(audit.at(0).author, u"ann"_s);
    QCOMPARE_JSON(audit.at(0).details["before"], sampleSuite().cases.at(0).gold);
    QCOMPARE_JSON(audit.at(0).details["after"], annGold);
    QCOMPARE_JSON(audit.at(1).details["based_on"], 1);
    QCOMPARE_JSON(audit.at(1).details["revision"], 2);
}

void TestStore::badGoldEdits_data()
{
    QTest::addColumn<QString>("backend");
    QTest::addColumn<QString>("defect");
    QTest::addColumn<StoreErrorKind>("kind");
    for (const QString& backend : { kSqlite, kPostgres }) {
        QTest::addRow("%s: no author", qPrintable(backend))
            << backend << u"author"_s << StoreErrorKind::InvalidArgument;
        QTest::addRow("%s: no reason", qPrintable(backend))
            << backend << u"reason"_s << StoreErrorKind::InvalidArgument;
        QTest::addRow("%s: negative base", qPrintable(backend))
            << backend << u"base"_s << StoreErrorKind::InvalidArgument;
        QTest::addRow("%s: invalid json", qPrintable(backend))
            << backend << u"json"_s << StoreErrorKind::InvalidArgument;
        QTest::addRow("%s: unknown case", qPrintable(backend)) << backend << u"case"_s << StoreErrorKind::NotFound;
    }
}

void TestStore::badGoldEdits()
{
    QFETCH(QString, backend);
    QFETCH(QString, defect);
    QFETCH(StoreErrorKind, kind);
    STORE_LOCATION(location, backend);
    auto f = makeFixture(location);
    QVERIFY(f.store);
    qint64 caseRow = f.cases.at(0).row;
    QString author = u"ann"_s;
    QString reason = u"typo"_s;
    int base = 0;
    json gold = j("{}");
    if (defect == u"author")
        author = u" "_s;
    else if (defect == u"reason")
        reason.clear();
    else if (defect == u"base")
        base = -1;
    else if (defect == u"json")
        gold = json::parse("{", nullptr, false);
    else if (defect == u"case")
        caseRow = 987654;
    const auto result = f.store->addGoldRevision(caseRow, gold, author, reason, base);
    QCOMPARE(result.outcome, GoldEditResult::Outcome::Failed);
    QCOMPARE(result.error.kind, kind);
    QCOMPARE(f.store->goldRevisions(f.cases.at(0).row)->size(), 1);
}

void TestStore::concurrentGoldEditorsNeverOverwrite_data()
{
    addBackendRows();
}

void TestStore::concurrentGoldEditorsNeverOverwrite()
{
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    qint64 caseRow = 0;
    {
        auto f = makeFixture(location);
        QVERIFY(f.store);
        caseRow = f.cases.at(0).row;
    }
    constexpr int editors = 4;
    constexpr int attempts = 15;
    std::atomic<int> added { 0 };
    std::atomic<int> conflicts { 0 };
    std::atomic<int> failures { 0 };
    QList<QThread*> threads;
    for (int e = 0; e < editors; ++e) {
        threads << QThread::create([&, e] {
            auto store = ResultStore::open(location);
            if (!store) {
                ++failures;
                return;
            }
            const QString author = u"editor-%1"_s.arg(e);
            for (int i = 0; i < attempts; ++i) {
                const auto current = store->currentGold(caseRow);
                if (!current) {
                    ++failures;
                    continue;
                }
                const json gold = { { "editor", e }, { "attempt", i } };
                const auto result = store->addGoldRevision(caseRow, gold, author, u"race"_s, current->revision);
                if (result.ok())
                    ++added;
                else if (result.isConflict())
                    ++conflicts;
                else {
                    qWarning().noquote() << result.error.message;
                    ++failures;
                }
            }
        });
    }
    for (QThread* t : std::as_const(threads))
        t->start();
    for (QThread* t : std::as_const(threads)) {
        QVERIFY(t->wait(120000));
        delete t;
    }
    QCOMPARE(failures.load(), 0);
    QCOMPARE(added.load() + conflicts.load(), editors * attempts);
    QVERIFY(added.load() >= 1);

    auto store = ResultStore::open(location);
    const auto history = store->goldRevisions(caseRow).value();
    QCOMPARE(history.size(), 1 + added.load());
    for (qsizetype i = 0; i < history.size(); ++i)
        QCOMPARE(history.at(i).revision, int(i));
    QCOMPARE(store->auditLog({ u"case"_s, QString::number(caseRow), 0, 0 })->size(), added.load());
    qInfo("%s: %d revisions added, %d conflicts", qPrintable(backend), added.load(), conflicts.load());
}

void TestStore::auditLog_data()
{
    addBackendRows();
}

void TestStore::auditLog()
{
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    {
        auto store = ResultStore::open(location);
        QVERIFY(store);
        AuditEntry e;
        e.author = u"ann"_s;
        e.action = u"run.note"_s;
        e.entity = u"run"_s;
        e.entityId = u"7"_s;
        e.details = j(R"({"note": "slow model", "n": [1, 2]})");
        e.at = QDateTime(QDate(2024, 2, 29), QTime(23, 59, 59, 999), Qt::UTC);
        QVERIFY(store->appendAudit(e).ok());
        e.entityId = u"8"_s;
        e.at = {};
        QVERIFY(store->appendAudit(e).ok());
        e.action.clear();
        QCOMPARE(store->appendAudit(e).errorKind(), StoreErrorKind::InvalidArgument);
        e.action = u"x"_s;
        e.author.clear();
        QCOMPARE(store->appendAudit(e).errorKind(), StoreErrorKind::InvalidArgument);
    }
    auto store = ResultStore::open(location);
    const auto all = store->auditLog().value();
    QCOMPARE(all.size(), 2);
    QCOMPARE(all.at(0).author, u"ann"_s);
    QCOMPARE(all.at(0).action, u"run.note"_s);
    QCOMPARE(all.at(0).entity, u"run"_s);
    QCOMPARE(all.at(0).entityId, u"7"_s);
    QCOMPARE_JSON(all.at(0).details, j(R"({"note": "slow model", "n": [1, 2]})"));
    QCOMPARE(all.at(0).at, QDateTime(QDate(2024, 2, 29), QTime(23, 59, 59, 999), Qt::UTC));
    QVERIFY(all.at(1).at.isValid());
    QCOMPARE(store->auditLog({ u"run"_s, u"8"_s, 0, 0 })->size(), 1);
    QCOMPARE(store->auditLog({ QString(), QString(), all.at(0).id, 0 })->size(), 1);
    QCOMPARE(store->auditLog({ QString(), QString(), 0, 1 })->size(), 1);
    QCOMPARE(store->auditLog({ u"suite"_s, QString(), 0, 0 })->size(), 0);
}

void TestStore::storedVerdicts_data()
{
    addBackendRows();
}

void TestStore::storedVerdicts()
{
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    auto f = makeFixture(location);
    QVERIFY(f.store);
    QVERIFY(f.store->keepsVerdicts());
    const auto ids = f.store
                         ->appendResponses({ response(f.run.id, f.cases.at(0).row, 0),
                             response(f.run.id, f.cases.at(0).row, 1), response(f.run.id, f.cases.at(1).row, 0) })
                         .value();
    RunRow other = f.run;
    const qint64 otherRun = f.store->createRun(other)->id;
    const qint64 otherId = f.store->appendResponses({ response(otherRun, f.cases.at(0).row, 0) })->constFirst();
    // Bytes of any value, NUL and bytes that are no UTF-8 included.
    const std::string a("\x01\x00\xff binary", 10);
    const std::string b("\x01\x02", 2);
    QVERIFY(
        f.store
            ->storeVerdicts({ { f.run.id, ids.at(2), 7, 1, a }, { f.run.id, ids.at(0), 0, 1, b },
                { f.run.id, ids.at(0), 7, 1, a }, { f.run.id, ids.at(1), 7, 2, b }, { otherRun, otherId, 7, 1, b } })
            .ok());
    // The same key again replaces what was kept (a damaged verdict is mended by keeping it again).
    QVERIFY(f.store->storeVerdicts({ { f.run.id, ids.at(2), 7, 1, b } }).ok());
    QVERIFY(f.store->storeVerdicts({ { f.run.id, ids.at(2), 7, 1, a } }).ok());
    QCOMPARE(f.store->storedVerdictCount().value(), 5);
    struct Seen
    {
        qint64 response, gold;
        std::string bytes;
        bool operator==(const Seen&) const = default;
    };
    const auto read = [&](qint64 run, int version) {
        std::vector<Seen> seen;
        const auto visited
            = f.store->forEachStoredVerdict(run, version, [&seen](qint64 r, qint64 g, std::string_view v) {
                  seen.push_back({ r, g, std::string(v) });
                  return true;
              });
        return visited.ok() && visited.value() == qint64(seen.size()) ? seen : std::vector<Seen> { { -1, -1, {} } };
    };
    // By response, then gold revision; only the run's and the version's.
    const std::vector<Seen> expected { { ids.at(0), 0, b }, { ids.at(0), 7, a }, { ids.at(2), 7, a } };
    QVERIFY(read(f.run.id, 1) == expected);
    QVERIFY(read(f.run.id, 2) == (std::vector<Seen> { { ids.at(1), 7, b } }));
    QVERIFY(read(otherRun, 1) == (std::vector<Seen> { { otherId, 7, b } }));
    QVERIFY(read(f.run.id, 3).empty());
    // Stopping early.
    int calls = 0;
    QCOMPARE(
        f.store->forEachStoredVerdict(f.run.id, 1, [&calls](qint64, qint64, std::string_view) { return ++calls < 2; })
            .value(),
        2);

    // A bad row refuses the whole batch; a response that is not stored too.
    QCOMPARE(
        f.store->storeVerdicts({ { f.run.id, ids.at(1), 7, 1, a }, { f.run.id, ids.at(1), 8, 1, {} } }).errorKind(),
        StoreErrorKind::InvalidArgument);
    QCOMPARE(f.store->storeVerdicts({ { 0, ids.at(1), 7, 1, a } }).errorKind(), StoreErrorKind::InvalidArgument);
    QVERIFY(!f.store->storeVerdicts({ { f.run.id, ids.at(1), 9, 1, a }, { f.run.id, 987654, 7, 1, a } }).ok());
    QCOMPARE(f.store->storedVerdictCount().value(), 5);

    QCOMPARE(f.store->dropStoredVerdictsExcept(1).value(), 1);
    QVERIFY(read(f.run.id, 2).empty());
    QCOMPARE(f.store->storedVerdictCount().value(), 4);
    // Version 1 is noted as the one kept: asked again, nothing is scanned (rows of another version added behind
    // the store's back stay); another version drops what is not its own.
    QVERIFY(f.store->storeVerdicts({ { f.run.id, ids.at(1), 7, 2, b } }).ok());
    QCOMPARE(f.store->dropStoredVerdictsExcept(1).value(), 0);
    QCOMPARE(f.store->storedVerdictCount().value(), 5);
    QCOMPARE(f.store->dropStoredVerdictsExcept(2).value(), 4);
    QVERIFY(read(f.run.id, 2) == (std::vector<Seen> { { ids.at(1), 7, b } }));
}

void TestStore::connectionsAreReleased_data()
{
    addBackendRows();
}

void TestStore::connectionsAreReleased()
{
    QFETCH(QString, backend);
    STORE_LOCATION(location, backend);
    const QStringList before = QSqlDatabase::connectionNames();
    {
        auto a = ResultStore::open(location);
        auto b = ResultStore::open(location);
        QVERIFY(a && b);
        QCOMPARE(QSqlDatabase::connectionNames().size(), before.size() + 2);
    }
    StoreError error;
    QVERIFY(!ResultStore::open(m_tmp.filePath(u"no/such/x.db"_s), {}, &error));
    QCOMPARE(QSqlDatabase::connectionNames(), before);
}

void TestStore::killedWriterLosesOnlyTheOpenBatch()
{
    const QString helper = QCoreApplication::applicationDirPath() + u"/storewriter"_s;
    QVERIFY2(QFileInfo(helper).isExecutable(), qPrintable(u"missing helper "_s + helper));
    const QString path = newLocation(kSqlite);
    qint64 runId = 0;
    QList<qint64> caseRows;
    {
        auto f = makeFixture(path);
        QVERIFY(f.store);
        runId = f.run.id;
        for (const CaseRow& c : std::as_const(f.cases))
            caseRows << c.row;
    }
    constexpr int batch = 25;
    QRandomGenerator rng(20240501);
    qint64 previous = 0;
    for (int round = 0; round < 10; ++round) {
        const int commitsBeforeKill = int(rng.bounded(0, 6)); // 0: kill while it opens the store
        const int extraMs = int(rng.bounded(0, 25));
        QProcess child;
        child.start(helper, { path, QString::number(runId), QString::number(batch), u"1000000"_s });
        QVERIFY2(child.waitForStarted(10000), qPrintable(child.errorString()));
        QByteArray out;
        const auto commitsSeen = [&out] { return int(out.count("committed ")); };
        QElapsedTimer clock;
        clock.start();
        while (commitsSeen() < commitsBeforeKill && clock.elapsed() < 30000 && child.state() == QProcess::Running) {
            child.waitForReadyRead(50);
            out += child.readAllStandardOutput();
        }
        QVERIFY2(child.state() == QProcess::Running,
            qPrintable(u"the writer stopped by itself: "_s + QString::fromLocal8Bit(child.readAllStandardError())));
        QTest::qSleep(extraMs);
        child.kill(); // SIGKILL
        QVERIFY(child.waitForFinished(10000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        out += child.readAllStandardOutput();

        qint64 reported = previous;
        static const QRegularExpression line(u"committed (\\d+)"_s);
        for (const auto& m : line.globalMatch(QString::fromLatin1(out)))
            reported = m.captured(1).toLongLong();

        StoreError error;
        auto store = ResultStore::open(path, {}, &error);
        QVERIFY2(store, qPrintable(error.message));
        QVERIFY2(store->checkIntegrity().ok(), qPrintable(store->checkIntegrity().errorMessage()));
        const auto responses = store->responses(runId).value();
        const qint64 stored = responses.size();
        // Every reported commit is there; at most one batch committed after the last report; no partial batch.
        QVERIFY2(stored >= reported, qPrintable(u"stored %1 < reported %2"_s.arg(stored).arg(reported)));
        QVERIFY2(stored <= reported + batch, qPrintable(u"stored %1, reported %2"_s.arg(stored).arg(reported)));
        QCOMPARE(stored % batch, 0);
        QVERIFY(stored >= previous);
        QSet<qint64> seen;
        for (const ResponseRow& r : responses) {
            const qint64 i = r.tokensIn.value_or(-1);
            QVERIFY(i >= 0 && i < stored);
            QVERIFY2(!seen.contains(i), "a response is stored twice");
            seen.insert(i);
            QCOMPARE(r.rawText, u"response #%1"_s.arg(i));
            QCOMPARE(r.caseRow, caseRows.at(i % caseRows.size()));
            QCOMPARE(r.repeat, int(i / caseRows.size()));
            QCOMPARE(r.tokensOut, std::optional<qint64>(2 * i));
        }
        qInfo("round %d: killed after %d commits (+%d ms): %lld stored, %lld reported", round, commitsBeforeKill,
            extraMs, stored, reported);
        previous = stored;
    }
    QVERIFY2(previous > 0, "the writer never committed anything");
}

void TestStore::killedGoldEditsLoseNothingCommitted()
{
    const QString helper = QCoreApplication::applicationDirPath() + u"/goldwriter"_s;
    QVERIFY2(QFileInfo(helper).isExecutable(), qPrintable(u"missing helper "_s + helper));
    const QString path = newLocation(kSqlite);
    qint64 suiteRow = 0;
    QList<qint64> caseRows;
    {
        auto f = makeFixture(path);
        QVERIFY(f.store);
        suiteRow = f.suite.row;
        for (const CaseRow& c : std::as_const(f.cases))
            caseRows << c.row;
    }
    QRandomGenerator rng(20261130);
    qint64 previous = 0;
    for (int round = 0; round < 10; ++round) {
        QProcess child;
        child.start(helper, { path, QString::number(suiteRow), u"1000000"_s });
        QVERIFY2(child.waitForStarted(10000), qPrintable(child.errorString()));
        QByteArray out;
        const int editsBeforeKill = int(rng.bounded(0, 30)); // 0: kill while it opens the store
        QElapsedTimer clock;
        clock.start();
        while (int(out.count("revised ")) < editsBeforeKill && clock.elapsed() < 30000
            && child.state() == QProcess::Running) {
            child.waitForReadyRead(20);
            out += child.readAllStandardOutput();
        }
        QVERIFY2(child.state() == QProcess::Running,
            qPrintable(u"the writer stopped by itself: "_s + QString::fromLocal8Bit(child.readAllStandardError())));
        child.kill();
        QVERIFY(child.waitForFinished(10000));
        out += child.readAllStandardOutput();
        qint64 reported = previous;
        static const QRegularExpression line(u"revised (\\d+)"_s);
        for (const auto& m : line.globalMatch(QString::fromLatin1(out)))
            reported = m.captured(1).toLongLong();

        StoreError error;
        auto store = ResultStore::open(path, {}, &error);
        QVERIFY2(store, qPrintable(error.message));
        QVERIFY2(store->checkIntegrity().ok(), qPrintable(store->checkIntegrity().errorMessage()));
        qint64 edits = 0;
        QSet<qint64> seen;
        for (const qint64 caseRow : std::as_const(caseRows)) {
            const QList<GoldRevision> revisions = store->goldRevisions(caseRow).value();
            for (qsizetype r = 0; r < revisions.size(); ++r) {
                QCOMPARE(revisions.at(r).revision, int(r)); // 0, 1, 2, … with no gap and no repeat
                if (r == 0)
                    continue;
                const qint64 n = revisions.at(r).gold.value("edit", qint64(-1));
                QVERIFY2(n >= 0 && !seen.contains(n), "an edit is missing its gold or is stored twice");
                QCOMPARE(caseRows.at(n % caseRows.size()), caseRow);
                QCOMPARE(revisions.at(r).reason, u"edit #%1"_s.arg(n));
                seen.insert(n);
                ++edits;
            }
        }
        qint64 audited = 0;
        const QList<AuditEntry> audit = store->auditLog({ u"case"_s, {}, 0, 0 }).value();
        for (const AuditEntry& e : audit) {
            if (e.action != u"gold.revise"_s)
                continue;
            QVERIFY(seen.contains(e.details.value("after", nlohmann::json::object()).value("edit", qint64(-1))));
            ++audited;
        }
        QCOMPARE(audited, edits); // a revision and its audit entry are one transaction
        // Every reported edit is there; at most the one in flight at the kill beyond that; edits 0..k-1.
        QVERIFY2(edits >= reported && edits <= reported + 1,
            qPrintable(u"round %1: %2 stored, %3 reported"_s.arg(round).arg(edits).arg(reported)));
        QVERIFY(edits >= previous);
        for (qint64 n = 0; n < edits; ++n)
            QVERIFY(seen.contains(n));
        previous = edits;
    }
    QVERIFY2(previous > 0, "the writer never committed an edit");
    qInfo("%lld gold edits survived ten SIGKILLs", static_cast<long long>(previous));
}

void TestStore::fullDiskKeepsWhatWasCommitted()
{
    const QString helper = QCoreApplication::applicationDirPath() + u"/storewriter"_s;
    QVERIFY2(QFileInfo(helper).isExecutable(), qPrintable(u"missing helper "_s + helper));
    const QString path = newLocation(kSqlite);
    qint64 runId = 0;
    {
        auto f = makeFixture(path);
        QVERIFY(f.store);
        runId = f.run.id;
    }
    // Room for a few hundred small responses past the current size.
    const rlim_t limit = rlim_t(QFileInfo(path).size() + 96 * 1024 + 123);
    constexpr int batch = 25;
    QProcess child;
    child.setChildProcessModifier([limit] {
        ::signal(SIGXFSZ, SIG_IGN); // else the kernel kills the writer instead of failing its write
        const rlimit fileSize { limit, limit };
        ::setrlimit(RLIMIT_FSIZE, &fileSize);
    });
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"LIBC_FATAL_STDERR_"_s, u"1"_s);
    child.setProcessEnvironment(env);
    child.start(helper, { path, QString::number(runId), QString::number(batch), u"1000000"_s });
    QVERIFY2(child.waitForStarted(10000), qPrintable(child.errorString()));
    QVERIFY(child.waitForFinished(120000));
    const QString out = QString::fromLatin1(child.readAllStandardOutput());
    const QString err = QString::fromLocal8Bit(child.readAllStandardError());
    QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 2,
        qPrintable(u"exit %1, %2: %3"_s.arg(child.exitCode()).arg(int(child.exitStatus())).arg(err)));
    // SQLite meets the limit as EFBIG (disk I/O error); on a real full disk it reports SQLITE_FULL. Both say so.
    QVERIFY2(err.contains(u"full"_s) && err.contains(u"everything stored before is intact"_s), qPrintable(err));
    qint64 reported = 0;
    static const QRegularExpression line(u"committed (\\d+)"_s);
    for (const auto& m : line.globalMatch(out))
        reported = m.captured(1).toLongLong();
    QVERIFY2(reported >= batch, qPrintable(u"nothing was committed before the disk filled: "_s + err));

    StoreError error;
    auto store = ResultStore::open(path, {}, &error);
    QVERIFY2(store, qPrintable(error.message));
    QVERIFY2(store->checkIntegrity().ok(), qPrintable(store->checkIntegrity().errorMessage()));
    const auto responses = store->responses(runId).value();
    QCOMPARE(qint64(responses.size()), reported); // every commit, and nothing of the failed batch
    for (const ResponseRow& r : responses)
        QCOMPARE(r.rawText, u"response #%1"_s.arg(r.tokensIn.value_or(-1)));
    // Space again: the writer carries on where the committed responses end.
    QProcess again;
    again.start(helper, { path, QString::number(runId), QString::number(batch), QString::number(reported + batch) });
    QVERIFY(again.waitForFinished(60000));
    QCOMPARE(again.exitCode(), 0);
    QCOMPARE(store->responseCount(runId).value(), reported + batch);
    qInfo("the file size limit stopped the writer after %lld responses: %s", static_cast<long long>(reported),
        qPrintable(err.trimmed()));
}

QTEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"
