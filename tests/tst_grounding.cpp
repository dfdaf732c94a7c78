// SPDX-License-Identifier: Apache-2.0
// Tests of the grounding family (docs/metrics.md §3): Python-compatible formatting, SQuAD token F1 and
// the per-record SOB metrics. Expected values were worked out by hand; the Python-specific ones
// (float repr, Unicode tokens) were produced with python3 on this machine, e.g.
//   python3 -c "print(repr(1e16))"
//   python3 -c "import re; t='Zürich—Genève'.lower(); print(re.sub(r'[^\w\s]',' ',t).split())"
// and pasted as literals.

#include "scoring/grounding.h"
#include "scoring/metricregistry.h"
#include "scoring/pyformat.h"
#include "scoring/tokenf1.h"

#include <QByteArrayList>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTest>
#include <QtConcurrent>

#include <cmath>
#include <cstring>
#include <limits>

using namespace structscope;
using namespace Qt::StringLiterals;
using nlohmann::json;

Q_DECLARE_METATYPE(structscope::Modality)
Q_DECLARE_METATYPE(structscope::SchemaWalk)

namespace {

json parse(const QByteArray& text)
{
    return json::parse(text.constData(), text.constData() + text.size());
}

QByteArray toBytes(const std::string& s)
{
    return QByteArray(s.data(), static_cast<qsizetype>(s.size()));
}

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-12;
}

QString describe(double actual, double expected)
{
    return u"actual %1, expected %2"_s.arg(actual, 0, 'g', 17).arg(expected, 0, 'g', 17);
}

// {"k00": "v", …} for keys from..to-1 with the given prefix, merged into `object`.
void addKeys(json& object, int from, int to, const char* prefix)
{
    for (int i = from; i < to; ++i) {
        char key[16];
        std::snprintf(key, sizeof key, "%s%02d", prefix, i);
        object[key] = "v";
    }
}

QByteArray keysObject(std::initializer_list<std::tuple<int, int, const char*>> ranges)
{
    json object = json::object();
    for (const auto& [from, to, prefix] : ranges)
        addKeys(object, from, to, prefix);
    return toBytes(object.dump());
}

const QByteArray kNoCandidate = "<none>";

const QByteArray kPerson = R"({"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},
    "city":{"type":["string","null"]},"tags":{"type":"array","items":{"type":"string"}}},"required":["name","age"]})";
const QByteArray kAda = R"({"name":"Ada Lovelace","age":36,"city":"London","tags":["math","poetry"]})";
const QByteArray kIntN = R"({"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]})";
const QByteArray kObject = R"({"type":"object"})";
const QByteArray kFlag = R"({"type":"object","properties":{"flag":{}}})";
const QByteArray kOrder = R"({"type":"object","properties":{"order":{"type":"object","properties":{
    "id":{"type":"string"},"items":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string"},
    "qty":{"type":"integer"}},"required":["sku","qty"]}}},"required":["id","items"]}},"required":["order"]})";
const QByteArray kIdArray = R"({"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"}},
    "required":["id"]}})";
const QByteArray kNullableAddr = R"({"type":"object","properties":{"addr":{"type":["object","null"],
    "properties":{"zip":{"type":"string"}},"required":["zip"]}},"required":["addr"]})";
const QByteArray kRef = R"({"type":"object","properties":{"a":{"$ref":"#/definitions/A"}},"definitions":{
    "A":{"type":"object","properties":{"z":{"type":"integer"}},"required":["z"]}},"required":["a"]})";

// Splits the EXPECTED.md table row "| a | b | … |" into trimmed cells.
QStringList tableCells(const QString& line)
{
    QStringList cells = line.split(u'|');
    if (cells.size() < 3)
        return {};
    cells.removeFirst();
    cells.removeLast();
    for (QString& cell : cells)
        cell = cell.trimmed();
    return cells;
}

} // namespace

// ------------------------------------------------------------------------------------------------
// Python formatting and equality

// ------------------------------------------------------------------------------------------------
// Token F1

// ------------------------------------------------------------------------------------------------
// Gate, weights, modality

// ------------------------------------------------------------------------------------------------
// Schema walking

// ------------------------------------------------------------------------------------------------
// Per-record scores

// ------------------------------------------------------------------------------------------------
// SOB response files end to end (tests/data/grounding, expectations in EXPECTED.md)

// ------------------------------------------------------------------------------------------------
// Concurrency and speed

class TestGrounding : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pyFloatRepr_data();
    void pyFloatRepr();
    void pyStr_data();
    void pyStr();
    void pyEquals_data();
    void pyEquals();
    void canonicalEquals_data();
    void canonicalEquals();
    void sobTokens_data();
    void sobTokens();
    void tokenF1Values_data();
    void tokenF1Values();
    void tokenF1Texts_data();
    void tokenF1Texts();
    void coverageGate_data();
    void coverageGate();
    void weights_data();
    void weights();
    void modality_data();
    void modality();
    void sobCandidateRule();
    void schemaTypeAt_data();
    void schemaTypeAt();
    void requiredPaths_data();
    void requiredPaths();
    void score_data();
    void score();
    void details();
    void hostileSchemas_data();
    void hostileSchemas();
    void deepDocuments();
    void metricTable();
    void sobFixtures_data();
    void sobFixtures();
    void threadedScoringMatchesSerial();
    void manySchemasInTurn();
    void throughput();
};

void TestGrounding::pyFloatRepr_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QByteArray>("expected");
    // Right-hand sides printed by python3: repr(value).
    QTest::addRow("1.0") << 1.0 << QByteArray("1.0");
    QTest::addRow("0.0") << 0.0 << QByteArray("0.0");
    QTest::addRow("-0.0") << -0.0 << QByteArray("-0.0");
    QTest::addRow("1e-05") << 1e-05 << QByteArray("1e-05");
    QTest::addRow("0.0001 stays positional") << 0.0001 << QByteArray("0.0001");
    QTest::addRow("0.000123") << 0.000123 << QByteArray("0.000123");
    QTest::addRow("1e-07") << 1e-07 << QByteArray("1e-07");
    QTest::addRow("1e16 switches to exponent") << 1e16 << QByteArray("1e+16");
    QTest::addRow("1e15 stays positional") << 1e15 << QByteArray("1000000000000000.0");
    QTest::addRow("16 digits") << 1234567890123456.0 << QByteArray("1234567890123456.0");
    QTest::addRow("17 digits") << 12345678901234567.0 << QByteArray("1.2345678901234568e+16");
    QTest::addRow("0.1") << 0.1 << QByteArray("0.1");
    QTest::addRow("100.0") << 100.0 << QByteArray("100.0");
    QTest::addRow("1e22") << 1e22 << QByteArray("1e+22");
    QTest::addRow("1e100") << 1e100 << QByteArray("1e+100");
    QTest::addRow("-1e-100") << -1e-100 << QByteArray("-1e-100");
    QTest::addRow("1.5e300") << 1.5e300 << QByteArray("1.5e+300");
    QTest::addRow("-2.5") << -2.5 << QByteArray("-2.5");
    QTest::addRow("denormal min") << 5e-324 << QByteArray("5e-324");
    QTest::addRow("max") << 1.7976931348623157e308 << QByteArray("1.7976931348623157e+308");
    QTest::addRow("0.1 + 0.2") << 0.1 + 0.2 << QByteArray("0.30000000000000004");
    QTest::addRow("123.456") << 123.456 << QByteArray("123.456");
    QTest::addRow("2**53 + 1 as float") << 9007199254740993.0 << QByteArray("9007199254740992.0");
    QTest::addRow("2**63") << 9223372036854775808.0 << QByteArray("9.223372036854776e+18");
    QTest::addRow("123456789.0") << 123456789.0 << QByteArray("123456789.0");
    QTest::addRow("inf") << std::numeric_limits<double>::infinity() << QByteArray("inf");
    QTest::addRow("-inf") << -std::numeric_limits<double>::infinity() << QByteArray("-inf");
    QTest::addRow("nan") << std::numeric_limits<double>::quiet_NaN() << QByteArray("nan");
}

void TestGrounding::pyFloatRepr()
{
    QFETCH(double, value);
    QFETCH(QByteArray, expected);
    QCOMPARE(toBytes(structscope::pyFloatRepr(value)), expected);
    std::string appended = "x=";
    appendPyFloatRepr(appended, value);
    QCOMPARE(toBytes(appended), "x=" + expected);
}

void TestGrounding::pyStr_data()
{
    QTest::addColumn<QByteArray>("jsonText");
    QTest::addColumn<QByteArray>("expected");
    QTest::addRow("null") << QByteArray("null") << QByteArray("None");
    QTest::addRow("true") << QByteArray("true") << QByteArray("True");
    QTest::addRow("false") << QByteArray("false") << QByteArray("False");
    QTest::addRow("int") << QByteArray("36") << QByteArray("36");
    QTest::addRow("negative int") << QByteArray("-7") << QByteArray("-7");
    QTest::addRow("-0 is the int 0") << QByteArray("-0") << QByteArray("0");
    QTest::addRow("uint64 max") << QByteArray("18446744073709551615") << QByteArray("18446744073709551615");
    QTest::addRow("int64 min") << QByteArray("-9223372036854775808") << QByteArray("-9223372036854775808");
    QTest::addRow("float 1.0") << QByteArray("1.0") << QByteArray("1.0");
    QTest::addRow("float written 1E2") << QByteArray("1E2") << QByteArray("100.0");
    QTest::addRow("float 1e16") << QByteArray("1e16") << QByteArray("1e+16");
    QTest::addRow("string unchanged") << QByteArray(R"("Zürich \"x\"")") << QByteArray("Zürich \"x\"");
    QTest::addRow("empty string") << QByteArray(R"("")") << QByteArray("");
    QTest::addRow("container falls back to JSON") << QByteArray(R"({"a":[1,2.0]})") << QByteArray(R"({"a":[1,2.0]})");
}

void TestGrounding::pyStr()
{
    QFETCH(QByteArray, jsonText);
    QFETCH(QByteArray, expected);
    QCOMPARE(toBytes(structscope::pyStr(parse(jsonText))), expected);
}

void TestGrounding::pyEquals_data()
{
    QTest::addColumn<QByteArray>("a");
    QTest::addColumn<QByteArray>("b");
    QTest::addColumn<bool>("expected");
    QTest::addRow("1 == 1.0") << QByteArray("1") << QByteArray("1.0") << true;
    QTest::addRow("true == 1") << QByteArray("true") << QByteArray("1") << true;
    QTest::addRow("true == 1.0") << QByteArray("true") << QByteArray("1.0") << true;
    QTest::addRow("false == 0") << QByteArray("false") << QByteArray("0") << true;
    QTest::addRow("false == -0.0") << QByteArray("false") << QByteArray("-0.0") << true;
    QTest::addRow("true != 2") << QByteArray("true") << QByteArray("2") << false;
    QTest::addRow("true != false") << QByteArray("true") << QByteArray("false") << false;
    QTest::addRow("0 == -0.0") << QByteArray("0") << QByteArray("-0.0") << true;
    QTest::addRow("-1 == -1.0") << QByteArray("-1") << QByteArray("-1.0") << true;
    QTest::addRow("-1 != 1.0") << QByteArray("-1") << QByteArray("1.0") << false;
    QTest::addRow("1 != 1.5") << QByteArray("1") << QByteArray("1.5") << false;
    QTest::addRow("2**53+1 != 2.0**53 (exact)")
        << QByteArray("9007199254740993") << QByteArray("9007199254740992.0") << false;
    QTest::addRow("2**53 == 2.0**53") << QByteArray("9007199254740992") << QByteArray("9007199254740992.0") << true;
    QTest::addRow("2**64-1 != 2.0**64") << QByteArray("18446744073709551615") << QByteArray("1.8446744073709552e19")
                                        << false;
    QTest::addRow("int64 min == float") << QByteArray("-9223372036854775808") << QByteArray("-9.223372036854775808e18")
                                        << true;
    QTest::addRow("uint vs negative") << QByteArray("18446744073709551615") << QByteArray("-1") << false;
    QTest::addRow("\"1\" != 1") << QByteArray(R"("1")") << QByteArray("1") << false;
    QTest::addRow("null == null") << QByteArray("null") << QByteArray("null") << true;
    QTest::addRow("null != false") << QByteArray("null") << QByteArray("false") << false;
    QTest::addRow("null != \"\"") << QByteArray("null") << QByteArray(R"("")") << false;
    QTest::addRow("strings exact") << QByteArray(R"("a")") << QByteArray(R"("a")") << true;
    QTest::addRow("strings case-sensitive") << QByteArray(R"("a")") << QByteArray(R"("A")") << false;
    QTest::addRow("lists element-wise") << QByteArray("[1, 2]") << QByteArray("[1.0, 2]") << true;
    QTest::addRow("lists of other length") << QByteArray("[1]") << QByteArray("[1, 1]") << false;
    QTest::addRow("dicts") << QByteArray(R"({"a": 1})") << QByteArray(R"({"a": true})") << true;
    QTest::addRow("dicts other keys") << QByteArray(R"({"a": 1})") << QByteArray(R"({"b": 1})") << false;
    QTest::addRow("list != dict") << QByteArray("[]") << QByteArray("{}") << false;
}

void TestGrounding::pyEquals()
{
    QFETCH(QByteArray, a);
    QFETCH(QByteArray, b);
    QFETCH(bool, expected);
    QCOMPARE(structscope::pyEquals(parse(a), parse(b)), expected);
    QCOMPARE(structscope::pyEquals(parse(b), parse(a)), expected);

    // Values no JSON text produces here, but a float can hold.
    const json inf = std::numeric_limits<double>::infinity();
    const json nan = std::numeric_limits<double>::quiet_NaN();
    QVERIFY(!structscope::pyEquals(json(1), inf));
    QVERIFY(structscope::pyEquals(inf, inf));
    QVERIFY(!structscope::pyEquals(nan, nan));
    QVERIFY(canonicalJsonEquals(nan, nan)); // both dump as NaN
    QVERIFY(!canonicalJsonEquals(json(std::int64_t(2)), json(2.0)));
    QVERIFY(canonicalJsonEquals(json(std::int64_t(2)), json(std::uint64_t(2))));
}

void TestGrounding::canonicalEquals_data()
{
    QTest::addColumn<QByteArray>("a");
    QTest::addColumn<QByteArray>("b");
    QTest::addColumn<bool>("expected");
    QTest::addRow("1 vs 1.0 differ") << QByteArray("1") << QByteArray("1.0") << false;
    QTest::addRow("true vs 1 differ") << QByteArray("true") << QByteArray("1") << false;
    QTest::addRow("0.0 vs -0.0 differ") << QByteArray("0.0") << QByteArray("-0.0") << false;
    QTest::addRow("1e16 vs 10000000000000000.0 same float")
        << QByteArray("1e16") << QByteArray("10000000000000000.0") << true;
    QTest::addRow("key order irrelevant") << QByteArray(R"({"b":1,"a":[2,{"d":null,"c":"x"}]})")
                                          << QByteArray(R"({"a":[2,{"c":"x","d":null}],"b":1})") << true;
    QTest::addRow("nested 1 vs 1.0") << QByteArray(R"({"a":[1]})") << QByteArray(R"({"a":[1.0]})") << false;
    QTest::addRow("array order matters") << QByteArray("[1,2]") << QByteArray("[2,1]") << false;
    QTest::addRow("null vs null") << QByteArray("null") << QByteArray("null") << true;
    QTest::addRow("null vs {}") << QByteArray("null") << QByteArray("{}") << false;
    QTest::addRow("strings") << QByteArray(R"("é")") << QByteArray(R"("\u00e9")") << true;
    QTest::addRow("extra key") << QByteArray(R"({"a":1})") << QByteArray(R"({"a":1,"b":1})") << false;
}

void TestGrounding::canonicalEquals()
{
    QFETCH(QByteArray, a);
    QFETCH(QByteArray, b);
    QFETCH(bool, expected);
    QCOMPARE(canonicalJsonEquals(parse(a), parse(b)), expected);
    QCOMPARE(canonicalJsonEquals(parse(b), parse(a)), expected);
}

void TestGrounding::sobTokens_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArrayList>("expected");
    // Expectations printed by python3 with SOB's normalisation (lower, [^\w\s] → " ", articles dropped, split).
    QTest::addRow("em dash between words") << QByteArray("Zürich—Genève") << QByteArrayList { "zürich", "genève" };
    QTest::addRow("guillemets and hyphen")
        << QByteArray("«Bonjour», dit-il.") << QByteArrayList { "bonjour", "dit", "il" };
    QTest::addRow("apostrophe and article") << QByteArray("The cat's hat") << QByteArrayList { "cat", "s", "hat" };
    QTest::addRow("final sigma") << QByteArray("ΟΔΟΣ ΟΔΟΣ.") << QByteArrayList { "οδος", "οδος" };
    QTest::addRow("lone sigma") << QByteArray("Σ") << QByteArrayList { "σ" };
    QTest::addRow("sigma before a digit is final") << QByteArray("ΑΣ1") << QByteArrayList { "ας1" };
    QTest::addRow("sigma at both ends") << QByteArray("ΣΑΣ") << QByteArrayList { "σας" };
    QTest::addRow("dotted capital I splits") << QByteArray("İstanbul") << QByteArrayList { "i", "stanbul" };
    QTest::addRow("combining mark splits") << QByteArray("nai\xcc\x88ve") << QByteArrayList { "nai", "ve" };
    QTest::addRow("roman numeral is a word") << QByteArray("Ⅻ Olympiad") << QByteArrayList { "ⅻ", "olympiad" };
    QTest::addRow("articles only as whole tokens") << QByteArray("A an THE a.n.t") << QByteArrayList { "n", "t" };
    QTest::addRow("empty") << QByteArray("") << QByteArrayList {};
    QTest::addRow("blank") << QByteArray("   ") << QByteArrayList {};
    QTest::addRow("underscore is a word char")
        << QByteArray("e-mail_address") << QByteArrayList { "e", "mail_address" };
    QTest::addRow("Arabic-Indic digit") << QByteArray("٣ apples") << QByteArrayList { "٣", "apples" };
    QTest::addRow("Unicode spaces") << QByteArray("x\xc2\xa0y\xe2\x80\x89z") << QByteArrayList { "x", "y", "z" };
    QTest::addRow("vulgar fraction") << QByteArray("½ cup") << QByteArrayList { "½", "cup" };
    QTest::addRow("sharp s kept") << QByteArray("straße STRASSE") << QByteArrayList { "straße", "strasse" };
    QTest::addRow("CJK") << QByteArray("東京タワー 333m") << QByteArrayList { "東京タワー", "333m" };
    QTest::addRow("Python float text") << QByteArray("1e-05") << QByteArrayList { "1e", "05" };
    QTest::addRow("negative zero") << QByteArray("-0.0") << QByteArrayList { "0", "0" };
    QTest::addRow("titlecase digraph") << QByteArray("ǅemal") << QByteArrayList { "ǆemal" };
    QTest::addRow("zero-width characters separate")
        << QByteArray("\xe2\x80\x8bzero\xe2\x80\x8dwidth") << QByteArrayList { "zero", "width" };
    QTest::addRow("emoji") << QByteArray("🙂 ok") << QByteArrayList { "ok" };
    QTest::addRow("invalid UTF-8 separates") << QByteArray("ab\xff"
                                                           "cd\xc3")
                                             << QByteArrayList { "ab", "cd" };
    QTest::addRow("overlong encoding separates") << QByteArray("a\xc0\xafz") << QByteArrayList { "z" };
    QTest::addRow("embedded NUL") << QByteArray("x\0y", 3) << QByteArrayList { "x", "y" };
}

void TestGrounding::sobTokens()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArrayList, expected);
    QByteArrayList actual;
    for (const std::string& token : structscope::sobTokens(std::string_view(text.constData(), text.size())))
        actual << toBytes(token);
    QCOMPARE(actual, expected);
}

void TestGrounding::tokenF1Values_data()
{
    QTest::addColumn<QByteArray>("gold");
    QTest::addColumn<QByteArray>("predicted"); // kNoCandidate = the path is missing
    QTest::addColumn<double>("expected");
    QTest::addRow("same") << QByteArray(R"("New York")") << QByteArray(R"("new york")") << 1.0;
    // P = 2/3, R = 1 → F1 = 0.8
    QTest::addRow("extra token") << QByteArray(R"("New York")") << QByteArray(R"("New York City")") << 0.8;
    // gold "1" → {1}, prediction "1.0" → {1, 0}: P = 1/2, R = 1 → 2/3
    QTest::addRow("1 vs 1.0") << QByteArray("1") << QByteArray("1.0") << 2.0 / 3.0;
    QTest::addRow("1.0 vs \"1.0\"") << QByteArray("1.0") << QByteArray(R"("1.0")") << 1.0;
    QTest::addRow("1e-05 vs its text") << QByteArray("1e-05") << QByteArray(R"("1e-05")") << 1.0;
    QTest::addRow("1e16 vs its text") << QByteArray("1e16") << QByteArray(R"("1e+16")") << 1.0;
    QTest::addRow("1e16 vs the integer") << QByteArray("1e16") << QByteArray("10000000000000000") << 0.0;
    QTest::addRow("100.0 vs \"100.0\"") << QByteArray("100.0") << QByteArray(R"("100.0")") << 1.0;
    QTest::addRow("true vs \"True\"") << QByteArray("true") << QByteArray(R"("True")") << 1.0;
    QTest::addRow("true vs 1") << QByteArray("true") << QByteArray("1") << 0.0;
    QTest::addRow("null vs missing") << QByteArray("null") << kNoCandidate << 1.0;
    QTest::addRow("\"null\" vs missing") << QByteArray(R"("null")") << kNoCandidate << 1.0;
    QTest::addRow("value vs missing") << QByteArray(R"("x")") << kNoCandidate << 0.0;
    QTest::addRow("both without tokens") << QByteArray(R"("the")") << QByteArray(R"("—")") << 1.0;
    QTest::addRow("gold without tokens") << QByteArray(R"("")") << QByteArray(R"("x")") << 0.0;
    QTest::addRow("prediction without tokens") << QByteArray(R"("x")") << QByteArray(R"("a")") << 0.0;
    // multiset overlap: gold {x:2, y:2}, prediction {x, y} → overlap 2, P = 1, R = 1/2 → 2/3
    QTest::addRow("repeated tokens") << QByteArray(R"("x y x y")") << QByteArray(R"("y x")") << 2.0 / 3.0;
    QTest::addRow("no overlap") << QByteArray(R"("abc")") << QByteArray(R"("def")") << 0.0;
    QTest::addRow("Unicode punctuation") << QByteArray(R"("Zürich—Genève")") << QByteArray(R"("zürich genève")") << 1.0;
    QTest::addRow("final sigma across case") << QByteArray(R"("ΟΔΟΣ")") << QByteArray(R"("οδος")") << 1.0;
}

void TestGrounding::tokenF1Values()
{
    QFETCH(QByteArray, gold);
    QFETCH(QByteArray, predicted);
    QFETCH(double, expected);
    const json g = parse(gold);
    const json p = predicted == kNoCandidate ? json() : parse(predicted);
    const double actual = tokenF1(&g, predicted == kNoCandidate ? nullptr : &p);
    QVERIFY2(near(actual, expected), qPrintable(describe(actual, expected)));
}

void TestGrounding::tokenF1Texts_data()
{
    QTest::addColumn<QByteArray>("gold");
    QTest::addColumn<QByteArray>("predicted");
    QTest::addColumn<double>("expected");
    QTest::addRow("empty both") << QByteArray() << QByteArray() << 1.0;
    QTest::addRow("empty gold") << QByteArray() << QByteArray("x") << 0.0;
    // gold {a1, b, c}, prediction {b, c, d, e}: overlap 2, P = 1/2, R = 2/3 → 4/7
    QTest::addRow("partial") << QByteArray("a1 b c") << QByteArray("b c d e") << 4.0 / 7.0;
    QTest::addRow("case and punctuation") << QByteArray("Hello, World!") << QByteArray("hello world") << 1.0;
}

void TestGrounding::tokenF1Texts()
{
    QFETCH(QByteArray, gold);
    QFETCH(QByteArray, predicted);
    QFETCH(double, expected);
    const double actual = textTokenF1(
        std::string_view(gold.constData(), gold.size()), std::string_view(predicted.constData(), predicted.size()));
    QVERIFY2(near(actual, expected), qPrintable(describe(actual, expected)));
}

void TestGrounding::coverageGate_data()
{
    QTest::addColumn<Modality>("modality");
    QTest::addColumn<double>("coverage");
    QTest::addColumn<double>("expected");
    QTest::addRow("text at exactly 0.95") << Modality::Text << 0.95 << 1.0;
    QTest::addRow("text just below") << Modality::Text << 0.9499999999999999 << 0.0;
    QTest::addRow("text 18/19") << Modality::Text << 18.0 / 19.0 << 0.0;
    QTest::addRow("text 1") << Modality::Text << 1.0 << 1.0;
    QTest::addRow("text 0") << Modality::Text << 0.0 << 0.0;
    QTest::addRow("image 0.45 → 0.25") << Modality::Image << 0.45 << 0.25;
    QTest::addRow("image 0.9 → 1") << Modality::Image << 0.9 << 1.0;
    QTest::addRow("image above 0.9 capped") << Modality::Image << 0.99 << 1.0;
    QTest::addRow("image 0") << Modality::Image << 0.0 << 0.0;
    QTest::addRow("image negative") << Modality::Image << -0.5 << 0.0;
    QTest::addRow("image NaN") << Modality::Image << std::numeric_limits<double>::quiet_NaN() << 0.0;
    // python3: (0.6 / 0.90) ** 2 == 0.4444444444444444
    QTest::addRow("audio 0.6") << Modality::Audio << 0.6 << 0.4444444444444444;
}

void TestGrounding::coverageGate()
{
    QFETCH(Modality, modality);
    QFETCH(double, coverage);
    QFETCH(double, expected);
    const double actual = structscope::coverageGate(modality, coverage);
    QVERIFY2(near(actual, expected), qPrintable(describe(actual, expected)));
}

void TestGrounding::weights_data()
{
    QTest::addColumn<QByteArray>("metadata");
    QTest::addColumn<double>("weight");
    QTest::addColumn<QString>("tier");
    QTest::addColumn<QString>("basis");
    QTest::addRow("schema_complexity wins") << QByteArray(R"({"schema_complexity":"hard","difficulty":"easy"})") << 3.0
                                            << u"hard"_s << u"schema_complexity"_s;
    QTest::addRow("unknown complexity falls back")
        << QByteArray(R"({"schema_complexity":"unknown","difficulty":"medium"})") << 2.0 << u"medium"_s
        << u"difficulty"_s;
    QTest::addRow("null complexity falls back")
        << QByteArray(R"({"schema_complexity":null,"difficulty":"easy"})") << 1.0 << u"easy"_s << u"difficulty"_s;
    QTest::addRow("case matters") << QByteArray(R"({"schema_complexity":"Hard"})") << 0.0 << u"unknown"_s
                                  << u"unknown"_s;
    QTest::addRow("number is no tier") << QByteArray(R"({"schema_complexity":3})") << 0.0 << u"unknown"_s
                                       << u"unknown"_s;
    QTest::addRow("neither") << QByteArray(R"({"difficulty":"extreme"})") << 0.0 << u"unknown"_s << u"unknown"_s;
    QTest::addRow("empty") << QByteArray("{}") << 0.0 << u"unknown"_s << u"unknown"_s;
    QTest::addRow("not an object") << QByteArray(R"(["hard"])") << 0.0 << u"unknown"_s << u"unknown"_s;
}

void TestGrounding::weights()
{
    QFETCH(QByteArray, metadata);
    QFETCH(double, weight);
    QFETCH(QString, tier);
    QFETCH(QString, basis);
    const RecordWeight w = sobRecordWeight(parse(metadata));
    QCOMPARE(w.weight, weight);
    QCOMPARE(QString::fromStdString(w.tier), tier);
    QCOMPARE(QString::fromStdString(w.basis), basis);

    QCOMPARE(complexityWeight("easy"), 1.0);
    QCOMPARE(complexityWeight("medium"), 2.0);
    QCOMPARE(complexityWeight("hard"), 3.0);
    QCOMPARE(complexityWeight("HARD"), 0.0);
    QCOMPARE(complexityWeight(""), 0.0);
    QCOMPARE(complexityWeight(" easy"), 0.0);
}

void TestGrounding::modality_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<Modality>("expected");
    QTest::addRow("text dir") << u"data/text_response/response_gpt.jsonl"_s << Modality::Text;
    QTest::addRow("images dir") << u"data/images_response/response_gpt.jsonl"_s << Modality::Image;
    QTest::addRow("image dir") << u"/x/Image_Response/r.jsonl"_s << Modality::Image;
    QTest::addRow("audio dir") << u"audio_response/r.jsonl"_s << Modality::Audio;
    QTest::addRow("_image in the name") << u"out/response_gpt_image.jsonl"_s << Modality::Image;
    QTest::addRow("_audio in the name") << u"out/response_gpt_audio.jsonl"_s << Modality::Audio;
    QTest::addRow("_image only in a directory") << u"my_images/response_gpt.jsonl"_s << Modality::Text;
    QTest::addRow("text dir beats name") << u"text_response/response_x_image.jsonl"_s << Modality::Text;
    QTest::addRow("Windows separators") << u"C:\\runs\\response_x_audio.jsonl"_s << Modality::Audio;
    QTest::addRow("nothing") << u"response.jsonl"_s << Modality::Text;
}

void TestGrounding::modality()
{
    QFETCH(QString, path);
    QFETCH(Modality, expected);
    QCOMPARE(inferSobModality(path.toStdString()), expected);
    QCOMPARE(modalityFromId(modalityId(expected)), std::optional<Modality>(expected));
    QCOMPARE(modalityFromId("Text"), std::optional<Modality>());
}

void TestGrounding::sobCandidateRule()
{
    const json object = parse(R"({"a":1})");
    const json array = parse("[1]");
    QCOMPARE(structscope::sobCandidate(object), &object);
    QCOMPARE(structscope::sobCandidate(array), &array);
    for (const char* text : { R"("{\"a\": 1}")", "42", "null", "true", R"("")" }) {
        const json scalar = json::parse(text);
        QVERIFY2(structscope::sobCandidate(scalar) == nullptr, text);
    }
}

void TestGrounding::schemaTypeAt_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<QString>("path");
    QTest::addColumn<SchemaWalk>("walk");
    QTest::addColumn<QString>("expected");
    const auto sob = SchemaWalk::Sob;
    const auto res = SchemaWalk::Resolving;
    QTest::addRow("string") << kPerson << u"name"_s << sob << u"string"_s;
    QTest::addRow("integer") << kPerson << u"age"_s << sob << u"integer"_s;
    QTest::addRow("nullable collapses") << kPerson << u"city"_s << sob << u"string"_s;
    QTest::addRow("array item") << kPerson << u"tags[0]"_s << sob << u"string"_s;
    QTest::addRow("any index") << kPerson << u"tags[57]"_s << sob << u"string"_s;
    QTest::addRow("container itself") << kPerson << u"tags"_s << sob << u"array"_s;
    QTest::addRow("undescribed key") << kPerson << u"unknown"_s << sob << QString();
    QTest::addRow("below a string") << kPerson << u"name.first"_s << sob << QString();
    QTest::addRow("index into an object") << kPerson << u"name[0]"_s << sob << QString();
    QTest::addRow("key into an array") << kPerson << u"tags.x"_s << sob << QString();
    QTest::addRow("non-numeric index") << kPerson << u"tags[x]"_s << sob << QString();
    QTest::addRow("unclosed index") << kPerson << u"tags[0"_s << sob << QString();
    QTest::addRow("empty path is the root") << kPerson << QString() << sob << u"object"_s;
    QTest::addRow("two non-null types") << QByteArray(
        R"({"type":"object","properties":{"v":{"type":["string","number"]}}})")
                                        << u"v"_s << sob << QString();
    QTest::addRow("only null in a list") << QByteArray(R"({"type":"object","properties":{"v":{"type":["null"]}}})")
                                         << u"v"_s << sob << QString();
    QTest::addRow("type null") << QByteArray(R"({"type":"object","properties":{"v":{"type":"null"}}})") << u"v"_s << sob
                               << u"null"_s;
    QTest::addRow("unknown type name") << QByteArray(R"({"type":"object","properties":{"v":{"type":"date"}}})")
                                       << u"v"_s << sob << QString();
    QTest::addRow("no type") << QByteArray(R"({"type":"object","properties":{"v":{}}})") << u"v"_s << sob << QString();
    QTest::addRow("boolean subschema") << QByteArray(R"({"type":"object","properties":{"v":true}})") << u"v"_s << sob
                                       << QString();
    QTest::addRow("tuple items") << QByteArray(R"({"type":"array","items":[{"type":"string"}]})") << u"[0]"_s << sob
                                 << QString();
    QTest::addRow("root array") << kIdArray << u"[3].id"_s << sob << u"integer"_s;
    QTest::addRow("dotted key is split (as SOB)")
        << QByteArray(R"({"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}},
                          "a.b":{"type":"integer"}}})")
        << u"a.b"_s << sob << u"string"_s;
    QTest::addRow("intermediate type list, SOB") << kNullableAddr << u"addr.zip"_s << sob << QString();
    QTest::addRow("intermediate type list, resolving") << kNullableAddr << u"addr.zip"_s << res << u"string"_s;
    QTest::addRow("$ref, SOB") << kRef << u"a.z"_s << sob << QString();
    QTest::addRow("$ref, resolving") << kRef << u"a.z"_s << res << u"integer"_s;
    const QByteArray pydantic
        = R"({"type":"object","$defs":{"Addr":{"type":"object","properties":{"zip":{"type":"string"}}}},
        "properties":{"addr":{"anyOf":[{"$ref":"#/$defs/Addr"},{"type":"null"}]},
                      "n":{"anyOf":[{"type":"integer"},{"type":"string"}]}}})";
    QTest::addRow("Optional[Model], resolving") << pydantic << u"addr.zip"_s << res << u"string"_s;
    QTest::addRow("Optional[Model], SOB") << pydantic << u"addr.zip"_s << sob << QString();
    QTest::addRow("real union stays undescribed") << pydantic << u"n"_s << res << QString();
    QTest::addRow("dangling $ref") << QByteArray(R"({"type":"object","properties":{"a":{"$ref":"#/nowhere"}}})")
                                   << u"a"_s << res << QString();
    QTest::addRow("remote $ref") << QByteArray(R"({"type":"object","properties":{"a":{"$ref":"http://x/s.json"}}})")
                                 << u"a"_s << res << QString();
    QTest::addRow("$ref cycle") << QByteArray(R"({"type":"object","properties":{"a":{"$ref":"#/definitions/B"}},
                          "definitions":{"B":{"$ref":"#/definitions/C"},"C":{"$ref":"#/definitions/B"}}})")
                                << u"a"_s << res << QString();
    QTest::addRow("escaped pointer") << QByteArray(
        R"({"type":"object","properties":{"a":{"$ref":"#/definitions/x~1y"}},
                          "definitions":{"x/y":{"type":"boolean"}}})")
                                     << u"a"_s << res << u"boolean"_s;
    QTest::addRow("not a schema object") << QByteArray("[1]") << u"a"_s << sob << QString();
}

void TestGrounding::schemaTypeAt()
{
    QFETCH(QByteArray, schema);
    QFETCH(QString, path);
    QFETCH(SchemaWalk, walk);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(structscope::schemaTypeAt(parse(schema), path.toStdString(), walk)), expected);
}

void TestGrounding::requiredPaths_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<SchemaWalk>("walk");
    QTest::addColumn<QStringList>("expected");
    const auto sob = SchemaWalk::Sob;
    const auto res = SchemaWalk::Resolving;
    QTest::addRow("flat") << kPerson << sob << QStringList { u"age"_s, u"name"_s };
    QTest::addRow("nested through arrays")
        << kOrder << sob
        << QStringList { u"order"_s, u"order.id"_s, u"order.items"_s, u"order.items[].qty"_s, u"order.items[].sku"_s };
    QTest::addRow("root array") << kIdArray << sob << QStringList { u"[].id"_s };
    QTest::addRow("nullable object, SOB stops") << kNullableAddr << sob << QStringList { u"addr"_s };
    QTest::addRow("nullable object, resolving") << kNullableAddr << res << QStringList { u"addr"_s, u"addr.zip"_s };
    QTest::addRow("$ref, SOB") << kRef << sob << QStringList { u"a"_s };
    QTest::addRow("$ref, resolving") << kRef << res << QStringList { u"a"_s, u"a.z"_s };
    const QByteArray recursive = R"({"$ref":"#/definitions/N","definitions":{"N":{"type":"object",
        "properties":{"child":{"$ref":"#/definitions/N"}},"required":["child"]}}})";
    QTest::addRow("recursive, SOB") << recursive << sob << QStringList {};
    QTest::addRow("recursive, resolving stops") << recursive << res << QStringList { u"child"_s };
    QTest::addRow("required without properties")
        << QByteArray(R"({"type":"object","required":["x"]})") << sob << QStringList { u"x"_s };
    QTest::addRow("duplicates once") << QByteArray(R"({"type":"object","required":["a","a"]})") << sob
                                     << QStringList { u"a"_s };
    QTest::addRow("required not a list") << QByteArray(R"({"type":"object","required":"a"})") << sob << QStringList {};
    QTest::addRow("non-string entries skipped")
        << QByteArray(R"({"type":"object","required":[1,"b",null]})") << sob << QStringList { u"b"_s };
    QTest::addRow("no type, no paths") << QByteArray(R"({"properties":{"a":{}},"required":["a"]})") << sob
                                       << QStringList {};
    QTest::addRow("nothing required") << kObject << sob << QStringList {};
    QTest::addRow("boolean schema") << QByteArray("true") << sob << QStringList {};
    QTest::addRow("array of arrays") << QByteArray(
        R"({"type":"array","items":{"type":"array","items":{"type":"object",
        "required":["k"]}}})") << sob << QStringList { u"[][].k"_s };
}

void TestGrounding::requiredPaths()
{
    QFETCH(QByteArray, schema);
    QFETCH(SchemaWalk, walk);
    QFETCH(QStringList, expected);
    QStringList actual;
    for (const std::string& path : structscope::requiredPaths(parse(schema), walk))
        actual << QString::fromStdString(path);
    QCOMPARE(actual, expected);
}

void TestGrounding::score_data()
{
    QTest::addColumn<QByteArray>("candidate"); // kNoCandidate: did not parse / arrived as a string
    QTest::addColumn<QByteArray>("gold");
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<Modality>("modality");
    QTest::addColumn<SchemaWalk>("walk");
    // parse, root, schema_valid_input, json_pass, value_accuracy, faithfulness, path_recall,
    // structure_coverage, type_safety, required_key_recall, perfect
    QTest::addColumn<QList<double>>("expected");

    const auto T = Modality::Text;
    const auto sob = SchemaWalk::Sob;
    const double third = 1.0 / 3.0;
    const double twoThirds = 2.0 / 3.0;

    QTest::addRow("exact copy") << kAda << kAda << kPerson << T << sob
                                << QList<double> { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    // 1 == 1.0 by value; token F1 "1.0" vs "1" = 2/3; 1.0 is not an integer for type safety; perfect differs.
    QTest::addRow("1 vs 1.0") << QByteArray(R"({"n":1.0})") << QByteArray(R"({"n":1})") << kIntN << T << sob
                              << QList<double> { 1, 1, 1, 1, 1, twoThirds, 1, 1, 0, 1, 0 };
    QTest::addRow("true vs 1") << QByteArray(R"({"flag":1})") << QByteArray(R"({"flag":true})") << kFlag << T << sob
                               << QList<double> { 1, 1, 1, 1, 1, 0, 1, 1, 0, 1, 0 };
    QTest::addRow("false vs 0.0") << QByteArray(R"({"flag":0.0})") << QByteArray(R"({"flag":false})") << kFlag << T
                                  << sob << QList<double> { 1, 1, 1, 1, 1, 0, 1, 1, 0, 1, 0 };
    QTest::addRow("\"1\" vs 1") << QByteArray(R"({"n":"1"})") << QByteArray(R"({"n":1})") << kObject << T << sob
                                << QList<double> { 1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 0 };
    // No gold leaf: raw accuracy 1, but coverage 0 closes the gate; nothing required → 1; {} == {}.
    QTest::addRow("empty gold") << QByteArray("{}") << QByteArray("{}") << kObject << T << sob
                                << QList<double> { 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1 };
    QTest::addRow("empty gold, image") << QByteArray("{}") << QByteArray("{}") << kObject << Modality::Image << sob
                                       << QList<double> { 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1 };
    QTest::addRow("scalar gold has no leaf") << QByteArray(R"({"a":"x"})") << QByteArray(R"("x")") << kObject << T
                                             << sob << QList<double> { 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 0 };
    QTest::addRow("candidate arrived as a string")
        << kNoCandidate << kAda << kPerson << T << sob << QList<double> { 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0 };
    QTest::addRow("scalar candidate") << QByteArray("42") << kAda << kPerson << T << sob
                                      << QList<double> { 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0 };
    QTest::addRow("string candidate from the ladder")
        << QByteArray(R"("Ada")") << kAda << kPerson << T << sob << QList<double> { 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0 };
    QTest::addRow("unparsed candidate vs null gold") << kNoCandidate << QByteArray("null") << kObject << T << sob
                                                     << QList<double> { 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1 };
    QTest::addRow("null leaf vs [string, null]")
        << QByteArray(R"({"city":null})") << QByteArray(R"({"city":null})")
        << QByteArray(R"({"type":"object","properties":{"city":{"type":["string","null"]}}})") << T << sob
        << QList<double> { 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1 };
    QTest::addRow("null leaf vs type null") << QByteArray(R"({"city":null})") << QByteArray(R"({"city":null})")
                                            << QByteArray(R"({"type":"object","properties":{"city":{"type":"null"}}})")
                                            << T << sob << QList<double> { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    // G = {a}, P = {a, extra}: coverage F1(1/2, 1) = 2/3 closes the text gate; `extra` is undescribed.
    QTest::addRow("path the schema does not describe")
        << QByteArray(R"({"a":"x","extra":5})") << QByteArray(R"({"a":"x"})")
        << QByteArray(R"({"type":"object","properties":{"a":{"type":"string"}}})") << T << sob
        << QList<double> { 1, 1, 1, 1, 0, 0, 1, twoThirds, 0.5, 1, 0 };
    QTest::addRow("Unicode punctuation") << QByteArray(R"({"route":"zürich genève"})")
                                         << QByteArray(R"({"route":"Zürich—Genève"})")
                                         << QByteArray(R"({"type":"object","properties":{"route":{"type":"string"}}})")
                                         << T << sob << QList<double> { 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0 };
    QTest::addRow("Python float text") << QByteArray(R"({"x":"1e-05","y":"1e+16","z":"1.0"})")
                                       << QByteArray(R"({"x":1e-05,"y":1e16,"z":1.0})") << kObject << T << sob
                                       << QList<double> { 1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 0 };
    // 20 gold keys, 19 of them predicted plus one wrong: c = F1(19/20, 19/20) = 0.9500000000000001 ≥ 0.95.
    QTest::addRow("text gate passes at 0.95")
        << keysObject({ { 0, 19, "k" }, { 19, 20, "x" } }) << keysObject({ { 0, 20, "k" } }) << kObject << T << sob
        << QList<double> { 1, 1, 1, 1, 0.95, 0.95, 0.95, 0.9500000000000001, 0, 1, 0 };
    // 19 gold keys, 18 predicted plus one wrong: c = 18/19 = 0.947… < 0.95.
    QTest::addRow("text gate closed just below")
        << keysObject({ { 0, 18, "k" }, { 18, 19, "x" } }) << keysObject({ { 0, 19, "k" } }) << kObject << T << sob
        << QList<double> { 1, 1, 1, 1, 0, 0, 18.0 / 19, 18.0 / 19, 0, 1, 0 };
    // 9 of 20 right plus 11 wrong: c = 0.45 → image gate (0.45/0.9)² = 0.25; raw accuracy 9/20 → 0.1125.
    const QByteArray nineOfTwenty = keysObject({ { 0, 9, "k" }, { 9, 20, "x" } });
    const QByteArray twenty = keysObject({ { 0, 20, "k" } });
    QTest::addRow("image gate 0.45 → 0.25") << nineOfTwenty << twenty << kObject << Modality::Image << sob
                                            << QList<double> { 1, 1, 1, 1, 0.1125, 0.1125, 0.45, 0.45, 0, 1, 0 };
    QTest::addRow("audio gate 0.45 → 0.25") << nineOfTwenty << twenty << kObject << Modality::Audio << sob
                                            << QList<double> { 1, 1, 1, 1, 0.1125, 0.1125, 0.45, 0.45, 0, 1, 0 };
    QTest::addRow("text gate 0.45 → 0") << nineOfTwenty << twenty << kObject << T << sob
                                        << QList<double> { 1, 1, 1, 1, 0, 0, 0.45, 0.45, 0, 1, 0 };
    // Missing path tokenized as "null": gold "null" scores 1 against it. c = 2/3, g = (2/3 / 0.9)² (python3:
    // 0.5486968449931412); accuracy 1/2 × g, faithfulness 2/2 × g.
    QTest::addRow("missing value reads as null")
        << QByteArray(R"({"b":"x"})") << QByteArray(R"({"a":"null","b":"x"})") << kObject << Modality::Image << sob
        << QList<double> { 1, 1, 1, 1, 0.2743484224965706, 0.5486968449931412, 0.5, twoThirds, 0, 1, 0 };
    QTest::addRow("invalid schema: type typo")
        << QByteArray(R"({"a":1})") << QByteArray(R"({"a":1})") << QByteArray(R"({"type":"objectt"})") << T << sob
        << QList<double> { 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
    QTest::addRow("invalid schema: negative minLength")
        << QByteArray(R"({"a":"x"})") << QByteArray(R"({"a":"x"})")
        << QByteArray(R"({"type":"object","properties":{"a":{"type":"string","minLength":-1}}})") << T << sob
        << QList<double> { 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
    QTest::addRow("invalid schema: required is a string")
        << QByteArray(R"({"a":"x"})") << QByteArray(R"({"a":"x"})") << QByteArray(R"({"type":"object","required":"a"})")
        << T << sob << QList<double> { 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
    QTest::addRow("schema is a boolean") << QByteArray(R"({"a":"x"})") << QByteArray(R"({"a":"x"})")
                                         << QByteArray("true") << T << sob
                                         << QList<double> { 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
    QTest::addRow("schema is a string") << QByteArray(R"({"a":"x"})") << QByteArray(R"({"a":"x"})")
                                        << QByteArray(R"("{\"type\":\"object\"}")") << T << sob
                                        << QList<double> { 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
    QTest::addRow("format ignored") << QByteArray(R"({"d":"notadate"})") << QByteArray(R"({"d":"2024-01-01"})")
                                    << QByteArray(
                                           R"({"type":"object","properties":{"d":{"type":"string","format":"date"}}})")
                                    << T << sob << QList<double> { 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0 };
    QTest::addRow("integral float passes integer")
        << QByteArray(R"({"n":3.0})") << QByteArray(R"({"n":3})") << kIntN << T << sob
        << QList<double> { 1, 1, 1, 1, 1, twoThirds, 1, 1, 0, 1, 0 };
    // Failing json_pass zeroes everything gated by h; required_key_recall is not gated.
    QTest::addRow("3.5 fails integer") << QByteArray(R"({"n":3.5})") << QByteArray(R"({"n":3})") << kIntN << T << sob
                                       << QList<double> { 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0 };
    QTest::addRow("true is not an integer") << QByteArray(R"({"n":true})") << QByteArray(R"({"n":1})") << kIntN << T
                                            << sob << QList<double> { 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0 };
    QTest::addRow("root array") << QByteArray(R"([{"id":1},{"id":3}])") << QByteArray(R"([{"id":1},{"id":2}])")
                                << kIdArray << T << sob << QList<double> { 1, 1, 1, 1, 0.5, 0.5, 1, 1, 1, 1, 0 };
    QTest::addRow("array where an object is expected")
        << QByteArray(R"([{"n":1}])") << QByteArray(R"({"n":1})") << kIntN << T << sob
        << QList<double> { 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0 };
    // Required: order, order.id, order.items, order.items[].qty, order.items[].sku; qty missing → 4/5.
    QTest::addRow("nested required, one missing")
        << QByteArray(R"({"order":{"id":"A1","items":[{"sku":"X"}]}})")
        << QByteArray(R"({"order":{"id":"A1","items":[{"sku":"X","qty":2}]}})") << kOrder << T << sob
        << QList<double> { 1, 1, 1, 0, 0, 0, 0, 0, 0, 0.8, 0 };
    // Valid with an empty list: P = {order.id}, G has 3 leaves → recall 1/3, c = F1(1, 1/3) = 0.5; 3/5 required.
    QTest::addRow("nested required, empty array")
        << QByteArray(R"({"order":{"id":"A1","items":[]}})")
        << QByteArray(R"({"order":{"id":"A1","items":[{"sku":"X","qty":2}]}})") << kOrder << T << sob
        << QList<double> { 1, 1, 1, 1, 0, 0, third, 0.5, 1, 0.6, 0 };
    QTest::addRow("required key holding null is present")
        << QByteArray(R"({"a":null})") << QByteArray(R"({"a":"x"})")
        << QByteArray(R"({"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"]})") << T << sob
        << QList<double> { 1, 1, 1, 1, 0, 0, 1, 1, 0, 1, 0 };
    QTest::addRow("intermediate type list, SOB walk")
        << QByteArray(R"({"addr":{"zip":"123"}})") << QByteArray(R"({"addr":{"zip":"123"}})") << kNullableAddr << T
        << sob << QList<double> { 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1 };
    QTest::addRow("intermediate type list, resolving walk")
        << QByteArray(R"({"addr":{"zip":"123"}})") << QByteArray(R"({"addr":{"zip":"123"}})") << kNullableAddr << T
        << SchemaWalk::Resolving << QList<double> { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    QTest::addRow("$ref, SOB walk") << QByteArray(R"({"a":{"z":1}})") << QByteArray(R"({"a":{"z":1}})") << kRef << T
                                    << sob << QList<double> { 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1 };
    QTest::addRow("$ref, resolving walk")
        << QByteArray(R"({"a":{"z":1}})") << QByteArray(R"({"a":{"z":1}})") << kRef << T << SchemaWalk::Resolving
        << QList<double> { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    QTest::addRow("$ref required, SOB walk") << QByteArray(R"({"a":{}})") << QByteArray(R"({"a":{"z":1}})") << kRef << T
                                             << sob << QList<double> { 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0 };
    QTest::addRow("$ref required, resolving walk")
        << QByteArray(R"({"a":{}})") << QByteArray(R"({"a":{"z":1}})") << kRef << T << SchemaWalk::Resolving
        << QList<double> { 1, 1, 1, 0, 0, 0, 0, 0, 0, 0.5, 0 };
    QTest::addRow("perfect ignores key order")
        << QByteArray(R"({"b":1,"a":2})") << QByteArray(R"({"a":2,"b":1})") << kObject << T << sob
        << QList<double> { 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1 };
    QTest::addRow("-0.0 vs 0.0") << QByteArray(R"({"x":-0.0})") << QByteArray(R"({"x":0.0})")
                                 << QByteArray(R"({"type":"object","properties":{"x":{"type":"number"}}})") << T << sob
                                 << QList<double> { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 };
    QTest::addRow("big int vs float, exact")
        << QByteArray(R"({"x":9007199254740993})") << QByteArray(R"({"x":9007199254740992.0})") << kObject << T << sob
        << QList<double> { 1, 1, 1, 1, 0, 0, 1, 1, 0, 1, 0 };
    QTest::addRow("articles only") << QByteArray(R"({"a":"an"})") << QByteArray(R"({"a":"The"})") << kObject << T << sob
                                   << QList<double> { 1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 0 };
    // SOB's dotted paths cannot tell {"a.b": 1} from {"a": {"b": 1}}.
    QTest::addRow("dotted key matches nested path")
        << QByteArray(R"({"a.b":1})") << QByteArray(R"({"a":{"b":1}})")
        << QByteArray(R"({"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"integer"}}}}})")
        << T << sob << QList<double> { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 };
    QTest::addRow("empty containers have no leaf")
        << QByteArray(R"({"a":{},"b":[]})") << QByteArray(R"({"a":{},"b":[]})") << kObject << T << sob
        << QList<double> { 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1 };
}

void TestGrounding::score()
{
    QFETCH(QByteArray, candidate);
    QFETCH(QByteArray, gold);
    QFETCH(QByteArray, schema);
    QFETCH(Modality, modality);
    QFETCH(SchemaWalk, walk);
    QFETCH(QList<double>, expected);
    QCOMPARE(expected.size(), qsizetype(11));

    const json candidateDoc = candidate == kNoCandidate ? json() : parse(candidate);
    const json goldDoc = parse(gold);
    const json schemaDoc = parse(schema);
    GroundingOptions options;
    options.schemaWalk = walk;
    const GroundingInput input { candidate == kNoCandidate ? nullptr : &candidateDoc, goldDoc, schemaDoc, modality,
        options };
    const GroundingScores scores = scoreGrounding(input);

    const auto metrics = groundingMetrics();
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        const double actual = scores.*(metrics[i].field);
        QVERIFY2(near(actual, expected[static_cast<qsizetype>(i)]),
            qPrintable(QString::fromUtf8(metrics[i].id.data(), metrics[i].id.size()) + u": "_s
                + describe(actual, expected[static_cast<qsizetype>(i)])));
    }
    // The 0/1 metrics are exactly 0 or 1, and hardening is json_pass.
    for (const double v :
        { scores.jsonParse, scores.jsonRoot, scores.schemaValidInput, scores.jsonPass, scores.perfect })
        QVERIFY(v == 0.0 || v == 1.0);
    QCOMPARE(scores.hardening, scores.jsonPass);

    // Filling details must not change any score.
    GroundingDetails details;
    const GroundingScores again = scoreGrounding(input, &details);
    for (const GroundingMetric& metric : metrics)
        QCOMPARE(again.*(metric.field), scores.*(metric.field));
}

void TestGrounding::details()
{
    const json gold = parse(R"({"order":{"id":"A1","items":[{"sku":"X","qty":2},{"sku":"Y","qty":1}]}})");
    const json candidate = parse(R"({"order":{"id":7,"items":[{"sku":"X"}],"note":"n"}})");
    const json schema = parse(kOrder);
    GroundingDetails details;
    const GroundingScores s = scoreGrounding({ &candidate, gold, schema, Modality::Text }, &details);

    QCOMPARE(s.jsonPass, 0.0);
    QCOMPARE(s.goldLeaves, 5);
    QCOMPARE(s.predictedLeaves, 3); // order.id, order.items[0].sku, order.note
    QCOMPARE(s.matchedPaths, 2);
    QCOMPARE(s.requiredPaths, 5);
    QVERIFY(near(s.rawPathRecall, 2.0 / 5.0));
    QVERIFY(near(s.rawCoverage, 2.0 * (2.0 / 3.0) * 0.4 / (2.0 / 3.0 + 0.4))); // F1(2/3, 2/5) = 1/2
    QVERIFY(near(s.rawCoverage, 0.5));
    QCOMPARE(s.gate, 0.0);
    QCOMPARE(s.rawValueAccuracy, 1.0 / 5.0); // only order.items[0].sku is equal (7 != "A1")
    // order.id: "a1" vs "7" → 0; sku X → 1; three missing → 0
    QVERIFY(near(s.rawFaithfulness, 1.0 / 5.0));
    QVERIFY(near(s.rawTypeSafety, 1.0 / 3.0)); // sku string ✓, id 7 not a string, note undescribed
    QCOMPARE(s.typeSafety, 0.0);
    QCOMPARE(s.requiredKeyRecall, 0.8);

    const std::vector<std::string> missingGold { "order.items[0].qty", "order.items[1].qty", "order.items[1].sku" };
    QCOMPARE(details.missingGoldPaths, missingGold);
    const std::vector<std::string> missingRequired { "order.items[].qty" };
    QCOMPARE(details.missingRequiredPaths, missingRequired);
    const std::vector<std::string> mismatches { "order.id", "order.note" };
    QCOMPARE(details.typeMismatchPaths, mismatches);
    QVERIFY(details.schemaProblem.empty());
    QVERIFY(!details.validationErrors.empty());
    bool pointsAtId = false;
    for (const SchemaError& e : details.validationErrors)
        pointsAtId = pointsAtId || e.pointer == "/order/id";
    QVERIFY2(pointsAtId, "a validation error should point at /order/id");

    // An invalid schema says why, and still lists what it would require.
    GroundingDetails bad;
    const json typo = parse(R"({"type":"object","required":["a"],"properties":{"a":{"type":"strin"}}})");
    const GroundingScores sb = scoreGrounding({ &candidate, gold, typo, Modality::Text }, &bad);
    QCOMPARE(sb.schemaValidInput, 0.0);
    QVERIFY2(!bad.schemaProblem.empty(), "schemaProblem should explain the invalid schema");
    QCOMPARE(bad.missingRequiredPaths, std::vector<std::string> { "a" });
    QVERIFY(bad.validationErrors.empty());

    GroundingDetails notObject;
    const json text = "a schema";
    scoreGrounding({ &candidate, gold, text, Modality::Text }, &notObject);
    QCOMPARE(QString::fromStdString(notObject.schemaProblem), u"the schema is not a JSON object"_s);
}

void TestGrounding::hostileSchemas_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<int>("validInput"); // 1, 0, or -1 when either answer is acceptable
    QTest::addRow("properties is an array")
        << QByteArray(R"({"type":"object","properties":[1],"required":["a"]})") << 0;
    QTest::addRow("items is a number") << QByteArray(R"({"type":"array","items":5})") << 0;
    QTest::addRow("required holds a list") << QByteArray(R"({"type":"object","required":[[]]})") << 0;
    QTest::addRow("type is a number") << QByteArray(R"({"type":5})") << 0;
    QTest::addRow("type is an object") << QByteArray(R"({"type":{"a":1}})") << 0;
    QTest::addRow("$ref is a number") << QByteArray(R"({"type":"object","properties":{"a":{"$ref":5}}})") << 0;
    // Valid draft-07 schemas (Python's check_schema agrees) that do not compile: schema_valid_input is 1 all the
    // same.
    QTest::addRow("$ref to the root") << QByteArray(R"({"$ref":"#"})") << 1;
    QTest::addRow("$ref ring") << QByteArray(R"({"definitions":{"A":{"$ref":"#/definitions/B"},
        "B":{"$ref":"#/definitions/A"}},"type":"object","properties":{"a":{"$ref":"#/definitions/A"}},"required":["a"]})")
                               << 1;
    QTest::addRow("$ref into an array") << QByteArray(R"({"definitions":{"L":[{"type":"string"}]},"type":"object",
        "properties":{"a":{"$ref":"#/definitions/L/0"}}})")
                                        << 0;
    QTest::addRow("bad %%-escape") << QByteArray(R"({"type":"object","properties":{"a":{"$ref":"#/definitions/%zz"}}})")
                                   << 1;
    QTest::addRow("empty schema") << QByteArray("{}") << 1;
    QTest::addRow("null") << QByteArray("null") << 0;
    QTest::addRow("number") << QByteArray("3") << 0;
    // Python's check_schema accepts 150 such levels and hits its recursion limit at 200.
    auto nested = [](int levels) {
        std::string text;
        for (int i = 0; i < levels; ++i)
            text += R"({"type":"object","required":["a"],"properties":{"a":)";
        text += R"({"type":"string"})";
        for (int i = 0; i < levels; ++i)
            text += "}}";
        return toBytes(text);
    };
    QTest::addRow("50 levels") << nested(50) << 1;
    QTest::addRow("200 levels") << nested(200) << -1;
    QTest::addRow("5000 levels") << nested(5000) << -1;
}

void TestGrounding::hostileSchemas()
{
    // Whatever the schema, scoring returns numbers in [0, 1] and never throws or crashes; the
    // schema helpers answer in both walk modes.
    QFETCH(QByteArray, schema);
    QFETCH(int, validInput);
    const json schemaDoc = parse(schema);
    const json candidate = parse(R"({"a":{"a":[1,{"c":null}]},"b":"x"})");
    for (const SchemaWalk walk : { SchemaWalk::Sob, SchemaWalk::Resolving }) {
        GroundingOptions options;
        options.schemaWalk = walk;
        GroundingDetails details;
        const GroundingScores s
            = scoreGrounding({ &candidate, candidate, schemaDoc, Modality::Text, options }, &details);
        for (const GroundingMetric& metric : groundingMetrics()) {
            const double v = s.*(metric.field);
            QVERIFY2(v >= 0.0 && v <= 1.0, metric.id.data());
        }
        if (validInput >= 0)
            QCOMPARE(s.schemaValidInput, double(validInput));
        // A problem is given exactly when the schema is not used: it is invalid, or valid but does not compile.
        const bool used = s.jsonPass == 1.0 || !details.validationErrors.empty();
        QCOMPARE(details.schemaProblem.empty(), used);
        if (s.schemaValidInput == 0.0)
            QVERIFY(!used);
        QCOMPARE(s.perfect, 1.0);
        structscope::requiredPaths(schemaDoc, walk);
        for (const char* path : { "a", "a.a[0]", "a.a[1].c", "b", "[0]", "", "a..a", "a[", "]" })
            structscope::schemaTypeAt(schemaDoc, path, walk);
    }
}

void TestGrounding::deepDocuments()
{
    // 3000 levels of arrays (parsers with a depth limit refuse this; nlohmann's does not): scoring
    // and the equality helpers must cope without exhausting the stack.
    const QByteArray text = QByteArray(3000, '[') + "1" + QByteArray(3000, ']');
    const json deep = parse(text);
    const json deepOther = parse(QByteArray(3000, '[') + "1.0" + QByteArray(3000, ']'));
    QVERIFY(structscope::pyEquals(deep, deepOther));
    QVERIFY(!canonicalJsonEquals(deep, deepOther));
    QVERIFY(canonicalJsonEquals(deep, deep));
    const json schema = parse(kObject);
    const GroundingScores s = scoreGrounding({ &deep, deep, schema, Modality::Text });
    QCOMPARE(s.jsonRoot, 1.0);
    QCOMPARE(s.jsonPass, 0.0); // an array, not an object
    QCOMPARE(s.perfect, 1.0);
    QCOMPARE(s.goldLeaves, 1);
}

void TestGrounding::metricTable()
{
    const QStringList expectedIds { u"grounding.json_parse"_s, u"grounding.json_root"_s,
        u"grounding.schema_valid_input"_s, u"grounding.json_pass"_s, u"grounding.value_accuracy"_s,
        u"grounding.faithfulness"_s, u"grounding.path_recall"_s, u"grounding.structure_coverage"_s,
        u"grounding.type_safety"_s, u"grounding.required_key_recall"_s, u"grounding.perfect"_s };
    QStringList ids;
    for (const GroundingMetric& metric : groundingMetrics()) {
        ids << QString::fromUtf8(metric.id.data(), metric.id.size());
        // Every id has a tooltip in the registry.
        const MetricInfo* info = findMetric(metric.id);
        QVERIFY2(info != nullptr, metric.id.data());
        QCOMPARE(info->family, std::string_view("grounding"));
        QVERIFY(!info->description.empty());
    }
    QCOMPARE(ids, expectedIds);

    // Each field is distinct: setting one moves exactly one entry.
    for (const GroundingMetric& metric : groundingMetrics()) {
        GroundingScores s;
        s.*(metric.field) = 0.5;
        int moved = 0;
        for (const GroundingMetric& other : groundingMetrics())
            moved += (s.*(other.field) == 0.5) ? 1 : 0;
        QCOMPARE(moved, 1);
    }
}

void TestGrounding::sobFixtures_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("recordId");
    QTest::addColumn<QList<double>>("expected"); // weight, then the eleven metrics

    QFile table(QStringLiteral(STRUCTSCOPE_TEST_DATA "/grounding/EXPECTED.md"));
    QVERIFY2(table.open(QIODevice::ReadOnly), qPrintable(table.fileName()));
    int rows = 0;
    for (const QByteArray& raw : table.readAll().split('\n')) {
        const QStringList cells = tableCells(QString::fromUtf8(raw));
        if (cells.size() != 14 || !cells[0].startsWith(u"response_"_s))
            continue;
        QList<double> expected;
        for (qsizetype i = 2; i < cells.size(); ++i) {
            bool ok = false;
            expected << cells[i].toDouble(&ok);
            QVERIFY2(ok, qPrintable(u"bad number in EXPECTED.md: "_s + cells[i]));
        }
        QTest::addRow("%s %s", qPrintable(cells[0]), qPrintable(cells[1])) << cells[0] << cells[1] << expected;
        ++rows;
    }
    QCOMPARE(rows, 15);
}

void TestGrounding::sobFixtures()
{
    QFETCH(QString, file);
    QFETCH(QString, recordId);
    QFETCH(QList<double>, expected);

    const QString path = QStringLiteral(STRUCTSCOPE_TEST_DATA "/grounding/") + file;
    QFile jsonl(path);
    QVERIFY2(jsonl.open(QIODevice::ReadOnly), qPrintable(path));
    const Modality modality = inferSobModality(path.toStdString());

    bool found = false;
    int lineNumber = 0;
    for (const QByteArray& line : jsonl.readAll().split('\n')) {
        ++lineNumber;
        if (line.trimmed().isEmpty())
            continue;
        const json record = parse(line);
        QVERIFY2(record.is_object(), qPrintable(u"%1:%2 is not an object"_s.arg(file).arg(lineNumber)));
        if (QString::fromStdString(record["metadata"]["record_id"].get<std::string>()) != recordId)
            continue;
        found = true;
        const json& output = record["output"];
        const GroundingInput input { sobCandidate(output["candidate_response"]), output["ground_truth"],
            record["input"]["json_schema"], modality };
        const GroundingScores scores = scoreGrounding(input);
        QCOMPARE(sobRecordWeight(record["metadata"]).weight, expected[0]);
        const auto metrics = groundingMetrics();
        for (std::size_t i = 0; i < metrics.size(); ++i) {
            const double want = expected[static_cast<qsizetype>(i) + 1];
            const double actual = scores.*(metrics[i].field);
            QVERIFY2(near(actual, want),
                qPrintable(
                    QString::fromUtf8(metrics[i].id.data(), metrics[i].id.size()) + u": "_s + describe(actual, want)));
        }
    }
    QVERIFY2(found, qPrintable(recordId + u" not found in "_s + file));
}

void TestGrounding::threadedScoringMatchesSerial()
{
    // Many distinct schemas and records scored on several threads must give the serial results.
    std::vector<json> schemas;
    std::vector<json> golds;
    std::vector<json> candidates;
    for (int i = 0; i < 64; ++i) {
        json schema = parse(kPerson);
        schema["properties"]["extra" + std::to_string(i % 8)] = { { "type", "integer" } };
        schemas.push_back(schema);
        json gold = parse(kAda);
        gold["age"] = i;
        golds.push_back(gold);
        json candidate = gold;
        if (i % 3 == 0)
            candidate["age"] = double(i);
        if (i % 5 == 0)
            candidate.erase("city");
        if (i % 7 == 0)
            candidate["name"] = 5;
        candidates.push_back(candidate);
    }
    std::vector<int> indices(512);
    for (int i = 0; i < 512; ++i)
        indices[static_cast<std::size_t>(i)] = i % 64;
    auto scoreOne = [&](int i) {
        const auto k = static_cast<std::size_t>(i);
        return scoreGrounding({ &candidates[k], golds[k], schemas[k], Modality::Image });
    };
    std::vector<GroundingScores> serial;
    for (int i : indices)
        serial.push_back(scoreOne(i));
    const QList<GroundingScores> parallel = QtConcurrent::blockingMapped<QList<GroundingScores>>(indices, scoreOne);
    QCOMPARE(static_cast<std::size_t>(parallel.size()), serial.size());
    for (std::size_t i = 0; i < serial.size(); ++i) {
        for (const GroundingMetric& metric : groundingMetrics())
            QCOMPARE(parallel[static_cast<qsizetype>(i)].*(metric.field), serial[i].*(metric.field));
    }
    QCOMPARE(serial[3].jsonPass, 1.0); // candidate 3 has age 3.0: integral float passes
    QCOMPARE(serial[7].jsonPass, 0.0); // name 5 is not a string
}

void TestGrounding::manySchemasInTurn()
{
    // More distinct schemas than the per-thread memo holds, revisited in turn: each record must be
    // scored against its own schema. Schema i requires "k<i>"; the candidate has k00..k19.
    json candidate = json::object();
    addKeys(candidate, 0, 20, "k");
    const json gold = candidate;
    std::vector<json> schemas;
    for (int i = 0; i < 40; ++i) {
        char key[8];
        std::snprintf(key, sizeof key, "k%02d", i);
        schemas.push_back(json { { "type", "object" }, { "required", json::array({ key }) } });
    }
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < 40; ++i) {
            const int k = round == 1 ? 39 - i : i; // also walk backwards once
            const GroundingScores s
                = scoreGrounding({ &candidate, gold, schemas[static_cast<std::size_t>(k)], Modality::Text });
            QCOMPARE(s.requiredKeyRecall, k < 20 ? 1.0 : 0.0);
            QCOMPARE(s.jsonPass, k < 20 ? 1.0 : 0.0);
        }
    }
}

void TestGrounding::throughput()
{
    // Full per-record cost as an importer pays it: parse the SOB line, then score. Reported, not
    // asserted (the machine is shared); the aim is 40,000 records/s on 2 cores.
    QFile jsonl(QStringLiteral(STRUCTSCOPE_TEST_DATA "/grounding/response_model-a.jsonl"));
    QVERIFY(jsonl.open(QIODevice::ReadOnly));
    QList<QByteArray> lines = jsonl.readAll().split('\n');
    lines.removeAll(QByteArray());
    QVERIFY(!lines.isEmpty());
    const int records = 3000;
    QElapsedTimer timer;
    timer.start();
    double checksum = 0;
    for (int i = 0; i < records; ++i) {
        const QByteArray& line = lines[i % lines.size()];
        const json record = parse(line);
        const json& output = record["output"];
        const GroundingScores s = scoreGrounding({ sobCandidate(output["candidate_response"]), output["ground_truth"],
            record["input"]["json_schema"], Modality::Text });
        checksum += s.faithfulness;
    }
    const double seconds = std::max(1e-9, timer.nsecsElapsed() / 1e9);
    qInfo("grounding: %d records in %.3f s = %.0f records/s on one thread (checksum %.3f)", records, seconds,
        records / seconds, checksum);
    QVERIFY(checksum > 0);
}

QTEST_GUILESS_MAIN(TestGrounding)
#include "tst_grounding.moc"
