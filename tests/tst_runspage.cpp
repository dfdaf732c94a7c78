// SPDX-License-Identifier: Apache-2.0
// The Runs page and the launch dialog on the offscreen platform: the past-runs model under
// QAbstractItemModelTester with hand-checked rows; runs of simulated models launched through the page,
// paused, cancelled and resumed with no slot asked twice; a resume that finds its suite folder; errors
// asked again; the dialog's cost estimate; "test connection" against a loopback server (success and
// HTTP 401); the page in the main window; screenshots of the page and the dialog.
#include "mainwindow.h"
#include "models/runsmodel.h"
#include "pages/runspage.h"
#include "report/reportformatting.h"
#include "run/runner.h"
#include "runnerfixtures.h"
#include "settings/settings.h"
#include "store/resultstore.h"
#include "store/suiteimport.h"
#include "suite/suiteloader.h"
#include "widgets/launchdialog.h"
#include "workspace/workspace.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace Qt::StringLiterals;
using namespace structscope;
using namespace structscope::testing;

namespace {

constexpr int kTimeoutMs = 30000;
constexpr auto kReport = QAbstractItemModelTester::FailureReportingMode::QtTest;
constexpr char kKeyVariable[] = "STRUCTSCOPE_RUNSPAGE_TEST_KEY";
constexpr char kWrongKeyVariable[] = "STRUCTSCOPE_RUNSPAGE_WRONG_KEY";
const QByteArray kKey = "sk-runspage-test-7421";
const QByteArray kWrongKey = "sk-runspage-wrong-9999";

QString screenshotDir()
{
    const QString dir = QCoreApplication::applicationDirPath() + u"/screenshots"_s;
    QDir().mkpath(dir);
    return dir;
}

bool writeSuite(const QString& dir, const SuiteFiles& files)
{
    for (const auto& [name, content] : files) {
        const QString path = QDir(dir).filePath(name);
        QDir().mkpath(QFileInfo(path).path());
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size())
            return false;
    }
    return true;
}

/// Dollars to a micro-dollar, for comparisons that do not depend on rounding in the last bits.
qint64 dollars(double value)
{
    return std::llround(value * 1e6);
}

/// The texts of a row of the view (as sorted and shown).
QStringList rowTexts(const QAbstractItemModel* model, int row)
{
    QStringList texts;
    for (int column = 0; column < model->columnCount(); ++column)
        texts << model->index(row, column).data().toString();
    return texts;
}

} // namespace

class TestRunsPage : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    SuitePtr m_suite; ///< the mini suite of suitefixtures.h (3 cases), loaded from m_suiteDir
    QString m_suiteDir;
    int m_stores = 0;

    QString newStore()
    {
        const QString path = m_tmp.filePath(u"runs-%1.db"_s.arg(++m_stores));
        QString error;
        if (!ResultStore::open(path, &error))
            qWarning("cannot create %s: %s", qPrintable(path), qPrintable(error));
        return path;
    }

    RunPlan simPlan(const QStringList& profiles, const QList<Strategy>& strategies, int repeats) const
    {
        RunPlan plan;
        plan.suite = m_suite;
        for (const QString& p : profiles)
            plan.models << spec(u"sim:"_s + p);
        plan.strategies = strategies;
        plan.repeats = repeats;
        plan.options = fastOptions();
        return plan;
    }

    static bool waitIdle(RunsPage& page)
    {
        return QTest::qWaitFor([&page] { return !page.isBusy() && page.hasLoadedRuns(); }, kTimeoutMs);
    }

    /// Responses of a run: count, and distinct (case, repeat) slots.
    static std::pair<qint64, qint64> answers(const QString& location, qint64 runId)
    {
        auto store = ResultStore::open(location);
        if (!store)
            return { -1, -1 };
        const auto count = store->responseCount(runId);
        const auto keys = store->answeredKeys(runId);
        return { count ? count.value() : -1, keys ? qint64(keys->size()) : -1 };
    }

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    // ---- the past-runs model ----------------------------------------------------------------

    void runsModelRowsAreHandChecked();
    // ---- launching, pausing, cancelling and resuming -------------------------------------

    void refusesWithoutAWorkspaceOrABadPlan();
    void launchesSimulatedModelsToTheEnd();
    void pauseCancelAndResumeAskEverySlotOnce();
    void closingTheWorkspaceInterruptsTheRun();
    void resumeFindsTheSuiteFolderOrSaysWhy();
    void retryErrorsAsksTheErroredAnswersAgain();
    // A run planted in a shared store names its endpoint and the variables it wants. Resuming it asks the
    // user first, showing the origin and the variables; declined, nothing is sent.
    void resumeAsksBeforeSendingToAStoreEndpoint();
    // ---- the launch dialog ------------------------------------------------------------------

    void launchDialogEstimatesTheCost();
    void launchDialogTestsTheConnection();
    void launchDialogStartsThroughThePage();
    void runsIsTheFirstPageOfTheMainWindow();
    // Profiles of the launcher outlive the page (a new page offers them again), without secrets: a
    // header with a literal value (a bearer token, or anything else) is dropped, one naming a variable
    // ($VAR) stays; simulated profiles are not stored (they are always offered).
    void modelProfilesAreRememberedWithoutSecrets();
};

void TestRunsPage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"StructScopeTests"_s);
    QCoreApplication::setApplicationName(u"tst_runspage"_s);
    QSettings().clear();
    QVERIFY(m_tmp.isValid());
    m_suiteDir = m_tmp.filePath(u"mini"_s);
    QVERIFY(writeSuite(m_suiteDir, goodSuite()));
    const SuiteLoadResult loaded = loadSuiteDir(m_suiteDir);
    QVERIFY2(loaded.ok(), qPrintable(loaded.problems.value(0).toString()));
    m_suite = loaded.suite;
    QCOMPARE(m_suite->cases.size(), 3);
    qputenv(kKeyVariable, kKey);
    qputenv(kWrongKeyVariable, kWrongKey);
}

void TestRunsPage::cleanupTestCase()
{
    QSettings().clear();
}

void TestRunsPage::runsModelRowsAreHandChecked()
{
    const QString location = newStore();
    auto store = ResultStore::open(location);
    QVERIFY(store);
    const auto stored = storeSuiteForRun(*store, *m_suite);
    QVERIFY(stored);
    const qint64 t1 = stored->caseRows.value(u"t-1"_s);
    const qint64 t2 = stored->caseRows.value(u"t-2"_s);
    const qint64 p1 = stored->caseRows.value(u"p-1"_s);
    const QDateTime ended(QDate(2025, 4, 17), QTime(9, 30, 5));

    // Run 1: sim:oracle, P, 2 repeats: 6 slots, all answered, one of them a timeout; 5 × $0.001.
    RunRow a = makeRunRow(stored.value(), *m_suite, spec(u"sim:oracle"_s), Strategy::P, 2, nlohmann::json::object());
    a = store->createRun(a).value();
    QList<ResponseRow> responses;
    for (const qint64 row : { t1, t2, p1 }) {
        for (int repeat = 0; repeat < 2; ++repeat) {
            ResponseRow r;
            r.runId = a.id;
            r.caseRow = row;
            r.repeat = repeat;
            r.rawText = u"{}"_s;
            r.httpStatus = 200;
            if (row == p1 && repeat == 1) {
                r.errorKind = u"timeout"_s;
                r.errorMessage = u"no answer"_s;
                r.httpStatus = 0;
            } else {
                r.cost = 0.001;
                r.costSource = CostSource::PriceTable;
            }
            responses << r;
        }
    }
    QVERIFY(store->appendResponses(responses));
    QVERIFY(store->finishRun(a.id, RunStatus::Finished, ended));

    // Run 2: an OpenAI model, J, 1 repeat, cancelled after one (costless) answer: 1 of 3.
    RunRow b = makeRunRow(stored.value(), *m_suite, spec(u"openai:gpt-x@http://127.0.0.1:9/v1"_s), Strategy::J, 1,
        nlohmann::json::object());
    b = store->createRun(b).value();
    ResponseRow one;
    one.runId = b.id;
    one.caseRow = t1;
    one.rawText = u"{}"_s;
    one.httpStatus = 200;
    QVERIFY(store->appendResponses({ one }));
    QVERIFY(store->finishRun(b.id, RunStatus::Cancelled, ended));

    // Run 3: the retry of run 1's timeout: one answer, so 1 of 1.
    nlohmann::json settings = { { "retry_of", a.id } };
    RunRow c = makeRunRow(stored.value(), *m_suite, spec(u"sim:oracle"_s), Strategy::P, 2, settings);
    c = store->createRun(c).value();
    ResponseRow fixed;
    fixed.runId = c.id;
    fixed.caseRow = p1;
    fixed.repeat = 1;
    fixed.rawText = u"{}"_s;
    fixed.httpStatus = 200;
    fixed.cost = 0.002;
    fixed.costSource = CostSource::PriceTable;
    QVERIFY(store->appendResponses({ fixed }));
    QVERIFY(store->finishRun(c.id, RunStatus::Finished, ended));

    // Run 4: imported results answering one case of three: 1 of 1, nothing to resume or retry.
    RunRow e;
    e.suiteRow = stored->suiteRow;
    e.modelSpec = u"import:demo/x"_s;
    e.providerKind = u"import"_s;
    e.strategy = u"imported"_s;
    e = store->createRun(e).value();
    ResponseRow importedAnswer;
    importedAnswer.runId = e.id;
    importedAnswer.caseRow = t2;
    importedAnswer.rawText = u"no JSON"_s;
    importedAnswer.errorKind = u"http_5xx"_s;
    QVERIFY(store->appendResponses({ importedAnswer }));
    QVERIFY(store->finishRun(e.id, RunStatus::Finished, ended));

    // Run 5: left "running" by a session that is gone.
    RunRow d
        = makeRunRow(stored.value(), *m_suite, spec(u"sim:careful"_s), Strategy::PJPlus, 1, nlohmann::json::object());
    d = store->createRun(d).value();

    const RunSummaries summaries = summarizeRuns(*store);
    QVERIFY2(summaries.error.isEmpty(), qPrintable(summaries.error));
    RunsModel model;
    QAbstractItemModelTester tester(&model, kReport);
    model.setSummaries(std::make_shared<RunSummaries>(summaries));
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.columnCount(), int(RunsModel::ColumnCount));
    const QString endText = RunsModel::timeText(ended);
    QCOMPARE(endText, u"2025-04-17 09:30:05"_s);

    // Newest first.
    QCOMPARE(rowTexts(&model, 0),
        (QStringList { QString::number(d.id), u"sim:careful (simulated)"_s, u"PJ+"_s, u"mini"_s, u"stopped"_s,
            RunsModel::timeText(d.startedAt), QString(), u"0/3"_s, u"0"_s, u"—"_s }));
    QCOMPARE(rowTexts(&model, 1),
        (QStringList { QString::number(e.id), u"import:demo/x"_s, u"imported"_s, u"mini"_s, u"finished"_s,
            RunsModel::timeText(e.startedAt), endText, u"1/1"_s, u"1"_s, u"—"_s }));
    QCOMPARE(rowTexts(&model, 2),
        (QStringList { u"%1 (retry of %2)"_s.arg(c.id).arg(a.id), u"sim:oracle (simulated)"_s, u"P"_s, u"mini"_s,
            u"finished"_s, RunsModel::timeText(c.startedAt), endText, u"1/1"_s, u"0"_s, u"$0.00200"_s }));
    QCOMPARE(rowTexts(&model, 3),
        (QStringList { QString::number(b.id), u"openai:gpt-x"_s, u"J"_s, u"mini"_s, u"cancelled"_s,
            RunsModel::timeText(b.startedAt), endText, u"1/3"_s, u"0"_s, u"—"_s }));
    QCOMPARE(rowTexts(&model, 4),
        (QStringList { QString::number(a.id), u"sim:oracle (simulated)"_s, u"P"_s, u"mini"_s, u"finished"_s,
            RunsModel::timeText(a.startedAt), endText, u"6/6"_s, u"1"_s, u"$0.00500"_s }));
    QCOMPARE(model.index(4, RunsModel::Errors).data(Qt::ToolTipRole).toString(), u"1 timeout"_s);
    QCOMPARE(model.index(4, RunsModel::Cost).data(RunsModel::SortRole).toDouble(), 0.005);
    QCOMPARE(model.index(3, RunsModel::Id).data(RunsModel::RunIdRole).toLongLong(), b.id);
    QCOMPARE(model.rowOf(a.id), 4);

    // What each run can do: run 2 and the stopped run 5 resume; the retry run, run 1 and the imported
    // results do not; only run 1's errors can be asked again (imported errors cannot).
    QVERIFY(model.summaryAt(0)->canResume());
    QVERIFY(!model.summaryAt(2)->canResume());
    QVERIFY(model.summaryAt(3)->canResume());
    QVERIFY(!model.summaryAt(4)->canResume());
    QVERIFY(!model.summaryAt(1)->canResume());
    QVERIFY(!model.summaryAt(1)->canRetry());
    QVERIFY(model.summaryAt(4)->canRetry());
    QCOMPARE(model.summaryAt(4)->errorsByKind.value(u"timeout"_s), qint64(1));

    // A run a live session drives is "running", not "stopped".
    model.setActiveRuns({ d.id });
    QCOMPARE(model.index(0, RunsModel::Status).data().toString(), u"running"_s);
    model.setActiveRuns({});
    QCOMPARE(model.index(0, RunsModel::Status).data().toString(), u"stopped"_s);

    // Sorted by cost through a proxy (as the page does): 0.002 and 0.005 after the unknown ones.
    QSortFilterProxyModel proxy;
    QAbstractItemModelTester proxyTester(&proxy, kReport);
    proxy.setSourceModel(&model);
    proxy.setSortRole(RunsModel::SortRole);
    proxy.sort(RunsModel::Cost, Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, RunsModel::Id).data(RunsModel::RunIdRole).toLongLong(), a.id);
    QCOMPARE(proxy.index(1, RunsModel::Id).data(RunsModel::RunIdRole).toLongLong(), c.id);
    model.setSummaries(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestRunsPage::refusesWithoutAWorkspaceOrABadPlan()
{
    Workspace workspace;
    RunsPage page(&workspace);
    QString error;
    QVERIFY(!page.startRun(simPlan({ u"oracle"_s }, { Strategy::P }, 1), &error));
    QVERIFY2(error.contains(u"workspace"_s), qPrintable(error));
    QVERIFY(page.message().contains(error));
    QVERIFY(!page.findChild<QPushButton*>(u"newRunButton"_s)->isEnabled());
    QVERIFY(!page.findChild<QPushButton*>(u"newRunButton"_s)->toolTip().isEmpty());

    QVERIFY(workspace.open(newStore(), false));
    RunPlan bad = simPlan({ u"nonexistent"_s }, { Strategy::P }, 1);
    QVERIFY(!page.startRun(bad, &error));
    QVERIFY2(error.contains(u"unknown simulated model"_s), qPrintable(error));
    QVERIFY(page.message().contains(u"unknown simulated model"_s));
    QVERIFY(!page.isBusy());

    // The store went away after the workspace opened: said, not a crash.
    const QString gone = newStore();
    Workspace other;
    QVERIFY(other.open(gone, false));
    QVERIFY(QFile::remove(gone));
    RunsPage orphan(&other);
    QVERIFY(!orphan.startRun(simPlan({ u"oracle"_s }, { Strategy::P }, 1), &error));
    QVERIFY2(error.contains(u"Cannot open the workspace store"_s), qPrintable(error));
}

void TestRunsPage::launchesSimulatedModelsToTheEnd()
{
    Workspace workspace;
    const QString location = newStore();
    QVERIFY(workspace.open(location, false));
    QSignalSpy changed(&workspace, &Workspace::dataChanged);
    RunsPage page(&workspace);
    page.resize(1100, 760);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QTRY_VERIFY_WITH_TIMEOUT(page.hasLoadedRuns(), kTimeoutMs);
    QCOMPARE(page.model()->rowCount(), 0);

    QSignalSpy ended(&page, &RunsPage::sessionFinished);
    QString error;
    // 2 models × 2 strategies = 4 runs of 3 cases × 2 repeats = 6 slots each.
    QVERIFY2(page.startRun(simPlan({ u"oracle"_s, u"careful"_s }, { Strategy::P, Strategy::PJPlus }, 2), &error),
        qPrintable(error));
    QVERIFY(page.isBusy());
    QVERIFY(!page.findChild<QPushButton*>(u"newRunButton"_s)->isEnabled());
    QVERIFY(page.findChild<QPushButton*>(u"cancelButton"_s)->isEnabled());
    QVERIFY(waitIdle(page));
    QCOMPARE(ended.count(), 1);
    QCOMPARE(ended.first().first().value<RunStatus>(), RunStatus::Finished);
    QVERIFY2(page.message().startsWith(u"Finished"_s), qPrintable(page.message()));
    QCOMPARE(page.progress().total, qint64(24));
    QCOMPARE(page.progress().done, qint64(24));
    QVERIFY(changed.count() >= 1); // the other pages were told to re-score

    // One answer per slot in the store.
    QCOMPARE(page.runner()->runs().size(), 4);
    for (const RunRow& run : page.runner()->runs())
        QCOMPARE(answers(location, run.id), std::make_pair(qint64(6), qint64(6)));

    // The past runs list shows the four, finished.
    QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 4, kTimeoutMs);
    QVERIFY(waitIdle(page));
    for (int row = 0; row < 4; ++row) {
        QCOMPARE(page.model()->index(row, RunsModel::Status).data().toString(), u"finished"_s);
        QCOMPARE(page.model()->index(row, RunsModel::Answered).data().toString(), u"6/6"_s);
    }
    // Progress per model: two rows, each 12 of 12.
    auto* oracle = page.findChild<QProgressBar*>(u"progress:sim:oracle"_s);
    auto* careful = page.findChild<QProgressBar*>(u"progress:sim:careful"_s);
    QVERIFY(oracle && careful);
    QCOMPARE(oracle->value(), 12);
    QCOMPARE(oracle->maximum(), 12);
    QCOMPARE(careful->value(), 12);
    QVERIFY(page.findChild<QLabel*>(u"detail:sim:oracle"_s)->text().startsWith(u"12/12 · 0 errors"_s));
    QCOMPARE(page.findChild<QLabel*>(u"errorDetail"_s)->text(), u"No errors · no retries"_s);
    // Nothing to resume or retry in a finished run without errors: disabled, and why.
    page.selectRuns({ page.runner()->runs().first().id });
    auto* resume = page.findChild<QPushButton*>(u"resumeRunButton"_s);
    auto* retry = page.findChild<QPushButton*>(u"retryErrorsButton"_s);
    QVERIFY(!resume->isEnabled());
    QCOMPARE(resume->toolTip(), u"The selected runs have an answer for every slot"_s);
    QVERIFY(!retry->isEnabled());
    QCOMPARE(retry->toolTip(), u"The selected runs have no errored answers"_s);
    QTest::qWait(50);
    const QString shot = screenshotDir() + u"/runs.png"_s;
    QVERIFY(page.grab().save(shot));
    qInfo("screenshot: %s", qPrintable(shot));
}

void TestRunsPage::pauseCancelAndResumeAskEverySlotOnce()
{
    Workspace workspace;
    const QString location = newStore();
    QVERIFY(workspace.open(location, false));
    RunsPage page(&workspace);
    page.resize(1100, 760);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QTRY_VERIFY_WITH_TIMEOUT(page.hasLoadedRuns(), kTimeoutMs);
    RunnerOptions serial = fastOptions();
    serial.perModelConcurrency = 1;
    serial.globalConcurrency = 1;
    page.setRunnerOptions(serial);

    // 3 cases × 4 repeats = 12 slots, one at a time.
    RunPlan plan = simPlan({ u"sloppy"_s }, { Strategy::P }, 4);
    plan.options = serial;
    QVERIFY(page.startRun(plan));
    page.pause(); // before the first request leaves (they go out from the event loop)
    QVERIFY(page.isPaused());
    auto* pauseButton = page.findChild<QPushButton*>(u"pauseButton"_s);
    auto* resumeButton = page.findChild<QPushButton*>(u"resumeButton"_s);
    QVERIFY(!pauseButton->isEnabled());
    QVERIFY(resumeButton->isEnabled());
    int received = 0;
    QHash<QPair<qint64, int>, int> asked; // (case row, repeat) → answers
    connect(page.runner(), &Runner::responseReceived, &page, [&](const ResponseRow& r) {
        ++received;
        ++asked[qMakePair(r.caseRow, r.repeat)];
        if (received == 3) // cancel from the event loop, as a click would
            QMetaObject::invokeMethod(&page, &RunsPage::cancel, Qt::QueuedConnection);
    });
    QTest::qWait(300);
    QCOMPARE(received, 0);
    QVERIFY(page.findChild<QLabel*>(u"sessionTitle"_s)->text().startsWith(u"Paused"_s));
    QVERIFY(page.grab().save(screenshotDir() + u"/runs-paused.png"_s));

    QSignalSpy ended(&page, &RunsPage::sessionFinished);
    resumeButton->click();
    QVERIFY(!page.isPaused());
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, kTimeoutMs);
    QCOMPARE(ended.first().first().value<RunStatus>(), RunStatus::Cancelled);
    const qint64 runId = page.runner()->runs().first().id;
    const auto [afterCancel, slotsAfterCancel] = answers(location, runId);
    QVERIFY2(afterCancel >= 3 && afterCancel < 12, qPrintable(QString::number(afterCancel)));
    QCOMPARE(slotsAfterCancel, afterCancel);
    QCOMPARE(qint64(received), afterCancel);
    QVERIFY2(page.message().contains(u"Resume Run"_s), qPrintable(page.message()));

    // The list shows it cancelled and selected; Resume Run is the way on.
    QVERIFY(waitIdle(page));
    QTRY_VERIFY_WITH_TIMEOUT(
        page.model()->rowCount() == 1 && page.model()->index(0, RunsModel::Status).data().toString() == u"cancelled"_s,
        kTimeoutMs);
    QCOMPARE(page.model()->index(0, RunsModel::Answered).data().toString(), u"%1/12"_s.arg(afterCancel));
    QCOMPARE(page.selectedRunIds(), QList<qint64> { runId });
    auto* resumeRun = page.findChild<QPushButton*>(u"resumeRunButton"_s);
    QVERIFY(resumeRun->isEnabled());
    resumeRun->click();
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 2, kTimeoutMs);
    QCOMPARE(ended.last().first().value<RunStatus>(), RunStatus::Finished);
    QVERIFY(waitIdle(page));

    // Every slot answered exactly once over the two sessions.
    QCOMPARE(received, 12);
    QCOMPARE(asked.size(), 12);
    for (const int times : std::as_const(asked))
        QCOMPARE(times, 1);
    QCOMPARE(answers(location, runId), std::make_pair(qint64(12), qint64(12)));
    QCOMPARE(page.progress().done, qint64(12));
    QCOMPARE(page.progress().doneThisSession, qint64(12) - afterCancel);
    QTRY_COMPARE_WITH_TIMEOUT(page.model()->index(0, RunsModel::Status).data().toString(), u"finished"_s, kTimeoutMs);
    QCOMPARE(page.model()->index(0, RunsModel::Answered).data().toString(), u"12/12"_s);
}

void TestRunsPage::closingTheWorkspaceInterruptsTheRun()
{
    Workspace workspace;
    const QString location = newStore();
    QVERIFY(workspace.open(location, false));
    RunsPage page(&workspace);
    page.show();
    QVERIFY(page.startRun(simPlan({ u"oracle"_s }, { Strategy::P }, 1)));
    page.pause();
    const qint64 runId = page.runner()->runs().first().id;
    workspace.close();
    QVERIFY(!page.isBusy());
    QVERIFY2(page.message().contains(u"workspace changed"_s), qPrintable(page.message()));
    // The page holds no connection to the store any more: its files may be replaced or removed now.
    QTRY_COMPARE_WITH_TIMEOUT(ResultStore::openConnections(location), 0, kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 0, kTimeoutMs);
    auto store = ResultStore::open(location);
    QVERIFY(store);
    QCOMPARE(store->run(runId)->status, RunStatus::Interrupted);
    // Nothing to act on without a workspace: every button disabled, and says why.
    for (const char* name :
        { "newRunButton", "pauseButton", "resumeButton", "cancelButton", "resumeRunButton", "retryErrorsButton" }) {
        auto* button = page.findChild<QPushButton*>(QString::fromLatin1(name));
        QVERIFY2(!button->isEnabled(), name);
        QVERIFY2(!button->toolTip().isEmpty(), name);
    }
    // Opened again, the run is listed as interrupted and resumes to the end.
    QVERIFY(workspace.open(location, false));
    QTRY_VERIFY_WITH_TIMEOUT(page.hasLoadedRuns() && page.model()->rowCount() == 1, kTimeoutMs);
    QCOMPARE(page.model()->index(0, RunsModel::Status).data().toString(), u"interrupted"_s);
    QSignalSpy all(&page, &RunsPage::allFinished);
    QVERIFY(page.resumeRuns({ runId }));
    QTRY_COMPARE_WITH_TIMEOUT(all.count(), 1, kTimeoutMs);
    QCOMPARE(answers(location, runId), std::make_pair(qint64(3), qint64(3)));
}

void TestRunsPage::resumeFindsTheSuiteFolderOrSaysWhy()
{
    Workspace workspace;
    const QString location = newStore();
    QVERIFY(workspace.open(location, false));
    Settings().addSuiteFolder(location, m_suiteDir);
    qint64 runId = 0;
    {
        // A session cancelled at once: 0 of 3 answered.
        RunsPage first(&workspace);
        RunPlan plan = simPlan({ u"chatty"_s }, { Strategy::J }, 1);
        QVERIFY(first.startRun(plan));
        first.cancel();
        QVERIFY(!first.isBusy());
        runId = first.runner()->runs().first().id;
    }
    QCOMPARE(answers(location, runId).first, qint64(0));

    // A new page knows no suite: it finds the run's suite in the workspace's folders.
    RunsPage page(&workspace);
    page.show();
    QTRY_VERIFY_WITH_TIMEOUT(page.hasLoadedRuns() && page.model()->rowCount() == 1, kTimeoutMs);
    QCOMPARE(page.model()->index(0, RunsModel::Status).data().toString(), u"cancelled"_s);
    QSignalSpy all(&page, &RunsPage::allFinished);
    QString error;
    QVERIFY2(page.resumeRuns({ runId }, &error), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(all.count(), 1, kTimeoutMs);
    QVERIFY(waitIdle(page));
    QCOMPARE(answers(location, runId), std::make_pair(qint64(3), qint64(3)));

    // A suite that is nowhere: the page says which, and where to add it.
    SuiteFiles changed = goodSuite();
    changed[u"suite.json"_s].replace("Mini suite", "Mini suite, changed");
    const SuiteLoadResult other = loadSuite(changed);
    QVERIFY(other.ok());
    RunsPage third(&workspace);
    RunPlan plan = simPlan({ u"oracle"_s }, { Strategy::P }, 1);
    plan.suite = other.suite;
    QVERIFY(third.startRun(plan));
    third.cancel();
    const qint64 orphan = third.runner()->runs().first().id;
    workspace.notifyDataChanged();
    QTRY_VERIFY_WITH_TIMEOUT(page.hasLoadedRuns() && page.model()->rowOf(orphan) >= 0, kTimeoutMs);
    QVERIFY(page.resumeRuns({ orphan }, &error));
    QTRY_COMPARE_WITH_TIMEOUT(all.count(), 2, kTimeoutMs);
    QVERIFY2(page.message().contains(u"Cannot find the suite 'mini' (as run %1 used it)"_s.arg(orphan)),
        qPrintable(page.message()));
    QVERIFY(!page.isBusy());
    // Nothing selected: both buttons say what to select.
    page.selectRuns({});
    QCOMPARE(page.findChild<QPushButton*>(u"resumeRunButton"_s)->toolTip(),
        u"Select a cancelled or interrupted run in the list"_s);
}

void TestRunsPage::retryErrorsAsksTheErroredAnswersAgain()
{
    // An OpenAI-compatible loopback server that refuses t-2 once with HTTP 400, answers the rest.
    int refused = 0;
    LoopbackServer server([&refused](const ReceivedRequest& request, Responder responder) {
        if (caseOf(request) == u"t-2"_s && refused++ == 0) {
            responder.send(400, "{\"error\": {\"message\": \"bad request\"}}");
            return;
        }
        responder.send(200, openAiAnswer(u"{\"title\": \"x\", \"priority\": \"low\"}"_s));
    });
    QVERIFY(server.listen());
    Workspace workspace;
    const QString location = newStore();
    QVERIFY(workspace.open(location, false));
    RunsPage page(&workspace);
    page.show();
    page.setRunnerOptions(fastOptions());
    RunPlan plan;
    plan.suite = m_suite;
    plan.models = { spec(u"openai:test-model@"_s + server.baseUrl(u"/v1"_s) + u";case_headers;key_env="_s
        + QString::fromLatin1(kKeyVariable)) };
    plan.strategies = { Strategy::J };
    plan.options = fastOptions();
    QSignalSpy all(&page, &RunsPage::allFinished);
    QVERIFY(page.startRun(plan));
    QTRY_COMPARE_WITH_TIMEOUT(all.count(), 1, kTimeoutMs);
    const qint64 runId = page.runner()->runs().first().id;
    QCOMPARE(server.requests.size(), 3);
    QTRY_VERIFY_WITH_TIMEOUT(page.hasLoadedRuns() && page.model()->rowOf(runId) >= 0
            && page.model()->index(page.model()->rowOf(runId), RunsModel::Errors).data().toString() == u"1"_s,
        kTimeoutMs);
    const int row = page.model()->rowOf(runId);
    QCOMPARE(page.model()->index(row, RunsModel::Errors).data(Qt::ToolTipRole).toString(), u"1 http_4xx"_s);
    QCOMPARE(page.findChild<QLabel*>(u"errorDetail"_s)->text(), u"Errors: 1 http_4xx · no retries"_s);

    page.selectRuns({ runId });
    auto* retry = page.findChild<QPushButton*>(u"retryErrorsButton"_s);
    QVERIFY(retry->isEnabled());
    retry->click();
    QTRY_COMPARE_WITH_TIMEOUT(all.count(), 2, kTimeoutMs);
    QVERIFY(waitIdle(page));
    QCOMPARE(server.requests.size(), 4); // only t-2 again
    QCOMPARE(caseOf(server.requests.last()), u"t-2"_s);
    const RunRow retryRun = page.runner()->runs().first();
    QCOMPARE(retryRun.settings.value("retry_of", qint64(0)), runId);
    QTRY_VERIFY_WITH_TIMEOUT(page.model()->rowOf(retryRun.id) >= 0, kTimeoutMs);
    const int retryRow = page.model()->rowOf(retryRun.id);
    QCOMPARE(page.model()->index(retryRow, RunsModel::Id).data().toString(),
        u"%1 (retry of %2)"_s.arg(retryRun.id).arg(runId));
    QCOMPARE(page.model()->index(retryRow, RunsModel::Answered).data().toString(), u"1/1"_s);
    QCOMPARE(page.model()->index(retryRow, RunsModel::Errors).data().toString(), u"0"_s);
    // The key reached the server, and is nowhere in the store.
    QCOMPARE(server.requests.first().header("Authorization"), "Bearer " + kKey);
    QFile db(location);
    QVERIFY(db.open(QIODevice::ReadOnly));
    QVERIFY(!db.readAll().contains(kKey));
}

void TestRunsPage::resumeAsksBeforeSendingToAStoreEndpoint()
{
    qputenv("STRUCTSCOPE_TEST_PLANTED_HEADER", "planted-header-value-0123");
    LoopbackServer server([](const ReceivedRequest&, Responder responder) {
        responder.send(200, openAiAnswer(u"{\"title\": \"x\", \"priority\": \"low\"}"_s));
    });
    QVERIFY(server.listen());
    const QString location = newStore();
    qint64 runId = 0;
    {
        auto store = ResultStore::open(location);
        QVERIFY(store);
        const ModelSpec planted = spec(u"openai:test-model@"_s + server.baseUrl(u"/v1"_s) + u";key_env="_s
            + QString::fromLatin1(kKeyVariable) + u";header=X-Leak:$STRUCTSCOPE_TEST_PLANTED_HEADER"_s);
        const auto stored = storeSuiteForRun(*store, *m_suite);
        QVERIFY(stored);
        const auto run = store->createRun(
            makeRunRow(stored.value(), *m_suite, planted, Strategy::J, 1, runSettings(planted, fastOptions())));
        QVERIFY(run);
        QVERIFY(store->finishRun(run->id, RunStatus::Interrupted));
        runId = run->id;
    }
    Workspace workspace;
    QVERIFY(workspace.open(location, false));
    Settings().addSuiteFolder(location, m_suiteDir);
    RunsPage page(&workspace);
    page.show();
    page.setModelProfiles({});
    page.setRunnerOptions(fastOptions());
    QList<QList<StoredEndpoint>> asked;
    bool answer = false;
    page.setStoreOriginConfirmer([&](const QList<StoredEndpoint>& endpoints) {
        asked << endpoints;
        return answer;
    });
    QTRY_VERIFY_WITH_TIMEOUT(page.hasLoadedRuns() && page.model()->rowOf(runId) >= 0, kTimeoutMs);
    QString error;
    QVERIFY(!page.resumeRuns({ runId }, &error));
    QCOMPARE(asked.size(), 1);
    QCOMPARE(asked.constFirst().size(), 1);
    QCOMPARE(asked.constFirst().constFirst().runId, runId);
    QCOMPARE(asked.constFirst().constFirst().origin, urlOrigin(QUrl(server.baseUrl())));
    QCOMPARE(asked.constFirst().constFirst().variables,
        (QStringList { QString::fromLatin1(kKeyVariable), u"STRUCTSCOPE_TEST_PLANTED_HEADER"_s }));
    QVERIFY2(error.contains(u"Nothing sent"_s), qPrintable(error));
    QVERIFY(!page.isBusy());
    QTest::qWait(50);
    QVERIFY(server.requests.isEmpty());

    // Confirmed: the run continues with the store's endpoint and variables.
    answer = true;
    QSignalSpy all(&page, &RunsPage::allFinished);
    QVERIFY2(page.resumeRuns({ runId }, &error), qPrintable(error));
    QCOMPARE(asked.size(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(all.count(), 1, kTimeoutMs);
    QCOMPARE(server.requests.size(), 3);
    for (const ReceivedRequest& r : std::as_const(server.requests)) {
        QCOMPARE(r.header("Authorization"), "Bearer " + kKey);
        QCOMPARE(r.header("X-Leak"), QByteArray("planted-header-value-0123"));
    }
    qunsetenv("STRUCTSCOPE_TEST_PLANTED_HEADER");
}

void TestRunsPage::launchDialogEstimatesTheCost()
{
    LaunchDialog dialog;
    PriceTable prices;
    prices.set(u"openai:priced"_s, { 1.0, 2.0 });
    dialog.setPriceTable(prices);
    QVERIFY(dialog.addSuiteFolder(m_suiteDir));
    QString error;
    QVERIFY(!dialog.addSuiteFolder(m_tmp.path(), &error)); // no suite.json there
    QVERIFY(error.contains(u"suite.json"_s));
    dialog.setSelectedSuites({ m_suiteDir });
    const ModelSpec priced = spec(u"openai:priced@http://127.0.0.1:9/v1"_s);
    dialog.setSelectedModels({ priced, spec(u"sim:oracle"_s) });
    dialog.setSelectedStrategies({ Strategy::P, Strategy::J });
    dialog.setRepeats(2);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isBusy() && dialog.estimate(), kTimeoutMs);

    // 3 cases × 2 repeats × 2 strategies × 2 models = 24 requests; only the priced model counts.
    const CostEstimate expected = estimateCost(*m_suite, { priced }, { Strategy::P, Strategy::J }, 2, prices);
    QVERIFY(expected.total > 0);
    QCOMPARE(dialog.estimate()->lines.size(), 4);
    QCOMPARE(dollars(dialog.estimate()->total), dollars(expected.total));
    // By hand: $1 per million tokens in, $2 per million out, for each line of the priced model.
    const std::optional<CostEstimate> shown = dialog.estimate(); // a copy: the loop must not outlive it
    for (const CostEstimateLine& line : shown->lines) {
        if (line.model == u"sim:oracle"_s) {
            QVERIFY(!line.cost);
            continue;
        }
        QCOMPARE(line.requests, qint64(6)); // 3 cases × 2 repeats
        QCOMPARE(dollars(line.cost.value()), dollars((line.tokensIn * 1.0 + line.tokensOut * 2.0) / 1e6));
    }
    const QString text = dialog.estimateText();
    QVERIFY2(text.startsWith(u"24 requests · ~"_s), qPrintable(text));
    QVERIFY2(
        text.contains(u" · ~$"_s + QString::fromStdString(displayNumber(expected.total, 3, true))), qPrintable(text));
    QVERIFY2(text.contains(u"No price for sim:oracle (not counted)."_s), qPrintable(text));
    QCOMPARE(dialog.findChild<QTreeWidget*>(u"estimateTable"_s)->topLevelItemCount(), 4);

    // One plan per suite, with the choices; the global limit follows the endpoints (2 × 4).
    const QList<RunPlan> plans = dialog.plans(&error);
    QCOMPARE(plans.size(), 1);
    QCOMPARE(plans.first().suite->id, u"mini"_s);
    QCOMPARE(plans.first().models.size(), 2);
    QCOMPARE(plans.first().repeats, 2);
    QCOMPARE(plans.first().options.perModelConcurrency, 4);
    QCOMPARE(plans.first().options.globalConcurrency, 8);
    QVERIFY(dialog.findChild<QPushButton*>(u"startButton"_s)->isEnabled());

    // A change of choices updates the estimate: one repeat, half the requests.
    dialog.setRepeats(1);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isBusy() && dialog.estimateText().startsWith(u"12 requests"_s), kTimeoutMs);

    dialog.resize(1060, 720);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTest::qWait(50);
    const QString shot = screenshotDir() + u"/launch-dialog.png"_s;
    QVERIFY(dialog.grab().save(shot));
    qInfo("screenshot: %s", qPrintable(shot));

    // A key over plain http to a host on the network: no plan unless the box says so.
    const ModelSpec lan = spec(u"openai:priced@http://192.0.2.1:9/v1;key_env=LAN_KEY"_s);
    dialog.setSelectedModels({ lan });
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isBusy(), kTimeoutMs);
    QVERIFY(dialog.plans(&error).isEmpty());
    QVERIFY2(error.contains(u"LAN_KEY"_s) && error.contains(u"plain http"_s), qPrintable(error));
    auto* insecure = dialog.findChild<QCheckBox*>(u"insecureKeyCheck"_s);
    QVERIFY(insecure && !insecure->isChecked());
    insecure->setChecked(true);
    const QList<RunPlan> allowed = dialog.plans(&error);
    QCOMPARE(allowed.size(), 1);
    QVERIFY(allowed.first().options.allowInsecureKey);
    insecure->setChecked(false);

    // No model: no plan, a disabled Start that says why.
    dialog.setSelectedModels({});
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isBusy(), kTimeoutMs);
    QVERIFY(dialog.plans(&error).isEmpty());
    QVERIFY(error.contains(u"Choose at least one model"_s));
    auto* start = dialog.findChild<QPushButton*>(u"startButton"_s);
    QVERIFY(!start->isEnabled());
    QCOMPARE(start->toolTip(), error);
    QCOMPARE(dialog.problemText(), error);
    // A profile the spec parser refuses is not added, and the editor says why.
    ModelSpec noUrl = priced;
    noUrl.baseUrl = u"ftp://example.org"_s;
    QVERIFY(!dialog.addModelProfile(noUrl, &error));
    QVERIFY2(error.contains(u"http"_s), qPrintable(error));
}

void TestRunsPage::launchDialogTestsTheConnection()
{
    // Answers only the right key; anything else is refused like OpenAI refuses a bad key.
    LoopbackServer server([](const ReceivedRequest& request, Responder responder) {
        if (request.header("Authorization") == "Bearer " + kKey)
            responder.send(200, openAiAnswer(u"OK"_s, 12, 1));
        else
            responder.send(
                401, "{\"error\": {\"message\": \"Incorrect API key provided\", \"type\": \"invalid_request_error\"}}");
    });
    QVERIFY(server.listen());
    LaunchDialog dialog;
    QSignalSpy tested(&dialog, &LaunchDialog::connectionTested);
    const QString base = u"openai:test-model@"_s + server.baseUrl(u"/v1"_s) + u";key_env="_s;

    dialog.editProfile(spec(base + QString::fromLatin1(kKeyVariable)));
    QCOMPARE(dialog.findChild<QLabel*>(u"keyStateLabel"_s)->text(), u"set"_s);
    dialog.findChild<QPushButton*>(u"testConnectionButton"_s)->click();
    QVERIFY(dialog.isTestingConnection());
    QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, kTimeoutMs);
    const auto ok = tested.first().first().value<ConnectionTestResult>();
    QVERIFY(ok.ok);
    QCOMPARE(ok.httpStatus, 200);
    QVERIFY2(dialog.connectionText().startsWith(u"✔ Connected: openai:test-model answered in"_s),
        qPrintable(dialog.connectionText()));
    QCOMPARE(server.requests.size(), 1);
    QCOMPARE(server.requests.first().path, QByteArray("/v1/chat/completions"));
    const auto body = nlohmann::json::parse(server.requests.first().body.toStdString());
    QCOMPARE(body.value("model", std::string()), std::string("test-model"));
    QCOMPARE(body.value("max_tokens", 0), 16);

    dialog.editProfile(spec(base + QString::fromLatin1(kWrongKeyVariable)));
    dialog.testConnection();
    QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 2, kTimeoutMs);
    const auto refused = tested.last().first().value<ConnectionTestResult>();
    QVERIFY(!refused.ok);
    QCOMPARE(refused.httpStatus, 401);
    QCOMPARE(refused.error, ErrorKind::Http4xx);
    const QString text = dialog.connectionText();
    QVERIFY2(text.startsWith(u"✘ Failed (HTTP 401, http_4xx): "_s), qPrintable(text));
    QVERIFY2(text.contains(u"Incorrect API key provided"_s), qPrintable(text));
    QVERIFY2(text.contains(u"refused the key in %1"_s.arg(QString::fromLatin1(kWrongKeyVariable))), qPrintable(text));
    QVERIFY(!text.contains(QString::fromLatin1(kWrongKey)));
    QCOMPARE(server.requests.last().header("Authorization"), "Bearer " + kWrongKey);

    // Nobody listening: a network error, said as such.
    QTcpServer closed;
    QVERIFY(closed.listen(QHostAddress::LocalHost, 0));
    const QString closedUrl = u"http://127.0.0.1:%1"_s.arg(closed.serverPort());
    closed.close();
    dialog.editProfile(spec(u"ollama:qwen3:8b@"_s + closedUrl));
    dialog.testConnection();
    QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 3, kTimeoutMs);
    QVERIFY(!tested.last().first().value<ConnectionTestResult>().ok);
    QVERIFY2(dialog.connectionText().startsWith(u"✘ Failed (network)"_s), qPrintable(dialog.connectionText()));

    // A simulated model needs no connection: nothing is sent.
    const int sent = int(server.requests.size());
    dialog.editProfile(spec(u"sim:oracle"_s));
    dialog.testConnection();
    QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 4, kTimeoutMs);
    QVERIFY(tested.last().first().value<ConnectionTestResult>().simulated);
    QVERIFY2(dialog.connectionText().contains(u"needs no connection"_s), qPrintable(dialog.connectionText()));
    QCOMPARE(int(server.requests.size()), sent);
}

void TestRunsPage::launchDialogStartsThroughThePage()
{
    Workspace workspace;
    const QString location = newStore();
    QVERIFY(workspace.open(location, false));
    RunsPage page(&workspace);
    page.show();
    LaunchDialog* dialog = page.openLaunchDialog();
    QVERIFY(dialog);
    QCOMPARE(page.openLaunchDialog(), dialog); // one at a time
    QVERIFY(dialog->addSuiteFolder(m_suiteDir));
    dialog->setSelectedSuites({ m_suiteDir });
    dialog->setSelectedModels({ spec(u"sim:hallucinator"_s) });
    dialog->setSelectedStrategies({ Strategy::PJ });
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->isBusy(), kTimeoutMs);
    QSignalSpy all(&page, &RunsPage::allFinished);
    dialog->accept();
    QTRY_VERIFY_WITH_TIMEOUT(!page.launchDialog(), kTimeoutMs); // closed and deleted
    QTRY_COMPARE_WITH_TIMEOUT(all.count(), 1, kTimeoutMs);
    QVERIFY(waitIdle(page));
    QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 1, kTimeoutMs);
    QCOMPARE(page.model()->index(0, RunsModel::Model).data().toString(), u"sim:hallucinator (simulated)"_s);
    QCOMPARE(page.model()->index(0, RunsModel::Answered).data().toString(), u"3/3"_s);
    // The added folder now belongs to the workspace; a second dialog starts from the last choices.
    QVERIFY(Settings().suiteFolders(location).contains(m_suiteDir));
    LaunchDialog* again = page.openLaunchDialog();
    QCOMPARE(again->selectedSuites(), QStringList { m_suiteDir });
    QCOMPARE(again->selectedModels().size(), 1);
    QCOMPARE(again->selectedStrategies(), QList<Strategy> { Strategy::PJ });
    again->reject();
}

void TestRunsPage::runsIsTheFirstPageOfTheMainWindow()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.pages().first()->pageId(), u"runs"_s);
    QCOMPARE(window.pages().first()->title(), u"Runs"_s);
    QAction* newRun = nullptr;
    for (QAction* menu : window.menuBar()->actions()) {
        for (QAction* action : menu->menu()->actions()) {
            if (action->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_R))
                newRun = action;
        }
    }
    QVERIFY(newRun);
    QVERIFY(!newRun->isEnabled()); // no workspace yet
    QVERIFY(window.openWorkspace(newStore()));
    QVERIFY(newRun->isEnabled());
    newRun->trigger();
    auto* runs = qobject_cast<RunsPage*>(window.currentPage());
    QVERIFY(runs);
    QVERIFY(runs->launchDialog());
    runs->launchDialog()->reject();
}

void TestRunsPage::modelProfilesAreRememberedWithoutSecrets()
{
    auto secret = parseModelSpec(u"openai:gpt-x@http://127.0.0.1:9/v1;key_env=MY_KEY;header=X-Org:$ORG_ID"_s);
    QVERIFY(secret);
    secret->headers.prepend({ u"Authorization"_s, u"Bearer sk-abcdefghijklmnopqrstuvwx"_s });
    secret->headers.append({ u"X-Team"_s, u"research"_s });
    QCOMPARE(secret->headers.size(), 3);
    const auto sim = parseModelSpec(u"sim:careful"_s);
    QVERIFY(sim);
    Settings().setModelProfiles({ *secret, *sim });
    const QString stored = QSettings().value(u"runs/modelProfiles"_s).toStringList().join(u'\n');
    QVERIFY2(!stored.contains(u"sk-abc"_s) && !stored.contains(u"Bearer"_s), qPrintable(stored));
    const QList<ModelSpec> back = Settings().modelProfiles();
    QCOMPARE(back.size(), 1);
    QCOMPARE(back.first().keyEnv, u"MY_KEY"_s);
    QCOMPARE(back.first().headers, (QList<std::pair<QString, QString>> { { u"X-Org"_s, u"$ORG_ID"_s } }));
    QVERIFY2(!stored.contains(u"research"_s), qPrintable(stored));

    Workspace workspace;
    QVERIFY(workspace.open(newStore(), true));
    RunsPage page(&workspace);
    LaunchDialog* dialog = page.openLaunchDialog();
    QVERIFY(dialog);
    QCOMPARE(dialog->modelProfiles(), back);
    dialog->reject();
    QSettings().remove(u"runs/modelProfiles"_s);
}

QTEST_MAIN(TestRunsPage)
#include "tst_runspage.moc"
