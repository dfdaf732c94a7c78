// SPDX-License-Identifier: Apache-2.0
// Importers of results produced elsewhere (core/io): SOB response files and generic JSONL results.
// Fixtures live in tests/data/import/ (see README.md there); every expected value below was read off
// those files by hand.
#include "audit/suiterebuild.h"
#include "io/importcommon.h"
#include "io/jsonlimporter.h"
#include "io/sobimporter.h"
#include "report/aggregator.h"
#include "report/evaluation.h"
#include "report/reportwriter.h"
#include "report/sobevaluation.h"
#include "scoring/ladder.h"
#include "scoring/verdictcodec.h"
#include "store/resultstore.h"
#include "suite/suiteloader.h"
#include "util/sha256.h"
#include "json/jsontext.h"
#include "json/parseladder.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;
using namespace structscope;
using nlohmann::json;

namespace {

QString data(const QString& name)
{
    return QStringLiteral(STRUCTSCOPE_TEST_DATA) % u"/import/"_s % name;
}

QString sob(const QString& name)
{
    return data(u"sob/"_s + name);
}

json j(const char* text)
{
    return json::parse(text);
}

// QCOMPARE cannot take nlohmann::json (its conversions confuse QTest's overloads); compare the dumps.
#define QCOMPARE_JSON(actual, expected)                                                                                \
    QCOMPARE(QString::fromStdString(json(actual).dump()), QString::fromStdString(json(expected).dump()))

QString describe(const Problems& problems)
{
    QStringList lines;
    for (const Problem& p : problems)
        lines << p.toString();
    return lines.join(u'\n');
}

QString sha256Hex(const std::string& text)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(QByteArray::fromStdString(text), QCryptographicHash::Sha256).toHex());
}

/// A fresh SQLite store in a temporary folder, plus a place for generated input files.
struct Workspace
{
    QTemporaryDir dir;
    std::unique_ptr<ResultStore> store;

    Workspace()
    {
        QString error;
        store = ResultStore::open(dir.filePath(u"store.db"_s), &error);
        if (!store)
            qFatal("cannot open a test store: %s", qPrintable(error));
    }

    QString write(const QString& name, const QByteArray& content) const
    {
        const QString path = dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) != content.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

    QList<CaseRow> cases(qint64 suiteRow) const
    {
        auto result = store->cases(suiteRow);
        return result ? result.value() : QList<CaseRow> {};
    }

    QList<RunRow> runs() const
    {
        auto result = store->runs();
        return result ? result.value() : QList<RunRow> {};
    }

    QList<ResponseRow> responses(qint64 runId) const
    {
        auto result = store->responses(runId);
        return result ? result.value() : QList<ResponseRow> {};
    }

    json gold(qint64 caseRow) const
    {
        auto result = store->currentGold(caseRow);
        return result ? result->gold : json("<no gold>");
    }
};

/// One SOB line for record `id` answered by `model`, with a small schema and gold.
QByteArray sobLine(const QString& id, const QString& model = u"m"_s)
{
    json line = j(R"({"input": {"context": "c", "question": "q", "json_schema": {"type": "object"}},
                      "output": {"candidate_response": {"a": 1}, "ground_truth": {"a": 1}}})");
    line["metadata"] = { { "record_id", id.toStdString() }, { "model_id", model.toStdString() } };
    return QByteArray::fromStdString(line.dump());
}

/// Compact text of what a response stores, for readable comparisons.
struct ResponseFacts
{
    QString caseId;
    int repeat = 0;
    QString rawText;
    std::optional<double> latencyMs;
    std::optional<qint64> tokensIn;
    std::optional<qint64> tokensOut;
    std::optional<double> cost;
    CostSource costSource = CostSource::None;
};

QString toString(const ResponseFacts& f)
{
    const auto opt = [](const auto& v) { return v ? QString::number(*v) : u"-"_s; };
    return u"%1#%2 %3 latency=%4 in=%5 out=%6 cost=%7/%8"_s.arg(f.caseId, QString::number(f.repeat), f.rawText,
        opt(f.latencyMs), opt(f.tokensIn), opt(f.tokensOut), opt(f.cost), costSourceName(f.costSource));
}

QStringList facts(const Workspace& ws, qint64 runId)
{
    QHash<qint64, QString> caseIds;
    auto run = ws.store->run(runId);
    if (!run)
        return { u"<no run>"_s };
    for (const CaseRow& c : ws.cases(run->suiteRow))
        caseIds.insert(c.row, c.id);
    QStringList out;
    for (const ResponseRow& r : ws.responses(runId))
        out << toString({ caseIds.value(r.caseRow), r.repeat, r.rawText, r.latencyMs, r.tokensIn, r.tokensOut, r.cost,
            r.costSource });
    return out;
}

QString fact(const char* caseId, int repeat, const QString& raw, std::optional<double> latency = {},
    std::optional<qint64> in = {}, std::optional<qint64> out = {}, std::optional<double> cost = {})
{
    return toString({ QString::fromUtf8(caseId), repeat, raw, latency, in, out, cost,
        cost ? CostSource::Provider : CostSource::None });
}

} // namespace

class TestImport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // ---- line reading ----------------------------------------------------------------------------

    void lineReader_data();
    void lineReader();
    void canonicalJsonMatchesDump_data();
    void canonicalJsonMatchesDump();
    // The content hash of an imported suite covers all of its text, with the x86 SHA extensions where the processor
    // has them; it must stay QCryptographicHash's SHA-256 exactly (stored suites are found again by it).
    void sha256MatchesQt_data();
    void sha256MatchesQt();
    void sha256KnownAnswer();
    // ---- SOB -------------------------------------------------------------------------------------

    // Lines are parsed in batches on the thread pool; what comes out must not depend on where a batch ends.
    void sobBatchesKeepFileOrder();
    void sobTwoModels();
    void sobModality_data();
    void sobModality();
    // A case's category is metadata.category, else metadata.source_category (SOB's document sources), from any line of
    // the record that names one, else the modality; difficulty is a grouping key of its own.
    void sobCategoryAndDifficulty();
    void sobReimportIsIdempotentForTheSuite();
    void sobSchemasAreStoredOnce();
    void sobConflictingRecordIsReported();
    void sobConflictNamesEveryDifference_data();
    void sobConflictNamesEveryDifference();
    void sobLineWithAnotherSchemaIsJudgedByIt();
    void sobMalformedLine_data();
    void sobMalformedLine();
    void sobUnusualButValidRecords();
    // `structscope report --sob` reads and scores the files without a store: the same problems, counts and records
    // as importing them into a new store and scoring that, record by record — every fixture at once (malformed and
    // conflicting lines, repeats, a missing candidate, odd schemas, string candidates, two modalities) plus the odd
    // records above.
    void sobFilesScoredWithoutAStoreMatchTheImport();
    void sobSchemaIsFoundByItsBytes_data();
    void sobSchemaIsFoundByItsBytes();
    void sobGoldIsFoundByItsBytes_data();
    void sobGoldIsFoundByItsBytes();
    void sobGoldOfOneTextIsOneGold();
    void sobLineWhoseSchemaDoesNotParseIsReportedAsTheLine();
    void sobReadWithoutAStoreCanBeCancelled();
    void sobTooLongLineIsSkipped();
    void sobUnreadableFileDoesNotStopTheOthers();
    void sobSameFileTwiceIsReadOnce();
    void sobNothingValidStoresNothing();
    void sobCancelWhileReadingStoresNothing();
    void sobCancelWhileWritingMarksRunsCancelled();
    void sobImportSpeed();
    // ---- generic JSONL ---------------------------------------------------------------------------

    void generic();
    void genericFieldMap();
    void genericMalformedLine_data();
    void genericMalformedLine();
    void genericOptionalFields_data();
    void genericOptionalFields();
    void genericProblemPointsAtALiteralDottedKey();
    void genericCancelWhileCheckingStoresNothing();
    void genericInvalidFieldMapIsReported();
    void parseFieldMap_data();
    void parseFieldMap();
    void findField_data();
    void findField();
};

void TestImport::lineReader_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("limit");
    QTest::addColumn<QStringList>("expected"); // "n:text" per line, "n:!" for too long

    QTest::addRow("lf") << QByteArray("a\nb\n") << 10 << QStringList { u"1:a"_s, u"2:b"_s };
    QTest::addRow("no final newline") << QByteArray("a\nb") << 10 << QStringList { u"1:a"_s, u"2:b"_s };
    QTest::addRow("crlf") << QByteArray("a\r\nb\r\n") << 10 << QStringList { u"1:a"_s, u"2:b"_s };
    QTest::addRow("bom") << QByteArray("\xEF\xBB\xBF"
                                       "a\nb")
                         << 10 << QStringList { u"1:a"_s, u"2:b"_s };
    QTest::addRow("bom later is kept") << QByteArray("a\n\xEF\xBB\xBF"
                                                     "b")
                                       << 10 << QStringList { u"1:a"_s, u"2:\u00EF\u00BB\u00BFb"_s };
    QTest::addRow("empty") << QByteArray() << 10 << QStringList {};
    QTest::addRow("blank lines") << QByteArray("\n\n") << 10 << QStringList { u"1:"_s, u"2:"_s };
    QTest::addRow("exactly the limit") << QByteArray("abc\n") << 3 << QStringList { u"1:abc"_s };
    QTest::addRow("too long") << QByteArray("abcdef\nb\n") << 3 << QStringList { u"1:!"_s, u"2:b"_s };
    QTest::addRow("too long at the end") << QByteArray("ab\ncdefgh") << 3 << QStringList { u"1:ab"_s, u"2:!"_s };
    QByteArray huge(3 * 1024 * 1024 + 17, 'x');
    QTest::addRow("too long across chunks")
        << (huge + "\nok\n" + huge) << 1024 * 1024 << QStringList { u"1:!"_s, u"2:ok"_s, u"3:!"_s };
    QByteArray big(2 * 1024 * 1024, 'y');
    QTest::addRow("long line within the limit across chunks")
        << (QByteArray("a\n") + big + "\nz") << 3 * 1024 * 1024
        << QStringList { u"1:a"_s, u"2:"_s + QString(big.size(), u'y'), u"3:z"_s };
}

void TestImport::lineReader()
{
    QFETCH(QByteArray, input);
    QFETCH(int, limit);
    QFETCH(QStringList, expected);
    QBuffer buffer(&input);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    LineReader reader(buffer, limit);
    QStringList lines;
    std::string_view text;
    for (int guard = 0; guard < 100; ++guard) {
        const LineReader::Status status = reader.next(text);
        if (status == LineReader::Status::End)
            break;
        QVERIFY(status != LineReader::Status::Error);
        lines << QString::number(reader.lineNumber()) % u':'
                % (status == LineReader::Status::TooLong ? u"!"_s
                                                         : QString::fromLatin1(text.data(), qsizetype(text.size())));
    }
    QCOMPARE(lines, expected);
    QCOMPARE(reader.position(), qint64(input.size()));
}

void TestImport::canonicalJsonMatchesDump_data()
{
    QTest::addColumn<QByteArray>("text");

    QTest::addRow("scalars") << QByteArray(R"([null, true, false, 0, -1, 18446744073709551615, -9223372036854775808])");
    QTest::addRow("floats") << QByteArray(R"([1.0, -0.0, 0.1, 1e300, 2.5e-8, 120.50, 0.0004])");
    // Plain literals: moc misreads a raw string holding a backslash before a quote.
    QTest::addRow("escapes") << QByteArray("[\"quote \\\" backslash \\\\ slash \\/\", \"\\b\\f\\n\\r\\t\", "
                                           "\"\\u0001\\u001f\\u007f\"]");
    QTest::addRow("unicode") << QByteArray(
        "[\"\xC3\xA9\", \"\\u00e9\", \"\xF0\x9F\x98\x80 \\ud83d\\ude00\", \"\\u2028\"]");
    QTest::addRow("nested") << QByteArray(
        "{\"b\": [{}, [], {\"z\": 1, \"a\": {\"\\n\": \"x\"}}], \"a\": \"\", \"\": null}");
    QTest::addRow("NUL in a string") << QByteArray("\"a\\u0000b\"");
}

void TestImport::canonicalJsonMatchesDump()
{
    QFETCH(QByteArray, text);
    const json value = json::parse(text.constData());
    std::string out = "prefix";
    appendCanonicalJson(out, value);
    QCOMPARE(QString::fromStdString(out), QString::fromStdString("prefix" + value.dump()));
}

void TestImport::sha256MatchesQt_data()
{
    QTest::addColumn<int>("length");
    QTest::addColumn<int>("chunk");
    for (const int length : { 0, 1, 3, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 100003 }) {
        for (const int chunk : { 1, 7, 64, 1000000 })
            QTest::addRow("%d bytes in pieces of %d", length, chunk) << length << chunk;
    }
}

void TestImport::sha256MatchesQt()
{
    QFETCH(int, length);
    QFETCH(int, chunk);
    std::string text(std::size_t(length), '\0');
    for (int i = 0; i < length; ++i)
        text[std::size_t(i)] = char((i * 131 + 7) % 256);
    Sha256 sha;
    for (std::size_t at = 0; at < text.size(); at += std::size_t(chunk))
        sha.addData(std::string_view(text).substr(at, std::size_t(chunk)));
    QCOMPARE(QString::fromLatin1(sha.result().toHex()), sha256Hex(text));
}

void TestImport::sha256KnownAnswer()
{
    // FIPS 180-2, appendix B.1 and B.2.
    QCOMPARE(
        Sha256::hash("abc").toHex(), QByteArray("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    QCOMPARE(Sha256::hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq").toHex(),
        QByteArray("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
}

void TestImport::sobBatchesKeepFileOrder()
{
    Workspace ws;
    QByteArray lines;
    const QSet<int> broken { 3, 511, 512, 513, 1100 };
    const int count = 1300;
    for (int i = 1; i <= count; ++i) {
        if (broken.contains(i))
            lines += "{not json " + QByteArray::number(i) + "\n";
        else if (i == 700)
            lines += "   \n";
        else
            lines += sobLine(u"r%1"_s.arg(i, 4, 10, QChar(u'0'))) + '\n';
    }
    const QString path = ws.write(u"batches.jsonl"_s, lines);
    const ImportSummary s = importSobFiles(*ws.store, { path });
    QVERIFY2(s.ok(), qPrintable(describe(s.problems)));
    QCOMPARE(s.lines, qint64(count - 1));
    QCOMPARE(s.malformed, qint64(broken.size()));
    QCOMPARE(s.responses, qint64(count - 1 - broken.size()));
    QList<int> problemLines;
    for (const Problem& p : s.problems)
        problemLines << p.line;
    QCOMPARE(problemLines, QList<int>({ 3, 511, 512, 513, 1100 }));
    const QList<ResponseRow> stored = ws.responses(s.runIds.at(0));
    QCOMPARE(stored.size(), count - 1 - broken.size());
    QHash<qint64, QString> caseIds;
    for (const CaseRow& c : ws.cases(s.suite.row))
        caseIds.insert(c.row, c.id);
    QCOMPARE(caseIds.value(stored.constFirst().caseRow), u"r0001"_s);
    QCOMPARE(caseIds.value(stored.constLast().caseRow), u"r1300"_s);
}

void TestImport::sobTwoModels()
{
    Workspace ws;
    const ImportSummary s
        = importSobFiles(*ws.store, { sob(u"response_model-a.jsonl"_s), sob(u"response_model-b.jsonl"_s) });
    QVERIFY2(s.ok(), qPrintable(s.storeError ? s.storeError->message : u"cancelled"_s));
    QCOMPARE(s.files, 2);
    QCOMPARE(s.lines, 9); // 5 non-blank lines in a, 4 in b
    QCOMPARE(s.records, 8);
    QCOMPARE(s.cases, 4);
    QCOMPARE(s.responses, 8);
    QCOMPARE(s.malformed, 1);
    QCOMPARE(s.skipped, 0);
    QCOMPARE(s.problems.size(), 1);
    const Problem& p = s.problems.constFirst();
    QCOMPARE(p.file, sob(u"response_model-a.jsonl"_s));
    QCOMPARE(p.line, 3);
    QCOMPARE(p.column, 94); // just past the end of the cut-off line (93 bytes)
    QVERIFY(!p.warning);
    QVERIFY2(p.message.startsWith(u"not a JSON line: "_s), qPrintable(p.message));
    QVERIFY(s.suiteCreated);

    // The synthetic suite.
    QCOMPARE(s.suite.id, u"sob"_s);
    QCOMPARE(s.suite.name, u"SOB import"_s);
    QCOMPARE(s.suite.version, u"1"_s);
    const json person = j(R"({"type": "object", "properties": {"name": {"type": "string"},
            "age": {"type": "integer"}}, "required": ["name"]})");
    const json payment
        = j(R"({"type": "object", "properties": {"amount": {"type": "number"}, "currency": {"type": "string"}}})");
    const json receipt = j(R"({"type": "object", "properties": {"total": {"type": "number"}}})");
    // Each distinct schema is stored once, in the manifest, named by the SHA-256 of its compact dump; r-01 and
    // r-04 share one.
    const auto nameOf = [](const json& schema) { return "sob-" + sha256Hex(schema.dump()).left(16).toStdString(); };
    json expectedManifest = j(R"({"id": "sob", "name": "SOB import", "version": "1",
            "families": ["ladder", "grounding"], "options": {"validate_formats": false, "array_matching": "ordered"},
            "source": "sob"})");
    for (const json& schema : { person, payment, receipt }) {
        expectedManifest["schemas"][nameOf(schema)] = "schemas/" + nameOf(schema) + ".json";
        expectedManifest["schema_documents"][nameOf(schema)] = schema;
    }
    QCOMPARE(expectedManifest["schema_documents"].size(), 3u);
    QCOMPARE_JSON(s.suite.manifest, expectedManifest);
    struct ExpectedCase
    {
        QString id, category, tier, input;
        std::optional<QString> question;
        json extra, gold;
    };
    const QList<ExpectedCase> expected = {
        { u"r-01"_s, u"text"_s, u"easy"_s, u"Alice is 30 years old.\n\nExtract the person."_s, u"Extract the person."_s,
            { { "schema", person },
                { "metadata", j(R"({"record_id": "r-01", "schema_complexity": "easy", "difficulty": "hard"})") },
                { "eval_info", j(R"({"latency_ms": 812, "usage": {"prompt_tokens": 90, "completion_tokens": 12},
                              "cost": 0.0004})") } },
            j(R"({"name": "Alice", "age": 30})") },
        { u"r-02"_s, u"text"_s, u"medium"_s, u"Bob paid 12.50 EUR.\n\nExtract the payment."_s,
            u"Extract the payment."_s,
            { { "schema", payment },
                { "metadata", j(R"({"record_id": "r-02", "schema_complexity": "extreme", "difficulty": "medium"})") },
                { "eval_info", j(R"({"judge": "none"})") } },
            j(R"({"amount": 12.5, "currency": "EUR"})") },
        { u"r-03"_s, u"receipts"_s, u"hard"_s, u"Receipt: total 7."_s, std::nullopt,
            { { "schema", receipt },
                { "metadata", j(R"({"record_id": "r-03", "difficulty": "hard", "category": "receipts"})") } },
            j(R"({"total": 7})") },
        { u"r-04"_s, u"text"_s, QString(), u"Nothing to extract here.\n\nExtract the person."_s,
            u"Extract the person."_s,
            { { "schema", person }, { "metadata", j(R"({"record_id": "r-04"})") },
                { "eval_info", j(R"({"latency_s": 1.5})") } },
            json(nullptr) },
    };
    const QList<CaseRow> cases = ws.cases(s.suite.row);
    QCOMPARE(cases.size(), expected.size());
    json canonical = json::array();
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const CaseRow& c = cases.at(i);
        const ExpectedCase& e = expected.at(i);
        QCOMPARE(c.ordinal, int(i));
        QCOMPARE(c.id, e.id);
        QCOMPARE(c.category, e.category);
        QCOMPARE(c.tier, e.tier);
        QCOMPARE(c.schemaName, QString::fromStdString(nameOf(e.extra.at("schema"))));
        QCOMPARE(c.input, e.input);
        QCOMPARE(c.question, e.question);
        json extraWithoutSchema = e.extra;
        extraWithoutSchema.erase("schema");
        QCOMPARE_JSON(c.extra, extraWithoutSchema);
        QCOMPARE(ws.gold(c.row).dump(), e.gold.dump());
        canonical.push_back({ { "id", e.id.toStdString() }, { "category", e.category.toStdString() },
            { "tier", e.tier.toStdString() }, { "input", e.input.toStdString() },
            { "question", e.question ? json(e.question->toStdString()) : json(nullptr) }, { "extra", e.extra },
            { "gold", e.gold } });
    }
    // The content hash covers the records as they came, the schema inline: the hash an earlier version gave.
    QCOMPARE(s.suite.contentHash, sha256Hex(canonical.dump()));

    // One run per (model, file), finished.
    const QList<RunRow> runs = ws.runs();
    QCOMPARE(runs.size(), 2);
    QCOMPARE(s.runIds, (QList<qint64> { runs.at(0).id, runs.at(1).id }));
    for (int i = 0; i < 2; ++i) {
        const RunRow& run = runs.at(i);
        const std::string model = i == 0 ? "demo/model-a" : "demo/model-b";
        QCOMPARE(run.suiteRow, s.suite.row);
        QCOMPARE(run.modelSpec, QString::fromStdString("import:" + model));
        QCOMPARE(run.providerKind, u"import"_s);
        QCOMPARE(run.strategy, u"imported"_s);
        QCOMPARE(run.repeats, 1);
        QCOMPARE_JSON(run.settings,
            json({ { "import_format", "sob" }, { "modality", "text" },
                { "source_file", i == 0 ? "response_model-a.jsonl" : "response_model-b.jsonl" } }));
        QCOMPARE(run.suiteHash, s.suite.contentHash);
        QCOMPARE(run.status, RunStatus::Finished);
        QVERIFY(run.finishedAt.isValid());
    }

    // Responses in file order; rawText is the JSON encoding of candidate_response.
    QCOMPARE(facts(ws, runs.at(0).id),
        (QStringList { fact("r-01", 0, u"{\"age\":30,\"name\":\"Alice\"}"_s, 812, 90, 12, 0.0004),
            fact("r-02", 0, u"\"{\\\"amount\\\": 12.5\""_s), fact("r-03", 0, u"{\"total\":7.0}"_s),
            fact("r-04", 0, u"{}"_s, 1500) }));
    QCOMPARE(facts(ws, runs.at(1).id),
        (QStringList { fact("r-04", 0, u"null"_s, 95), fact("r-03", 0, u"[{\"total\":7}]"_s),
            fact("r-02", 0, u"{\"amount\":12.5,\"currency\":\"EUR\"}"_s),
            fact("r-01", 0, u"\"Alice, 30\""_s, 400, 88, 9) }));

    // Decoding rawText gives back the candidate: the string stays a string.
    const QList<ResponseRow> a = ws.responses(runs.at(0).id);
    QVERIFY(json::parse(a.at(1).rawText.toStdString()).is_string());
    QVERIFY(json::parse(a.at(0).rawText.toStdString()).is_object());
    QCOMPARE(a.at(0).requestHash, sha256Hex(R"(["demo/model-a","r-01",0])"));
    QCOMPARE(a.at(2).requestHash, sha256Hex(R"(["demo/model-a","r-03",0])"));
    QCOMPARE(ws.responses(runs.at(1).id).at(0).requestHash, sha256Hex(R"(["demo/model-b","r-04",0])"));
}

void TestImport::sobModality_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<std::optional<Modality>>("option");
    QTest::addColumn<QString>("expected");

    QTest::addRow("text from a plain name") << u"response_model-a.jsonl"_s << std::optional<Modality>() << u"text"_s;
    QTest::addRow("image from the name") << u"response_model-c_image.jsonl"_s << std::optional<Modality>()
                                         << u"image"_s;
    QTest::addRow("option over an _image name")
        << u"response_model-c_image.jsonl"_s << std::optional<Modality>(Modality::Audio) << u"audio"_s;
    QTest::addRow("option over a plain name")
        << u"response_model-a.jsonl"_s << std::optional<Modality>(Modality::Image) << u"image"_s;
    QTest::addRow("text option over an _image name")
        << u"response_model-c_image.jsonl"_s << std::optional<Modality>(Modality::Text) << u"text"_s;
}

void TestImport::sobModality()
{
    QFETCH(QString, file);
    QFETCH(std::optional<Modality>, option);
    QFETCH(QString, expected);
    Workspace ws;
    SobImportOptions options;
    options.modality = option;
    options.strategy = u"J+"_s;
    const ImportSummary s = importSobFiles(*ws.store, { sob(file) }, options);
    QVERIFY(s.ok());
    QCOMPARE(s.runIds.size(), 1);
    const RunRow run = ws.store->run(s.runIds.constFirst()).value();
    QCOMPARE(QString::fromStdString(run.settings.at("modality").get<std::string>()), expected);
    QCOMPARE(run.strategy, u"J+"_s);
    // The category of a record without its own is the modality of the file it first came from.
    for (const CaseRow& c : ws.cases(s.suite.row)) {
        if (c.id != u"r-03"_s)
            QCOMPARE(c.category, expected);
    }
}

void TestImport::sobCategoryAndDifficulty()
{
    Workspace ws;
    const auto line = [](const char* id, const char* model, const json& extra) -> QByteArray {
        json l = json::parse(sobLine(QString::fromLatin1(id), QString::fromLatin1(model)).toStdString());
        l["metadata"].update(extra);
        return QByteArray::fromStdString(l.dump()) + '\n';
    };
    // r-1: the first model's file leaves the source out (as four of SOB's image files do), the second names it.
    // r-2: both keys: category wins. r-3: neither. r-4: source and difficulty.
    const QString a = ws.write(u"response_a_image.jsonl"_s,
        line("r-1", "a", { { "schema_complexity", "hard" } })
            + line("r-2", "a", { { "category", "receipts" }, { "source_category", "tables" } })
            + line("r-3", "a", json::object())
            + line("r-4", "a", { { "source_category", "old_scans" }, { "difficulty", "medium" } }));
    const QString b = ws.write(u"response_b_image.jsonl"_s,
        line("r-1", "b", { { "source_category", "multi_column" }, { "schema_complexity", "hard" } })
            + line("r-3", "b", json::object()));
    const ImportSummary s = importSobFiles(*ws.store, { a, b });
    QVERIFY(s.ok());
    QCOMPARE(s.skipped, 0);
    QVERIFY2(s.malformed == 0, qPrintable(s.problems.value(0).toString()));
    QCOMPARE(s.cases, 4);
    QHash<QString, QString> categories;
    for (const CaseRow& c : ws.cases(s.suite.row))
        categories.insert(c.id, c.category);
    const QHash<QString, QString> expected { { u"r-1"_s, u"multi_column"_s }, { u"r-2"_s, u"receipts"_s },
        { u"r-3"_s, u"image"_s }, { u"r-4"_s, u"old_scans"_s } };
    QCOMPARE(categories, expected);

    const Evaluation evaluation = evaluateStore(*ws.store);
    QVERIFY2(evaluation.ok(), qPrintable(evaluation.error));
    QHash<QString, QString> difficulty;
    for (const ScoredRecord& r : evaluation.records) {
        QCOMPARE(QString::fromStdString(groupValue(r, "category")), expected.value(r.caseId));
        difficulty.insert(r.caseId, QString::fromStdString(groupValue(r, "difficulty")));
    }
    QCOMPARE(difficulty.value(u"r-4"_s), u"medium"_s);
    QCOMPARE(difficulty.value(u"r-1"_s), QString());
    AggregateOptions options;
    options.groupBy = { "difficulty" };
    const Report report = aggregate(evaluation.records, options);
    QCOMPARE(report.groups.size(), std::size_t(2)); // "medium" and the cases without one
    // Scored without a store, the same categories and difficulty.
    const SobRecords read = readSobFiles({ a, b }, {});
    const Evaluation direct = evaluateSobRecords(read);
    QVERIFY(direct.ok());
    for (const ScoredRecord& r : direct.records) {
        QCOMPARE(r.category, expected.value(r.caseId));
        QCOMPARE(r.difficulty, r.caseId == u"r-4"_s ? u"medium"_s : QString());
    }
}

void TestImport::sobReimportIsIdempotentForTheSuite()
{
    Workspace ws;
    const QStringList files = { sob(u"response_model-a.jsonl"_s), sob(u"response_model-b.jsonl"_s) };
    const ImportSummary first = importSobFiles(*ws.store, files);
    const ImportSummary second = importSobFiles(*ws.store, files);
    QVERIFY(first.ok() && second.ok());
    QVERIFY(first.suiteCreated);
    QVERIFY(!second.suiteCreated);
    QCOMPARE(second.suite.row, first.suite.row);
    QCOMPARE(second.suite.contentHash, first.suite.contentHash);
    QCOMPARE(ws.store->suites()->size(), 1);
    QCOMPARE(ws.cases(first.suite.row).size(), 4);
    QCOMPARE(second.responses, 8);
    QCOMPARE(ws.runs().size(), 4); // runs are facts of each import; the suite is shared

    // A later call for another model over records already seen finds the same suite.
    const ImportSummary third
        = importSobFiles(*ws.store, files + QStringList { sob(u"response_model-c_image.jsonl"_s) });
    QVERIFY(third.ok());
    QCOMPARE(third.suite.row, first.suite.row);
    QCOMPARE(third.runIds.size(), 3);

    // Another set of records is another suite.
    const ImportSummary fourth = importSobFiles(*ws.store, { sob(u"response_model-c_image.jsonl"_s) });
    QVERIFY(fourth.ok());
    QVERIFY(fourth.suiteCreated);
    QVERIFY(fourth.suite.row != first.suite.row);
    QCOMPARE(ws.cases(fourth.suite.row).size(), 2);
}

void TestImport::sobSchemasAreStoredOnce()
{
    // a and b have one schema (other key order and spacing); c's differs from it only as 1 from 1.0, which SOB's
    // `perfect` tells apart, and so does the import; d's is another.
    const auto line = [](const char* id, const char* schema, const char* candidate) -> QByteArray {
        // Plain literals: a raw string that ends in a quote throws moc off this file.
        return QByteArray("{\"metadata\": {\"record_id\": \"") + id
            + "\", \"model_id\": \"m\"}, \"input\": {\"context\": \"n is one\", \"json_schema\": " + schema
            + "}, \"output\": {\"candidate_response\": " + candidate + ", \"ground_truth\": {\"n\": 1}}}\n";
    };
    const QByteArray lines
        = line("a", R"({"type": "object", "properties": {"n": {"type": "integer", "maximum": 1}}})", R"({"n": 1})")
        + line("b", R"({"properties": {"n": {"maximum": 1, "type": "integer"}}, "type": "object"})", R"({"n": 2})")
        + line("c", R"({"type": "object", "properties": {"n": {"type": "integer", "maximum": 1.0}}})", R"({"n": "x"})")
        + line("d", R"({"type": "object", "properties": {"n": {"type": "string"}}})", R"({"n": "x"})");
    Workspace ws;
    const QString path = ws.write(u"schemas.jsonl"_s, lines);
    const ImportSummary s = importSobFiles(*ws.store, { path });
    QVERIFY2(s.ok(), qPrintable(describe(s.problems)));
    const json& documents = s.suite.manifest.at("schema_documents");
    QCOMPARE(documents.size(), 3u);
    const QList<CaseRow> cases = ws.cases(s.suite.row);
    QCOMPARE(cases.size(), 4);
    QCOMPARE(cases.at(0).schemaName, cases.at(1).schemaName);
    QVERIFY(cases.at(2).schemaName != cases.at(0).schemaName);
    for (const CaseRow& c : cases) {
        const std::string name = c.schemaName.toStdString();
        QVERIFY(!c.extra.contains("schema"));
        QVERIFY2(documents.contains(name), name.c_str());
        QCOMPARE(s.suite.manifest.at("schemas").at(name).get<std::string>(), "schemas/" + name + ".json");
    }
    QVERIFY(
        documents.at(cases.at(2).schemaName.toStdString()).at("/properties/n/maximum"_json_pointer).is_number_float());
    // Read without a store, the cases name the same documents, which the manifest holds as the store's does.
    const SobRecords read = readSobFiles({ path });
    QVERIFY(read.summary.ok());
    QCOMPARE_JSON(read.manifest.at("schema_documents"), documents);
    QCOMPARE_JSON(read.manifest.at("schemas"), s.suite.manifest.at("schemas"));
    QCOMPARE(qsizetype(read.cases.size()), cases.size());
    for (std::size_t i = 0; i < read.cases.size(); ++i) {
        QCOMPARE(read.cases[i].schemaName, cases.at(qsizetype(i)).schemaName);
        QVERIFY(!read.cases[i].extra.contains("schema"));
    }

    // Scoring reads each case's own document: a's answer is valid, b's breaks the maximum, c's has the wrong type,
    // d's is valid under its schema (and would not be under a's).
    const auto verdicts = [](ResultStore& store) {
        const Evaluation evaluation = evaluateStore(store);
        QStringList out;
        for (const ScoredRecord& r : evaluation.records)
            out << r.caseId + (r.verdict.schemaValid ? u" valid "_s : u" invalid "_s)
                    + QString::fromLatin1(ladderLabelId(r.verdict.ladder));
        return evaluation.ok() ? out : QStringList { evaluation.error };
    };
    const QStringList scored = verdicts(*ws.store);
    QCOMPARE(scored.size(), 4);
    QVERIFY2(scored.at(0).startsWith(u"a valid "_s), qPrintable(scored.join(u"; "_s)));
    QVERIFY2(scored.at(1).startsWith(u"b invalid "_s), qPrintable(scored.join(u"; "_s)));
    QVERIFY2(scored.at(2).startsWith(u"c invalid "_s), qPrintable(scored.join(u"; "_s)));
    QVERIFY2(scored.at(3).startsWith(u"d valid "_s), qPrintable(scored.join(u"; "_s)));

    // Rebuilt as a suite folder (what exporting corrected gold writes): each schema a file under schemas/, as
    // suite.json declares it, and each case line naming its own.
    const auto gold = ws.store->goldForSuite(s.suite.row, GoldBasis::Adjusted);
    QVERIFY(gold);
    const RebuiltSuite rebuilt = rebuildSuiteFiles(s.suite.manifest, cases, gold.value());
    QVERIFY2(rebuilt.warnings.isEmpty(), qPrintable(rebuilt.warnings.join(u"; "_s)));
    QCOMPARE(rebuilt.files.size(), std::size_t(2 + 3)); // suite.json, cases.jsonl, three schemas
    const json suiteJson = json::parse(rebuilt.files.at(u"suite.json"_s).toStdString());
    QVERIFY(!suiteJson.contains("schema_documents"));
    QCOMPARE_JSON(suiteJson.at("schemas"), s.suite.manifest.at("schemas"));
    for (const auto& [name, document] : documents.items()) {
        const QString file = u"schemas/"_s + QString::fromStdString(name) + u".json"_s;
        QVERIFY2(rebuilt.files.count(file), qPrintable(file));
        QCOMPARE_JSON(json::parse(rebuilt.files.at(file).toStdString()), document);
    }
    const QList<QByteArray> caseLines = rebuilt.files.at(u"cases.jsonl"_s).trimmed().split('\n');
    QCOMPARE(caseLines.size(), 4);
    for (qsizetype i = 0; i < caseLines.size(); ++i)
        QCOMPARE(json::parse(caseLines.at(i).toStdString()).at("schema").get<std::string>(),
            cases.at(i).schemaName.toStdString());

    // A store an earlier version imported the file into holds the schemas inline, under the same content hash:
    // importing the file again finds that suite, and its answers score as they do here.
    Workspace earlier;
    SuiteImport inlineSuite;
    inlineSuite.id = s.suite.id;
    inlineSuite.name = s.suite.name;
    inlineSuite.version = s.suite.version;
    inlineSuite.contentHash = s.suite.contentHash;
    inlineSuite.manifest = s.suite.manifest;
    inlineSuite.manifest.erase("schemas");
    inlineSuite.manifest.erase("schema_documents");
    for (const CaseRow& c : cases) {
        CaseImport ci;
        ci.id = c.id;
        ci.category = c.category;
        ci.tier = c.tier;
        ci.input = c.input;
        ci.question = c.question;
        ci.extra = c.extra;
        ci.extra["schema"] = documents.at(c.schemaName.toStdString());
        ci.gold = ws.gold(c.row);
        inlineSuite.cases.append(ci);
    }
    const auto stored = earlier.store->importSuite(inlineSuite);
    QVERIFY2(stored, qPrintable(stored.errorMessage()));
    const ImportSummary again = importSobFiles(*earlier.store, { path });
    QVERIFY2(again.ok(), qPrintable(describe(again.problems)));
    QVERIFY(!again.suiteCreated);
    QCOMPARE(again.suite.row, stored->suite.row);
    QCOMPARE(earlier.store->suites()->size(), 1);
    QCOMPARE(verdicts(*earlier.store), scored);
}

void TestImport::sobConflictingRecordIsReported()
{
    Workspace ws;
    const ImportSummary s = importSobFiles(*ws.store, { sob(u"response_model-a.jsonl"_s), sob(u"conflict.jsonl"_s) });
    QVERIFY(s.ok());
    QCOMPARE(s.skipped, 1);
    QCOMPARE(s.malformed, 1);
    QCOMPARE(s.records, 5);
    QCOMPARE(s.problems.size(), 2);
    const Problem& p = s.problems.at(1);
    QCOMPARE(p.file, sob(u"conflict.jsonl"_s));
    QCOMPARE(p.line, 1);
    QCOMPARE(p.pointer, u"/metadata/record_id"_s);
    QVERIFY(!p.warning);
    QCOMPARE(p.message,
        u"record \"r-01\" has another ground truth than at %1:1; this line is skipped"_s.arg(
            sob(u"response_model-a.jsonl"_s)));

    // The first version stays; the other line of the file still imports.
    const QList<CaseRow> cases = ws.cases(s.suite.row);
    QCOMPARE(cases.size(), 4);
    QCOMPARE_JSON(ws.gold(cases.at(0).row), j(R"({"name": "Alice", "age": 30})"));
    QCOMPARE(s.runIds.size(), 2);
    QCOMPARE(facts(ws, s.runIds.at(1)), QStringList { fact("r-03", 0, u"{\"total\":7}"_s) });
}

void TestImport::sobConflictNamesEveryDifference_data()
{
    QTest::addColumn<QByteArray>("second");
    QTest::addColumn<QString>("differences");

    const QByteArray base = R"({"metadata": {"record_id": "x", "model_id": "n"}, "input": {"context": "c",
            "question": "q", "json_schema": {"type": "object"}}, "output": {"candidate_response": {},
            "ground_truth": {"a": 1}}})";
    const auto vary = [&](const char* from, const char* to) { return QByteArray(base).replace(from, to); };
    QTest::addRow("context") << vary(R"("context": "c")", R"("context": "C")") << u"context"_s;
    QTest::addRow("question") << vary(R"("question": "q",)", "") << u"question"_s;
    // Another schema alone is no conflict (sobLineWithAnotherSchemaIsJudgedByIt): it is not named with others.
    QTest::addRow("schema and gold")
        << vary(R"({"type": "object"})", R"({"type": "array"})").replace(R"({"a": 1})", R"({"a": 2})")
        << u"ground truth"_s;
    QTest::addRow("1 vs 1.0 in gold") << vary(R"({"a": 1})", R"({"a": 1.0})") << u"ground truth"_s;
    QTest::addRow("gold key") << vary(R"({"a": 1})", R"({"b": 1})") << u"ground truth"_s;
    QTest::addRow("context and gold") << vary(R"("context": "c")", R"("context": "")").replace(R"({"a": 1})", "null")
                                      << u"context, ground truth"_s;
}

void TestImport::sobConflictNamesEveryDifference()
{
    QFETCH(QByteArray, second);
    QFETCH(QString, differences);
    Workspace ws;
    const QByteArray first = R"({"metadata": {"record_id": "x", "model_id": "m"}, "input": {"context": "c",
            "question": "q", "json_schema": {"type": "object"}}, "output": {"candidate_response": {},
            "ground_truth": {"a": 1}}})";
    const QString path
        = ws.write(u"two.jsonl"_s, QByteArray(first).replace('\n', ' ') + '\n' + second.replace('\n', ' '));
    const ImportSummary s = importSobFiles(*ws.store, { path });
    QVERIFY(s.ok());
    QCOMPARE(s.skipped, 1);
    QCOMPARE(s.records, 1);
    QCOMPARE(s.problems.size(), 1);
    QCOMPARE(s.problems.at(0).line, 2);
    QCOMPARE(s.problems.at(0).message,
        u"record \"x\" has another %1 than at %2:1; this line is skipped"_s.arg(differences, path));
}

void TestImport::sobLineWithAnotherSchemaIsJudgedByIt()
{
    // SOB sends a variant of each schema to providers that refuse `additionalProperties: false`: a record's line
    // with another schema is the answer to that schema. It is kept, and validated against the schema it carries
    // (its line parsed with its schema apart, or whole when a key has an escape); gold comparison is the case's.
    Workspace ws;
    const auto line = [](const char* model, const char* schema, const char* input = "input") -> QByteArray {
        // Plain literals: a raw string that ends in a quote throws moc off this file.
        return QByteArray("{\"metadata\": {\"record_id\": \"x\", \"model_id\": \"") + model
            + "\", \"schema_complexity\": \"easy\"}, \"" + input
            + "\": {\"context\": \"c\", \"question\": \"q\", \"json_schema\": " + schema
            + R"(}, "output": {"candidate_response": {"a": 1}, "ground_truth": {"a": 1}}})";
    };
    const char* strict = R"({"type": "object", "properties": {"a": {"type": "integer", "maximum": 0}}, )"
                         R"("additionalProperties": false})";
    const char* variant = R"({"type": "object", "properties": {"a": {"type": "integer"}}, )"
                          R"("property_ordering": ["a"]})";
    const QString first = ws.write(u"response_strict_image.jsonl"_s, line("strict", strict) + '\n');
    const QString second = ws.write(u"response_variant_image.jsonl"_s,
        line("variant", variant) + '\n' + line("whole", variant, "inp\\u0075t") + '\n');
    const QStringList files { first, second };
    const ImportSummary s = importSobFiles(*ws.store, files);
    QVERIFY(s.ok());
    QVERIFY2(s.problems.isEmpty(), qPrintable(s.problems.isEmpty() ? QString() : s.problems.at(0).message));
    QCOMPARE(s.skipped, 0);
    QCOMPARE(s.records, 3);
    QCOMPARE(s.askedWithOtherSchema, 2);
    const auto asked = ws.store->askedSchemas();
    QVERIFY(asked.ok());
    QCOMPARE(asked->size(), std::size_t(1)); // the variant, once for both lines
    QCOMPARE_JSON(asked->begin()->second, j(variant));
    QMap<QString, qint64> askedOf;
    for (const RunRow& run : ws.runs()) {
        const auto records = ws.store->responses(run.id);
        QVERIFY2(records.ok(), qPrintable(records.errorMessage()));
        for (const ResponseRow& r : records.value())
            askedOf.insert(run.modelSpec, r.askedSchemaId);
    }
    const qint64 variantRow = asked->begin()->first;
    QCOMPARE(askedOf,
        (QMap<QString, qint64> {
            { u"import:strict"_s, 0 }, { u"import:variant"_s, variantRow }, { u"import:whole"_s, variantRow } }));

    // Stored and scored without a store alike: the answer breaks the strict schema's maximum, not the variant.
    const SobRecords read = readSobFiles(files);
    QCOMPARE(read.askedSchemas.size(), std::size_t(1));
    for (const Evaluation& evaluation : { evaluateStore(*ws.store), evaluateSobRecords(read) }) {
        QVERIFY2(evaluation.ok(), qPrintable(evaluation.error));
        QMap<QString, double> pass;
        QMap<QString, double> value;
        for (std::size_t i = 0; i < evaluation.records.size(); ++i) {
            const ScoredRecord& r = evaluation.records[i];
            pass.insert(r.model, r.verdict.value("grounding.json_pass").value_or(-1));
            value.insert(r.model, r.verdict.value("grounding.value_accuracy").value_or(-1));
        }
        QCOMPARE(pass, (QMap<QString, double> { { u"strict"_s, 0.0 }, { u"variant"_s, 1.0 }, { u"whole"_s, 1.0 } }));
        QCOMPARE(value, (QMap<QString, double> { { u"strict"_s, 0.0 }, { u"variant"_s, 1.0 }, { u"whole"_s, 1.0 } }));
    }
    // Kept verdicts name the schema too: a second pass from them gives the same.
    const Evaluation again = evaluateStore(*ws.store);
    QVERIFY(again.ok());
    QCOMPARE(again.records.size(), std::size_t(3));
}

void TestImport::sobMalformedLine_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("message"); // start of the message

    const QByteArray ok = R"("input": {"json_schema": {}}, "output": {"ground_truth": {}})";
    const auto record = [&](const QByteArray& metadata, const QByteArray& rest = {}) -> QByteArray {
        return "{\"metadata\": " + metadata + ", " + (rest.isEmpty() ? ok : rest) + "}";
    };
    const QByteArray meta = R"({"record_id": "r", "model_id": "m"})";

    QTest::addRow("not JSON") << QByteArray("{\"metadata\": ") << QString() << u"not a JSON line: "_s;
    QTest::addRow("trailing garbage") << (record(meta) + " x") << QString() << u"not a JSON line: "_s;
    QTest::addRow("array") << QByteArray("[1, 2]") << QString() << u"a SOB record is a JSON object, not array"_s;
    QTest::addRow("string") << QByteArray("\"text\"") << QString() << u"a SOB record is a JSON object, not string"_s;
    QTest::addRow("null") << QByteArray("null") << QString() << u"a SOB record is a JSON object, not null"_s;
    QTest::addRow("no metadata") << ("{" + ok + "}") << u"/metadata"_s << u"missing"_s;
    QTest::addRow("metadata is an array") << record("[1]") << u"/metadata"_s << u"must be an object, not array"_s;
    QTest::addRow("no record id") << record(R"({"model_id": "m"})") << u"/metadata/record_id"_s << u"missing"_s;
    QTest::addRow("empty record id") << record(R"({"record_id": " ", "model_id": "m"})") << u"/metadata/record_id"_s
                                     << u"must be a non-empty string"_s;
    QTest::addRow("record id is an object") << record(R"({"record_id": {"a": 1}, "model_id": "m"})")
                                            << u"/metadata/record_id"_s << u"must be a non-empty string"_s;
    QTest::addRow("record id is a float") << record(R"({"record_id": 1.5, "model_id": "m"})")
                                          << u"/metadata/record_id"_s << u"must be a non-empty string"_s;
    QTest::addRow("no model") << record(R"({"record_id": "r"})") << u"/metadata/model_id"_s << u"missing"_s;
    QTest::addRow("model is a number") << record(R"({"record_id": "r", "model_id": 7})") << u"/metadata/model_id"_s
                                       << u"must be a non-empty string"_s;
    QTest::addRow("blank model") << record(R"({"record_id": "r", "model_id": "  "})") << u"/metadata/model_id"_s
                                 << u"must be a non-empty string"_s;
    QTest::addRow("no input") << record(meta, R"("output": {"ground_truth": {}})") << u"/input/json_schema"_s
                              << u"missing"_s;
    QTest::addRow("input is a string") << record(meta, R"("input": "x", "output": {"ground_truth": {}})") << u"/input"_s
                                       << u"must be an object, not string"_s;
    QTest::addRow("no schema") << record(meta, R"("input": {"context": "c"}, "output": {"ground_truth": {}})")
                               << u"/input/json_schema"_s << u"missing"_s;
    QTest::addRow("no output") << record(meta, R"("input": {"json_schema": {}})") << u"/output/ground_truth"_s
                               << u"missing"_s;
    QTest::addRow("output is an array") << record(meta, R"("input": {"json_schema": {}}, "output": [])") << u"/output"_s
                                        << u"must be an object, not array"_s;
    QTest::addRow("no ground truth") << record(
        meta, R"("input": {"json_schema": {}}, "output": {"candidate_response": {}})")
                                     << u"/output/ground_truth"_s << u"missing"_s;
    QTest::addRow("invalid UTF-8") << record(R"({"record_id": "r)"
                                             "\xff\xfe"
                                             R"(", "model_id": "m"})")
                                   << QString() << u"not a JSON line: "_s;
    QTest::addRow("lone surrogate escape")
        << record(R"({"record_id": "\ud800", "model_id": "m"})") << QString() << u"not a JSON line: "_s;
    QTest::addRow("NUL byte") << record(QByteArray("{\"record_id\": \"a\0b\", \"model_id\": \"m\"}", 37)) << QString()
                              << u"not a JSON line: "_s;
    QTest::addRow("too deep") << record(meta,
        QByteArray(R"("input": {"json_schema": )") + QByteArray(600, '[') + QByteArray(600, ']')
            + R"(}, "output": {"ground_truth": {}})")
                              << QString() << u"not a JSON line: nesting deeper than 512 levels"_s;
}

void TestImport::sobMalformedLine()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, pointer);
    QFETCH(QString, message);
    Workspace ws;
    const QString path = ws.write(u"lines.jsonl"_s, sobLine(u"good-1"_s) + '\n' + line + '\n' + sobLine(u"good-2"_s));
    const ImportSummary s = importSobFiles(*ws.store, { path });
    QVERIFY(s.ok());
    QCOMPARE(s.lines, 3);
    QCOMPARE(s.malformed, 1);
    QCOMPARE(s.records, 2);
    QCOMPARE(s.responses, 2);
    QCOMPARE(s.problems.size(), 1);
    const Problem& p = s.problems.constFirst();
    QCOMPARE(p.file, path);
    QCOMPARE(p.line, 2);
    QCOMPARE(p.pointer, pointer);
    QVERIFY(!p.warning);
    QVERIFY2(p.message.startsWith(message), qPrintable(p.toString()));
    QCOMPARE(ws.cases(s.suite.row).size(), 2);
}

void TestImport::sobUnusualButValidRecords()
{
    Workspace ws;
    const QByteArray lines
        = R"({"metadata": {"record_id": 17, "model_id": "m"}, "input": {"json_schema": "see attachment"}, "output": {"ground_truth": null}}
{"metadata": {"record_id": "q-only", "model_id": "m", "category": ""}, "input": {"question": "Why?", "json_schema": true}, "output": {"candidate_response": "null", "ground_truth": [1, 2]}, "eval_info": {"usage": {"input_tokens": 3.0, "output_tokens": -1}, "cost_usd": 0.5, "latency_ms": "slow"}}
{"metadata": {"record_id": "ctx", "model_id": "m"}, "input": {"context": {"k": "v"}, "question": null, "json_schema": {}}, "output": {"candidate_response": 42, "ground_truth": {}}}
{"metadata": {"record_id": "ctx", "model_id": "m"}, "input": {"context": {"k": "v"}, "json_schema": {}}, "output": {"candidate_response": [], "ground_truth": {}}}
)";
    const QString path = ws.write(u"odd.jsonl"_s, lines);
    const ImportSummary s = importSobFiles(*ws.store, { path });
    QVERIFY(s.ok());
    QCOMPARE(s.malformed, 0);
    QCOMPARE(s.records, 4);
    QCOMPARE(describe(s.problems),
        path % u":1: warning: /output/candidate_response: missing: stored as null (a candidate that did not parse)\n"_s
            % path
            % u":4: warning: /metadata/record_id: record \"ctx\" appears again for model m in this file; stored as repeat 1"_s);

    const QList<CaseRow> cases = ws.cases(s.suite.row);
    QCOMPARE(cases.size(), 3);
    // Record-id order: "17" < "ctx" < "q-only".
    QCOMPARE(cases.at(0).id, u"17"_s);
    QCOMPARE(cases.at(0).input, QString());
    QCOMPARE(cases.at(0).question, std::nullopt);
    QCOMPARE_JSON(cases.at(0).extra.at("schema"), json("see attachment"));
    QCOMPARE_JSON(ws.gold(cases.at(0).row), json(nullptr));
    QCOMPARE(cases.at(1).id, u"ctx"_s);
    QCOMPARE(cases.at(1).input, u"{\"k\":\"v\"}"_s);
    QCOMPARE(cases.at(2).id, u"q-only"_s);
    QCOMPARE(cases.at(2).input, u"Why?"_s);
    QCOMPARE(cases.at(2).question, u"Why?"_s);
    QCOMPARE(cases.at(2).category, u"text"_s); // an empty category does not count
    QCOMPARE_JSON(cases.at(2).extra.at("schema"), json(true));
    QCOMPARE_JSON(ws.gold(cases.at(2).row), j("[1, 2]"));

    QCOMPARE(s.runIds.size(), 1);
    const RunRow run = ws.store->run(s.runIds.constFirst()).value();
    QCOMPARE(run.repeats, 2);
    QCOMPARE(facts(ws, run.id),
        (QStringList { fact("17", 0, u"null"_s), fact("q-only", 0, u"\"null\""_s, {}, 3, {}, 0.5),
            fact("ctx", 0, u"42"_s), fact("ctx", 1, u"[]"_s) }));
    QCOMPARE(ws.responses(run.id).at(3).requestHash, sha256Hex(R"(["m","ctx",1])"));
}

void TestImport::sobFilesScoredWithoutAStoreMatchTheImport()
{
    Workspace ws;
    const QString odd = ws.write(u"odd.jsonl"_s,
        R"({"metadata": {"record_id": 17, "model_id": "m"}, "input": {"json_schema": "see attachment"}, "output": {"ground_truth": null}}
{"metadata": {"record_id": "q-only", "model_id": "m", "category": ""}, "input": {"question": "Why?", "json_schema": true}, "output": {"candidate_response": "null", "ground_truth": [1, 2]}, "eval_info": {"usage": {"input_tokens": 3.0, "output_tokens": -1}, "cost_usd": 0.5, "latency_ms": 12}}
{"metadata": {"record_id": "ctx", "model_id": "m"}, "input": {"context": {"k": "v"}, "question": null, "json_schema": {}}, "output": {"candidate_response": 42, "ground_truth": {}}}
{"metadata": {"record_id": "ctx", "model_id": "m"}, "input": {"context": {"k": "v"}, "json_schema": {}}, "output": {"candidate_response": [], "ground_truth": {}}}
{"metadata": {"record_id": "ctx", "model_id": "m"}, "input": {"context": {"k": "w"}, "json_schema": {}}, "output": {"candidate_response": [], "ground_truth": {}}}
)");
    QStringList files { sob(u"response_model-a.jsonl"_s), sob(u"response_model-b.jsonl"_s),
        sob(u"response_model-c_image.jsonl"_s), sob(u"conflict.jsonl"_s), odd };
    for (const QString& name :
        { u"response_model-a.jsonl"_s, u"response_model-a_image.jsonl"_s, u"response_edge-cases.jsonl"_s })
        files << QStringLiteral(STRUCTSCOPE_TEST_DATA) % u"/grounding/"_s % name;

    const ImportSummary imported = importSobFiles(*ws.store, files);
    QVERIFY2(imported.ok(), qPrintable(describe(imported.problems)));
    const SobRecords read = readSobFiles(files);
    QVERIFY(read.summary.ok());
    QCOMPARE(read.summary.files, imported.files);
    QCOMPARE(read.summary.lines, imported.lines);
    QCOMPARE(read.summary.records, imported.records);
    QCOMPARE(read.summary.responses, imported.responses);
    QCOMPARE(read.summary.cases, imported.cases);
    QCOMPARE(read.summary.malformed, imported.malformed);
    QCOMPARE(read.summary.skipped, imported.skipped);
    QVERIFY(imported.malformed > 0 && imported.skipped > 0); // the fixtures do have both
    QCOMPARE(describe(read.summary.problems), describe(imported.problems));
    QCOMPARE(read.summary.suite.row, 0); // nothing stored
    QCOMPARE(qsizetype(read.runs.size()), imported.runIds.size());
    QCOMPARE_JSON(read.manifest, imported.suite.manifest); // the schema documents included

    const Evaluation fromStore = evaluateStore(*ws.store);
    const Evaluation fromFiles = evaluateSobRecords(read);
    QVERIFY2(fromStore.ok(), qPrintable(fromStore.error));
    QVERIFY(fromFiles.ok());
    // Without field tallies (what `report --sob` asks): the same verdicts but for those, and the same report.
    EvaluationOptions noTallies;
    noTallies.fieldTallies = false;
    const Evaluation withoutTallies = evaluateSobRecords(read, noTallies);
    QCOMPARE(withoutTallies.records.size(), fromFiles.records.size());
    bool anyTallies = false;
    for (std::size_t i = 0; i < fromFiles.records.size(); ++i) {
        const Verdict& full = fromFiles.records[i].verdict;
        Verdict bare = withoutTallies.records[i].verdict;
        QVERIFY(!bare.fields);
        anyTallies = anyTallies || (full.fields && !full.fields->empty());
        bare.fields = full.fields;
        QCOMPARE(encodeVerdict(bare), encodeVerdict(full));
    }
    QVERIFY(anyTallies); // the fixtures have fields to tally
    const ReportText bareReport = writeReport(aggregate(withoutTallies.records, {}), "json");
    const ReportText fullReport = writeReport(aggregate(fromFiles.records, {}), "json");
    QVERIFY(bareReport.ok() && fullReport.ok());
    QCOMPARE(bareReport.text, fullReport.text);
    QCOMPARE(fromFiles.records.size(), fromStore.records.size());
    QCOMPARE(qint64(fromFiles.records.size()), imported.responses);
    QHash<qint64, qint64> runPlace; // the store's run id → its place + 1, as the files' records name runs
    for (qsizetype i = 0; i < imported.runIds.size(); ++i)
        runPlace.insert(imported.runIds.at(i), i + 1);
    qint64 firstCaseRow = std::numeric_limits<qint64>::max();
    for (std::size_t i = 0; i < fromStore.records.size(); ++i)
        firstCaseRow = std::min(firstCaseRow, fromStore.records[i].caseRow);
    const auto describeRecord = [](const ScoredRecord& r, qint64 run, qint64 caseRow) {
        const auto opt = [](const std::optional<double>& v) { return v ? QString::number(*v) : u"-"_s; };
        return QStringList { r.suite, r.model, r.strategy, QString::number(run), r.caseId, QString::number(caseRow),
            QString::number(r.repeat), r.category, r.tier, r.sourceKind, r.modality, QString::number(r.weight),
            opt(r.latencyMs), opt(r.cost), r.simulated ? u"sim"_s : u"-"_s, QString::number(r.scorerVersion),
            QString::fromLatin1(QByteArray::fromStdString(encodeVerdict(r.verdict)).toHex()) }
            .join(u" | "_s);
    };
    int differentVerdicts = 0;
    for (std::size_t i = 0; i < fromStore.records.size(); ++i) {
        const ScoredRecord& stored = fromStore.records[i];
        const ScoredRecord& file = fromFiles.records[i];
        // A new store numbers its case rows in record-id order, from wherever its rows start.
        QCOMPARE(describeRecord(file, file.runId, file.caseRow),
            describeRecord(stored, runPlace.value(stored.runId), stored.caseRow - firstCaseRow + 1));
        QCOMPARE(file.responseId, 0);
        if (i > 0 && encodeVerdict(file.verdict) != encodeVerdict(fromFiles.records[i - 1].verdict))
            ++differentVerdicts;
    }
    QVERIFY(differentVerdicts > 5); // not one verdict for everything
    // And the same report from both.
    AggregateOptions options;
    options.bootstrap.resamples = 50;
    QCOMPARE(QString::fromStdString(writeReport(aggregate(fromFiles.records, options), "json").text),
        QString::fromStdString(writeReport(aggregate(fromStore.records, options), "json").text));
}

void TestImport::sobSchemaIsFoundByItsBytes_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QByteArray>("schema"); // the bytes of input.json_schema's value; empty: not found
    QTest::newRow("plain") << R"({"input": {"context": "c", "json_schema": {"type": "object"}}, "output": {}})"_ba
                           << R"({"type": "object"})"_ba;
    QTest::newRow("BOM, spaces, tabs")
        << "\xEF\xBB\xBF \t{ \"input\" :\t{ \"json_schema\"  :  [1, {\"a\": \"}]\"}]\n } }"_ba
        << "[1, {\"a\": \"}]\"}]"_ba; // a raw string would throw moc off
    QTest::newRow("quotes, braces and backslashes in strings")
        << R"({"input": {"context": "say \"}\" {[ \\", "json_schema": {"pattern": "^\\d+\"$"}}})"_ba
        << R"({"pattern": "^\\d+\"$"})"_ba;
    QTest::newRow("the last input counts")
        << R"({"input": {"json_schema": 1}, "output": {}, "input": {"json_schema": 2}})"_ba
        << "2"_ba;
    QTest::newRow("the last json_schema counts")
        << R"({"input": {"json_schema": {"a": 1}, "context": "x", "json_schema": true}})"_ba
        << "true"_ba;
    QTest::newRow("a string") << R"({"input": {"json_schema": "see \"attachment\""}})"_ba
                              << "\"see \\\"attachment\\\"\""_ba; // a raw string ending in a quote throws moc off
    QTest::newRow("a number") << R"({"input": {"json_schema": -12.5e3 }})"_ba
                              << "-12.5e3"_ba;
    QTest::newRow("input inside another member")
        << R"({"metadata": {"input": {"json_schema": 1}}, "input": {"json_schema": 2}})"_ba
        << "2"_ba;
    QTest::newRow("no object") << R"([{"input": {"json_schema": 1}}])"_ba << QByteArray();
    QTest::newRow("input not an object") << R"({"input": "json_schema"})"_ba << QByteArray();
    QTest::newRow("no schema") << R"({"input": {"context": "json_schema"}})"_ba << QByteArray();
    QTest::newRow("an escaped top-level key") << R"({"inp\u0075t": {"json_schema": 1}})"_ba << QByteArray();
    QTest::newRow("an escape in another key") << R"({"a\"b": 0, "input": {"json_schema": 1}})"_ba << QByteArray();
    QTest::newRow("an escaped key in input")
        << R"({"input": {"json_schema": 1, "json\u005fschema": 2}})"_ba << QByteArray();
    QTest::newRow("a string that does not end") << R"({"input": {"json_schema": "abc}})"_ba << QByteArray();
    QTest::newRow("cut short") << R"({"input": {"json_schema": {"a": 1})"_ba << QByteArray();
}

void TestImport::sobSchemaIsFoundByItsBytes()
{
    QFETCH(QByteArray, line);
    QFETCH(QByteArray, schema);
    const std::string_view text(line.constData(), std::size_t(line.size()));
    const std::optional<sobdetail::ValueSpan> span = sobdetail::findSchemaSpan(text);
    json record;
    sobdetail::ValueSpan apart;
    if (schema.isEmpty()) {
        QVERIFY(!span);
        QVERIFY(!sobdetail::parseWithoutSchema(text, 512, 1 << 20, record, apart));
        QVERIFY(record.is_null());
        return;
    }
    QVERIFY(span);
    QCOMPARE(QByteArray(line.constData() + span->begin, qsizetype(span->end - span->begin)), schema);
    // Parsed apart and put back together, it is the line's value.
    QVERIFY(sobdetail::parseWithoutSchema(text, 512, 1 << 20, record, apart));
    QCOMPARE(apart.begin, span->begin);
    QCOMPARE(apart.end, span->end);
    QVERIFY(record.at("input").at("json_schema").is_null());
    json value;
    QVERIFY(parseJsonText(std::string_view(schema.constData(), std::size_t(schema.size())), 510, value).ok);
    record["input"]["json_schema"] = value;
    json whole;
    std::string error;
    QVERIFY2(parseJsonDocument(text, whole, error), error.c_str());
    QVERIFY(identicalJson(record, whole));
    // Too little depth left for the schema: not parsed apart.
    QVERIFY(!sobdetail::parseWithoutSchema(text, 1, 1 << 20, record, apart));
}

void TestImport::sobGoldIsFoundByItsBytes_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QByteArray>("gold"); // the bytes of output.ground_truth's value; empty: left in the record
    const QByteArray schema = R"("input": {"json_schema": {"type": "object"}})";
    QTest::newRow("after the input") << R"({)" + schema + R"(, "output": {"ground_truth": {"a": [1, "}"]}}})"
                                     << R"({"a": [1, "}"]})"_ba;
    QTest::newRow("before the input") << R"({"output": {"candidate_response": "{", "ground_truth": null}, )" + schema
            + "}"
                                      << "null"_ba;
    QTest::newRow("the last ground_truth counts")
        << R"({)" + schema + R"(, "output": {"ground_truth": 1, "ground_truth": {"b": 2}}})"
        << R"({"b": 2})"_ba;
    QTest::newRow("the last output counts")
        << R"({"output": {"ground_truth": 1}, )" + schema + R"(, "output": {"ground_truth": 2}})"
        << "2"_ba;
    QTest::newRow("no output") << R"({)" + schema + "}" << QByteArray();
    QTest::newRow("no ground truth") << R"({)" + schema + R"(, "output": {"candidate_response": 1}})" << QByteArray();
    QTest::newRow("an escaped key in output")
        << R"({)" + schema + R"(, "output": {"ground\u005ftruth": 1}})" << QByteArray();
}

void TestImport::sobGoldIsFoundByItsBytes()
{
    QFETCH(QByteArray, line);
    QFETCH(QByteArray, gold);
    const std::string_view text(line.constData(), std::size_t(line.size()));
    json record;
    sobdetail::ValueSpan schema;
    std::optional<sobdetail::ValueSpan> goldSpan;
    QVERIFY(sobdetail::parseWithoutSchema(text, 512, 1 << 20, record, schema, &goldSpan));
    QVERIFY(record.at("input").at("json_schema").is_null());
    json whole;
    std::string error;
    QVERIFY2(parseJsonDocument(text, whole, error), error.c_str());
    record["input"]["json_schema"] = whole.at("input").at("json_schema");
    if (gold.isEmpty()) {
        QVERIFY(!goldSpan);
        QVERIFY(!sobdetail::findGoldSpan(text));
    } else {
        QVERIFY(goldSpan);
        QCOMPARE(QByteArray(line.constData() + goldSpan->begin, qsizetype(goldSpan->end - goldSpan->begin)), gold);
        QVERIFY(record.at("output").at("ground_truth").is_null());
        json value;
        QVERIFY(parseJsonText(std::string_view(gold.constData(), std::size_t(gold.size())), 510, value).ok);
        record["output"]["ground_truth"] = value;
    }
    // Put back together, it is the line's value.
    QVERIFY(identicalJson(record, whole));
    // Without asking for the gold, it stays in the record.
    QVERIFY(sobdetail::parseWithoutSchema(text, 512, 1 << 20, record, schema));
    if (whole.contains("output") && whole.at("output").contains("ground_truth"))
        QCOMPARE_JSON(record.at("output").at("ground_truth"), whole.at("output").at("ground_truth"));
}

void TestImport::sobGoldOfOneTextIsOneGold()
{
    // Every model's file carries each case's gold again: one text is parsed once, and another text of the same value
    // (spaces, key order) is no conflict. Two cases with the same gold each get it, in a store and without one.
    const auto line = [](const char* id, const char* model, const char* gold) -> QByteArray {
        return QByteArray(R"({"metadata": {"record_id": ")") + id + R"(", "model_id": ")" + model
            + R"("}, "input": {"context": "c", "json_schema": {"type": "object"}}, "output": {"candidate_response": )"
            + gold + R"(, "ground_truth": )" + gold + "}}\n";
    };
    const char* gold = R"({"a": 1, "b": [true, null]})";
    Workspace ws;
    const QString path = ws.write(u"golds.jsonl"_s,
        line("x", "m", gold) + line("y", "m", gold) + line("x", "n", R"({"b":[true,null],"a":1})")
            + line("y", "n", gold) + line("x", "o", R"({"a": 2, "b": [true, null]})"));
    const ImportSummary imported = importSobFiles(*ws.store, { path });
    const SobRecords read = readSobFiles({ path });
    for (const ImportSummary* s : { &imported, &read.summary }) {
        QCOMPARE(s->records, 4);
        QCOMPARE(s->skipped, 1);
        QCOMPARE(s->problems.size(), 1);
        QCOMPARE(s->problems.at(0).line, 5);
        QVERIFY2(s->problems.at(0).message.contains(u"another ground truth"_s), qPrintable(describe(s->problems)));
    }
    const QList<CaseRow> cases = ws.cases(imported.suite.row);
    QCOMPARE(cases.size(), 2);
    QCOMPARE(read.cases.size(), std::size_t(2));
    for (int i = 0; i < 2; ++i) {
        QCOMPARE_JSON(ws.gold(cases.at(i).row), j(gold));
        QCOMPARE_JSON(read.cases.at(std::size_t(i)).gold, j(gold));
    }
}

void TestImport::sobLineWhoseSchemaDoesNotParseIsReportedAsTheLine()
{
    // Only the schema's bytes are broken: the rest parses with them apart, but the line is no JSON, and the
    // problem says where, as for any broken line.
    const QByteArray good = sobLine(u"good"_s);
    const QByteArray bad
        = R"({"metadata": {"record_id": "bad", "model_id": "m"}, "input": {"json_schema": {"type": "object", "properties": {"a": }}}, "output": {"ground_truth": {}}})"_ba;
    Workspace ws;
    const QString path = ws.write(u"broken-schema.jsonl"_s, good + '\n' + bad + '\n');
    json ignored;
    Problems expected;
    QVERIFY(!parseImportLine(
        std::string_view(bad.constData(), std::size_t(bad.size())), path, 2, ImportLimits {}, ignored, expected));
    QCOMPARE(expected.size(), 1);
    const ImportSummary imported = importSobFiles(*ws.store, { path });
    const SobRecords read = readSobFiles({ path });
    for (const ImportSummary* s : { &imported, &read.summary }) {
        QCOMPARE(s->malformed, 1);
        QCOMPARE(s->records, 1);
        QCOMPARE(describe(s->problems), describe(expected));
    }
    QVERIFY(describe(expected).contains(u"not a JSON line"_s));
}

void TestImport::sobReadWithoutAStoreCanBeCancelled()
{
    Workspace ws;
    QByteArray lines;
    for (int i = 1; i <= 3000; ++i)
        lines += sobLine(u"r%1"_s.arg(i)) + '\n';
    const QString path = ws.write(u"many.jsonl"_s, lines);
    SobImportOptions options;
    int calls = 0;
    options.progress = [&calls](qint64 done, qint64 total) {
        ++calls;
        return done < total / 3;
    };
    const SobRecords read = readSobFiles({ path }, options);
    QVERIFY(read.summary.cancelled);
    QVERIFY(calls > 0);
    QVERIFY(read.responses.empty());
    QVERIFY(read.cases.empty());
    // Uncancelled, the progress reaches the files' size once (no second pass of storing).
    qint64 last = 0;
    qint64 total = 0;
    options.progress = [&last, &total](qint64 done, qint64 all) {
        last = done;
        total = all;
        return true;
    };
    const SobRecords all = readSobFiles({ path }, options);
    QVERIFY(!all.summary.cancelled);
    QCOMPARE(qint64(all.responses.size()), 3000);
    QCOMPARE(total, QFileInfo(path).size());
    QCOMPARE(last, total);
    // Scoring stops between chunks when told to.
    std::atomic_bool stop = true;
    EvaluationOptions cancelled;
    cancelled.cancel = &stop;
    QVERIFY(evaluateSobRecords(all, cancelled).cancelled);
}

void TestImport::sobTooLongLineIsSkipped()
{
    Workspace ws;
    const QString path
        = ws.write(u"long.jsonl"_s, QByteArray(5000, 'x') + '\n' + sobLine(u"a"_s) + "\n\n   \n" + sobLine(u"b"_s));
    SobImportOptions options;
    options.limits.maxLineBytes = 1000;
    const ImportSummary s = importSobFiles(*ws.store, { path }, options);
    QVERIFY(s.ok());
    QCOMPARE(s.lines, 3);
    QCOMPARE(s.malformed, 1);
    QCOMPARE(s.records, 2);
    QCOMPARE(describe(s.problems), path + u":1: the line is longer than 1000 bytes; skipped"_s);
}

void TestImport::sobUnreadableFileDoesNotStopTheOthers()
{
    Workspace ws;
    const QString missing = ws.dir.filePath(u"missing.jsonl"_s);
    const ImportSummary s = importSobFiles(*ws.store, { missing, sob(u"response_model-b.jsonl"_s) });
    QVERIFY(s.ok());
    QCOMPARE(s.files, 2);
    QCOMPARE(s.records, 4);
    QCOMPARE(s.problems.size(), 1);
    QCOMPARE(s.problems.at(0).file, missing);
    QCOMPARE(s.problems.at(0).line, 0);
    QVERIFY(s.problems.at(0).message.startsWith(u"cannot open the file: "_s));
}

void TestImport::sobSameFileTwiceIsReadOnce()
{
    Workspace ws;
    const QString a = sob(u"response_model-b.jsonl"_s);
    const QString sameViaDots = data(u"sob/../sob/response_model-b.jsonl"_s);
    const ImportSummary s = importSobFiles(*ws.store, { a, sameViaDots });
    QVERIFY(s.ok());
    QCOMPARE(s.files, 2);
    QCOMPARE(s.records, 4);
    QCOMPARE(s.runIds.size(), 1);
    QCOMPARE(describe(s.problems), sameViaDots + u": warning: the same file is named again; it is read once"_s);
}

void TestImport::sobNothingValidStoresNothing()
{
    Workspace ws;
    const QString path = ws.write(u"junk.jsonl"_s, "junk\n[]\n");
    const ImportSummary s = importSobFiles(*ws.store, { path });
    QVERIFY(s.ok());
    QCOMPARE(s.malformed, 2);
    QCOMPARE(s.suite.row, 0);
    QVERIFY(s.runIds.isEmpty());
    QCOMPARE(ws.store->suites()->size(), 0);
}

void TestImport::sobCancelWhileReadingStoresNothing()
{
    Workspace ws;
    SobImportOptions options;
    int calls = 0;
    options.progress = [&calls](qint64, qint64) { return ++calls < 2; };
    const ImportSummary s = importSobFiles(*ws.store, { sob(u"response_model-a.jsonl"_s) }, options);
    QVERIFY(s.cancelled);
    QVERIFY(!s.ok());
    QCOMPARE(calls, 2);
    QCOMPARE(ws.store->suites()->size(), 0);
    QCOMPARE(ws.runs().size(), 0);
}

void TestImport::sobCancelWhileWritingMarksRunsCancelled()
{
    Workspace ws;
    QByteArray lines;
    for (int i = 0; i < 10; ++i)
        lines += sobLine(u"r%1"_s.arg(i)) + '\n';
    const QString path = ws.write(u"ten.jsonl"_s, lines);
    SobImportOptions options;
    options.limits.batchSize = 4;
    qint64 total = 0;
    options.progress = [&total](qint64 done, qint64 all) {
        total = all;
        return done <= all / 2; // stop in the writing half
    };
    const ImportSummary s = importSobFiles(*ws.store, { path }, options);
    QVERIFY(s.cancelled);
    QCOMPARE(total, 2 * QFileInfo(path).size());
    QCOMPARE(s.responses, 4); // the first batch was committed before the stop
    QCOMPARE(ws.store->run(s.runIds.at(0))->status, RunStatus::Cancelled);
}

void TestImport::sobImportSpeed()
{
    // Records of about 3 KB, as SOB's are. 2,500 by default (three batches); set
    // STRUCTSCOPE_IMPORT_RECORDS=7000 in a release build to measure a full SOB text split.
    bool set = false;
    const int count = std::max(1, qEnvironmentVariableIntValue("STRUCTSCOPE_IMPORT_RECORDS", &set));
    const int records = set ? count : 2500;
    Workspace ws;
    QByteArray lines;
    const std::string context(2200, 'w');
    for (int i = 0; i < records; ++i) {
        json schema = { { "type", "object" }, { "properties", json::object() } };
        json gold = json::object();
        for (int k = 0; k < 12; ++k) {
            const std::string key = "field_" + std::to_string(k);
            schema["properties"][key] = { { "type", k % 2 ? "string" : "number" } };
            gold[key] = k % 2 ? json("value " + std::to_string(i)) : json(i * 0.5 + k);
        }
        const json record = { { "metadata",
                                  { { "record_id", "rec-" + std::to_string(i) }, { "model_id", "speed/model" },
                                      { "schema_complexity", "medium" } } },
            { "input", { { "context", context }, { "question", "Extract." }, { "json_schema", schema } } },
            { "output", { { "candidate_response", gold }, { "ground_truth", gold } } },
            { "eval_info", { { "latency_ms", i } } } };
        lines += QByteArray::fromStdString(record.dump()) + '\n';
    }
    const QString path = ws.write(u"speed.jsonl"_s, lines);
    QElapsedTimer timer;
    timer.start();
    const ImportSummary s = importSobFiles(*ws.store, { path });
    const qint64 ms = timer.elapsed();
    qInfo("imported %d SOB records (%.1f MB) in %lld ms", records, double(lines.size()) / 1e6, ms);
    QVERIFY(s.ok());
    QCOMPARE(s.cases, records);
    QCOMPARE(s.responses, records);
    QCOMPARE(ws.store->responseCount(s.runIds.at(0)).value(), records);
    const QList<ResponseRow> stored = ws.responses(s.runIds.at(0));
    QCOMPARE(stored.constLast().latencyMs, double(records - 1));
}

void TestImport::generic()
{
    const SuiteLoadResult loaded = loadSuiteDir(data(u"suite"_s));
    QVERIFY2(loaded.ok(), qPrintable(describe(loaded.problems)));
    Workspace ws;
    const QString file = data(u"results.jsonl"_s);
    const ImportSummary s = importJsonlFiles(*ws.store, *loaded.suite, { file });
    QVERIFY(s.ok());
    QCOMPARE(s.files, 1);
    QCOMPARE(s.lines, 7);
    QCOMPARE(s.records, 5);
    QCOMPARE(s.responses, 5);
    QCOMPARE(s.malformed, 1);
    QCOMPARE(s.skipped, 1);
    QCOMPARE(s.cases, 3);
    QCOMPARE(describe(s.problems),
        QStringList({ file + u":3: /case_id: case \"p-9\" is not in suite people; this line is skipped"_s,
                        file + u":7: /case_id: missing: no case id (field \"case_id\")"_s,
                        file + u":8: warning: /latency_ms: must be a non-negative number, not \"fast\"; left out"_s,
                        file + u":8: warning: /tokens_out: must be a non-negative integer, not -3; left out"_s })
            .join(u'\n'));

    QVERIFY(s.suiteCreated);
    QCOMPARE(s.suite.id, u"people"_s);
    QCOMPARE(s.suite.contentHash, QString::fromLatin1(loaded.suite->contentHash));
    const QList<CaseRow> cases = ws.cases(s.suite.row);
    QCOMPARE(cases.size(), 3);
    QCOMPARE(cases.at(1).id, u"p-2"_s);
    QCOMPARE_JSON(
        cases.at(1).extra.at("schema"), j(R"({"type": "object", "properties": {"name": {"type": "string"}}})"));
    QCOMPARE_JSON(ws.gold(cases.at(2).row), j(R"({"name": null})"));

    const QList<RunRow> runs = ws.runs();
    QCOMPARE(runs.size(), 2);
    QCOMPARE(s.runIds, (QList<qint64> { runs.at(0).id, runs.at(1).id }));
    QCOMPARE(runs.at(0).modelSpec, u"gpt-x"_s);
    QCOMPARE(runs.at(0).strategy, u"P"_s);
    QCOMPARE(runs.at(0).repeats, 2);
    QCOMPARE(runs.at(1).modelSpec, u"llama"_s);
    QCOMPARE(runs.at(1).strategy, u"imported"_s);
    QCOMPARE(runs.at(1).repeats, 1);
    for (const RunRow& run : runs) {
        QCOMPARE(run.providerKind, u"import"_s);
        QCOMPARE_JSON(run.settings, j(R"({"import_format": "jsonl", "source_files": ["results.jsonl"]})"));
        QCOMPARE(run.status, RunStatus::Finished);
    }
    QCOMPARE(facts(ws, runs.at(0).id),
        (QStringList { fact("p-1", 0, u"{\"name\": \"Ann\", \"age\": 41}"_s, 812, 900, 120, 0.0004),
            fact("p-2", 0, u"```json\n{\"name\": \"Bo\"}\n```"_s), fact("p-1", 1, u"again"_s, {}, 900) }));
    QCOMPARE(facts(ws, runs.at(1).id),
        (QStringList { fact("p-1", 0, u"{\"name\":\"Ann\"}"_s), fact("p-3", 0, u"null"_s, {}, {}, {}, 0.0) }));
    QCOMPARE(ws.responses(runs.at(0).id).at(2).requestHash, sha256Hex(R"(["gpt-x","P","p-1",1])"));

    // The same file twice in one call is read once.
    Workspace twice;
    const ImportSummary once = importJsonlFiles(*twice.store, *loaded.suite, { file, file });
    QCOMPARE(once.records, 5);
    QCOMPARE(once.problems.size(), 5);
    QCOMPARE(once.problems.at(4).toString(), file + u": warning: the same file is named again; it is read once"_s);

    // Importing again reuses the suite and adds runs.
    const ImportSummary again = importJsonlFiles(*ws.store, *loaded.suite, { file });
    QVERIFY(!again.suiteCreated);
    QCOMPARE(again.suite.row, s.suite.row);
    QCOMPARE(ws.runs().size(), 4);
}

void TestImport::genericFieldMap()
{
    const SuiteLoadResult loaded = loadSuiteDir(data(u"suite"_s));
    QVERIFY(loaded.ok());
    Workspace ws;
    const QString file = data(u"mapped.jsonl"_s);
    QString error;
    const auto map = structscope::parseFieldMap(
        uR"({"case_id": "id", "model": "/meta/model", "response": "output.text", "strategy": "meta.mode",
                 "tokens_in": "usage.in", "tokens_out": "/usage/out", "latency_ms": "ms"})"_s,
        &error);
    QVERIFY2(map, qPrintable(error));
    JsonlImportOptions options;
    options.fields = *map;
    options.strategy = u"P"_s;
    const ImportSummary s = importJsonlFiles(*ws.store, *loaded.suite, { file }, options);
    QVERIFY(s.ok());
    QCOMPARE(s.records, 2);
    QCOMPARE(s.malformed, 1);
    QCOMPARE(describe(s.problems), file + u":2: /output/text: missing: no response (field \"output.text\")"_s);
    const QList<RunRow> runs = ws.runs();
    QCOMPARE(runs.size(), 2);
    QCOMPARE(runs.at(0).modelSpec, u"m/one"_s);
    QCOMPARE(runs.at(0).strategy, u"J+"_s);
    QCOMPARE(runs.at(1).strategy, u"P"_s);
    QCOMPARE(facts(ws, runs.at(0).id), QStringList { fact("p-2", 0, u"{\"name\": \"Bo\"}"_s, 33.5, 5, 7) });
    QCOMPARE(facts(ws, runs.at(1).id), QStringList { fact("p-3", 0, u"{\"name\": null}"_s) });
}

void TestImport::genericMalformedLine_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("expected"); // the problem, without "file:line: "

    QTest::addRow("not JSON") << QByteArray("{\"case_id\"") << u"not a JSON line: "_s;
    QTest::addRow("array") << QByteArray("[]") << u"a result line is a JSON object, not array"_s;
    QTest::addRow("no case id") << QByteArray(R"({"model": "m", "response": "r"})")
                                << u"/case_id: missing: no case id (field \"case_id\")"_s;
    QTest::addRow("null case id") << QByteArray(R"({"case_id": null, "model": "m", "response": "r"})")
                                  << u"/case_id: the case id must be a non-empty string"_s;
    QTest::addRow("object case id") << QByteArray(R"({"case_id": {}, "model": "m", "response": "r"})")
                                    << u"/case_id: the case id must be a non-empty string"_s;
    QTest::addRow("empty case id") << QByteArray(R"({"case_id": "", "model": "m", "response": "r"})")
                                   << u"/case_id: the case id must be a non-empty string"_s;
    QTest::addRow("no model") << QByteArray(R"({"case_id": "p-1", "response": "r"})")
                              << u"/model: missing: no model (field \"model\")"_s;
    QTest::addRow("numeric model") << QByteArray(R"({"case_id": "p-1", "model": 3, "response": "r"})")
                                   << u"/model: the model must be a non-empty string"_s;
    QTest::addRow("no response") << QByteArray(R"({"case_id": "p-1", "model": "m"})")
                                 << u"/response: missing: no response (field \"response\")"_s;
    QTest::addRow("unknown case") << QByteArray(R"({"case_id": 1, "model": "m", "response": "r"})")
                                  << u"/case_id: case \"1\" is not in suite people; this line is skipped"_s;
    QTest::addRow("invalid UTF-8") << QByteArray("{\"case_id\": \"p-1\", \"model\": \"m\xc3\", \"response\": \"r\"}")
                                   << u"not a JSON line: "_s;
}

void TestImport::genericMalformedLine()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, expected);
    const SuiteLoadResult loaded = loadSuiteDir(data(u"suite"_s));
    QVERIFY(loaded.ok());
    Workspace ws;
    const QString path
        = ws.write(u"lines.jsonl"_s, line + "\n" + R"({"case_id": "p-2", "model": "m", "response": "fine"})");
    const ImportSummary s = importJsonlFiles(*ws.store, *loaded.suite, { path });
    QVERIFY(s.ok());
    QCOMPARE(s.malformed + s.skipped, 1);
    QCOMPARE(s.records, 1);
    QCOMPARE(s.responses, 1);
    QCOMPARE(s.problems.size(), 1);
    const Problem& p = s.problems.at(0);
    QCOMPARE(p.file, path);
    QCOMPARE(p.line, 1);
    const QString problem = (p.pointer.isEmpty() ? QString() : p.pointer + u": "_s) + p.message;
    QVERIFY2(problem.startsWith(expected), qPrintable(p.toString()));
}

void TestImport::genericOptionalFields_data()
{
    QTest::addColumn<QByteArray>("fields");
    QTest::addColumn<QString>("stored");
    QTest::addColumn<QString>("warning"); // empty: none

    QTest::addRow("none") << QByteArray() << fact("p-1", 0, u"r"_s) << QString();
    QTest::addRow("float latency") << QByteArray(R"(, "latency_ms": 12.5)") << fact("p-1", 0, u"r"_s, 12.5)
                                   << QString();
    QTest::addRow("negative latency") << QByteArray(R"(, "latency_ms": -1)") << fact("p-1", 0, u"r"_s)
                                      << u"/latency_ms: must be a non-negative number, not -1; left out"_s;
    QTest::addRow("latency as text") << QByteArray(R"(, "latency_ms": "12")") << fact("p-1", 0, u"r"_s)
                                     << u"/latency_ms: must be a non-negative number, not \"12\"; left out"_s;
    QTest::addRow("integral float tokens")
        << QByteArray(R"(, "tokens_in": 3.0, "tokens_out": 0)") << fact("p-1", 0, u"r"_s, {}, 3, 0) << QString();
    QTest::addRow("fractional tokens") << QByteArray(R"(, "tokens_in": 3.5)") << fact("p-1", 0, u"r"_s)
                                       << u"/tokens_in: must be a non-negative integer, not 3.5; left out"_s;
    QTest::addRow("huge tokens") << QByteArray(R"(, "tokens_out": 1e300)") << fact("p-1", 0, u"r"_s)
                                 << u"/tokens_out: must be a non-negative integer, not 1e+300; left out"_s;
    QTest::addRow("zero cost") << QByteArray(R"(, "cost": 0)") << fact("p-1", 0, u"r"_s, {}, {}, {}, 0.0) << QString();
    QTest::addRow("null cost") << QByteArray(R"(, "cost": null)") << fact("p-1", 0, u"r"_s) << QString();
    QTest::addRow("cost as object") << QByteArray(R"(, "cost": {"usd": 1})") << fact("p-1", 0, u"r"_s)
                                    << u"/cost: must be a non-negative number, not {\"usd\":1}; left out"_s;
    QTest::addRow("numeric strategy") << QByteArray(R"(, "strategy": 5)") << fact("p-1", 0, u"r"_s)
                                      << u"/strategy: the strategy must be a non-empty string; using \"imported\""_s;
}

void TestImport::genericOptionalFields()
{
    QFETCH(QByteArray, fields);
    QFETCH(QString, stored);
    QFETCH(QString, warning);
    const SuiteLoadResult loaded = loadSuiteDir(data(u"suite"_s));
    QVERIFY(loaded.ok());
    Workspace ws;
    const QString path = ws.write(u"one.jsonl"_s, R"({"case_id": "p-1", "model": "m", "response": "r")" + fields + "}");
    const ImportSummary s = importJsonlFiles(*ws.store, *loaded.suite, { path });
    QVERIFY(s.ok());
    QCOMPARE(s.records, 1);
    QCOMPARE(facts(ws, s.runIds.at(0)), QStringList { stored });
    QCOMPARE(ws.store->run(s.runIds.at(0))->strategy, u"imported"_s);
    QCOMPARE(describe(s.problems), warning.isEmpty() ? QString() : path + u":1: warning: "_s + warning);
}

void TestImport::genericProblemPointsAtALiteralDottedKey()
{
    const SuiteLoadResult loaded = loadSuiteDir(data(u"suite"_s));
    QVERIFY(loaded.ok());
    Workspace ws;
    const QString path = ws.write(u"dotted.jsonl"_s,
        R"({"case_id": "p-1", "meta.name": 5, "meta": {"name": "nested"}, "response": "r"})"
        "\n"
        R"({"case_id": "p-1", "meta": {"name": 6}, "response": "r"})");
    JsonlImportOptions options;
    QVERIFY(options.fields.set(u"model"_s, u"meta.name"_s));
    const ImportSummary s = importJsonlFiles(*ws.store, *loaded.suite, { path }, options);
    QCOMPARE(s.malformed, 2);
    QCOMPARE(describe(s.problems),
        path % u":1: /meta.name: the model must be a non-empty string\n"_s % path
            % u":2: /meta/name: the model must be a non-empty string"_s);
}

void TestImport::genericCancelWhileCheckingStoresNothing()
{
    const SuiteLoadResult loaded = loadSuiteDir(data(u"suite"_s));
    QVERIFY(loaded.ok());
    Workspace ws;
    JsonlImportOptions options;
    options.progress = [](qint64, qint64) { return false; };
    const ImportSummary s = importJsonlFiles(*ws.store, *loaded.suite, { data(u"results.jsonl"_s) }, options);
    QVERIFY(s.cancelled);
    QCOMPARE(ws.store->suites()->size(), 0);
}

void TestImport::genericInvalidFieldMapIsReported()
{
    const SuiteLoadResult loaded = loadSuiteDir(data(u"suite"_s));
    QVERIFY(loaded.ok());
    Workspace ws;
    JsonlImportOptions options;
    options.fields.response = u"a..b"_s;
    const ImportSummary s = importJsonlFiles(*ws.store, *loaded.suite, { data(u"results.jsonl"_s) }, options);
    QCOMPARE(s.records, 0);
    QCOMPARE(describe(s.problems), u"<input>: field map: \"a..b\" is not a valid dotted path (empty segment)"_s);
    QCOMPARE(ws.store->suites()->size(), 0);
}

void TestImport::parseFieldMap_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("caseId"); // or "error: <start of message>"
    QTest::addColumn<QString>("response");

    QTest::addRow("empty keeps defaults") << QString() << u"case_id"_s << u"response"_s;
    QTest::addRow("pairs") << u"case_id=id, response = output.text"_s << u"id"_s << u"output.text"_s;
    QTest::addRow("json") << uR"({"case_id": "/meta/id", "response": "choices.0.text"})"_s << u"/meta/id"_s
                          << u"choices.0.text"_s;
    QTest::addRow("unknown field") << u"foo=bar"_s << u"error: field map: unknown field \"foo\""_s << QString();
    QTest::addRow("no equals sign") << u"case_id"_s << u"error: field map: \"case_id\" is not field=path"_s
                                    << QString();
    QTest::addRow("empty path") << u"case_id="_s << u"error: field map: field \"case_id\": an empty field path"_s
                                << QString();
    QTest::addRow("empty segment") << u"response=a..b"_s
                                   << u"error: field map: field \"response\": \"a..b\" is not a valid dotted"_s
                                   << QString();
    QTest::addRow("bad pointer escape") << u"model=/a/~2"_s
                                        << u"error: field map: field \"model\": \"/a/~2\" is not a valid JSON pointer"_s
                                        << QString();
    QTest::addRow("json non-string path")
        << uR"({"case_id": 3})"_s << u"error: field map: the path of \"case_id\" must be a string"_s << QString();
    QTest::addRow("broken json") << uR"({"case_id": )"_s << u"error: field map: not valid JSON: "_s << QString();
}

void TestImport::parseFieldMap()
{
    QFETCH(QString, text);
    QFETCH(QString, caseId);
    QFETCH(QString, response);
    QString error;
    const auto map = structscope::parseFieldMap(text, &error);
    if (caseId.startsWith(u"error: "_s)) {
        QVERIFY(!map);
        QVERIFY2(error.startsWith(caseId.mid(7)), qPrintable(error));
        return;
    }
    QVERIFY2(map, qPrintable(error));
    QCOMPARE(map->caseId, caseId);
    QCOMPARE(map->response, response);
    QCOMPARE(map->model, u"model"_s);
}

void TestImport::findField_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expected"); // dump of the value, or "absent"

    QTest::addRow("top level") << u"top"_s << u"1"_s;
    QTest::addRow("dotted") << u"a.b.1.c"_s << u"\"x\""_s;
    QTest::addRow("pointer") << u"/a/b/1/c"_s << u"\"x\""_s;
    QTest::addRow("index past the end") << u"a.b.2"_s << u"absent"_s;
    QTest::addRow("index with leading zero") << u"a.b.01"_s << u"absent"_s;
    QTest::addRow("negative index") << u"a.b.-1"_s << u"absent"_s;
    QTest::addRow("missing key") << u"a.x"_s << u"absent"_s;
    QTest::addRow("through a number") << u"a.b.0.c"_s << u"absent"_s;
    QTest::addRow("object value") << u"a.b.1"_s << u"{\"c\":\"x\"}"_s;
    QTest::addRow("literal dotted key wins") << u"d.e"_s << u"\"literal\""_s;
    QTest::addRow("pointer escapes") << u"/s~1l/t~0"_s << u"2"_s;
    QTest::addRow("pointer to the empty key") << u"/"_s << u"3"_s;
    QTest::addRow("empty path") << QString() << u"absent"_s;
}

void TestImport::findField()
{
    QFETCH(QString, path);
    QFETCH(QString, expected);
    const json root = j(R"({"top": 1, "a": {"b": [10, {"c": "x"}]}, "d.e": "literal", "d": {"e": "nested"},
                               "s/l": {"t~": 2}, "": 3})");
    const json* found = structscope::findField(root, path);
    QCOMPARE(found ? QString::fromStdString(found->dump()) : u"absent"_s, expected);
}

QTEST_GUILESS_MAIN(TestImport)
#include "tst_import.moc"
