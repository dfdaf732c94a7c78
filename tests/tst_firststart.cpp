// SPDX-License-Identifier: Apache-2.0
// First start: with no workspace ever opened, the main window creates the demo workspace (built-in
// suites × simulated models) in the application's data folder with a progress bar in the status bar,
// and every page has data within ten seconds; a second start restores it instead; File ▸ Create Demo
// Workspace re-creates it; its Audit page lists the planted gold mistakes. Also the demo's comparison chart (a
// forest plot of paired differences).
#include "audit/goldeditor.h"
#include "charts/comparisonchart.h"
#include "charts/overlapschart.h"
#include "demo/demogoldmistakes.h"
#include "demosetup.h"
#include "mainwindow.h"
#include "models/auditqueuemodel.h"
#include "models/diffrowsmodel.h"
#include "pages/auditpage.h"
#include "pages/comparepage.h"
#include "pages/errorspage.h"
#include "pages/page.h"
#include "pages/recordspage.h"
#include "settings/settings.h"
#include "store/resultstore.h"
#include "widgets/activityindicator.h"
#include "widgets/diffview.h"
#include "workspace/workspace.h"

#include <QAction>
#include <QBarSet>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QMenuBar>
#include <QProgressBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;
using namespace structscope;

namespace {

constexpr qint64 kAnswers = 7692; // 641 cases × 6 profiles × 2 strategies (see tst_demo)
// Only a guard against a hang: speed is not a unit test (a Debug or sanitizer build on a loaded CI
// machine is many times slower). The time to a filled workspace is printed; the budget of ten seconds
// is checked in an optimised build (tst_demo isReadyInUnderTenSeconds).
constexpr qint64 kBudgetMs = 300000;

QString screenshotDir()
{
    const QString dir = QCoreApplication::applicationDirPath() + u"/screenshots"_s;
    QDir().mkpath(dir);
    return dir;
}

void removeDemoStore()
{
    for (const QString& suffix : { u""_s, u"-wal"_s, u"-shm"_s })
        QFile::remove(DemoSetup::defaultLocation() + suffix);
}

/// The page has the workspace's data: a non-empty report, and for pages of records a non-empty set. A page
/// that shows no report (Runs) has data when its table lists the 48 runs.
bool hasData(Page* page)
{
    if (page->pageId() == u"runs"_s) {
        const auto views = page->findChildren<QTableView*>();
        return std::any_of(views.begin(), views.end(), [](QTableView* v) { return v->model()->rowCount() == 48; });
    }
    // A page of responses shows the scored set itself (no report is aggregated for it).
    if (auto* records = qobject_cast<RecordsPage*>(page))
        return !records->isBusy() && records->scoredSet() && !records->scoredSet()->records.empty();
    return !page->isLoading() && page->currentReport() && !page->currentReport()->report.groups.empty();
}

QAction* findAction(QMenuBar* bar, const QString& text)
{
    for (QAction* menu : bar->actions()) {
        if (!menu->menu())
            continue;
        for (QAction* action : menu->menu()->actions()) {
            if (action->text().remove(u'&') == text)
                return action;
        }
    }
    return nullptr;
}

ConfigComparison comparison(const QString& model, double delta, double low, double high, double p)
{
    ConfigComparison c;
    c.a = { model, u"P"_s, true };
    c.b = { model, u"J+"_s, true };
    c.metric = "ladder.correct";
    c.stats.n = 100;
    c.stats.meanA = 0.5;
    c.stats.meanB = 0.5 + delta / 100;
    c.stats.deltaPoints = delta;
    c.stats.deltaCiPoints = { low, high };
    c.stats.pValue = p;
    return c;
}

} // namespace

class TestFirstStart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void demoLivesInTheApplicationDataFolder();
    void firstStartCreatesTheDemoWorkspace();
    void secondStartRestoresTheDemo();
    void noDemoWhenAWorkspaceWasOpenedBefore();
    void createDemoWorkspaceOnDemand();
    void demoWaitsForTheOldFilesLastReader();
    void cancelLeavesNoWorkspaceOpen();
    void comparisonChartDrawsEachPairTopDown();

private:
    QTemporaryDir m_settingsDir;
};

void TestFirstStart::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"StructScopeTests"_s);
    QCoreApplication::setApplicationName(u"tst_firststart"_s);
    QVERIFY(m_settingsDir.isValid());
    // Settings of this test only, in a folder that goes away with it.
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settingsDir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settingsDir.path());
    QSettings().clear();
    removeDemoStore();
}

void TestFirstStart::cleanupTestCase()
{
    QSettings().clear();
    removeDemoStore();
}

void TestFirstStart::demoLivesInTheApplicationDataFolder()
{
    const QString data = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QVERIFY(data.contains(u"tst_firststart"_s));
    QCOMPARE(DemoSetup::defaultLocation(), data + u"/demo.structscope"_s);
}

void TestFirstStart::firstStartCreatesTheDemoWorkspace()
{
    MainWindow window;
    window.resize(1280, 820);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.demoSetup()->isFirstStart());
    QSignalSpy progress(window.demoSetup(), &DemoSetup::progress);
    QSignalSpy finished(window.demoSetup(), &DemoSetup::finished);
    QElapsedTimer clock;
    clock.start();
    window.startUp();

    // A visible progress bar in the status bar while it runs.
    QVERIFY(window.demoSetup()->isRunning());
    QVERIFY(window.activity()->isActive());
    QVERIFY(window.activity()->isVisible());
    QVERIFY2(window.activity()->text().contains(u"demo workspace"_s), qPrintable(window.activity()->text()));
    auto* bar = window.activity()->findChild<QProgressBar*>();
    QVERIFY(bar && bar->isVisible());
    QTest::qWait(1);
    window.grab().save(screenshotDir() + u"/firststart-progress.png"_s);

    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), int(kBudgetMs));
    QVERIFY2(finished.constFirst().at(0).toBool(), qPrintable(finished.constFirst().at(1).toString()));
    QVERIFY(!progress.isEmpty());
    QCOMPARE(progress.constLast().at(0).toLongLong(), kAnswers);
    QCOMPARE(progress.constLast().at(1).toLongLong(), kAnswers);
    QVERIFY(window.workspace()->isOpen());
    QCOMPARE(window.workspace()->location(), DemoSetup::defaultLocation());
    QVERIFY(QFileInfo::exists(DemoSetup::defaultLocation()));
    QCOMPARE(window.settings()->lastWorkspace(), DemoSetup::defaultLocation());
    QVERIFY(window.windowTitle().contains(u"demo.structscope"_s));

    // Every page fills, all within the budget from the start.
    for (Page* page : window.pages()) {
        QVERIFY(window.showPage(page->pageId()));
        QTRY_VERIFY2_WITH_TIMEOUT(hasData(page), qPrintable(page->pageId()), int(kBudgetMs));
        if (auto* records = qobject_cast<RecordsPage*>(page)) {
            // Its records know which models are simulated.
            QSet<QString> simulated;
            for (const ScoredRecord& r : records->scoredSet()->records) {
                if (r.simulated)
                    simulated.insert(r.model);
            }
            QCOMPARE(simulated.size(), 6);
            continue;
        }
        if (!page->currentReport())
            continue;
        // Simulated models are labelled in what the pages show.
        QCOMPARE(page->currentReport()->simulatedModels.size(), 6);
        QVERIFY(
            page->currentReport()->groupLabel(page->currentReport()->report.groups.front()).contains(u"(simulated)"_s));
    }
    qInfo().noquote() << u"demo workspace: every page has data after %1 ms"_s.arg(clock.elapsed());
    // The Audit page lists the planted gold mistakes, the first selected and its case shown below.
    AuditPage* audit = window.findChild<AuditPage*>();
    QVERIFY(audit);
    QVERIFY(window.showPage(audit->pageId()));
    QTRY_COMPARE_WITH_TIMEOUT(audit->model()->rowCount(), int(demoGoldMistakes().size()), int(kBudgetMs));
    for (const DemoGoldMistake& m : demoGoldMistakes()) {
        bool listed = false;
        for (int row = 0; row < audit->model()->rowCount(); ++row) {
            const AuditItem* item = audit->model()->itemAt(row);
            listed = listed || (item->suiteId == m.suite && item->caseId == m.caseId && item->path == m.path);
        }
        QVERIFY2(listed, qPrintable(m.suite + u' ' + m.caseId));
    }
    // Every planted mistake is in the first batch, and the page says how many that holds.
    const QString status = audit->findChild<QLabel*>(u"auditStatus"_s)->text();
    QVERIFY2(status.endsWith(u"cases examined. %1 backed by the input"_s.arg(demoGoldMistakes().size())),
        qPrintable(status));
    QTRY_VERIFY_WITH_TIMEOUT(audit->diffView()->detail(), int(kBudgetMs));
    for (Page* page : window.pages()) {
        QVERIFY(window.showPage(page->pageId()));
        QTest::qWait(50);
        window.grab().save(screenshotDir() + u"/demo-%1.png"_s.arg(page->pageId()));
    }
    // The Errors page across models: the six models' failed cases, an UpSet plot.
    ErrorsPage* errors = window.findChild<ErrorsPage*>();
    QVERIFY(errors);
    QVERIFY(window.showPage(errors->pageId()));
    errors->setRowsByStrategy(false);
    errors->setAcrossModels(true);
    QCOMPARE(errors->setsModel()->rowCount(), 6);
    QVERIFY(errors->overlapsChart()->isUpSet());
    QTest::qWait(50);
    window.grab().save(screenshotDir() + u"/demo-errors-across-models.png"_s);
    errors->setAcrossModels(false);
    // The Compare page opens on a within-model pair (one profile under its two strategies).
    ComparePage* compare = window.findChild<ComparePage*>();
    QVERIFY(compare);
    QTRY_VERIFY_WITH_TIMEOUT(compare->comparison() && !compare->isComparing(), int(kBudgetMs));
    QCOMPARE(compare->comparison()->a.model, compare->comparison()->b.model);
    QVERIFY(compare->comparison()->ok());

    // Accepting the models' value at the first audit item (selected, its place selected in the diff) stores a
    // new revision of that case's gold with the true value; the rebuilt queue lists the item as fixed.
    QVERIFY(window.showPage(audit->pageId()));
    const AuditItem first = *audit->model()->itemAt(audit->proxy()->mapToSource(audit->view()->currentIndex()).row());
    DiffView* diff = audit->diffView();
    QTRY_VERIFY_WITH_TIMEOUT(diff->detail() && diff->detail()->ref.caseId == first.caseId
            && diff->currentRow() == diff->rowsModel()->rowOfPointer(first.pointer),
        int(kBudgetMs));
    diff->setReasonProvider([](const QString&) { return std::optional<QString>(u"the input says otherwise"_s); });
    QSignalSpy edited(diff, &DiffView::editFinished);
    diff->acceptSelectedValue();
    QTRY_COMPARE_WITH_TIMEOUT(edited.size(), 1, int(kBudgetMs));
    const GoldEditOutcome outcome = edited.constFirst().at(0).value<GoldEditOutcome>();
    QVERIFY2(outcome.ok(), qPrintable(outcome.message));
    QCOMPARE(outcome.added.revision, 1);
    const DemoGoldMistake* planted = nullptr;
    for (const DemoGoldMistake& m : demoGoldMistakes()) {
        if (m.suite == first.suiteId && m.caseId == first.caseId)
            planted = &m;
    }
    QVERIFY(planted);
    QVERIFY(outcome.added.gold.at(nlohmann::json::json_pointer(planted->pointer())) == planted->truth);
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int row = 0; row < audit->model()->rowCount(); ++row) {
                const AuditItem* item = audit->model()->itemAt(row);
                if (item->caseRow == first.caseRow && item->path == first.path)
                    return item->goldChanged && audit->model()->markAt(row).state == TriageState::Fixed;
            }
            return false;
        }(),
        int(kBudgetMs));
}

void TestFirstStart::secondStartRestoresTheDemo()
{
    MainWindow window;
    QVERIFY(!window.demoSetup()->isFirstStart());
    window.startUp();
    QVERIFY(!window.demoSetup()->isRunning());
    QVERIFY(window.workspace()->isOpen());
    QCOMPARE(window.workspace()->location(), DemoSetup::defaultLocation());
}

void TestFirstStart::noDemoWhenAWorkspaceWasOpenedBefore()
{
    // The last workspace is gone, but the user has opened workspaces: not a first start.
    QSettings().clear();
    Settings settings;
    settings.addRecentWorkspace(m_settingsDir.filePath(u"gone.structscope"_s));
    MainWindow window;
    QVERIFY(!window.demoSetup()->isFirstStart());
    window.startUp();
    QVERIFY(!window.demoSetup()->isRunning());
    QVERIFY(!window.workspace()->isOpen());
}

void TestFirstStart::createDemoWorkspaceOnDemand()
{
    MainWindow window;
    QVERIFY(window.openWorkspace(DemoSetup::defaultLocation()));
    QAction* action = findAction(window.menuBar(), u"Create Demo Workspace"_s);
    QVERIFY(action);
    QSignalSpy finished(window.demoSetup(), &DemoSetup::finished);
    action->trigger();
    QVERIFY(window.demoSetup()->isRunning());
    QVERIFY(!window.workspace()->isOpen()); // closed while its file is replaced
    QVERIFY(!window.demoSetup()->start()); // one at a time
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), int(kBudgetMs));
    QVERIFY2(finished.constFirst().at(0).toBool(), qPrintable(finished.constFirst().at(1).toString()));
    QVERIFY(window.workspace()->isOpen());
}

void TestFirstStart::demoWaitsForTheOldFilesLastReader()
{
    // A job of a page may still be reading the old demo when it is made anew: its files are replaced only once
    // that connection is closed (one left open would take the new file's -wal and -shm for its own), and nothing
    // opens them meanwhile.
    const QString location = DemoSetup::defaultLocation();
    MainWindow window;
    QVERIFY(window.openWorkspace(location));
    ResultStore::OpenOptions readOnly;
    readOnly.readOnly = true;
    readOnly.integrityCheck = false;
    auto reader = ResultStore::open(location, readOnly);
    QVERIFY(reader);
    const auto runsBefore = reader->runs();
    QVERIFY(runsBefore && !runsBefore->isEmpty());
    QSignalSpy finished(window.demoSetup(), &DemoSetup::finished);
    QVERIFY(window.demoSetup()->start());
    QTest::qWait(300);
    QVERIFY(finished.isEmpty());
    QVERIFY(QFileInfo::exists(location));
    QCOMPARE(reader->runs()->size(), runsBefore->size()); // the old file, read as before
    StoreError refused;
    QVERIFY(!ResultStore::open(location, readOnly, &refused));
    QVERIFY2(refused.message.contains(u"being created anew"_s), qPrintable(refused.message));
    reader.reset();
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), int(kBudgetMs));
    QVERIFY2(finished.constFirst().at(0).toBool(), qPrintable(finished.constFirst().at(1).toString()));
    QVERIFY(window.workspace()->isOpen());
}

void TestFirstStart::cancelLeavesNoWorkspaceOpen()
{
    MainWindow window;
    QSignalSpy finished(window.demoSetup(), &DemoSetup::finished);
    QVERIFY(window.demoSetup()->start());
    window.demoSetup()->cancel();
    QCOMPARE(finished.size(), 1);
    QVERIFY(!finished.constFirst().at(0).toBool());
    QVERIFY(finished.constFirst().at(1).toString().contains(u"cancelled"_s));
    QVERIFY(!window.demoSetup()->isRunning());
    QVERIFY(!window.activity()->isActive());
    QVERIFY(!window.workspace()->isOpen());
    // The worker stops at its next progress report; the window waits for it when it goes away.
}

void TestFirstStart::comparisonChartDrawsEachPairTopDown()
{
    ComparisonChart chart;
    ConfigComparison failed = comparison(u"sim:x"_s, 1, 0, 2, 0.5);
    failed.error = u"no shared cases"_s;
    chart.setComparisons(
        { comparison(u"sim:careful"_s, 12.5, 8, 17, 0.0001), failed, comparison(u"sim:sloppy"_s, -4, -9.5, 1.5, 0.2) });
    QCOMPARE(chart.categories(),
        QStringList(
            { u"sim:careful (simulated): P → J+ (p < 0.001)"_s, u"sim:sloppy (simulated): P → J+ (p = 0.200)"_s }));
    QCOMPARE(chart.deltas(), std::vector<double>({ 12.5, -4 }));
    QCOMPARE(chart.intervals().size(), std::size_t(2));
    QCOMPARE(chart.intervals()[1].low, -9.5);
    // The bars: the vertical axis counts from the bottom, so the first pair is the last category;
    // a gain goes to the "J+ ahead" set, a loss to "P ahead".
    auto* series = chart.chart()->series().isEmpty()
        ? nullptr
        : qobject_cast<QHorizontalStackedBarSeries*>(chart.chart()->series().constFirst());
    QVERIFY(series);
    QCOMPARE(series->barSets().size(), 2);
    QCOMPARE(series->barSets()[0]->label(), u"J+ ahead"_s);
    QCOMPARE(series->barSets()[0]->at(1), 12.5);
    QCOMPARE(series->barSets()[0]->at(0), 0.0);
    QCOMPARE(series->barSets()[1]->label(), u"P ahead"_s);
    QCOMPARE(series->barSets()[1]->at(0), -4.0);
    QCOMPARE(series->barSets()[1]->at(1), 0.0);
    // One error bar per pair besides the bars.
    QCOMPARE(chart.chart()->series().size(), 3);
    QVERIFY(chart.chart()->title().contains(u"Correct"_s));

    chart.setComparisons({ failed });
    QVERIFY(chart.categories().isEmpty());
    QVERIFY(chart.chart()->series().isEmpty());
}

QTEST_MAIN(TestFirstStart)
#include "tst_firststart.moc"
