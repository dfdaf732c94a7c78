// SPDX-License-Identifier: Apache-2.0
// The runner against loopback servers started by the test: request bodies for both APIs and all five
// strategies, retries (429 + Retry-After, 5xx), timeouts, malformed / HTML / huge bodies, dropped
// connections, concurrency limits, pause and resume. (Stored runs: tst_runnerstore.)
#include "runnerfixtures.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace structscope;
using namespace structscope::testing;
using nlohmann::json;

class TestRunner : public QObject, public RunnerTestBase
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void happyPath_data();
    void happyPath();
    void rateLimitHonoursRetryAfter();
    void adaptiveLimitHalvesOn429();
    void serverErrorsAreRetried();
    void malformedBodiesAreRetried();
    void cutStreamsAreRetried();
    void failuresAreClassified_data();
    void failuresAreClassified();
    // A redirect to another origin (here another port, and another host name) would carry the key and the
    // $VAR headers there: the other server receives nothing, and the stored error names both origins.
    void crossOriginRedirectsAreNotFollowed_data();
    void crossOriginRedirectsAreNotFollowed();
    // Within one origin a redirect is followed, and the request keeps its key.
    void sameOriginRedirectsAreFollowed();
    // A key over plain http to a host that is not loopback: refused before anything is sent, unless allowed.
    void insecureKeyIsRefused();
    void concurrencyLimitsAreNeverExceeded();
    void pauseAndResume();

private:
    QObject m_dripParent;
};

void TestRunner::initTestCase()
{
    QVERIFY(initBase());
}

void TestRunner::happyPath_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<bool>("stream");
    for (const char* provider : { "openai", "ollama" }) {
        for (const bool stream : { false, true })
            QTest::addRow("%s%s", provider, stream ? " stream" : "") << QString::fromLatin1(provider) << stream;
    }
}

void TestRunner::happyPath()
{
    QFETCH(QString, provider);
    QFETCH(bool, stream);
    const bool openai = provider == u"openai"_s;
    LoopbackServer server([&](const ReceivedRequest& request, Responder responder) {
        const QString content = u"{\"case\": \"%1\"}"_s.arg(caseOf(request));
        if (!stream) {
            responder.send(200, openai ? openAiAnswer(content) : ollamaAnswer(content));
        } else if (openai) {
            const QByteArray escaped = QByteArray::fromStdString(json(content.toStdString()).dump());
            responder.sendChunked(200,
                { "data: {\"choices\":[{\"delta\":{\"content\":" + escaped + "}}]}\n\n",
                    "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}],"
                    "\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":10,\"cost\":0.5}}\n\n",
                    "data: [DONE]\n\n" },
                "text/event-stream");
        } else {
            const QByteArray escaped = QByteArray::fromStdString(json(content.toStdString()).dump());
            responder.sendChunked(200,
                { "{\"message\":{\"content\":" + escaped + "},\"done\":false}\n",
                    "{\"message\":{\"content\":\"\"},\"done\":true,\"prompt_eval_count\":80,\"eval_count\":8}\n" },
                "application/x-ndjson");
        }
    });
    QVERIFY(server.listen());
    const QString specText = openai ? u"openai:gpt-test@%1/v1;case_headers"_s.arg(server.baseUrl())
                                    : u"ollama:qwen3:8b@%1;case_headers"_s.arg(server.baseUrl());
    ModelSpec model = spec(specText);
    model.stream = stream;
    model.seed = 11;
    auto store = openStore();
    Runner runner(*store);
    runner.setPriceTable(testPrices());
    QVERIFY(runToEnd(runner, plan({ model }, allStrategies(), 2)));

    const int expectedRequests = int(m_suite->cases.size()) * 5 * 2;
    QCOMPARE(server.requests.size(), expectedRequests);
    // Each body is exactly what the codec builds for its case and strategy (J/PJ: JSON mode; J+/PJ+: schema).
    QSet<QString> seen;
    for (const ReceivedRequest& request : std::as_const(server.requests)) {
        QCOMPARE(request.method, QByteArray("POST"));
        QCOMPARE(request.path, openai ? QByteArray("/v1/chat/completions") : QByteArray("/api/chat"));
        const SuiteCase* c = m_suite->findCase(caseOf(request));
        QVERIFY(c);
        const json body = json::parse(request.body.toStdString());
        bool matched = false;
        for (const Strategy s : allStrategies()) {
            if (body == chatRequestBody(model, buildPrompt(*m_suite, *c, s), stream)) {
                matched = true;
                seen.insert(strategyName(s) + u'/' + c->id);
            }
        }
        QVERIFY2(matched, body.dump().c_str());
    }
    QCOMPARE(seen.size(), int(m_suite->cases.size()) * 5);

    const QList<RunRow> runs = runner.runs();
    QCOMPARE(runs.size(), 5);
    for (const RunRow& run : runs) {
        QCOMPARE(store->run(run.id)->status, RunStatus::Finished);
        QCOMPARE(run.providerKind, provider);
        QVERIFY(run.modelSpec.contains(server.baseUrl())); // a non-default URL is kept
        const auto responses = store->responses(run.id);
        QVERIFY(responses);
        QCOMPARE(responses->size(), int(m_suite->cases.size()) * 2);
        for (const ResponseRow& r : responses.value()) {
            QVERIFY2(r.errorKind.isEmpty(), qPrintable(r.errorMessage));
            QCOMPARE(r.httpStatus, 200);
            QCOMPARE(r.attempts, 1);
            QVERIFY(r.rawText.startsWith(u"{\"case\": "_s));
            QVERIFY(r.latencyMs && *r.latencyMs >= 0);
            QCOMPARE(r.ttftMs.has_value(), stream);
            if (stream)
                QVERIFY(*r.ttftMs <= *r.latencyMs);
            QCOMPARE(r.requestHash.size(), 64);
            if (openai) {
                QCOMPARE(*r.tokensIn, 100);
                QCOMPARE(*r.tokensOut, 10);
                // Streamed: the provider's cost; otherwise the price table: 100 · $1/M + 10 · $2/M.
                QCOMPARE(r.costSource, stream ? CostSource::Provider : CostSource::PriceTable);
                QCOMPARE(*r.cost, stream ? 0.5 : 120e-6);
            } else {
                QCOMPARE(*r.tokensIn, 80);
                QCOMPARE(*r.tokensOut, 8);
                QCOMPARE(r.costSource, CostSource::None); // no price for ollama:* in this table
            }
        }
    }
    const RunnerProgress progress = runner.progress();
    QCOMPARE(progress.done, qint64(expectedRequests));
    QCOMPARE(progress.total, qint64(expectedRequests));
    QVERIFY(progress.errorsByKind.isEmpty());
    QVERIFY(!progress.active);
}

void TestRunner::rateLimitHonoursRetryAfter()
{
    int served = 0;
    qint64 limitedAt = -1;
    LoopbackServer server([&](const ReceivedRequest&, Responder responder) {
        if (++served == 2) {
            limitedAt = server.elapsedMs();
            responder.send(429, R"({"error":{"message":"slow down"}})", { { "Retry-After", "1" } });
            return;
        }
        responder.send(200, openAiAnswer(u"{}"_s));
    });
    QVERIFY(server.listen());
    auto store = openStore();
    Runner runner(*store);
    RunPlan p = plan({ spec(u"openai:m@%1/v1;key_env="_s.arg(server.baseUrl())) }, { Strategy::J }, 4);
    p.options.perModelConcurrency = 1;
    QVERIFY(runToEnd(runner, p));
    QCOMPARE(served, 13); // 12 slots + 1 refused
    // Nothing was sent to the rate-limited model during the second it asked for.
    for (const ReceivedRequest& r : std::as_const(server.requests)) {
        if (r.atMs > limitedAt)
            QVERIFY2(r.atMs >= limitedAt + 990, qPrintable(QString::number(r.atMs - limitedAt)));
    }
    const RunnerProgress progress = runner.progress();
    QCOMPARE(progress.retriesByKind.value(u"rate_limited"_s), 1);
    QVERIFY(progress.errorsByKind.isEmpty());
    int retried = 0;
    for (const ResponseRow& r : take(store->responses(runner.runs().constFirst().id)))
        retried += r.attempts == 2 ? 1 : 0;
    QCOMPARE(retried, 1);
}

void TestRunner::adaptiveLimitHalvesOn429()
{
    int served = 0;
    LoopbackServer server([&](const ReceivedRequest&, Responder responder) {
        if (++served <= 1) {
            responder.send(429, "{}", { { "Retry-After", "0" } });
            return;
        }
        responder.later(20, [](Responder r) { r.send(200, openAiAnswer(u"{}"_s)); });
    });
    QVERIFY(server.listen());
    auto store = openStore();
    Runner runner(*store);
    RunPlan p = plan({ spec(u"openai:m@%1/v1;key_env="_s.arg(server.baseUrl())) }, { Strategy::P }, 4);
    p.options.perModelConcurrency = 4;
    int lowest = 99;
    connect(&runner, &Runner::progressChanged, this, [&](const RunnerProgress& progress) {
        for (const RunProgress& run : progress.runs)
            lowest = std::min(lowest, run.limit);
    });
    QVERIFY(runToEnd(runner, p));
    QCOMPARE(lowest, 2);
    QVERIFY(runner.progress().runs.constFirst().limit >= 2);
}

void TestRunner::serverErrorsAreRetried()
{
    QHash<QString, int> attempts;
    LoopbackServer server([&](const ReceivedRequest& request, Responder responder) {
        const QString id = caseOf(request);
        const int n = ++attempts[id];
        if (id == u"t-1"_s && n <= 2)
            responder.send(n == 1 ? 500 : 502,
                n == 1 ? QByteArray("{\"error\":{\"message\":\"boom\"}}") : QByteArray("<html>bad gateway</html>"), {},
                n == 1 ? "application/json" : "text/html");
        else if (id == u"t-2"_s)
            responder.send(503, "overloaded", {}, "text/plain");
        else
            responder.send(200, openAiAnswer(u"{}"_s));
    });
    QVERIFY(server.listen());
    auto store = openStore();
    Runner runner(*store);
    RunPlan p = plan({ spec(u"openai:m@%1/v1;case_headers"_s.arg(server.baseUrl())) }, { Strategy::P });
    p.options.maxAttempts = 3;
    QVERIFY(runToEnd(runner, p));
    QCOMPARE(attempts.value(u"t-1"_s), 3);
    QCOMPARE(attempts.value(u"t-2"_s), 3);
    QCOMPARE(attempts.value(u"p-1"_s), 1);
    QHash<qint64, QString> caseIds;
    for (const CaseRow& c : take(store->cases(runner.runs().constFirst().suiteRow)))
        caseIds.insert(c.row, c.id);
    for (const ResponseRow& r : take(store->responses(runner.runs().constFirst().id))) {
        const QString id = caseIds.value(r.caseRow);
        if (id == u"t-1"_s) {
            QVERIFY(r.errorKind.isEmpty());
            QCOMPARE(r.attempts, 3);
        } else if (id == u"t-2"_s) {
            QCOMPARE(r.errorKind, u"http_5xx"_s);
            QCOMPARE(r.httpStatus, 503);
            QCOMPARE(r.attempts, 3);
            QCOMPARE(r.errorMessage, u"HTTP 503: 'overloaded'"_s);
        } else {
            QCOMPARE(r.attempts, 1);
        }
    }
    QCOMPARE(runner.progress().errorsByKind.value(u"http_5xx"_s), 1);
    QCOMPARE(runner.progress().retriesByKind.value(u"http_5xx"_s), 4);
}

void TestRunner::malformedBodiesAreRetried()
{
    // The first call of t-1 gets a proxy's HTML page, of t-2 a body cut short; the second is answered. Neither
    // failure is the model's answer.
    QHash<QString, int> attempts;
    LoopbackServer server([&](const ReceivedRequest& request, Responder responder) {
        const QString id = caseOf(request);
        const int n = ++attempts[id];
        if (n == 1 && id == u"t-1"_s)
            responder.send(200, "<!DOCTYPE html><html><body>502 Bad Gateway</body></html>", {}, "text/html");
        else if (n == 1 && id == u"t-2"_s)
            responder.send(200, openAiAnswer(u"{}"_s).left(30));
        else
            responder.send(200, openAiAnswer(u"{}"_s));
    });
    QVERIFY(server.listen());
    auto store = openStore();
    Runner runner(*store);
    RunPlan p = plan({ spec(u"openai:m@%1/v1;case_headers"_s.arg(server.baseUrl())) }, { Strategy::P });
    p.options.maxAttempts = 3;
    QVERIFY(runToEnd(runner, p));
    QCOMPARE(attempts.value(u"t-1"_s), 2);
    QCOMPARE(attempts.value(u"t-2"_s), 2);
    QHash<qint64, QString> caseIds;
    for (const CaseRow& c : take(store->cases(runner.runs().constFirst().suiteRow)))
        caseIds.insert(c.row, c.id);
    for (const ResponseRow& r : take(store->responses(runner.runs().constFirst().id))) {
        QVERIFY2(r.errorKind.isEmpty(), qPrintable(r.errorKind + u": "_s + r.errorMessage));
        const QString id = caseIds.value(r.caseRow);
        QCOMPARE(r.attempts, id == u"t-1"_s || id == u"t-2"_s ? 2 : 1);
    }
    QVERIFY(runner.progress().errorsByKind.isEmpty());
    QCOMPARE(runner.progress().retriesByKind.value(u"malformed_body"_s), 2);
}

void TestRunner::cutStreamsAreRetried()
{
    // Every case's first stream ends before its finish_reason and [DONE]; the second is whole.
    QHash<QString, int> attempts;
    LoopbackServer server([&](const ReceivedRequest& request, Responder responder) {
        if (++attempts[caseOf(request)] == 1) {
            responder.sendChunked(
                200, { "data: {\"choices\":[{\"delta\":{\"content\":\"{\"}}]}\n\n" }, "text/event-stream");
            return;
        }
        responder.sendChunked(200,
            { "data: {\"choices\":[{\"delta\":{\"content\":\"{}\"}}]}\n\n",
                "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n", "data: [DONE]\n\n" },
            "text/event-stream");
    });
    QVERIFY(server.listen());
    auto store = openStore();
    Runner runner(*store);
    ModelSpec model = spec(u"openai:m@%1/v1;case_headers"_s.arg(server.baseUrl()));
    model.stream = true;
    RunPlan p = plan({ model }, { Strategy::P });
    p.options.maxAttempts = 3;
    QVERIFY(runToEnd(runner, p));
    const auto responses = take(store->responses(runner.runs().constFirst().id));
    QCOMPARE(responses.size(), int(m_suite->cases.size()));
    for (const ResponseRow& r : responses) {
        QVERIFY2(r.errorKind.isEmpty(), qPrintable(r.errorKind + u": "_s + r.errorMessage));
        QCOMPARE(r.attempts, 2);
        QCOMPARE(r.rawText, u"{}"_s);
    }
    QCOMPARE(runner.progress().retriesByKind.value(u"malformed_body"_s), qint64(m_suite->cases.size()));
}

void TestRunner::failuresAreClassified_data()
{
    QTest::addColumn<QString>("behaviour");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("attempts");
    QTest::addColumn<QString>("message");
    // A body that is not the provider's JSON is transient, like a 5xx: asked again.
    QTest::addRow("html 200") << u"html"_s << u"malformed_body"_s << 2 << u"HTML page instead of JSON"_s;
    QTest::addRow("garbage 200") << u"garbage"_s << u"malformed_body"_s << 2 << u"is not JSON"_s;
    QTest::addRow("missing field") << u"nochoices"_s << u"malformed_body"_s << 2 << u"no \"choices\""_s;
    QTest::addRow("huge body") << u"huge"_s << u"malformed_body"_s << 2 << u"exceeds the 1 MiB limit"_s;
    QTest::addRow("400") << u"400"_s << u"http_4xx"_s << 1 << u"HTTP 400: bad schema"_s;
    QTest::addRow("refusal") << u"refusal"_s << u"refusal"_s << 1 << u"the model refused: no"_s;
    QTest::addRow("length") << u"length"_s << u"truncated"_s << 1 << u"finish_reason \"length\""_s;
    QTest::addRow("dropped connection") << u"drop"_s << u"network"_s << 2 << QString();
    QTest::addRow("cut body") << u"cut"_s << u"network"_s << 2 << u"after HTTP 200"_s;
    QTest::addRow("no answer") << u"silent"_s << u"timeout"_s << 2 << u"no data from the server for 0.3 s"_s;
    QTest::addRow("slow drip") << u"drip"_s << u"timeout"_s << 2 << u"no complete answer within 0.6 s"_s;
    // Qt reports a reply that is not HTTP at all as a closed connection.
    QTest::addRow("not http") << u"nothttp"_s << u"network"_s << 2 << u"Connection closed"_s;
}

void TestRunner::failuresAreClassified()
{
    QFETCH(QString, behaviour);
    QFETCH(QString, kind);
    QFETCH(int, attempts);
    QFETCH(QString, message);
    LoopbackServer server([&](const ReceivedRequest&, Responder responder) {
        if (behaviour == u"html"_s)
            responder.send(200, "<!DOCTYPE html><html><body>Welcome to nginx!</body></html>", {}, "text/html");
        else if (behaviour == u"garbage"_s)
            responder.send(200, "{\"choices\": [");
        else if (behaviour == u"nochoices"_s)
            responder.send(200, "{\"id\": \"x\"}");
        else if (behaviour == u"huge"_s)
            responder.send(200, QByteArray(2 * 1024 * 1024, 'x'));
        else if (behaviour == u"400"_s)
            responder.send(400, "{\"error\": {\"message\": \"bad schema\"}}");
        else if (behaviour == u"refusal"_s)
            responder.send(
                200, "{\"choices\":[{\"message\":{\"content\":null,\"refusal\":\"no\"},\"finish_reason\":\"stop\"}]}");
        else if (behaviour == u"length"_s)
            responder.send(200, "{\"choices\":[{\"message\":{\"content\":\"{\\\"a\"},\"finish_reason\":\"length\"}]}");
        else if (behaviour == u"drop"_s)
            responder.drop();
        else if (behaviour == u"cut"_s)
            responder.raw(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"choices\"", true);
        else if (behaviour == u"drip"_s) {
            // A byte every 100 ms keeps the idle clock happy; the total clock ends it.
            responder.raw("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n");
            auto* timer = new QTimer(&m_dripParent);
            QPointer<QTcpSocket> socket = responder.socket();
            connect(timer, &QTimer::timeout, timer, [socket] {
                if (socket)
                    socket->write(" ");
            });
            timer->start(100);
        } else if (behaviour == u"nothttp"_s)
            responder.raw("SSH-2.0-OpenSSH_9.2\r\n\r\n", true);
        // "silent": never answers
    });
    QVERIFY(server.listen());
    auto store = openStore();
    Runner runner(*store);
    RunPlan p = plan({ spec(u"openai:m@%1/v1;key_env="_s.arg(server.baseUrl())) }, { Strategy::J });
    p.options.maxAttempts = 2;
    p.options.maxBodyBytes = 1024 * 1024;
    p.options.idleTimeout = std::chrono::milliseconds(300);
    p.options.totalTimeout = std::chrono::milliseconds(600);
    QVERIFY(runToEnd(runner, p));
    qDeleteAll(m_dripParent.children());
    const auto responses = store->responses(runner.runs().constFirst().id);
    QCOMPARE(responses->size(), int(m_suite->cases.size()));
    for (const ResponseRow& r : responses.value()) {
        QVERIFY2(r.errorKind == kind, qPrintable(r.errorKind + u": "_s + r.errorMessage));
        QCOMPARE(r.attempts, attempts);
        QVERIFY2(r.errorMessage.contains(message), qPrintable(r.errorMessage));
        QVERIFY(!r.errorMessage.isEmpty());
    }
    // QNetworkAccessManager itself sends a request again once when a kept-alive connection closes
    // before any answer, so dropped connections may be counted more often than our attempts.
    if (kind == u"network"_s)
        QVERIFY(server.requests.size() >= int(m_suite->cases.size()) * attempts);
    else
        QCOMPARE(server.requests.size(), int(m_suite->cases.size()) * attempts);
}

void TestRunner::crossOriginRedirectsAreNotFollowed_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<bool>("otherHostName");
    for (const int status : { 302, 307, 308 }) {
        QTest::addRow("%d other port", status) << status << false;
        QTest::addRow("%d other host", status) << status << true;
    }
}

void TestRunner::crossOriginRedirectsAreNotFollowed()
{
    QFETCH(int, status);
    QFETCH(bool, otherHostName);
    qputenv("STRUCTSCOPE_TEST_REDIRECT_KEY", "sk-redirect-test-0123456789abcdef");
    qputenv("STRUCTSCOPE_TEST_REDIRECT_HEADER", "header-secret-0123456789");
    QTcpServer other;
    QVERIFY(other.listen(QHostAddress::LocalHost, 0));
    int otherConnections = 0;
    QByteArray otherReceived;
    connect(&other, &QTcpServer::newConnection, this, [&] {
        while (QTcpSocket* socket = other.nextPendingConnection()) {
            ++otherConnections;
            connect(socket, &QTcpSocket::readyRead, this, [&, socket] { otherReceived += socket->readAll(); });
        }
    });
    const QString target = u"http://%1:%2/v1/chat/completions"_s.arg(
        otherHostName ? u"localhost"_s : u"127.0.0.1"_s, QString::number(other.serverPort()));
    LoopbackServer server([&](const ReceivedRequest&, Responder responder) {
        responder.send(status, "{}", { { "Location", target.toLatin1() } });
    });
    QVERIFY(server.listen());
    auto store = openStore();
    Runner runner(*store);
    RunPlan p = plan({ spec(u"openai:m@%1/v1;key_env=STRUCTSCOPE_TEST_REDIRECT_KEY;"
                            "header=X-Extra:$STRUCTSCOPE_TEST_REDIRECT_HEADER"_s.arg(server.baseUrl())) },
        { Strategy::P });
    p.options.maxAttempts = 1;
    QVERIFY(runToEnd(runner, p));
    QTest::qWait(100); // time for a connection the runner should not make
    QCOMPARE(otherConnections, 0);
    QVERIFY(otherReceived.isEmpty());
    QVERIFY(server.requests.size() >= int(m_suite->cases.size())); // "at least": see the next test
    const auto responses = take(store->responses(runner.runs().constFirst().id));
    QCOMPARE(responses.size(), int(m_suite->cases.size()));
    for (const ResponseRow& r : responses) {
        QVERIFY(!r.errorKind.isEmpty());
        QVERIFY2(r.errorMessage.contains(server.baseUrl()), qPrintable(r.errorMessage));
        QVERIFY2(r.errorMessage.contains(u"%1:%2"_s.arg(
                     otherHostName ? u"localhost"_s : u"127.0.0.1"_s, QString::number(other.serverPort()))),
            qPrintable(r.errorMessage));
        QVERIFY2(r.errorMessage.contains(u"another origin"_s), qPrintable(r.errorMessage));
    }
    qunsetenv("STRUCTSCOPE_TEST_REDIRECT_KEY");
    qunsetenv("STRUCTSCOPE_TEST_REDIRECT_HEADER");
}

void TestRunner::sameOriginRedirectsAreFollowed()
{
    qputenv("STRUCTSCOPE_TEST_REDIRECT_KEY", "sk-redirect-test-0123456789abcdef");
    LoopbackServer server([&](const ReceivedRequest& request, Responder responder) {
        if (request.path.startsWith("/v1/"))
            responder.send(307, "{}", { { "Location", "/v2/chat/completions" } });
        else
            responder.send(200, openAiAnswer(u"{}"_s));
    });
    QVERIFY(server.listen());
    auto store = openStore();
    Runner runner(*store);
    RunPlan p = plan(
        { spec(u"openai:m@%1/v1;key_env=STRUCTSCOPE_TEST_REDIRECT_KEY"_s.arg(server.baseUrl())) }, { Strategy::P });
    p.options.maxAttempts = 1;
    QVERIFY(runToEnd(runner, p));
    // Each slot went to /v1, was redirected, and was answered from /v2. Qt may send a request again on a
    // fresh connection when the one it was queued on closes after a redirect: hence "at least".
    const int cases = int(m_suite->cases.size());
    int redirected = 0;
    int answered = 0;
    for (const ReceivedRequest& request : std::as_const(server.requests)) {
        QCOMPARE(request.header("Authorization"), QByteArray("Bearer sk-redirect-test-0123456789abcdef"));
        ++(request.path.startsWith("/v1/") ? redirected : answered);
    }
    QVERIFY(redirected >= cases);
    QVERIFY(answered >= cases);
    const auto responses = take(store->responses(runner.runs().constFirst().id));
    QCOMPARE(responses.size(), cases);
    for (const ResponseRow& r : responses)
        QVERIFY2(r.errorKind.isEmpty(), qPrintable(r.errorMessage));
    qunsetenv("STRUCTSCOPE_TEST_REDIRECT_KEY");
}

void TestRunner::insecureKeyIsRefused()
{
    auto store = openStore();
    Runner runner(*store);
    const ModelSpec lan = spec(u"openai:m@http://192.0.2.1:9/v1;key_env=STRUCTSCOPE_TEST_LAN_KEY"_s);
    RunPlan p = plan({ lan }, { Strategy::P });
    QString error;
    QVERIFY(!runner.start(p, &error));
    QVERIFY2(error.contains(u"--allow-insecure-key"_s) && error.contains(u"STRUCTSCOPE_TEST_LAN_KEY"_s)
            && error.contains(u"http://192.0.2.1:9"_s),
        qPrintable(error));
    QVERIFY(take(store->runs()).isEmpty());
    p.options.allowInsecureKey = true;
    QVERIFY2(runner.start(p, &error), qPrintable(error));
    runner.cancel();
}

void TestRunner::concurrencyLimitsAreNeverExceeded()
{
    LoopbackServer server(
        [&](const ReceivedRequest& request, Responder responder) {
            // Each API its own answer: a body that is not the provider's JSON would be asked again.
            const bool ollama = request.path.startsWith("/api/");
            responder.later(
                30, [ollama](Responder r) { r.send(200, ollama ? ollamaAnswer(u"{}"_s) : openAiAnswer(u"{}"_s)); });
        },
        modelOf);
    QVERIFY(server.listen());
    auto store = openStore();
    Runner runner(*store);
    RunPlan p = plan(
        { spec(u"openai:a@%1/v1;key_env="_s.arg(server.baseUrl())),
            spec(u"openai:b@%1/v1;key_env="_s.arg(server.baseUrl())), spec(u"ollama:c@%1"_s.arg(server.baseUrl())) },
        { Strategy::J, Strategy::PJPlus }, 5);
    p.options.perModelConcurrency = 3;
    p.options.globalConcurrency = 7;
    QVERIFY(runToEnd(runner, p));
    QCOMPARE(server.requests.size(), 3 * 2 * 3 * 5);
    QCOMPARE(server.maxInFlight, 7);
    for (const QByteArray model : { "a", "b", "c" })
        QCOMPARE(server.groupMaxInFlight.value(model), 3);
}

void TestRunner::pauseAndResume()
{
    LoopbackServer server([&](const ReceivedRequest&, Responder responder) {
        responder.later(10, [](Responder r) { r.send(200, openAiAnswer(u"{}"_s)); });
    });
    QVERIFY(server.listen());
    auto store = openStore();
    Runner runner(*store);
    RunPlan p = plan({ spec(u"openai:m@%1/v1;key_env="_s.arg(server.baseUrl())) }, { Strategy::P }, 10);
    p.options.perModelConcurrency = 2;
    QSignalSpy finished(&runner, &Runner::finished);
    connect(
        &runner, &Runner::responseReceived, this,
        [&] {
            if (!runner.isPaused() && server.requests.size() < 10)
                runner.pause();
        },
        Qt::SingleShotConnection);
    QVERIFY(runner.start(p));
    QTRY_VERIFY_WITH_TIMEOUT(runner.isPaused(), kWait);
    QCOMPARE(store->run(runner.runs().constFirst().id)->status, RunStatus::Paused);
    // The runner may have sent one more request before the answer that paused it was recorded (it
    // sends before it stores); that one is answered, nothing after it is sent.
    QTRY_COMPARE_WITH_TIMEOUT(runner.progress().inFlight, 0, kWait);
    QTRY_COMPARE_WITH_TIMEOUT(server.inFlight, 0, kWait);
    const qsizetype sentWhilePaused = server.requests.size();
    QCOMPARE(runner.progress().doneThisSession, sentWhilePaused);
    QTest::qWait(200);
    QCOMPARE(server.requests.size(), sentWhilePaused);
    QVERIFY(finished.isEmpty());
    runner.resumeSending();
    QCOMPARE(store->run(runner.runs().constFirst().id)->status, RunStatus::Running);
    QVERIFY(finished.wait(kWait));
    QCOMPARE(server.requests.size(), 30);
    QCOMPARE(store->responseCount(runner.runs().constFirst().id).value(), 30);
}

QTEST_GUILESS_MAIN(TestRunner)
#include "tst_runner.moc"
