// SPDX-License-Identifier: Apache-2.0
// `structscope run` as a user meets it: against simulated models, against `structscope serve-sim`,
// killed with SIGKILL at ten random points and resumed each time — every (case, repeat) ends with exactly
// one stored answer, nothing committed is lost, and no case answered before a kill is requested again.
#include "report/evaluation.h"
#include "scoring/verdictcodec.h"
#include "store/resultstore.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace structscope;
using nlohmann::json;

namespace {

#ifdef STRUCTSCOPE_BINARY
const QString kBinary = QStringLiteral(STRUCTSCOPE_BINARY);
#else
const QString kBinary;
#endif

json fetchStats(quint16 port)
{
    QNetworkAccessManager nam;
    QNetworkReply* reply = nam.get(QNetworkRequest(QUrl(u"http://127.0.0.1:%1/_structscope/stats"_s.arg(port))));
    QSignalSpy finished(reply, &QNetworkReply::finished);
    finished.wait(5000);
    const json stats = json::parse(reply->readAll().toStdString(), nullptr, false);
    delete reply;
    return stats;
}

template <typename T> T take(StoreResult<T> result)
{
    return std::move(result).value();
}

// Starts `structscope serve-sim` on a free port; 0 when it did not say which.
quint16 startServeSim(QProcess& server, const QStringList& extra = {})
{
    server.start(kBinary, QStringList { u"serve-sim"_s, u"--port"_s, u"0"_s, u"--quiet"_s } + extra);
    if (!server.waitForStarted())
        return 0;
    QElapsedTimer clock;
    clock.start();
    QString banner;
    while (clock.elapsed() < 30000) {
        server.waitForReadyRead(200);
        banner += QString::fromUtf8(server.readAllStandardOutput());
        const auto match = QRegularExpression(u"http://127\\.0\\.0\\.1:(\\d+)"_s).match(banner);
        if (match.hasMatch())
            return quint16(match.captured(1).toUInt());
    }
    return 0;
}

// A copy of the built-in email-extraction suite with only its first `cases` cases (serve-sim knows them by id).
bool writeSmallSuite(const QString& dir, int cases)
{
    const QString source = QStringLiteral(STRUCTSCOPE_SOURCE_DIR) + u"/datasets/email-extraction"_s;
    if (!QDir().mkpath(dir + u"/schemas"_s))
        return false;
    for (const QString& name : QDir(source + u"/schemas"_s).entryList(QDir::Files)) {
        if (!QFile::copy(source + u"/schemas/"_s + name, dir + u"/schemas/"_s + name))
            return false;
    }
    if (!QFile::copy(source + u"/suite.json"_s, dir + u"/suite.json"_s))
        return false;
    QFile in(source + u"/cases.jsonl"_s);
    QFile out(dir + u"/cases.jsonl"_s);
    if (!in.open(QIODevice::ReadOnly) || !out.open(QIODevice::WriteOnly))
        return false;
    for (int i = 0; i < cases; ++i)
        out.write(in.readLine());
    return true;
}

} // namespace

class TestRunCrash : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;

private Q_SLOTS:
    void initTestCase();
    void runSimulatedModels();
    void runWithoutKeepingVerdicts();
    void badCommandLines_data();
    void badCommandLines();
    void killedRunsResumeWithoutAskingTwice();
    // The same command, given again after a SIGKILL, continues the killed run: one run, one answer per
    // (case, repeat), and a report that counts 80 answers for 4 cases × 20 repeats — not the killed run's
    // answers plus a second run's.
    void sameCommandAfterAKillContinuesTheRun();
};

void TestRunCrash::initTestCase()
{
    if (kBinary.isEmpty())
        QSKIP("the structscope executable is not built (STRUCTSCOPE_BUILD_UI=OFF)");
    QVERIFY(m_tmp.isValid());
}

void TestRunCrash::runSimulatedModels()
{
    const QString db = m_tmp.filePath(u"sim.db"_s);
    QProcess run;
    run.start(kBinary,
        { u"run"_s, u"--suite"_s, u"schema-tiers"_s, u"--model"_s, u"sim:oracle"_s, u"--model"_s, u"sim:sloppy"_s,
            u"--strategy"_s, u"J,PJ+"_s, u"--store"_s, db });
    QVERIFY(run.waitForFinished(60000));
    const QString out = QString::fromUtf8(run.readAllStandardOutput());
    const QString err = QString::fromUtf8(run.readAllStandardError());
    QVERIFY2(run.exitCode() == 0, qPrintable(err));
    QVERIFY2(err.contains(u"estimate: 300 requests"_s), qPrintable(err)); // 75 cases × 2 models × 2 strategies
    QVERIFY2(err.contains(u"progress: 300/300 (100%)"_s), qPrintable(err));
    QVERIFY2(out.contains(u"sim:sloppy (simulated)"_s) && out.contains(u"75/75"_s), qPrintable(out));
    auto store = ResultStore::open(db);
    QVERIFY(store);
    QCOMPARE(take(store->runs()).size(), 4);

    // The run ends by scoring its answers once and keeping the verdicts: a report reads all 300 instead of
    // scoring them, and they are what scoring the answers gives.
    QVERIFY2(err.contains(u"structscope run: scored and kept 300 verdicts"_s), qPrintable(err));
    QCOMPARE(take(store->storedVerdictCount()), 300);
    const Evaluation kept = evaluateStore(*store);
    QVERIFY2(kept.ok(), qPrintable(kept.error));
    QCOMPARE(kept.stored, 300);
    EvaluationOptions fromAnswers;
    fromAnswers.useStoredVerdicts = false;
    const Evaluation scored = evaluateStore(*store, fromAnswers);
    QVERIFY2(scored.ok(), qPrintable(scored.error));
    QCOMPARE(scored.stored, 0);
    QCOMPARE(scored.records.size(), kept.records.size());
    for (std::size_t i = 0; i < scored.records.size(); ++i) {
        QCOMPARE(kept.records[i].responseId, scored.records[i].responseId);
        QCOMPARE(encodeVerdict(kept.records[i].verdict), encodeVerdict(scored.records[i].verdict));
    }
}

void TestRunCrash::runWithoutKeepingVerdicts()
{
    const QString db = m_tmp.filePath(u"unkept.db"_s);
    QProcess run;
    run.start(kBinary,
        { u"run"_s, u"--suite"_s, u"schema-tiers"_s, u"--model"_s, u"sim:careful"_s, u"--strategy"_s, u"J"_s,
            u"--store"_s, db, u"--no-keep-verdicts"_s });
    QVERIFY(run.waitForFinished(60000));
    const QString err = QString::fromUtf8(run.readAllStandardError());
    QVERIFY2(run.exitCode() == 0, qPrintable(err));
    QVERIFY2(!err.contains(u"kept"_s), qPrintable(err));
    {
        auto store = ResultStore::open(db);
        QVERIFY(store);
        QCOMPARE(take(store->storedVerdictCount()), 0);
    }
    // A second run into the same store keeps the verdicts of both: the first run's too.
    run.start(kBinary,
        { u"run"_s, u"--suite"_s, u"schema-tiers"_s, u"--model"_s, u"sim:oracle"_s, u"--strategy"_s, u"J"_s,
            u"--store"_s, db });
    QVERIFY(run.waitForFinished(60000));
    const QString second = QString::fromUtf8(run.readAllStandardError());
    QVERIFY2(run.exitCode() == 0, qPrintable(second));
    QVERIFY2(second.contains(u"scored and kept 150 verdicts"_s), qPrintable(second));
    auto store = ResultStore::open(db);
    QVERIFY(store);
    QCOMPARE(take(store->storedVerdictCount()), 150);
}

void TestRunCrash::badCommandLines_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::addRow("no suite") << QStringList { u"run"_s, u"--model"_s, u"sim:oracle"_s }
                              << u"--suite DIR|NAME is required"_s;
    QTest::addRow("no model") << QStringList { u"run"_s, u"--suite"_s, u"schema-tiers"_s }
                              << u"--model SPEC is required"_s;
    QTest::addRow("bad spec") << QStringList { u"run"_s, u"--suite"_s, u"schema-tiers"_s, u"--model"_s, u"gpt-4o"_s }
                              << u"names no provider"_s;
    QTest::addRow("bad strategy") << QStringList { u"run"_s, u"--suite"_s, u"schema-tiers"_s, u"--model"_s,
        u"sim:oracle"_s, u"--strategy"_s, u"JSON"_s }
                                  << u"unknown strategy 'JSON'"_s;
    QTest::addRow("unknown suite") << QStringList { u"run"_s, u"--suite"_s, u"nope"_s, u"--model"_s, u"sim:oracle"_s,
        u"--store"_s, u"/nonexistent/x.db"_s }
                                   << u"neither a suite folder"_s;
    QTest::addRow("serve-sim port") << QStringList { u"serve-sim"_s } << u"--port N is required"_s;
}

void TestRunCrash::badCommandLines()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    QProcess run;
    run.start(kBinary, args);
    QVERIFY(run.waitForFinished(30000));
    const QString err = QString::fromUtf8(run.readAllStandardError());
    QVERIFY(run.exitCode() == 1 || run.exitCode() == 2);
    QVERIFY2(err.contains(message), qPrintable(err));
}

void TestRunCrash::killedRunsResumeWithoutAskingTwice()
{
    QProcess server;
    const quint16 port = startServeSim(server, { u"--latency-ms"_s, u"15"_s });
    QVERIFY2(port != 0, qPrintable(QString::fromUtf8(server.readAllStandardError())));
    QElapsedTimer clock;
    clock.start();

    const QString db = m_tmp.filePath(u"crash.db"_s);
    const QString model = u"openai:careful@http://127.0.0.1:%1/v1;case_headers"_s.arg(port);
    const QStringList runArgs = { u"run"_s, u"--suite"_s, u"email-extraction"_s, u"--model"_s, model, u"--strategy"_s,
        u"J"_s, u"--store"_s, db, u"--concurrency"_s, u"2"_s };

    // Ten SIGKILLs at random points: each time the run (then its resumption) is killed after a random number
    // of further requests. After each kill the store opens, keeps every answer it had, and holds one answer
    // per answered case; at the end no case answered before some kill was ever requested again.
    QRandomGenerator rng(20261130);
    qint64 runId = 0;
    QHash<QString, qint64>
        requestsWhenAnswered; // case → the server's request count for it, at the first kill after its answer
    QHash<qint64, QString> ids;
    qint64 previousAnswered = 0;
    int kills = 0;
    for (int round = 0; round < 10; ++round) {
        QProcess run;
        run.start(kBinary,
            runId == 0 ? runArgs
                       : QStringList { u"run"_s, u"--resume"_s, QString::number(runId), u"--store"_s, db,
                           u"--concurrency"_s, u"2"_s });
        QVERIFY(run.waitForStarted());
        const qint64 startRequests = fetchStats(port).value("requests", qint64(0));
        // A random point: once the run is asking, 0–400 ms on (its writer commits every 32 answers or 250 ms).
        qint64 seen = startRequests;
        clock.restart();
        while (seen == startRequests && clock.elapsed() < 30000 && run.state() == QProcess::Running) {
            QTest::qWait(2);
            seen = fetchStats(port).value("requests", qint64(0));
        }
        QTest::qWait(int(rng.bounded(0, 400)));
        if (run.state() != QProcess::Running) {
            // Everything was answered before this kill could land.
            QVERIFY2(run.exitStatus() == QProcess::NormalExit && run.exitCode() == 0,
                qPrintable(QString::fromUtf8(run.readAllStandardError())));
            break;
        }
        seen = fetchStats(port).value("requests", qint64(0));
        run.kill(); // SIGKILL: no flush, no status update
        QVERIFY(run.waitForFinished(10000));
        QCOMPARE(run.exitStatus(), QProcess::CrashExit);
        const json stats = fetchStats(port);

        auto store = ResultStore::open(db);
        QVERIFY(store);
        QVERIFY(store->checkIntegrity().ok());
        const QList<RunRow> runs = take(store->runs());
        QCOMPARE(runs.size(), 1);
        runId = runs.constFirst().id;
        QCOMPARE(runs.constFirst().status, RunStatus::Running); // nobody could say otherwise
        if (ids.isEmpty()) {
            for (const CaseRow& c : take(store->cases(runs.constFirst().suiteRow)))
                ids.insert(c.row, c.id);
        }
        const QSet<ResponseKey> answered = take(store->answeredKeys(runId));
        const qint64 stored = take(store->responseCount(runId));
        QCOMPARE(qint64(answered.size()), stored); // one answer per answered case, none twice
        QVERIFY2(stored >= previousAnswered, "an answer committed before a kill is gone");
        for (const ResponseKey& key : answered) {
            const QString id = ids.value(key.caseRow);
            if (!requestsWhenAnswered.contains(id))
                requestsWhenAnswered.insert(id, stats["per_case"].value(id.toStdString(), qint64(0)));
        }
        qInfo("round %d: killed after %lld more requests; %lld of 200 answered", round,
            static_cast<long long>(seen - startRequests), static_cast<long long>(stored));
        previousAnswered = stored;
        ++kills;
    }
    QVERIFY2(kills >= 6, qPrintable(u"only %1 kills landed before the run was done"_s.arg(kills)));
    QVERIFY2(previousAnswered > 0, "no answer was committed before any kill");

    QProcess resume;
    resume.start(kBinary, { u"run"_s, u"--resume"_s, QString::number(runId), u"--store"_s, db });
    QVERIFY(resume.waitForFinished(60000));
    QVERIFY2(resume.exitCode() == 0, resume.readAllStandardError().constData());
    const json after = fetchStats(port);
    server.terminate();
    server.waitForFinished(5000);

    auto store = ResultStore::open(db);
    QCOMPARE(store->responseCount(runId).value(), 200);
    QCOMPARE(take(store->answeredKeys(runId)).size(), 200);
    QCOMPARE(store->run(runId)->status, RunStatus::Finished);
    for (auto it = requestsWhenAnswered.cbegin(); it != requestsWhenAnswered.cend(); ++it) {
        const qint64 now = after["per_case"].value(it.key().toStdString(), qint64(0));
        QVERIFY2(it.value() == now, qPrintable(u"%1 asked again (%2 → %3)"_s.arg(it.key()).arg(it.value()).arg(now)));
    }
    // And every case of the suite was asked at least once in the end.
    QCOMPARE(qsizetype(after["per_case"].size()), qsizetype(200));
}

void TestRunCrash::sameCommandAfterAKillContinuesTheRun()
{
    QProcess server;
    const quint16 port = startServeSim(server, { u"--latency-ms"_s, u"40"_s });
    QVERIFY2(port != 0, qPrintable(QString::fromUtf8(server.readAllStandardError())));
    const QString suite = m_tmp.filePath(u"four-cases"_s);
    QVERIFY(writeSmallSuite(suite, 4));
    const QString db = m_tmp.filePath(u"again.db"_s);
    const QStringList command = { u"run"_s, u"--suite"_s, suite, u"--model"_s,
        u"openai:careful@http://127.0.0.1:%1/v1;case_headers"_s.arg(port), u"--strategy"_s, u"J"_s, u"--repeats"_s,
        u"20"_s, u"--store"_s, db, u"--concurrency"_s, u"2"_s };

    QProcess first;
    first.start(kBinary, command);
    QVERIFY(first.waitForStarted());
    // Killed once some answers are committed (the writer commits every 250 ms), long before all 80 are in.
    QElapsedTimer clock;
    clock.start();
    while (fetchStats(port).value("requests", qint64(0)) < 6 && clock.elapsed() < 30000
        && first.state() == QProcess::Running)
        QTest::qWait(5);
    QTest::qWait(500);
    QVERIFY2(first.state() == QProcess::Running, qPrintable(QString::fromUtf8(first.readAllStandardError())));
    first.kill();
    QVERIFY(first.waitForFinished(10000));
    QCOMPARE(first.exitStatus(), QProcess::CrashExit);
    qint64 runId = 0;
    qint64 before = 0;
    {
        auto store = ResultStore::open(db);
        QVERIFY(store);
        const QList<RunRow> runs = take(store->runs());
        QCOMPARE(runs.size(), 1);
        runId = runs.constFirst().id;
        before = take(store->responseCount(runId));
    }
    QVERIFY2(before > 0 && before < 80, qPrintable(u"%1 answers stored before the kill"_s.arg(before)));

    QProcess second;
    second.start(kBinary, command);
    QVERIFY(second.waitForFinished(60000));
    const QString err = QString::fromUtf8(second.readAllStandardError());
    QVERIFY2(second.exitStatus() == QProcess::NormalExit && second.exitCode() == 0, qPrintable(err));
    QVERIFY2(
        err.contains(u"resuming run %1 (openai:careful, J): %2 of 80 slots answered before"_s.arg(runId).arg(before)),
        qPrintable(err));

    {
        auto store = ResultStore::open(db);
        QVERIFY(store);
        const QList<RunRow> runs = take(store->runs());
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.constFirst().status, RunStatus::Finished);
        QCOMPARE(take(store->responseCount(runId)), qint64(80));
        QCOMPARE(take(store->answeredKeys(runId)).size(), 80);
        const Evaluation evaluation = evaluateStore(*store);
        QVERIFY2(evaluation.ok(), qPrintable(evaluation.error));
        QCOMPARE(evaluation.records.size(), std::size_t(80));
    }

    QProcess report;
    report.start(kBinary, { u"report"_s, u"--store"_s, db, u"--by"_s, u"model"_s, u"--format"_s, u"json"_s });
    QVERIFY(report.waitForFinished(60000));
    QVERIFY2(report.exitCode() == 0, report.readAllStandardError().constData());
    const json table = json::parse(report.readAllStandardOutput().toStdString(), nullptr, false);
    QVERIFY(table.contains("groups") && table["groups"].size() == 1);
    QCOMPARE(table["groups"][0].value("n", qint64(0)), qint64(80));

    // Given a third time, the command finds its run complete: a new run, another sample of 80.
    QProcess third;
    third.start(kBinary, command);
    QVERIFY(third.waitForFinished(60000));
    const QString thirdErr = QString::fromUtf8(third.readAllStandardError());
    QVERIFY2(third.exitCode() == 0 && !thirdErr.contains(u"resuming"_s), qPrintable(thirdErr));
    server.terminate();
    server.waitForFinished(5000);
    auto store = ResultStore::open(db);
    QVERIFY(store);
    QCOMPARE(take(store->runs()).size(), 2);
}

QTEST_GUILESS_MAIN(TestRunCrash)
#include "tst_runcrash.moc"
