// Gold auditing (core/audit): the suspicious-gold queue, triage, the gold editing service and the export of
// the corrected suite. The stores are built from tests/data/audit (see its README): c-1's gold age is 14,
// three of four models answer 41.
#include "auditfixtures.h"

#include "audit/auditqueue.h"
#include "audit/goldchangelog.h"
#include "audit/goldeditor.h"
#include "audit/goldexport.h"
#include "audit/goldpatch.h"
#include "audit/suiterebuild.h"
#include "audit/triage.h"
#include "store/resultstore.h"
#include "store/storelocation.h"
#include "suite/preflight.h"
#include "suite/suiteloader.h"

#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace structscope;
using nlohmann::json;
using namespace structscope::auditfixtures;

namespace {

const char* const kPgEnv = "STRUCTSCOPE_TEST_PG";

} // namespace

class TestAudit : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_pgBase;
    QStringList m_pgSchemas;
    int m_counter = 0;

    /// A new, empty store location: a SQLite file, or a PostgreSQL schema of its own ("" when unavailable).
    QString newLocation(const QString& backend = u"sqlite"_s)
    {
        ++m_counter;
        if (backend == u"sqlite"_s)
            return m_tmp.filePath(u"audit-%1.db"_s.arg(m_counter));
        if (m_pgBase.isEmpty())
            return {};
        const QString schema = u"tst_audit_%1_%2"_s.arg(QCoreApplication::applicationPid()).arg(m_counter);
        m_pgSchemas << schema;
        return m_pgBase + (m_pgBase.contains(u'?') ? u'&' : u'?') + u"schema="_s + schema;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_pgBase = qEnvironmentVariable(kPgEnv);
    }

    void cleanup()
    {
        if (m_pgSchemas.isEmpty())
            return;
        const auto location = StoreLocation::parse(m_pgBase);
        if (!location)
            return;
        const QString name = u"tst-audit-cleanup"_s;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(u"QPSQL"_s, name);
            db.setHostName(location->host);
            db.setPort(location->port);
            db.setUserName(location->user);
            db.setPassword(location->password);
            db.setDatabaseName(location->database);
            if (db.open()) {
                QSqlQuery query(db);
                query.exec(u"SET client_min_messages = warning"_s);
                for (const QString& schema : std::as_const(m_pgSchemas))
                    query.exec(u"DROP SCHEMA IF EXISTS %1 CASCADE"_s.arg(schema));
            }
            db.close();
        }
        QSqlDatabase::removeDatabase(name);
        m_pgSchemas.clear();
    }

    // ---- the queue ------------------------------------------------------------------------------

    void queueFindsConsensusAgainstGold_data()
    {
        QTest::addColumn<int>("minModels");
        QTest::addColumn<double>("minSupport");
        QTest::addColumn<QStringList>("expected");
        // c-1 age: 3 of 4 say 41. c-3 species: 2 of 4 say dog. c-2 city: 2 of 2 say Bergen.
        QTest::addRow("METRICS defaults") << 3 << 0.6 << QStringList { u"c-1:age:0.75"_s };
        QTest::addRow("half is enough") << 3 << 0.5 << QStringList { u"c-1:age:0.75"_s, u"c-3:species:0.5"_s };
        QTest::addRow("two models are enough") << 2 << 0.6 << QStringList { u"c-2:city:1"_s, u"c-1:age:0.75"_s };
        QTest::addRow("all must agree") << 3 << 1.0 << QStringList {};
        QTest::addRow("more models than answered") << 5 << 0.6 << QStringList {};
    }

    void queueFindsConsensusAgainstGold()
    {
        QFETCH(int, minModels);
        QFETCH(double, minSupport);
        QFETCH(QStringList, expected);
        const Workspace w = makeWorkspace(newLocation());
        QVERIFY(w.store);
        AuditOptions options;
        options.suspicion.minModels = minModels;
        options.suspicion.minSupport = minSupport;
        const AuditQueue queue = buildAuditQueue(*w.store, options);
        QVERIFY2(queue.ok(), qPrintable(queue.error));
        QCOMPARE(itemKeys(queue), expected);
        QCOMPARE(queue.suites, 1);
        QCOMPARE(queue.cases, 3);
    }

    void queueItemCarriesCaseGoldConsensusAndModels()
    {
        const Workspace w = makeWorkspace(newLocation());
        QVERIFY(w.store);
        const AuditQueue queue = buildAuditQueue(*w.store);
        QVERIFY2(queue.ok(), qPrintable(queue.error));
        QCOMPARE(queue.items.size(), std::size_t(1));
        const AuditItem& item = queue.items.front();
        QCOMPARE(item.suiteId, u"audit-tiny"_s);
        QCOMPARE(item.suiteRow, w.suite.row);
        QCOMPARE(item.caseId, u"c-1"_s);
        QCOMPARE(item.caseRow, w.row("c-1"));
        QCOMPARE(item.category, u"person"_s);
        QCOMPARE(QString::fromStdString(item.path), QStringLiteral("age"));
        QCOMPARE(QString::fromStdString(item.pointer), QStringLiteral("/age"));
        QVERIFY(item.gold.has_value());
        QCOMPARE_JSON(*item.gold, json(14));
        QCOMPARE_JSON(item.originalGold, json(14));
        QCOMPARE_JSON(item.consensus, json(41));
        QVERIFY(!item.consensusAbsent);
        QVERIFY(!item.goldChanged);
        QCOMPARE(item.goldRevision, 0);
        QCOMPARE(item.agreeing, 3);
        // m-e only failed, and m-d's unparsable rerun does not replace its parsed answer: still 4 heard.
        QCOMPARE(item.answered, 4);
        QCOMPARE(item.support, 0.75);
        QCOMPARE(item.agreeingModels, (QStringList { u"m-a"_s, u"m-b"_s, u"m-c"_s }));
        QCOMPARE(item.answers.size(), std::size_t(4));
        QCOMPARE(item.answers[3].model, u"m-d"_s);
        QCOMPARE_JSON(item.answers[3].value.value_or(json("absent")), json(14));
        QCOMPARE(item.triage.state, TriageState::Open);
        QVERIFY(item.triage.author.isEmpty());

        // Every model misses "cat" in c-3 (dog, dog, bird, fish): category pet fails alike.
        QCOMPARE(queue.uniformFailures.size(), std::size_t(1));
        const CategoryFlag& flag = queue.uniformFailures.front();
        QCOMPARE(flag.suiteId, u"audit-tiny"_s);
        QCOMPARE(flag.flag.category, u"pet"_s);
        QCOMPARE(flag.flag.models, 4);
        QCOMPARE(flag.flag.minRate, 1.0);
        QCOMPARE(flag.rates.size(), std::size_t(4));
        QVERIFY(queue.preflight.empty());
    }

    void preflightReportsStoredGoldThatBreaksItsSchema()
    {
        const Workspace w = makeWorkspace(newLocation());
        QVERIFY(w.store);
        // Behind the editor's back: the store itself does not validate.
        QVERIFY(w.store->addGoldRevision(w.row("c-2"), j(R"({"name": "Bo", "age": -3})"), u"x"_s, u"raw"_s, 0).ok());
        const AuditQueue queue = buildAuditQueue(*w.store);
        QVERIFY2(queue.ok(), qPrintable(queue.error));
        QCOMPARE(queue.preflight.size(), std::size_t(1));
        const Problems& problems = queue.preflight.front().problems;
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems.at(0).file, u"cases.jsonl"_s);
        QCOMPARE(problems.at(0).line, 2);
        QCOMPARE(problems.at(0).pointer, u"/gold/age"_s);
        QVERIFY2(problems.at(0).message.startsWith(u"case c-2: gold does not match its schema"_s),
            qPrintable(problems.at(0).message));
    }

    // ---- triage ---------------------------------------------------------------------------------

    void triageRoundTrip()
    {
        const Workspace w = makeWorkspace(newLocation());
        QVERIFY(w.store);
        const auto dismissed = setTriageState(
            *w.store, { w.row("c-1"), "age", {}, TriageState::Dismissed, u"ann"_s, u"looks fine to me"_s });
        QVERIFY2(dismissed.ok(), qPrintable(dismissed.errorMessage()));
        AuditQueue queue = buildAuditQueue(*w.store);
        const AuditItem* item = findItem(queue, u"c-1"_s, "age");
        QVERIFY(item);
        QCOMPARE(item->triage.state, TriageState::Dismissed);
        QCOMPARE(item->triage.author, u"ann"_s);
        QCOMPARE(item->triage.note, u"looks fine to me"_s);
        QCOMPARE(item->triage.goldRevision, 0);
        QVERIFY(item->triage.at.isValid());
        QVERIFY(!item->triage.byGoldRevision);

        // The latest entry wins.
        QVERIFY(setTriageState(*w.store, { w.row("c-1"), "age", "/age", TriageState::GoldConfirmed, u"bob"_s, {} }));
        queue = buildAuditQueue(*w.store);
        item = findItem(queue, u"c-1"_s, "age");
        QVERIFY(item);
        QCOMPARE(item->triage.state, TriageState::GoldConfirmed);
        QCOMPARE(item->triage.author, u"bob"_s);

        const auto log = w.store->auditLog({ u"case"_s, QString::number(w.row("c-1")), 0, 0 }).value();
        QCOMPARE(log.size(), 2);
        QCOMPARE(log.at(0).action, u"audit.triage"_s);
        QCOMPARE_JSON(log.at(0).details["path"], json("age"));
        QCOMPARE_JSON(log.at(0).details["state"], json("dismissed"));
        QCOMPARE_JSON(log.at(0).details["note"], json("looks fine to me"));
        QCOMPARE_JSON(log.at(1).details["state"], json("gold_confirmed"));

        // Refused: no author; an unknown case.
        QVERIFY(!setTriageState(*w.store, { w.row("c-1"), "age", {}, TriageState::Fixed, u" "_s, {} }));
        const auto unknown = setTriageState(*w.store, { 987654, "age", {}, TriageState::Fixed, u"ann"_s, {} });
        QVERIFY(!unknown);
        QCOMPARE(unknown.errorKind(), StoreErrorKind::NotFound);
        QVERIFY(triageStateFromName(u"gold_confirmed"_s) == TriageState::GoldConfirmed);
        QVERIFY(!triageStateFromName(u"closed"_s));
    }

    void goldChangeShowsItemAsFixed()
    {
        const Workspace w = makeWorkspace(newLocation());
        QVERIFY(w.store);
        QVERIFY(setTriageState(*w.store, { w.row("c-1"), "age", {}, TriageState::Dismissed, u"ann"_s, {} }));
        const auto fixed = applyLeafEdit(
            *w.store, { w.row("c-1"), "/age", json(41), u"bob"_s, u"the text says 41"_s, 0 });
        QVERIFY2(fixed.ok(), qPrintable(fixed.message));

        // The gold now agrees with the consensus; the item stays listed, as fixed by bob's revision.
        AuditQueue queue = buildAuditQueue(*w.store);
        QCOMPARE(itemKeys(queue), QStringList { u"c-1:age:0.75"_s });
        const AuditItem& item = queue.items.front();
        QCOMPARE_JSON(item.gold.value_or(json("absent")), json(41));
        QCOMPARE_JSON(item.originalGold, json(14));
        QVERIFY(item.goldChanged);
        QCOMPARE(item.goldRevision, 1);
        QCOMPARE(item.triage.state, TriageState::Fixed);
        QVERIFY(item.triage.byGoldRevision);
        QCOMPARE(item.triage.author, u"bob"_s);
        QCOMPARE(item.triage.note, u"the text says 41"_s);
        QCOMPARE(item.triage.goldRevision, 1);

        // Without the Fixed pass the item is gone: the current gold is not suspicious.
        AuditOptions options;
        options.includeFixed = false;
        QVERIFY(buildAuditQueue(*w.store, options).items.empty());

        // Undo restores 14: ann's dismissal counts again.
        QVERIFY(undoGoldRevision(*w.store, w.row("c-1"), u"bob"_s, 1).ok());
        queue = buildAuditQueue(*w.store);
        QCOMPARE(itemKeys(queue), QStringList { u"c-1:age:0.75"_s });
        QCOMPARE(queue.items.front().triage.state, TriageState::Dismissed);
        QCOMPARE(queue.items.front().triage.author, u"ann"_s);
        QVERIFY(!queue.items.front().goldChanged);
    }

    // ---- editing --------------------------------------------------------------------------------

    void acceptValueThenUndo()
    {
        const Workspace w = makeWorkspace(newLocation());
        QVERIFY(w.store);
        const qint64 row = w.row("c-1");
        const auto accepted = applyLeafEdit(*w.store, { row, "/age", json(41), u"ann"_s, u"accept m-a's value"_s, 0 });
        QVERIFY2(accepted.ok(), qPrintable(accepted.message));
        QCOMPARE(accepted.added.revision, 1);
        QCOMPARE_JSON(accepted.added.gold, j(R"({"name": "Ann", "age": 41, "city": "Oslo"})"));
        QCOMPARE_JSON(w.store->currentGold(row)->gold, accepted.added.gold);

        const auto undone = undoGoldRevision(*w.store, row, u"ann"_s, 1, u"wrong case"_s);
        QVERIFY2(undone.ok(), qPrintable(undone.message));
        QCOMPARE(undone.added.revision, 2);
        QCOMPARE_JSON(undone.added.gold, j(R"({"name": "Ann", "age": 14, "city": "Oslo"})"));
        QCOMPARE(undone.added.reason, u"undo: revision 1 (accept m-a's value); wrong case"_s);

        // Each save is on record: before, after, author, reason.
        const auto log = w.store->auditLog({ u"case"_s, QString::number(row), 0, 0 }).value();
        QCOMPARE(log.size(), 2);
        QCOMPARE(log.at(0).action, u"gold.revise"_s);
        QCOMPARE_JSON(log.at(0).details["before"]["age"], json(14));
        QCOMPARE_JSON(log.at(0).details["after"]["age"], json(41));
        QCOMPARE_JSON(log.at(1).details["after"]["age"], json(14));

        // Revision 0 cannot be undone; a stale undo is a conflict.
        QCOMPARE(undoGoldRevision(*w.store, w.row("c-2"), u"ann"_s, 0).status, GoldEditOutcome::Status::Invalid);
        QCOMPARE(undoGoldRevision(*w.store, row, u"ann"_s, 1).status, GoldEditOutcome::Status::Conflict);

        // Removing a key the schema does not require, in the inline-schema case too.
        const auto removed = applyLeafEdit(*w.store, { w.row("c-2"), "/city", std::nullopt, u"ann"_s, u"no city"_s, 0 });
        QVERIFY2(removed.ok(), qPrintable(removed.message));
        QCOMPARE_JSON(removed.added.gold, j(R"({"name": "Bo", "age": 30})"));
    }

    void staleEditConflicts_data()
    {
        QTest::addColumn<QString>("backend");
        QTest::newRow("sqlite") << u"sqlite"_s;
        QTest::newRow("postgres") << u"postgres"_s;
    }

    void staleEditConflicts()
    {
        QFETCH(QString, backend);
        const QString location = newLocation(backend);
        if (location.isEmpty())
            QSKIP("PostgreSQL tests skipped: set STRUCTSCOPE_TEST_PG=postgresql://user:pass@host:port/db to run them");
        const Workspace w = makeWorkspace(location);
        QVERIFY(w.store);
        auto bob = ResultStore::open(location);
        QVERIFY(bob);
        const qint64 row = w.row("c-1");
        const json annGold = j(R"({"name": "Ann", "age": 41, "city": "Oslo"})");
        const json bobGold = j(R"({"name": "Ann", "age": 14, "city": "Bergen"})");

        const auto ann = applyGoldEdit(*w.store, { row, annGold, u"ann"_s, u"text says 41"_s, 0 });
        QVERIFY2(ann.ok(), qPrintable(ann.message));
        const auto stale = applyGoldEdit(*bob, { row, bobGold, u"bob"_s, u"moved to Bergen"_s, 0 });
        QCOMPARE(stale.status, GoldEditOutcome::Status::Conflict);
        QVERIFY2(stale.message.contains(u"changed by ann"_s), qPrintable(stale.message));
        QCOMPARE(stale.theirs.revision, 1);
        QCOMPARE(stale.theirs.author, u"ann"_s);
        QCOMPARE_JSON(stale.theirs.gold, annGold);
        QCOMPARE(stale.mine.author, u"bob"_s);
        QCOMPARE_JSON(stale.mine.gold, bobGold);
        QCOMPARE(bob->goldRevisions(row)->size(), 2);
        QCOMPARE_JSON(bob->currentGold(row)->gold, annGold);

        // A leaf edit from the stale revision conflicts too; from the latest one it is stored.
        QCOMPARE(applyLeafEdit(*bob, { row, "/city", json("Bergen"), u"bob"_s, u"moved"_s, 0 }).status,
            GoldEditOutcome::Status::Conflict);
        const auto merged = applyLeafEdit(*bob, { row, "/city", json("Bergen"), u"bob"_s, u"moved"_s, 1 });
        QVERIFY2(merged.ok(), qPrintable(merged.message));
        QCOMPARE_JSON(merged.added.gold, j(R"({"name": "Ann", "age": 41, "city": "Bergen"})"));
    }

    void invalidEditIsRefused_data()
    {
        QTest::addColumn<QString>("caseId");
        QTest::addColumn<QString>("gold");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("pointer"); ///< of the first schema error ("-": refused without schema errors)
        QTest::addRow("string age") << u"c-1"_s << uR"({"name": "Ann", "age": "41"})"_s << u"fix"_s << u"/age"_s;
        QTest::addRow("negative age") << u"c-1"_s << uR"({"name": "Ann", "age": -1})"_s << u"fix"_s << u"/age"_s;
        QTest::addRow("unknown key") << u"c-2"_s << uR"({"name": "Bo", "age": 30, "pet": "cat"})"_s << u"fix"_s
                                     << u"/pet"_s;
        QTest::addRow("inline schema") << u"c-3"_s << uR"({"species": 7})"_s << u"fix"_s << u"/species"_s;
        QTest::addRow("no reason") << u"c-1"_s << uR"({"name": "Ann", "age": 41})"_s << u" "_s << u"-"_s;
    }

    void invalidEditIsRefused()
    {
        QFETCH(QString, caseId);
        QFETCH(QString, gold);
        QFETCH(QString, reason);
        QFETCH(QString, pointer);
        const Workspace w = makeWorkspace(newLocation());
        QVERIFY(w.store);
        const qint64 row = w.caseRows.value(caseId);
        const auto outcome = applyGoldEdit(*w.store, { row, json::parse(gold.toStdString()), u"ann"_s, reason, 0 });
        QCOMPARE(outcome.status, GoldEditOutcome::Status::Invalid);
        QVERIFY(!outcome.message.isEmpty());
        if (pointer == u"-"_s) {
            QVERIFY(outcome.schemaErrors.empty());
        } else {
            QVERIFY(!outcome.schemaErrors.empty());
            QCOMPARE(QString::fromStdString(outcome.schemaErrors.front().pointer), pointer);
        }
        QCOMPARE(w.store->goldRevisions(row)->size(), 1);
        QVERIFY(w.store->auditLog({ u"case"_s, QString::number(row), 0, 0 })->isEmpty());
    }

    void goldPatches_data()
    {
        QTest::addColumn<QString>("doc");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value"); ///< "" removes
        QTest::addColumn<QString>("expected"); ///< "" for an error
        QTest::addRow("replace") << uR"({"a": 1})"_s << u"/a"_s << u"2"_s << uR"({"a":2})"_s;
        QTest::addRow("add key") << uR"({"a": 1})"_s << u"/b"_s << u"null"_s << uR"({"a":1,"b":null})"_s;
        QTest::addRow("remove key") << uR"({"a": 1, "b": 2})"_s << u"/a"_s << QString() << uR"({"b":2})"_s;
        QTest::addRow("array element") << uR"({"a": [1, 2]})"_s << u"/a/1"_s << u"3"_s << uR"({"a":[1,3]})"_s;
        QTest::addRow("append") << uR"({"a": [1]})"_s << u"/a/1"_s << u"3"_s << uR"({"a":[1,3]})"_s;
        QTest::addRow("remove element") << uR"({"a": [1, 2]})"_s << u"/a/0"_s << QString() << uR"({"a":[2]})"_s;
        QTest::addRow("escaped key") << uR"({"a/b": 1})"_s << u"/a~1b"_s << u"2"_s << uR"({"a/b":2})"_s;
        QTest::addRow("whole document") << uR"({"a": 1})"_s << QString() << u"[]"_s << u"[]"_s;
        QTest::addRow("missing parent") << uR"({"a": 1})"_s << u"/x/y"_s << u"1"_s << QString();
        QTest::addRow("past the end") << uR"({"a": [1]})"_s << u"/a/2"_s << u"1"_s << QString();
        QTest::addRow("leading zero") << uR"({"a": [1]})"_s << u"/a/00"_s << u"1"_s << QString();
        QTest::addRow("into a scalar") << uR"({"a": 1})"_s << u"/a/b"_s << u"1"_s << QString();
        QTest::addRow("remove absent") << uR"({"a": 1})"_s << u"/b"_s << QString() << QString();
        QTest::addRow("malformed") << uR"({"a": 1})"_s << u"a"_s << u"1"_s << QString();
    }

    void goldPatches()
    {
        QFETCH(QString, doc);
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        std::optional<json> v;
        if (!value.isEmpty())
            v = json::parse(value.toStdString());
        const GoldPatch patch = withValueAt(json::parse(doc.toStdString()), pointer.toStdString(), v);
        if (expected.isEmpty()) {
            QVERIFY(!patch.document);
            QVERIFY(!patch.error.empty());
        } else {
            QVERIFY2(patch.document, patch.error.c_str());
            QCOMPARE(dumpJson(*patch.document), expected);
        }
    }

    // ---- export ---------------------------------------------------------------------------------

    void correctedVersion_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<int>("revisions");
        QTest::addColumn<QString>("expected");
        QTest::addRow("none") << u"1.0.0"_s << 0 << u"1.0.0"_s;
        QTest::addRow("first") << u"1.0.0"_s << 3 << u"1.0.0+gold.3"_s;
        QTest::addRow("again") << u"1.0.0+gold.3"_s << 2 << u"1.0.0+gold.5"_s;
        QTest::addRow("build metadata") << u"2.1+build.7"_s << 1 << u"2.1+build.7.gold.1"_s;
        QTest::addRow("again after metadata") << u"2.1+build.7.gold.1"_s << 1 << u"2.1+build.7.gold.2"_s;
        QTest::addRow("not semver") << u"2024-05"_s << 1 << u"2024-05+gold.1"_s;
    }

    void correctedVersion()
    {
        QFETCH(QString, version);
        QFETCH(int, revisions);
        QFETCH(QString, expected);
        QCOMPARE(correctedSuiteVersion(version, revisions), expected);
    }

    void leafChangesOfARevision()
    {
        const auto changes = goldLeafChanges(
            j(R"({"a": 1, "b": [1, 2], "c": "x"})"), j(R"({"a": 2, "b": [1], "c": "x", "d": null})"));
        QCOMPARE(changes.size(), std::size_t(3));
        QCOMPARE(QString::fromStdString(changes[0].path), QStringLiteral("a"));
        QCOMPARE_JSON(changes[0].before.value_or(json("absent")), json(1));
        QCOMPARE_JSON(changes[0].after.value_or(json("absent")), json(2));
        QCOMPARE(QString::fromStdString(changes[1].path), QStringLiteral("b[1]"));
        QVERIFY(!changes[1].after);
        QCOMPARE(QString::fromStdString(changes[2].path), QStringLiteral("d"));
        QVERIFY(!changes[2].before);
        // Only an empty container differs: the whole document is the change.
        const auto whole = goldLeafChanges(j(R"({"a": 1})"), j(R"({"a": 1, "b": {}})"));
        QCOMPARE(whole.size(), std::size_t(1));
        QVERIFY(whole[0].path.empty());
        QVERIFY(goldLeafChanges(j("[1]"), j("[1.0]")).empty());
    }

    void exportWritesALoadableCorrectedSuite()
    {
        const Workspace w = makeWorkspace(newLocation());
        QVERIFY(w.store);
        QVERIFY(applyLeafEdit(*w.store, { w.row("c-1"), "/age", json(41), u"ann"_s, u"the text says 41"_s, 0 }).ok());
        const QString out = m_tmp.filePath(u"export-%1"_s.arg(++m_counter));

        const GoldExportResult result = exportCorrectedSuite(*w.store, w.suite.row, out);
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.revisions, 1);
        QCOMPARE(result.casesChanged, 1);
        QCOMPARE(result.version, u"1.0.0+gold.1"_s);
        QVERIFY2(result.problems.isEmpty(), qPrintable(result.problems.value(0).toString()));
        QVERIFY(result.warnings.isEmpty());
        QCOMPARE(result.written,
            (QStringList { u"CHANGELOG.md"_s, u"cases.jsonl"_s, u"catalog.json"_s, u"schemas/person.json"_s,
                u"suite.json"_s }));

        const SuiteLoadResult loaded = loadSuiteDir(out);
        QVERIFY2(loaded.ok(), qPrintable(loaded.problems.value(0).toString()));
        const Problems preflight = preflightSuite(*loaded.suite);
        QVERIFY2(preflight.isEmpty(), qPrintable(preflight.value(0).toString()));
        const Suite& suite = *loaded.suite;
        QCOMPARE(suite.id, u"audit-tiny"_s);
        QCOMPARE(suite.version, u"1.0.0+gold.1"_s);
        QVERIFY(!suite.manifest.contains("schema_documents"));
        QVERIFY(!suite.manifest.contains("catalog"));
        QCOMPARE_JSON(suite.manifest["gold_corrections"],
            j(R"({"base_version": "1.0.0", "revisions": 1, "cases": 1, "changelog": "CHANGELOG.md"})"));
        QCOMPARE_JSON(suite.catalog, j(R"({"cities": ["Oslo", "Bergen"]})"));
        QCOMPARE(suite.cases.size(), 3);
        for (const SuiteCase& c : suite.cases)
            QCOMPARE_JSON(c.gold, w.store->currentGold(w.caseRows.value(c.id))->gold);
        QCOMPARE_JSON(suite.cases.at(0).gold["age"], json(41));
        const SuiteCase& pet = suite.cases.at(2);
        QCOMPARE(pet.id, u"c-3"_s);
        QCOMPARE(pet.tier, u"hard"_s);
        QCOMPARE(pet.question.value_or(QString()), u"Which animal?"_s);
        QCOMPARE_JSON(pet.inlineSchema["required"], j(R"(["species"])"));
        QCOMPARE_JSON(pet.extra, j(R"({"source_kind": "synthetic"})"));
        QCOMPARE(suite.cases.at(1).schemaName, u"person"_s);

        QFile lines(QDir(out).filePath(u"cases.jsonl"_s));
        QVERIFY(lines.open(QIODevice::ReadOnly));
        QVERIFY(lines.readLine().startsWith(R"({"id": "c-1", "category": "person", "tier": "easy", "input": )"));

        QFile changelog(QDir(out).filePath(u"CHANGELOG.md"_s));
        QVERIFY(changelog.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(changelog.readAll());
        QVERIFY2(text.contains(u"## Case `c-1`"_s), qPrintable(text));
        QVERIFY2(text.contains(u"### Revision 1: "_s), qPrintable(text));
        QVERIFY2(text.contains(u", by ann"_s), qPrintable(text));
        QVERIFY2(text.contains(u"> the text says 41"_s), qPrintable(text));
        QVERIFY2(text.contains(u"- `age`: `14` → `41`"_s), qPrintable(text));
        QVERIFY2(!text.contains(u"c-2"_s), qPrintable(text));
    }

    void changelogShowsStoredTextAsText()
    {
        const Workspace w = makeWorkspace(newLocation());
        QVERIFY(w.store);
        QVERIFY(applyLeafEdit(*w.store, { w.row("c-1"), "/age", json(41), u"<img src=x>"_s, u"a < b & c"_s, 0 }).ok());
        const QString out = m_tmp.filePath(u"export-%1"_s.arg(++m_counter));
        const GoldExportResult result = exportCorrectedSuite(*w.store, w.suite.row, out);
        QVERIFY2(result.ok(), qPrintable(result.error));
        QFile changelog(QDir(out).filePath(u"CHANGELOG.md"_s));
        QVERIFY(changelog.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(changelog.readAll());
        QVERIFY2(text.contains(u", by &lt;img src=x&gt;"_s), qPrintable(text));
        QVERIFY2(text.contains(u"> a &lt; b &amp; c"_s), qPrintable(text));
        QVERIFY2(!text.contains(u"<img"_s), qPrintable(text));
    }

    void exportRefusesANonEmptyFolderUnlessForced()
    {
        const Workspace w = makeWorkspace(newLocation());
        QVERIFY(w.store);
        const QString out = m_tmp.filePath(u"export-%1"_s.arg(++m_counter));
        QVERIFY(QDir().mkpath(out));
        {
            QFile stray(QDir(out).filePath(u"catalog.json"_s));
            QVERIFY(stray.open(QIODevice::WriteOnly));
            stray.write("{}");
        }
        GoldExportResult result = exportCorrectedSuite(*w.store, w.suite.row, out);
        QVERIFY(!result.ok());
        QVERIFY2(result.error.contains(u"is not empty; pass --force"_s), qPrintable(result.error));
        QVERIFY(!QFile::exists(QDir(out).filePath(u"suite.json"_s)));

        GoldExportOptions options;
        options.force = true;
        result = exportCorrectedSuite(*w.store, w.suite.row, out, options);
        QVERIFY2(result.ok(), qPrintable(result.error));
        // No revision: the suite is written as imported, same version, no note.
        QCOMPARE(result.revisions, 0);
        QCOMPARE(result.version, u"1.0.0"_s);
        const SuiteLoadResult loaded = loadSuiteDir(out);
        QVERIFY2(loaded.ok(), qPrintable(loaded.problems.value(0).toString()));
        QVERIFY(!loaded.suite->manifest.contains("gold_corrections"));
        QCOMPARE_JSON(loaded.suite->catalog, j(R"({"cities": ["Oslo", "Bergen"]})"));

        const auto byId = findStoredSuite(*w.store, u"audit-tiny"_s);
        QVERIFY(byId);
        QCOMPARE(byId->row, w.suite.row);
        QCOMPARE(findStoredSuite(*w.store, u"nope"_s).errorKind(), StoreErrorKind::NotFound);
        QVERIFY(!exportCorrectedSuite(*w.store, w.suite.row, QDir(out).filePath(u"suite.json"_s)).ok());
    }
};

QTEST_GUILESS_MAIN(TestAudit)
#include "tst_audit.moc"
