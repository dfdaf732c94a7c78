// SPDX-License-Identifier: Apache-2.0
// Schema validation (valijson behind SchemaValidator): the compiled-schema cache, draft-07 keywords and the rules
// where valijson 1.0 is wrong, $ref resolution, limits on hostile schemas, and the keyword audit.
#include "schema/schemavalidator.h"

#include <QFile>
#include <QTest>

#include <atomic>
#include <thread>

using namespace Qt::StringLiterals;
using nlohmann::json;
using namespace structscope;

Q_DECLARE_METATYPE(nlohmann::json)

namespace {

json parse(const QByteArray& text)
{
    return json::parse(text.constData(), text.constData() + text.size());
}

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString describe(const std::vector<SchemaError>& errors)
{
    QStringList lines;
    for (const SchemaError& e : errors)
        lines << qs(e.pointer) + u" | "_s + qs(e.message);
    return lines.join(u'\n');
}

/// Expected errors are "pointer|fragment of the message", in order.
void compareErrors(const std::vector<SchemaError>& actual, const QStringList& expected)
{
    QVERIFY2(actual.size() == static_cast<std::size_t>(expected.size()),
        qPrintable(u"expected %1 errors, got:\n"_s.arg(expected.size()) + describe(actual)));
    for (qsizetype i = 0; i < expected.size(); ++i) {
        const qsizetype bar = expected[i].indexOf(u'|');
        const QString pointer = expected[i].left(bar);
        const QString fragment = expected[i].mid(bar + 1);
        QVERIFY2(qs(actual[i].pointer) == pointer, qPrintable(u"error %1:\n"_s.arg(i) + describe(actual)));
        QVERIFY2(qs(actual[i].message).contains(fragment),
            qPrintable(u"error %1 lacks \"%2\":\n"_s.arg(i).arg(fragment) + describe(actual)));
    }
}

CompiledSchemaPtr compileOrFail(const json& schema, const SchemaOptions& options = {})
{
    std::string error;
    CompiledSchemaPtr compiled = SchemaCache::compile(schema, options, &error);
    if (!compiled)
        qWarning("compile failed: %s", error.c_str());
    return compiled;
}

json nested(const char* keyword, int levels, json leaf)
{
    json value = std::move(leaf);
    for (int i = 0; i < levels; ++i)
        value = json { { keyword, std::move(value) } };
    return value;
}

} // namespace

class TestSchema : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void validate_data();
    void validate();
    void integralFloats_data();
    void integralFloats();
    void formats_data();
    void formats();
    // One validation may serve two option sets only where they cannot disagree; where sameVerdictUnder() says so, the
    // two compiled forms must indeed agree.
    void sameVerdictUnder_data();
    void sameVerdictUnder();
    void patterns_data();
    void patterns();
    void fixtureInstances_data();
    void fixtureInstances();
    void invalidSchemas_data();
    void invalidSchemas();
    void metaSchema_data();
    void metaSchema();
    void metaSchemaValidatesItself();
    void unsupportedKeywords_data();
    void unsupportedKeywords();
    void compiledSchemaListsUnsupportedKeywords();
    void cacheReturnsSameSchemaForSameContent();
    void cacheSeparatesOptions();
    void cacheRemembersFailures();
    void concurrentValidationIsDeterministic();
    void concurrentCompileSharesOneSchema();
    void deepSchemaIsAnErrorNotACrash();
    void deepInstanceIsAnErrorNotACrash();
    void recursiveSchemaValidatesDeepInstanceOnWorkerThread();
    void hugeSchemaCompiles();
    void longStringAgainstPatternDoesNotOverflowStack();
    void longPropertyNameAgainstPatternProperties();
    void integerAboveInt64IsComparedByValue();
};

void TestSchema::validate_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<QByteArray>("instance");
    QTest::addColumn<QStringList>("errors");

    const QByteArray person = R"({"type": "object", "properties": {"name": {"type": "string"},
        "age": {"type": "integer"}}, "required": ["name"]})";
    QTest::addRow("valid object") << person << QByteArray(R"({"name": "Ann", "age": 3})") << QStringList {};
    QTest::addRow("missing required") << person << QByteArray(R"({"age": 3})")
                                      << QStringList { u"|required property \"name\" is missing"_s };
    QTest::addRow("properties before required, custom checks last")
        << QByteArray(R"({"type": "object", "required": ["a", "b"], "properties": {"c": {"type": "string"}}})")
        << QByteArray(R"({"c": 1})")
        << QStringList { u"/c|expected string, got integer 1"_s, u"|required property \"a\" is missing"_s,
               u"|required property \"b\" is missing"_s };
    QTest::addRow("nested object") << QByteArray(
        R"({"properties": {"customer": {"properties": {"address": {"properties":
            {"zip": {"type": "string"}}}}}}})")
                                   << QByteArray(R"({"customer": {"address": {"zip": 12345}}})")
                                   << QStringList { u"/customer/address/zip|expected string, got integer 12345"_s };
    QTest::addRow("array of objects") << QByteArray(
        R"({"properties": {"items": {"type": "array", "items": {"type": "object",
            "properties": {"qty": {"type": "integer", "minimum": 1}}, "required": ["qty"]}}}})")
                                      << QByteArray(R"({"items": [{"qty": 2}, {"qty": 0}, {}]})")
                                      << QStringList { u"/items/1/qty|value 0 is less than the minimum 1"_s,
                                             u"/items/2|required property \"qty\" is missing"_s };
    QTest::addRow("additionalProperties false lists every extra property")
        << QByteArray(R"({"properties": {"a": {}}, "additionalProperties": false})")
        << QByteArray(R"({"a": 1, "b": 2, "c": 3})")
        << QStringList { u"/b|property \"b\" is not allowed (additionalProperties is false)"_s,
               u"/c|property \"c\" is not allowed (additionalProperties is false)"_s };
    QTest::addRow("additionalProperties schema")
        << QByteArray(R"({"properties": {"a": {}}, "additionalProperties": {"type": "string"}})")
        << QByteArray(R"({"a": 1, "b": "x", "c": 3})") << QStringList { u"/c|expected string, got integer 3"_s };
    QTest::addRow("enum") << QByteArray(R"({"enum": ["open", "closed"]})") << QByteArray(R"("pending")")
                          << QStringList { u"|expected one of \"open\", \"closed\", got \"pending\""_s };
    QTest::addRow("enum compares numbers by value")
        << QByteArray(R"({"enum": [1, "1"]})") << QByteArray("1.0") << QStringList {};
    QTest::addRow("enum keeps booleans apart from numbers") << QByteArray(R"({"enum": [1, 0]})") << QByteArray("true")
                                                            << QStringList { u"|expected one of 1, 0, got true"_s };
    QTest::addRow("const") << QByteArray(R"({"const": "x"})") << QByteArray(R"("y")")
                           << QStringList { u"|expected \"x\" (const), got \"y\""_s };
    QTest::addRow("const object") << QByteArray(R"({"const": {"a": [1, 2]}})") << QByteArray(R"({"a": [1, 2.0]})")
                                  << QStringList {};
    QTest::addRow("minimum and maximum") << QByteArray(R"({"type": "number", "minimum": 1, "maximum": 10.5})")
                                         << QByteArray("11")
                                         << QStringList { u"|value 11 is greater than the maximum 10.5"_s };
    QTest::addRow("exclusiveMaximum") << QByteArray(R"({"exclusiveMaximum": 3})") << QByteArray("3")
                                      << QStringList { u"|value 3 is not less than the exclusive maximum 3"_s };
    QTest::addRow("exclusiveMinimum and minimum both fail")
        << QByteArray(R"({"exclusiveMinimum": 5, "minimum": 6})") << QByteArray("5")
        << QStringList { u"|value 5 is less than the minimum 6"_s,
               u"|value 5 is not greater than the exclusive minimum 5"_s };
    QTest::addRow("bounds ignore strings")
        << QByteArray(R"({"maximum": 3, "minLength": 1})") << QByteArray(R"("10")") << QStringList {};
    QTest::addRow("maxLength counts characters, not bytes")
        << QByteArray(R"({"maxLength": 3})") << QByteArray(R"("héé")") << QStringList {};
    QTest::addRow("maxLength exceeded") << QByteArray(R"({"maxLength": 3})") << QByteArray(R"("héél")")
                                        << QStringList { u"|string is 4 characters long, more than maxLength 3"_s };
    QTest::addRow("minLength counts an embedded NUL")
        << QByteArray(R"({"minLength": 3})") << QByteArray(R"("a\u0000b")") << QStringList {};
    QTest::addRow("minItems and maxItems")
        << QByteArray(R"({"minItems": 2, "maxItems": 0})") << QByteArray("[1]")
        << QStringList { u"|array must have at most 0 items"_s, u"|array must have at least 2 items"_s };
    QTest::addRow("minProperties") << QByteArray(R"({"minProperties": 1})") << QByteArray("{}")
                                   << QStringList { u"|object must have at least 1 property"_s };
    QTest::addRow("type list with null accepts null")
        << QByteArray(R"({"type": ["string", "null"]})") << QByteArray("null") << QStringList {};
    QTest::addRow("type list with null") << QByteArray(R"({"type": ["string", "null"]})") << QByteArray("5")
                                         << QStringList { u"|expected string or null, got integer 5"_s };
    QTest::addRow("boolean is not an integer") << QByteArray(R"({"type": "integer"})") << QByteArray("true")
                                               << QStringList { u"|expected integer, got boolean true"_s };
    QTest::addRow("integer is a number") << QByteArray(R"({"type": "number"})") << QByteArray("7") << QStringList {};
    QTest::addRow("anyOf of types merges into one error")
        << QByteArray(R"({"anyOf": [{"type": "string"}, {"type": "null"}]})") << QByteArray("5")
        << QStringList { u"|expected string or null, got integer 5"_s };
    QTest::addRow("Optional model reports the model's errors")
        << QByteArray(R"({"$defs": {"Addr": {"type": "object", "properties": {"zip": {"type": "string"}},
            "required": ["zip"]}}, "type": "object", "properties": {"addr": {"anyOf": [{"$ref": "#/$defs/Addr"},
            {"type": "null"}]}}})")
        << QByteArray(R"({"addr": {"zip": 5}})") << QStringList { u"/addr/zip|expected string, got integer 5"_s };
    QTest::addRow("anyOf picks the alternative of the right type")
        << QByteArray(R"({"anyOf": [{"type": "string", "minLength": 5}, {"type": "integer", "minimum": 10}]})")
        << QByteArray(R"("abc")") << QStringList { u"|string is 3 characters long, fewer than minLength 5"_s };
    QTest::addRow("anyOf with no alternative of the right type")
        << QByteArray(R"({"anyOf": [{"type": "string", "minLength": 5}, {"type": "integer", "minimum": 10}]})")
        << QByteArray("3.5") << QStringList { u"|expected string or integer, got number 3.5"_s };
    QTest::addRow("anyOf summarises each alternative")
        << QByteArray(R"({"anyOf": [{"minLength": 5}, {"maxLength": 1}]})") << QByteArray(R"("abc")")
        << QStringList { u"|value does not match any of the anyOf alternatives: (0) string is 3 characters long, "
                         u"fewer than minLength 5; (1) string is 3 characters long, more than maxLength 1"_s };
    QTest::addRow("anyOf passes") << QByteArray(R"({"anyOf": [{"minLength": 5}, {"maxLength": 1}]})")
                                  << QByteArray(R"("a")") << QStringList {};
    QTest::addRow("oneOf matching twice")
        << QByteArray(R"({"oneOf": [{"type": "integer"}, {"minimum": 0}]})") << QByteArray("3")
        << QStringList { u"|matches more than one of the oneOf alternatives (0, 1)"_s };
    QTest::addRow("oneOf matching once") << QByteArray(R"({"oneOf": [{"type": "integer"}, {"minimum": 0}]})")
                                         << QByteArray("-1") << QStringList {};
    QTest::addRow("oneOf matching none") << QByteArray(R"({"oneOf": [{"type": "integer"}, {"minimum": 0}]})")
                                         << QByteArray("-1.5")
                                         << QStringList { u"|value -1.5 is less than the minimum 0"_s };
    QTest::addRow("false alternatives never match")
        << QByteArray(R"({"anyOf": [false, {"type": "string"}]})") << QByteArray("5")
        << QStringList { u"|expected string, got integer 5"_s };
    QTest::addRow("true alternative always matches")
        << QByteArray(R"({"oneOf": [true, {"type": "string"}]})") << QByteArray(R"("x")")
        << QStringList { u"|more than one of the oneOf alternatives (0, 1)"_s };
    QTest::addRow("only false alternatives") << QByteArray(R"({"anyOf": [false, false]})") << QByteArray("5")
                                             << QStringList { u"|no value is allowed here"_s };
    QTest::addRow("alternatives keep their numbers")
        << QByteArray(R"({"oneOf": [{"minLength": 5}, false, {"maxLength": 1}]})") << QByteArray(R"("abc")")
        << QStringList { u"|value does not match any of the oneOf alternatives: (0) string is 3 characters long, "
                         u"fewer than minLength 5; (2) string is 3 characters long, more than maxLength 1"_s };
    QTest::addRow("uniqueItems") << QByteArray(R"({"uniqueItems": true})") << QByteArray("[1, 2, 1.0]")
                                 << QStringList { u"|items 0 and 2 are equal (uniqueItems is true)"_s };
    QTest::addRow("contains") << QByteArray(R"({"contains": {"type": "string"}})") << QByteArray("[1, 2]")
                              << QStringList { u"|no item matches the \"contains\" schema"_s };
    QTest::addRow("not") << QByteArray(R"({"not": {"type": "null"}})") << QByteArray("null")
                         << QStringList { u"|value must not match the \"not\" schema"_s };
    QTest::addRow("if then") << QByteArray(
        R"({"if": {"properties": {"kind": {"const": "card"}}}, "then": {"required": ["number"]},
            "else": {"required": ["iban"]}})")
                             << QByteArray(R"({"kind": "card"})")
                             << QStringList { u"|required property \"number\" is missing"_s };
    QTest::addRow("if else") << QByteArray(
        R"({"if": {"properties": {"kind": {"const": "card"}}}, "then": {"required": ["number"]},
            "else": {"required": ["iban"]}})")
                             << QByteArray(R"({"kind": "bank"})")
                             << QStringList { u"|required property \"iban\" is missing"_s };
    QTest::addRow("dependencies") << QByteArray(R"({"dependencies": {"a": ["b"], "c": {"required": ["d"]}}})")
                                  << QByteArray(R"({"a": 1, "c": 2})")
                                  << QStringList { u"|property \"b\" is missing (required by \"dependencies\")"_s,
                                         u"|required property \"d\" is missing"_s };
    QTest::addRow("propertyNames") << QByteArray(R"({"propertyNames": {"maxLength": 3}})")
                                   << QByteArray(R"({"ab": 1, "abcd": 2})")
                                   << QStringList {
                                          u"|property name \"abcd\" is invalid: string is 4 characters long"_s
                                      };
    // valijson gives a propertyNames schema reached through $ref the cache slot of its parent.
    QTest::addRow("propertyNames under a $ref")
        << QByteArray(R"({"definitions": {"A": {"type": "object", "propertyNames": {"pattern": "^x"}}},
            "properties": {"a": {"$ref": "#/definitions/A"}}})")
        << QByteArray(R"({"a": {"xa": 1, "ya": 2}})")
        << QStringList { u"/a|property name \"ya\" is invalid: string \"ya\" does not match pattern \"^x\""_s };
    QTest::addRow("false property") << QByteArray(R"({"properties": {"x": false}})") << QByteArray(R"({"x": 1})")
                                    << QStringList { u"/x|property \"x\" is not allowed (its schema is false)"_s };
    QTest::addRow("additionalItems false")
        << QByteArray(R"({"items": [{"type": "integer"}], "additionalItems": false})") << QByteArray("[1, 2, 3]")
        << QStringList { u"/1|item 1 is not allowed (additionalItems is false)"_s,
               u"/2|item 2 is not allowed (additionalItems is false)"_s };
    QTest::addRow("items false") << QByteArray(R"({"items": false})") << QByteArray("[]") << QStringList {};
    QTest::addRow("tuple items") << QByteArray(R"({"items": [{"type": "string"}, true, false]})")
                                 << QByteArray(R"([1, {}, null])")
                                 << QStringList { u"/0|expected string, got integer 1"_s,
                                        u"/2|item 2 is not allowed (its schema is false)"_s };
    QTest::addRow("root false") << QByteArray("false") << QByteArray("{}")
                                << QStringList { u"|no value is allowed here (the schema is false)"_s };
    QTest::addRow("root true") << QByteArray("true") << QByteArray(R"({"anything": [1]})") << QStringList {};
    QTest::addRow("not false") << QByteArray(R"({"not": false})") << QByteArray("1") << QStringList {};
    QTest::addRow("multipleOf integer divisor rejects 4.5") << QByteArray(R"({"multipleOf": 2})") << QByteArray("4.5")
                                                            << QStringList { u"|value 4.5 is not a multiple of 2"_s };
    QTest::addRow("multipleOf integer divisor accepts 4.0")
        << QByteArray(R"({"multipleOf": 2})") << QByteArray("4.0") << QStringList {};
    QTest::addRow("multipleOf float") << QByteArray(R"({"multipleOf": 0.5})") << QByteArray("2.5") << QStringList {};
    // Python's jsonschema: 0.3 / 0.1 == 2.9999999999999996, which is not an integer.
    QTest::addRow("multipleOf like Python") << QByteArray(R"({"multipleOf": 0.1})") << QByteArray("0.3")
                                            << QStringList { u"|value 0.3 is not a multiple of 0.1"_s };
    QTest::addRow("multipleOf ignores strings")
        << QByteArray(R"({"multipleOf": 2})") << QByteArray(R"("3")") << QStringList {};
    QTest::addRow("pointer escaping") << QByteArray(
        R"({"properties": {"a/b": {"properties": {"c~d": {"type": "string"}}}}})")
                                      << QByteArray(R"({"a/b": {"c~d": 1}})")
                                      << QStringList { u"/a~1b/c~0d|expected string, got integer 1"_s };
    QTest::addRow("patternProperties checks every property against every pattern")
        << QByteArray(R"({"patternProperties": {"^a": {"type": "integer"}, "^b": {"type": "integer"}},
            "additionalProperties": false})")
        << QByteArray(R"({"a1": "x", "a2": "y", "b1": "z", "c": 1})")
        << QStringList { u"/a1|expected integer, got string \"x\""_s, u"/a2|expected integer, got string \"y\""_s,
               u"/b1|expected integer, got string \"z\""_s,
               u"/c|property \"c\" is not allowed (additionalProperties is false)"_s };
    QTest::addRow("patterns apply to declared properties too, several at once")
        << QByteArray(R"({"patternProperties": {"^a": {"minimum": 5}, "1$": {"multipleOf": 2}, "^z": false},
            "properties": {"z0": {}}})")
        << QByteArray(R"({"a1": 3, "z0": 1, "z1": 1})")
        << QStringList { u"/a1|value 3 is not a multiple of 2"_s, u"/a1|value 3 is less than the minimum 5"_s,
               u"/z0|property \"z0\" is not allowed (its patternProperties schema is false)"_s,
               u"/z1|value 1 is not a multiple of 2"_s,
               u"/z1|property \"z1\" is not allowed (its patternProperties schema is false)"_s };
    QTest::addRow("patternProperties may look behind, as in Python")
        << QByteArray(R"({"patternProperties": {"(?<=a)b": {"type": "integer"}}})")
        << QByteArray(R"({"ab": "x", "b": "y"})") << QStringList { u"/ab|expected integer, got string \"x\""_s };
    QTest::addRow("$defs ref") << QByteArray(
        R"({"$defs": {"Item": {"type": "object", "properties": {"sku": {"type": "string"}},
            "required": ["sku"]}}, "type": "array", "items": {"$ref": "#/$defs/Item"}})")
                               << QByteArray(R"([{"sku": "a"}, {"sku": 1}, {}])")
                               << QStringList { u"/1/sku|expected string, got integer 1"_s,
                                      u"/2|required property \"sku\" is missing"_s };
    QTest::addRow("root $ref to definitions")
        << QByteArray(R"({"$ref": "#/definitions/M", "definitions": {"M": {"type": "object", "required": ["x"]}}})")
        << QByteArray("{}") << QStringList { u"|required property \"x\" is missing"_s };
    QTest::addRow("recursive schema")
        << QByteArray(R"({"type": "object", "properties": {"name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#"}}}})")
        << QByteArray(R"({"name": "a", "children": [{"name": "b", "children": [{"name": 3}]}]})")
        << QStringList { u"/children/0/children/0/name|expected string, got integer 3"_s };
    QTest::addRow("recursion through anyOf")
        << QByteArray(R"({"anyOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#"}}]})")
        << QByteArray(R"([1, [2, ["x"]]])") << QStringList { u"/1/1/0|expected array or integer, got string \"x\""_s };
    QTest::addRow("recursion through if, guarded by properties")
        << QByteArray(R"({"if": {"required": ["next"]}, "then": {"properties": {"next": {"$ref": "#"}}},
            "properties": {"v": {"type": "integer"}}})")
        << QByteArray(R"({"v": 1, "next": {"v": 2, "next": {"v": "x"}}})")
        << QStringList { u"/next/next/v|expected integer, got string \"x\""_s };
    QTest::addRow("$id anchor") << QByteArray(
        R"({"definitions": {"A": {"$id": "#a", "type": "string"}}, "properties": {"x": {"$ref": "#a"}}})")
                                << QByteArray(R"({"x": 1})") << QStringList { u"/x|expected string, got integer 1"_s };
    QTest::addRow("percent-encoded $ref")
        << QByteArray(R"({"definitions": {"a b": {"type": "string"}, "100%": {"type": "integer"}},
            "properties": {"x": {"$ref": "#/definitions/a%20b"}, "y": {"$ref": "#/definitions/100%25"}}})")
        << QByteArray(R"({"x": 1, "y": "s"})")
        << QStringList { u"/x|expected string, got integer 1"_s, u"/y|expected integer, got string \"s\""_s };
    QTest::addRow("$ref into an anyOf alternative")
        << QByteArray(R"({"definitions": {"u": {"anyOf": [{"type": "string"}, {"type": "integer"}]}},
            "properties": {"x": {"$ref": "#/definitions/u/anyOf/1"}}})")
        << QByteArray(R"({"x": "s"})") << QStringList { u"/x|expected integer, got string \"s\""_s };
    QTest::addRow("$ref with the root $id")
        << QByteArray(R"({"$id": "https://example.com/s.json", "definitions": {"a": {"type": "string"}},
            "properties": {"x": {"$ref": "https://example.com/s.json#/definitions/a"}}})")
        << QByteArray(R"({"x": 1})") << QStringList { u"/x|expected string, got integer 1"_s };
    QTest::addRow("keywords beside $ref are ignored, as draft-07 says") << QByteArray(
        R"({"definitions": {"a": {"type": "string"}}, "properties": {"x": {"$ref": "#/definitions/a",
            "maxLength": 1}}})") << QByteArray(R"({"x": "long"})") << QStringList {};
    QTest::addRow("draft-04 id is not a base URI")
        << QByteArray(
               R"({"definitions": {"a": {"type": "string"}}, "properties": {"x": {"id": "http://other/x.json",
            "properties": {"y": {"$ref": "#/definitions/a"}}}}})")
        << QByteArray(R"({"x": {"y": 1}})") << QStringList { u"/x/y|expected string, got integer 1"_s };
    QTest::addRow("draft-03 divisibleBy is ignored")
        << QByteArray(R"({"divisibleBy": 3})") << QByteArray("4") << QStringList {};
    QTest::addRow("user keys that look like ours are ignored")
        << QByteArray(R"({"structscope:rule:type": 99, "structscope:anyOf": 1})") << QByteArray("4") << QStringList {};
}

void TestSchema::validate()
{
    QFETCH(QByteArray, schema);
    QFETCH(QByteArray, instance);
    QFETCH(QStringList, errors);

    const CompiledSchemaPtr compiled = compileOrFail(parse(schema));
    QVERIFY(compiled);
    const json value = parse(instance);
    compareErrors(compiled->validate(value), errors);
    QCOMPARE(compiled->isValid(value), errors.isEmpty());
}

void TestSchema::integralFloats_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<QByteArray>("instance");
    QTest::addColumn<bool>("validStrict");
    QTest::addColumn<bool>("validPython");

    QTest::addRow("1.0 is an integer only for Python")
        << QByteArray(R"({"type": "integer"})") << QByteArray("1.0") << false << true;
    QTest::addRow("1e2 is an integer only for Python")
        << QByteArray(R"({"type": "integer"})") << QByteArray("1e2") << false << true;
    QTest::addRow("1.5 is never an integer")
        << QByteArray(R"({"type": "integer"})") << QByteArray("1.5") << false << false;
    QTest::addRow("1 is always an integer") << QByteArray(R"({"type": "integer"})") << QByteArray("1") << true << true;
    QTest::addRow("nested in a type list")
        << QByteArray(R"({"items": {"type": ["integer", "null"]}})") << QByteArray("[null, 3.0]") << false << true;
    QTest::addRow("enum compares by value in both modes")
        << QByteArray(R"({"enum": [1]})") << QByteArray("1.0") << true << true;
}

void TestSchema::integralFloats()
{
    QFETCH(QByteArray, schema);
    QFETCH(QByteArray, instance);
    QFETCH(bool, validStrict);
    QFETCH(bool, validPython);

    const json value = parse(instance);
    const CompiledSchemaPtr strict = compileOrFail(parse(schema), SchemaOptions { true, false });
    const CompiledSchemaPtr python = compileOrFail(parse(schema), SchemaOptions { true, true });
    QVERIFY(strict && python);
    QCOMPARE(strict->validate(value).empty(), validStrict);
    QCOMPARE(strict->isValid(value), validStrict);
    QCOMPARE(python->validate(value).empty(), validPython);
    QCOMPARE(python->isValid(value), validPython);
}

void TestSchema::formats_data()
{
    QTest::addColumn<QByteArray>("format");
    QTest::addColumn<QByteArray>("instance");
    QTest::addColumn<QString>("error"); ///< with formats checked; empty = valid

    QTest::addRow("date") << QByteArray("date") << QByteArray(R"("2024-02-29")") << QString();
    QTest::addRow("not a date") << QByteArray("date") << QByteArray(R"("notadate")")
                                << u"string \"notadate\" is not a date (YYYY-MM-DD)"_s;
    QTest::addRow("no 30 February") << QByteArray("date") << QByteArray(R"("2024-02-30")") << u"is not a date"_s;
    QTest::addRow("no 29 February in 2023")
        << QByteArray("date") << QByteArray(R"("2023-02-29")") << u"is not a date"_s;
    QTest::addRow("no month 13") << QByteArray("date") << QByteArray(R"("2024-13-01")") << u"is not a date"_s;
    QTest::addRow("date ignores numbers") << QByteArray("date") << QByteArray("20240101") << QString();
    QTest::addRow("date ignores objects") << QByteArray("date") << QByteArray(R"({"y": 1})") << QString();
    QTest::addRow("time with zone") << QByteArray("time") << QByteArray(R"("10:00:00+02:00")") << QString();
    QTest::addRow("time with fraction and Z") << QByteArray("time") << QByteArray(R"("23:59:60.5Z")") << QString();
    QTest::addRow("time without zone") << QByteArray("time") << QByteArray(R"("10:00:00")") << u"is not a time"_s;
    QTest::addRow("date-time") << QByteArray("date-time") << QByteArray(R"("2024-01-01T10:00:00Z")") << QString();
    QTest::addRow("date-time with a space")
        << QByteArray("date-time") << QByteArray(R"("2024-01-01 10:00:00Z")") << u"is not a date-time"_s;
    QTest::addRow("unchecked format") << QByteArray("email") << QByteArray(R"("not an email")") << QString();
}

void TestSchema::formats()
{
    QFETCH(QByteArray, format);
    QFETCH(QByteArray, instance);
    QFETCH(QString, error);

    const json schema = { { "format", format.toStdString() } };
    const json value = parse(instance);
    const CompiledSchemaPtr checked = compileOrFail(schema, SchemaOptions { true, false });
    const CompiledSchemaPtr ignored = compileOrFail(schema, SchemaOptions { false, false });
    QVERIFY(checked && ignored);
    compareErrors(checked->validate(value), error.isEmpty() ? QStringList {} : QStringList { u"|"_s + error });
    QVERIFY(ignored->validate(value).empty());
    QVERIFY(ignored->isValid(value));
}

void TestSchema::sameVerdictUnder_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<QByteArray>("instance");
    QTest::addColumn<bool>("same"); ///< strict ({formats, no integral floats}) vs SOB ({no formats, integral floats})

    QTest::addRow("integer type, integral float")
        << QByteArray(R"({"properties": {"n": {"type": "integer"}}})") << QByteArray(R"({"n": 1.0})") << false;
    QTest::addRow("integer type, integral float deep in an array")
        << QByteArray(R"({"items": {"type": ["integer", "null"]}})") << QByteArray("[null, [2], 3e0]") << false;
    QTest::addRow("integer type, integers only")
        << QByteArray(R"({"properties": {"n": {"type": "integer"}}})") << QByteArray(R"({"n": 1, "m": 2.5})") << true;
    QTest::addRow("integer type, 1.5 fails both")
        << QByteArray(R"({"properties": {"n": {"type": "integer"}}})") << QByteArray(R"({"n": 1.5})") << true;
    QTest::addRow("number allows both") << QByteArray(R"({"type": ["integer", "number"]})") << QByteArray("1.0")
                                        << true;
    QTest::addRow("integer in a type-only anyOf")
        << QByteArray(R"({"anyOf": [{"type": "integer"}, {"type": "string"}]})") << QByteArray("4.0") << false;
    QTest::addRow("checked format") << QByteArray(R"({"format": "date"})") << QByteArray(R"("notadate")") << false;
    QTest::addRow("checked format, valid value")
        << QByteArray(R"({"format": "date"})") << QByteArray(R"("2024-01-01")") << false;
    QTest::addRow("unchecked format") << QByteArray(R"({"format": "email"})") << QByteArray(R"("x")") << true;
    QTest::addRow("a property named format")
        << QByteArray(R"({"properties": {"format": {"type": "string"}}})") << QByteArray(R"({"format": 1.0})") << true;
}

void TestSchema::sameVerdictUnder()
{
    QFETCH(QByteArray, schema);
    QFETCH(QByteArray, instance);
    QFETCH(bool, same);

    const SchemaOptions strictOptions { true, false };
    const SchemaOptions sobOptions { false, true };
    const json value = parse(instance);
    const CompiledSchemaPtr strict = compileOrFail(parse(schema), strictOptions);
    const CompiledSchemaPtr sob = compileOrFail(parse(schema), sobOptions);
    QVERIFY(strict && sob);
    QCOMPARE(strict->sameVerdictUnder(sobOptions, value), same);
    QCOMPARE(sob->sameVerdictUnder(strictOptions, value), same);
    QVERIFY(strict->sameVerdictUnder(strictOptions, value));
    if (same)
        QCOMPARE(strict->isValid(value), sob->isValid(value));
}

void TestSchema::patterns_data()
{
    QTest::addColumn<QByteArray>("pattern");
    QTest::addColumn<QByteArray>("instance");
    QTest::addColumn<bool>("matches");

    QTest::addRow("search, not full match") << QByteArray("b") << QByteArray(R"("abc")") << true;
    QTest::addRow("anchored") << QByteArray(R"(^[A-Z]{2}-\\d{3}$)") << QByteArray(R"("AB-123")") << true;
    QTest::addRow("anchored mismatch") << QByteArray(R"(^[A-Z]{2}-\\d{3}$)") << QByteArray(R"("ab-123")") << false;
    QTest::addRow("dot is one character") << QByteArray("^.{3}$") << QByteArray(R"("héé")") << true;
    QTest::addRow("non-ASCII repetition") << QByteArray("^é+$") << QByteArray(R"("ééé")") << true;
    QTest::addRow("\\u escape") << QByteArray(R"(^\\u00e9$)") << QByteArray(R"("é")") << true;
    QTest::addRow("surrogate pair escape") << QByteArray(R"(^\\ud83d\\ude00$)") << QByteArray(R"("😀")") << true;
    // Like Python's re on str (and unlike ECMA-262), \d matches any Unicode decimal digit.
    QTest::addRow("Unicode digits") << QByteArray(R"(^\\d+$)") << QByteArray(R"("١٢٣")") << true;
    QTest::addRow("look-behind") << QByteArray("(?<=a)b") << QByteArray(R"("ab")") << true;
    QTest::addRow("patterns ignore numbers") << QByteArray("^x$") << QByteArray("5") << true;
}

void TestSchema::patterns()
{
    QFETCH(QByteArray, pattern);
    QFETCH(QByteArray, instance);
    QFETCH(bool, matches);

    const CompiledSchemaPtr compiled = compileOrFail(parse(R"({"pattern": ")" + pattern + R"("})"));
    QVERIFY(compiled);
    const json value = parse(instance);
    const std::vector<SchemaError> errors = compiled->validate(value);
    QVERIFY2(errors.empty() == matches, qPrintable(describe(errors)));
    QCOMPARE(compiled->isValid(value), matches);
    if (!matches)
        QVERIFY(qs(errors.front().message).contains(u"does not match pattern"_s));
}

void TestSchema::fixtureInstances_data()
{
    QTest::addColumn<json>("instance");
    QTest::addColumn<bool>("formats");
    QTest::addColumn<bool>("intFloats");
    QTest::addColumn<QStringList>("errors");

    QFile file(QFINDTESTDATA("data/schema/invoice.instances.jsonl"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        if (line.isEmpty())
            continue;
        const json row = parse(line);
        QStringList errors;
        for (const json& e : row.at("errors"))
            errors << qs(e.at(0).get<std::string>()) + u'|' + qs(e.at(1).get<std::string>());
        QTest::addRow("%s", row.at("name").get<std::string>().c_str())
            << row.at("instance") << row.at("formats").get<bool>() << row.at("intFloats").get<bool>() << errors;
    }
}

void TestSchema::fixtureInstances()
{
    QFETCH(json, instance);
    QFETCH(bool, formats);
    QFETCH(bool, intFloats);
    QFETCH(QStringList, errors);

    QFile file(QFINDTESTDATA("data/schema/invoice.schema.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const json schema = parse(file.readAll());
    QVERIFY(checkAgainstMetaSchema(schema).empty());
    const CompiledSchemaPtr compiled = compileOrFail(schema, SchemaOptions { formats, intFloats });
    QVERIFY(compiled);
    QVERIFY(compiled->unsupportedKeywords().empty());
    compareErrors(compiled->validate(instance), errors);
    QCOMPARE(compiled->isValid(instance), errors.isEmpty());
}

void TestSchema::invalidSchemas_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<QStringList>("fragments"); ///< all must appear in the error

    QTest::addRow("unknown type") << QByteArray(R"({"type": "objectt"})")
                                  << QStringList { u"invalid schema: "_s, u"/type"_s, u"\"objectt\""_s };
    QTest::addRow("required is not an array")
        << QByteArray(R"({"required": "a"})") << QStringList { u"invalid schema: "_s, u"/required"_s };
    QTest::addRow("property schema is a number")
        << QByteArray(R"({"properties": {"a": 5}})") << QStringList { u"/properties/a"_s, u"got integer 5"_s };
    QTest::addRow("array document") << QByteArray("[1]") << QStringList { u"must be a JSON object or boolean"_s };
    QTest::addRow("string document") << QByteArray(R"("x")") << QStringList { u"must be a JSON object or boolean"_s };
    QTest::addRow("null document") << QByteArray("null") << QStringList { u"not null"_s };
    QTest::addRow("remote $ref") << QByteArray(R"({"properties": {"a": {"$ref": "http://example.com/s.json"}}})")
                                 << QStringList { u"/properties/a/$ref"_s, u"points outside this document"_s };
    QTest::addRow("relative $ref") << QByteArray(R"({"$ref": "other.json#/x"})")
                                   << QStringList { u"/$ref"_s, u"not fetched"_s };
    QTest::addRow("$ref to nothing") << QByteArray(R"({"properties": {"a": {"$ref": "#/definitions/nope"}}})")
                                     << QStringList { u"does not resolve: nothing at /definitions"_s };
    QTest::addRow("$ref to a non-schema")
        << QByteArray(R"({"required": ["a"], "properties": {"a": {"$ref": "#/required"}}})")
        << QStringList { u"/properties/a/$ref"_s, u"not at a schema"_s };
    QTest::addRow("$ref to an unknown anchor") << QByteArray(R"({"$ref": "#nope"})") << QStringList { u"anchor"_s };
    QTest::addRow("circular $refs")
        << QByteArray(R"({"definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"$ref": "#/definitions/a"}},
            "properties": {"x": {"$ref": "#/definitions/a"}}})")
        << QStringList {
               u"/definitions/b/$ref: circular reference: /definitions/a -> /definitions/b -> /definitions/a"_s
           };
    QTest::addRow("root refers to itself")
        << QByteArray(R"({"$ref": "#"})") << QStringList { u"/$ref: circular reference: # -> #"_s };
    QTest::addRow("not of itself") << QByteArray(R"({"not": {"$ref": "#"}})")
                                   << QStringList { u"/not/$ref: circular reference: # -> /not -> #"_s };
    QTest::addRow("allOf of itself, through a definition")
        << QByteArray(R"({"definitions": {"a": {"allOf": [{"$ref": "#"}]}}, "anyOf": [{"type": "null"},
            {"$ref": "#/definitions/a"}]})")
        << QStringList { u"circular reference: # -> /anyOf/1 -> /definitions/a -> /definitions/a/allOf/0 -> #"_s };
    QTest::addRow("dependency on itself") << QByteArray(R"({"dependencies": {"a": {"$ref": "#"}}})")
                                          << QStringList { u"circular reference: # -> /dependencies/a -> #"_s };
    QTest::addRow("invalid pattern") << QByteArray(R"({"pattern": "(abc"})")
                                     << QStringList { u"/pattern"_s, u"not a regular expression"_s };
    QTest::addRow("minimum is a string") << QByteArray(R"({"minimum": "5"})")
                                         << QStringList { u"/minimum"_s, u"expected number"_s };
    // The meta-schema does not reach schemas kept under unknown keywords; valijson's own check does.
    QTest::addRow("broken schema reached only through $ref")
        << QByteArray(R"({"x-lib": {"A": {"if": 5}}, "properties": {"a": {"$ref": "#/x-lib/A"}}})")
        << QStringList { u"invalid schema: Expected node at /x-lib/A/if to contain schema object or boolean"_s };
    QTest::addRow("empty anyOf") << QByteArray(R"({"anyOf": []})") << QStringList { u"/anyOf"_s };
}

void TestSchema::invalidSchemas()
{
    QFETCH(QByteArray, schema);
    QFETCH(QStringList, fragments);

    std::string error;
    const CompiledSchemaPtr compiled = SchemaCache::compile(parse(schema), SchemaOptions {}, &error);
    QVERIFY(!compiled);
    for (const QString& fragment : fragments)
        QVERIFY2(qs(error).contains(fragment), error.c_str());
}

void TestSchema::metaSchema_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<QStringList>("errors");

    QTest::addRow("valid") << QByteArray(R"({"type": "object", "properties": {"a": {"type": ["string", "null"]}}})")
                           << QStringList {};
    QTest::addRow("boolean schema") << QByteArray("true") << QStringList {};
    QTest::addRow("array is not a schema")
        << QByteArray("[]") << QStringList { u"|expected object or boolean, got array"_s };
    QTest::addRow("unknown type")
        << QByteArray(R"({"type": "objectt"})")
        << QStringList {
               u"/type|expected one of \"array\", \"boolean\", \"integer\", \"null\", \"number\", \"object\", "
               u"\"string\", got \"objectt\""_s
           };
    QTest::addRow("required must be an array")
        << QByteArray(R"({"required": "a"})") << QStringList { u"/required|expected array, got string \"a\""_s };
    QTest::addRow("property schema must be a schema") << QByteArray(
        R"({"properties": {"a": 5}})") << QStringList { u"/properties/a|expected object or boolean, got integer 5"_s };
    QTest::addRow("maxLength must not be negative")
        << QByteArray(R"({"maxLength": -1})") << QStringList { u"/maxLength|less than the minimum 0"_s };
    QTest::addRow("5.0 is an integer here, as in Python") << QByteArray(R"({"maxLength": 5.0})") << QStringList {};
    QTest::addRow("5.5 is not") << QByteArray(R"({"maxLength": 5.5})")
                                << QStringList { u"/maxLength|expected integer, got number 5.5"_s };
    QTest::addRow("invalid pattern") << QByteArray(R"({"pattern": "(abc"})")
                                     << QStringList { u"/pattern|string \"(abc\" is not a regular expression"_s };
    QTest::addRow("invalid patternProperties key")
        << QByteArray(R"({"patternProperties": {"(x": {}}})")
        << QStringList {
               u"/patternProperties|property name \"(x\" is invalid: string \"(x\" is not a regular expression"_s
           };
    QTest::addRow("required names must be unique")
        << QByteArray(R"({"required": ["a", "a"]})") << QStringList { u"/required|items 0 and 1 are equal"_s };
    QTest::addRow("type list must be unique")
        << QByteArray(R"({"type": ["string", "string"]})")
        << QStringList { u"/type|value does not match any of the anyOf alternatives: (0) expected one of"_s };
    QTest::addRow("empty enum is allowed in draft-07") << QByteArray(R"({"enum": []})") << QStringList {};
    QTest::addRow("items array must not be empty")
        << QByteArray(R"({"items": []})") << QStringList { u"/items|array must have at least 1 item"_s };
    QTest::addRow("dependency must be a schema or a name list")
        << QByteArray(R"({"dependencies": {"a": 5}})")
        << QStringList { u"/dependencies/a|expected object, array or boolean, got integer 5"_s };
    QTest::addRow("$ref must be a string")
        << QByteArray(R"({"$ref": 5})") << QStringList { u"/$ref|expected string, got integer 5"_s };
    QTest::addRow("additionalProperties must be a schema")
        << QByteArray(R"({"additionalProperties": "no"})")
        << QStringList { u"/additionalProperties|expected object or boolean, got string \"no\""_s };
    QTest::addRow("several errors, deep")
        << QByteArray(R"({"properties": {"a": {"items": {"minItems": "2", "type": "lst"}}}, "uniqueItems": 1})")
        << QStringList { u"/properties/a/items/minItems|expected integer, got string \"2\""_s,
               u"/properties/a/items/type|got \"lst\""_s, u"/uniqueItems|expected boolean, got integer 1"_s };
    QTest::addRow("unknown keywords are allowed")
        << QByteArray(R"({"x-anything": {"type": 5}, "prefixItems": 3})") << QStringList {};
}

void TestSchema::metaSchema()
{
    QFETCH(QByteArray, schema);
    QFETCH(QStringList, errors);
    compareErrors(checkAgainstMetaSchema(parse(schema)), errors);
}

void TestSchema::metaSchemaValidatesItself()
{
    QFile file(u":/structscope/schemas/draft-07.json"_s);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const json meta = parse(file.readAll());
    QVERIFY(meta.at("properties").contains("propertyNames"));
    QVERIFY2(checkAgainstMetaSchema(meta).empty(), qPrintable(describe(checkAgainstMetaSchema(meta))));
    const CompiledSchemaPtr compiled = compileOrFail(meta);
    QVERIFY(compiled);
    QVERIFY(compiled->validate(meta).empty());
    QVERIFY(compiled->unsupportedKeywords().empty());
    compareErrors(compiled->validate(parse(R"({"type": "objectt"})")), { u"/type|got \"objectt\""_s });
}

void TestSchema::unsupportedKeywords_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<QStringList>("errors");

    QTest::addRow("prefixItems inside properties")
        << QByteArray(R"({"type": "object", "properties": {"tags": {"type": "array",
            "prefixItems": [{"type": "string"}]}}})")
        << QStringList { u"/properties/tags/prefixItems|unsupported keyword 'prefixItems' (JSON Schema 2020-12"_s };
    QTest::addRow("a property called prefixItems is not a keyword")
        << QByteArray(R"({"properties": {"prefixItems": {"type": "string"}, "nullable": {}}})") << QStringList {};
    QTest::addRow("later-draft keywords in $defs and at the root")
        << QByteArray(R"({"$defs": {"A": {"unevaluatedProperties": false}}, "dependentRequired": {"a": ["b"]}})")
        << QStringList { u"/$defs/A/unevaluatedProperties|2019-09"_s, u"/dependentRequired|2019-09"_s };
    QTest::addRow("every kind of subschema is walked")
        << QByteArray(R"({"anyOf": [{"minContains": 1}], "items": [{"$anchor": "x"}],
            "dependencies": {"a": {"dependentSchemas": {}}, "b": ["c"]}, "if": {"contentSchema": {}},
            "then": {"$recursiveRef": "#"}, "else": {"$vocabulary": {}}, "not": {"$dynamicRef": "#x"},
            "additionalProperties": {"maxContains": 2}, "patternProperties": {"^x": {"unevaluatedItems": false}},
            "propertyNames": {"extends": {}}, "contains": {"disallow": "string"},
            "additionalItems": {"$dynamicAnchor": "a"}, "allOf": [{"$recursiveAnchor": true}],
            "oneOf": [{"divisibleBy": 2}], "definitions": {"d": {"nullable": true}}})")
        << QStringList { u"/additionalItems/$dynamicAnchor|"_s, u"/additionalProperties/maxContains|"_s,
               u"/allOf/0/$recursiveAnchor|"_s, u"/anyOf/0/minContains|"_s, u"/contains/disallow|draft-03"_s,
               u"/definitions/d/nullable|OpenAPI"_s, u"/dependencies/a/dependentSchemas|"_s, u"/else/$vocabulary|"_s,
               u"/if/contentSchema|"_s, u"/items/0/$anchor|"_s, u"/not/$dynamicRef|"_s, u"/oneOf/0/divisibleBy|"_s,
               u"/patternProperties/^x/unevaluatedItems|"_s, u"/propertyNames/extends|"_s, u"/then/$recursiveRef|"_s };
    QTest::addRow("single items schema") << QByteArray(R"({"items": {"prefixItems": []}})")
                                         << QStringList { u"/items/prefixItems|"_s };
    QTest::addRow("schemas reached only through $ref") << QByteArray(
        R"({"x-components": {"A": {"minContains": 1}}, "properties": {"a": {"$ref": "#/x-components/A"}}})")
                                                       << QStringList { u"/x-components/A/minContains|"_s };
    QTest::addRow("nothing inside an ignored keyword")
        << QByteArray(R"({"prefixItems": [{"unevaluatedItems": false}]})") << QStringList { u"/prefixItems|"_s };
    QTest::addRow("foreign dialect") << QByteArray(R"({"$schema": "https://json-schema.org/draft/2020-12/schema"})")
                                     << QStringList { u"/$schema|unsupported dialect"_s };
    QTest::addRow("draft-07 dialect") << QByteArray(R"({"$schema": "http://json-schema.org/draft-07/schema#"})")
                                      << QStringList {};
    QTest::addRow("annotations and unknown words are fine")
        << QByteArray(R"({"title": "t", "description": "d", "default": 1, "examples": [1], "$comment": "c",
            "readOnly": true, "writeOnly": true, "contentMediaType": "text/plain", "contentEncoding": "base64",
            "deprecated": true, "x-foo": 1, "mykeyword": {"prefixItems": 1}})")
        << QStringList {};
    QTest::addRow("not a schema") << QByteArray("[{\"prefixItems\": 1}]") << QStringList {};
    QTest::addRow("boolean schema") << QByteArray("false") << QStringList {};
}

void TestSchema::unsupportedKeywords()
{
    QFETCH(QByteArray, schema);
    QFETCH(QStringList, errors);
    compareErrors(findUnsupportedKeywords(parse(schema)), errors);
}

void TestSchema::compiledSchemaListsUnsupportedKeywords()
{
    const json schema = parse(R"({"type": "object", "properties": {"tags": {"type": "array",
        "prefixItems": [{"type": "integer"}]}}})");
    const CompiledSchemaPtr compiled = compileOrFail(schema);
    QVERIFY(compiled);
    compareErrors(compiled->unsupportedKeywords(), { u"/properties/tags/prefixItems|prefixItems"_s });
    // Ignored, as draft-07 says: the string passes.
    QVERIFY(compiled->validate(parse(R"({"tags": ["x"]})")).empty());
}

void TestSchema::cacheReturnsSameSchemaForSameContent()
{
    SchemaCache::clear();
    QCOMPARE(SchemaCache::size(), std::size_t(0));
    const CompiledSchemaPtr a = compileOrFail(parse(R"({"type": "object", "required": ["a"], "title": "T"})"));
    const CompiledSchemaPtr b = compileOrFail(parse(R"({"title": "T", "required": ["a"],   "type": "object"})"));
    QVERIFY(a && b);
    QCOMPARE(a.get(), b.get());
    QCOMPARE(SchemaCache::size(), std::size_t(1));
    const CompiledSchemaPtr c = compileOrFail(parse(R"({"type": "object", "required": ["b"], "title": "T"})"));
    QVERIFY(c && c.get() != a.get());
    QCOMPARE(SchemaCache::size(), std::size_t(2));
    SchemaCache::clear();
    QCOMPARE(SchemaCache::size(), std::size_t(0));
    const CompiledSchemaPtr d = compileOrFail(parse(R"({"type": "object", "required": ["a"], "title": "T"})"));
    QVERIFY(d && d.get() != a.get());
    QVERIFY(d->document() == a->document());
}

void TestSchema::cacheSeparatesOptions()
{
    SchemaCache::clear();
    const json schema = parse(R"({"type": "integer", "format": "date"})");
    const CompiledSchemaPtr plain = compileOrFail(schema, SchemaOptions { true, false });
    const CompiledSchemaPtr noFormats = compileOrFail(schema, SchemaOptions { false, false });
    const CompiledSchemaPtr python = compileOrFail(schema, SchemaOptions { false, true });
    QVERIFY(plain && noFormats && python);
    QVERIFY(plain.get() != noFormats.get() && noFormats.get() != python.get() && plain.get() != python.get());
    QCOMPARE(SchemaCache::size(), std::size_t(3));
    QCOMPARE(compileOrFail(schema, SchemaOptions { false, true }).get(), python.get());
    QCOMPARE(python->options().integralFloatsAsIntegers, true);
    QCOMPARE(python->options().validateFormats, false);
    QVERIFY(!plain->isValid(parse("2.0")));
    QVERIFY(python->isValid(parse("2.0")));
}

void TestSchema::cacheRemembersFailures()
{
    SchemaCache::clear();
    std::string first, second;
    QVERIFY(!SchemaCache::compile(parse(R"({"type": "objectt"})"), {}, &first));
    QVERIFY(!SchemaCache::compile(parse(R"({"type": "objectt"})"), {}, &second));
    QVERIFY(!first.empty());
    QCOMPARE(second, first);
    QCOMPARE(SchemaCache::size(), std::size_t(0));
    // A null error pointer is allowed.
    QVERIFY(!SchemaCache::compile(parse("[]"), {}, nullptr));
}

void TestSchema::concurrentValidationIsDeterministic()
{
    const json schema = parse(R"({"$defs": {"Item": {"type": "object", "properties": {
            "sku": {"type": "string", "pattern": "^[A-Z]{3}-\\d{2}$"}, "qty": {"type": "integer", "minimum": 1},
            "kind": {"anyOf": [{"enum": ["a", "b"]}, {"type": "null"}]}}, "required": ["sku", "qty"],
            "additionalProperties": false}},
        "type": "object", "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/Item"}},
            "when": {"type": "string", "format": "date"}, "tags": {"propertyNames": {"maxLength": 3}}},
        "required": ["items"]})");
    const CompiledSchemaPtr compiled = compileOrFail(schema);
    QVERIFY(compiled);

    std::vector<json> instances;
    for (int i = 0; i < 120; ++i) {
        json items = json::array();
        for (int k = 0; k < i % 5; ++k)
            items.push_back({ { "sku", (i + k) % 3 ? "ABC-12" : "abc" }, { "qty", (i * k) % 4 },
                { "kind", (k % 3 == 0) ? json("a") : ((k % 3 == 1) ? json(nullptr) : json(7)) } });
        json instance = { { "items", items }, { "when", i % 2 ? "2024-01-0" + std::to_string(1 + i % 9) : "x" } };
        if (i % 7 == 0)
            instance["tags"] = { { "long-name", 1 }, { "ok", 2 } };
        if (i % 11 == 0)
            instance.erase("items");
        instances.push_back(instance);
    }
    std::vector<std::vector<SchemaError>> expected;
    std::size_t invalid = 0;
    for (const json& instance : instances) {
        expected.push_back(compiled->validate(instance));
        invalid += !expected.back().empty();
    }
    QVERIFY(invalid > 30 && invalid < instances.size());

    std::atomic<int> mismatches { 0 };
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&, t] {
            for (int round = 0; round < 10; ++round) {
                for (std::size_t i = 0; i < instances.size(); ++i) {
                    const std::size_t k = (i + static_cast<std::size_t>(t) * 17) % instances.size();
                    const std::vector<SchemaError> got = compiled->validate(instances[k]);
                    bool same = got.size() == expected[k].size() && compiled->isValid(instances[k]) == got.empty();
                    for (std::size_t e = 0; same && e < got.size(); ++e)
                        same = got[e].pointer == expected[k][e].pointer && got[e].message == expected[k][e].message;
                    if (!same)
                        ++mismatches;
                }
            }
        });
    }
    for (std::thread& t : threads)
        t.join();
    QCOMPARE(mismatches.load(), 0);
}

void TestSchema::concurrentCompileSharesOneSchema()
{
    SchemaCache::clear();
    const json schema = parse(R"({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"},
        {"type": "null"}]}}})");
    std::vector<CompiledSchemaPtr> results(8);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < results.size(); ++t)
        threads.emplace_back([&, t] { results[t] = SchemaCache::compile(schema, {}, nullptr); });
    for (std::thread& t : threads)
        t.join();
    for (const CompiledSchemaPtr& r : results) {
        QVERIFY(r);
        QCOMPARE(r.get(), results.front().get());
    }
    QCOMPARE(SchemaCache::size(), std::size_t(1));
}

void TestSchema::deepSchemaIsAnErrorNotACrash()
{
    const json deep = nested("items", 300, json { { "type", "string" } });
    std::string error;
    QVERIFY(!SchemaCache::compile(deep, {}, &error));
    QVERIFY2(qs(error).contains(u"nested deeper than 256 levels"_s), error.c_str());

    const std::vector<SchemaError> meta = checkAgainstMetaSchema(deep);
    QCOMPARE(meta.size(), std::size_t(1));
    QVERIFY(qs(meta.front().message).contains(u"nested deeper than 256 levels"_s));
    QVERIFY(qs(meta.front().pointer).startsWith(u"/items/items/items"_s));
    QVERIFY(findUnsupportedKeywords(deep).empty());

    // Just inside the limit it compiles and validates.
    const json fine = nested("items", 200, json { { "type", "string" } });
    const CompiledSchemaPtr compiled = compileOrFail(fine);
    QVERIFY(compiled);
    QVERIFY(compiled->isValid(nested("x", 0, json::array())));
}

void TestSchema::deepInstanceIsAnErrorNotACrash()
{
    const CompiledSchemaPtr compiled = compileOrFail(parse(R"({"items": {"$ref": "#"}})"));
    QVERIFY(compiled);
    json deep = json::array();
    for (int i = 0; i < 600; ++i)
        deep = json::array({ std::move(deep) });
    const std::vector<SchemaError> errors = compiled->validate(deep);
    QCOMPARE(errors.size(), std::size_t(1));
    QVERIFY(qs(errors.front().message).contains(u"nested deeper than 512 levels"_s));
    QVERIFY(qs(errors.front().pointer).startsWith(u"/0/0/0/0"_s));
    QVERIFY(!compiled->isValid(deep));
}

void TestSchema::recursiveSchemaValidatesDeepInstanceOnWorkerThread()
{
    // The deepest instance the parse ladder lets through, on a thread with a default-sized stack.
    const CompiledSchemaPtr compiled
        = compileOrFail(parse(R"({"anyOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#"}}]})"));
    QVERIFY(compiled);
    json deep = json::array({ 1 });
    for (int i = 1; i < 511; ++i)
        deep = json::array({ std::move(deep) });
    json broken = json::array({ "x" });
    for (int i = 1; i < 511; ++i)
        broken = json::array({ std::move(broken) });
    std::vector<SchemaError> deepErrors, brokenErrors;
    std::thread worker([&] {
        deepErrors = compiled->validate(deep);
        brokenErrors = compiled->validate(broken);
    });
    worker.join();
    QVERIFY2(deepErrors.empty(), qPrintable(describe(deepErrors)));
    QCOMPARE(brokenErrors.size(), std::size_t(1));
    QCOMPARE(std::count(brokenErrors.front().pointer.begin(), brokenErrors.front().pointer.end(), '/'), 511);
}

void TestSchema::hugeSchemaCompiles()
{
    json properties = json::object();
    json required = json::array();
    for (int i = 0; i < 5000; ++i) {
        const std::string name = "field" + std::to_string(i);
        properties[name] = { { "type", i % 2 ? "string" : "integer" } };
        if (i % 250 == 0)
            required.push_back(name);
    }
    const json schema = { { "type", "object" }, { "properties", properties }, { "required", required } };
    const CompiledSchemaPtr compiled = compileOrFail(schema);
    QVERIFY(compiled);
    const std::vector<SchemaError> errors = compiled->validate(json { { "field0", 1 }, { "field1", 2 } });
    QCOMPARE(errors.size(), std::size_t(20));
    QCOMPARE(errors.front().pointer, std::string("/field1"));
}

void TestSchema::longStringAgainstPatternDoesNotOverflowStack()
{
    // std::regex recurses once per character and overflows the stack near 100k characters.
    const CompiledSchemaPtr compiled = compileOrFail(parse(R"({"pattern": "^[a-z]+$"})"));
    QVERIFY(compiled);
    QVERIFY(compiled->isValid(json(std::string(300000, 'a'))));
    compareErrors(compiled->validate(json(std::string(300000, 'a') + "C")), { u"|does not match pattern"_s });

    // A backtracking-heavy pattern may exhaust the engine's budget: that is a located error, never a crash.
    const CompiledSchemaPtr heavy = compileOrFail(parse(R"({"pattern": "^(a|b)*$"})"));
    QVERIFY(heavy);
    const json longText(std::string(300000, 'a'));
    const std::vector<SchemaError> errors = heavy->validate(longText);
    QCOMPARE(heavy->isValid(longText), errors.empty());
    if (!errors.empty())
        compareErrors(errors, { u"|backtracking limit"_s });
}

void TestSchema::longPropertyNameAgainstPatternProperties()
{
    // valijson would match patternProperties with std::regex, which overflows the stack on names this long.
    const std::string name(300000, 'a');
    const CompiledSchemaPtr compiled
        = compileOrFail(parse(R"({"patternProperties": {"^[a-z]+$": {"type": "integer"}}})"));
    QVERIFY(compiled);
    QVERIFY(compiled->isValid(json { { name, 1 } }));
    const std::vector<SchemaError> errors = compiled->validate(json { { name, "x" } });
    QCOMPARE(errors.size(), std::size_t(1));
    QCOMPARE(errors.front().pointer, "/" + name);
}

void TestSchema::integerAboveInt64IsComparedByValue()
{
    const CompiledSchemaPtr compiled = compileOrFail(parse(R"({"type": "integer", "maximum": 5})"));
    QVERIFY(compiled);
    const json huge = parse("18446744073709551615");
    compareErrors(compiled->validate(huge), { u"|is greater than the maximum 5"_s });
    QVERIFY(!compiled->isValid(huge));
}

QTEST_GUILESS_MAIN(TestSchema)
#include "tst_schema.moc"
