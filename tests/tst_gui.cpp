// SPDX-License-Identifier: Apache-2.0
// The main window on the offscreen platform: opening a workspace, the Leaderboard and Heatmap pages
// with the sample store (uitestdata.h), chart and table export (each file checked to be a valid
// PNG/SVG/PDF with the chart's content), imports by drag and drop, the glossary, About the Data,
// the scoring service, and screenshots of every page saved into the build folder.
#include "charts/costaccuracychart.h"
#include "charts/heatmapwidget.h"
#include "charts/metricbarchart.h"
#include "export/chartexport.h"
#include "export/tableexport.h"
#include "mainwindow.h"
#include "models/heatmapmodel.h"
#include "models/leaderboardmodel.h"
#include "models/resultsproxymodel.h"
#include "pages/heatmappage.h"
#include "pages/leaderboardpage.h"
#include "pages/runspage.h"
#include "report/reportwriter.h"
#include "scoring/metricregistry.h"
#include "settings/settings.h"
#include "store/resultstore.h"
#include "uitestdata.h"
#include "widgets/activityindicator.h"
#include "widgets/goldtoggle.h"
#include "widgets/metricglossarydialog.h"
#include "widgets/metricpicker.h"
#include "widgets/simulateddatadialog.h"
#include "widgets/simulateddatanote.h"
#include "workspace/goldeditservice.h"
#include "workspace/workspace.h"

#include <QDir>
#include <QElapsedTimer>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrl>

using namespace Qt::StringLiterals;
using namespace structscope;

namespace {

constexpr int kTimeoutMs = 60000;
const QStringList kModels = { u"demo/model-a"_s, u"demo/model-b"_s, u"demo/model-c"_s };

QString screenshotDir()
{
    const QString dir = QCoreApplication::applicationDirPath() + u"/screenshots"_s;
    QDir().mkpath(dir);
    return dir;
}

void dropPaths(QWidget* target, const QStringList& paths)
{
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString& p : paths)
        urls << QUrl::fromLocalFile(p);
    mime.setUrls(urls);
    QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(target, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(target, &drop);
}

/// Drops the paths and accepts the import offer that follows (tst_openfiles tests the offer itself).
void dropAndImport(QWidget* target, const QStringList& paths)
{
    dropPaths(target, paths);
    QPushButton* accept = nullptr;
    QVERIFY(QTest::qWaitFor(
        [&] {
            for (QPushButton* button : target->findChildren<QPushButton*>(u"importOfferAccept"_s))
                accept = button->isVisible() ? button : accept;
            return accept != nullptr;
        },
        10000));
    accept->click();
}

} // namespace

class TestGui : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_store;
    std::unique_ptr<MainWindow> m_window;

    template <typename P> P* page()
    {
        for (Page* p : m_window->pages()) {
            if (auto* typed = qobject_cast<P*>(p))
                return typed;
        }
        return nullptr;
    }

    /// Waits until the page has applied a report from the open store.
    static bool waitForData(Page* page)
    {
        return QTest::qWaitFor([page] { return !page->isLoading() && page->currentReport(); }, kTimeoutMs);
    }

    MainWindow* openedWindow()
    {
        if (!m_window) {
            m_window = std::make_unique<MainWindow>();
            m_window->resize(1280, 820);
            m_window->show();
            if (!QTest::qWaitForWindowExposed(m_window.get()))
                return nullptr;
            QString error;
            if (!m_window->openWorkspace(m_store, false, &error))
                qWarning("%s", qPrintable(error));
        }
        return m_window.get();
    }

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void databasePasswordsStayOutOfSettingsAndDialogs();
    void startsWithoutAWorkspace();
    void openingAStoreThatIsNotOneFails();
    void leaderboardShowsTheStore();
    void leaderboardFilterAndDrillDown();
    void goldToggleAndGrouping();
    void heatmapShowsTheStore();
    void chartExport_data();
    void chartExport();
    void tableExport_data();
    void tableExport();
    void dropImportsResultsAndSuites();
    void droppingAStoreFileOpensIt();
    void restoresTheLastWorkspace();
    void scoringServiceSharesOneResultPerGold();
    void scoringServiceRescoresOnlyEditedCases();
    void scoringServiceDropsSupersededResults();
    void startupIsQuick();
    void glossaryListsEveryMetric();
    void helpOpensAboutTheData();
    void menusHaveTheirShortcuts();
    void editMenuUndoFollowsTheGoldEditService();
    void screenshotsOfEveryPage();
};

void TestGui::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"StructScopeTests"_s);
    QCoreApplication::setApplicationName(u"tst_gui"_s);
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QString error;
    m_store = uitest::makeSampleStore(m_dir.path(), &error);
    QVERIFY2(!m_store.isEmpty(), qPrintable(error));
}

void TestGui::cleanupTestCase()
{
    m_window.reset();
    QSettings().clear();
}

void TestGui::databasePasswordsStayOutOfSettingsAndDialogs()
{
    const QString url = u"postgresql://alice:s3cret@127.0.0.1:1/structscope?connect_timeout=2"_s;
    const QString clean = u"postgresql://alice@127.0.0.1:1/structscope?connect_timeout=2"_s;
    const auto fileHolds = [](const QString& text) {
        QFile file(QSettings().fileName());
        return file.open(QIODevice::ReadOnly) && file.readAll().contains(text.toUtf8());
    };
    const QFile::Permissions others = QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup | QFile::ReadOther
        | QFile::WriteOther | QFile::ExeOther;
    // Settings an older version wrote: the password in both keys, the file readable by everyone.
    {
        QSettings raw;
        raw.setValue(u"workspace/recent"_s, QStringList { url, m_store });
        raw.setValue(u"workspace/last"_s, url);
        raw.sync();
        QVERIFY(QFile::setPermissions(raw.fileName(), QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther));
    }
    QVERIFY(fileHolds(u"s3cret"_s));
    {
        Settings settings;
        QCOMPARE(settings.recentWorkspaces(), (QStringList { clean, m_store }));
        QCOMPARE(settings.lastWorkspace(), clean);
        QVERIFY(!fileHolds(u"s3cret"_s));
        QCOMPARE(QFile::permissions(QSettings().fileName()) & others, QFile::Permissions());

        settings.addRecentWorkspace(url);
        settings.setLastWorkspace(url);
        QCOMPARE(settings.recentWorkspaces(), (QStringList { clean, m_store }));
        QCOMPARE(settings.lastWorkspace(), clean);
        QVERIFY(!fileHolds(u"s3cret"_s));
        QCOMPARE(QFile::permissions(QSettings().fileName()) & others, QFile::Permissions());
    }

    // Open Recent and the "Cannot open" dialog after File → Open Database URL… with a password.
    QSettings().setValue(u"workspace/recent"_s, QStringList { url });
    QSettings().remove(u"workspace/last"_s);
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QAction* openUrl = nullptr;
    for (QAction* action : window.findChildren<QAction*>()) {
        QVERIFY2(!action->text().contains(u"s3cret"_s), qPrintable(action->text()));
        if (action->text().startsWith(u"Open &Database URL"_s))
            openUrl = action;
    }
    QVERIFY(openUrl);
    QString shown;
    QTimer answer;
    answer.setInterval(50);
    QObject::connect(&answer, &QTimer::timeout, &window, [&] {
        QWidget* modal = QApplication::activeModalWidget();
        if (auto* input = qobject_cast<QInputDialog*>(modal)) {
            input->setTextValue(url);
            input->accept();
        } else if (auto* box = qobject_cast<QMessageBox*>(modal)) {
            shown = box->text() + box->informativeText() + box->detailedText();
            box->accept();
            answer.stop();
        }
    });
    answer.start();
    openUrl->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 30000);
    QVERIFY2(shown.contains(u"alice@127.0.0.1"_s), qPrintable(shown));
    QVERIFY2(!shown.contains(u"s3cret"_s), qPrintable(shown));
    QVERIFY(!fileHolds(u"s3cret"_s));
    QSettings().clear();
}

void TestGui::startsWithoutAWorkspace()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(!window.workspace()->isOpen());
    QVERIFY(window.findChild<QLabel*>(u"welcomeLabel"_s)->isVisible());
    QStringList ids;
    for (const Page* p : window.pages())
        ids << p->pageId();
    QCOMPARE(ids,
        (QStringList { u"runs"_s, u"leaderboard"_s, u"heatmap"_s, u"cases"_s, u"errors"_s, u"compare"_s, u"audit"_s }));
    window.grab().save(screenshotDir() + u"/welcome.png"_s);
}

void TestGui::openingAStoreThatIsNotOneFails()
{
    MainWindow window;
    const QString bogus = m_dir.filePath(u"not-a-store.db"_s);
    QFile file(bogus);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("this is not SQLite");
    file.close();
    QString error;
    QVERIFY(!window.openWorkspace(bogus, false, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!window.workspace()->isOpen());
}

void TestGui::leaderboardShowsTheStore()
{
    MainWindow* window = openedWindow();
    QVERIFY(window);
    QVERIFY(window->workspace()->isOpen());
    QVERIFY(window->windowTitle().contains(u"store.db"_s));
    auto* leaderboard = page<LeaderboardPage>();
    QVERIFY(window->showPage(u"leaderboard"_s));
    QVERIFY(waitForData(leaderboard));
    QCOMPARE(leaderboard->model()->rowCount(), 3);
    QCOMPARE(leaderboard->view()->model()->rowCount(), 3);
    // The page opens on the family the suite adds to the ladder (grounding for SOB files), charting its first
    // metric; the ladder is one pick away.
    QCOMPARE(leaderboard->metricPicker()->family(), u"grounding"_s);
    QCOMPARE(leaderboard->metricPicker()->metricId(), std::string("grounding.json_parse"));
    QVERIFY(leaderboard->metricPicker()->setMetric("ladder.correct"));
    QCOMPARE(leaderboard->model()->family(), u"ladder"_s);
    QVERIFY(leaderboard->metricPicker()->setMetric("grounding.json_parse"));
    QCOMPARE(leaderboard->model()->family(), u"grounding"_s);
    // Sorted by the charted metric, best first: c (1.0), a (0.8), b (0.5).
    const auto* proxy = leaderboard->view()->model();
    QStringList order;
    for (int row = 0; row < 3; ++row)
        order << proxy->index(row, 0).data().toString();
    QCOMPARE(order, QStringList({ u"demo/model-c"_s, u"demo/model-a"_s, u"demo/model-b"_s }));
    QCOMPARE(leaderboard->barChart()->categories(), order);
    QCOMPARE(leaderboard->barChart()->errorBars().size(), std::size_t(3));
    QCOMPARE(leaderboard->scatter()->plottedLabels().size(), 3);
    QVERIFY(leaderboard->scatter()->unplottedLabels().isEmpty());
}

void TestGui::leaderboardFilterAndDrillDown()
{
    MainWindow* window = openedWindow();
    auto* leaderboard = page<LeaderboardPage>();
    window->showPage(u"leaderboard"_s);
    QVERIFY(waitForData(leaderboard));
    auto* filter = leaderboard->findChild<QLineEdit*>(u"leaderboardFilter"_s);
    QVERIFY(filter);
    filter->setText(u"model-b"_s);
    QTRY_COMPARE_WITH_TIMEOUT(leaderboard->view()->model()->rowCount(), 1, 3000);
    QSignalSpy drill(leaderboard, &Page::drillDown);
    leaderboard->view()->activated(leaderboard->view()->model()->index(0, 0));
    QCOMPARE(drill.count(), 1);
    QCOMPARE(drill.at(0).at(0).value<GroupKey>().toString(), u"model=demo/model-b"_s);
    QVERIFY(window->statusBar()->currentMessage().contains(u"model=demo/model-b"_s));
    filter->clear();
    QCOMPARE(leaderboard->view()->model()->rowCount(), 3);
}

void TestGui::goldToggleAndGrouping()
{
    MainWindow* window = openedWindow();
    auto* leaderboard = page<LeaderboardPage>();
    window->showPage(u"leaderboard"_s);
    QVERIFY(waitForData(leaderboard));
    leaderboard->goldToggle()->setGold(GoldBasis::Adjusted);
    QVERIFY(QTest::qWaitFor([&] { return leaderboard->currentReport()->report.gold == "adjusted"; }, kTimeoutMs));
    QVERIFY(waitForData(leaderboard));
    QCOMPARE(leaderboard->model()->rowCount(), 3);
    leaderboard->setGroupByStrategy(true);
    QVERIFY(QTest::qWaitFor([&] { return leaderboard->currentReport()->report.groupBy.size() == 2; }, kTimeoutMs));
    QCOMPARE(leaderboard->model()->headerData(1, Qt::Horizontal).toString(), u"Strategy"_s);
    leaderboard->setGroupByStrategy(false);
    leaderboard->goldToggle()->setGold(GoldBasis::Measured);
    QVERIFY(QTest::qWaitFor(
        [&] {
            return leaderboard->currentReport()->report.gold == "measured"
                && leaderboard->currentReport()->report.groupBy.size() == 1;
        },
        kTimeoutMs));
}

void TestGui::heatmapShowsTheStore()
{
    MainWindow* window = openedWindow();
    auto* heatmap = page<HeatmapPage>();
    QVERIFY(window->showPage(u"heatmap"_s));
    QVERIFY(waitForData(heatmap));
    QVERIFY(heatmap->metricPicker()->setMetric("grounding.json_parse"));
    const HeatmapData& data = heatmap->heatmap()->data();
    QCOMPARE(data.rowLabels, kModels);
    QCOMPARE(data.columnLabels, QStringList({ u"image"_s, u"text"_s }));
    QCOMPARE(data.cell(0, 0).value, 0.75);
    // The table under the heatmap holds the same cells with interval and n.
    QCOMPARE(heatmap->tableModel()->rowCount(), 3);
    QCOMPARE(heatmap->tableModel()->index(0, 1).data().toString(), u"0.750  [0.301, 0.954]  · n = 4"_s);
    QVERIFY(heatmap->setColumnKey(u"tier"_s));
    QVERIFY(QTest::qWaitFor([&] { return heatmap->heatmap()->data().columnKey == "tier"; }, kTimeoutMs));
    QCOMPARE(heatmap->heatmap()->data().columnLabels, QStringList({ u"easy"_s, u"hard"_s, u"medium"_s }));
    QSignalSpy drill(heatmap, &Page::drillDown);
    Q_EMIT heatmap->heatmap()->cellClicked(heatmap->heatmap()->data().rows[0], u"hard"_s);
    QCOMPARE(drill.at(0).at(0).value<GroupKey>().toString(), u"model=demo/model-a, tier=hard"_s);
    QVERIFY(heatmap->setColumnKey(u"category"_s));
    QVERIFY(QTest::qWaitFor([&] { return heatmap->heatmap()->data().columnKey == "category"; }, kTimeoutMs));
}

void TestGui::chartExport_data()
{
    QTest::addColumn<QString>("chart");
    QTest::addColumn<QString>("suffix");
    for (const char* chart : { "bars", "scatter", "heatmap" }) {
        for (const char* suffix : { "png", "svg", "pdf" })
            QTest::addRow("%s.%s", chart, suffix) << QString::fromLatin1(chart) << QString::fromLatin1(suffix);
    }
}

void TestGui::chartExport()
{
    QFETCH(QString, chart);
    QFETCH(QString, suffix);
    MainWindow* window = openedWindow();
    ExportableChart* target = nullptr;
    QStringList content = kModels;
    if (chart == u"heatmap"_s) {
        window->showPage(u"heatmap"_s);
        QVERIFY(waitForData(page<HeatmapPage>()));
        target = page<HeatmapPage>()->heatmap();
        content << u"image"_s << u"text"_s;
    } else {
        window->showPage(u"leaderboard"_s);
        QVERIFY(waitForData(page<LeaderboardPage>()));
        target = chart == u"bars"_s ? static_cast<ExportableChart*>(page<LeaderboardPage>()->barChart())
                                    : page<LeaderboardPage>()->scatter();
    }
    const QString path = m_dir.filePath(u"export-%1.%2"_s.arg(chart, suffix));
    QCOMPARE(exportChart(*target, path, 120), QString());
    const QString problem = uitest::checkChartFile(path, content);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    if (suffix == u"png"_s)
        QCOMPARE(QImage(path).size(), target->exportSize() * 120 / 96);
}

void TestGui::tableExport_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<QString>("format");
    QTest::addRow("csv") << u"csv"_s << u"csv"_s;
    QTest::addRow("markdown") << u"md"_s << u"md"_s;
    QTest::addRow("latex") << u"tex"_s << u"latex"_s;
    QTest::addRow("json") << u"json"_s << u"json"_s;
}

void TestGui::tableExport()
{
    QFETCH(QString, suffix);
    QFETCH(QString, format);
    MainWindow* window = openedWindow();
    auto* leaderboard = page<LeaderboardPage>();
    window->showPage(u"leaderboard"_s);
    QVERIFY(waitForData(leaderboard));
    const std::optional<Report> table = leaderboard->table();
    QVERIFY(table);
    QCOMPARE(table->groups.size(), std::size_t(3));
    const QString path = m_dir.filePath(u"table."_s + suffix);
    QCOMPARE(exportTable(*table, path, u"Leaderboard"_s), QString());
    const QByteArray written = uitest::readAll(path);
    ReportWriteOptions options;
    options.latexCaption = "Leaderboard";
    QCOMPARE(written, QByteArray::fromStdString(writeReport(*table, format.toStdString(), options).text));
    for (const QString& model : kModels)
        QVERIFY(written.contains(model.toUtf8()));
    QVERIFY(exportTable(*table, m_dir.filePath(u"table.xlsx"_s)).contains(u"unknown table format"_s));
}

void TestGui::dropImportsResultsAndSuites()
{
    QTemporaryDir dir;
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openWorkspace(dir.filePath(u"fresh.db"_s), true));
    auto* leaderboard = window.findChild<LeaderboardPage*>();
    QVERIFY(window.showPage(leaderboard->pageId())); // not the first page any more (Runs is)
    QVERIFY(waitForData(leaderboard));
    QCOMPARE(leaderboard->model()->rowCount(), 0);
    window.grab().save(screenshotDir() + u"/empty-workspace.png"_s);

    const QStringList files = uitest::writeSampleFiles(dir.path()).mid(0, 4); // models a and b
    QSignalSpy finished(window.workspace(), &Workspace::importFinished);
    dropAndImport(&window, files);
    QVERIFY(finished.wait(kTimeoutMs));
    QCOMPARE(finished.at(0).at(0).value<ImportOutcome>().responses, qint64(20));
    QVERIFY(window.statusBar()->currentMessage().contains(u"Imported 20 response"_s));
    QVERIFY(QTest::qWaitFor([&] { return leaderboard->model()->rowCount() == 2; }, kTimeoutMs));

    dropAndImport(&window, { QStringLiteral(STRUCTSCOPE_TEST_DATA) + u"/import/suite"_s });
    QVERIFY(finished.wait(kTimeoutMs));
    QCOMPARE(finished.at(1).at(0).value<ImportOutcome>().suites, 1);
    auto store = ResultStore::open(dir.filePath(u"fresh.db"_s));
    QVERIFY(store);
    const auto suites = store->suites(); // kept: a range-for over a temporary's value() would dangle
    QVERIFY(suites);
    QStringList suiteIds;
    for (const SuiteRow& suite : suites.value())
        suiteIds << suite.id;
    QVERIFY2(suiteIds.contains(u"people"_s), qPrintable(suiteIds.join(u", "_s)));
    QCOMPARE(window.settings()->suiteFolders(dir.filePath(u"fresh.db"_s)).size(), 1);
}

void TestGui::droppingAStoreFileOpensIt()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    dropPaths(&window, { m_store });
    QTRY_VERIFY(window.workspace()->isOpen()); // after the drop event has returned
    QCOMPARE(window.workspace()->location(), m_store);
    QCOMPARE(window.settings()->recentWorkspaces().value(0), m_store);
    QCOMPARE(window.settings()->lastWorkspace(), m_store);
}

void TestGui::restoresTheLastWorkspace()
{
    Settings settings;
    settings.setLastWorkspace(m_store);
    MainWindow window;
    QVERIFY(window.restoreLastWorkspace());
    QCOMPARE(window.workspace()->location(), m_store);
    settings.setLastWorkspace(m_dir.filePath(u"gone/missing.db"_s));
    MainWindow other;
    QVERIFY(!other.restoreLastWorkspace());
}

void TestGui::scoringServiceSharesOneResultPerGold()
{
    ScoringService service;
    QSignalSpy scored(&service, &ScoringService::scored);
    QSignalSpy busy(&service, &ScoringService::busyChanged);
    QVERIFY(!service.request(GoldBasis::Measured)); // no store yet: nothing starts
    QVERIFY(!service.isBusy());
    service.setLocation(m_store);
    QVERIFY(!service.request(GoldBasis::Measured));
    QVERIFY(!service.request(GoldBasis::Measured)); // the second request joins the first
    QVERIFY(service.isBusy());
    QVERIFY(scored.wait(kTimeoutMs));
    QCOMPARE(scored.count(), 1);
    const auto set = scored.at(0).at(1).value<ScoredSetPtr>();
    QVERIFY(set->ok());
    QCOMPARE(set->records.size(), std::size_t(30));
    QCOMPARE(service.request(GoldBasis::Measured), set); // cached
    QCOMPARE(busy.count(), 2); // true, then false
    QVERIFY(busy.at(0).at(0).toBool());
    QVERIFY(!busy.at(1).at(0).toBool());
    QCOMPARE(set->reused, 0);

    // The store changed (here: nothing that touches a verdict): the next pass takes over every verdict.
    service.invalidate();
    QTRY_VERIFY_WITH_TIMEOUT(scored.count() == 2, kTimeoutMs);
    const auto again = scored.at(1).at(1).value<ScoredSetPtr>();
    QVERIFY(again->ok());
    QCOMPARE(again->records.size(), std::size_t(30));
    QCOMPARE(again->reused, 30);
    QCOMPARE(again->records.front().verdict.values, set->records.front().verdict.values);

    // Once the first set was out, the store was made to keep its verdicts: a service of a later session reads
    // them instead of scoring, and they are the same.
    const auto keptCount = [this] {
        ResultStore::OpenOptions readOnly;
        readOnly.readOnly = true;
        auto store = ResultStore::open(m_store, readOnly);
        return store ? store->storedVerdictCount().value() : -1;
    };
    QTRY_COMPARE_WITH_TIMEOUT(keptCount(), qint64(30), kTimeoutMs);
    ScoringService later;
    QSignalSpy laterScored(&later, &ScoringService::scored);
    later.setLocation(m_store);
    later.request(GoldBasis::Measured);
    QTRY_VERIFY_WITH_TIMEOUT(laterScored.count() == 1, kTimeoutMs);
    const auto read = laterScored.at(0).at(1).value<ScoredSetPtr>();
    QVERIFY(read->ok());
    QCOMPARE(read->stored, 30);
    QVERIFY(read->unkept.empty());
    for (std::size_t i = 0; i < read->records.size(); ++i)
        QCOMPARE(read->records[i].verdict.values, set->records[i].verdict.values);
}

void TestGui::scoringServiceRescoresOnlyEditedCases()
{
    ScoringService service;
    QSignalSpy scored(&service, &ScoringService::scored);
    service.setLocation(m_store);
    service.request(GoldBasis::Measured);
    service.request(GoldBasis::Adjusted);
    QTRY_VERIFY_WITH_TIMEOUT(scored.count() == 2, kTimeoutMs);
    const ScoredSetPtr measured = service.cached(GoldBasis::Measured);
    const ScoredSetPtr adjusted = service.cached(GoldBasis::Adjusted);
    QVERIFY(measured && adjusted);
    const ScoredRecord& first = adjusted->records.front();
    qint64 ofCase = 0;
    for (const ScoredRecord& r : adjusted->records)
        ofCase += r.caseRow == first.caseRow ? 1 : 0;
    QVERIFY(first.caseRow > 0);

    // A gold edit of one case: the measured set stays as it is; the adjusted one is scored again from the
    // previous set, taking over every verdict but those of the edited case.
    service.invalidateCases({ first.caseRow });
    QCOMPARE(service.cached(GoldBasis::Measured), measured);
    QVERIFY(!service.cached(GoldBasis::Adjusted));
    QTRY_VERIFY_WITH_TIMEOUT(scored.count() == 3, kTimeoutMs);
    const auto again = scored.at(2).at(1).value<ScoredSetPtr>();
    QCOMPARE(scored.at(2).at(0).value<GoldBasis>(), GoldBasis::Adjusted);
    QVERIFY(again->ok());
    QCOMPARE(again->records.size(), adjusted->records.size());
    QCOMPARE(again->reused, qint64(adjusted->records.size()) - ofCase);
    QCOMPARE(again->records.front().verdict.values, first.verdict.values); // the gold did not really change
}

void TestGui::scoringServiceDropsSupersededResults()
{
    ScoringService service;
    QSignalSpy scored(&service, &ScoringService::scored);
    service.setLocation(m_store);
    service.request(GoldBasis::Measured);
    // Another store before the first pass ends: its result must never arrive.
    service.setLocation(m_dir.filePath(u"missing/none.db"_s));
    service.request(GoldBasis::Adjusted);
    // Counted, not waited for: Qt 6.4's then(context, …) may deliver before wait() starts listening.
    QTRY_VERIFY_WITH_TIMEOUT(scored.count() >= 1, kTimeoutMs);
    QTest::qWait(200);
    QCOMPARE(scored.count(), 1);
    QCOMPARE(scored.at(0).at(0).value<GoldBasis>(), GoldBasis::Adjusted);
    QVERIFY(!scored.at(0).at(1).value<ScoredSetPtr>()->error.isEmpty());
    // A failed pass is not cached: asking again tries again.
    QVERIFY(!service.request(GoldBasis::Adjusted));
    // Under load the failed job may still be winding down when asked again; asking until a second
    // result arrives still proves the failure was not cached (a cached set would never be announced).
    QTRY_VERIFY_WITH_TIMEOUT((service.request(GoldBasis::Adjusted), scored.count() >= 2), kTimeoutMs);
    // Cancel announces the stop to whoever waits.
    service.setLocation(m_store);
    service.request(GoldBasis::Measured);
    service.cancel();
    QCOMPARE(scored.last().at(1).value<ScoredSetPtr>()->cancelled, true);
    QVERIFY(!service.isBusy());
}

void TestGui::startupIsQuick()
{
    QElapsedTimer timer;
    timer.start();
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const qint64 painted = timer.elapsed();
    QVERIFY(window.openWorkspace(m_store));
    QVERIFY(window.showPage(u"leaderboard"_s)); // Runs, the first page, shows no scores
    QVERIFY(waitForData(window.currentPage()));
    const qint64 withData = timer.elapsed();
    qInfo("main window painted after %lld ms; leaderboard filled after %lld ms", painted, withData);
    QVERIFY2(painted < 1000, qPrintable(QString::number(painted)));
}

void TestGui::glossaryListsEveryMetric()
{
    MetricGlossaryDialog dialog;
    QCOMPARE(dialog.visibleMetricCount(), int(allMetrics().size()));
    dialog.setFilter(u"silent in production"_s);
    QCOMPARE(dialog.visibleMetricCount(), 1);
    dialog.setFilter({});
    QCOMPARE(dialog.visibleMetricCount(), int(allMetrics().size()));
}

void TestGui::helpOpensAboutTheData()
{
    MainWindow* window = openedWindow();
    // The sample store holds no simulated model: the leaderboard shows no note.
    QVERIFY(window->showPage(u"leaderboard"_s));
    auto* leaderboard = page<LeaderboardPage>();
    QVERIFY(waitForData(leaderboard));
    QVERIFY(leaderboard->currentReport()->simulatedModels.isEmpty());
    QVERIFY(!leaderboard->simulatedNote()->isVisible());

    QMenu* help = nullptr;
    for (QAction* menu : window->menuBar()->actions()) {
        if (menu->text() == u"&Help"_s)
            help = menu->menu();
    }
    QVERIFY(help);
    auto* action = window->findChild<QAction*>(u"aboutTheDataAction"_s);
    QVERIFY(action && help->actions().contains(action));
    QCOMPARE(action->text(), u"About the &Data"_s);
    QVERIFY(!action->statusTip().isEmpty());
    QVERIFY(!window->findChild<SimulatedDataDialog*>());
    action->trigger();
    auto* dialog = window->findChild<SimulatedDataDialog*>();
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    QTRY_VERIFY_WITH_TIMEOUT(dialog->hasLoadedSuites(), kTimeoutMs);
    action->trigger(); // a second time: the same dialog
    QCOMPARE(window->findChildren<SimulatedDataDialog*>().size(), 1);

    // Screenshots of each tab, in the default palette and in a dark one.
    QPalette dark;
    for (auto group : { QPalette::Active, QPalette::Inactive, QPalette::Disabled }) {
        dark.setColor(group, QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(group, QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
        dark.setColor(group, QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(group, QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
        dark.setColor(group, QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
        dark.setColor(group, QPalette::Button, QColor(0x35, 0x35, 0x35));
        dark.setColor(group, QPalette::ButtonText, QColor(0xe8, 0xe8, 0xe8));
        dark.setColor(group, QPalette::Link, QColor(0x6c, 0xb4, 0xff));
    }
    for (const QString& suffix : { QString(), u"-dark"_s }) {
        dialog->setPalette(suffix.isEmpty() ? QPalette() : dark);
        for (int tab = 0; tab < dialog->tabs()->count(); ++tab) {
            dialog->tabs()->setCurrentIndex(tab);
            QTest::qWait(20);
            const QString path = screenshotDir() + u"/about-the-data-%1%2.png"_s.arg(tab).arg(suffix);
            QVERIFY(dialog->grab().save(path));
        }
    }
    dialog->setPalette(QPalette());
    dialog->tabs()->setCurrentIndex(0);
    dialog->close();
}

void TestGui::menusHaveTheirShortcuts()
{
    MainWindow* window = openedWindow();
    QStringList shortcuts;
    for (QAction* menu : window->menuBar()->actions()) {
        for (QAction* action : menu->menu()->actions()) {
            if (!action->shortcut().isEmpty())
                shortcuts << action->shortcut().toString();
        }
    }
    for (const char* expected : { "Ctrl+N", "Ctrl+O", "Ctrl+I", "Ctrl+E", "Ctrl+Shift+E", "Ctrl+1", "Ctrl+2", "F5" })
        QVERIFY2(shortcuts.contains(QString::fromLatin1(expected)), expected);
}

void TestGui::editMenuUndoFollowsTheGoldEditService()
{
    MainWindow* window = openedWindow();
    auto* undo = window->findChild<QAction*>(u"undoGoldEditMenu"_s);
    QVERIFY(undo);
    // Nothing was edited in this session: nothing to undo, so the entry is not a dead button.
    QCOMPARE(undo->isEnabled(), GoldEditService::of(window->workspace())->canUndo());
    QVERIFY(!undo->isEnabled());
    QVERIFY(!undo->statusTip().isEmpty());
}

void TestGui::screenshotsOfEveryPage()
{
    MainWindow* window = openedWindow();
    window->resize(1280, 820);
    for (Page* page : window->pages()) {
        QVERIFY(window->showPage(page->pageId()));
        auto* runs = qobject_cast<RunsPage*>(page); // lists runs; it has no scored report
        QVERIFY(runs ? QTest::qWaitFor([runs] { return runs->hasLoadedRuns(); }, kTimeoutMs) : waitForData(page));
        QTest::qWait(50);
        const QString path = screenshotDir() + u"/"_s + page->pageId() + u".png"_s;
        QVERIFY(window->grab().save(path));
        qInfo("screenshot: %s", qPrintable(path));
    }
    // The heatmap by tier, and in a dark palette.
    auto* heatmap = page<HeatmapPage>();
    window->showPage(u"heatmap"_s);
    QVERIFY(heatmap->setColumnKey(u"tier"_s));
    QVERIFY(QTest::qWaitFor([&] { return heatmap->heatmap()->data().columnKey == "tier"; }, kTimeoutMs));
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    dark.setColor(QPalette::ButtonText, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
    dark.setColor(QPalette::PlaceholderText, QColor(0xa0, 0xa0, 0xa0));
    dark.setColor(QPalette::Highlight, QColor(0x2a, 0x82, 0xda));
    window->setPalette(dark);
    QTest::qWait(50);
    QVERIFY(window->grab().save(screenshotDir() + u"/heatmap-dark.png"_s));
    window->showPage(u"leaderboard"_s);
    QTest::qWait(50);
    QVERIFY(window->grab().save(screenshotDir() + u"/leaderboard-dark.png"_s));
    window->setPalette(QPalette());
    QVERIFY(heatmap->setColumnKey(u"category"_s));
}

QTEST_MAIN(TestGui)
#include "tst_gui.moc"
