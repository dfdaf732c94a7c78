// SPDX-License-Identifier: Apache-2.0
// Suite loading and pre-flight: every problem located, all problems collected, nothing crashes.
#include "preflight/preflight.h"
#include "suite/suiteloader.h"
#include "suitefixtures.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace Qt::StringLiterals;

using namespace structscope;

namespace {

struct Expected
{
    QString file;
    int line;
    int column; // -1: do not check
    QString pointer;
    QString messagePart;
};

Problems loadAndCheck(const SuiteFiles& files)
{
    SuiteLoadResult result = loadSuite(files);
    Problems problems = result.problems;
    if (result.ok())
        problems += preflightSuite(*result.suite);
    return problems;
}

QString describe(const Problems& problems)
{
    QStringList lines;
    for (const Problem& p : problems)
        lines << p.toString();
    return lines.join(u'\n');
}

/// Copies the valid test suite into `target` (created).
bool copyValidSuite(const QString& target)
{
    const QDir source(QStringLiteral(STRUCTSCOPE_TEST_DATA) + u"/suite/valid"_s);
    if (!QDir().mkpath(target + u"/schemas"_s))
        return false;
    for (const QString& name : { u"suite.json"_s, u"cases.jsonl"_s, u"catalog.json"_s, u"schemas/order.json"_s }) {
        if (!QFile::copy(source.filePath(name), target + u'/' + name))
            return false;
    }
    return true;
}

} // namespace

Q_DECLARE_METATYPE(SuiteFiles)
Q_DECLARE_METATYPE(QList<Expected>)

class TestSuite : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void loadsCleanSuite();
    void contentHashFollowsEveryByte();
    void reportsLocatedProblems_data();
    void reportsLocatedProblems();
    void preflightFindsEveryGoldProblem_data();
    void preflightFindsEveryGoldProblem();
    // One line that is not JSON hides no other problem: the lines that parse are checked in full (gold against
    // its schema, unique ids, declared categories and schemas), so are the examples, and every problem is listed
    // with its place; the suite is refused.
    void checkListsEveryProblemAtOnce();
    void loadsFolderFromDisk();
    void suiteFolderReadsOnlyItsOwnRegularFiles_data();
    void suiteFolderReadsOnlyItsOwnRegularFiles();
    void missingFolderIsAProblem();
    void problemToString();
};

void TestSuite::loadsCleanSuite()
{
    const SuiteLoadResult result = loadSuite(goodSuite());
    QVERIFY2(result.ok(), qPrintable(describe(result.problems)));
    const Suite& suite = *result.suite;
    QCOMPARE(suite.id, u"mini"_s);
    QCOMPARE(suite.cases.size(), 3);
    QCOMPARE(suite.schemas.size(), std::size_t(2));
    QCOMPARE(suite.categories, QStringList({ u"support"_s, u"contact"_s }));
    QCOMPARE(suite.families, QStringList({ u"ladder"_s, u"extraction"_s }));
    QCOMPARE(suite.userPrompt, u"Extract: {{input}}"_s);
    QCOMPARE(suite.cases.at(0).tier, u"easy"_s);
    QCOMPARE(suite.cases.at(0).line, 1);
    QCOMPARE(suite.cases.at(2).line, 3);
    QCOMPARE(suite.cases.at(2).question.value_or(QString()), u"Who?"_s);
    QVERIFY(!suite.cases.at(1).question.has_value());
    QVERIFY(suite.cases.at(1).extra.value("source_kind", "") == "email");
    QCOMPARE(suite.schemaNameFor(suite.cases.at(0)), u"ticket"_s);
    QCOMPARE(suite.schemaNameFor(suite.cases.at(2)), u"person"_s);
    QVERIFY(suite.schemaFor(suite.cases.at(2)) == &suite.schemas.at(u"person"_s));
    QVERIFY(suite.findCase(u"p-1"_s) == &suite.cases.at(2));
    QVERIFY(suite.findCase(u"nope"_s) == nullptr);
    QVERIFY(suite.examples.at(u"ticket"_s).output["priority"] == "high");
    QCOMPARE(suite.contentHash.size(), 64);

    const Problems preflight = preflightSuite(suite);
    QVERIFY2(preflight.isEmpty(), qPrintable(describe(preflight)));
}

void TestSuite::contentHashFollowsEveryByte()
{
    const QByteArray a = loadSuite(goodSuite()).suite->contentHash;
    QCOMPARE(loadSuite(goodSuite()).suite->contentHash, a);
    SuiteFiles changed = goodSuite();
    changed[u"schemas/person.json"_s].replace("minimum\": 0", "minimum\": 1");
    QVERIFY(loadSuite(changed).suite->contentHash != a);
}

void TestSuite::reportsLocatedProblems_data()
{
    QTest::addColumn<SuiteFiles>("files");
    QTest::addColumn<QList<Expected>>("expected");

    const auto with = [](const QString& file, const QByteArray& bytes) {
        SuiteFiles f = goodSuite();
        f[file] = bytes;
        return f;
    };
    const auto without = [](const QString& file) {
        SuiteFiles f = goodSuite();
        f.erase(file);
        return f;
    };
    const auto manifestWith = [&](const QByteArray& from, const QByteArray& to) {
        QByteArray m = goodSuite()[u"suite.json"_s];
        Q_ASSERT(m.contains(from));
        return with(u"suite.json"_s, m.replace(from, to));
    };
    const QByteArray caseOk
        = R"({"id": "t-1", "category": "support", "input": "x", "gold": {"title": "x", "priority": "low"}})";

    QTest::addRow("no manifest") << without(u"suite.json"_s)
                                 << QList<Expected> { { u"suite.json"_s, 0, -1, {}, u"missing"_s } };
    QTest::addRow("no cases") << without(u"cases.jsonl"_s)
                              << QList<Expected> { { u"cases.jsonl"_s, 0, -1, {}, u"missing"_s } };
    QTest::addRow("manifest syntax error at the end of the unexpected token, 3:12")
        << with(u"suite.json"_s, "{\n  \"id\": \"x\",\n  \"name\" \"y\"\n}")
        << QList<Expected> { { u"suite.json"_s, 3, 12, {}, u"expected ':'"_s } };
    QTest::addRow("manifest is an array") << with(
        u"suite.json"_s, "[1, 2]") << QList<Expected> { { u"suite.json"_s, 0, -1, {}, u"must be a JSON object"_s } };
    QTest::addRow("missing name and version")
        << manifestWith(R"("name": "Mini suite", "version": "1.0.0",)", "")
        << QList<Expected> { { u"suite.json"_s, 0, -1, {}, u"\"name\" is missing"_s },
               { u"suite.json"_s, 0, -1, {}, u"\"version\" is missing"_s } };
    QTest::addRow("id of wrong type") << manifestWith(R"("id": "mini")",
        R"("id": 7)") << QList<Expected> { { u"suite.json"_s, 0, -1, u"/id"_s, u"must be a string"_s } };
    QTest::addRow("id with spaces") << manifestWith(R"("id": "mini")", R"("id": "Mini Suite")")
                                    << QList<Expected> { { u"suite.json"_s, 0, -1, u"/id"_s, u"lower-case"_s } };
    QTest::addRow("schema file missing") << without(u"schemas/person.json"_s)
                                         << QList<Expected> { { u"schemas/person.json"_s, 0, -1, {},
                                                u"\"person\" is declared"_s } };
    QTest::addRow("schema file broken") << with(u"schemas/person.json"_s,
        "{\n\"type\": \"object\",\n}") << QList<Expected> { { u"schemas/person.json"_s, 3, 1, {}, u"invalid JSON"_s } };
    QTest::addRow("schema is a number") << with(u"schemas/person.json"_s,
        "42") << QList<Expected> { { u"schemas/person.json"_s, 0, -1, {}, u"must be an object"_s } };
    QTest::addRow("schema path escapes the folder")
        << manifestWith(R"("schemas/person.json")", R"("../../etc/passwd")")
        << QList<Expected> { { u"suite.json"_s, 0, -1, u"/schemas/person"_s, u"inside the suite folder"_s } };
    QTest::addRow("default schema undeclared")
        << manifestWith(R"("default_schema": "ticket")", R"("default_schema": "tickets")")
        << QList<Expected> { { u"suite.json"_s, 0, -1, u"/default_schema"_s, u"not declared"_s } };
    QTest::addRow("unknown family") << manifestWith(R"(["ladder", "extraction"])", R"(["ladder", "vibes"])")
                                    << QList<Expected> { { u"suite.json"_s, 0, -1, u"/families/1"_s,
                                           u"unknown metric family \"vibes\""_s } };
    QTest::addRow("duplicate category") << manifestWith(
        R"(["support", "contact"])", R"(["support", "support", "contact"])")
                                        << QList<Expected> { { u"suite.json"_s, 0, -1, u"/categories/1"_s,
                                               u"listed twice"_s } };
    QTest::addRow("template without input") << manifestWith(R"("Extract: {{input}}")",
        R"("Extract it")") << QList<Expected> { { u"suite.json"_s, 0, -1, u"/prompt/user"_s, u"{{input}}"_s } };
    QTest::addRow("bad array matching") << manifestWith(
        R"("array_matching": "ordered")", R"("array_matching": "sorted")")
                                        << QList<Expected> { { u"suite.json"_s, 0, -1, u"/options/array_matching"_s,
                                               u"\"unordered\""_s } };
    QTest::addRow("two broken lines, both reported")
        << with(u"cases.jsonl"_s,
               caseOk + "\n{\"id\": \"a\",, }\n" + QByteArray(caseOk).replace("t-1", "t-3") + "\n[1]\n")
        << QList<Expected> { { u"cases.jsonl"_s, 2, 12, {}, u"invalid JSON"_s },
               { u"cases.jsonl"_s, 4, -1, {}, u"must be a JSON object"_s } };
    QTest::addRow("case misses input and gold")
        << with(u"cases.jsonl"_s, R"({"id": "a", "category": "support"})")
        << QList<Expected> { { u"cases.jsonl"_s, 1, -1, {}, u"\"input\" is missing"_s },
               { u"cases.jsonl"_s, 1, -1, {}, u"\"gold\" is missing"_s } };
    QTest::addRow("case id is a number") << with(
        u"cases.jsonl"_s, R"({"id": 5, "category": "support", "input": "x", "gold": {}})")
                                         << QList<Expected> { { u"cases.jsonl"_s, 1, -1, u"/id"_s,
                                                u"must be a string"_s } };
    QTest::addRow("case schema is a number")
        << with(u"cases.jsonl"_s, R"({"id": "a", "category": "support", "schema": 3, "input": "x", "gold": {}})")
        << QList<Expected> { { u"cases.jsonl"_s, 1, -1, u"/schema"_s, u"schema name or an inline schema"_s } };
    QTest::addRow("empty cases file") << with(u"cases.jsonl"_s, "\n  \n")
                                      << QList<Expected> { { u"cases.jsonl"_s, 0, -1, {}, u"no cases"_s } };
    QTest::addRow("nesting bomb in a case")
        << with(u"cases.jsonl"_s, caseOk + "\n" + QByteArray(100000, '[') + "\n")
        << QList<Expected> { { u"cases.jsonl"_s, 2, 257, {}, u"nesting deeper than 256 levels"_s } };
    QTest::addRow("invalid UTF-8 in a case")
        << with(u"cases.jsonl"_s, "{\"id\": \"a\xff\", \"category\": \"support\", \"input\": \"x\", \"gold\": {}}")
        << QList<Expected> { { u"cases.jsonl"_s, 1, -1, {}, u"invalid JSON"_s } };
    QTest::addRow("CRLF lines are fine but a bad one is located") << with(u"cases.jsonl"_s,
        caseOk + "\r\n{\"id\": }\r\n") << QList<Expected> { { u"cases.jsonl"_s, 2, -1, {}, u"invalid JSON"_s } };
}

void TestSuite::reportsLocatedProblems()
{
    QFETCH(SuiteFiles, files);
    QFETCH(QList<Expected>, expected);
    const SuiteLoadResult result = loadSuite(files);
    QVERIFY2(!result.ok(), "a broken suite must be refused");
    const Problems& problems = result.problems;
    QVERIFY2(problems.size() >= expected.size(), qPrintable(describe(problems)));
    for (const Expected& e : expected) {
        const bool found = std::any_of(problems.cbegin(), problems.cend(), [&](const Problem& p) {
            return p.file == e.file && p.line == e.line && (e.column < 0 || p.column == e.column)
                && p.pointer == e.pointer && p.message.contains(e.messagePart);
        });
        QVERIFY2(found,
            qPrintable(u"expected %1:%2:%3 %4 \"%5\" among:\n%6"_s.arg(e.file).arg(e.line).arg(e.column).arg(
                e.pointer, e.messagePart, describe(problems))));
    }
}

void TestSuite::preflightFindsEveryGoldProblem_data()
{
    QTest::addColumn<SuiteFiles>("files");
    QTest::addColumn<QList<Expected>>("expected");
    QTest::addColumn<bool>("refused");

    const auto withCases = [](const QByteArray& cases) {
        SuiteFiles f = goodSuite();
        f[u"cases.jsonl"_s] = cases;
        return f;
    };
    const auto withManifest = [](const QByteArray& from, const QByteArray& to) {
        SuiteFiles f = goodSuite();
        f[u"suite.json"_s].replace(from, to);
        return f;
    };

    QTest::addRow("gold breaks the schema in two places, on two lines")
        << withCases(
               R"({"id": "a", "category": "support", "input": "x", "gold": {"title": "x", "priority": "urgent"}}
{"id": "b", "category": "contact", "schema": "person", "input": "y", "gold": {"name": "B", "age": -3}}
)")
        << QList<Expected> { { u"cases.jsonl"_s, 1, -1, u"/gold/priority"_s, u"gold does not match"_s },
               { u"cases.jsonl"_s, 2, -1, u"/gold/age"_s, u"gold does not match"_s } }
        << true;
    QTest::addRow("gold with an extra key") << withCases(
        R"({"id": "a", "category": "support", "input": "x", "gold": {"title": "x", "priority": "low", "note": 1}})")
                                            << QList<Expected> { { u"cases.jsonl"_s, 1, -1, u"/gold/note"_s,
                                                   u"\"note\" is not allowed"_s } }
                                            << true;
    QTest::addRow("duplicate id points at the first use")
        << withCases(R"({"id": "a", "category": "support", "input": "x", "gold": {"title": "x", "priority": "low"}}
{"id": "b", "category": "support", "input": "x", "gold": {"title": "x", "priority": "low"}}
{"id": "a", "category": "support", "input": "y", "gold": {"title": "y", "priority": "low"}}
)") << QList<Expected> { { u"cases.jsonl"_s, 3, -1, u"/id"_s, u"already used on line 1"_s } }
        << true;
    QTest::addRow("undeclared category and schema")
        << withCases(R"({"id": "a", "category": "billing", "schema": "invoice", "input": "x", "gold": {}})")
        << QList<Expected> { { u"cases.jsonl"_s, 1, -1, u"/category"_s, u"\"billing\" is not declared"_s },
               { u"cases.jsonl"_s, 1, -1, u"/schema"_s, u"\"invoice\" is not declared"_s } }
        << true;
    QTest::addRow("inline schema checked and used") << withCases(
        R"({"id": "a", "category": "support", "schema": {"type": "object", "required": ["n"]}, "input": "x", "gold": {"m": 1}})")
                                                    << QList<Expected> { { u"cases.jsonl"_s, 1, -1, u"/gold"_s,
                                                           u"gold does not match"_s } }
                                                    << true;
    QTest::addRow("inline schema that is not a schema")
        << withCases(R"({"id": "a", "category": "support", "schema": {"type": "objectt"}, "input": "x", "gold": {}})")
        << QList<Expected> { { u"cases.jsonl"_s, 1, -1, u"/schema/type"_s, u"not a valid draft-07 schema"_s } } << true;
    QTest::addRow("example output invalid")
        << withManifest(R"("priority": "high"}}})", R"("priority": "asap"}}})")
        << QList<Expected> { { u"suite.json"_s, 0, -1, u"/examples/ticket/output/priority"_s, u"example output"_s } }
        << true;
    QTest::addRow("example for an undeclared schema")
        << withManifest(R"("examples": {"ticket")", R"("examples": {"tickets")")
        << QList<Expected> { { u"suite.json"_s, 0, -1, u"/examples/tickets"_s, u"not declared"_s } } << true;
    QTest::addRow("schema file with an invalid type keyword") <<
        [] {
            SuiteFiles f = goodSuite();
            f[u"schemas/person.json"_s] = R"({"type": "objectt"})";
            return f;
        }() << QList<Expected> { { u"schemas/person.json"_s, 0, -1, u"/type"_s, u"not a valid draft-07 schema"_s } }
                                                              << true;
    QTest::addRow("unsupported keyword is a warning, not a refusal")
        <<
        [] {
            SuiteFiles f = goodSuite();
            f[u"schemas/person.json"_s]
                = R"({"type": "object", "properties": {"tags": {"type": "array", "prefixItems": [{"type": "string"}]}}})";
            return f;
        }()
        << QList<Expected> { { u"schemas/person.json"_s, 0, -1, u"/properties/tags/prefixItems"_s, u"prefixItems"_s } }
        << false;
}

void TestSuite::preflightFindsEveryGoldProblem()
{
    QFETCH(SuiteFiles, files);
    QFETCH(QList<Expected>, expected);
    QFETCH(bool, refused);
    const Problems problems = loadAndCheck(files);
    QCOMPARE(hasErrors(problems), refused);
    for (const Expected& e : expected) {
        const bool found = std::any_of(problems.cbegin(), problems.cend(), [&](const Problem& p) {
            return p.file == e.file && p.line == e.line && p.pointer == e.pointer && p.message.contains(e.messagePart);
        });
        QVERIFY2(found,
            qPrintable(u"expected %1:%2 %3 \"%4\" among:\n%5"_s.arg(e.file).arg(e.line).arg(
                e.pointer, e.messagePart, describe(problems))));
    }
}

void TestSuite::checkListsEveryProblemAtOnce()
{
    SuiteFiles files = goodSuite();
    files[u"cases.jsonl"_s] = QByteArray(
        "{\"id\": \"t-1\", \"category\": \"support\", \"input\": \"a\", \"gold\": {\"title\": \"a\", \"priority\": "
        "\"low\"}}\n"
        "{\"id\": \"t-2\", \"category\": \"support\", \"input\": \"b\", \"gold\": {\"title\": \"b\", \"priority\": "
        "\"urgent\"}}\n"
        "{\"id\": \"t-3\", \"category\": \"support\", \"input\": \"c\", \"gold\": {\"title\": \n"
        "{\"id\": \"t-1\", \"category\": \"support\", \"input\": \"d\", \"gold\": {\"title\": \"d\", \"priority\": "
        "\"low\"}}\n"
        "{\"id\": \"t-5\", \"category\": \"billing\", \"input\": \"e\", \"gold\": {\"title\": \"e\", \"priority\": "
        "\"low\"}}\n"
        "{\"id\": \"p-1\", \"category\": \"contact\", \"schema\": \"invoice\", \"input\": \"f\", \"gold\": {}}\n"
        "{\"id\": \"p-2\", \"category\": \"contact\", \"schema\": \"person\", \"input\": \"g\", \"gold\": "
        "{\"name\": \"G\", \"age\": -1}}\n");
    files[u"suite.json"_s].replace("\"priority\": \"high\"}}}", "\"priority\": \"asap\"}}}");
    const SuiteLoadResult loaded = loadSuite(files);
    QVERIFY(!loaded.ok());
    const Problems problems = checkLoadedSuite(loaded);
    const QList<Expected> expected = {
        { u"cases.jsonl"_s, 3, -1, {}, u"invalid JSON"_s },
        { u"cases.jsonl"_s, 2, -1, u"/gold/priority"_s, u"gold does not match its schema"_s },
        { u"cases.jsonl"_s, 4, -1, u"/id"_s, u"case id \"t-1\" is already used on line 1"_s },
        { u"cases.jsonl"_s, 5, -1, u"/category"_s, u"category \"billing\" is not declared"_s },
        { u"cases.jsonl"_s, 6, -1, u"/schema"_s, u"schema \"invoice\" is not declared"_s },
        { u"cases.jsonl"_s, 7, -1, u"/gold/age"_s, u"gold does not match its schema"_s },
        { u"suite.json"_s, 0, -1, u"/examples/ticket/output/priority"_s, u"the example output does not match"_s },
    };
    for (const Expected& e : expected) {
        const bool found = std::any_of(problems.cbegin(), problems.cend(), [&](const Problem& p) {
            return p.file == e.file && p.line == e.line && p.pointer == e.pointer && p.message.contains(e.messagePart);
        });
        QVERIFY2(found,
            qPrintable(u"expected %1:%2 %3 \"%4\" among:\n%5"_s.arg(e.file).arg(e.line).arg(
                e.pointer, e.messagePart, describe(problems))));
    }
    QCOMPARE(problems.size(), expected.size()); // and nothing else: no problem reported twice

    // A manifest that cannot be read leaves nothing to check declarations against: the cases are still
    // checked for what does not depend on it (unique ids), and the missing declarations are not blamed on
    // every case.
    files[u"suite.json"_s] = "{\"id\": ";
    const Problems withoutManifest = checkLoadedSuite(loadSuite(files));
    QVERIFY2(std::any_of(withoutManifest.cbegin(), withoutManifest.cend(),
                 [](const Problem& p) { return p.line == 4 && p.message.contains(u"already used on line 1"_s); }),
        qPrintable(describe(withoutManifest)));
    QVERIFY2(std::none_of(withoutManifest.cbegin(), withoutManifest.cend(),
                 [](const Problem& p) { return p.message.contains(u"not declared"_s); }),
        qPrintable(describe(withoutManifest)));
}

void TestSuite::loadsFolderFromDisk()
{
    const QString dir = QStringLiteral(STRUCTSCOPE_TEST_DATA) + u"/suite/valid"_s;
    const SuiteLoadResult result = loadSuiteDir(dir);
    QVERIFY2(result.ok(), qPrintable(describe(result.problems)));
    QCOMPARE(result.suite->id, u"tiny"_s);
    QCOMPARE(result.suite->cases.size(), 2);
    QVERIFY(!result.suite->catalog.is_null());
    QVERIFY(preflightSuite(*result.suite).isEmpty());
}

void TestSuite::suiteFolderReadsOnlyItsOwnRegularFiles_data()
{
    QTest::addColumn<QString>("make");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message");
    QTest::newRow("schema linked to a file outside")
        << u"schema-outside"_s << u"schemas/order.json"_s << u"outside the suite folder"_s;
    QTest::newRow("schemas folder linked outside")
        << u"schemas-dir-outside"_s << u"schemas/order.json"_s << u"outside the suite folder"_s;
    QTest::newRow("cases linked to /dev/zero") << u"dev-zero"_s << u"cases.jsonl"_s << u"outside the suite folder"_s;
    QTest::newRow("cases a FIFO") << u"fifo"_s << u"cases.jsonl"_s << u"not a regular file"_s;
    QTest::newRow("cases a folder") << u"folder"_s << u"cases.jsonl"_s << u"not a regular file"_s;
    QTest::newRow("dangling link") << u"dangling"_s << u"cases.jsonl"_s << u"does not exist"_s;
    QTest::newRow("suite.json over 32 MiB") << u"big-manifest"_s << u"suite.json"_s << u"too large"_s;
    QTest::newRow("cases.jsonl over 256 MiB") << u"big-cases"_s << u"cases.jsonl"_s << u"too large"_s;
    QTest::newRow("link inside the folder") << u"link-inside"_s << QString() << QString();
}

void TestSuite::suiteFolderReadsOnlyItsOwnRegularFiles()
{
    QFETCH(QString, make);
    QFETCH(QString, file);
    QFETCH(QString, message);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString dir = tmp.filePath(u"suite"_s);
    QVERIFY(copyValidSuite(dir));
    // A valid schema outside the folder: followed, it would load without a problem.
    const QString outside = tmp.filePath(u"outside"_s);
    QVERIFY(QDir().mkpath(outside));
    QVERIFY(QFile::copy(dir + u"/schemas/order.json"_s, outside + u"/order.json"_s));
    const auto replaceByLink = [](const QString& target, const QString& link) {
        QDir(link).removeRecursively();
        QFile::remove(link);
        return QFile::link(target, link);
    };
    const auto makeSparse = [](const QString& path, qint64 size) {
        QFile f(path);
        return f.open(QIODevice::ReadWrite) && f.resize(size);
    };
    if (make == u"schema-outside") {
        QVERIFY(replaceByLink(outside + u"/order.json"_s, dir + u"/schemas/order.json"_s));
    } else if (make == u"schemas-dir-outside") {
        QVERIFY(replaceByLink(outside, dir + u"/schemas"_s));
    } else if (make == u"dev-zero") {
        QVERIFY(replaceByLink(u"/dev/zero"_s, dir + u"/cases.jsonl"_s));
    } else if (make == u"fifo") {
        QVERIFY(QFile::remove(dir + u"/cases.jsonl"_s));
        QCOMPARE(::mkfifo(QFile::encodeName(dir + u"/cases.jsonl"_s).constData(), 0600), 0);
    } else if (make == u"folder") {
        QVERIFY(QFile::remove(dir + u"/cases.jsonl"_s));
        QVERIFY(QDir().mkpath(dir + u"/cases.jsonl"_s));
    } else if (make == u"dangling") {
        QVERIFY(replaceByLink(dir + u"/gone.jsonl"_s, dir + u"/cases.jsonl"_s));
    } else if (make == u"big-manifest") {
        QVERIFY(makeSparse(dir + u"/suite.json"_s, 32ll * 1024 * 1024 + 1));
    } else if (make == u"big-cases") {
        QVERIFY(makeSparse(dir + u"/cases.jsonl"_s, 256ll * 1024 * 1024 + 1));
    } else if (make == u"link-inside") {
        QVERIFY(QFile::rename(dir + u"/cases.jsonl"_s, dir + u"/real-cases.jsonl"_s));
        QVERIFY(QFile::link(u"real-cases.jsonl"_s, dir + u"/cases.jsonl"_s));
    }

    const SuiteLoadResult result = loadSuiteDir(dir);
    if (file.isEmpty()) {
        QVERIFY2(result.ok(), qPrintable(describe(result.problems)));
        QCOMPARE(result.suite->cases.size(), 2);
        return;
    }
    QVERIFY2(!result.ok(), "the suite must be refused");
    const bool named = std::any_of(result.problems.cbegin(), result.problems.cend(),
        [&](const Problem& p) { return p.file == file && p.message.contains(message); });
    QVERIFY2(named, qPrintable(describe(result.problems)));
}

void TestSuite::missingFolderIsAProblem()
{
    const SuiteLoadResult result = loadSuiteDir(u"/nonexistent/structscope-suite"_s);
    QVERIFY(!result.ok());
    QVERIFY2(result.problems.constFirst().message.contains(u"not a folder"_s), qPrintable(describe(result.problems)));
}

void TestSuite::problemToString()
{
    QCOMPARE((Problem { u"cases.jsonl"_s, 12, 5, u"/gold/amount"_s, u"too big"_s }).toString(),
        u"cases.jsonl:12:5: /gold/amount: too big"_s);
    QCOMPARE((Problem { u"suite.json"_s, 0, 0, {}, u"missing"_s }).toString(), u"suite.json: missing"_s);
    QCOMPARE((Problem { u"s.json"_s, 0, 0, u"/x"_s, u"odd"_s, true }).toString(), u"s.json: warning: /x: odd"_s);
}

QTEST_GUILESS_MAIN(TestSuite)
#include "tst_suite.moc"
