// SPDX-License-Identifier: Apache-2.0
// JSON core: the parse ladder, located document errors, leaf paths, the typed structural diff,
// lenient text normalisation and Levenshtein. Expected values are worked out by hand.
#include "json/datetext.h"
#include "json/jsondiff.h"
#include "json/jsonextract.h"
#include "json/jsontext.h"
#include "json/leafpaths.h"
#include "json/parseladder.h"
#include "json/textnorm.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <functional>
#include <random>

using namespace Qt::StringLiterals;

using namespace structscope;
using nlohmann::json;

namespace {

std::string_view view(const QByteArray& bytes)
{
    return { bytes.constData(), std::size_t(bytes.size()) };
}

json parsed(const char* text)
{
    return json::parse(text);
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

// QCOMPARE cannot take nlohmann::json (its implicit conversions confuse QTest's overloads).
QString dumped(const json& value)
{
    return QString::fromStdString(value.dump());
}

QByteArray repeated(const QByteArray& piece, int times)
{
    QByteArray out;
    out.reserve(piece.size() * times);
    for (int i = 0; i < times; ++i)
        out += piece;
    return out;
}

QByteArray nested(int depth)
{
    return QByteArray(depth, '[') + "1" + QByteArray(depth, ']');
}

const char* kindShort(DiffKind kind)
{
    switch (kind) {
    case DiffKind::MissingKey:
        return "MK";
    case DiffKind::MissingValue:
        return "MV";
    case DiffKind::WrongValue:
        return "WV";
    case DiffKind::ExtraKey:
        return "EXTRA";
    }
    return "?";
}

// "WV/deviation! /a/0 a[0]": kind, sub-kind, '!' for goldNull, pointer, path.
QStringList describe(const std::vector<Difference>& diffs)
{
    QStringList out;
    for (const Difference& d : diffs) {
        QString s = QString::fromLatin1(kindShort(d.kind));
        if (d.kind == DiffKind::WrongValue)
            s += u'/' + QString::fromLatin1(wrongValueKindId(d.wrongKind));
        if (d.goldNull)
            s += u'!';
        s += u' ' + q(d.pointer) + u' ' + q(d.path);
        out << s;
    }
    return out;
}

// Plain O(n·m) Levenshtein over code points: the reference for the banded implementation.
std::size_t referenceLevenshtein(std::string_view a, std::string_view b)
{
    const std::vector<char32_t> s = decodeUtf8(a);
    const std::vector<char32_t> t = decodeUtf8(b);
    std::vector<std::size_t> row(t.size() + 1);
    for (std::size_t j = 0; j <= t.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= s.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= t.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({ row[j] + 1, row[j - 1] + 1, diag + (s[i - 1] == t[j - 1] ? 0 : 1) });
            diag = up;
        }
    }
    return row[t.size()];
}

/// Every field of a DiffCounts, for comparisons.
QString countsText(const DiffCounts& c)
{
    return u"mk=%1 mv=%2 dev=%3 value=%4 coerce=%5 type=%6 extra=%7 goldNull=%8 invented=%9"_s.arg(c.mk)
        .arg(c.mv)
        .arg(c.wvDeviation)
        .arg(c.wvValue)
        .arg(c.wvCoercible)
        .arg(c.wvType)
        .arg(c.extra)
        .arg(c.goldNull)
        .arg(c.invented);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Parse ladder

// ---------------------------------------------------------------------------------------------
// One document with a located error

// ---------------------------------------------------------------------------------------------
// The quick path (simdjson) builds exactly what nlohmann's parser builds, or declines

// ---------------------------------------------------------------------------------------------
// Leaf paths

// ---------------------------------------------------------------------------------------------
// Equality and diff

// ---------------------------------------------------------------------------------------------
// Text

class TestJson : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parseLadder_data();
    void parseLadder();
    void parseLadderSpan();
    // nlohmann quotes the offending input in its messages; ours must stay valid UTF-8 and short.
    void parseLadderReasonIsValidUtf8();
    // Inputs built to make a naive extractor quadratic; each must finish well inside the fuzzer's timeout.
    void parseLadderAdversarial_data();
    void parseLadderAdversarial();
    // The optimised extractor shares work between candidates; it must pick exactly what the obvious
    // quadratic loop picks. Random short texts over a JSON-ish alphabet find the corner cases.
    void extractMatchesNaive();
    void fencedBlocks_data();
    void fencedBlocks();
    void parseDocument_data();
    void parseDocument();
    void parseDocumentFromFile();
    void quickPathAgreesWithNlohmann_data();
    void quickPathAgreesWithNlohmann();
    void quickPathOnGeneratedDocuments();
    void leafPaths_data();
    void leafPaths();
    void countLeaves_data();
    void countLeaves();
    void wildcard_data();
    void wildcard();
    void leafPathToPointer_data();
    void leafPathToPointer();
    void pointerJoin();
    void valuesEqual_data();
    void valuesEqual();
    void diff_data();
    void diff();
    void diffValues();
    void diffCounts();
    // Alignment is skipped for huge arrays (index order instead) rather than taking seconds.
    void diffUnorderedLargeFallsBack();
    void lenientNormalize_data();
    void lenientNormalize();
    // ASCII strings take a fast path; it must agree with the QString path byte for byte.
    void lenientAsciiMatchesUnicodePath();
    void lenientEqualMatchesNormalizedTexts();
    void dateText_data();
    void dateText();
    void numberWords();
    void levenshtein_data();
    void levenshtein();
    void levenshteinMatchesReference();
    void normalizedLevenshtein();
    void utf8Helpers();
};

void TestJson::parseLadder_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("maxDepth");
    QTest::addColumn<int>("maxBytes");
    QTest::addColumn<QString>("rung");
    QTest::addColumn<QByteArray>("expected"); // compact JSON, or empty when failed
    QTest::addColumn<QString>("reasonPart");

    const int d = 512;
    const int b = 1 << 20;
    QTest::addRow("clean object") << QByteArray(R"({"a":1})") << d << b << u"clean"_s << QByteArray(R"({"a":1})")
                                  << QString();
    QTest::addRow("clean with whitespace")
        << QByteArray(" \n\t{\"a\": 1}\n  ") << d << b << u"clean"_s << QByteArray(R"({"a":1})") << QString();
    QTest::addRow("clean top-level array") << QByteArray("[1, 2, {\"b\": null}]") << d << b << u"clean"_s
                                           << QByteArray(R"([1,2,{"b":null}])") << QString();
    QTest::addRow("clean scalar number") << QByteArray(" 42 ") << d << b << u"clean"_s << QByteArray("42") << QString();
    QTest::addRow("clean scalar string") << QByteArray(R"("hello")") << d << b << u"clean"_s << QByteArray(R"("hello")")
                                         << QString();
    QTest::addRow("clean true") << QByteArray("true") << d << b << u"clean"_s << QByteArray("true") << QString();
    QTest::addRow("clean null") << QByteArray("null") << d << b << u"clean"_s << QByteArray("null") << QString();
    QTest::addRow("clean after BOM") << QByteArray("\xEF\xBB\xBF{\"a\":1}") << d << b << u"clean"_s
                                     << QByteArray(R"({"a":1})") << QString();
    QTest::addRow("clean CRLF") << QByteArray("{\r\n  \"a\": 1,\r\n  \"b\": [true]\r\n}\r\n") << d << b << u"clean"_s
                                << QByteArray(R"({"a":1,"b":[true]})") << QString();
    QTest::addRow("clean unicode escapes") << QByteArray(R"({"k":"caf\u00e9 \ud83d\ude00"})") << d << b << u"clean"_s
                                           << QByteArray("{\"k\":\"caf\xC3\xA9 \xF0\x9F\x98\x80\"}") << QString();

    QTest::addRow("fenced json") << QByteArray("Here you go:\n```json\n{\"a\": 1}\n```\nAnything else?") << d << b
                                 << u"fenced"_s << QByteArray(R"({"a":1})") << QString();
    QTest::addRow("fenced bare") << QByteArray("```\n[1,2]\n```") << d << b << u"fenced"_s << QByteArray("[1,2]")
                                 << QString();
    QTest::addRow("fenced upper-case tag") << QByteArray("```JSON\n{\"a\":true}\n```") << d << b << u"fenced"_s
                                           << QByteArray(R"({"a":true})") << QString();
    QTest::addRow("fenced CRLF") << QByteArray("Sure.\r\n```json\r\n{\"a\": 1}\r\n```\r\n") << d << b << u"fenced"_s
                                 << QByteArray(R"({"a":1})") << QString();
    QTest::addRow("fenced inline") << QByteArray("Result: ```json {\"a\":2}``` done") << d << b << u"fenced"_s
                                   << QByteArray(R"({"a":2})") << QString();
    QTest::addRow("fenced scalar") << QByteArray("```json\n42\n```") << d << b << u"fenced"_s << QByteArray("42")
                                   << QString();
    QTest::addRow("first fence not json") << QByteArray("```\nnot json {\n```\ntext\n```json\n{\"b\":2}\n```") << d << b
                                          << u"fenced"_s << QByteArray(R"({"b":2})") << QString();
    // A block tagged with another language is skipped even when its content parses.
    QTest::addRow("python fence skipped") << QByteArray("```python\n[1, 2]\n```\n```json\n{\"b\":2}\n```") << d << b
                                          << u"fenced"_s << QByteArray(R"({"b":2})") << QString();
    QTest::addRow("four-backtick fence") << QByteArray("````json\n{\"s\":\"```\"}\n````") << d << b << u"fenced"_s
                                         << QByteArray(R"({"s":"```"})") << QString();
    QTest::addRow("unclosed fence") << QByteArray("```json\n{\"a\":1}\n") << d << b << u"fenced"_s
                                    << QByteArray(R"({"a":1})") << QString();
    QTest::addRow("fence with comment falls to extracted")
        << QByteArray("```json\n{\"a\":1} // the answer\n```") << d << b << u"extracted"_s << QByteArray(R"({"a":1})")
        << QString();

    QTest::addRow("extracted from prose") << QByteArray("Sure! {\"a\": 1} Hope it helps.") << d << b << u"extracted"_s
                                          << QByteArray(R"({"a":1})") << QString();
    QTest::addRow("braces inside strings")
        << QByteArray(R"(Result: {"msg": "use } and { freely", "n": 2} ok)") << d << b << u"extracted"_s
        << QByteArray(R"({"msg":"use } and { freely","n":2})") << QString();
    QTest::addRow("escaped quote in string")
        << QByteArray(R"(x {"a": "he said \"}\" then"} y)") << d << b << u"extracted"_s
        << QByteArray(R"({"a":"he said \"}\" then"})") << QString();
    QTest::addRow("brace in prose before object") << QByteArray(R"(Use {braces} like this: {"a": 1})") << d << b
                                                  << u"extracted"_s << QByteArray(R"({"a":1})") << QString();
    QTest::addRow("outer non-json span") << QByteArray(R"({note: {"a": {"b": [1, 2]}}})") << d << b << u"extracted"_s
                                         << QByteArray(R"({"a":{"b":[1,2]}})") << QString();
    QTest::addRow("array in prose") << QByteArray("The list: [1, 2, 3].") << d << b << u"extracted"_s
                                    << QByteArray("[1,2,3]") << QString();
    // The rung takes the first balanced span that parses, even a footnote marker.
    QTest::addRow("footnote before object")
        << QByteArray(R"(See [1]. {"a": 1})") << d << b << u"extracted"_s << QByteArray("[1]") << QString();
    QTest::addRow("mismatched brackets then object") << QByteArray(R"({"a": [1, 2} and then {"b": 1})") << d << b
                                                     << u"extracted"_s << QByteArray(R"({"b":1})") << QString();
    QTest::addRow("trailing text after object")
        << QByteArray(R"({"a": 1} Let me know!)") << d << b << u"extracted"_s << QByteArray(R"({"a":1})") << QString();
    QTest::addRow("truncated array yields first element")
        << QByteArray(R"([{"a":1},{"a":2)") << d << b << u"extracted"_s << QByteArray(R"({"a":1})") << QString();
    QTest::addRow("start inside an earlier string")
        << QByteArray(R"({"x {"a":1})") << d << b << u"extracted"_s << QByteArray(R"({"a":1})") << QString();
    QTest::addRow("invalid utf-8 in prose")
        << QByteArray("\xFF\xFE {\"a\":1} \xC3") << d << b << u"extracted"_s << QByteArray(R"({"a":1})") << QString();
    QTest::addRow("json inside prose fence")
        << QByteArray("```\nHere: {\"a\":1}\n```") << d << b << u"extracted"_s << QByteArray(R"({"a":1})") << QString();
    QTest::addRow("too deep span skipped, later object found")
        << QByteArray(R"([[[1]]] and {"a":1})") << 2 << b << u"extracted"_s << QByteArray(R"({"a":1})") << QString();

    QTest::addRow("empty") << QByteArray() << d << b << u"failed"_s << QByteArray() << u"empty response"_s;
    QTest::addRow("whitespace only") << QByteArray(" \r\n\t ") << d << b << u"failed"_s << QByteArray()
                                     << u"only whitespace"_s;
    QTest::addRow("plain prose") << QByteArray("I cannot help with that.") << d << b << u"failed"_s << QByteArray()
                                 << u"no JSON value found"_s;
    QTest::addRow("scalar in prose is not extracted")
        << QByteArray("The answer is 42") << d << b << u"failed"_s << QByteArray() << u"no JSON value found"_s;
    QTest::addRow("set notation") << QByteArray("the set {x | x > 0}") << d << b << u"failed"_s << QByteArray()
                                  << u"no JSON value found"_s;
    QTest::addRow("truncated object") << QByteArray(R"({"a": 1, "b": )") << d << b << u"failed"_s << QByteArray()
                                      << u"not valid JSON: line 1, column 14 (byte 13)"_s;
    QTest::addRow("truncated on second line")
        << QByteArray("{\n\"a\": tru") << d << b << u"failed"_s << QByteArray() << u"line 2"_s;
    QTest::addRow("broken fence reports fence") << QByteArray("Answer:\n```json\n{\"a\": }\n```") << d << b
                                                << u"failed"_s << QByteArray() << u"fenced block is not valid JSON"_s;
    QTest::addRow("invalid utf-8 in string")
        << QByteArray("{\"a\": \"\xFF\"}") << d << b << u"failed"_s << QByteArray() << u"not valid JSON"_s;
    QTest::addRow("overlong utf-8 in string")
        << QByteArray("{\"a\": \"\xC0\xAF\"}") << d << b << u"failed"_s << QByteArray() << u"not valid JSON"_s;
    QTest::addRow("lone surrogate escape")
        << QByteArray(R"({"a": "\ud800"})") << d << b << u"failed"_s << QByteArray() << u"not valid JSON"_s;
    QTest::addRow("nul byte") << QByteArray("{\"a\":\0 1}", 9) << d << b << u"failed"_s << QByteArray()
                              << u"not valid JSON"_s;
    QTest::addRow("depth at limit") << nested(512) << d << b << u"clean"_s
                                    << QByteArray(512, '[') + "1" + QByteArray(512, ']') << QString();
    QTest::addRow("depth one over limit")
        << nested(513) << d << b << u"failed"_s << QByteArray() << u"nested deeper than the limit of 512"_s;
    QTest::addRow("small limit at") << QByteArray(R"({"a":{"b":[1]}})") << 3 << b << u"clean"_s
                                    << QByteArray(R"({"a":{"b":[1]}})") << QString();
    QTest::addRow("small limit over") << QByteArray(R"({"a":{"b":[1]}})") << 2 << b << u"failed"_s << QByteArray()
                                      << u"nested deeper than the limit of 2"_s;
    QTest::addRow("100k deep balanced") << nested(100000) << d << b << u"failed"_s << QByteArray()
                                        << u"nested deeper"_s;
    QTest::addRow("100k deep unbalanced")
        << QByteArray(100000, '[') << d << b << u"failed"_s << QByteArray() << u"nested deeper"_s;
    QTest::addRow("100k deep objects") << repeated(R"({"a":)", 100000) << d << b << u"failed"_s << QByteArray()
                                       << u"nested deeper"_s;
    QTest::addRow("over size limit") << QByteArray(R"({"a":"0123456789"})") << d << 16 << u"failed"_s << QByteArray()
                                     << u"18 bytes, over the limit of 16 bytes"_s;
    QTest::addRow("at size limit") << QByteArray(R"({"a":"01234567"})") << d << 16 << u"clean"_s
                                   << QByteArray(R"({"a":"01234567"})") << QString();
}

void TestJson::parseLadder()
{
    QFETCH(QByteArray, input);
    QFETCH(int, maxDepth);
    QFETCH(int, maxBytes);
    QFETCH(QString, rung);
    QFETCH(QByteArray, expected);
    QFETCH(QString, reasonPart);

    ParseLimits limits;
    limits.maxDepth = maxDepth;
    limits.maxBytes = std::size_t(maxBytes);
    const ParseResult result = parseResponse(view(input), limits);
    QCOMPARE(QString::fromLatin1(parseRungId(result.rung)), rung);
    QCOMPARE(result.ok(), rung != u"failed"_s);
    if (result.ok()) {
        QCOMPARE(QByteArray::fromStdString(result.value.dump()), expected);
        QVERIFY(result.reason.empty());
    } else {
        QVERIFY(result.value.is_null());
        QVERIFY2(q(result.reason).contains(reasonPart), result.reason.c_str());
    }
}

void TestJson::parseLadderSpan()
{
    const QByteArray text = "Sure:\n```json\n  {\"a\":1}  \n```";
    ParseResult r = parseResponse(view(text));
    QCOMPARE(r.rung, ParseRung::Fenced);
    QCOMPARE(text.mid(qsizetype(r.offset), qsizetype(r.length)), QByteArray(R"({"a":1})"));

    const QByteArray prose = R"(x {y} [1,2] z)";
    r = parseResponse(view(prose));
    QCOMPARE(r.rung, ParseRung::Extracted);
    QCOMPARE(r.offset, std::size_t(6));
    QCOMPARE(r.length, std::size_t(5));

    const QByteArray clean = "\xEF\xBB\xBF  [true] \n";
    r = parseResponse(view(clean));
    QCOMPARE(r.rung, ParseRung::Clean);
    QCOMPARE(r.offset, std::size_t(5));
    QCOMPARE(r.length, std::size_t(6));
}

void TestJson::parseLadderReasonIsValidUtf8()
{
    const QByteArray input = "[\"" + QByteArray(5000, 'x') + "\xFF\"]";
    const ParseResult r = parseResponse(view(input));
    QVERIFY(!r.ok());
    QVERIFY(isValidUtf8(r.reason));
    QVERIFY2(r.reason.size() < 400, r.reason.c_str());
    QVERIFY(r.reason.find("\\xFF") != std::string::npos || r.reason.find("line 1") != std::string::npos);
    const json wrapped = { { "reason", r.reason } };
    QVERIFY(!wrapped.dump().empty()); // would throw type_error.316 on invalid UTF-8

    std::string error;
    json out;
    QVERIFY(!parseJsonDocument(view(input), out, error));
    QVERIFY(isValidUtf8(error));
}

void TestJson::parseLadderAdversarial_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("rung");

    const int mb = 1 << 20;
    QTest::addRow("1 MB of {") << QByteArray(mb, '{') << u"failed"_s;
    QTest::addRow("1 MB of [") << QByteArray(mb, '[') << u"failed"_s;
    QTest::addRow("alternating string phases") << repeated(R"({")", mb / 2) << u"failed"_s;
    QTest::addRow("nested failing spans")
        << QByteArray(500, '[') + repeated("1,", mb / 2) + "x" + QByteArray(500, ']') << u"failed"_s;
    QTest::addRow("many small failing spans") << repeated("[x]", mb / 3) << u"failed"_s;
    QTest::addRow("object openers") << repeated(R"({"a":)", mb / 5) << u"failed"_s;
    // The last five bytes, ["["], are an array holding the string "[".
    QTest::addRow("open brackets then quote") << repeated(R"([")", mb / 2) + "]" << u"extracted"_s;
    QTest::addRow("escapes") << repeated(R"({"\\)", mb / 4) << u"failed"_s;
    QTest::addRow("many fences") << repeated("```\n{\n", mb / 6) << u"failed"_s;
    QTest::addRow("late object") << QByteArray(mb, '{') + R"( {"a":1})" << u"extracted"_s;
    QTest::addRow("object after prose brackets") << repeated("(a) [b] ", mb / 8) + R"({"a":1})" << u"extracted"_s;
}

void TestJson::parseLadderAdversarial()
{
    QFETCH(QByteArray, input);
    QFETCH(QString, rung);
    QElapsedTimer timer;
    timer.start();
    const ParseResult r = parseResponse(view(input));
    const qint64 ms = timer.elapsed();
    QCOMPARE(QString::fromLatin1(parseRungId(r.rung)), rung);
    // Quadratic behaviour on 1 MB would take hours; near-linear takes well under a second in a plain
    // build. The bound only tells those complexity classes apart: it leaves room for a sanitizer build
    // on a loaded machine (seconds), so it never fails on speed alone.
    QVERIFY2(ms < 120000, qPrintable(u"took %1 ms"_s.arg(ms)));
}

void TestJson::extractMatchesNaive()
{
    static const char* const pieces[] = { "{", "}", "[", "]", "\"", "\\", ":", ",", " ", "1", "a", "x", "{\"a\":1}",
        "[1,2]", "\"s\"", "{\"k\":[", "]}", "null", "tru", "\\\"" };
    QRandomGenerator rng(20240611);
    int found = 0;
    for (int round = 0; round < 30000; ++round) {
        std::string text;
        const int count = int(rng.bounded(1, 24));
        for (int i = 0; i < count; ++i)
            text += pieces[rng.bounded(int(std::size(pieces)))];
        const int maxDepth = int(rng.bounded(1, 5));
        json fast;
        json naive;
        const ExtractOutcome a = extractFirstJson(text, maxDepth, fast);
        const ExtractOutcome b = extractFirstJsonNaive(text, maxDepth, naive);
        const QByteArray context = QByteArray::fromStdString(text) + " depth " + QByteArray::number(maxDepth);
        QVERIFY2(a.found == b.found, context.constData());
        QVERIFY2(a.offset == b.offset && a.length == b.length, context.constData());
        QVERIFY2(a.tooDeep == b.tooDeep, context.constData());
        QVERIFY2(fast == naive, context.constData());
        QVERIFY(!a.gaveUp);
        found += a.found ? 1 : 0;

        // The ladder reuses the clean rung's failure inside the extractor; that must not change the pick.
        ParseLimits limits;
        limits.maxDepth = maxDepth;
        const ParseResult ladder = parseResponse(text, limits);
        if (ladder.rung == ParseRung::Extracted)
            QVERIFY2(b.found && b.offset == ladder.offset && b.length == ladder.length, context.constData());
        if (ladder.rung == ParseRung::Failed)
            QVERIFY2(!b.found, context.constData());
    }
    QVERIFY(found > 1000); // the generator does produce extractable inputs
}

void TestJson::fencedBlocks_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QStringList>("blocks"); // "language|content|closed"

    QTest::addRow("none") << QByteArray("no fences") << QStringList();
    QTest::addRow("json") << QByteArray("a\n```json\n{}\n```\nb") << QStringList { u"json|{}\n|1"_s };
    QTest::addRow("info string with attributes")
        << QByteArray("```json title=x\n[1]\n```") << QStringList { u"json|[1]\n|1"_s };
    QTest::addRow("inline") << QByteArray("```json{\"a\":1}```") << QStringList { u"json|{\"a\":1}|1"_s };
    QTest::addRow("two blocks") << QByteArray("```py\nx\n```\n```\ny\n```")
                                << QStringList { u"py|x\n|1"_s, u"|y\n|1"_s };
    QTest::addRow("longer fence keeps shorter runs")
        << QByteArray("````\na```b\n````") << QStringList { u"|a```b\n|1"_s };
    QTest::addRow("unclosed") << QByteArray("```json\n{") << QStringList { u"json|{|0"_s };
    QTest::addRow("fence at end") << QByteArray("text ```") << QStringList { u"||0"_s };
}

void TestJson::fencedBlocks()
{
    QFETCH(QByteArray, input);
    QFETCH(QStringList, blocks);
    QStringList actual;
    for (const FencedBlock& block : findFencedBlocks(view(input))) {
        actual << QString::fromUtf8(block.language.data(), qsizetype(block.language.size())) + u'|'
                + QString::fromUtf8(input.mid(qsizetype(block.offset), qsizetype(block.length))) + u'|'
                + QString::number(block.closed ? 1 : 0);
    }
    QCOMPARE(actual, blocks);
    QVERIFY(isJsonFenceLanguage("json"));
    QVERIFY(isJsonFenceLanguage("JSONC"));
    QVERIFY(isJsonFenceLanguage(""));
    QVERIFY(!isJsonFenceLanguage("js"));
    QVERIFY(!isJsonFenceLanguage("python"));
}

void TestJson::parseDocument_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("maxDepth");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("offset");
    QTest::addColumn<QString>("messagePart");

    QTest::addRow("valid") << QByteArray(R"({"a": [1, 2]})") << 512 << true << 0 << 0 << 0 << QString();
    QTest::addRow("valid after BOM") << QByteArray("\xEF\xBB\xBF{}") << 512 << true << 0 << 0 << 0 << QString();
    // Byte 7 is the '}' after the trailing comma.
    QTest::addRow("trailing comma") << QByteArray(R"({"a":1,})") << 512 << false << 1 << 8 << 7
                                    << u"expected string literal"_s;
    // Line 3 is `  "b": tru`; the lexer gives up on the newline after "tru" (column 11).
    QTest::addRow("bad literal on line 3")
        << QByteArray("{\n  \"a\": 1,\n  \"b\": tru\n}") << 512 << false << 3 << 11 << 22 << u"invalid literal"_s;
    QTest::addRow("CRLF lines") << QByteArray("{\r\n\"a\": x\r\n}") << 512 << false << 2 << 6 << 8
                                << u"invalid literal"_s;
    QTest::addRow("trailing garbage") << QByteArray(R"({"a":1} x)") << 512 << false << 1 << 9 << 8
                                      << u"expected end of input"_s;
    QTest::addRow("end of input") << QByteArray(R"([1, 2)") << 512 << false << 1 << 6 << 5 << u"end of input"_s;
    QTest::addRow("empty") << QByteArray("") << 512 << false << 1 << 1 << 0 << u"empty document"_s;
    QTest::addRow("blank") << QByteArray("\n\n ") << 512 << false << 3 << 2 << 3 << u"empty document"_s;
    // Level 3 opens at byte 8 (the inner "{"); line 2 starts at byte 6, so that is column 3.
    QTest::addRow("too deep") << QByteArray("{\"a\":\n[ {\"b\": 1}]}") << 2 << false << 2 << 3 << 8
                              << u"nesting deeper than 2 levels"_s;
    QTest::addRow("invalid utf-8") << QByteArray("[\"ok\", \"\xFF\"]") << 512 << false << 1 << 9 << 8
                                   << u"invalid string: ill-formed UTF-8 byte"_s;
}

void TestJson::parseDocument()
{
    QFETCH(QByteArray, input);
    QFETCH(int, maxDepth);
    QFETCH(bool, ok);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(int, offset);
    QFETCH(QString, messagePart);

    ParseLimits limits;
    limits.maxDepth = maxDepth;
    json out = "sentinel";
    JsonParseError error;
    QCOMPARE(parseJsonDocument(view(input), out, error, limits), ok);
    if (ok) {
        QVERIFY(error.message.empty());
        return;
    }
    QVERIFY(out.is_null());
    QVERIFY2(q(error.message).contains(messagePart), error.message.c_str());
    QCOMPARE(int(error.line), line);
    QCOMPARE(int(error.column), column);
    QCOMPARE(int(error.offset), offset);
    QVERIFY(isValidUtf8(error.message));

    std::string text;
    QVERIFY(!parseJsonDocument(view(input), out, text, limits));
    QVERIFY2(text.starts_with("line " + std::to_string(line) + ", column " + std::to_string(column) + " (byte "
                 + std::to_string(offset) + "): "),
        text.c_str());
}

void TestJson::parseDocumentFromFile()
{
    QFile file(QStringLiteral(STRUCTSCOPE_TEST_DATA "/json/broken-suite-manifest.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    json out;
    JsonParseError error;
    QVERIFY(!parseJsonDocument(view(bytes), out, error));
    // Line 4 lacks its comma; the parser stops on line 5 at the end of the unexpected key
    // `  "description"`, whose closing quote is column 15.
    QCOMPARE(int(error.line), 5);
    QCOMPARE(int(error.column), 15);
    QVERIFY2(q(error.message).contains(u"expected '}'"_s), error.message.c_str());

    ParseLimits tiny;
    tiny.maxBytes = 10;
    QVERIFY(!parseJsonDocument(view(bytes), out, error, tiny));
    QVERIFY2(q(error.message).contains(u"over the limit of 10 bytes"_s), error.message.c_str());
}

void TestJson::quickPathAgreesWithNlohmann_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("maxDepth");
    QTest::addColumn<bool>("quick"); // whether the quick path answers (else nlohmann alone decides)

    QTest::addRow("object") << QByteArray(R"({"b": [1, -2, 3.5, true, null, "x"], "a": {}})") << 512 << true;
    QTest::addRow("0 is unsigned") << QByteArray("[0, 7, 18446744073709551615]") << 512 << true;
    QTest::addRow("negative integers are signed") << QByteArray("[-1, -9223372036854775808]") << 512 << true;
    QTest::addRow("-0 is signed: declined") << QByteArray(R"({"a": -0})") << 512 << false;
    QTest::addRow("-0 at the end: declined") << QByteArray("-0") << 512 << false;
    QTest::addRow("-0 after a colon: declined") << QByteArray(R"({"a":-0})") << 512 << false;
    QTest::addRow("-0 after a comma: declined") << QByteArray("[1,-0]") << 512 << false;
    QTest::addRow("-0 after a bracket: declined") << QByteArray("[-0]") << 512 << false;
    QTest::addRow("-0 after a newline: declined") << QByteArray("[1,\n-0]") << 512 << false;
    QTest::addRow("names ending in -0 are not -0") << QByteArray(R"({"model": "model-0", "n": 0})") << 512 << true;
    QTest::addRow("dates are not -0") << QByteArray(R"([0, "2024-01-05", -0.5, -0e1])") << 512 << true;
    QTest::addRow("-0.0 keeps its sign") << QByteArray("[-0.0, 0.0, 1.0, 1e2, 1E-2]") << 512 << true;
    QTest::addRow("beyond 64 bits: declined") << QByteArray("[18446744073709551616]") << 512 << false;
    QTest::addRow("below int64: declined") << QByteArray("[-9223372036854775809]") << 512 << false;
    QTest::addRow("below double: zero, signed") << QByteArray("[1e-400, -1e-400, 4.9e-324]") << 512 << true;
    QTest::addRow("beyond double: declined") << QByteArray("[1E400]") << 512 << false;
    QTest::addRow("repeated key: last wins") << QByteArray(R"({"a": 1, "a": [2], "b": 0})") << 512 << true;
    QTest::addRow("escapes") << QByteArray(R"(["\u00e9\ud83d\ude00\n\t\"\\\/\u0000"])") << 512 << true;
    QTest::addRow("utf-8") << QByteArray("[\"caf\xC3\xA9 \xF0\x9F\x98\x80\"]") << 512 << true;
    QTest::addRow("BOM") << QByteArray("\xEF\xBB\xBF {\"a\": 1}") << 512 << true;
    QTest::addRow("whitespace") << QByteArray(" \t\r\n[1]\n ") << 512 << true;
    QTest::addRow("depth at the limit") << QByteArray("[[[1]]]") << 3 << true;
    QTest::addRow("depth over the limit") << QByteArray("[[[1]]]") << 2 << false;
    QTest::addRow("deeper than simdjson goes") << QByteArray(2000, '[') + QByteArray(2000, ']') << 5000 << false;
    QTest::addRow("lone high surrogate") << QByteArray(R"(["\ud800"])") << 512 << false;
    QTest::addRow("lone low surrogate") << QByteArray(R"(["\udc00"])") << 512 << false;
    QTest::addRow("raw control character") << QByteArray("[\"a\x01\"]") << 512 << false;
    QTest::addRow("raw tab in a string") << QByteArray("[\"a\tb\"]") << 512 << false;
    QTest::addRow("invalid utf-8") << QByteArray("[\"\xFF\"]") << 512 << false;
    QTest::addRow("overlong utf-8") << QByteArray("[\"\xC0\xAF\"]") << 512 << false;
    QTest::addRow("trailing comma") << QByteArray("[1,]") << 512 << false;
    QTest::addRow("trailing garbage") << QByteArray("[1] x") << 512 << false;
    QTest::addRow("two values") << QByteArray("1 2") << 512 << false;
    QTest::addRow("leading zero") << QByteArray("[01]") << 512 << false;
    QTest::addRow("NaN") << QByteArray("[NaN]") << 512 << false;
    QTest::addRow("single quotes") << QByteArray("['a']") << 512 << false;
    QTest::addRow("comment") << QByteArray("[1] // x") << 512 << false;
    QTest::addRow("empty") << QByteArray("") << 512 << false;
    QTest::addRow("scalar") << QByteArray(R"("just text")") << 512 << true;
}

void TestJson::quickPathAgreesWithNlohmann()
{
    QFETCH(QByteArray, input);
    QFETCH(int, maxDepth);
    QFETCH(bool, quick);

    json quickly = "sentinel";
    QCOMPARE(parseJsonQuickly(view(input), maxDepth, quickly), quick);
    json slowly = "sentinel";
    const JsonTextParse alone = parseJsonTextWithNlohmann(view(input), maxDepth, slowly);
    json both = "sentinel";
    const JsonTextParse combined = parseJsonText(view(input), maxDepth, both);
    if (quick) {
        QVERIFY2(alone.ok, alone.message.c_str());
        if (!identicalJson(quickly, slowly)) // dumped only then: a deep document's dump recurses as deep
            QFAIL((quickly.dump() + " vs " + slowly.dump()).c_str());
    } else {
        QVERIFY(quickly.is_null());
    }
    // Whichever path answered, parseJsonText gives what nlohmann alone gives, errors included.
    QCOMPARE(combined.ok, alone.ok);
    QCOMPARE(combined.tooDeep, alone.tooDeep);
    QCOMPARE(combined.errorOffset, alone.errorOffset);
    QCOMPARE(combined.message, alone.message);
    if (!identicalJson(both, slowly))
        QFAIL((both.dump() + " vs " + slowly.dump()).c_str());
}

void TestJson::quickPathOnGeneratedDocuments()
{
    // Random documents (numbers of every kind, escapes, repeated keys, nesting) through both parsers.
    std::mt19937_64 random(20261130);
    const auto pick = [&random](int n) { return int(random() % std::uint64_t(n)); };
    const std::vector<std::string> scalars = { "0", "-0", "-1", "42", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "18446744073709551615", "1.5", "-0.0", "1e308", "2.2250738585072014e-308", "5e-324",
        "0.1", "123456789012345678", "1E+2", "true", "false", "null", R"("")", R"("a\u0041\n")", R"("\ud834\udd1e")",
        R"("2024-01-05")", "\"x-0\"", "\"\xE2\x82\xAC\"" };
    std::function<std::string(int)> value = [&](int depth) -> std::string {
        const int kind = depth > 4 ? 0 : pick(4);
        if (kind == 0 || kind == 1)
            return scalars[std::size_t(pick(int(scalars.size())))];
        std::string out = kind == 2 ? "[" : "{";
        const int n = pick(5);
        for (int i = 0; i < n; ++i) {
            if (i > 0)
                out += pick(2) ? "," : " , ";
            if (kind == 3)
                out += "\"k" + std::to_string(pick(3)) + "\":";
            out += value(depth + 1);
        }
        out += kind == 2 ? "]" : "}";
        return out;
    };
    int answered = 0;
    for (int i = 0; i < 3000; ++i) {
        const std::string text = value(0);
        json quickly;
        json slowly;
        const bool quick = parseJsonQuickly(text, 512, quickly);
        const JsonTextParse alone = parseJsonTextWithNlohmann(text, 512, slowly);
        QVERIFY2(alone.ok, text.c_str());
        if (quick) {
            ++answered;
            QVERIFY2(identicalJson(quickly, slowly), text.c_str());
        }
    }
    // Most documents go the quick way (only -0 and integers beyond 64 bits, rare here, send them to nlohmann).
    QVERIFY2(answered > 1500, std::to_string(answered).c_str());
}

void TestJson::leafPaths_data()
{
    QTest::addColumn<QByteArray>("doc");
    QTest::addColumn<QStringList>("leaves"); // "path=value|pointer"

    QTest::addRow("metrics example") << QByteArray(R"({"a":{"b":1},"c":[1,{"d":null}]})")
                                     << QStringList { u"a.b=1|/a/b"_s, u"c[0]=1|/c/0"_s, u"c[1].d=null|/c/1/d"_s };
    QTest::addRow("empty containers have no leaf")
        << QByteArray(R"({"a":{},"b":[],"c":"x"})") << QStringList { u"c=\"x\"|/c"_s };
    QTest::addRow("null leaves count") << QByteArray(R"({"a":null,"b":[null]})")
                                       << QStringList { u"a=null|/a"_s, u"b[0]=null|/b/0"_s };
    QTest::addRow("root scalar") << QByteArray("5") << QStringList { u"=5|"_s };
    QTest::addRow("root null") << QByteArray("null") << QStringList { u"=null|"_s };
    QTest::addRow("root empty object") << QByteArray("{}") << QStringList();
    QTest::addRow("root empty array") << QByteArray("[]") << QStringList();
    QTest::addRow("nested arrays") << QByteArray("[[1,2],[],[3]]")
                                   << QStringList { u"[0][0]=1|/0/0"_s, u"[0][1]=2|/0/1"_s, u"[2][0]=3|/2/0"_s };
    QTest::addRow("objects in root array") << QByteArray(R"([{"a":true}])") << QStringList { u"[0].a=true|/0/a"_s };
    QTest::addRow("keys sorted") << QByteArray(R"({"b":1,"a":2,"B":3})")
                                 << QStringList { u"B=3|/B"_s, u"a=2|/a"_s, u"b=1|/b"_s };
    QTest::addRow("keys with dots and slashes") << QByteArray(R"({"a.b":{"c/d":1,"e~f":2}})")
                                                << QStringList { u"a.b.c/d=1|/a.b/c~1d"_s, u"a.b.e~f=2|/a.b/e~0f"_s };
}

void TestJson::leafPaths()
{
    QFETCH(QByteArray, doc);
    QFETCH(QStringList, leaves);
    const json value = json::parse(view(doc));
    QStringList actual;
    for (const Leaf& leaf : flattenLeaves(value, LeafPointers::Fill))
        actual << q(leaf.path) + u'=' + q(leaf.value->dump()) + u'|' + q(leaf.pointer);
    QCOMPARE(actual, leaves);
    for (const Leaf& leaf : flattenLeaves(value))
        QVERIFY(leaf.pointer.empty());
}

void TestJson::countLeaves_data()
{
    QTest::addColumn<QByteArray>("doc");
    QTest::addColumn<int>("leaves");
    QTest::addColumn<int>("nonNull");
    QTest::addColumn<int>("keys");

    QTest::addRow("mixed") << QByteArray(R"({"a":null,"b":{},"c":[1,[]],"d":"x"})") << 3 << 2 << 5;
    QTest::addRow("root scalar") << QByteArray("1") << 1 << 1 << 1;
    QTest::addRow("root empty") << QByteArray("[]") << 0 << 0 << 0;
    QTest::addRow("root null") << QByteArray("null") << 1 << 0 << 1;
}

void TestJson::countLeaves()
{
    QFETCH(QByteArray, doc);
    QFETCH(int, leaves);
    QFETCH(int, nonNull);
    QFETCH(int, keys);
    const LeafCounts counts = structscope::countLeaves(json::parse(view(doc)));
    QCOMPARE(counts.leaves, leaves);
    QCOMPARE(counts.nonNullLeaves, nonNull);
    QCOMPARE(counts.keys, keys);
}

void TestJson::wildcard_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expected");
    QTest::addRow("plain") << u"a.b"_s << u"a.b"_s;
    QTest::addRow("indices") << u"a[0].b[12]"_s << u"a[].b[]"_s;
    QTest::addRow("root array") << u"[3][0]"_s << u"[][]"_s;
    QTest::addRow("not an index") << u"a[x].b[]"_s << u"a[x].b[]"_s;
    QTest::addRow("unclosed") << u"a[12"_s << u"a[12"_s;
    QTest::addRow("empty") << QString() << QString();
}

void TestJson::wildcard()
{
    QFETCH(QString, path);
    QFETCH(QString, expected);
    QCOMPARE(q(wildcardPath(path.toStdString())), expected);
}

void TestJson::leafPathToPointer_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("pointer");
    QTest::addRow("root") << QString() << QString();
    QTest::addRow("key") << u"a"_s << u"/a"_s;
    QTest::addRow("nested") << u"a.b[2]"_s << u"/a/b/2"_s;
    QTest::addRow("root array") << u"[0].a"_s << u"/0/a"_s;
    QTest::addRow("double index") << u"a[0][1]"_s << u"/a/0/1"_s;
    QTest::addRow("escapes") << u"a~b/c.d"_s << u"/a~0b~1c/d"_s;
    QTest::addRow("bracket that is no index") << u"a[x].b"_s << u"/a[x]/b"_s;
    QTest::addRow("unicode key") << u"caf\u00e9.n"_s << u"/caf\u00e9/n"_s;
}

void TestJson::leafPathToPointer()
{
    QFETCH(QString, path);
    QFETCH(QString, pointer);
    QCOMPARE(q(structscope::leafPathToPointer(path.toStdString())), pointer);
}

void TestJson::pointerJoin()
{
    QCOMPARE(structscope::pointerJoin("", "a"), std::string("/a"));
    QCOMPARE(structscope::pointerJoin("/a", "b/c"), std::string("/a/b~1c"));
    QCOMPARE(structscope::pointerJoin("/a", "~1"), std::string("/a/~01"));
    QCOMPARE(structscope::pointerJoin("/a", ""), std::string("/a/"));
    QCOMPARE(escapePointerToken("x~/y"), std::string("x~0~1y"));
    // The pointer of a leaf resolves to that leaf in nlohmann's own pointer implementation.
    const json doc = parsed(R"({"a/b":{"c~d":[10,20]}})");
    for (const Leaf& leaf : flattenLeaves(doc, LeafPointers::Fill))
        QCOMPARE(dumped(doc.at(json::json_pointer(leaf.pointer))), dumped(*leaf.value));
}

void TestJson::valuesEqual_data()
{
    QTest::addColumn<QByteArray>("a");
    QTest::addColumn<QByteArray>("b");
    QTest::addColumn<bool>("strict");
    QTest::addColumn<bool>("lenient");

    QTest::addRow("1 == 1.0") << QByteArray("1") << QByteArray("1.0") << true << true;
    QTest::addRow("-1 == -1.0") << QByteArray("-1") << QByteArray("-1.0") << true << true;
    QTest::addRow("signed vs unsigned") << QByteArray("-0") << QByteArray("0") << true << true;
    QTest::addRow("1 != 1.5") << QByteArray("1") << QByteArray("1.5") << false << false;
    QTest::addRow("1e2 == 100") << QByteArray("1e2") << QByteArray("100") << true << true;
    QTest::addRow("2^53+1 != 2^53 as double")
        << QByteArray("9007199254740993") << QByteArray("9007199254740992.0") << false << false;
    QTest::addRow("2^53 == 2^53 as double")
        << QByteArray("9007199254740992") << QByteArray("9007199254740992.0") << true << true;
    QTest::addRow("uint64 max vs int") << QByteArray("18446744073709551615") << QByteArray("-1") << false << false;
    QTest::addRow("uint64 max vs 2^64 double")
        << QByteArray("18446744073709551615") << QByteArray("18446744073709551616.0") << false << false;
    QTest::addRow("true != 1") << QByteArray("true") << QByteArray("1") << false << false;
    QTest::addRow("false != 0") << QByteArray("false") << QByteArray("0") << false << false;
    QTest::addRow("null == null") << QByteArray("null") << QByteArray("null") << true << true;
    QTest::addRow("null != \"\"") << QByteArray("null") << QByteArray(R"("")") << false << false;
    QTest::addRow("case") << QByteArray(R"("Berlin")") << QByteArray(R"("berlin")") << false << true;
    QTest::addRow("full stop and space") << QByteArray(R"("Berlin.")") << QByteArray(R"(" berlin")") << false << true;
    QTest::addRow("internal whitespace") << QByteArray(R"("New  York")") << QByteArray(R"("new\tyork")") << false
                                         << true;
    QTest::addRow("only one full stop") << QByteArray(R"("a..")") << QByteArray(R"("a")") << false << false;
    QTest::addRow("unicode case") << QByteArray(R"("ÄRGER")") << QByteArray(R"("ärger")") << false << true;
    QTest::addRow("accents differ") << QByteArray(R"("café")") << QByteArray(R"("cafe")") << false << false;
    QTest::addRow("objects deep") << QByteArray(R"({"a":[1,{"b":"X"}]})") << QByteArray(R"({"a":[1.0,{"b":"x"}]})")
                                  << false << true;
    QTest::addRow("objects extra key") << QByteArray(R"({"a":1})") << QByteArray(R"({"a":1,"b":2})") << false << false;
    QTest::addRow("arrays order") << QByteArray("[1,2]") << QByteArray("[2,1]") << false << false;
    QTest::addRow("string vs number") << QByteArray(R"("1")") << QByteArray("1") << false << false;
}

void TestJson::valuesEqual()
{
    QFETCH(QByteArray, a);
    QFETCH(QByteArray, b);
    QFETCH(bool, strict);
    QFETCH(bool, lenient);
    const json ja = json::parse(view(a));
    const json jb = json::parse(view(b));
    QCOMPARE(structscope::valuesEqual(ja, jb, Equality::Strict), strict);
    QCOMPARE(structscope::valuesEqual(jb, ja, Equality::Strict), strict);
    QCOMPARE(structscope::valuesEqual(ja, jb, Equality::Lenient), lenient);
    QCOMPARE(structscope::valuesEqual(jb, ja, Equality::Lenient), lenient);
}

void TestJson::diff_data()
{
    QTest::addColumn<QByteArray>("gold");
    QTest::addColumn<QByteArray>("pred");
    QTest::addColumn<bool>("unordered");
    QTest::addColumn<bool>("lenient");
    QTest::addColumn<QStringList>("expected");

    const QStringList none;
    QTest::addRow("equal") << QByteArray(R"({"a":1,"b":[1,"x"]})") << QByteArray(R"({"b":[1,"x"],"a":1})") << false
                           << false << none;
    QTest::addRow("1 vs 1.0") << QByteArray(R"({"n":1})") << QByteArray(R"({"n":1.0})") << false << false << none;
    QTest::addRow("value error number") << QByteArray(R"({"n":1})") << QByteArray(R"({"n":2})") << false << false
                                        << QStringList { u"WV/value_error /n n"_s };
    QTest::addRow("value error bool") << QByteArray(R"({"b":true})") << QByteArray(R"({"b":false})") << false << false
                                      << QStringList { u"WV/value_error /b b"_s };
    QTest::addRow("big integers differ") << QByteArray("9007199254740993") << QByteArray("9007199254740992.0") << false
                                         << false << QStringList { u"WV/value_error  "_s };
    QTest::addRow("deviation") << QByteArray(R"({"s":"abc"})") << QByteArray(R"({"s":"abd"})") << false << false
                               << QStringList { u"WV/deviation /s s"_s };
    QTest::addRow("coercible string gold") << QByteArray(R"({"n":"42"})") << QByteArray(R"({"n":42})") << false << false
                                           << QStringList { u"WV/coercible /n n"_s };
    QTest::addRow("coercible number gold") << QByteArray(R"({"n":42})") << QByteArray(R"({"n":"42"})") << false << false
                                           << QStringList { u"WV/coercible /n n"_s };
    QTest::addRow("coercible by value") << QByteArray(R"({"n":42.0})") << QByteArray(R"({"n":"42"})") << false << false
                                        << QStringList { u"WV/coercible /n n"_s };
    QTest::addRow("coercible bool") << QByteArray(R"({"b":"true"})") << QByteArray(R"({"b":true})") << false << false
                                    << QStringList { u"WV/coercible /b b"_s };
    QTest::addRow("padded number strict") << QByteArray(R"({"n":" 42"})") << QByteArray(R"({"n":42})") << false << false
                                          << QStringList { u"WV/type_error /n n"_s };
    QTest::addRow("padded number lenient") << QByteArray(R"({"n":" 42"})") << QByteArray(R"({"n":42})") << false << true
                                           << QStringList { u"WV/coercible /n n"_s };
    QTest::addRow("capital True strict") << QByteArray(R"({"b":"True"})") << QByteArray(R"({"b":true})") << false
                                         << false << QStringList { u"WV/type_error /b b"_s };
    QTest::addRow("capital True lenient") << QByteArray(R"({"b":"True"})") << QByteArray(R"({"b":true})") << false
                                          << true << QStringList { u"WV/coercible /b b"_s };
    QTest::addRow("true vs 1") << QByteArray(R"({"b":true})") << QByteArray(R"({"b":1})") << false << false
                               << QStringList { u"WV/type_error /b b"_s };
    QTest::addRow("1 vs true") << QByteArray(R"({"b":1})") << QByteArray(R"({"b":true})") << false << false
                               << QStringList { u"WV/type_error /b b"_s };
    QTest::addRow("string vs number") << QByteArray(R"({"s":"abc"})") << QByteArray(R"({"s":3})") << false << false
                                      << QStringList { u"WV/type_error /s s"_s };
    QTest::addRow("gold null, value invented") << QByteArray(R"({"x":null})") << QByteArray(R"({"x":"Bob"})") << false
                                               << false << QStringList { u"WV/type_error! /x x"_s };
    QTest::addRow("gold null, container invented") << QByteArray(R"({"x":null})") << QByteArray(R"({"x":{"a":1}})")
                                                   << false << false << QStringList { u"WV/type_error! /x x"_s };
    QTest::addRow("null both") << QByteArray(R"({"x":null})") << QByteArray(R"({"x":null})") << false << false << none;
    QTest::addRow("prediction null") << QByteArray(R"({"x":"a"})") << QByteArray(R"({"x":null})") << false << false
                                     << QStringList { u"MV /x x"_s };
    QTest::addRow("missing leaf") << QByteArray(R"({"a":1,"b":2})") << QByteArray(R"({"a":1})") << false << false
                                  << QStringList { u"MK /b b"_s, u"MV /b b"_s };
    QTest::addRow("missing null leaf") << QByteArray(R"({"a":null})") << QByteArray("{}") << false << false
                                       << QStringList { u"MK /a a"_s };
    QTest::addRow("missing nested object")
        << QByteArray(R"({"a":{"b":1,"c":null,"d":{},"e":[2]}})") << QByteArray("{}") << false << false
        << QStringList { u"MK /a/b a.b"_s, u"MV /a/b a.b"_s, u"MK /a/c a.c"_s, u"MK /a/d a.d"_s, u"MK /a/e/0 a.e[0]"_s,
               u"MV /a/e/0 a.e[0]"_s };
    QTest::addRow("prediction null for container")
        << QByteArray(R"({"a":{"b":1,"c":null,"d":{}}})") << QByteArray(R"({"a":null})") << false << false
        << QStringList { u"MV /a/b a.b"_s };
    QTest::addRow("container vs scalar") << QByteArray(R"({"a":{"b":1,"c":[2]}})") << QByteArray(R"({"a":"x"})")
                                         << false << false
                                         << QStringList { u"WV/type_error /a/b a.b"_s,
                                                u"WV/type_error /a/c/0 a.c[0]"_s };
    QTest::addRow("object vs array") << QByteArray(R"({"a":{"b":1}})") << QByteArray(R"({"a":[1]})") << false << false
                                     << QStringList { u"WV/type_error /a/b a.b"_s };
    QTest::addRow("scalar vs container") << QByteArray(R"({"a":1})") << QByteArray(R"({"a":{"b":1}})") << false << false
                                         << QStringList { u"WV/type_error /a a"_s };
    QTest::addRow("empty object vs scalar") << QByteArray(R"({"a":{}})") << QByteArray(R"({"a":5})") << false << false
                                            << QStringList { u"WV/type_error /a a"_s };
    QTest::addRow("empty object vs null")
        << QByteArray(R"({"a":{}})") << QByteArray(R"({"a":null})") << false << false << none;
    QTest::addRow("empty array missing") << QByteArray(R"({"a":[]})") << QByteArray("{}") << false << false
                                         << QStringList { u"MK /a a"_s };
    QTest::addRow("extra keys") << QByteArray(R"({"a":1})") << QByteArray(R"({"a":1,"z":{"y":1,"x":[]}})") << false
                                << false << QStringList { u"EXTRA /z/x z.x"_s, u"EXTRA /z/y z.y"_s };
    QTest::addRow("extras come last") << QByteArray(R"({"a":1,"c":1})") << QByteArray(R"({"b":5,"c":2})") << false
                                      << false
                                      << QStringList { u"MK /a a"_s, u"MV /a a"_s, u"WV/value_error /c c"_s,
                                             u"EXTRA /b b"_s };
    QTest::addRow("root scalar") << QByteArray("1") << QByteArray("2") << false << false
                                 << QStringList { u"WV/value_error  "_s };
    QTest::addRow("root type mismatch") << QByteArray(R"({"a":1})") << QByteArray("[1]") << false << false
                                        << QStringList { u"WV/type_error /a a"_s };
    QTest::addRow("root null gold") << QByteArray("null") << QByteArray("{}") << false << false
                                    << QStringList { u"WV/type_error!  "_s };
    QTest::addRow("special keys") << QByteArray(R"({"a/b":{"c~d":1}})") << QByteArray("{}") << false << false
                                  << QStringList { u"MK /a~1b/c~0d a/b.c~d"_s, u"MV /a~1b/c~0d a/b.c~d"_s };

    QTest::addRow("ordered shorter prediction")
        << QByteArray("[1,2,3]") << QByteArray("[1,3]") << false << false
        << QStringList { u"WV/value_error /1 [1]"_s, u"MK /2 [2]"_s, u"MV /2 [2]"_s };
    QTest::addRow("ordered longer prediction") << QByteArray("[1]") << QByteArray(R"([1,2,{"a":null}])") << false
                                               << false << QStringList { u"EXTRA /1 [1]"_s, u"EXTRA /2/a [2].a"_s };

    const QByteArray people = R"([{"id":1,"n":"a"},{"id":2,"n":"b"}])";
    const QByteArray swapped = R"([{"id":2,"n":"b"},{"id":1,"n":"a"}])";
    QTest::addRow("permuted objects unordered") << people << swapped << true << false << none;
    QTest::addRow("permuted objects ordered")
        << people << swapped << false << false
        << QStringList { u"WV/value_error /0/id [0].id"_s, u"WV/deviation /0/n [0].n"_s,
               u"WV/value_error /1/id [1].id"_s, u"WV/deviation /1/n [1].n"_s };
    QTest::addRow("unordered reports gold index") << people << QByteArray(R"([{"id":2,"n":"B"},{"id":1,"n":"a"}])")
                                                  << true << false << QStringList { u"WV/deviation /1/n [1].n"_s };
    QTest::addRow("unordered lenient") << people << QByteArray(R"([{"id":2,"n":"B"},{"id":1,"n":"a"}])") << true << true
                                       << none;
    QTest::addRow("unordered surplus gold") << QByteArray(R"([{"a":1},{"a":2}])") << QByteArray(R"([{"a":2}])") << true
                                            << false << QStringList { u"MK /0/a [0].a"_s, u"MV /0/a [0].a"_s };
    QTest::addRow("unordered extra uses predicted index")
        << QByteArray(R"(["a","b"])") << QByteArray(R"(["b","c","a"])") << true << false
        << QStringList { u"EXTRA /1 [1]"_s };
    QTest::addRow("unordered scalars permuted")
        << QByteArray("[1,2,3]") << QByteArray("[3,1,2]") << true << false << none;
    QTest::addRow("unordered scalars leftover paired") << QByteArray("[1,2,3]") << QByteArray("[3,4,1]") << true
                                                       << false << QStringList { u"WV/value_error /1 [1]"_s };
    QTest::addRow("unordered nested arrays")
        << QByteArray("[[1,2],[3]]") << QByteArray("[[3],[2,1]]") << true << false << none;
    // Best match first: gold[0] shares 2 leaves with pred[1] but only 1 with pred[0].
    QTest::addRow("unordered best match")
        << QByteArray(R"([{"a":1,"b":2,"c":3},{"a":1,"b":9,"c":9}])")
        << QByteArray(R"([{"a":1,"b":9,"c":8},{"a":1,"b":2,"c":4}])") << true << false
        << QStringList { u"WV/value_error /0/c [0].c"_s, u"WV/value_error /1/c [1].c"_s };
    QTest::addRow("unordered extra inside matched element")
        << QByteArray(R"([{"id":1},{"id":2}])") << QByteArray(R"([{"id":2,"x":0},{"id":1}])") << true << false
        << QStringList { u"EXTRA /0/x [0].x"_s };

    QTest::addRow("Berlin strict") << QByteArray(R"({"city":"Berlin."})") << QByteArray(R"({"city":" berlin"})")
                                   << false << false << QStringList { u"WV/deviation /city city"_s };
    QTest::addRow("Berlin lenient") << QByteArray(R"({"city":"Berlin."})") << QByteArray(R"({"city":" berlin"})")
                                    << false << true << none;
}

void TestJson::diff()
{
    QFETCH(QByteArray, gold);
    QFETCH(QByteArray, pred);
    QFETCH(bool, unordered);
    QFETCH(bool, lenient);
    QFETCH(QStringList, expected);
    DiffOptions options;
    options.arrays = unordered ? ArrayMatching::Unordered : ArrayMatching::Ordered;
    options.equality = lenient ? Equality::Lenient : Equality::Strict;
    const std::vector<Difference> diffs = diffJson(json::parse(view(gold)), json::parse(view(pred)), options);
    QCOMPARE(describe(diffs), expected);

    // Counting without building the differences gives the same counts, and the deviations in the same order.
    std::vector<double> deviations;
    const DiffCounts counted = countDiff(json::parse(view(gold)), json::parse(view(pred)), options, &deviations);
    QCOMPARE(countsText(counted), countsText(countDifferences(diffs)));
    std::vector<double> expectedDeviations;
    for (const Difference& d : diffs) {
        if (d.wrongKind == WrongValueKind::Deviation)
            expectedDeviations.push_back(d.levenshtein);
    }
    QVERIFY(deviations == expectedDeviations);
}

void TestJson::diffValues()
{
    const json gold = parsed(R"({"a":{"b":"kitten"},"n":null,"t":{"u":1}})");
    const json pred = parsed(R"({"a":{"b":"sitting"},"n":7,"t":[1],"x":true})");
    const std::vector<Difference> diffs = diffJson(gold, pred);
    QCOMPARE(diffs.size(), std::size_t(4));

    QCOMPARE(diffs[0].wrongKind, WrongValueKind::Deviation);
    QCOMPARE(dumped(diffs[0].gold), uR"("kitten")"_s);
    QCOMPARE(dumped(diffs[0].predicted), uR"("sitting")"_s);
    QCOMPARE(diffs[0].levenshtein, 3.0 / 6.0);

    QCOMPARE(diffs[1].pointer, std::string("/n"));
    QVERIFY(diffs[1].goldNull);
    QCOMPARE(dumped(diffs[1].predicted), u"7"_s);

    QCOMPARE(diffs[2].pointer, std::string("/t/u"));
    QCOMPARE(diffs[2].wrongKind, WrongValueKind::TypeError);
    QCOMPARE(dumped(diffs[2].gold), u"1"_s);
    QCOMPARE(dumped(diffs[2].predicted), u"[1]"_s); // the value that stands where gold has the object

    QCOMPARE(diffs[3].kind, DiffKind::ExtraKey);
    QVERIFY(diffs[3].gold.is_null());
    QCOMPARE(dumped(diffs[3].predicted), u"true"_s);

    QCOMPARE(QString::fromLatin1(diffKindId(DiffKind::MissingValue)), u"missing_value"_s);
    QCOMPARE(QString::fromLatin1(wrongValueKindId(WrongValueKind::Coercible)), u"coercible"_s);
    QCOMPARE(QString::fromLatin1(wrongValueKindId(WrongValueKind::None)), QString());
}

void TestJson::diffCounts()
{
    const json gold = parsed(R"({"a":1,"b":"x","c":null,"d":{"e":1,"f":null},"g":"hello","h":"42","i":true,"j":null})");
    const json pred = parsed(R"({"a":2,"b":null,"c":"y","g":"hallo","h":42,"i":"yes","j":[],"k":1,"l":null,"m":{}})");
    const DiffCounts counts = countDifferences(diffJson(gold, pred));
    QCOMPARE(counts.mk, 2); // d.e, d.f
    QCOMPARE(counts.mv, 2); // b (null), d.e (absent)
    QCOMPARE(counts.wvValue, 1); // a
    QCOMPARE(counts.wvDeviation, 1); // g
    QCOMPARE(counts.wvCoercible, 1); // h
    QCOMPARE(counts.wvType, 3); // c (gold null), i, j (gold null vs [])
    QCOMPARE(counts.goldNull, 2); // c, j
    QCOMPARE(counts.extra, 3); // k, l, m
    QCOMPARE(counts.invented, 2); // c, k: l is null, m and j are empty
    QCOMPARE(counts.wv(), 6);
    QCOMPARE(counts.total(), 13);
    QVERIFY(counts.hallucinated());
    QVERIFY(!counts.perfect());
    QVERIFY(countDifferences(diffJson(gold, gold)).perfect());
    QCOMPARE(countsText(countDiff(gold, pred, {})), countsText(counts));
    QVERIFY(countDiff(gold, gold, {}).perfect());
}

void TestJson::diffUnorderedLargeFallsBack()
{
    json gold = json::array();
    json pred = json::array();
    for (int i = 0; i < 3000; ++i) {
        gold.push_back({ { "id", i }, { "v", "x" } });
        pred.push_back({ { "id", 2999 - i }, { "v", "x" } });
    }
    DiffOptions options;
    options.arrays = ArrayMatching::Unordered;
    QElapsedTimer timer;
    timer.start();
    const std::vector<Difference> diffs = diffJson(gold, pred, options);
    QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(int(diffs.size()), 3000); // index order: id i meets id 2999 - i, never equal
}

void TestJson::lenientNormalize_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    QTest::addRow("trim and full stop") << u"  Berlin. "_s << u"berlin"_s;
    QTest::addRow("collapse whitespace") << u"A  B\t\nC"_s << u"a b c"_s;
    QTest::addRow("one full stop only") << u"x.."_s << u"x."_s;
    QTest::addRow("space before stop") << u"x ."_s << u"x"_s;
    QTest::addRow("just a stop") << u"."_s << QString();
    QTest::addRow("empty") << QString() << QString();
    QTest::addRow("unicode") << u"\u00c4RGER  \u00dcber."_s << u"\u00e4rger \u00fcber"_s;
    QTest::addRow("no-break space") << u"\u00a0x\u00a0y\u00a0"_s << u"x y"_s;
    QTest::addRow("greek final sigma folds")
        << u"\u03a3\u039f\u03a6\u039f\u03a3"_s << u"\u03c3\u03bf\u03c6\u03bf\u03c3"_s;
}

void TestJson::lenientNormalize()
{
    QFETCH(QString, input);
    QFETCH(QString, expected);
    QCOMPARE(q(structscope::lenientNormalize(input.toStdString())), expected);
}

void TestJson::lenientAsciiMatchesUnicodePath()
{
    QRandomGenerator rng(7);
    static const char alphabet[] = " \t\n\r\v\fAaZz.,09-";
    for (int round = 0; round < 5000; ++round) {
        std::string s;
        const int len = int(rng.bounded(0, 12));
        for (int i = 0; i < len; ++i)
            s.push_back(alphabet[rng.bounded(int(sizeof(alphabet) - 1))]);
        // Appending a non-ASCII letter forces the QString path; it is not whitespace or '.'.
        const std::string fast = structscope::lenientNormalize(s + "q");
        const std::string slow = structscope::lenientNormalize(s + "\xC3\xA9"); // é
        QCOMPARE(q(fast.substr(0, fast.size() - 1)), q(slow.substr(0, slow.size() - 2)));
    }
}

void TestJson::dateText_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("year"); // -1: no date
    QTest::addColumn<int>("month");
    QTest::addColumn<int>("day");
    QTest::addRow("month day, year") << u"May 22, 1914"_s << 1914 << 5 << 22;
    QTest::addRow("day month year") << u"22 May 1914"_s << 1914 << 5 << 22;
    QTest::addRow("ISO") << u"1914-05-22"_s << 1914 << 5 << 22;
    QTest::addRow("ISO one-digit") << u"2014-10-5"_s << 2014 << 10 << 5;
    QTest::addRow("words run together") << u"May twentysecond, Nineteen hundred and fourteen"_s << 1914 << 5 << 22;
    QTest::addRow("hyphenated ordinal") << u"the twenty-second of May, nineteen fourteen"_s << 1914 << 5 << 22;
    QTest::addRow("weekday, ordinal digits") << u"Friday, the 22nd of May 1914"_s << 1914 << 5 << 22;
    QTest::addRow("abbreviation") << u"Sept. 3rd, 2001"_s << 2001 << 9 << 3;
    QTest::addRow("two thousand and four") << u"June 1, two thousand and four"_s << 2004 << 6 << 1;
    QTest::addRow("twenty twenty-four") << u"March the first, twenty twenty-four"_s << 2024 << 3 << 1;
    QTest::addRow("month and year") << u"May 1914"_s << 1914 << 5 << 0;
    QTest::addRow("month and day") << u"December 25"_s << 0 << 12 << 25;
    QTest::addRow("29 February") << u"February 29, 1900"_s << 1900 << 2 << 29;
    QTest::addRow("day or year?") << u"May 5, 14"_s << -1 << 0 << 0;
    QTest::addRow("range") << u"October 5 - 9, 2014"_s << -1 << 0 << 0;
    QTest::addRow("numeric") << u"05/06/2014"_s << -1 << 0 << 0;
    QTest::addRow("two months") << u"May and June 1914"_s << -1 << 0 << 0;
    QTest::addRow("other words") << u"May 22, 1914 at noon"_s << -1 << 0 << 0;
    QTest::addRow("no month") << u"22 1914"_s << -1 << 0 << 0;
    QTest::addRow("April 31") << u"April 31, 2020"_s << -1 << 0 << 0;
    QTest::addRow("ISO month 13") << u"2020-13-01"_s << -1 << 0 << 0;
    QTest::addRow("ordinal year") << u"May 1914th"_s << -1 << 0 << 0;
    QTest::addRow("two days") << u"May 5 6"_s << -1 << 0 << 0;
    QTest::addRow("bad suffix") << u"May 5xy, 1914"_s << -1 << 0 << 0;
    QTest::addRow("empty") << QString() << -1 << 0 << 0;
    QTest::addRow("a verb") << u"may"_s << -1 << 0 << 0;
    QTest::addRow("huge number") << u"May 99999999999999999999"_s << -1 << 0 << 0;
    QTest::addRow("hundred hundred") << u"May 1, nineteen hundred hundred"_s << -1 << 0 << 0;
}

void TestJson::dateText()
{
    QFETCH(QString, text);
    QFETCH(int, year);
    QFETCH(int, month);
    QFETCH(int, day);
    const std::optional<TextDate> date = parseDateText(text.toStdString());
    if (year < 0) {
        QVERIFY2(!date, qPrintable(u"read as %1-%2-%3"_s.arg(date->year).arg(date->month).arg(date->day)));
        return;
    }
    QVERIFY(date);
    QCOMPARE(date->year, year);
    QCOMPARE(date->month, month);
    QCOMPARE(date->day, day);
}

void TestJson::numberWords()
{
    for (const char* word : { "three", "twentieth", "hundred", "twentytwo", "nineteen", "zero", "million", "first" })
        QVERIFY2(isNumberWord(word), word);
    for (const char* word : { "", "milkshake", "twentyfoo", "thirds", "none", "often", "ten-" })
        QVERIFY2(!isNumberWord(word), word);
}

// lenientEqual() compares ASCII texts without normalising them; it must agree with comparing their normal forms.
void TestJson::lenientEqualMatchesNormalizedTexts()
{
    QRandomGenerator rng(11);
    static const char alphabet[] = " \t\nAa.b";
    const auto draw = [&rng] {
        std::string s;
        const int len = int(rng.bounded(0, 7));
        for (int i = 0; i < len; ++i)
            s.push_back(alphabet[rng.bounded(int(sizeof(alphabet) - 1))]);
        return s;
    };
    int equalPairs = 0;
    for (int round = 0; round < 20000; ++round) {
        const std::string a = draw();
        const std::string b = draw();
        const bool expected = structscope::lenientNormalize(a) == structscope::lenientNormalize(b);
        equalPairs += expected ? 1 : 0;
        if (structscope::lenientEqual(a, b) != expected)
            QFAIL(
                qPrintable(u"lenientEqual(\"%1\", \"%2\") is %3"_s.arg(q(a), q(b), expected ? u"false"_s : u"true"_s)));
    }
    QVERIFY2(equalPairs > 500, "the alphabet gives too few equal pairs to test anything");
    QVERIFY(structscope::lenientEqual("  New  York. ", "new york"));
    QVERIFY(!structscope::lenientEqual("New York", "NewYork"));
    QVERIFY(structscope::lenientEqual("\xC3\x84rger", "\xC3\xA4RGER.")); // Ärger: the Unicode path
}

void TestJson::levenshtein_data()
{
    QTest::addColumn<QByteArray>("a");
    QTest::addColumn<QByteArray>("b");
    QTest::addColumn<int>("distance");
    QTest::addRow("kitten sitting") << QByteArray("kitten") << QByteArray("sitting") << 3;
    QTest::addRow("café cafe") << QByteArray("caf\xC3\xA9") << QByteArray("cafe") << 1;
    QTest::addRow("emoji is one symbol") << QByteArray("\xF0\x9F\x98\x80x") << QByteArray("x") << 1;
    QTest::addRow("empty vs abc") << QByteArray() << QByteArray("abc") << 3;
    QTest::addRow("abc vs empty") << QByteArray("abc") << QByteArray() << 3;
    QTest::addRow("equal") << QByteArray("same") << QByteArray("same") << 0;
    QTest::addRow("flaw lawn") << QByteArray("flaw") << QByteArray("lawn") << 2;
    QTest::addRow("invalid bytes are symbols") << QByteArray("a\xFF") << QByteArray("a\xFE") << 1;
    QTest::addRow("long, one substitution")
        << QByteArray(20000, 'a') << QByteArray(9999, 'a') + "b" + QByteArray(10000, 'a') << 1;
    QTest::addRow("long, shifted by one") << repeated("ab", 5000) << repeated("ba", 5000) << 2;
    QTest::addRow("long, all different") << QByteArray(3000, 'a') << QByteArray(3000, 'b') << 3000;
}

void TestJson::levenshtein()
{
    QFETCH(QByteArray, a);
    QFETCH(QByteArray, b);
    QFETCH(int, distance);
    QCOMPARE(int(structscope::levenshtein(view(a), view(b))), distance);
    QCOMPARE(int(structscope::levenshtein(view(b), view(a))), distance);
}

void TestJson::levenshteinMatchesReference()
{
    QRandomGenerator rng(99);
    static const char* const symbols[] = { "a", "b", "c", "\xC3\xA9", "\xF0\x9F\x98\x80", " " };
    for (int round = 0; round < 3000; ++round) {
        std::string a;
        std::string b;
        const int la = int(rng.bounded(0, 60));
        const int lb = int(rng.bounded(0, 60));
        for (int i = 0; i < la; ++i)
            a += symbols[rng.bounded(3)]; // small alphabet: many partial matches
        for (int i = 0; i < lb; ++i)
            b += symbols[rng.bounded(int(std::size(symbols)))];
        if (round % 3 == 0)
            b = a.substr(0, a.size() / 2) + b + a.substr(a.size() / 2);
        QVERIFY2(structscope::levenshtein(a, b) == referenceLevenshtein(a, b), (a + " | " + b).c_str());
    }
}

void TestJson::normalizedLevenshtein()
{
    QCOMPARE(structscope::normalizedLevenshtein("abc", "abd"), 1.0 / 3.0);
    QCOMPARE(structscope::normalizedLevenshtein("", "xy"), 2.0);
    QCOMPARE(structscope::normalizedLevenshtein("caf\xC3\xA9", "cafe"), 0.25);
    QCOMPARE(structscope::normalizedLevenshtein("ab", "ab"), 0.0);
}

void TestJson::utf8Helpers()
{
    QCOMPARE(codePointCount("caf\xC3\xA9"), std::size_t(4));
    QCOMPARE(codePointCount("\xFF\xFE"), std::size_t(2));
    QVERIFY(isValidUtf8("caf\xC3\xA9 \xF0\x9F\x98\x80"));
    QVERIFY(!isValidUtf8("\xC0\xAF")); // overlong '/'
    QVERIFY(!isValidUtf8("\xED\xA0\x80")); // surrogate
    QVERIFY(!isValidUtf8("\xF4\x90\x80\x80")); // above U+10FFFF
    QVERIFY(!isValidUtf8("\xE2\x82")); // truncated
    QCOMPARE(escapeInvalidUtf8("a\xFF"
                               "b\xC3\xA9"),
        std::string("a\\xFFb\xC3\xA9"));
    QCOMPARE(truncateUtf8("\xC3\xA9\xC3\xA9", 3), std::string("\xC3\xA9\xE2\x80\xA6"));
    QCOMPARE(truncateUtf8("abc", 3), std::string("abc"));
}

QTEST_GUILESS_MAIN(TestJson)
#include "tst_json.moc"
