// SPDX-License-Identifier: Apache-2.0
// The runner and the store: cancel and resume of stored runs (nothing answered is asked again), the
// request cache, retrying errors in linked runs, simulated models, and that the API key never reaches
// the store file, the errors or the warnings.
#include "runnerfixtures.h"

#include "store/retrylineage.h"

#include <QDir>
#include <QTest>

#include <limits>

using namespace Qt::StringLiterals;
using namespace structscope;
using namespace structscope::testing;
using nlohmann::json;

class TestRunnerStore : public QObject, public RunnerTestBase
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cancelThenResumeAsksOnlyTheRest();
    // Giving the same plan again (RunPlan::continueUnfinished, what `structscope run` does) continues its
    // stopped run; other repeats, another strategy or continueUnfinished off start new runs.
    void samePlanAgainContinuesItsStoppedRun();
    // A run that a session is still sending is not continued, nor resumed, by another one (which would ask its
    // slots a second time); once that session has ended, it is.
    void aRunStillBeingSentIsNotContinuedTwice();
    // A plan of several (model, strategy) pairs continues the stopped ones, leaves the complete ones as they
    // are and starts runs for the pairs it has none for; a model spec that differs is another pair.
    void continuingAPlanOfSeveralRuns();
    void requestCacheReusesAnswers();
    void retryErrorsAsksOnlyTheErrored();
    void apiKeyNeverReachesTheStore();
    // A `$VAR` header's value is a secret as much as the key: a server echoing it in an error or an answer
    // does not put it in the store. Only the header's name and its `$VAR` reference are stored.
    void environmentHeaderValuesAreRedacted();
    // A store can come from anyone. A run planted in it names an endpoint, a key variable and a `$VAR`
    // header: resuming or retrying it reads none of them and sends nothing, unless the user names that
    // endpoint again (their own spec is then used) or says they trust the store.
    void storedEndpointsGetNoSecretsUnlessConfirmed();
    // A stored spec that reads nothing from the environment resumes as before.
    void storedEndpointsWithoutSecretsResume();
    void missingKeyIsAWarning();
    void simulatedModelsNeedNoNetwork();
    // A stored run (from another build, or planted) that names a simulated model this build does not know is refused
    // the same way whether it is resumed or its errors retried, and nothing is stored for it.
    void storedRunOfAnUnknownSimulatedModelIsRefused();
};

void TestRunnerStore::initTestCase()
{
    QVERIFY(initBase());
}

void TestRunnerStore::cancelThenResumeAsksOnlyTheRest()
{
    bool holdSome = true;
    QList<Responder> held;
    LoopbackServer server([&](const ReceivedRequest&, Responder responder) {
        if (holdSome && server.requests.size() > 5) {
            held.append(responder); // in flight when cancelled
            return;
        }
        responder.send(200, openAiAnswer(u"{}"_s));
    });
    QVERIFY(server.listen());
    QString path;
    auto store = openStore(&path);
    const ModelSpec model = spec(u"openai:m@%1/v1;key_env="_s.arg(server.baseUrl()));
    qint64 runId = 0;
    {
        Runner runner(*store);
        RunPlan p = plan({ model }, { Strategy::J }, 4); // 12 slots
        p.options.perModelConcurrency = 2;
        QSignalSpy finished(&runner, &Runner::finished);
        QVERIFY(runner.start(p));
        QTRY_COMPARE_WITH_TIMEOUT(held.size(), 2, kWait);
        runner.cancel();
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.constFirst().constFirst().value<RunStatus>(), RunStatus::Cancelled);
        runId = runner.runs().constFirst().id;
    }
    QCOMPARE(store->run(runId)->status, RunStatus::Cancelled);
    const QSet<ResponseKey> answered = store->answeredKeys(runId).value();
    QCOMPARE(answered.size(), 5);
    const qsizetype before = server.requests.size();
    holdSome = false;
    Runner again(*store);
    QSignalSpy finished(&again, &Runner::finished);
    ResumePlan resume;
    resume.suite = m_suite;
    resume.runIds = { runId };
    resume.options = fastOptions();
    QString error;
    QVERIFY2(again.resume(resume, &error), qPrintable(error));
    QVERIFY(finished.wait(kWait));
    QCOMPARE(server.requests.size() - before, 12 - 5);
    QCOMPARE(store->responseCount(runId).value(), 12);
    QCOMPARE(store->run(runId)->status, RunStatus::Finished);
    // Every (case, repeat) has one answer, and no answered one was asked again after the resume.
    QCOMPARE(store->answeredKeys(runId)->size(), 12);
    QCOMPARE(again.progress().doneThisSession, 7);
}

void TestRunnerStore::samePlanAgainContinuesItsStoppedRun()
{
    qsizetype holdAfter = 5;
    QList<Responder> held;
    LoopbackServer server([&](const ReceivedRequest&, Responder responder) {
        if (server.requests.size() > holdAfter) {
            held.append(responder);
            return;
        }
        responder.send(200, openAiAnswer(u"{}"_s));
    });
    QVERIFY(server.listen());
    auto store = openStore();
    const ModelSpec model = spec(u"openai:m@%1/v1;key_env="_s.arg(server.baseUrl()));
    const auto samePlan = [&](int repeats = 4, Strategy strategy = Strategy::J) {
        RunPlan p = plan({ model }, { strategy }, repeats); // 3 cases
        p.options.perModelConcurrency = 2;
        p.options.useCache = false; // every slot asked is a request
        p.continueUnfinished = true;
        return p;
    };
    // Starts `p`, lets `answers` requests be answered, and cancels it: its run is stopped half-way.
    const auto stopHalfWay = [&](const RunPlan& p, qsizetype answers) -> qint64 {
        holdAfter = server.requests.size() + answers;
        const qsizetype heldBefore = held.size();
        Runner runner(*store);
        if (!runner.start(p))
            return 0;
        if (!QTest::qWaitFor([&] { return held.size() == heldBefore + 2; }, kWait))
            return 0;
        runner.cancel();
        holdAfter = std::numeric_limits<qsizetype>::max();
        return runner.runs().constFirst().id;
    };
    const qint64 stopped = stopHalfWay(samePlan(), 5);
    QVERIFY(stopped > 0);
    QCOMPARE(take(store->responseCount(stopped)), qint64(5));

    Runner runner(*store);
    // Other repeats, another strategy: other plans, new runs; the stopped run is not touched.
    QVERIFY(runToEnd(runner, samePlan(3)));
    QVERIFY(runner.continuedRuns().isEmpty());
    QVERIFY(runner.runs().constFirst().id != stopped);
    QVERIFY(runToEnd(runner, samePlan(4, Strategy::PJ)));
    QVERIFY(runner.continuedRuns().isEmpty());
    QVERIFY(runner.runs().constFirst().id != stopped);
    QCOMPARE(take(store->responseCount(stopped)), qint64(5));

    // The same plan: the stopped run, asked only its 7 missing slots.
    const qsizetype before = server.requests.size();
    QVERIFY(runToEnd(runner, samePlan()));
    QCOMPARE(runner.runs().size(), 1);
    QCOMPARE(runner.runs().constFirst().id, stopped);
    QCOMPARE(runner.continuedRuns(), QList<qint64> { stopped });
    QCOMPARE(server.requests.size() - before, 12 - 5);
    QCOMPARE(take(store->responseCount(stopped)), qint64(12));
    QCOMPARE(take(store->answeredKeys(stopped)).size(), 12);
    QCOMPARE(store->run(stopped)->status, RunStatus::Finished);
    const qsizetype runsBefore = take(store->runs()).size();

    // Complete now, so the same plan again is another sample: a new run.
    QVERIFY(runToEnd(runner, samePlan()));
    QVERIFY(runner.continuedRuns().isEmpty());
    QVERIFY(runner.runs().constFirst().id != stopped);
    QCOMPARE(take(store->runs()).size(), runsBefore + 1);

    // continueUnfinished off (`run --new-run`): a new run although the latest one stopped half-way.
    const qint64 stoppedAgain = stopHalfWay(samePlan(), 3);
    QVERIFY(stoppedAgain > 0);
    RunPlan fresh = samePlan();
    fresh.continueUnfinished = false;
    QVERIFY(runToEnd(runner, fresh));
    QVERIFY(runner.continuedRuns().isEmpty());
    QVERIFY(runner.runs().constFirst().id != stoppedAgain);
    QCOMPARE(take(store->responseCount(stoppedAgain)), qint64(3));
}

void TestRunnerStore::aRunStillBeingSentIsNotContinuedTwice()
{
    bool hold = true;
    QList<Responder> held;
    LoopbackServer server([&](const ReceivedRequest&, Responder responder) {
        if (hold && server.requests.size() > 2) {
            held.append(responder);
            return;
        }
        responder.send(200, openAiAnswer(u"{}"_s));
    });
    QVERIFY(server.listen());
    auto store = openStore();
    RunPlan p = plan({ spec(u"openai:m@%1/v1;key_env="_s.arg(server.baseUrl())) }, { Strategy::J }, 2);
    p.options.perModelConcurrency = 2;
    p.options.useCache = false;
    p.continueUnfinished = true;
    Runner sending(*store);
    QVERIFY(sending.start(p));
    QTRY_COMPARE_WITH_TIMEOUT(held.size(), 2, kWait);
    QTRY_COMPARE_WITH_TIMEOUT(take(store->responseCount(sending.runs().constFirst().id)), qint64(2), kWait);
    const qint64 runId = sending.runs().constFirst().id;

    Runner second(*store);
    QString error;
    QVERIFY(!second.start(p, &error));
    QVERIFY2(error.contains(u"run %1 of this command is still being sent by another StructScope"_s.arg(runId)),
        qPrintable(error));
    ResumePlan resume;
    resume.suite = m_suite;
    resume.runIds = { runId };
    resume.options = fastOptions();
    QVERIFY(!second.resume(resume, &error));
    QVERIFY2(error.contains(u"still being sent"_s), qPrintable(error));
    QCOMPARE(take(store->runs()).size(), 1);

    sending.cancel();
    hold = false;
    const qsizetype before = server.requests.size();
    QVERIFY(runToEnd(second, p));
    QCOMPARE(second.continuedRuns(), QList<qint64> { runId });
    QCOMPARE(server.requests.size() - before, 6 - 2);
    QCOMPARE(take(store->responseCount(runId)), qint64(6));
}

void TestRunnerStore::continuingAPlanOfSeveralRuns()
{
    qsizetype holdAfter = std::numeric_limits<qsizetype>::max();
    QList<Responder> held;
    LoopbackServer server([&](const ReceivedRequest&, Responder responder) {
        if (server.requests.size() > holdAfter) {
            held.append(responder);
            return;
        }
        responder.send(200, openAiAnswer(u"{}"_s));
    });
    QVERIFY(server.listen());
    auto store = openStore();
    const ModelSpec a = spec(u"openai:a@%1/v1;key_env="_s.arg(server.baseUrl()));
    const ModelSpec warmA = spec(u"openai:a@%1/v1;key_env=;temperature=0.7"_s.arg(server.baseUrl()));
    const ModelSpec b = spec(u"openai:b@%1/v1;key_env="_s.arg(server.baseUrl()));
    const auto makePlan = [&](const QList<ModelSpec>& models, const QList<Strategy>& strategies) {
        RunPlan p = plan(models, strategies, 2); // 6 slots a run
        p.options.perModelConcurrency = 2;
        p.options.useCache = false;
        p.continueUnfinished = true;
        return p;
    };
    Runner runner(*store);
    QVERIFY(runToEnd(runner, makePlan({ a }, { Strategy::J })));
    const qint64 complete = runner.runs().constFirst().id;
    qint64 stopped = 0;
    {
        holdAfter = server.requests.size() + 2;
        Runner stopping(*store);
        QVERIFY(stopping.start(makePlan({ a }, { Strategy::PJ })));
        QVERIFY(QTest::qWaitFor([&] { return held.size() == 2; }, kWait));
        stopping.cancel();
        holdAfter = std::numeric_limits<qsizetype>::max();
        stopped = stopping.runs().constFirst().id;
    }
    QCOMPARE(take(store->responseCount(stopped)), qint64(2));

    const qsizetype before = server.requests.size();
    QVERIFY(runToEnd(runner, makePlan({ a, warmA, b }, { Strategy::J, Strategy::PJ })));
    QCOMPARE(runner.continuedRuns(), QList<qint64> { stopped });
    QList<qint64> ids;
    for (const RunRow& run : runner.runs())
        ids << run.id;
    QCOMPARE(ids.size(), 5); // a/PJ continued, a/J complete, and new runs for warmA and b
    QVERIFY(!ids.contains(complete));
    QVERIFY(ids.contains(stopped));
    QCOMPARE(server.requests.size() - before, 4 + 4 * 6);
    QCOMPARE(take(store->responseCount(stopped)), qint64(6));
    QCOMPARE(take(store->responseCount(complete)), qint64(6));
    QCOMPARE(take(store->runs()).size(), 2 + 4);
}

void TestRunnerStore::requestCacheReusesAnswers()
{
    LoopbackServer server([&](const ReceivedRequest& request, Responder responder) {
        responder.send(200, openAiAnswer(u"{\"n\": %1}"_s.arg(server.requests.size()), 100, 10));
        Q_UNUSED(request);
    });
    QVERIFY(server.listen());
    auto store = openStore();
    const ModelSpec model = spec(u"openai:m@%1/v1;key_env="_s.arg(server.baseUrl()));
    Runner runner(*store);
    runner.setPriceTable(testPrices());
    QVERIFY(runToEnd(runner, plan({ model }, { Strategy::PJ }, 2)));
    QCOMPARE(server.requests.size(), 6);
    const QList<ResponseRow> first = store->responses(runner.runs().constFirst().id).value();
    QVERIFY(runToEnd(runner, plan({ model }, { Strategy::PJ }, 2)));
    QCOMPARE(server.requests.size(), 6); // nothing sent
    QCOMPARE(runner.progress().cached, 6);
    const QList<ResponseRow> second = store->responses(runner.runs().constFirst().id).value();
    QCOMPARE(second.size(), 6);
    for (const ResponseRow& r : second) {
        QCOMPARE(r.attempts, 0);
        const auto original = std::find_if(first.begin(), first.end(),
            [&](const ResponseRow& o) { return o.caseRow == r.caseRow && o.repeat == r.repeat; });
        QVERIFY(original != first.end());
        QCOMPARE(r.rawText, original->rawText);
        QCOMPARE(r.requestHash, original->requestHash);
    }
    RunPlan noCache = plan({ model }, { Strategy::PJ }, 2);
    noCache.options.useCache = false;
    QVERIFY(runToEnd(runner, noCache));
    QCOMPARE(server.requests.size(), 12);
}

void TestRunnerStore::retryErrorsAsksOnlyTheErrored()
{
    bool broken = true;
    LoopbackServer server([&](const ReceivedRequest& request, Responder responder) {
        if (broken && caseOf(request) == u"p-1"_s)
            responder.send(400, "{\"error\": \"nope\"}");
        else
            responder.send(200, openAiAnswer(u"{}"_s));
    });
    QVERIFY(server.listen());
    auto store = openStore();
    Runner runner(*store);
    QVERIFY(
        runToEnd(runner, plan({ spec(u"openai:m@%1/v1;case_headers"_s.arg(server.baseUrl())) }, { Strategy::J }, 2)));
    const qint64 runId = runner.runs().constFirst().id;
    QCOMPARE(server.requests.size(), 6);
    broken = false;
    RetryPlan retry;
    retry.suite = m_suite;
    retry.runIds = { runId };
    retry.errorKinds = { u"http_4xx"_s };
    retry.options = fastOptions();
    QSignalSpy finished(&runner, &Runner::finished);
    QVERIFY(runner.retryErrors(retry));
    QVERIFY(finished.wait(kWait));
    QCOMPARE(server.requests.size(), 8);
    for (qsizetype i = 6; i < 8; ++i)
        QCOMPARE(caseOf(server.requests.at(i)), u"p-1"_s);
    const RunRow retryRun = runner.runs().constFirst();
    QVERIFY(retryRun.id != runId);
    QVERIFY(retryRun.settings["retry_of"] == runId);
    QCOMPARE(store->responseCount(retryRun.id).value(), 2);
    // A report counts the retried answers and leaves out the errors they replace.
    QList<ResponseRow> all = take(store->responses(runId));
    all += take(store->responses(retryRun.id));
    const QList<RunRow> runs = take(store->runs());
    QCOMPARE(retryRoots(runs).value(retryRun.id), runId);
    const QSet<qint64> superseded = supersededResponses(runs, all);
    QCOMPARE(superseded.size(), 2);
    for (const ResponseRow& r : std::as_const(all))
        QCOMPARE(superseded.contains(r.id), r.runId == runId && !r.errorKind.isEmpty());
    // A second retry finds nothing left to ask.
    QVERIFY(runner.retryErrors(retry));
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isActive(), kWait);
    QCOMPARE(server.requests.size(), 8);
}

void TestRunnerStore::apiKeyNeverReachesTheStore()
{
    const QByteArray key = "sk-structscope-test-0123456789abcdefXYZ";
    qputenv("STRUCTSCOPE_TEST_API_KEY", key);
    QList<QByteArray> authorizations;
    LoopbackServer server([&](const ReceivedRequest& request, Responder responder) {
        authorizations.append(request.header("Authorization"));
        // Servers do echo keys back; the runner must not keep them.
        if (caseOf(request) == u"t-1"_s)
            responder.send(401, "{\"error\": {\"message\": \"Incorrect API key provided: " + key + "\"}}");
        else
            responder.send(200, openAiAnswer(u"{\"echo\": \"%1\"}"_s.arg(QString::fromLatin1(key))));
    });
    QVERIFY(server.listen());
    QString path;
    auto store = openStore(&path);
    Runner runner(*store);
    QStringList warnings;
    connect(&runner, &Runner::warning, this, [&](const QString& w) { warnings << w; });
    const ModelSpec model
        = spec(u"openai:m@%1/v1;key_env=STRUCTSCOPE_TEST_API_KEY;case_headers"_s.arg(server.baseUrl()));
    QVERIFY(runToEnd(runner, plan({ model }, { Strategy::J, Strategy::PJPlus })));
    QCOMPARE(authorizations.size(), 6);
    for (const QByteArray& a : std::as_const(authorizations))
        QCOMPARE(a, "Bearer " + key);
    for (const RunRow& run : take(store->runs())) {
        QVERIFY(!QByteArray::fromStdString(run.settings.dump()).contains(key));
        QVERIFY(!run.modelSpec.contains(QString::fromLatin1(key)));
        QVERIFY(run.settings["key_env"] == "STRUCTSCOPE_TEST_API_KEY");
        for (const ResponseRow& r : take(store->responses(run.id))) {
            QVERIFY(!r.errorMessage.contains(QString::fromLatin1(key)));
            QVERIFY(!r.rawText.contains(QString::fromLatin1(key)));
            if (!r.errorKind.isEmpty())
                QVERIFY2(r.errorMessage.contains(u"[redacted]"_s), qPrintable(r.errorMessage));
        }
    }
    for (const QString& w : std::as_const(warnings))
        QVERIFY(!w.contains(QString::fromLatin1(key)));
    store.reset();
    for (const QString& file : QDir(m_tmp.path()).entryList({ QFileInfo(path).fileName() + u"*"_s }, QDir::Files)) {
        QFile f(m_tmp.filePath(file));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY2(!f.readAll().contains(key), qPrintable(file));
    }
    qunsetenv("STRUCTSCOPE_TEST_API_KEY");
}

void TestRunnerStore::environmentHeaderValuesAreRedacted()
{
    const QByteArray secret = "subscription-0123456789abcdef";
    qputenv("STRUCTSCOPE_TEST_SUBSCRIPTION", secret);
    LoopbackServer server([&](const ReceivedRequest& request, Responder responder) {
        const QByteArray sent = request.header("Ocp-Apim-Subscription-Key");
        if (server.requests.size() % 2)
            responder.send(401, "{\"error\": {\"message\": \"subscription key " + sent + " is invalid\"}}");
        else
            responder.send(200, openAiAnswer(u"{\"echo\": \"%1\"}"_s.arg(QString::fromLatin1(sent))));
    });
    QVERIFY(server.listen());
    QString path;
    auto store = openStore(&path);
    Runner runner(*store);
    const ModelSpec model = spec(
        u"openai:m@%1/v1;header=Ocp-Apim-Subscription-Key:$STRUCTSCOPE_TEST_SUBSCRIPTION"_s.arg(server.baseUrl()));
    QVERIFY(runToEnd(runner, plan({ model }, { Strategy::J })));
    QCOMPARE(server.requests.size(), int(m_suite->cases.size()));
    for (const ReceivedRequest& r : std::as_const(server.requests))
        QCOMPARE(r.header("Ocp-Apim-Subscription-Key"), secret);
    int errors = 0;
    for (const RunRow& run : take(store->runs())) {
        QVERIFY(run.settings["headers"]["Ocp-Apim-Subscription-Key"] == "$STRUCTSCOPE_TEST_SUBSCRIPTION");
        for (const ResponseRow& r : take(store->responses(run.id))) {
            QVERIFY2(!r.errorMessage.contains(QString::fromLatin1(secret)), qPrintable(r.errorMessage));
            QVERIFY2(!r.rawText.contains(QString::fromLatin1(secret)), qPrintable(r.rawText));
            if (!r.errorKind.isEmpty()) {
                ++errors;
                QVERIFY2(r.errorMessage.contains(u"[redacted]"_s), qPrintable(r.errorMessage));
            }
        }
    }
    QVERIFY(errors > 0);
    store.reset();
    for (const QString& file : QDir(m_tmp.path()).entryList({ QFileInfo(path).fileName() + u"*"_s }, QDir::Files)) {
        QFile f(m_tmp.filePath(file));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY2(!f.readAll().contains(secret), qPrintable(file));
    }
    qunsetenv("STRUCTSCOPE_TEST_SUBSCRIPTION");
}

void TestRunnerStore::storedEndpointsGetNoSecretsUnlessConfirmed()
{
    qputenv("STRUCTSCOPE_TEST_VICTIM_TOKEN", "victim-token-0123456789");
    qputenv("STRUCTSCOPE_TEST_AWS_SECRET", "aws-secret-0123456789");
    QList<ReceivedRequest> received;
    LoopbackServer server([&](const ReceivedRequest& request, Responder responder) {
        received.append(request);
        responder.send(400, "{\"error\": \"nope\"}");
    });
    QVERIFY(server.listen());
    auto store = openStore();
    // The attacker's run: no answer yet, so resume would ask every slot.
    const ModelSpec planted = spec(u"openai:m@%1/v1;key_env=STRUCTSCOPE_TEST_VICTIM_TOKEN;"
                                   "header=X-Leak:$STRUCTSCOPE_TEST_AWS_SECRET"_s.arg(server.baseUrl()));
    const auto stored = storeSuiteForRun(*store, *m_suite);
    QVERIFY(stored);
    const auto run = store->createRun(
        makeRunRow(stored.value(), *m_suite, planted, Strategy::P, 1, runSettings(planted, fastOptions())));
    QVERIFY(run);
    QVERIFY(store->finishRun(run->id, RunStatus::Interrupted));

    Runner runner(*store);
    ResumePlan resume;
    resume.suite = m_suite;
    resume.runIds = { run->id };
    resume.options = fastOptions();
    QString error;
    QVERIFY(!runner.resume(resume, &error));
    for (const QString& part : { u"STRUCTSCOPE_TEST_VICTIM_TOKEN"_s, u"STRUCTSCOPE_TEST_AWS_SECRET"_s,
             urlOrigin(QUrl(server.baseUrl())), u"--trust-store-origin"_s, u"--model"_s })
        QVERIFY2(error.contains(part), qPrintable(error));
    QVERIFY(!error.contains(u"victim-token"_s) && !error.contains(u"aws-secret"_s));
    RetryPlan retry;
    retry.suite = m_suite;
    retry.runIds = { run->id };
    retry.options = fastOptions();
    QVERIFY(!runner.retryErrors(retry, &error));
    QVERIFY2(error.contains(u"STRUCTSCOPE_TEST_VICTIM_TOKEN"_s), qPrintable(error));
    QTest::qWait(50);
    QVERIFY(received.isEmpty());
    const QList<StoredEndpoint> untrusted = untrustedStoredEndpoints({ run.value() }, {});
    QCOMPARE(untrusted.size(), 1);
    QCOMPARE(untrusted.constFirst().origin, urlOrigin(QUrl(server.baseUrl())));
    QCOMPARE(untrusted.constFirst().variables,
        (QStringList { u"STRUCTSCOPE_TEST_VICTIM_TOKEN"_s, u"STRUCTSCOPE_TEST_AWS_SECRET"_s }));

    // The user names the endpoint: their spec is sent (their key variable, no planted header).
    qputenv("STRUCTSCOPE_TEST_MY_KEY", "my-key-0123456789");
    const ModelSpec mine = spec(u"openai:m@%1/v1;key_env=STRUCTSCOPE_TEST_MY_KEY"_s.arg(server.baseUrl()));
    QVERIFY(untrustedStoredEndpoints({ run.value() }, { mine }).isEmpty());
    resume.specs = { mine };
    QSignalSpy finished(&runner, &Runner::finished);
    QVERIFY2(runner.resume(resume, &error), qPrintable(error));
    QVERIFY(finished.wait(kWait));
    QCOMPARE(received.size(), int(m_suite->cases.size()));
    for (const ReceivedRequest& r : std::as_const(received)) {
        QCOMPARE(r.header("Authorization"), QByteArray("Bearer my-key-0123456789"));
        QVERIFY(r.header("X-Leak").isEmpty());
    }

    // The user trusts the store: its endpoint and variables are used.
    received.clear();
    retry.trustStoreOrigins = true;
    QVERIFY2(runner.retryErrors(retry, &error), qPrintable(error));
    QVERIFY(finished.wait(kWait));
    QCOMPARE(received.size(), int(m_suite->cases.size()));
    for (const ReceivedRequest& r : std::as_const(received)) {
        QCOMPARE(r.header("Authorization"), QByteArray("Bearer victim-token-0123456789"));
        QCOMPARE(r.header("X-Leak"), QByteArray("aws-secret-0123456789"));
    }
    for (const char* name :
        { "STRUCTSCOPE_TEST_VICTIM_TOKEN", "STRUCTSCOPE_TEST_AWS_SECRET", "STRUCTSCOPE_TEST_MY_KEY" })
        qunsetenv(name);
}

void TestRunnerStore::storedEndpointsWithoutSecretsResume()
{
    LoopbackServer server(
        [&](const ReceivedRequest&, Responder responder) { responder.send(200, openAiAnswer(u"{}"_s)); });
    QVERIFY(server.listen());
    auto store = openStore();
    const ModelSpec model = spec(u"openai:m@%1/v1"_s.arg(server.baseUrl()));
    const auto stored = storeSuiteForRun(*store, *m_suite);
    QVERIFY(stored);
    const auto run = store->createRun(
        makeRunRow(stored.value(), *m_suite, model, Strategy::P, 1, runSettings(model, fastOptions())));
    QVERIFY(run);
    Runner runner(*store);
    QSignalSpy finished(&runner, &Runner::finished);
    QString error;
    QVERIFY2(runner.resume({ m_suite, { run->id }, {}, fastOptions() }, &error), qPrintable(error));
    QVERIFY(finished.wait(kWait));
    QCOMPARE(server.requests.size(), int(m_suite->cases.size()));
    for (const ReceivedRequest& r : std::as_const(server.requests))
        QVERIFY(r.header("Authorization").isEmpty());
}

void TestRunnerStore::missingKeyIsAWarning()
{
    qunsetenv("STRUCTSCOPE_TEST_MISSING_KEY");
    LoopbackServer server(
        [&](const ReceivedRequest&, Responder responder) { responder.send(200, openAiAnswer(u"{}"_s)); });
    QVERIFY(server.listen());
    auto store = openStore();
    Runner runner(*store);
    QStringList warnings;
    connect(&runner, &Runner::warning, this, [&](const QString& w) { warnings << w; });
    QVERIFY(runToEnd(runner,
        plan({ spec(u"openai:m@%1/v1;key_env=STRUCTSCOPE_TEST_MISSING_KEY"_s.arg(server.baseUrl())) },
            { Strategy::P })));
    QCOMPARE(warnings.size(), 1);
    QVERIFY2(warnings.constFirst().contains(u"STRUCTSCOPE_TEST_MISSING_KEY is not set"_s),
        qPrintable(warnings.constFirst()));
    for (const ReceivedRequest& r : std::as_const(server.requests))
        QVERIFY(r.header("Authorization").isEmpty());
}

void TestRunnerStore::simulatedModelsNeedNoNetwork()
{
    auto store = openStore();
    Runner runner(*store);
    QVERIFY(runToEnd(runner, plan({ spec(u"sim:oracle"_s), spec(u"sim:sloppy"_s) }, allStrategies(), 3)));
    QCOMPARE(runner.runs().size(), 10);
    for (const RunRow& run : runner.runs()) {
        QCOMPARE(run.providerKind, u"sim"_s);
        QVERIFY(run.settings["simulated"] == true);
        const auto responses = store->responses(run.id).value();
        QCOMPARE(responses.size(), int(m_suite->cases.size()) * 3);
        for (const ResponseRow& r : responses) {
            QVERIFY(r.errorKind.isEmpty());
            QVERIFY(r.latencyMs && *r.latencyMs > 0);
            QCOMPARE(r.costSource, r.cost ? CostSource::PriceTable : CostSource::None);
        }
    }
    QString error;
    QVERIFY(!runner.start(plan({ spec(u"sim:no-such-profile"_s) }, { Strategy::P }), &error));
    QVERIFY2(error.contains(u"unknown simulated model 'sim:no-such-profile'"_s), qPrintable(error));
}

void TestRunnerStore::storedRunOfAnUnknownSimulatedModelIsRefused()
{
    auto store = openStore();
    const ModelSpec unknown = spec(u"sim:no-such-profile"_s);
    const auto stored = storeSuiteForRun(*store, *m_suite);
    QVERIFY(stored);
    const auto run = store->createRun(
        makeRunRow(stored.value(), *m_suite, unknown, Strategy::P, 1, runSettings(unknown, fastOptions())));
    QVERIFY(run);
    ResponseRow failed;
    failed.runId = run->id;
    failed.caseRow = stored->caseRows.cbegin().value();
    failed.repeat = 0;
    failed.requestHash = u"h"_s;
    failed.errorKind = u"timeout"_s;
    QVERIFY(store->appendResponses({ failed }).ok());
    QVERIFY(store->finishRun(run->id, RunStatus::Interrupted));
    const int runsBefore = int(store->runs()->size());

    Runner runner(*store);
    ResumePlan resume;
    resume.suite = m_suite;
    resume.runIds = { run->id };
    resume.options = fastOptions();
    QString error;
    QVERIFY(!runner.resume(resume, &error));
    QVERIFY2(error.contains(u"unknown simulated model 'sim:no-such-profile'"_s), qPrintable(error));
    RetryPlan retry;
    retry.suite = m_suite;
    retry.runIds = { run->id };
    retry.options = fastOptions();
    error.clear();
    QVERIFY(!runner.retryErrors(retry, &error));
    QVERIFY2(error.contains(u"unknown simulated model 'sim:no-such-profile'"_s), qPrintable(error));
    QCOMPARE(int(store->runs()->size()), runsBefore); // no retry run was created
}

QTEST_GUILESS_MAIN(TestRunnerStore)
#include "tst_runnerstore.moc"
