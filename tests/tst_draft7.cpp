// SPDX-License-Identifier: Apache-2.0
// Draft-07 conformance: the required tests of the official JSON Schema Test Suite (tests/data/jsts-draft7, whose
// README says where they come from and what is left out), run through every path along which StructScope
// validates a response. Each path's pass count is printed; any failure fails the test.

#include "schema/schemauri.h"
#include "schema/schemavalidator.h"
#include "scoring/grounding.h"
#include "scoring/scorer.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <map>

using namespace structscope;
using namespace Qt::StringLiterals;
using nlohmann::json;

namespace {

struct SuiteTest
{
    QString file;
    std::string group;
    std::string description;
    const json* schema;
    json data;
    bool valid;
};

struct SuiteGroup
{
    QString file;
    std::string description;
    json schema;
};

json parse(const QByteArray& text)
{
    return json::parse(text.constData(), text.constData() + text.size());
}

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

/// Counts and the first failures of one validation path.
struct PathResult
{
    int run = 0;
    int passed = 0;
    QStringList failures;

    void record(const SuiteTest& t, bool verdict, const std::string& why = {})
    {
        ++run;
        if (verdict == t.valid) {
            ++passed;
            return;
        }
        failures << u"%1 / %2 / %3: expected %4, got %5%6"_s.arg(t.file, qs(t.group), qs(t.description),
            t.valid ? u"valid"_s : u"invalid"_s, verdict ? u"valid"_s : u"invalid"_s,
            why.empty() ? QString() : u" (" + qs(why) + u")");
    }
};

} // namespace

class TestDraft7 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void requiredTests();
    void everySchemaPassesTheMetaSchema();
    void validSchemaThatDoesNotCompile();
    void unsupportedKeywordsPerSchema_data();
    void unsupportedKeywordsPerSchema();
    void emptyPointerTokens_data();
    void emptyPointerTokens();
    void uriResolution_data();
    void uriResolution();

private:
    std::vector<SuiteGroup> m_groups; // reserved up front: tests point at their group's schema
    std::vector<SuiteTest> m_tests;
};

void TestDraft7::initTestCase()
{
    const QDir dir(QStringLiteral(STRUCTSCOPE_TEST_DATA) + u"/jsts-draft7"_s);
    const QStringList files = dir.entryList({ u"*.json"_s }, QDir::Files, QDir::Name);
    QCOMPARE(files.size(), 36); // tests/draft7/*.json but refRemote.json
    std::vector<json> documents;
    std::size_t groups = 0;
    for (const QString& name : files) {
        QFile file(dir.filePath(name));
        QVERIFY(file.open(QIODevice::ReadOnly));
        documents.push_back(parse(file.readAll()));
        QVERIFY(documents.back().is_array());
        groups += documents.back().size();
    }
    m_groups.reserve(groups);
    for (qsizetype f = 0; f < files.size(); ++f) {
        for (const json& group : documents[static_cast<std::size_t>(f)]) {
            m_groups.push_back(SuiteGroup { files[f], group.at("description").get<std::string>(), group.at("schema") });
            for (const json& test : group.at("tests"))
                m_tests.push_back(
                    SuiteTest { files[f], m_groups.back().description, test.at("description").get<std::string>(),
                        &m_groups.back().schema, test.at("data"), test.at("valid").get<bool>() });
        }
    }
    QCOMPARE(m_tests.size(), std::size_t(904));
}

void TestDraft7::requiredTests()
{
    // The ladder and extraction families: SchemaCache with the suite's options (formats checked unless the suite
    // says validate_formats false), as scoreResponse() runs it; the error list of drill-down views must agree.
    std::map<QString, PathResult> paths;
    ScoringOptions ladder = ScoringOptions::forFamilies({ u"ladder"_s });
    ScoringOptions noFormats = ladder;
    noFormats.schema.validateFormats = false;
    // The grounding family beside the ladder: json_pass takes the ladder's verdict where both options agree.
    const ScoringOptions both = ScoringOptions::forFamilies({ u"ladder"_s, u"grounding"_s });

    for (const SuiteTest& t : m_tests) {
        ScoreInput input;
        input.imported = &t.data; // every value, strings included, is the candidate itself
        input.gold = &t.data;
        input.schema = t.schema;

        const Verdict v = scoreResponse(input, ladder);
        paths[u"ladder"_s].record(t, v.schemaValid, v.schemaErrors.empty() ? std::string() : v.schemaErrors[0].message);
        const Verdict unchecked = scoreResponse(input, noFormats);
        paths[u"ladder, validate_formats false"_s].record(t, unchecked.schemaValid);

        std::string error;
        const CompiledSchemaPtr compiled = SchemaCache::compile(*t.schema, ladder.schema, &error);
        paths[u"ladder error list"_s].record(t, compiled && compiled->validate(t.data).empty(), error);

        // SOB's grounding.json_pass: a schema that is a JSON object, data that is an object or an array (anything
        // else fails json_pass by definition).
        if (!t.schema->is_object() || !t.data.is_structured())
            continue;
        GroundingDetails details;
        const GroundingScores g = scoreGrounding(GroundingInput { &t.data, t.data, *t.schema }, &details);
        paths[u"grounding.json_pass"_s].record(t, g.jsonPass == 1.0, details.schemaProblem);
        const Verdict shared = scoreResponse(input, both);
        QVERIFY(shared.grounding);
        paths[u"grounding.json_pass beside the ladder"_s].record(t, shared.grounding->jsonPass == 1.0);
    }

    QStringList failures;
    for (const auto& [name, result] : paths) {
        qInfo("%-40s %d/%d", qPrintable(name), result.passed, result.run);
        for (const QString& f : result.failures)
            failures << name + u": "_s + f;
    }
    QCOMPARE(paths.size(), std::size_t(5));
    QCOMPARE(paths[u"ladder"_s].run, 904);
    QCOMPARE(paths[u"grounding.json_pass"_s].run, 485);
    QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 40).join(u'\n')));
}

void TestDraft7::everySchemaPassesTheMetaSchema()
{
    // Every schema of the suite is a valid draft-07 schema (Python's Draft7Validator.check_schema agrees), and
    // grounding.schema_valid_input says so for every one that is a JSON object (SOB requires an object).
    int objects = 0;
    const json candidate = json::object();
    for (const SuiteGroup& group : m_groups) {
        const std::vector<SchemaError> errors = checkAgainstMetaSchema(group.schema);
        QVERIFY2(errors.empty(), qPrintable(group.file + u": "_s + qs(group.description)));
        if (!group.schema.is_object())
            continue;
        ++objects;
        GroundingDetails details;
        const GroundingScores g = scoreGrounding(GroundingInput { &candidate, candidate, group.schema }, &details);
        QVERIFY2(g.schemaValidInput == 1.0,
            qPrintable(group.file + u": "_s + qs(group.description) + u": "_s + qs(details.schemaProblem)));
        QVERIFY2(details.schemaProblem.empty(), details.schemaProblem.c_str());
    }
    QCOMPARE(objects, 244);
}

void TestDraft7::validSchemaThatDoesNotCompile()
{
    // From refRemote.json: a valid schema whose $ref needs a document that StructScope does not fetch.
    const json schema = parse("{\"properties\": {\"n\": {\"$ref\": \"http://localhost:1234/integer.json\"}}}");
    QVERIFY(checkAgainstMetaSchema(schema).empty());
    std::string error;
    QVERIFY(!SchemaCache::compile(schema, {}, &error));
    QVERIFY2(qs(error).contains(u"/properties/n/$ref"_s) && qs(error).contains(u"not fetched"_s), error.c_str());

    const json candidate = parse("{\"n\": 1}");
    GroundingDetails details;
    const GroundingScores g = scoreGrounding(GroundingInput { &candidate, candidate, schema }, &details);
    QCOMPARE(g.schemaValidInput, 1.0);
    QCOMPARE(g.jsonPass, 0.0);
    QVERIFY2(qs(details.schemaProblem).contains(u"not fetched"_s), details.schemaProblem.c_str());
    // SOB reads required keys from any valid schema, compiled or not.
    const json required
        = parse("{\"type\": \"object\", \"required\": [\"n\"], \"properties\": {\"n\": {\"$ref\": \"other.json\"}}}");
    const GroundingScores r = scoreGrounding(GroundingInput { &candidate, candidate, required });
    QCOMPARE(r.schemaValidInput, 1.0);
    QCOMPARE(r.requiredPaths, 1);
    QCOMPARE(r.requiredKeyRecall, 1.0);

    // Not a valid draft-07 schema: 0.
    const json invalid = parse("{\"type\": 5}");
    QCOMPARE(scoreGrounding(GroundingInput { &candidate, candidate, invalid }).schemaValidInput, 0.0);
}

void TestDraft7::unsupportedKeywordsPerSchema_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<QStringList>("pointers");

    QTest::addRow("draft-07 keywords only")
        << QByteArray("{\"type\": \"object\", \"properties\": {\"a\": {}}}") << QStringList {};
    QTest::addRow("later drafts and OpenAPI")
        << QByteArray("{\"prefixItems\": [{}], \"properties\": {\"a\": {\"type\": \"string\", \"nullable\": true},"
                      " \"b\": {\"dependentRequired\": {\"x\": [\"y\"]}}}}")
        << QStringList { u"/prefixItems"_s, u"/properties/a/nullable"_s, u"/properties/b/dependentRequired"_s };
    QTest::addRow("in a subschema named by its $id")
        << QByteArray("{\"$id\": \"http://example.com/root.json\", \"items\": {\"$ref\": \"item.json\"},"
                      " \"definitions\": {\"item\": {\"$id\": \"item.json\", \"unevaluatedProperties\": false}}}")
        << QStringList { u"/definitions/item/unevaluatedProperties"_s };
    QTest::addRow("beside a $ref to the meta-schema") << QByteArray(
        "{\"properties\": {\"s\": {\"$ref\": \"http://json-schema.org/draft-07/schema#\"},"
        " \"t\": {\"$anchor\": \"t\"}}}") << QStringList { u"/properties/t/$anchor"_s };
    QTest::addRow("a foreign dialect") << QByteArray("{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\"}")
                                       << QStringList { u"/$schema"_s };
}

void TestDraft7::unsupportedKeywordsPerSchema()
{
    QFETCH(QByteArray, schema);
    QFETCH(QStringList, pointers);

    std::string error;
    const CompiledSchemaPtr compiled = SchemaCache::compile(parse(schema), {}, &error);
    QVERIFY2(compiled, error.c_str());
    QStringList found;
    for (const SchemaError& e : compiled->unsupportedKeywords()) {
        found << qs(e.pointer);
        QVERIFY2(qs(e.message).contains(u"unsupported"_s), e.message.c_str());
    }
    QCOMPARE(found, pointers);

    // The suite's own schemas use draft-07 keywords only: none is reported.
    if (QByteArray(QTest::currentDataTag()) == "draft-07 keywords only") {
        for (const SuiteGroup& group : m_groups) {
            const CompiledSchemaPtr suiteSchema = SchemaCache::compile(group.schema, {}, &error);
            QVERIFY2(suiteSchema, error.c_str());
            QVERIFY2(
                suiteSchema->unsupportedKeywords().empty(), qPrintable(group.file + u": "_s + qs(group.description)));
        }
    }
}

void TestDraft7::emptyPointerTokens_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<QByteArray>("instance");
    QTest::addColumn<bool>("valid");

    // Beyond the suite's one case: subschemas under an empty key that the validator reaches by an internal
    // reference (anyOf/oneOf alternatives, propertyNames, additionalProperties) and $refs through several of them.
    const QByteArray anyOf = "{\"properties\": {\"\": {\"anyOf\": [{\"type\": \"string\"},"
                             " {\"type\": \"object\", \"required\": [\"a\"]}]}}}";
    QTest::addRow("anyOf under an empty key, valid") << anyOf << QByteArray("{\"\": {\"a\": 1}}") << true;
    QTest::addRow("anyOf under an empty key, invalid") << anyOf << QByteArray("{\"\": {\"b\": 1}}") << false;
    const QByteArray names = "{\"properties\": {\"\": {\"propertyNames\": {\"maxLength\": 1},"
                             " \"additionalProperties\": {\"type\": \"integer\"}}}}";
    QTest::addRow("propertyNames under an empty key") << names << QByteArray("{\"\": {\"ab\": 1}}") << false;
    QTest::addRow("additionalProperties under an empty key") << names << QByteArray("{\"\": {\"a\": \"x\"}}") << false;
    QTest::addRow("both satisfied") << names << QByteArray("{\"\": {\"a\": 1}}") << true;
    const QByteArray chain = "{\"definitions\": {\"\": {\"definitions\": {\"\": {\"$ref\": \"#/definitions/x\"}}},"
                             " \"x\": {\"oneOf\": [{\"type\": \"integer\"}, {\"minimum\": 2}]}},"
                             " \"items\": {\"$ref\": \"#/definitions//definitions/\"}}";
    QTest::addRow("$ref chain through empty keys, valid") << chain << QByteArray("[1, 2.5]") << true;
    QTest::addRow("$ref chain through empty keys, invalid") << chain << QByteArray("[3]") << false;
}

void TestDraft7::emptyPointerTokens()
{
    QFETCH(QByteArray, schema);
    QFETCH(QByteArray, instance);
    QFETCH(bool, valid);

    std::string error;
    const CompiledSchemaPtr compiled = SchemaCache::compile(parse(schema), {}, &error);
    QVERIFY2(compiled, error.c_str());
    QCOMPARE(compiled->isValid(parse(instance)), valid);
    QCOMPARE(compiled->validate(parse(instance)).empty(), valid);
}

void TestDraft7::uriResolution_data()
{
    QTest::addColumn<QString>("base");
    QTest::addColumn<QString>("reference");
    QTest::addColumn<QString>("resolved");

    // RFC 3986 section 5.4: the normal and abnormal examples.
    const QString base = u"http://a/b/c/d;p?q"_s;
    const char* const examples[][2] = {
        { "g:h", "g:h" },
        { "g", "http://a/b/c/g" },
        { "./g", "http://a/b/c/g" },
        { "g/", "http://a/b/c/g/" },
        { "/g", "http://a/g" },
        { "//g", "http://g" },
        { "?y", "http://a/b/c/d;p?y" },
        { "g?y", "http://a/b/c/g?y" },
        { "#s", "http://a/b/c/d;p?q#s" },
        { "g#s", "http://a/b/c/g#s" },
        { "g?y#s", "http://a/b/c/g?y#s" },
        { ";x", "http://a/b/c/;x" },
        { "g;x", "http://a/b/c/g;x" },
        { "g;x?y#s", "http://a/b/c/g;x?y#s" },
        { "", "http://a/b/c/d;p?q" },
        { ".", "http://a/b/c/" },
        { "./", "http://a/b/c/" },
        { "..", "http://a/b/" },
        { "../", "http://a/b/" },
        { "../g", "http://a/b/g" },
        { "../..", "http://a/" },
        { "../../", "http://a/" },
        { "../../g", "http://a/g" },
        { "../../../g", "http://a/g" },
        { "../../../../g", "http://a/g" },
        { "/./g", "http://a/g" },
        { "/../g", "http://a/g" },
        { "g.", "http://a/b/c/g." },
        { ".g", "http://a/b/c/.g" },
        { "g..", "http://a/b/c/g.." },
        { "..g", "http://a/b/c/..g" },
        { "./../g", "http://a/b/g" },
        { "./g/.", "http://a/b/c/g/" },
        { "g/./h", "http://a/b/c/g/h" },
        { "g/../h", "http://a/b/c/h" },
        { "g;x=1/./y", "http://a/b/c/g;x=1/y" },
        { "g;x=1/../y", "http://a/b/c/y" },
        { "g?y/./x", "http://a/b/c/g?y/./x" },
        { "g?y/../x", "http://a/b/c/g?y/../x" },
        { "g#s/./x", "http://a/b/c/g#s/./x" },
        { "g#s/../x", "http://a/b/c/g#s/../x" },
        { "http:g", "http:g" },
    };
    for (const auto& [reference, resolved] : examples)
        QTest::addRow("%s", *reference ? reference : "(empty)")
            << base << QString::fromUtf8(reference) << QString::fromUtf8(resolved);
    // Schema bases: none, a URN, an authority without a path.
    QTest::addRow("no base, fragment") << QString() << u"#foo"_s << u"#foo"_s;
    QTest::addRow("no base, relative") << QString() << u"a/./b.json"_s << u"a/b.json"_s;
    QTest::addRow("urn, pointer") << u"urn:uuid:deadbeef"_s << u"#/definitions/a"_s
                                  << u"urn:uuid:deadbeef#/definitions/a"_s;
    QTest::addRow("authority only") << u"http://example.com"_s << u"item.json"_s << u"http://example.com/item.json"_s;
}

void TestDraft7::uriResolution()
{
    QFETCH(QString, base);
    QFETCH(QString, reference);
    QFETCH(QString, resolved);
    QCOMPARE(qs(schemadetail::resolveUri(base.toStdString(), reference.toStdString())), resolved);
}

QTEST_GUILESS_MAIN(TestDraft7)
#include "tst_draft7.moc"
