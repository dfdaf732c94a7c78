// SPDX-License-Identifier: Apache-2.0
// serve-sim in process: its model lists, both chat APIs (streaming too) through the runner, case
// recognition by header and by text, minimal instances for unknown prompts, bad requests, faults.
#include "suitefixtures.h"

#include "providers/errorkind.h"
#include "providers/providerrequest.h"
#include "report/aggregator.h"
#include "report/evaluation.h"
#include "report/reportwriter.h"
#include "run/runner.h"
#include "sim/minimalinstance.h"
#include "sim/simprofile.h"
#include "sim/simserver.h"
#include "sim/simulator.h"
#include "store/resultstore.h"
#include "suite/suiteloader.h"
#include "suite/suitelocator.h"
#include "util/printable.h"

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSet>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace structscope;
using nlohmann::json;

namespace {

struct HttpResult
{
    int status = 0;
    QByteArray body;
    QByteArray retryAfter;
};

HttpResult http(
    const QString& url, const QByteArray& body = {}, const QList<std::pair<QByteArray, QByteArray>>& headers = {})
{
    QNetworkAccessManager nam;
    QNetworkRequest request { QUrl(url) };
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    for (const auto& [name, value] : headers)
        request.setRawHeader(name, value);
    QNetworkReply* reply = body.isEmpty() ? nam.get(request) : nam.post(request, body);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!finished.wait(10000))
        return {};
    HttpResult result { reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), reply->readAll(),
        reply->rawHeader("Retry-After") };
    delete reply;
    return result;
}

QByteArray chatBody(const QString& model, const QString& user, const json& responseFormat = json())
{
    json body = { { "model", model.toStdString() },
        { "messages", { { { "role", "user" }, { "content", user.toStdString() } } } } };
    if (!responseFormat.is_null())
        body["response_format"] = responseFormat;
    return QByteArray::fromStdString(body.dump());
}

// What a raw client got: everything the server wrote until it closed the connection (or the wait ran out).
struct RawResult
{
    QByteArray received;
    bool closedByServer = false;

    int status() const
    {
        const QList<QByteArray> first = received.left(received.indexOf("\r\n")).split(' ');
        return first.size() >= 2 ? first[1].toInt() : 0;
    }
};

// Sends `parts` on one connection, waiting `gapMs` between them, then reads until the server closes or
// `waitMs` have passed. The server runs on this thread, so waiting spins the event loop.
RawResult rawExchange(quint16 port, const QList<QByteArray>& parts, int gapMs, int waitMs)
{
    RawResult result;
    QTcpSocket socket;
    QObject::connect(&socket, &QTcpSocket::readyRead, &socket, [&] { result.received += socket.readAll(); });
    QObject::connect(&socket, &QTcpSocket::disconnected, &socket, [&] { result.closedByServer = true; });
    socket.connectToHost(QHostAddress::LocalHost, port);
    QElapsedTimer clock;
    clock.start();
    while (socket.state() != QAbstractSocket::ConnectedState && clock.elapsed() < 5000)
        QTest::qWait(5);
    for (const QByteArray& part : parts) {
        if (result.closedByServer)
            break;
        socket.write(part);
        QTest::qWait(gapMs);
    }
    clock.restart();
    while (!result.closedByServer && clock.elapsed() < waitMs)
        QTest::qWait(10);
    result.received += socket.readAll();
    return result;
}

QByteArray postHead(const QByteArray& path, qint64 length, const QByteArray& extra = {})
{
    return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
        + QByteArray::number(length) + "\r\n" + extra + "\r\n";
}

template <typename T> T take(StoreResult<T> result)
{
    return std::move(result).value();
}

} // namespace

class TestServeSim : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    SuitePtr m_suite;
    int m_stores = 0;

private Q_SLOTS:
    void initTestCase();
    void modelLists();
    void runnerThroughServeSim_data();
    // The network path gives byte for byte the answers of the in-process simulation.
    void runnerThroughServeSim();
    void recognisesCasesByText();
    void unknownPromptsGetAMinimalInstance();
    void minimalInstances_data();
    void minimalInstances();
    void badRequests();
    void bodiesOverTheLimitAreRefusedUnread();
    void slowAndIdleClientsAreCutOff();
    void connectionsAreCapped();
    void malformedRequestsGetTheirStatus_data();
    void malformedRequestsGetTheirStatus();
    void keptAliveRequestsAreAnsweredInOrder();
    void logLinesArePrintable();
    void printableTextEscapes_data();
    void printableTextEscapes();
    void injectedFaultsAreSurvived();
    /// A faulty server is not a bad model: the oracle, asked once per slot (no retries) of a server that fails 30%
    /// of its requests in every way it knows, scores ladder.correct 1 on the slots it answered. n is those slots;
    /// the others are errored — each with the kind of its fault — and every report shows them.
    void faultsAreNotTheModels();
    /// 30% of over 5,000 requests fail in every way serve-sim knows. The run completes, every (case, repeat)
    /// ends with exactly one answer, and the retries add up to the requests the server saw.
    void thirtyPercentFaultsOverFiveThousandRequests();
};

void TestServeSim::initTestCase()
{
    const SuiteLoadResult loaded = loadSuite(goodSuite());
    QVERIFY(loaded.ok());
    m_suite = loaded.suite;
    qRegisterMetaType<RunStatus>();
}

void TestServeSim::modelLists()
{
    SimServer server;
    QVERIFY(server.listen());
    const HttpResult openai = http(u"http://127.0.0.1:%1/v1/models"_s.arg(server.port()));
    QCOMPARE(openai.status, 200);
    const json list = json::parse(openai.body.toStdString());
    QCOMPARE(qsizetype(list["data"].size()), simProfiles().size());
    QVERIFY(list["data"][0]["id"] == simProfiles().constFirst().name.toStdString());
    const HttpResult ollama = http(u"http://127.0.0.1:%1/api/tags"_s.arg(server.port()));
    QCOMPARE(ollama.status, 200);
    QCOMPARE(qsizetype(json::parse(ollama.body.toStdString())["models"].size()), simProfiles().size());
}

void TestServeSim::runnerThroughServeSim_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<bool>("stream");
    for (const char* provider : { "openai", "ollama" }) {
        for (const bool stream : { false, true })
            QTest::addRow("%s%s", provider, stream ? " stream" : "") << QString::fromLatin1(provider) << stream;
    }
}

void TestServeSim::runnerThroughServeSim()
{
    QFETCH(QString, provider);
    QFETCH(bool, stream);
    SimServer server;
    server.addSuite(m_suite);
    QVERIFY(server.listen());
    const QString base = u"http://127.0.0.1:%1"_s.arg(server.port());
    ModelSpec spec = *parseModelSpec(provider == u"openai"_s ? u"openai:sloppy@%1/v1;case_headers"_s.arg(base)
                                                             : u"ollama:sloppy@%1;case_headers"_s.arg(base));
    spec.stream = stream;
    QString error;
    auto store = ResultStore::open(m_tmp.filePath(u"s%1.db"_s.arg(++m_stores)), &error);
    QVERIFY2(store, qPrintable(error));
    Runner runner(*store);
    RunPlan plan;
    plan.suite = m_suite;
    plan.models = { spec };
    plan.strategies = allStrategies();
    plan.repeats = 2;
    plan.options.writerDelay = std::chrono::milliseconds(10);
    QSignalSpy finished(&runner, &Runner::finished);
    QVERIFY2(runner.start(plan, &error), qPrintable(error));
    QVERIFY(finished.wait(20000));
    const SimProfile* profile = findSimProfile(u"sloppy"_s);
    QHash<qint64, const SuiteCase*> byRow;
    for (const CaseRow& c : take(store->cases(runner.runs().constFirst().suiteRow)))
        byRow.insert(c.row, m_suite->findCase(c.id));
    for (const RunRow& run : runner.runs()) {
        const Strategy strategy = *strategyFromName(run.strategy);
        const auto responses = take(store->responses(run.id));
        QCOMPARE(responses.size(), m_suite->cases.size() * 2);
        for (const ResponseRow& r : responses) {
            QVERIFY2(r.errorKind.isEmpty(), qPrintable(r.errorMessage));
            const SimAnswer expected = simulateAnswer(*profile, *m_suite, *byRow.value(r.caseRow), strategy, r.repeat);
            QCOMPARE(r.rawText, expected.text);
            QCOMPARE(*r.tokensIn, expected.tokensIn);
            QCOMPARE(*r.tokensOut, expected.tokensOut);
            QCOMPARE(r.ttftMs.has_value(), stream);
        }
    }
    QCOMPARE(server.stats().requests, qint64(m_suite->cases.size() * 5 * 2));
    QCOMPARE(server.stats().unknownCases, 0);
    for (const SuiteCase& c : m_suite->cases)
        QCOMPARE(server.stats().perCase.value(c.id), 10);
    QCOMPARE(server.stats().inFlight, 0);
    QVERIFY(server.stats().maxInFlight >= 1 && server.stats().maxInFlight <= 4);
}

void TestServeSim::recognisesCasesByText()
{
    SimCatalog catalog;
    catalog.addSuite(m_suite);
    for (const SuiteCase& c : m_suite->cases) {
        for (const Strategy s : allStrategies()) {
            const Prompt prompt = buildPrompt(*m_suite, c, s);
            SimChatRequest request;
            request.messages = prompt.messages;
            request.jsonMode = prompt.jsonMode;
            request.schemaFormat = prompt.schemaAsFormat;
            const auto match = catalog.match(request);
            QVERIFY(match);
            QCOMPARE(match->c->id, c.id);
            QCOMPARE(match->strategy, s);
        }
    }
    SimChatRequest unknown;
    unknown.messages = { { u"user"_s, u"Tell me a joke"_s } };
    QVERIFY(!catalog.match(unknown));
    unknown.caseId = u"p-1"_s; // the header wins
    QCOMPARE(catalog.match(unknown)->c->id, u"p-1"_s);
}

void TestServeSim::unknownPromptsGetAMinimalInstance()
{
    SimServer server;
    server.addSuite(m_suite);
    QVERIFY(server.listen());
    const json format = { { "type", "json_schema" },
        { "json_schema",
            { { "name", "x" }, { "strict", true },
                { "schema",
                    { { "type", "object" }, { "required", { "name", "tags", "kind" } },
                        { "properties",
                            { { "name", { { "type", "string" } } }, { "tags", { { "type", "array" } } },
                                { "kind", { { "enum", { "a", "b" } } } },
                                { "optional", { { "type", "integer" } } } } } } } } } };
    const HttpResult result = http(u"http://127.0.0.1:%1/v1/chat/completions"_s.arg(server.port()),
        chatBody(u"careful"_s, u"What is the weather?"_s, format));
    QCOMPARE(result.status, 200);
    const json body = json::parse(result.body.toStdString());
    QVERIFY2(json::parse(body["choices"][0]["message"]["content"].get<std::string>())
            == json::parse("{\"name\": \"\", \"tags\": [], \"kind\": \"a\"}"),
        result.body.constData());
    const HttpResult plain
        = http(u"http://127.0.0.1:%1/v1/chat/completions"_s.arg(server.port()), chatBody(u"sim:oracle"_s, u"Hello"_s));
    QCOMPARE(plain.status, 200);
    QVERIFY(json::parse(plain.body.toStdString())["choices"][0]["message"]["content"] == "{}");
    QCOMPARE(server.stats().unknownCases, 2);
}

void TestServeSim::minimalInstances_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<QByteArray>("instance");
    QTest::addRow("empty") << QByteArray("{}") << QByteArray("{}");
    QTest::addRow("nullable") << QByteArray("{\"type\": \"object\", \"required\": [\"a\"], \"properties\": {\"a\": "
                                            "{\"type\": [\"string\", \"null\"]}}}")
                              << QByteArray("{\"a\": null}");
    QTest::addRow("numbers") << QByteArray(
        "{\"type\": \"object\", \"required\": [\"n\", \"i\"], \"properties\": {\"n\": {\"type\": \"number\", "
        "\"minimum\": 2.5}, \"i\": {\"type\": \"integer\", \"exclusiveMinimum\": 3}}}")
                             << QByteArray("{\"n\": 2.5, \"i\": 4}");
    QTest::addRow("array min items") << QByteArray("{\"type\": \"array\", \"minItems\": 2, \"items\": {\"const\": 7}}")
                                     << QByteArray("[7, 7]");
    QTest::addRow("ref") << QByteArray("{\"$ref\": \"#/$defs/p\", \"$defs\": {\"p\": {\"type\": \"object\", "
                                       "\"required\": [\"b\"], \"properties\": {\"b\": {\"type\": \"boolean\"}}}}}")
                         << QByteArray("{\"b\": false}");
    QTest::addRow("anyOf") << QByteArray(
        "{\"anyOf\": [{\"type\": \"string\", \"minLength\": 3}, {\"type\": \"null\"}]}")
                           << QByteArray("\"aaa\"");
    QTest::addRow("not a schema") << QByteArray("[1]") << QByteArray("{}");
}

void TestServeSim::minimalInstances()
{
    QFETCH(QByteArray, schema);
    QFETCH(QByteArray, instance);
    const json got = minimalInstance(json::parse(schema.toStdString()));
    QVERIFY2(got == json::parse(instance.toStdString()), got.dump().c_str());
}

void TestServeSim::badRequests()
{
    SimServer server;
    QVERIFY(server.listen());
    const QString url = u"http://127.0.0.1:%1"_s.arg(server.port());
    HttpResult r = http(url + u"/v1/chat/completions"_s, "{not json");
    QCOMPARE(r.status, 400);
    QVERIFY(r.body.contains("not a JSON object"));
    r = http(url + u"/v1/chat/completions"_s, "{\"model\": \"careful\", \"messages\": []}");
    QCOMPARE(r.status, 400);
    r = http(url + u"/api/chat"_s, chatBody(u"gpt-5"_s, u"hi"_s));
    QCOMPARE(r.status, 404);
    QVERIFY2(r.body.contains("model 'gpt-5' not found") && r.body.contains("oracle"), r.body.constData());
    QCOMPARE(server.stats().requests, 0);
}

void TestServeSim::bodiesOverTheLimitAreRefusedUnread()
{
    SimServer server;
    SimServerOptions options;
    options.limits.maxBodyBytes = 4096;
    server.setOptions(options);
    QVERIFY(server.listen());
    // A declared 600 MB body is refused from its headers: nothing of it is read or kept.
    const RawResult huge = rawExchange(server.port(), { postHead("/v1/chat/completions", 600'000'000) }, 0, 5000);
    QCOMPARE(huge.status(), 413);
    QVERIFY(huge.closedByServer);
    QVERIFY2(huge.received.contains("over the limit of 4096"), huge.received.constData());
    // A client that asks first is told at once, without sending the body.
    const RawResult asked
        = rawExchange(server.port(), { postHead("/v1/chat/completions", 5000, "Expect: 100-continue\r\n") }, 0, 5000);
    QCOMPARE(asked.status(), 413);
    QVERIFY(!asked.received.contains("100 Continue"));
    // Within the limit, "Expect: 100-continue" gets its go-ahead and then the answer.
    const QByteArray body = chatBody(u"careful"_s, u"hello"_s);
    const RawResult allowed = rawExchange(server.port(),
        { postHead("/v1/chat/completions", body.size(), "Expect: 100-continue\r\nConnection: close\r\n"), body }, 50,
        5000);
    QVERIFY2(allowed.received.startsWith("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK"),
        allowed.received.left(200).constData());
    QCOMPARE(server.httpCounters().tooLarge, 2);
    QCOMPARE(server.stats().requests, 1);
    // Through a real client: the error reaches it as a status, and the server goes on serving.
    QCOMPARE(http(u"http://127.0.0.1:%1/v1/chat/completions"_s.arg(server.port()), QByteArray(5000, ' ')).status, 413);
    QCOMPARE(http(u"http://127.0.0.1:%1/v1/models"_s.arg(server.port())).status, 200);
}

void TestServeSim::slowAndIdleClientsAreCutOff()
{
    SimServer server;
    SimServerOptions options;
    options.limits.headTimeoutMs = 300;
    options.limits.bodyTimeoutMs = 300;
    options.limits.idleTimeoutMs = 300;
    server.setOptions(options);
    QVERIFY(server.listen());
    // Headers dripped a byte at a time (slowloris): 408 once the header deadline passes, however busy.
    QList<QByteArray> drip;
    for (const char c : QByteArray("POST /v1/chat/completions HTTP/1.1\r\nX-Slow: "))
        drip << QByteArray(1, c);
    for (int i = 0; i < 100; ++i)
        drip << QByteArray("a");
    QElapsedTimer clock;
    clock.start();
    const RawResult slowHead = rawExchange(server.port(), drip, 20, 5000);
    QCOMPARE(slowHead.status(), 408);
    QVERIFY(slowHead.closedByServer);
    QVERIFY2(clock.elapsed() < 4000, qPrintable(QString::number(clock.elapsed())));
    // A body that never completes.
    const RawResult slowBody = rawExchange(server.port(), { postHead("/v1/chat/completions", 100), "{" }, 0, 5000);
    QCOMPARE(slowBody.status(), 408);
    QVERIFY(slowBody.closedByServer);
    // A connection that says nothing is closed without an answer.
    const RawResult idle = rawExchange(server.port(), {}, 0, 5000);
    QVERIFY(idle.closedByServer);
    QVERIFY(idle.received.isEmpty());
    QCOMPARE(server.httpCounters().timedOut, 3);
    QTRY_COMPARE(server.httpCounters().open, 0);
}

void TestServeSim::connectionsAreCapped()
{
    SimServer server;
    SimServerOptions options;
    options.limits.maxConnections = 3;
    server.setOptions(options);
    QVERIFY(server.listen());
    std::vector<std::unique_ptr<QTcpSocket>> held;
    for (int i = 0; i < 3; ++i) {
        held.push_back(std::make_unique<QTcpSocket>());
        held.back()->connectToHost(QHostAddress::LocalHost, server.port());
    }
    QTRY_COMPARE(server.httpCounters().open, 3);
    const RawResult refused = rawExchange(server.port(), { "GET /v1/models HTTP/1.1\r\n\r\n" }, 0, 5000);
    QCOMPARE(refused.status(), 503);
    QVERIFY(refused.received.contains("Retry-After: 1"));
    QCOMPARE(server.httpCounters().refused, 1);
    // Room again once a held connection goes.
    held.front()->disconnectFromHost();
    QTRY_COMPARE(server.httpCounters().open, 2);
    const RawResult served
        = rawExchange(server.port(), { "GET /v1/models HTTP/1.1\r\nConnection: close\r\n\r\n" }, 0, 5000);
    QCOMPARE(served.status(), 200);
    QCOMPARE(server.httpCounters().maxOpen, 3);
}

void TestServeSim::malformedRequestsGetTheirStatus_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    QTest::addRow("not HTTP") << QByteArray("hello there\r\n\r\n") << 400;
    QTest::addRow("HTTP/2 preface") << QByteArray("PRI * HTTP/2.0\r\n\r\n") << 400;
    QTest::addRow("version") << QByteArray("GET /v1/models HTTP/3.0\r\n\r\n") << 505;
    QTest::addRow("header line") << QByteArray("GET /v1/models HTTP/1.1\r\nno colon\r\n\r\n") << 400;
    QTest::addRow("chunked body") << QByteArray("POST /api/chat HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n") << 411;
    QTest::addRow("two lengths") << QByteArray(
        "POST /api/chat HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}")
                                 << 400;
    QTest::addRow("negative length") << QByteArray("POST /api/chat HTTP/1.1\r\nContent-Length: -1\r\n\r\n") << 400;
    QTest::addRow("huge headers") << "GET /v1/models HTTP/1.1\r\nX-Big: " + QByteArray(70'000, 'a') + "\r\n\r\n" << 431;
    QTest::addRow("unknown route") << QByteArray("GET /nowhere HTTP/1.1\r\nConnection: close\r\n\r\n") << 404;
    QTest::addRow("wrong method") << QByteArray("GET /api/chat HTTP/1.1\r\nConnection: close\r\n\r\n") << 405;
}

void TestServeSim::malformedRequestsGetTheirStatus()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    SimServer server;
    QVERIFY(server.listen());
    const RawResult result = rawExchange(server.port(), { request }, 0, 5000);
    QCOMPARE(result.status(), status);
    QVERIFY(result.closedByServer);
}

void TestServeSim::keptAliveRequestsAreAnsweredInOrder()
{
    SimServer server;
    QVERIFY(server.listen());
    const QByteArray body = chatBody(u"gpt-5"_s, u"hi"_s);
    // Three requests in one write: each is answered, in order, on the same connection.
    const QByteArray pipelined = "GET /v1/models HTTP/1.1\r\n\r\n" + postHead("/v1/chat/completions", body.size())
        + body + "GET /api/tags HTTP/1.1\r\nConnection: close\r\n\r\n";
    const RawResult result = rawExchange(server.port(), { pipelined }, 0, 5000);
    QVERIFY(result.closedByServer);
    const qsizetype first = result.received.indexOf("HTTP/1.1 200");
    const qsizetype second = result.received.indexOf("HTTP/1.1 404", first);
    const qsizetype third = result.received.indexOf("HTTP/1.1 200", second);
    QVERIFY2(first == 0 && second > first && third > second, result.received.constData());
    QVERIFY(result.received.indexOf("\"object\":\"list\"") < second);
    QVERIFY(result.received.indexOf("\"models\"", second) > third);
}

void TestServeSim::logLinesArePrintable()
{
    SimServer server;
    QVERIFY(server.listen());
    QStringList lines;
    connect(&server, &SimServer::requestLogged, this, [&lines](const QString& line) { lines << line; });
    // A model name and a route that carry terminal escapes (colour, title, bell) and a bidi override.
    const QString hostile = u"\x1b[31mred\x1b]0;owned\x07\u202Egnp.exe"_s;
    QCOMPARE(
        http(u"http://127.0.0.1:%1/v1/chat/completions"_s.arg(server.port()), chatBody(hostile, u"hi"_s)).status, 404);
    const RawResult route
        = rawExchange(server.port(), { "GET /\x1b[2J HTTP/1.1\r\nConnection: close\r\n\r\n" }, 0, 5000);
    QCOMPARE(route.status(), 404);
    QCOMPARE(lines.size(), 2);
    for (const QString& line : std::as_const(lines)) {
        for (const QChar c : line)
            QVERIFY2(!(c.category() == QChar::Other_Control || c.category() == QChar::Other_Format), qPrintable(line));
    }
    QVERIFY2(lines[0].contains(u"\\x1b[31mred\\x1b]0;owned\\x07\\u202egnp.exe"_s), qPrintable(lines[0]));
    QVERIFY2(lines[1].contains(u"GET /\\x1b[2J"_s), qPrintable(lines[1]));
}

void TestServeSim::printableTextEscapes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("maxChars");
    QTest::addColumn<QString>("expected");
    QTest::addRow("plain") << u"Grüße 東京 🙂"_s << -1 << u"Grüße 東京 🙂"_s;
    QTest::addRow("breaks") << u"a\nb\tc\r"_s << -1 << u"a\\nb\\tc\\r"_s;
    QTest::addRow("C0 and DEL") << u"\x1b\x07\x7f"_s << -1 << u"\\x1b\\x07\\x7f"_s;
    QTest::addRow("C1") << QString(QChar(0x9b)) << -1 << u"\\x9b"_s;
    QTest::addRow("bidi and zero width") << u"\u202e\u200b"_s << -1 << u"\\u202e\\u200b"_s;
    QTest::addRow("replacement") << QString(QChar::ReplacementCharacter) << -1 << u"\\ufffd"_s;
    QTest::addRow("cut") << u"abcdef"_s << 3 << u"abc…"_s;
    QTest::addRow("not cut at the limit") << u"abc"_s << 3 << u"abc"_s;
}

void TestServeSim::printableTextEscapes()
{
    QFETCH(QString, text);
    QFETCH(int, maxChars);
    QFETCH(QString, expected);
    QCOMPARE(printableText(text, maxChars), expected);
}

void TestServeSim::injectedFaultsAreSurvived()
{
    SimServer server;
    server.addSuite(m_suite);
    server.setOptions({ 0, 0.4, 0, 3, {} });
    QVERIFY(server.listen());
    QString error;
    auto store = ResultStore::open(m_tmp.filePath(u"faults.db"_s), &error);
    QVERIFY(store);
    Runner runner(*store);
    RunPlan plan;
    plan.suite = m_suite;
    plan.models = { *parseModelSpec(u"openai:careful@http://127.0.0.1:%1/v1;case_headers"_s.arg(server.port())) };
    plan.strategies = { Strategy::J, Strategy::PJPlus };
    plan.repeats = 4;
    plan.options.maxAttempts = 12;
    plan.options.backoffBase = std::chrono::milliseconds(5);
    plan.options.backoffMax = std::chrono::milliseconds(20);
    plan.options.idleTimeout = std::chrono::milliseconds(300);
    plan.options.totalTimeout = std::chrono::milliseconds(400);
    plan.options.writerDelay = std::chrono::milliseconds(10);
    plan.options.jitterSeed = 5;
    QSignalSpy finished(&runner, &Runner::finished);
    QVERIFY(runner.start(plan, &error));
    QVERIFY(finished.wait(30000));
    const QHash<QString, qint64> faults = server.stats().faults;
    for (const char* kind : { "rate_limited", "server_error", "no_answer", "malformed" })
        QVERIFY2(faults.value(QLatin1String(kind)) > 0, kind);
    // Every fault is transient, a malformed body too: each is asked again until it is answered.
    for (const RunRow& run : runner.runs()) {
        for (const ResponseRow& r : take(store->responses(run.id)))
            QVERIFY2(r.errorKind.isEmpty(), qPrintable(r.errorKind));
        QCOMPARE(store->responseCount(run.id).value(), m_suite->cases.size() * 4);
    }
    QCOMPARE(runner.progress().retriesByKind.value(u"malformed_body"_s), faults.value(u"malformed"_s));
    QCOMPARE(runner.progress().retriesByKind.value(u"rate_limited"_s), faults.value(u"rate_limited"_s));
}

void TestServeSim::faultsAreNotTheModels()
{
    SimServer server;
    server.addSuite(m_suite);
    server.setOptions({ 0, 0.3, 0, 2, {} }); // 18 of its 60 requests fail, 4 or 5 in each way
    QVERIFY(server.listen());
    QString error;
    auto store = ResultStore::open(m_tmp.filePath(u"oracle-faults.db"_s), &error);
    QVERIFY2(store, qPrintable(error));
    Runner runner(*store);
    RunPlan plan;
    plan.suite = m_suite;
    plan.models = { *parseModelSpec(u"openai:oracle@http://127.0.0.1:%1/v1;key_env="_s.arg(server.port())) };
    plan.strategies = { Strategy::PJPlus };
    plan.repeats = 20;
    plan.options.maxAttempts = 1; // each fault is its slot's last attempt
    plan.options.perModelConcurrency = 16;
    plan.options.globalConcurrency = 16;
    plan.options.idleTimeout = std::chrono::milliseconds(300); // the held "no answer" faults reach it
    plan.options.totalTimeout = std::chrono::milliseconds(5000);
    plan.options.jitterSeed = 3;
    QSignalSpy finished(&runner, &Runner::finished);
    QVERIFY(runner.start(plan, &error));
    QVERIFY(finished.wait(30000));
    const QHash<QString, qint64> faults = server.stats().faults;
    for (const char* kind : { "rate_limited", "server_error", "no_answer", "malformed" })
        QVERIFY2(faults.value(QLatin1String(kind)) > 0, kind);

    const int slotCount = int(m_suite->cases.size()) * plan.repeats;
    int errored = 0;
    QHash<QString, int> erroredByKind;
    const qint64 runId = runner.runs().constFirst().id;
    for (const ResponseRow& r : take(store->responses(runId))) {
        if (r.errorKind.isEmpty())
            continue;
        QVERIFY2(isTransportError(*errorKindFromName(r.errorKind)), qPrintable(r.errorKind));
        ++errored;
        ++erroredByKind[r.errorKind];
    }
    QCOMPARE(take(store->responseCount(runId)), qint64(slotCount));
    for (const char* kind : { "rate_limited", "http_5xx", "timeout", "malformed_body" })
        QVERIFY2(erroredByKind.value(QLatin1String(kind)) > 0, kind);
    QVERIFY(errored < slotCount);

    const Evaluation evaluation = evaluateStore(*store);
    QVERIFY2(evaluation.ok(), qPrintable(evaluation.error));
    QCOMPARE(evaluation.records.size(), std::size_t(slotCount));
    AggregateOptions options;
    options.groupBy = { "model" };
    options.bootstrap.resamples = 100;
    const Report report = aggregate(evaluation.records, options);
    QCOMPARE(report.groups.size(), std::size_t(1));
    const ReportGroup& group = report.groups.front();
    QCOMPARE(group.n, slotCount - errored);
    QCOMPARE(group.errored, errored);
    QCOMPARE(group.mean.at("ladder.correct"), 1.0);
    QCOMPARE(group.mean.at("ladder.invalid_json"), 0.0);
    QCOMPARE(group.mean.at("ladder.consistency"), 1.0);
    QCOMPARE(group.mean.at("extraction.score"), 1.0);

    const json written = json::parse(writeReport(report, "json").text);
    QCOMPARE(written["groups"][0]["n"].get<int>(), slotCount - errored);
    QCOMPARE(written["groups"][0]["errored"].get<int>(), errored);
    QCOMPARE(written["groups"][0]["errored_share"].get<double>(), double(errored) / double(slotCount));
    const QString markdown = QString::fromStdString(writeReport(report, "md").text);
    QVERIFY2(markdown.contains(u" errored |"_s), qPrintable(markdown));
    QVERIFY2(markdown.contains(u" %1 (%2%) |"_s.arg(errored).arg(100.0 * errored / slotCount, 0, 'f', 1)),
        qPrintable(markdown));
}

void TestServeSim::thirtyPercentFaultsOverFiveThousandRequests()
{
    const SuiteLoadResult builtIn = loadSuiteDir(resolveSuitePath(u"email-extraction"_s));
    QVERIFY2(builtIn.ok(), "the built-in email-extraction suite");
    const SuitePtr suite = builtIn.suite;
    SimServer server;
    server.addSuite(suite);
    server.setOptions({ 0, 0.3, 0, 11, {} });
    QVERIFY(server.listen());
    QString error;
    auto store = ResultStore::open(m_tmp.filePath(u"faults-5000.db"_s), &error);
    QVERIFY2(store, qPrintable(error));
    Runner runner(*store);
    RunPlan plan;
    plan.suite = suite;
    plan.models = { *parseModelSpec(u"openai:sloppy@http://127.0.0.1:%1/v1;case_headers"_s.arg(server.port())) };
    plan.strategies = { Strategy::J, Strategy::PJPlus };
    plan.repeats = 11; // 200 cases × 2 strategies × 11 = 4,400 slots; with 30% faults ~5,700 requests
    plan.options.perModelConcurrency = 32;
    plan.options.globalConcurrency = 32;
    plan.options.maxAttempts = 12;
    plan.options.backoffBase = std::chrono::milliseconds(2);
    plan.options.backoffMax = std::chrono::milliseconds(10);
    plan.options.idleTimeout = std::chrono::milliseconds(400); // the held "no answer" faults reach it
    plan.options.totalTimeout = std::chrono::milliseconds(5000);
    plan.options.jitterSeed = 9;
    QSignalSpy finished(&runner, &Runner::finished);
    QVERIFY(runner.start(plan, &error));
    QVERIFY(finished.wait(300000));
    QCOMPARE(finished.at(0).at(0).value<RunStatus>(), RunStatus::Finished);

    const SimServerStats& stats = server.stats();
    QVERIFY2(stats.requests >= 5000, qPrintable(QString::number(stats.requests)));
    qint64 faultCount = 0;
    for (const char* kind : { "rate_limited", "server_error", "no_answer", "malformed" }) {
        QVERIFY2(stats.faults.value(QLatin1String(kind)) > 0, kind);
        faultCount += stats.faults.value(QLatin1String(kind));
    }
    const double faultShare = double(faultCount) / double(stats.requests);
    QVERIFY2(faultShare > 0.27 && faultShare < 0.33, qPrintable(QString::number(faultShare)));

    qint64 stored = 0;
    qint64 attempts = 0;
    for (const RunRow& run : runner.runs()) {
        QSet<QPair<qint64, int>> answeredSlots;
        for (const ResponseRow& r : take(store->responses(run.id))) {
            QVERIFY2(!answeredSlots.contains({ r.caseRow, r.repeat }), "one answer per (case, repeat)");
            answeredSlots.insert({ r.caseRow, r.repeat });
            // Every fault is retried until it succeeds, a malformed body too.
            QVERIFY2(r.errorKind.isEmpty(), qPrintable(r.errorKind));
            QVERIFY(r.attempts >= 1);
            attempts += r.attempts;
            ++stored;
        }
        QCOMPARE(answeredSlots.size(), suite->cases.size() * plan.repeats);
    }
    QCOMPARE(stored, qint64(suite->cases.size() * plan.repeats * 2));
    // Every request the server saw is one attempt of a stored answer: the answer's own and its retries.
    QCOMPARE(attempts, stats.requests);
    const RunnerProgress progress = runner.progress();
    QCOMPARE(progress.retries, stats.requests - stored);
    qint64 retriesByKind = 0;
    for (const qint64 n : progress.retriesByKind)
        retriesByKind += n;
    QCOMPARE(retriesByKind, progress.retries);
    QCOMPARE(progress.retriesByKind.value(u"rate_limited"_s), stats.faults.value(u"rate_limited"_s));
    QCOMPARE(progress.retriesByKind.value(u"http_5xx"_s), stats.faults.value(u"server_error"_s));
    // A held request always times out; on a loaded machine a slow answer may too (and is retried).
    QVERIFY(progress.retriesByKind.value(u"timeout"_s) >= stats.faults.value(u"no_answer"_s));
    QCOMPARE(progress.retriesByKind.value(u"malformed_body"_s), stats.faults.value(u"malformed"_s));
    QVERIFY(progress.errorsByKind.isEmpty());
    qInfo("%lld requests, %.1f%% faults, %lld retries, %lld answers", static_cast<long long>(stats.requests),
        100 * faultShare, static_cast<long long>(progress.retries), static_cast<long long>(stored));
}

QTEST_GUILESS_MAIN(TestServeSim)
#include "tst_servesim.moc"
