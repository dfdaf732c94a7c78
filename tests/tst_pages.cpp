// SPDX-License-Identifier: Apache-2.0
// The pages of the second workbench issue on the offscreen platform, with the demo workspace of
// pagestestdata.h (40 email-extraction cases × 4 simulated models × 2 strategies): Cases with its
// filters, search and diff view (F8, highlights, other answers), Errors (Venn and UpSet, a region's
// click listing exactly its responses), Compare and Audit; dark mode; the geometry of the error-set
// charts; the Leaderboard's note over simulated models; screenshots of every page in the build folder.
// Gold editing is tested in tst_goldediting.
#include "charts/colorscale.h"
#include "charts/errorsetschart.h"
#include "charts/overlapschart.h"
#include "charts/smallmultipleslayout.h"
#include "charts/upsetlayout.h"
#include "charts/vennlayout.h"
#include "export/chartexport.h"
#include "models/auditqueuemodel.h"
#include "models/diffrowsmodel.h"
#include "models/discordantmodel.h"
#include "models/leaderboardmodel.h"
#include "models/pairmatrixmodel.h"
#include "pages/auditpage.h"
#include "pages/casespage.h"
#include "pages/comparepage.h"
#include "pages/errorspage.h"
#include "pages/leaderboardpage.h"
#include "pagestestdata.h"
#include "pagestesthelpers.h"
#include "report/reportwriter.h"
#include "uitestdata.h"
#include "widgets/diffview.h"
#include "widgets/filterlineedit.h"
#include "widgets/golddialogs.h"
#include "widgets/goldtoggle.h"
#include "widgets/simulateddatadialog.h"
#include "widgets/simulateddatanote.h"
#include "workspace/goldeditservice.h"
#include "workspace/workspace.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QLayout>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace Qt::StringLiterals;
using namespace structscope;
using nlohmann::json;

using namespace pagestest;

// ---------------------------------------------------------------------------------------------------
// Pages

class TestPages : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    pagestest::DemoStore m_demo;
    std::unique_ptr<Workspace> m_workspace;
    std::unique_ptr<CasesPage> m_cases;

    template <typename P> std::unique_ptr<P> makePage()
    {
        auto page = std::make_unique<P>(m_workspace.get());
        page->resize(1280, 820);
        page->show();
        if (!QTest::qWaitForWindowExposed(page.get(), kTimeoutMs))
            return nullptr;
        return page;
    }

    CasesPage* cases()
    {
        if (!m_cases)
            m_cases = makePage<CasesPage>();
        return m_cases.get();
    }

    qint64 caseRow(const char* id) const { return m_demo.caseRows.value(QString::fromLatin1(id)); }

    /// Shows `key` on the Cases page and waits for the first response's diff.
    bool showOnCases(const GroupKey& groupKey)
    {
        CasesPage* page = cases();
        if (!waitRecords(page))
            return false;
        page->showCases(groupKey);
        return waitDetail(page->diffView()) && page->diffView()->detail()->ok();
    }

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    // Geometry of the error-set charts.

    void vennCentres_data();
    void vennCentres();
    void vennAnchorsLieInTheirRegions_data();
    void vennAnchorsLieInTheirRegions();
    void smallMultiples();
    void upSetLayout();
    void upSetLayoutWithSetBars();
    // Pages, before any gold changes.

    void casesPageFiltersAndSearches();
    void diffViewWalksDifferences();
    void errorsPageRegionsListTheirCases();
    void errorSetsChartExports_data();
    void errorSetsChartExports();
    void errorsPageAcrossModels();
    void overlapsChartExports_data();
    void overlapsChartExports();
    void auditPageFocusesOnCases();
    void comparePage();
    void comparePageAllPairs();
    void leaderboardNotesSimulatedModels();
    void reopenedLeaderboardPaintsTheSavedReport();
    void largeSetsShowPointEstimatesFirst();
    void recordsPagesAggregateNothing();
    void darkPalette();
    void screenshots();
};

void TestPages::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"StructScopeTests"_s);
    QCoreApplication::setApplicationName(u"tst_pages"_s);
    QSettings().clear();
    QSettings().setValue(u"audit/author"_s, u"tester"_s);
    QVERIFY(m_dir.isValid());
    m_demo = pagestest::makeDemoStore(m_dir.path(), true);
    QVERIFY2(m_demo.ok(), qPrintable(m_demo.error));
    m_workspace = std::make_unique<Workspace>();
    QString error;
    QVERIFY2(m_workspace->open(m_demo.location, false, &error), qPrintable(error));
}

void TestPages::cleanupTestCase()
{
    m_cases.reset();
    m_workspace.reset();
    QSettings().clear();
}

void TestPages::vennCentres_data()
{
    QTest::addColumn<int>("sets");
    QTest::addColumn<QRectF>("bounds");
    QTest::addColumn<qreal>("radius");
    QTest::addColumn<QList<QPointF>>("centres");
    QTest::addColumn<QList<QPointF>>("anchors"); // by mask 1 … 2^sets − 1

    // 300 × 300, no margins: r = min(300/3, 300/(2 + √3/2)) = 100; the figure is 2r + h = 286.60 high
    // (h = 86.60), so the centroid sits at 6.70 + r + h/3 = 135.57. Centres r/2 left and right of it
    // and h/3 above, the third 2h/3 below. Singles lie 1.0774 r out along their centre's direction,
    // pairs 0.7887 r from the centroid, away from the third centre.
    const qreal cy = (300 - 286.60254) / 2 + 100 + 28.867513;
    QTest::addRow("three") << 3 << QRectF(0, 0, 300, 300) << 100.0
                           << QList<QPointF> { { 100, cy - 28.867513 }, { 200, cy - 28.867513 },
                                  { 150, cy + 57.735027 } }
                           << QList<QPointF> { { 150 - 93.30127, cy - 53.867513 }, { 150 + 93.30127, cy - 53.867513 },
                                  { 150, cy - 78.867513 }, { 150, cy + 107.735027 }, { 150 - 68.30127, cy + 39.433756 },
                                  { 150 + 68.30127, cy + 39.433756 }, { 150, cy } };
    // 300 × 200: r = min(100, 100); centres r/2 either side of the middle.
    QTest::addRow("two") << 2 << QRectF(0, 0, 300, 200) << 100.0 << QList<QPointF> { { 100, 100 }, { 200, 100 } }
                         << QList<QPointF> { { 50, 100 }, { 250, 100 }, { 150, 100 } };
    QTest::addRow("one") << 1 << QRectF(10, 20, 100, 80) << 40.0 << QList<QPointF> { { 60, 60 } }
                         << QList<QPointF> { { 60, 60 } };
}

void TestPages::vennCentres()
{
    QFETCH(int, sets);
    QFETCH(QRectF, bounds);
    QFETCH(qreal, radius);
    QFETCH(QList<QPointF>, centres);
    QFETCH(QList<QPointF>, anchors);
    VennLayout layout;
    layout.sets = sets;
    layout.bounds = bounds;
    layout.labelMargin = 0;
    QVERIFY(qAbs(layout.radius() - radius) < 1e-6);
    const auto near = [](const QPointF& a, const QPointF& b) { return QLineF(a, b).length() < 1e-3; };
    for (int i = 0; i < sets; ++i)
        QVERIFY2(near(layout.center(i), centres[i]), qPrintable(u"centre %1"_s.arg(i)));
    for (unsigned mask = 1; mask < (1u << sets); ++mask) {
        const QPointF anchor = layout.regionAnchor(mask);
        QVERIFY2(near(anchor, anchors[int(mask) - 1]),
            qPrintable(u"mask %1 at (%2, %3)"_s.arg(mask).arg(anchor.x()).arg(anchor.y())));
    }
    QCOMPARE(layout.regionAt(bounds.topLeft() + QPointF(0.5, 0.5)), 0);
    QCOMPARE(layout.regionAt(bounds.topLeft() - QPointF(1, 1)), -1);
}

void TestPages::vennAnchorsLieInTheirRegions_data()
{
    QTest::addColumn<int>("sets");
    QTest::addColumn<QRectF>("bounds");
    QTest::addColumn<qreal>("title");
    QTest::addColumn<qreal>("footer");
    for (int sets = 1; sets <= 3; ++sets) {
        QTest::addRow("%d sets, square", sets) << sets << QRectF(0, 0, 260, 270) << 22.0 << 36.0;
        QTest::addRow("%d sets, wide", sets) << sets << QRectF(40, 10, 600, 200) << 0.0 << 20.0;
        QTest::addRow("%d sets, tall", sets) << sets << QRectF(0, 0, 180, 500) << 22.0 << 36.0;
    }
}

void TestPages::vennAnchorsLieInTheirRegions()
{
    QFETCH(int, sets);
    QFETCH(QRectF, bounds);
    QFETCH(qreal, title);
    QFETCH(qreal, footer);
    const VennLayout layout { sets, bounds, title, footer, 16 };
    QVERIFY(layout.radius() > 0);
    for (int i = 0; i < sets; ++i) {
        const QPointF c = layout.center(i);
        const qreal r = layout.radius();
        // Every circle fits between the title and the footer.
        QVERIFY(c.y() - r >= bounds.top() + title - 1e-6);
        QVERIFY(c.y() + r <= bounds.bottom() - footer + 1e-6);
        QVERIFY(c.x() - r >= bounds.left() - 1e-6 && c.x() + r <= bounds.right() + 1e-6);
        // A set's name is outside its own circle.
        QVERIFY(QLineF(layout.setLabelAnchor(i), c).length() > r);
    }
    for (unsigned mask = 1; mask < (1u << sets); ++mask)
        QVERIFY2(layout.inRegion(layout.regionAnchor(mask), mask), qPrintable(u"mask %1"_s.arg(mask)));
}

void TestPages::smallMultiples()
{
    // 7 panels of at least 240 px with 8 px gaps in 1000 px: floor(1008 / 248) = 4 columns of
    // (1000 − 24) / 4 = 244 px, 2 rows.
    SmallMultiplesLayout grid;
    grid.count = 7;
    grid.width = 1000;
    grid.top = 30;
    QCOMPARE(grid.columns(), 4);
    QCOMPARE(grid.rows(), 2);
    QCOMPARE(grid.panelWidth(), 244.0);
    QCOMPARE(grid.panelRect(5), QRectF(252, 30 + 268, 244, 260));
    QCOMPARE(grid.panelAt(QPointF(260, 300)), 5);
    QCOMPARE(grid.panelAt(QPointF(248, 100)), -1); // the gap
    QCOMPARE(grid.totalHeight(), 30.0 + 2 * 260 + 8);
    grid.width = 100; // narrower than one panel: one column, panels keep their minimum width
    QCOMPARE(grid.columns(), 1);
    QCOMPARE(grid.panelWidth(), 240.0);
}

void TestPages::upSetLayout()
{
    UpSetLayout layout;
    layout.intersections = 4;
    layout.sets = 5;
    layout.bounds = QRectF(0, 0, 400, 300);
    layout.titleHeight = 20;
    layout.labelWidth = 100;
    layout.barAreaHeight = 116;
    layout.maximum = 50;
    // (400 − 100) / 4 = 75, capped at 36 per column.
    QCOMPARE(layout.columnWidth(), 36.0);
    QCOMPARE(layout.baseline(), 136.0);
    // A bar of 25 of 50 is half the bar area less its 16 px label strip: 50 px.
    QCOMPARE(layout.barRect(2, 25), QRectF(100 + 72 + 5.4, 86, 25.2, 50));
    QCOMPARE(layout.dotCenter(1, 3), QPointF(100 + 54, 136 + 6 + 63));
    QCOMPARE(layout.intersectionAt(QPointF(100 + 3 * 36 + 1, 150)), 3);
    QCOMPARE(layout.intersectionAt(QPointF(99, 150)), -1);
    QCOMPARE(layout.intersectionAt(QPointF(100 + 4 * 36 + 1, 150)), -1);
}

void TestPages::upSetLayoutWithSetBars()
{
    UpSetLayout layout;
    layout.intersections = 3;
    layout.sets = 4;
    layout.bounds = QRectF(10, 0, 500, 300);
    layout.titleHeight = 20;
    layout.labelWidth = 100;
    layout.barAreaHeight = 116;
    layout.setBarWidth = 88;
    layout.setMaximum = 40;
    // The matrix starts after the set-size bars and the names: 10 + 88 + 100.
    QCOMPARE(layout.matrixLeft(), 198.0);
    QCOMPARE(layout.columnWidth(), 36.0);
    QCOMPARE(layout.dotCenter(0, 0), QPointF(198 + 18, 136 + 6 + 9));
    QCOMPARE(layout.setLabelRect(2), QRectF(98, 136 + 6 + 36, 94, 18));
    // A set of 20 of 40 is half the 80 px of bar room, ending 4 px before the names, in the middle of its row.
    QCOMPARE(layout.setBarRect(2, 20), QRectF(10 + 88 - 4 - 40, 136 + 6 + 36 + 3.6, 40, 10.8));
    QCOMPARE(layout.setBarRect(1, 40).width(), 80.0);
    QCOMPARE(layout.setAt(QPointF(50, 136 + 6 + 40)), 2);
    QCOMPARE(layout.setAt(QPointF(150, 136 + 6 + 5)), 0); // on the name
    QCOMPARE(layout.setAt(QPointF(199, 136 + 6 + 5)), -1); // in the matrix
    QCOMPARE(layout.setAt(QPointF(50, 136 + 6 + 4 * 18 + 1)), -1); // below the last set
    QCOMPARE(layout.intersectionAt(QPointF(198 + 36 + 1, 150)), 1);
    QCOMPARE(layout.intersectionAt(QPointF(197, 150)), -1);
}

void TestPages::casesPageFiltersAndSearches()
{
    CasesPage* page = cases();
    QVERIFY(page);
    QVERIFY(waitRecords(page));
    QCOMPARE(page->model()->rowCount(), 320);
    QCOMPARE(page->proxy()->rowCount(), 320);
    // The first response is shown at once.
    QVERIFY(waitDetail(page->diffView()));

    page->showCases(key({ { "model", "sim:sloppy" }, { "strategy", "P" } }));
    QCOMPARE(page->proxy()->rowCount(), 40);
    QCOMPARE(page->findChild<QComboBox*>(u"casesModelFilter"_s)->currentData().toString(), u"sim:sloppy"_s);
    QCOMPARE(page->findChild<QComboBox*>(u"casesStrategyFilter"_s)->currentData().toString(), u"P"_s);
    QVERIFY(page->view()->currentIndex().isValid());
    QVERIFY(waitDetail(page->diffView()));
    QCOMPARE(page->diffView()->currentRef().model, u"sim:sloppy"_s);

    // Keys without a filter box of their own are pinned, and can be cleared.
    page->showCases(key({ { "suite", "email-extraction" }, { "case", "st-001" } }));
    QCOMPARE(page->proxy()->rowCount(), 8);
    QCOMPARE(page->findChild<QComboBox*>(u"casesModelFilter"_s)->currentData().toString(), QString());
    auto* pinned = page->findChild<QLabel*>(u"casesPinned"_s);
    QVERIFY(pinned->isVisible());
    QVERIFY(pinned->text().contains(u"case=st-001"_s));

    // The search looks into the inputs, once typing pauses.
    page->showCases({});
    QCOMPARE(page->proxy()->rowCount(), 320);
    QVERIFY(QTest::qWaitFor([page] { return !page->inputsPending(); }, kTimeoutMs));
    QTest::keyClicks(page->searchField(), u"NB-20417"_s);
    QCOMPARE(page->proxy()->rowCount(), 320); // not yet: debounced
    QTRY_COMPARE_WITH_TIMEOUT(page->proxy()->rowCount(), 8, 2000);
    page->searchField()->clear();
    QCOMPARE(page->proxy()->rowCount(), 320);

    // The error box filters by label: the oracle is only "wrong" where the gold is (st-004, sl-003,
    // each under two strategies), and never misses a key.
    page->showCases(key({ { "model", "sim:oracle" }, { "error", "wv" } }));
    QCOMPARE(page->proxy()->rowCount(), 4);
    page->showCases(key({ { "model", "sim:oracle" }, { "error", "mk" } }));
    QCOMPARE(page->proxy()->rowCount(), 0);
    QVERIFY(page->findChild<QLabel*>(u"casesCount"_s)->text().startsWith(u"0 of 320"_s));
}

void TestPages::diffViewWalksDifferences()
{
    CasesPage* page = cases();
    QVERIFY(waitRecords(page));
    // A sloppy answer that parsed and has several differences.
    const ScoredRecord* chosen = nullptr;
    for (const ScoredRecord& r : page->scoredSet()->records) {
        if (r.model == u"sim:sloppy"_s && r.verdict.rung != ParseRung::Failed
            && r.verdict.extraction.strict.diff.total() >= 3 && !pagestest::plantedGoldErrors().count(r.caseId)) {
            chosen = &r;
            break;
        }
    }
    QVERIFY(chosen);
    QVERIFY(showOnCases(key({ { "suite", chosen->suite.toStdString() }, { "case", chosen->caseId.toStdString() },
        { "model", "sim:sloppy" }, { "strategy", chosen->strategy.toStdString() } })));
    DiffView* diff = page->diffView();
    const CaseDetailPtr detail = diff->detail();
    QCOMPARE(detail->ref, caseRefOf(*chosen));
    // Scoring one response again with its differences agrees with the workspace's scoring pass.
    QCOMPARE(int(detail->verdict.ladder), int(chosen->verdict.ladder));
    QCOMPARE(int(detail->verdict.differences.size()), chosen->verdict.extraction.strict.diff.total());
    QVERIFY(detail->verdict.differences.size() >= 3);

    const std::vector<int> differences = differenceRows(detail->rows);
    QVERIFY(!differences.empty());
    QCOMPARE(diff->currentRow(), differences.front()); // the first difference is selected
    page->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(page, kTimeoutMs)); // a loaded machine (CI under ASan) may take more than 5 s
    diff->table()->setFocus();
    QTest::keyClick(diff->table(), Qt::Key_F8);
    QCOMPARE(diff->currentRow(), stepDifference(differences, differences.front(), true));
    QTest::keyClick(diff->table(), Qt::Key_F8, Qt::ShiftModifier);
    QCOMPARE(diff->currentRow(), differences.front());
    // F8 also works from the cases table.
    page->view()->setFocus();
    QTest::keyClick(page->view(), Qt::Key_F8);
    QCOMPARE(diff->currentRow(), stepDifference(differences, differences.front(), true));

    // The source text shows where gold values occur; the raw tab what the model sent.
    QVERIFY(!diff->sourceView()->extraSelections().isEmpty());
    QCOMPARE(diff->sourceView()->toPlainText().isEmpty(), false);
    QCOMPARE(diff->rawView()->toPlainText(), detail->response.rawText);
    QVERIFY(diff->findChild<QLabel*>(u"rawInfo"_s)->text().contains(QLatin1String(parseRungId(detail->verdict.rung))));

    // Every model's answer to the case is one click away; picking one selects it on the page.
    QComboBox* answers = diff->answersCombo();
    QCOMPARE(answers->count(), 8);
    const int oracle = answers->findText(u"oracle"_s, Qt::MatchContains);
    QVERIFY(oracle >= 0);
    QSignalSpy chosenSpy(diff, &DiffView::answerChosen);
    answers->setCurrentIndex(oracle);
    Q_EMIT answers->activated(oracle);
    QCOMPARE(chosenSpy.size(), 1);
    QVERIFY(waitDetail(diff));
    QCOMPARE(diff->detail()->ref.model, u"sim:oracle"_s);
    QVERIFY(differenceRows(diff->detail()->rows).empty());
    page->showCases({});
}

void TestPages::errorsPageRegionsListTheirCases()
{
    auto page = makePage<ErrorsPage>();
    QVERIFY(page);
    QVERIFY(waitRecords(page.get()));
    ErrorSetsChart* chart = page->chart();
    QCOMPARE(chart->groups().size(), std::size_t(8));
    QVERIFY(!chart->isUpSet());
    CasesPage* casesPage = cases();
    connect(page.get(), &Page::drillDown, casesPage, &CasesPage::showCases);

    // The biggest region of sloppy under P, clicked where its count is written.
    int group = -1;
    for (std::size_t i = 0; i < chart->groups().size(); ++i) {
        if (chart->groups()[i].key.value("model") == u"sim:sloppy"_s
            && chart->groups()[i].key.value("strategy") == u"P"_s)
            group = int(i);
    }
    QVERIFY(group >= 0);
    const ErrorSetCounts& counts = chart->groups()[std::size_t(group)];
    quint32 biggest = 1;
    for (quint32 mask = 1; mask < 8; ++mask)
        biggest = counts.region(mask) > counts.region(biggest) ? mask : biggest;
    QVERIFY(counts.region(biggest) > 0);
    QSignalSpy clicked(chart, &ErrorSetsChart::regionClicked);
    QTest::mouseClick(chart, Qt::LeftButton, {}, chart->regionPoint(group, biggest).toPoint());
    QCOMPARE(clicked.size(), 1);
    QCOMPARE(casesPage->proxy()->rowCount(), counts.region(biggest));
    QCOMPARE(casesPage->filter().region->toString(), ErrorRegion::of(counts.labels, biggest).toString());

    // More than three labels: UpSet bars, and a bar's click lists its responses too.
    page->setLabels({ ErrorLabel::MissingKey, ErrorLabel::MissingValue, ErrorLabel::WrongValue, ErrorLabel::ExtraKey,
        ErrorLabel::Invented });
    QVERIFY(chart->isUpSet());
    const ErrorSetCounts& five = chart->groups()[std::size_t(group)];
    const quint32 column = ErrorSetsChart::upSetColumns(five).front();
    QTest::mouseClick(chart, Qt::LeftButton, {}, chart->regionPoint(group, column).toPoint());
    QCOMPARE(clicked.size(), 2);
    QCOMPARE(casesPage->proxy()->rowCount(), five.region(column));
    casesPage->showCases({});
}

void TestPages::errorSetsChartExports_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<int>("labels");
    for (const char* suffix : { "png", "svg", "pdf" }) {
        QTest::addRow("venn.%s", suffix) << QString::fromLatin1(suffix) << 3;
        QTest::addRow("upset.%s", suffix) << QString::fromLatin1(suffix) << 5;
    }
}

void TestPages::errorSetsChartExports()
{
    QFETCH(QString, suffix);
    QFETCH(int, labels);
    auto page = makePage<ErrorsPage>();
    QVERIFY(page && waitRecords(page.get()));
    std::vector<ErrorLabel> picked(errorLabels().begin(), errorLabels().begin() + labels);
    page->setLabels(picked);
    QCOMPARE(page->charts().size(), 1);
    ExportableChart* chart = page->charts().first().chart;
    const QString path = m_dir.filePath(u"errors-%1.%2"_s.arg(labels).arg(suffix));
    QCOMPARE(exportChart(*chart, path, 96), QString());
    const QString problem = uitest::checkChartFile(path, { u"sim:sloppy"_s, u"N_err"_s });
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestPages::errorsPageAcrossModels()
{
    auto page = makePage<ErrorsPage>();
    QVERIFY(page && waitRecords(page.get()));
    page->setRowsByStrategy(false);
    page->setAcrossModels(true);
    QVERIFY(page->isAcrossModels());
    OverlapsChart* chart = page->overlapsChart();
    QCOMPARE(page->charts().size(), 1);
    QCOMPARE(page->charts().first().chart, static_cast<ExportableChart*>(chart));
    QCOMPARE(page->setsModel()->rowCount(), 4);
    QVERIFY(chart->isUpSet());
    // The chart shows what the core counts.
    const RecordsView records = page->scoredSet()->records;
    const FailureOverlaps direct = countFailureOverlaps(failureMatrix(records, { "model" }, {}));
    QCOMPARE(chart->overlaps().unionSize(), direct.unionSize());
    QCOMPARE(chart->overlaps().regions.size(), direct.regions.size());
    QCOMPARE(chart->overlaps().cases + chart->overlaps().leftOut, 40);
    QVERIFY(direct.unionSize() > 0);
    QVERIFY(page->findChild<QLabel*>(u"overlapRule"_s)->text().contains(u"strict majority"_s));

    CasesPage* casesPage = cases();
    connect(page.get(), &Page::drillDown, casesPage, &CasesPage::showCases);
    // Every answer (both strategies) of the chosen models to the cases of a region.
    const auto answersTo = [&records](const std::vector<CaseKey>& cases) {
        int n = 0;
        for (const ScoredRecord& r : records)
            n += std::binary_search(cases.begin(), cases.end(), CaseKey { r.suite, r.caseId }) ? 1 : 0;
        return n;
    };
    const std::uint64_t column = chart->upSetColumns().front();
    QCOMPARE(chart->overlaps().region(column), chart->overlaps().regions.front().count());
    QSignalSpy clicked(chart, &OverlapsChart::regionClicked);
    QTest::mouseClick(chart, Qt::LeftButton, {}, chart->regionPoint(column).toPoint());
    QCOMPARE(clicked.size(), 1);
    QCOMPARE(casesPage->proxy()->rowCount(), answersTo(chart->overlaps().regions.front().cases));
    QVERIFY(casesPage->findChild<QLabel*>(u"casesPinned"_s)->text().contains(u"only"_s));
    // A set's row lists the cases it fails.
    QSignalSpy setClicked(chart, &OverlapsChart::setClicked);
    QTest::mouseClick(chart, Qt::LeftButton, {}, chart->setPoint(2).toPoint());
    QCOMPARE(setClicked.size(), 1);
    QCOMPARE(setClicked.first().first().toInt(), 2);
    QCOMPARE(casesPage->proxy()->rowCount(), answersTo(overlapSetCases(chart->overlaps(), 2)));
    // Top N columns only.
    page->setTopN(2);
    QCOMPARE(chart->upSetColumns().size(), std::min<std::size_t>(2, chart->overlaps().regions.size()));

    // Two sets: a Venn diagram; its regions add up to the union.
    const QString sloppy = page->setsModel()->matrix()->sets[3].label();
    const QString hallucinator = page->setsModel()->matrix()->sets[1].label();
    page->setsModel()->setCheckedLabels({ sloppy, hallucinator });
    QVERIFY(!chart->isUpSet());
    const FailureOverlaps& two = chart->overlaps();
    QCOMPARE(two.sets.size(), std::size_t(2));
    QCOMPARE(two.region(1) + two.region(2) + two.region(3), two.unionSize());
    QCOMPARE(two.region(0) + two.unionSize(), two.cases);
    QTest::mouseClick(chart, Qt::LeftButton, {}, chart->regionPoint(3).toPoint());
    QCOMPARE(clicked.size(), 2);
    QCOMPARE(clicked.last().first().toULongLong(), quint64(3));
    QCOMPARE(casesPage->proxy()->rowCount(), answersTo(two.failedByAll()) / 2); // two of the four models

    // Another criterion: the counts follow.
    FailureCriterion mk;
    mk.kind = FailureCriterion::Kind::ErrorOfKind;
    mk.label = ErrorLabel::MissingKey;
    page->setCriterion(mk);
    QCOMPARE(chart->overlaps().criterion, mk);
    const FailureMatrix mkMatrix = failureMatrix(records, { "model" }, mk);
    const FailureOverlaps mkDirect
        = countFailureOverlaps(mkMatrix, { mkMatrix.setIndex(sloppy), mkMatrix.setIndex(hallucinator) });
    QCOMPARE(chart->overlaps().unionSize(), mkDirect.unionSize());
    QCOMPARE(chart->overlaps().region(3), mkDirect.region(3));
    page->setCriterion({});

    // The cases both fail go to the Audit page.
    QPushButton* audit = page->auditButton();
    QCOMPARE(audit->isEnabled(), !chart->overlaps().failedByAll().empty());
    QVERIFY(audit->text().contains(QString::number(chart->overlaps().failedByAll().size())));
    QSignalSpy auditRequested(page.get(), &ErrorsPage::auditRequested);
    if (audit->isEnabled()) {
        audit->click();
        QCOMPARE(auditRequested.size(), 1);
        QCOMPARE(auditRequested.first().first().value<std::vector<CaseKey>>(), chart->overlaps().failedByAll());
    }
    // No set chosen: a placeholder, no chart.
    page->setsModel()->setAllChecked(false);
    QVERIFY(!chart->hasData());
    QVERIFY(!audit->isEnabled());
    page->setsModel()->setAllChecked(true);
    page->setAcrossModels(false);
    QCOMPARE(page->charts().first().chart, static_cast<ExportableChart*>(page->chart()));
    casesPage->showCases({});
}

void TestPages::overlapsChartExports_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<int>("sets");
    for (const char* suffix : { "png", "svg", "pdf" }) {
        QTest::addRow("venn.%s", suffix) << QString::fromLatin1(suffix) << 3;
        QTest::addRow("upset.%s", suffix) << QString::fromLatin1(suffix) << 8;
    }
}

void TestPages::overlapsChartExports()
{
    QFETCH(QString, suffix);
    QFETCH(int, sets);
    auto page = makePage<ErrorsPage>();
    QVERIFY(page && waitRecords(page.get()));
    page->setAcrossModels(true);
    QCOMPARE(page->setsModel()->rowCount(), 8);
    QStringList labels;
    for (int i = 0; i < sets; ++i)
        labels << page->setsModel()->matrix()->sets[std::size_t(i)].label();
    page->setsModel()->setCheckedLabels(labels);
    QCOMPARE(page->overlapsChart()->isUpSet(), sets > 3);
    ExportableChart* chart = page->charts().first().chart;
    const QString path = m_dir.filePath(u"overlaps-%1.%2"_s.arg(sets).arg(suffix));
    QCOMPARE(exportChart(*chart, path, 96), QString());
    const QString problem = uitest::checkChartFile(path, { u"sim:careful"_s, u"verdict not correct"_s });
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestPages::auditPageFocusesOnCases()
{
    auto audit = makePage<AuditPage>();
    QVERIFY(audit);
    QVERIFY(QTest::qWaitFor([&audit] { return !audit->isBusy() && audit->model()->queue(); }, kTimeoutMs));
    const int all = audit->proxy()->rowCount();
    QVERIFY(all >= 2);
    const AuditItem* first = audit->model()->itemAt(0);
    const CaseKey queued { first->suiteId, first->caseId };
    const CaseKey other { first->suiteId, u"no-such-case"_s };
    audit->focusCases({ queued, other }, u"every chosen set fails"_s);
    QCOMPARE(audit->focusedCases(), (std::vector<CaseKey> { other, queued }));
    int items = 0;
    for (int row = 0; row < audit->model()->rowCount(); ++row)
        items += audit->model()->itemAt(row)->caseId == first->caseId ? 1 : 0;
    QCOMPARE(audit->proxy()->rowCount(), items);
    auto* bar = audit->findChild<QWidget*>(u"auditFocus"_s);
    QVERIFY(bar && bar->isVisible());
    const QString text = bar->findChild<QLabel*>()->text();
    QVERIFY2(
        text.contains(u"Only the 2 cases every chosen set fails"_s) && text.contains(u"1 of them"_s), qPrintable(text));
    audit->findChild<QPushButton*>(u"auditShowAll"_s)->click();
    QVERIFY(!bar->isVisible());
    QVERIFY(audit->focusedCases().empty());
    QCOMPARE(audit->proxy()->rowCount(), all);
}

void TestPages::comparePage()
{
    auto page = makePage<ComparePage>();
    QVERIFY(page);
    QVERIFY(waitRecords(page.get()));
    QVERIFY(QTest::qWaitFor([&page] { return !page->isComparing() && page->comparison(); }, kTimeoutMs));
    QSignalSpy applied(page.get(), &ComparePage::comparisonApplied);
    QVERIFY(page->setComparison({ u"sim:sloppy"_s, u"P"_s }, { u"sim:sloppy"_s, u"PJ+"_s }, "ladder.correct"));
    QVERIFY(waitForSignals(applied));
    const ConfigComparisonPtr shown = page->comparison();
    QVERIFY(shown && shown->ok());
    const ConfigComparison direct = compareConfigurations(
        page->scoredSet()->records, { u"sim:sloppy"_s, u"P"_s }, { u"sim:sloppy"_s, u"PJ+"_s }, "ladder.correct");
    QCOMPARE(shown->stats.n, qint64(40));
    QCOMPARE(shown->stats.b, direct.stats.b);
    QCOMPARE(shown->stats.c, direct.stats.c);
    QCOMPARE(shown->stats.pValue, direct.stats.pValue);
    // For a rate, Δ is (c − b) / n in points, and every discordant case is listed.
    QVERIFY(qAbs(shown->stats.deltaPoints - 100.0 * double(shown->stats.c - shown->stats.b) / 40.0) < 1e-9);
    QCOMPARE(qint64(page->discordantModel()->rowCount()), shown->stats.b + shown->stats.c);
    QVERIFY(page->summary()->text().contains(u"McNemar"_s));
    QVERIFY(page->summary()->text().contains(u"points"_s));

    // A discordant case opens the answer of the side that did worse.
    QVERIFY(page->discordantModel()->rowCount() > 0);
    CasesPage* casesPage = cases();
    connect(page.get(), &Page::drillDown, casesPage, &CasesPage::showCases);
    auto* proxy = qobject_cast<QSortFilterProxyModel*>(page->discordantView()->model());
    const QModelIndex first = proxy->index(0, 0);
    Q_EMIT page->discordantView()->activated(first);
    QCOMPARE(casesPage->proxy()->rowCount(), 1);
    QVERIFY(waitDetail(casesPage->diffView()));
    QCOMPARE(casesPage->diffView()->currentRef(), page->discordantModel()->worseSide(proxy->mapToSource(first).row()));
    casesPage->showCases({});
}

void TestPages::comparePageAllPairs()
{
    auto page = makePage<ComparePage>();
    QVERIFY(page);
    QVERIFY(waitRecords(page.get()));
    QVERIFY(QTest::qWaitFor([&page] { return !page->isComparing() && page->comparison(); }, kTimeoutMs));
    QCOMPARE(page->view(), ComparePage::View::TwoConfigurations);
    QVERIFY(!page->isComputingPairs());

    QSignalSpy pairsApplied(page.get(), &ComparePage::pairsApplied);
    page->setView(ComparePage::View::AllPairs);
    QVERIFY(waitForSignals(pairsApplied));
    PairMatrixModel* model = page->pairMatrixModel();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // 4 simulated models × 2 strategies: 8 configurations, 28 pairs, each on the 40 cases.
    QCOMPARE(model->rowCount(), 8);
    const PairMatrixPtr matrix = model->matrix();
    QVERIFY(matrix && matrix->ok());
    QCOMPARE(matrix->tested, 28);
    QCOMPARE(matrix->metric, std::string("ladder.correct"));
    QVERIFY(page->pairsSummary()->text().contains(u"28 pairs"_s));
    QVERIFY(page->pairsSummary()->text().contains(u"Holm"_s));

    // A cell (row − column) is the two-configuration comparison with A the column and B the row.
    const Configuration row = model->configuration(3);
    const Configuration column = model->configuration(0);
    const ConfigComparison direct = compareConfigurations(page->scoredSet()->records, column, row, "ladder.correct");
    const QModelIndex cell = model->index(3, 0);
    QVERIFY(qAbs(cell.data(PairMatrixModel::DeltaRole).toDouble() - direct.stats.deltaPoints) < 1e-9);
    QCOMPARE(cell.data(PairMatrixModel::PValueRole).toDouble(), direct.stats.pValue);
    QCOMPARE(cell.data(PairMatrixModel::PairedCasesRole).toLongLong(), direct.stats.n);
    // Holm never below the unadjusted p; BH never above Holm.
    int holmSignificant = 0;
    for (const PairCell& c : matrix->pairs) {
        QVERIFY(c.adjustedP >= c.stats.pValue);
        holmSignificant += c.significant ? 1 : 0;
    }
    QVERIFY(holmSignificant > 0); // the oracle and the sloppy model differ beyond doubt on 40 cases
    page->setAdjustment(PAdjustMethod::BenjaminiHochberg);
    QCOMPARE(model->adjustment(), PAdjustMethod::BenjaminiHochberg);
    QVERIFY(page->pairsSummary()->text().contains(u"Benjamini"_s));
    int bhSignificant = 0;
    for (int r = 0; r < 8; ++r) {
        for (int c = 0; c < 8; ++c) {
            const QModelIndex i = model->index(r, c);
            if (r != c && i.data(PairMatrixModel::SignificantRole).toBool()) {
                ++bhSignificant;
                QVERIFY(i.data(Qt::FontRole).value<QFont>().bold());
            }
        }
    }
    QVERIFY(bhSignificant / 2 >= holmSignificant);

    // Significant cells stay readable under a dark palette.
    QPalette dark = page->palette();
    for (auto group : { QPalette::Active, QPalette::Inactive, QPalette::Disabled }) {
        dark.setColor(group, QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(group, QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(group, QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
        dark.setColor(group, QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    }
    const QPalette light = page->palette();
    page->resize(1400, 800);
    page->grab().save(screenshotDir() + u"/pages-compare-pairs.png"_s);
    page->setPalette(dark);
    for (const PairCell& c : model->matrix()->pairs) {
        if (!c.significant)
            continue;
        const QColor tint = model->index(int(c.b), int(c.a)).data(Qt::BackgroundRole).value<QColor>();
        QVERIFY2(ColorScale::luminance(tint) < 0.25, qPrintable(tint.name()));
        QVERIFY2(ColorScale::contrast(tint, dark.color(QPalette::Text)) >= 4.5, qPrintable(tint.name()));
    }
    page->grab().save(screenshotDir() + u"/pages-compare-pairs-dark.png"_s);
    page->setPalette(light);
    for (const PairCell& c : model->matrix()->pairs) {
        if (!c.significant)
            continue;
        const QColor tint = model->index(int(c.b), int(c.a)).data(Qt::BackgroundRole).value<QColor>();
        QVERIFY2(ColorScale::contrast(tint, light.color(QPalette::Text)) >= 4.5, qPrintable(tint.name()));
    }

    // Another metric computes the pairs again.
    auto* metric = page->findChild<QComboBox*>(u"compareMetric"_s);
    QVERIFY(metric);
    const int invalidJson = metric->findData(u"ladder.invalid_json"_s);
    QVERIFY(invalidJson >= 0);
    pairsApplied.clear();
    metric->setCurrentIndex(invalidJson);
    QVERIFY(waitForSignals(pairsApplied));
    QCOMPARE(model->matrix()->metric, std::string("ladder.invalid_json"));
    pairsApplied.clear();
    metric->setCurrentIndex(metric->findData(u"ladder.correct"_s));
    QVERIFY(waitForSignals(pairsApplied));
    QCOMPARE(model->matrix()->metric, std::string("ladder.correct"));

    // Activating a cell opens the pair in the two-configuration view.
    QSignalSpy applied(page.get(), &ComparePage::comparisonApplied);
    Q_EMIT page->pairMatrixView()->activated(model->index(3, 0));
    QCOMPARE(page->view(), ComparePage::View::TwoConfigurations);
    QVERIFY(waitForSignals(applied));
    const ConfigComparisonPtr shown = page->comparison();
    QVERIFY(shown && shown->ok());
    QVERIFY(shown->a == column);
    QVERIFY(shown->b == row);
    QCOMPARE(shown->metric, std::string("ladder.correct"));
    QCOMPARE(shown->stats.pValue, direct.stats.pValue);
    // The diagonal opens nothing.
    page->setView(ComparePage::View::AllPairs);
    Q_EMIT page->pairMatrixView()->activated(model->index(2, 2));
    QCOMPARE(page->view(), ComparePage::View::AllPairs);

    // The configurations compared can be chosen: three of the eight give 3 pairs, corrected over those 3 alone.
    QListWidget* chosen = page->pairConfigurationList();
    QCOMPARE(chosen->count(), 8);
    const QString kept = chosen->item(3)->text();
    pairsApplied.clear();
    page->findChild<QPushButton*>(u"pairConfigurationsNone"_s)->click();
    QVERIFY(waitForSignals(pairsApplied));
    QVERIFY(!model->matrix());
    QCOMPARE(model->rowCount(), 0);
    QVERIFY(page->pairsSummary()->text().contains(u"at least two"_s));
    for (int i : { 0, 3, 5 }) {
        pairsApplied.clear();
        chosen->item(i)->setCheckState(Qt::Checked);
        QVERIFY(waitForSignals(pairsApplied));
    }
    QCOMPARE(model->rowCount(), 3);
    QCOMPARE(model->matrix()->tested, 3);
    QCOMPARE(QString::fromStdString(model->matrix()->configurations[1].label()), kept);
    QVERIFY(page->pairsSummary()->text().contains(u"3 pairs"_s));
    // Holm over 3 pairs: the smallest p is multiplied by 3, not by 28.
    double smallest = 1;
    for (const PairCell& c : model->matrix()->pairs)
        smallest = std::min(smallest, c.stats.pValue);
    double smallestAdjusted = 1;
    page->setAdjustment(PAdjustMethod::Holm);
    for (const PairCell& c : model->matrix()->pairs)
        smallestAdjusted = std::min(smallestAdjusted, c.adjustedP);
    QCOMPARE(smallestAdjusted, std::min(1.0, 3 * smallest));

    // The choice is remembered for this workspace: a new page shows the same three.
    auto again = makePage<ComparePage>();
    QVERIFY(again);
    QVERIFY(waitRecords(again.get()));
    QSignalSpy againApplied(again.get(), &ComparePage::pairsApplied);
    again->setView(ComparePage::View::AllPairs);
    QVERIFY(waitForSignals(againApplied));
    QCOMPARE(again->pairMatrixModel()->rowCount(), 3);
    int checked = 0;
    for (int i = 0; i < again->pairConfigurationList()->count(); ++i)
        checked += again->pairConfigurationList()->item(i)->checkState() == Qt::Checked ? 1 : 0;
    QCOMPARE(checked, 3);
    pairsApplied.clear();
    page->findChild<QPushButton*>(u"pairConfigurationsAll"_s)->click();
    QVERIFY(waitForSignals(pairsApplied));
    QCOMPARE(model->rowCount(), 8);
}

void TestPages::leaderboardNotesSimulatedModels()
{
    // Every model of the demo store is simulated: the leaderboard says so, and links to About the Data.
    auto page = makePage<LeaderboardPage>();
    QVERIFY(page);
    QVERIFY(QTest::qWaitFor([&page] { return !page->isLoading() && page->currentReport(); }, kTimeoutMs));
    SimulatedDataNote* note = page->simulatedNote();
    QVERIFY(note->isVisible());
    QStringList expected;
    for (const QString& profile : profiles())
        expected << u"sim:"_s + profile;
    expected.sort();
    QCOMPARE(note->simulatedModels(), expected);
    QVERIFY(note->text().contains(u"sim:careful, sim:hallucinator, sim:oracle, sim:sloppy"_s));
    QVERIFY(page->grab().save(screenshotDir() + u"/pages-leaderboard-simulated.png"_s));
    Q_EMIT note->linkActivated(u"about-the-data"_s);
    auto* dialog = page->findChild<SimulatedDataDialog*>();
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    dialog->close();
}

void TestPages::reopenedLeaderboardPaintsTheSavedReport()
{
    // A leaderboard computed is saved with the store's stamp. The store opened again (as after a restart): the
    // saved report is painted at once, while the store is scored again, and the computed one that follows is the
    // same. (Reading a small file beats scoring and aggregating 320 responses by far.)
    {
        auto first = makePage<LeaderboardPage>();
        QVERIFY(first);
        QVERIFY(QTest::qWaitFor([&first] { return !first->isLoading() && first->currentReport(); }, kTimeoutMs));
    }
    Workspace reopened;
    QString error;
    QVERIFY2(reopened.open(m_demo.location, false, &error), qPrintable(error));
    LeaderboardPage page(&reopened);
    QSignalSpy saved(&page, &Page::savedReportApplied);
    QSignalSpy computed(&page, &Page::reportApplied);
    ReportDataPtr savedReport;
    bool loadingWhenSaved = false;
    connect(&page, &Page::savedReportApplied, this, [&] {
        savedReport = page.currentReport();
        loadingWhenSaved = page.isLoading();
        page.layout()->activate(); // the status text just changed; lay it out before the picture
        page.grab().save(screenshotDir() + u"/pages-leaderboard-saved.png"_s);
    });
    page.resize(1280, 820);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QTRY_VERIFY_WITH_TIMEOUT(computed.count() == 1, kTimeoutMs);
    QCOMPARE(saved.count(), 1);
    QVERIFY(savedReport);
    QVERIFY(loadingWhenSaved); // still scoring: the page says so
    QCOMPARE(writeReportJson(savedReport->report), writeReportJson(page.currentReport()->report));
    QCOMPARE(savedReport->simulatedModels, page.currentReport()->simulatedModels);
}

void TestPages::largeSetsShowPointEstimatesFirst()
{
    // A set this page counts as large (every set, here) is aggregated twice: its point estimates are painted first,
    // the page still loading and saying that intervals are being computed, then the complete report — with the very
    // same values and, now, the bootstrap intervals.
    LeaderboardPage page(m_workspace.get());
    page.setPointEstimatesFirstFrom(0);
    QSignalSpy estimates(&page, &Page::pointEstimatesApplied);
    QSignalSpy computed(&page, &Page::reportApplied);
    ReportDataPtr first;
    bool loadingWhenFirst = false;
    connect(&page, &Page::pointEstimatesApplied, this, [&] {
        first = page.currentReport();
        loadingWhenFirst = page.isLoading();
        QVERIFY(computed.isEmpty());
        page.layout()->activate();
        page.grab().save(screenshotDir() + u"/pages-leaderboard-point-estimates.png"_s);
    });
    page.resize(1280, 820);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QTRY_VERIFY_WITH_TIMEOUT(computed.count() == 1, kTimeoutMs);
    QCOMPARE(estimates.count(), 1);
    QVERIFY(first);
    QVERIFY(first->provisional);
    QVERIFY(loadingWhenFirst);
    const ReportDataPtr complete = page.currentReport();
    QVERIFY(!complete->provisional);
    QCOMPARE(first->report.groups.size(), complete->report.groups.size());
    QVERIFY(!complete->report.groups.empty());
    bool someIntervalAdded = false;
    for (std::size_t g = 0; g < complete->report.groups.size(); ++g) {
        const ReportGroup& a = first->report.groups[g];
        const ReportGroup& b = complete->report.groups[g];
        QCOMPARE(a.key, b.key);
        for (const auto& [id, value] : b.mean)
            QVERIFY2(a.mean.count(id) && (a.mean.at(id) == value || (std::isnan(value) && std::isnan(a.mean.at(id)))),
                id.c_str());
        QVERIFY(a.ci95.size() <= b.ci95.size());
        someIntervalAdded = someIntervalAdded || a.ci95.size() < b.ci95.size();
    }
    QVERIFY(someIntervalAdded);
    // Below the threshold, one report and no estimates.
    LeaderboardPage small(m_workspace.get());
    QSignalSpy smallEstimates(&small, &Page::pointEstimatesApplied);
    QSignalSpy smallComputed(&small, &Page::reportApplied);
    small.resize(1280, 820);
    small.show();
    QTRY_VERIFY_WITH_TIMEOUT(smallComputed.count() == 1, kTimeoutMs);
    QCOMPARE(smallEstimates.count(), 0);
    QVERIFY(!small.currentReport()->provisional);
}

void TestPages::recordsPagesAggregateNothing()
{
    // A page of responses gets the scored set alone: no report is aggregated for it, and none saved stands in
    // while the store is scored again (a saved leaderboard exists from the test before).
    Workspace reopened;
    QString error;
    QVERIFY2(reopened.open(m_demo.location, false, &error), qPrintable(error));
    CasesPage page(&reopened);
    QSignalSpy saved(&page, &Page::savedReportApplied);
    QSignalSpy applied(&page, &RecordsPage::recordsApplied);
    page.resize(1280, 820);
    page.show();
    QVERIFY(waitForSignals(applied));
    QVERIFY(waitRecords(&page));
    QCOMPARE(saved.count(), 0);
    QVERIFY(page.scoredSet());
    QCOMPARE(page.scoredSet()->records.size(), std::size_t(page.model()->rowCount()));
    QVERIFY(page.model()->rowCount() > 0);
    QVERIFY(page.currentReport());
    QVERIFY(page.currentReport()->report.groups.empty());
}

void TestPages::darkPalette()
{
    CasesPage* page = cases();
    QVERIFY(showOnCases(key({ { "model", "sim:sloppy" }, { "verdict", "value_incorrect" } })));
    QPalette dark;
    for (auto group : { QPalette::Active, QPalette::Inactive, QPalette::Disabled }) {
        dark.setColor(group, QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(group, QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(group, QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
        dark.setColor(group, QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
        dark.setColor(group, QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
        dark.setColor(group, QPalette::Button, QColor(0x35, 0x35, 0x35));
        dark.setColor(group, QPalette::ButtonText, QColor(0xe8, 0xe8, 0xe8));
    }
    const QPalette light = page->palette();
    page->setPalette(dark);
    DiffRowsModel* rows = page->diffView()->rowsModel();
    const std::vector<int> marked = differenceRows(rows->rows());
    QVERIFY(!marked.empty());
    // Every tint stays dark and readable under the dark palette's text.
    for (int row : marked) {
        const QColor tint = rows->index(row, 0).data(Qt::BackgroundRole).value<QColor>();
        QVERIFY2(ColorScale::luminance(tint) < 0.25, qPrintable(tint.name()));
        QVERIFY2(ColorScale::contrast(tint, dark.color(QPalette::Text)) >= 4.5, qPrintable(tint.name()));
    }
    page->grab().save(screenshotDir() + u"/pages-cases-dark.png"_s);
    page->setPalette(light);
    for (int row : marked) {
        const QColor tint = rows->index(row, 0).data(Qt::BackgroundRole).value<QColor>();
        QVERIFY2(ColorScale::luminance(tint) > 0.4, qPrintable(tint.name()));
        QVERIFY2(ColorScale::contrast(tint, light.color(QPalette::Text)) >= 4.5, qPrintable(tint.name()));
    }
    page->showCases({});
}

void TestPages::screenshots()
{
    // Cases: sloppy's answers under P that are not correct, the one with the most differences shown.
    CasesPage* page = cases();
    QVERIFY(showOnCases(key({ { "model", "sim:sloppy" }, { "strategy", "P" } })));
    const ScoredRecord* most = nullptr;
    for (const ScoredRecord& r : page->scoredSet()->records) {
        if (r.model == u"sim:sloppy"_s && r.strategy == u"P"_s && r.verdict.rung != ParseRung::Failed
            && (!most || r.verdict.extraction.strict.diff.total() > most->verdict.extraction.strict.diff.total()))
            most = &r;
    }
    QVERIFY(most);
    QVERIFY(page->selectResponse(caseRefOf(*most)));
    QVERIFY(waitDetail(page->diffView()));
    QVERIFY(page->grab().save(screenshotDir() + u"/pages-cases.png"_s));

    auto errors = makePage<ErrorsPage>();
    QVERIFY(errors && waitRecords(errors.get()));
    QVERIFY(errors->grab().save(screenshotDir() + u"/pages-errors-venn.png"_s));
    errors->setLabels({ ErrorLabel::MissingKey, ErrorLabel::MissingValue, ErrorLabel::WrongValue, ErrorLabel::ExtraKey,
        ErrorLabel::Invented });
    QVERIFY(errors->grab().save(screenshotDir() + u"/pages-errors-upset.png"_s));
    errors->setRowsByStrategy(false);
    errors->setAcrossModels(true);
    QVERIFY(errors->grab().save(screenshotDir() + u"/pages-errors-across-models.png"_s));

    auto compare = makePage<ComparePage>();
    QVERIFY(compare && waitRecords(compare.get()));
    QSignalSpy applied(compare.get(), &ComparePage::comparisonApplied);
    QVERIFY(compare->setComparison({ u"sim:sloppy"_s, u"P"_s }, { u"sim:careful"_s, u"P"_s }, "ladder.correct"));
    QVERIFY(waitForSignals(applied));
    // p < 0.001 here; written as text, not swallowed as markup.
    QVERIFY(compare->comparison()->stats.pValue < 0.001);
    QVERIFY(compare->summary()->text().contains(u"p &lt; 0.001"_s));
    QVERIFY(compare->grab().save(screenshotDir() + u"/pages-compare.png"_s));

    auto audit = makePage<AuditPage>();
    QVERIFY(audit);
    QVERIFY(QTest::qWaitFor([&audit] { return !audit->isBusy() && audit->model()->queue(); }, kTimeoutMs));
    // The planted gold errors are found: the four models agree on the true value against the stored one.
    QCOMPARE(audit->model()->rowCount(), 2);
    QStringList paths;
    for (int row = 0; row < 2; ++row)
        paths << audit->model()->itemAt(row)->caseId + u' ' + QString::fromStdString(audit->model()->itemAt(row)->path);
    paths.sort();
    QCOMPARE(paths, (QStringList { u"sl-003 absence.period.last_day"_s, u"st-004 asset_tag"_s }));
    QCOMPARE(audit->model()->index(0, AuditQueueModel::Agreement).data().toString(), u"4/4"_s);
    // The first item's case shows below, an agreeing model's answer with the suspect place selected.
    QVERIFY(waitDetail(audit->diffView()));
    const AuditItem* first = audit->model()->itemAt(0);
    QCOMPARE(audit->diffView()->detail()->ref.caseId, first->caseId);
    QVERIFY(first->agreeingModels.contains(audit->diffView()->detail()->ref.model));
    QTRY_COMPARE_WITH_TIMEOUT(
        audit->diffView()->currentRow(), audit->diffView()->rowsModel()->rowOfPointer(first->pointer), 2000);
    QCOMPARE(audit->diffView()->rowsModel()->rowAt(audit->diffView()->currentRow())->mark, DiffMark::Deviation);
    // The finding in words, with the input around both values, and its suggestion to accept.
    QCOMPARE(audit->model()->index(0, AuditQueueModel::Kind).data().toString(), u"value"_s);
    QVERIFY2(audit->detail()->toPlainText().startsWith(describeAuditItem(*first)),
        qPrintable(audit->detail()->toPlainText()));
    QVERIFY2(audit->detail()->toPlainText().contains(u"Consensus in the source: "_s),
        qPrintable(audit->detail()->toPlainText()));
    QVERIFY(audit->acceptButton()->isEnabled());
    QVERIFY(audit->grab().save(screenshotDir() + u"/pages-audit.png"_s));
    page->showCases({});
}

QTEST_MAIN(TestPages)
#include "tst_pages.moc"
