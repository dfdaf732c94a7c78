// serve-sim in process: its model lists, both chat APIs (streaming too) through the runner, case
// recognition by header and by text, minimal instances for unknown prompts, bad requests, faults.
#include "suitefixtures.h"

#include "providers/errorkind.h"
#include "providers/providerrequest.h"
#include "report/aggregator.h"
#include "report/evaluation.h"
#include "report/reportwriter.h"
#include "run/runner.h"
#include "run/suitelocator.h"
#include "sim/minimalinstance.h"
#include "sim/simprofile.h"
#include "sim/simserver.h"
#include "sim/simulator.h"
#include "store/resultstore.h"
#include "suite/suiteloader.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSet>
#include <QSignalSpy>
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
    void initTestCase()
    {
        const SuiteLoadResult loaded = loadSuite(goodSuite());
        QVERIFY(loaded.ok());
        m_suite = loaded.suite;
        qRegisterMetaType<RunStatus>();
    }

    void modelLists()
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

    void runnerThroughServeSim_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<bool>("stream");
        for (const char* provider : { "openai", "ollama" }) {
            for (const bool stream : { false, true })
                QTest::addRow("%s%s", provider, stream ? " stream" : "") << QString::fromLatin1(provider) << stream;
        }
    }

    // The network path gives byte for byte the answers of the in-process simulation.
    void runnerThroughServeSim()
    {
        QFETCH(QString, provider);
        QFETCH(bool, stream);
        SimServer server;
        server.addSuite(m_suite);
        QVERIFY(server.listen());
        const QString base = u"http://127.0.0.1:%1"_s.arg(server.port());
        ModelSpec spec = *parseModelSpec(
            provider == u"openai"_s ? u"openai:sloppy@%1/v1;case_headers"_s.arg(base) : u"ollama:sloppy@%1;case_headers"_s.arg(base));
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
        for (const CaseRecord& c : take(store->cases(runner.runs().constFirst().suiteRow)))
            byRow.insert(c.row, m_suite->findCase(c.id));
        for (const RunRecord& run : runner.runs()) {
            const Strategy strategy = *strategyFromName(run.strategy);
            const auto responses = take(store->responses(run.id));
            QCOMPARE(responses.size(), m_suite->cases.size() * 2);
            for (const ResponseRecord& r : responses) {
                QVERIFY2(r.errorKind.isEmpty(), qPrintable(r.errorMessage));
                const SimAnswer expected
                    = simulateAnswer(*profile, *m_suite, *byRow.value(r.caseRow), strategy, r.repeat);
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

    void recognisesCasesByText()
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

    void unknownPromptsGetAMinimalInstance()
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
        const HttpResult plain = http(
            u"http://127.0.0.1:%1/v1/chat/completions"_s.arg(server.port()), chatBody(u"sim:oracle"_s, u"Hello"_s));
        QCOMPARE(plain.status, 200);
        QVERIFY(json::parse(plain.body.toStdString())["choices"][0]["message"]["content"] == "{}");
        QCOMPARE(server.stats().unknownCases, 2);
    }

    void minimalInstances_data()
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
        QTest::addRow("array min items") << QByteArray(
            "{\"type\": \"array\", \"minItems\": 2, \"items\": {\"const\": 7}}")
                                         << QByteArray("[7, 7]");
        QTest::addRow("ref") << QByteArray("{\"$ref\": \"#/$defs/p\", \"$defs\": {\"p\": {\"type\": \"object\", "
                                           "\"required\": [\"b\"], \"properties\": {\"b\": {\"type\": \"boolean\"}}}}}")
                             << QByteArray("{\"b\": false}");
        QTest::addRow("anyOf") << QByteArray(
            "{\"anyOf\": [{\"type\": \"string\", \"minLength\": 3}, {\"type\": \"null\"}]}")
                               << QByteArray("\"aaa\"");
        QTest::addRow("not a schema") << QByteArray("[1]") << QByteArray("{}");
    }

    void minimalInstances()
    {
        QFETCH(QByteArray, schema);
        QFETCH(QByteArray, instance);
        const json got = minimalInstance(json::parse(schema.toStdString()));
        QVERIFY2(got == json::parse(instance.toStdString()), got.dump().c_str());
    }

    void badRequests()
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

    void injectedFaultsAreSurvived()
    {
        SimServer server;
        server.addSuite(m_suite);
        server.setOptions({ 0, 0.4, 0, 3 });
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
        for (const RunRecord& run : runner.runs()) {
            for (const ResponseRecord& r : take(store->responses(run.id)))
                QVERIFY2(r.errorKind.isEmpty(), qPrintable(r.errorKind));
            QCOMPARE(store->responseCount(run.id).value(), m_suite->cases.size() * 4);
        }
        QCOMPARE(runner.progress().retriesByKind.value(u"malformed_body"_s), faults.value(u"malformed"_s));
        QCOMPARE(runner.progress().retriesByKind.value(u"rate_limited"_s), faults.value(u"rate_limited"_s));
    }

    /// A faulty server is not a bad model: the oracle, asked once per slot (no retries) of a server that fails 30%
    /// of its requests in every way it knows, scores ladder.correct 1 on the slots it answered. n is those slots;
    /// the others are errored — each with the kind of its fault — and every report shows them.
    void faultsAreNotTheModels()
    {
        SimServer server;
        server.addSuite(m_suite);
        server.setOptions({ 0, 0.3, 0, 2 }); // 18 of its 60 requests fail, 4 or 5 in each way
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
        for (const ResponseRecord& r : take(store->responses(runId))) {
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

    /// 30% of over 5,000 requests fail in every way serve-sim knows. The run completes, every (case, repeat)
    /// ends with exactly one answer, and the retries add up to the requests the server saw.
    void thirtyPercentFaultsOverFiveThousandRequests()
    {
        const SuiteLoadResult builtIn = loadSuiteDir(resolveSuitePath(u"email-extraction"_s));
        QVERIFY2(builtIn.ok(), "the built-in email-extraction suite");
        const SuitePtr suite = builtIn.suite;
        SimServer server;
        server.addSuite(suite);
        server.setOptions({ 0, 0.3, 0, 11 });
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
        for (const RunRecord& run : runner.runs()) {
            QSet<QPair<qint64, int>> answeredSlots;
            for (const ResponseRecord& r : take(store->responses(run.id))) {
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
};

QTEST_GUILESS_MAIN(TestServeSim)
#include "tst_servesim.moc"
