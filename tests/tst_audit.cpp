// SPDX-License-Identifier: Apache-2.0
// Gold auditing (core/audit): the suspicious-gold queue, triage, the gold editing service and the export of
// the corrected suite. The stores are built from tests/data/audit (see its README): c-1's gold age is 14,
// three of four models answer 41.
#include "auditfixtures.h"

#include "audit/auditjson.h"
#include "audit/auditqueue.h"
#include "audit/casefindings.h"
#include "audit/goldchangelog.h"
#include "audit/goldeditor.h"
#include "audit/goldexport.h"
#include "audit/goldpatch.h"
#include "audit/sourcesnippet.h"
#include "audit/suiterebuild.h"
#include "audit/triage.h"
#include "preflight/preflight.h"
#include "stats/intervals.h"
#include "store/resultstore.h"
#include "store/storelocation.h"
#include "suite/suiteloader.h"
#include "json/datetext.h"

#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <random>
#include <set>
#include <tuple>

using namespace Qt::StringLiterals;
using namespace structscope;
using nlohmann::json;
using namespace structscope::auditfixtures;

namespace {

const char* const kPgEnv = "STRUCTSCOPE_TEST_PG";

/// A SOB case that three of four models ("ma" to "mc") answer with `most`, the fourth ("md") with the gold.
SobCase threeAgainstGold(const char* id, const char* context, const char* gold, const char* most)
{
    const QStringList models { u"ma"_s, u"mb"_s, u"mc"_s, u"md"_s };
    SobCase c { QString::fromLatin1(id), QString::fromUtf8(context), j(gold), {} };
    for (int i = 0; i < 3; ++i)
        c.answers.push_back({ models.at(i), j(most) });
    c.answers.push_back({ models.at(3), j(gold) });
    return c;
}

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
    void initTestCase();
    void cleanup();
    // ---- the queue ------------------------------------------------------------------------------

    void queueFindsConsensusAgainstGold_data();
    void queueFindsConsensusAgainstGold();
    void queueItemCarriesCaseGoldConsensusAndModels();
    void preflightReportsStoredGoldThatBreaksItsSchema();
    // ---- alignment before consensus (hand-built gold, four models) -----------------------------

    void alignmentSortsFindingsIntoKinds_data();
    void alignmentSortsFindingsIntoKinds();
    void missingElementCarriesTheProposedElement();
    void formatVariants_data();
    void formatVariants();
    void formatVariantsOfRandomTexts();
    void formatVariantsOfLongTexts();
    void sourceSnippets();
    // ---- the queue on SOB records: ranking, groups, format batch, accept -------------------------

    std::vector<SobCase> rankingCases() const;
    void queueRanksByKindAndEvidenceAndGroupsByArray();
    void elementSplitOutOfAGoldElementIsGranularity();
    void modelsThatGiveNothingAreBackedWhereTheInputLacksTheGold();
    void acceptInsertsTheMissingElementAsARevision();
    void insertPatches_data();
    void insertPatches();
    // ---- precision on real data: hand-labelled SOB findings (tests/data/audit-sob) -----------------

    void sobSamplePrecision();
    // ---- triage ---------------------------------------------------------------------------------

    void triageRoundTrip();
    void goldChangeShowsItemAsFixed();
    // ---- editing --------------------------------------------------------------------------------

    void acceptValueThenUndo();
    void staleEditConflicts_data();
    void staleEditConflicts();
    void invalidEditIsRefused_data();
    void invalidEditIsRefused();
    void goldPatches_data();
    void goldPatches();
    // ---- export ---------------------------------------------------------------------------------

    void correctedVersion_data();
    void correctedVersion();
    void leafChangesOfARevision();
    void exportWritesALoadableCorrectedSuite();
    void changelogShowsStoredTextAsText();
    void exportRefusesANonEmptyFolderUnlessForced();
};

void TestAudit::initTestCase()
{
    QVERIFY(m_tmp.isValid());
    m_pgBase = qEnvironmentVariable(kPgEnv);
}

void TestAudit::cleanup()
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

void TestAudit::queueFindsConsensusAgainstGold_data()
{
    QTest::addColumn<int>("minModels");
    QTest::addColumn<double>("minSupport");
    QTest::addColumn<QStringList>("expected");
    // c-1 age: 3 of 4 say 41. c-3 species: 2 of 4 say dog. c-2 city: 2 of 2 say Bergen.
    QTest::addRow("METRICS defaults") << 3 << 0.6 << QStringList { u"c-1:age:0.75"_s };
    QTest::addRow("half is enough") << 3 << 0.5 << QStringList { u"c-1:age:0.75"_s, u"c-3:species:0.5"_s };
    // Ranked by evidence before support: the text holds c-1's 41, but not c-2's Bergen.
    QTest::addRow("two models are enough") << 2 << 0.6 << QStringList { u"c-1:age:0.75"_s, u"c-2:city:1"_s };
    QTest::addRow("all must agree") << 3 << 1.0 << QStringList {};
    QTest::addRow("more models than answered") << 5 << 0.6 << QStringList {};
}

void TestAudit::queueFindsConsensusAgainstGold()
{
    QFETCH(int, minModels);
    QFETCH(double, minSupport);
    QFETCH(QStringList, expected);
    const Workspace w = makeWorkspace(newLocation());
    QVERIFY(w.store);
    AuditOptions options;
    options.suspicion.minModels = minModels;
    options.suspicion.minSupport = minSupport;
    options.listGoldTheInputHolds = true; // c-3's "cat" is in its input, "dog" is not
    const AuditQueue queue = buildAuditQueue(*w.store, options);
    QVERIFY2(queue.ok(), qPrintable(queue.error));
    QCOMPARE(itemKeys(queue), expected);
    QCOMPARE(queue.suites, 1);
    QCOMPARE(queue.cases, 3);
    // By default a consensus against a gold the input holds (and the consensus not) is left out, and so is
    // a value the input does not hold where gold has null (c-2's "Bergen").
    options.listGoldTheInputHolds = false;
    expected.removeAll(u"c-3:species:0.5"_s);
    expected.removeAll(u"c-2:city:1"_s);
    QCOMPARE(itemKeys(buildAuditQueue(*w.store, options)), expected);
}

void TestAudit::queueItemCarriesCaseGoldConsensusAndModels()
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

void TestAudit::preflightReportsStoredGoldThatBreaksItsSchema()
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

void TestAudit::alignmentSortsFindingsIntoKinds_data()
{
    QTest::addColumn<QString>("gold");
    QTest::addColumn<QStringList>("answers"); ///< m-1 … m-4
    QTest::addColumn<QStringList>("expected"); ///< "kind:path", sorted
    const QString full = uR"({"h": [{"year": 1964, "pints": 294, "notes": "largest"}]})"_s;
    const QString more = uR"({"h": [{"year": 1962, "pints": 211, "notes": "first"},
                                         {"year": 1964, "pints": 294, "notes": "largest"}]})"_s;
    // Gold lacks the 1962 row that three models list first: one missing element, and no "211 for 294".
    QTest::addRow("gold lacks an element")
        << full << QStringList { more, more, more, full } << QStringList { u"gold_lacks_element:h[+0]"_s };
    QTest::addRow("gold's empty array") << uR"({"r": []})"_s
                                        << QStringList { uR"({"r": ["x"]})"_s, uR"({"r": ["x"]})"_s,
                                               uR"({"r": ["x"]})"_s, uR"({"r": []})"_s }
                                        << QStringList { u"gold_lacks_element:r[+0]"_s };
    const QString abc = uR"({"r": ["a", "b", "c"]})"_s;
    const QString ac = uR"({"r": ["a", "c"]})"_s;
    QTest::addRow("models lack a gold element")
        << abc << QStringList { ac, ac, ac, abc } << QStringList { u"models_lack_element:r[1]"_s };
    // Each model drops another element: no element is lacked by a majority, and nobody suggests null.
    QTest::addRow("scattered omissions") << uR"({"p": [{"n": "A"}, {"n": "B"}, {"n": "C"}]})"_s
                                         << QStringList { uR"({"p": [{"n": "A"}, {"n": "C"}]})"_s,
                                                uR"({"p": [{"n": "A"}, {"n": "B"}]})"_s,
                                                uR"({"p": [{"n": "B"}, {"n": "C"}]})"_s,
                                                uR"({"p": [{"n": "A"}, {"n": "B"}, {"n": "C"}]})"_s }
                                         << QStringList {};
    const QString merged = uR"({"r": ["red and blue"]})"_s;
    QTest::addRow("models merge") << uR"({"r": ["red", "blue"]})"_s
                                  << QStringList { merged, merged, merged, uR"({"r": ["red", "blue"]})"_s }
                                  << QStringList { u"merge_split:r"_s };
    const QString split = uR"({"r": ["Alice", "Bob"]})"_s;
    QTest::addRow("models split") << uR"({"r": ["Alice, Bob"]})"_s << QStringList { split, split, split, split }
                                  << QStringList { u"merge_split:r"_s };
    // Split by words: the gold's one string becomes two, each bringing its own number; no "14 days" element
    // is proposed and the first piece is not offered as a new value.
    const QString pieces = uR"({"r": ["30 days before the end", "14 days before the end"]})"_s;
    QTest::addRow("models split by words")
        << uR"({"r": ["30 days and 14 days before the end"]})"_s << QStringList { pieces, pieces, pieces, pieces }
        << QStringList { u"merge_split:r"_s };
    const QString objectMerged = uR"({"p": [{"name": "Ann", "phone": "555", "email": "ann@x.org"}]})"_s;
    QTest::addRow("models merge objects")
        << uR"({"p": [{"name": "Ann", "phone": "555", "email": null}, {"name": "Ann B.", "phone": null, "email": "ann@x.org"}]})"_s
        << QStringList { objectMerged, objectMerged, objectMerged, objectMerged } << QStringList { u"merge_split:p"_s };
    // The answers list the rows in another order; the disagreement on A's age survives the alignment.
    const QString swapped = uR"({"p": [{"n": "B", "age": 5}, {"n": "A", "age": 30}]})"_s;
    QTest::addRow("value after alignment")
        << uR"({"p": [{"n": "A", "age": 3}, {"n": "B", "age": 5}]})"_s
        << QStringList { swapped, swapped, swapped, uR"({"p": [{"n": "A", "age": 3}, {"n": "B", "age": 5}]})"_s }
        << QStringList { u"value:p[0].age"_s };
    QTest::addRow("key lacked inside a paired element")
        << uR"({"p": [{"n": "A", "x": "q"}]})"_s
        << QStringList { uR"({"p": [{"n": "A"}]})"_s, uR"({"p": [{"n": "A"}]})"_s, uR"({"p": [{"n": "A"}]})"_s,
               uR"({"p": [{"n": "A", "x": "q"}]})"_s }
        << QStringList { u"value:p[0].x"_s };
    QTest::addRow("no array: not heard") << uR"({"p": [{"n": "A"}], "k": 1})"_s
                                         << QStringList { uR"({"k": 1})"_s, uR"({"k": 1, "p": null})"_s,
                                                uR"({"k": 1})"_s, uR"({"k": 1})"_s }
                                         << QStringList {};
    QTest::addRow("format")
        << uR"({"s": "IFC", "pct": "35%", "t": "Hemophiliacs", "v": 7})"_s
        << QStringList { uR"x({"s": "Interfraternity Conference (IFC)", "pct": 35, "t": "hemophiliacs", "v": 8})x"_s,
               uR"x({"s": "Interfraternity Conference (IFC)", "pct": 35, "t": "hemophiliacs", "v": 8})x"_s,
               uR"x({"s": "Interfraternity Conference (IFC)", "pct": 35, "t": "hemophiliacs", "v": 8})x"_s,
               uR"({"s": "IFC", "pct": "35%", "t": "Hemophiliacs", "v": 7})"_s }
        << QStringList { u"format:pct"_s, u"format:s"_s, u"format:t"_s, u"value:v"_s };
}

void TestAudit::alignmentSortsFindingsIntoKinds()
{
    QFETCH(QString, gold);
    QFETCH(QStringList, answers);
    QFETCH(QStringList, expected);
    std::vector<CaseAnswer> heard;
    for (int i = 0; i < answers.size(); ++i)
        heard.push_back({ u"m-%1"_s.arg(i + 1), json::parse(answers.at(i).toStdString()) });
    QStringList found;
    for (const CaseFinding& f : findCaseSuspects(json::parse(gold.toStdString()), heard))
        found << QString::fromLatin1(findingKindId(f.kind)) + u':' + QString::fromStdString(f.path);
    found.sort();
    QCOMPARE(found, expected);
}

void TestAudit::missingElementCarriesTheProposedElement()
{
    const json gold = j(R"({"h": [{"year": 1964, "pints": 294, "notes": "largest"}]})");
    std::vector<CaseAnswer> heard;
    const char* notes[] = { "first", "initial year", "first", "x" };
    for (int i = 0; i < 4; ++i) {
        json answer = j(R"({"h": [{"year": 1962, "pints": 211}, {"year": 1964, "pints": 294, "notes": "largest"}]})");
        answer["h"][0]["notes"] = notes[i];
        if (i == 3)
            answer["h"].erase(0);
        heard.push_back({ u"m-%1"_s.arg(i + 1), answer });
    }
    const auto findings = findCaseSuspects(gold, heard);
    QCOMPARE(findings.size(), std::size_t(1));
    const CaseFinding& f = findings.front();
    QCOMPARE(f.kind, FindingKind::MissingElement);
    QCOMPARE(QString::fromStdString(f.pointer), u"/h/0"_s);
    QCOMPARE(QString::fromStdString(f.arrayPath), u"h"_s);
    QVERIFY(!f.gold);
    // The element most alike the others: m-1's (the same as m-3's).
    QCOMPARE_JSON(f.consensus, j(R"({"year": 1962, "pints": 211, "notes": "first"})"));
    QCOMPARE(f.agreeing, 3);
    QCOMPARE(f.answered, 4);
    QCOMPARE(f.agreeingModels, (QStringList { u"m-1"_s, u"m-2"_s, u"m-3"_s }));
    QCOMPARE(f.answers.size(), std::size_t(4));
    QVERIFY(!f.answers[3].value);
}

void TestAudit::formatVariants_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<QString>("variant");
    QTest::addRow("case") << u"\"Hemophiliacs\""_s << u"\"hemophiliacs\""_s << u"lenient"_s;
    QTest::addRow("whitespace") << u"\"New  York \""_s << u"\"New York\""_s << u"lenient"_s;
    QTest::addRow("full stop") << u"\"Done.\""_s << u"\"done\""_s << u"lenient"_s;
    QTest::addRow("string number") << u"\"42\""_s << u"42"_s << u"lenient"_s;
    QTest::addRow("quotes") << u"\"\\\"Sequenced steps\\\"\""_s << u"\"sequenced steps\""_s << u"quotes"_s;
    QTest::addRow("curly quotes") << u"\"‘sequence steps’\""_s << u"\"sequence steps\""_s << u"quotes"_s;
    QTest::addRow("percent") << u"\"35%\""_s << u"35"_s << u"unit"_s;
    QTest::addRow("dollars") << u"\"$1,500\""_s << u"1500"_s << u"unit"_s;
    QTest::addRow("less or equal") << u"\"x ≤ 5\""_s << u"\"x <= 5\""_s << u"symbol"_s;
    QTest::addRow("contains") << u"\"IFC\""_s << u"\"Interfraternity Conference (IFC)\""_s << u"contains"_s;
    QTest::addRow("contains a number") << u"1962"_s << u"\"since 1962\""_s << u"contains"_s;
    QTest::addRow("name order") << u"\"Zhou, Guangwei\""_s << u"\"Guangwei Zhou\""_s << u"word_order"_s;
    QTest::addRow("superscript") << u"\"Er³⁺ ions\""_s << u"\"Er3+ ions\""_s << u"markup"_s;
    QTest::addRow("latex") << u"\"\\\\(k^{th}\\\\) packet\""_s << u"\"k^{th} packet\""_s << u"markup"_s;
    QTest::addRow("underscores") << u"\"suicídios_e_óbitos\""_s << u"\"suicídios e óbitos\""_s << u"markup"_s;
    QTest::addRow("date in words") << u"\"May 22, 1914\""_s << u"\"May twentysecond, Nineteen hundred and fourteen\""_s
                                   << u"date"_s;
    QTest::addRow("ISO date") << u"\"1914-05-22\""_s << u"\"22 May 1914\""_s << u"date"_s;
    QTest::addRow("another date") << u"\"May 22, 1914\""_s << u"\"May 23, 1914\""_s << QString();
    QTest::addRow("words left out") << u"\"behaviour pursuant to Paragraph 1 (harassment) which is sexual in nature\""_s
                                    << u"\"behaviour pursuant to Paragraph 1 which is sexual in nature\""_s
                                    << u"abridged"_s;
    QTest::addRow("condensed, stems kept")
        << u"\"collaborator input response after verbal answer\""_s
        << u"\"the collaborator input the response after she answered verbally\""_s << u"abridged"_s;
    QTest::addRow("a negation left out") << u"\"The tenant is not liable for repairs\""_s
                                         << u"\"The tenant is liable for repairs\""_s << QString();
    QTest::addRow("a number left out") << u"\"collected 211 pints of blood\""_s << u"\"collected pints of blood\""_s
                                       << QString();
    QTest::addRow("a number word left out") << u"\"the customer wants three medium milkshakes\""_s
                                            << u"\"the customer wants medium milkshakes\""_s << QString();
    QTest::addRow("a word changed") << u"\"sales increased in the north\""_s
                                    << u"\"sales decreased sharply in the north\""_s << QString();
    QTest::addRow("a word left unmatched")
        << u"\"sales rose in the north\""_s << u"\"sales rose sharply in the south\""_s << QString();
    QTest::addRow("too short to abridge") << u"\"New York\""_s << u"\"New Amsterdam York\""_s << QString();
    QTest::addRow("spacing") << u"\"George Brokaw Compton\""_s << u"\"George BrokawCompton\""_s << u"spacing"_s;
    QTest::addRow("dots") << u"\"U.S. Army\""_s << u"\"US Army\""_s << u"spacing"_s;
    QTest::addRow("a number split") << u"\"1,5 mm\""_s << u"\"15 mm\""_s << QString();
    // One letter apart is a value finding, whichever side has the slip: the gold's typo ("Brookes" where the input
    // says Brooks) is a real gold error, and looks just like a gold that corrects the input's OCR.
    QTest::addRow("a typo") << u"\"Aiyana Brookes\""_s << u"\"Aiyana Brooks\""_s << QString();
    QTest::addRow("OCR slip") << u"\"George Brokaw Compton\""_s << u"\"George Brokawtompton\""_s << QString();
    QTest::addRow("digits differ") << u"\"Invoice number 4471-A\""_s << u"\"Invoice number 4477-A\""_s << QString();
    QTest::addRow("not part of a number") << u"21"_s << u"211"_s << QString();
    QTest::addRow("not part of a word") << u"\"cat\""_s << u"\"category\""_s << QString();
    QTest::addRow("other value") << u"\"cat\""_s << u"\"dog\""_s << QString();
    QTest::addRow("null") << u"null"_s << u"\"x\""_s << QString();
    QTest::addRow("identical") << u"\"x\""_s << u"\"x\""_s << QString();
    QTest::addRow("other number") << u"294"_s << u"211"_s << QString();
}

void TestAudit::formatVariants()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(QString, variant);
    const json x = json::parse(a.toStdString());
    const json y = json::parse(b.toStdString());
    QCOMPARE(QString::fromLatin1(formatVariantId(formatVariantOf(x, y))), variant);
    QCOMPARE(QString::fromLatin1(formatVariantId(formatVariantOf(y, x))), variant);
}

void TestAudit::formatVariantsOfRandomTexts()
{
    // Texts put together from pieces of dates, numbers, negations, punctuation and odd bytes: the test is symmetric and
    // never calls a value a variant of itself, and every variant the pieces can make comes up (a change that breaks
    // one shows here too). A date read from any of them is a possible one.
    static const std::vector<std::string> pieces { "May", "may", "22", "22nd", "twenty", "second", "twentysecond",
        "nineteen", "hundred", "and", "fourteen", "1914", "1914-05-22", "-", ",", ".", " ", "  ", "(", ")", "the", "of",
        "not", "no", "three", "Paragraph", "1", "1,5", "15", "Low-", "power", "Low-power", "George", "Brokaw",
        "Compton", "BrokawCompton", "\"", "%", "$", "\u2264", "<=", "\xff", "\xc3", "Friday", "Sept", "31", "April" };
    std::mt19937 random(2026); // NOLINT(cert-msc32-c,cert-msc51-cpp): a fixed seed, so that a failure repeats
    const auto text = [&random]() {
        std::string out;
        const int count = int(random() % 9);
        for (int i = 0; i < count; ++i) {
            out += pieces[random() % pieces.size()];
            if (random() % 3 != 0)
                out += ' ';
        }
        return out;
    };
    std::set<std::string> seen;
    int dates = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string x = text();
        std::string y;
        switch (random() % 4) {
        case 0: // words added
            y = x + " " + text();
            break;
        case 1: { // one piece written another way
            static const std::vector<std::pair<std::string, std::string>> rewrites { { "\u2264", "<=" },
                { "Low-power", "Low- power" }, { "1914-05-22", "May 22, 1914" }, { "May", "MAY" }, { "22", "\"22\"" },
                { "15", "15%" }, { "BrokawCompton", "Brokaw Compton" } };
            const auto& [from, to] = rewrites[random() % rewrites.size()];
            if (random() % 3 == 0)
                x = from; // the piece alone
            y = x;
            if (const std::size_t at = y.find(from); at != std::string::npos)
                y.replace(at, from.size(), to);
            break;
        }
        default:
            y = text();
        }
        for (const std::string* t : { &x, &y }) {
            if (const std::optional<TextDate> date = parseDateText(*t)) {
                ++dates;
                QVERIFY2(date->month >= 1 && date->month <= 12 && date->day >= 0 && date->day <= 31
                        && (date->year == 0 || date->year >= 32) && (date->day != 0 || date->year != 0),
                    t->c_str());
            }
        }
        const json a = x;
        const json b = y;
        const FormatVariant ab = formatVariantOf(a, b);
        if (ab != formatVariantOf(b, a)) {
            const auto shown = [](const json& v) { return v.dump(-1, ' ', true, json::error_handler_t::replace); };
            QFAIL(qPrintable(QString::fromStdString("not symmetric: " + shown(a) + " / " + shown(b))));
        }
        QCOMPARE(formatVariantOf(a, a), FormatVariant::None);
        seen.insert(formatVariantId(ab));
    }
    for (const char* variant :
        { "", "lenient", "quotes", "unit", "symbol", "word_order", "contains", "date", "abridged", "spacing" })
        QVERIFY2(seen.contains(variant), variant);
    QVERIFY(dates > 100);
}

void TestAudit::formatVariantsOfLongTexts()
{
    // Twenty thousand words: equal words are matched by count, not word against word, and texts whose words would
    // need too many stem comparisons are not abridged (an answer can be any length).
    QStringList words;
    QStringList stems;
    for (int i = 0; i < 20000; ++i) {
        QString word = u"word"_s; // letters only: a word left out holding a digit would be a number
        for (int n = i; n > 0; n /= 26)
            word += QChar(u'a' + n % 26);
        words << word;
        stems << word + u"ly"_s;
    }
    const json all = words.join(u' ').toStdString();
    QStringList fewer = words;
    fewer.removeAt(777);
    QCOMPARE(QString::fromLatin1(formatVariantId(formatVariantOf(all, json(fewer.join(u' ').toStdString())))),
        u"abridged"_s);
    stems.removeAt(777);
    QCOMPARE(formatVariantOf(all, json(stems.join(u' ').toStdString())), FormatVariant::None);
}

void TestAudit::sourceSnippets()
{
    const QString source = u"The drive has been in effect since 1962 when 211 pints were collected. In 1964,\n"
                           u"294 pints were pledged; 2,945 people came."_s;
    SourceSnippet s = findInSource(source, json(294));
    QVERIFY(s.found);
    QVERIFY2(s.text.contains(u"In 1964, «294» pints"_s), qPrintable(s.text));
    QCOMPARE(findInSource(source, json(2945)).found, true);
    QCOMPARE(findInSource(source, json(29)).found, false);
    QVERIFY(findInSource(source, json("pints were\npledged")).found);
    QVERIFY(!findInSource(source, json("pints were donated")).found);
    QVERIFY(!findInSource(source, json(nullptr)).found);
    // A fraction with trailing zeros in the text; never a longer number.
    QVERIFY(findInSource(u"Total GBP 472.80"_s, json(472.8)).found);
    QVERIFY(findInSource(u"Total GBP 1,472.800 due"_s, json(1472.8)).found);
    QVERIFY(!findInSource(u"Total GBP 472.81"_s, json(472.8)).found);
    QVERIFY(!findInSource(u"Total GBP 2472.80"_s, json(472.8)).found);
    // An element: by the longest of its leaves that the source holds.
    s = findInSource(source, j(R"({"year": 1962, "pints": 211, "notes": "initial year of the drive"})"));
    QVERIFY(s.found);
    QVERIFY2(s.text.contains(u"«1962»"_s), qPrintable(s.text));
}

std::vector<SobCase> TestAudit::rankingCases() const
{
    std::vector<SobCase> cases;
    const QStringList models { u"ma"_s, u"mb"_s, u"mc"_s, u"md"_s };
    const auto add
        = [&cases, &models](const char* id, const char* context, const char* gold, std::vector<const char*> answers) {
              SobCase c { QString::fromLatin1(id), QString::fromUtf8(context), j(gold), {} };
              for (std::size_t i = 0; i < answers.size(); ++i)
                  c.answers.push_back({ models.at(int(i)), j(answers[i]) });
              cases.push_back(std::move(c));
          };
    // a: a value the source backs (41), in a case whose array also lacks an element.
    add("a", "Ann is 41. Visits: 2019 in Oslo, 2021 in Bergen.",
        R"({"age": 14, "visits": [{"year": 2021, "city": "Bergen"}]})",
        { R"({"age": 41, "visits": [{"year": 2019, "city": "Oslo"}, {"year": 2021, "city": "Bergen"}]})",
            R"({"age": 41, "visits": [{"year": 2019, "city": "Oslo"}, {"year": 2021, "city": "Bergen"}]})",
            R"({"age": 41, "visits": [{"year": 2019, "city": "Oslo"}, {"year": 2021, "city": "Bergen"}]})",
            R"({"age": 14, "visits": [{"year": 2021, "city": "Bergen"}]})" });
    // b: a value only the gold is found for (the models' 7 is not in the text): ranked after a's.
    add("b", "Bo has 3 cats.", R"({"cats": 3, "tag": "IFC"})",
        { R"({"cats": 7, "tag": "the IFC"})", R"({"cats": 7, "tag": "the IFC"})", R"({"cats": 7, "tag": "the IFC"})",
            R"({"cats": 3, "tag": "IFC"})" });
    return cases;
}

void TestAudit::queueRanksByKindAndEvidenceAndGroupsByArray()
{
    QTemporaryDir dir;
    auto store = makeSobStore(dir.path(), newLocation(), rankingCases());
    QVERIFY(store);
    AuditOptions options;
    options.listGoldTheInputHolds = true;
    const AuditQueue queue = buildAuditQueue(*store, options);
    QVERIFY2(queue.ok(), qPrintable(queue.error));
    QStringList order;
    for (const AuditItem& item : queue.items)
        order << u"%1:%2:%3:e%4"_s.arg(item.caseId, QString::fromLatin1(findingKindId(item.kind)),
            QString::fromStdString(item.path), QString::number(item.evidence));
    // The findings the source backs first (a's value, then a's array finding in its own group), then the value it
    // contradicts (listed here on request), the format disagreement last.
    QCOMPARE(order,
        (QStringList { u"a:value:age:e2"_s, u"a:gold_lacks_element:visits[+0]:e2"_s, u"b:value:cats:e0"_s,
            u"b:format:tag:e1"_s }));
    QCOMPARE(queue.groups.size(), std::size_t(4));
    QCOMPARE(queue.groups[1].caseId, u"a"_s);
    QCOMPARE(QString::fromStdString(queue.groups[1].arrayPath), u"visits"_s);
    const std::vector<AuditBatch> batches { AuditBatch::Backed, AuditBatch::Backed, AuditBatch::Unbacked,
        AuditBatch::Format };
    for (std::size_t g = 0; g < queue.groups.size(); ++g)
        QCOMPARE(int(queue.groups[g].batch), int(batches[g]));
    for (std::size_t g = 0; g < queue.groups.size(); ++g) {
        QCOMPARE(queue.groups[g].count, 1);
        QCOMPARE(queue.items[std::size_t(queue.groups[g].first)].group, int(g));
    }
    const AuditItem& age = queue.items[0];
    QVERIFY(age.consensusSource.found);
    QVERIFY2(age.consensusSource.text.contains(u"Ann is «41»"_s), qPrintable(age.consensusSource.text));
    QVERIFY(!age.goldSource.found);
    QCOMPARE(describeAuditItem(age), u"3 of 4 models give 41 where gold has 14"_s);
    const AuditItem& visit = queue.items[1];
    QCOMPARE(
        describeAuditItem(visit), uR"(Gold lacks an element that 3 of 4 models give: {"city":"Oslo","year":2019})"_s);
    QVERIFY2(visit.consensusSource.text.contains(u"«Oslo»"_s) || visit.consensusSource.text.contains(u"«2019»"_s),
        qPrintable(visit.consensusSource.text));
    QCOMPARE(queue.items[3].format, FormatVariant::Contains);

    // The JSON carries kind, group, description and the snippets.
    const json doc = auditQueueToJson(queue, {});
    QCOMPARE_JSON(doc["summary"]["kinds"],
        j(R"({"value": 2, "gold_lacks_element": 1, "models_lack_element": 0, "merge_split": 0, "format": 1})"));
    QCOMPARE_JSON(doc["items"][0]["kind"], json("value"));
    QCOMPARE_JSON(doc["items"][0]["source"]["consensus"]["found"], json(true));
    QVERIFY(doc["items"][0]["source"]["consensus"]["snippet"].get<std::string>().find("41") != std::string::npos);
    QCOMPARE_JSON(doc["items"][3]["format_variant"], json("contains"));
    QCOMPARE_JSON(doc["groups"][1]["array"], json("visits"));
    QCOMPARE_JSON(doc["groups"][2]["batch"], json("unbacked"));
    QCOMPARE_JSON(doc["items"][3]["batch"], json("format"));
    QCOMPARE_JSON(doc["summary"]["batches"], j(R"({"backed": 2, "unbacked": 1, "granularity": 0, "format": 1})"));

    // By default b's 7 is left out: the input holds the gold's 3 and not 7.
    QCOMPARE(buildAuditQueue(*store).items.size(), std::size_t(3));
}

void TestAudit::elementSplitOutOfAGoldElementIsGranularity()
{
    QTemporaryDir dir;
    std::vector<SobCase> cases;
    const auto add = [&cases](const char* id, const char* context, const char* gold, const char* most) {
        cases.push_back(threeAgainstGold(id, context, gold, most));
    };
    // split: gold's one entry names both companies; most models list them apart. The proposed "Yellow Cab" entry
    // has no word that gold's entry lacks.
    add("split", "VIP Taxi and Yellow Cab serve the airport: start fare 5.50, per mile 2.25.",
        R"({"taxis": [{"company": "VIP Taxi and Yellow Cab", "start_fare": 5.5, "per_mile": 2.25}]})",
        R"({"taxis": [{"company": "VIP Taxi", "start_fare": 5.5, "per_mile": 2.25},
                      {"company": "Yellow Cab", "start_fare": 5.5, "per_mile": 2.25}]})");
    // added: the second company has fares of its own, which gold's entry does not hold.
    add("added", "VIP Taxi: start fare 5.50, per mile 2.25. Yellow Cab: start fare 6.10, per mile 2.40.",
        R"({"taxis": [{"company": "VIP Taxi", "start_fare": 5.5, "per_mile": 2.25}]})",
        R"({"taxis": [{"company": "VIP Taxi", "start_fare": 5.5, "per_mile": 2.25},
                      {"company": "Yellow Cab", "start_fare": 6.1, "per_mile": 2.4}]})");
    auto store = makeSobStore(dir.path(), newLocation(), cases);
    QVERIFY(store);
    const AuditQueue queue = buildAuditQueue(*store);
    QVERIFY2(queue.ok(), qPrintable(queue.error));
    const AuditItem* split = findItem(queue, u"split"_s, FindingKind::MissingElement);
    const AuditItem* added = findItem(queue, u"added"_s, FindingKind::MissingElement);
    QVERIFY(split);
    QVERIFY(added);
    // Both proposals are in the input (evidence 2); only the one gold's entry does not already say is backed.
    QCOMPARE(split->evidence, 2);
    QCOMPARE(added->evidence, 2);
    QCOMPARE(split->restates, 0);
    QCOMPARE(int(split->batch), int(AuditBatch::Granularity));
    QCOMPARE(added->restates, -1);
    QCOMPARE(int(added->batch), int(AuditBatch::Backed));
    QVERIFY2(
        describeAuditItem(*split).contains(u"gold's element 0 already has"_s), qPrintable(describeAuditItem(*split)));
    // Accept still inserts it: the annotator may prefer the models' cut.
    QVERIFY(acceptEditOf(*split, u"ann"_s, u"one entry per company"_s).has_value());
    // Backed findings come first.
    QCOMPARE(queue.items.front().caseId, u"added"_s);
    const json doc = auditQueueToJson(queue, {});
    QCOMPARE_JSON(doc["items"][0].value("restates", json()), json());
    QCOMPARE_JSON(doc["items"][1]["restates"], json(0));
    QCOMPARE_JSON(doc["items"][1]["batch"], json("granularity"));
}

void TestAudit::modelsThatGiveNothingAreBackedWhereTheInputLacksTheGold()
{
    QTemporaryDir dir;
    std::vector<SobCase> cases;
    const auto add = [&cases](const char* id, const char* context, const char* gold, const char* most) {
        cases.push_back(threeAgainstGold(id, context, gold, most));
    };
    // invented: the gold has an asset tag the text never gives; three models say null.
    add("invented", "My keyboard stopped working. Priority: medium.", R"({"asset_tag": "NB-20417", "p": "medium"})",
        R"({"asset_tag": null, "p": "medium"})");
    // omitted: the text gives the tag; three models leave it out. Their omission, not the gold's error.
    add("omitted", "My keyboard stopped working, asset tag NB-20417. Priority: medium.",
        R"({"asset_tag": "NB-20417", "p": "medium"})", R"({"p": "medium"})");
    auto store = makeSobStore(dir.path(), newLocation(), cases);
    QVERIFY(store);
    AuditOptions options;
    options.listGoldTheInputHolds = true;
    const AuditQueue queue = buildAuditQueue(*store, options);
    QVERIFY2(queue.ok(), qPrintable(queue.error));
    const AuditItem* invented = findItem(queue, u"invented"_s, "asset_tag");
    const AuditItem* omitted = findItem(queue, u"omitted"_s, "asset_tag");
    QVERIFY(invented);
    QVERIFY(omitted);
    QCOMPARE(invented->evidence, 2);
    QCOMPARE(int(invented->batch), int(AuditBatch::Backed));
    QCOMPARE(omitted->evidence, 0);
    // By default the omission is left out.
    const AuditQueue byDefault = buildAuditQueue(*store);
    QVERIFY(findItem(byDefault, u"invented"_s, "asset_tag"));
    QVERIFY(!findItem(byDefault, u"omitted"_s, "asset_tag"));
}

void TestAudit::acceptInsertsTheMissingElementAsARevision()
{
    QTemporaryDir dir;
    auto store = makeSobStore(dir.path(), newLocation(), rankingCases());
    QVERIFY(store);
    AuditQueue queue = buildAuditQueue(*store);
    const AuditItem* visit = findItem(queue, u"a"_s, FindingKind::MissingElement);
    QVERIFY(visit);
    const std::optional<LeafEdit> edit = acceptEditOf(*visit, u"ann"_s, u"the text lists 2019"_s);
    QVERIFY(edit);
    QVERIFY(edit->insert);
    const GoldEditOutcome outcome = applyLeafEdit(*store, *edit);
    QVERIFY2(outcome.ok(), qPrintable(outcome.message));
    QCOMPARE(outcome.added.revision, 1);
    QCOMPARE_JSON(
        outcome.added.gold["visits"], j(R"([{"year": 2019, "city": "Oslo"}, {"year": 2021, "city": "Bergen"}])"));
    QCOMPARE(outcome.added.reason, u"the text lists 2019"_s);

    // Rebuilt: listed as fixed by that revision; the current gold raises no element finding.
    queue = buildAuditQueue(*store);
    visit = findItem(queue, u"a"_s, FindingKind::MissingElement);
    QVERIFY(visit);
    QCOMPARE(visit->triage.state, TriageState::Fixed);
    QVERIFY(visit->triage.byGoldRevision);
    AuditOptions options;
    options.includeFixed = false;
    QVERIFY(!findItem(buildAuditQueue(*store, options), u"a"_s, FindingKind::MissingElement));

    // A value's accept replaces; a missing key's removes; a merge or split offers nothing.
    const AuditItem* age = findItem(queue, u"a"_s, "age");
    QVERIFY(age);
    const auto replace = acceptEditOf(*age, u"ann"_s, u"r"_s);
    QVERIFY(replace && !replace->insert && replace->value && *replace->value == json(41));
    QCOMPARE(replace->basedOnRevision, 1);
    AuditItem merge;
    merge.kind = FindingKind::MergeSplit;
    QVERIFY(!acceptEditOf(merge, u"ann"_s, u"r"_s));
    AuditItem extra;
    extra.kind = FindingKind::ExtraElement;
    extra.pointer = "/visits/1";
    const auto remove = acceptEditOf(extra, u"ann"_s, u"r"_s);
    QVERIFY(remove && !remove->value && !remove->insert);
}

void TestAudit::insertPatches_data()
{
    QTest::addColumn<QString>("doc");
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("expected"); ///< "" for an error
    QTest::addRow("front") << uR"({"a": [1, 2]})"_s << u"/a/0"_s << uR"({"a":[0,1,2]})"_s;
    QTest::addRow("end") << uR"({"a": [1, 2]})"_s << u"/a/2"_s << uR"({"a":[1,2,0]})"_s;
    QTest::addRow("empty") << uR"({"a": []})"_s << u"/a/0"_s << uR"({"a":[0]})"_s;
    QTest::addRow("past the end") << uR"({"a": [1]})"_s << u"/a/3"_s << QString();
    QTest::addRow("not an array") << uR"({"a": {"0": 1}})"_s << u"/a/0"_s << QString();
    QTest::addRow("root") << uR"([1])"_s << QString() << QString();
}

void TestAudit::insertPatches()
{
    QFETCH(QString, doc);
    QFETCH(QString, pointer);
    QFETCH(QString, expected);
    const GoldPatch patch = withElementInserted(json::parse(doc.toStdString()), pointer.toStdString(), json(0));
    if (expected.isEmpty()) {
        QVERIFY(!patch.document);
        QVERIFY(!patch.error.empty());
    } else {
        QVERIFY2(patch.document, patch.error.c_str());
        QCOMPARE(dumpJson(*patch.document), expected);
    }
}

void TestAudit::sobSamplePrecision()
{
    const QString root = QStringLiteral(STRUCTSCOPE_TEST_DATA) + u"/audit-sob"_s;
    QStringList files;
    const QDir responses(root + u"/data/images_responses"_s);
    for (const QString& name : responses.entryList({ u"*.jsonl"_s }, QDir::Files, QDir::Name))
        files << responses.filePath(name);
    QCOMPARE(files.size(), 34);
    QFile labelFile(root + u"/labels.json"_s);
    QVERIFY(labelFile.open(QIODevice::ReadOnly));
    const json labels = json::parse(labelFile.readAll().toStdString());
    std::set<std::string> named;
    for (const json& id : labels["named_cases"])
        named.insert(id.get<std::string>());
    std::set<std::string> rest;
    for (const json& id : labels["rest_cases"])
        rest.insert(id.get<std::string>());
    std::map<std::tuple<std::string, std::string, std::string>, const json*> byKey;
    for (const json& label : labels["findings"])
        byKey[{ label["case"].get<std::string>(), label["kind"].get<std::string>(), label["path"].get<std::string>() }]
            = &label;

    auto store = ResultStore::open(newLocation());
    QVERIFY(store);
    SobImportOptions importOptions;
    importOptions.modality = Modality::Image;
    QVERIFY(importSobFiles(*store, files, importOptions).ok());
    const AuditQueue queue = buildAuditQueue(*store);
    QVERIFY2(queue.ok(), qPrintable(queue.error));
    QCOMPARE(queue.cases, 42);
    // The values the queue leaves out by default (the input holds the gold and not the consensus, or the models
    // invent a value where gold has null) are labelled too: listing them shows what leaving them out costs.
    AuditOptions all;
    all.listGoldTheInputHolds = true;
    const AuditQueue everything = buildAuditQueue(*store, all);
    QVERIFY2(everything.ok(), qPrintable(everything.error));
    std::set<std::tuple<std::string, std::string, std::string>> listed;
    for (const AuditItem& item : queue.items)
        listed.insert({ item.caseId.toStdString(), findingKindId(item.kind), item.path });

    // Every finding is labelled, and every label is a finding: a change of the queue asks for new labels. Format
    // disagreements are labelled on the drawn and named cases only.
    struct Tally
    {
        int findings = 0;
        int real = 0;
        int right = 0;
    };
    std::map<QString, Tally> tallies;
    std::set<const json*> used;
    for (const AuditItem& item : everything.items) {
        const std::string caseId = item.caseId.toStdString();
        const std::string kind = findingKindId(item.kind);
        const bool leftOut = !listed.contains({ caseId, kind, item.path });
        const auto found = byKey.find({ caseId, kind, item.path });
        // On the later-labelled cases, only the format disagreements once listed as values carry labels.
        if (rest.contains(caseId) && item.kind == FindingKind::Format && found == byKey.end())
            continue;
        QVERIFY2(found != byKey.end(),
            qPrintable(u"unlabelled finding: %1 %2 %3"_s.arg(
                item.caseId.left(8), QString::fromStdString(kind), QString::fromStdString(item.path))));
        used.insert(found->second);
        const json& label = *found->second;
        const bool real = label["real_gold_problem"].get<bool>();
        const bool right
            = real && label.value("suggestion_right", json()).is_boolean() && label["suggestion_right"].get<bool>();
        const QString sample = named.contains(caseId) ? u"named"_s : rest.contains(caseId) ? u"rest"_s : u"drawn"_s;
        const QString batch = leftOut ? u"left out"_s : QString::fromLatin1(auditBatchId(item.batch));
        for (const QString& g : QStringList { sample + u"/"_s + batch, u"all/"_s + batch }) {
            Tally& t = tallies[g];
            ++t.findings;
            t.real += real ? 1 : 0;
            t.right += right ? 1 : 0;
        }
    }
    QCOMPARE(used.size(), byKey.size());

    QStringList lines;
    for (const auto& [name, t] : tallies) {
        const Interval p = wilsonInterval(t.real, t.findings);
        const Interval r = wilsonInterval(t.right, t.real);
        lines << u"%1: %2 of %3 findings real (%4%, 95% CI %5-%6%); suggestion right in %7 of %8 (%9%, %10-%11%)"_s
                     .arg(name)
                     .arg(t.real)
                     .arg(t.findings)
                     .arg(100.0 * t.real / t.findings, 0, 'f', 1)
                     .arg(100.0 * p.low, 0, 'f', 1)
                     .arg(100.0 * p.high, 0, 'f', 1)
                     .arg(t.right)
                     .arg(t.real)
                     .arg(t.real > 0 ? 100.0 * t.right / t.real : 0.0, 0, 'f', 1)
                     .arg(100.0 * r.low, 0, 'f', 1)
                     .arg(100.0 * r.high, 0, 'f', 1);
    }
    qInfo().noquote() << lines.join(u'\n');
    // The figures docs/user-guide.md reports ("Gold auditing and correction"): real / findings / suggestion right.
    const auto figure = [&tallies](const QString& name) {
        const Tally& t = tallies[name];
        return u"%1/%2/%3"_s.arg(t.real).arg(t.findings).arg(t.right);
    };
    QCOMPARE(figure(u"drawn/backed"_s), u"6/11/5"_s);
    QCOMPARE(figure(u"rest/backed"_s), u"3/7/3"_s);
    QCOMPARE(figure(u"all/backed"_s), u"13/22/12"_s);
    QCOMPARE(figure(u"all/unbacked"_s), u"0/7/0"_s);
    QCOMPARE(figure(u"all/granularity"_s), u"0/20/0"_s);
    QCOMPARE(figure(u"all/left out"_s), u"0/7/0"_s);
    QCOMPARE(figure(u"drawn/format"_s), u"1/23/1"_s);

    // The named examples: gold lacks the 1962 row, and no "replace 294 by 211"; three staff rows.
    const AuditItem* blood = findItem(
        queue, QString::fromStdString(labels["named_cases"][0].get<std::string>()), FindingKind::MissingElement);
    QVERIFY(blood);
    QCOMPARE(QString::fromStdString(blood->path), u"historical_collections[+0]"_s);
    QCOMPARE_JSON(blood->consensus["year"], json(1962));
    QCOMPARE_JSON(blood->consensus["pints_collected"], json(211));
    QVERIFY(!findItem(queue, blood->caseId, "historical_collections[0].pints_collected"));
    QVERIFY2(blood->consensusSource.text.contains(u"since «1962» when 211 pints"_s),
        qPrintable(blood->consensusSource.text));
    int staffRows = 0;
    for (const AuditItem& item : queue.items) {
        if (item.caseId.toStdString() == labels["named_cases"][1].get<std::string>()
            && item.kind == FindingKind::MissingElement && item.arrayPath == "staff_summary")
            ++staffRows;
        QVERIFY2(
            !(item.kind == FindingKind::Value && item.consensus.is_null() && item.path.find('[') != std::string::npos),
            qPrintable(u"null suggested inside an array: %1"_s.arg(QString::fromStdString(item.path))));
    }
    QCOMPARE(staffRows, 3);
}

void TestAudit::triageRoundTrip()
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

void TestAudit::goldChangeShowsItemAsFixed()
{
    const Workspace w = makeWorkspace(newLocation());
    QVERIFY(w.store);
    QVERIFY(setTriageState(*w.store, { w.row("c-1"), "age", {}, TriageState::Dismissed, u"ann"_s, {} }));
    const auto fixed = applyLeafEdit(*w.store, { w.row("c-1"), "/age", json(41), u"bob"_s, u"the text says 41"_s, 0 });
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

void TestAudit::acceptValueThenUndo()
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

void TestAudit::staleEditConflicts_data()
{
    QTest::addColumn<QString>("backend");
    QTest::newRow("sqlite") << u"sqlite"_s;
    QTest::newRow("postgres") << u"postgres"_s;
}

void TestAudit::staleEditConflicts()
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

void TestAudit::invalidEditIsRefused_data()
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

void TestAudit::invalidEditIsRefused()
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

void TestAudit::goldPatches_data()
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

void TestAudit::goldPatches()
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

void TestAudit::correctedVersion_data()
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

void TestAudit::correctedVersion()
{
    QFETCH(QString, version);
    QFETCH(int, revisions);
    QFETCH(QString, expected);
    QCOMPARE(correctedSuiteVersion(version, revisions), expected);
}

void TestAudit::leafChangesOfARevision()
{
    const auto changes
        = goldLeafChanges(j(R"({"a": 1, "b": [1, 2], "c": "x"})"), j(R"({"a": 2, "b": [1], "c": "x", "d": null})"));
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

void TestAudit::exportWritesALoadableCorrectedSuite()
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
        (QStringList {
            u"CHANGELOG.md"_s, u"cases.jsonl"_s, u"catalog.json"_s, u"schemas/person.json"_s, u"suite.json"_s }));

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

void TestAudit::changelogShowsStoredTextAsText()
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

void TestAudit::exportRefusesANonEmptyFolderUnlessForced()
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

QTEST_GUILESS_MAIN(TestAudit)
#include "tst_audit.moc"
