// SPDX-License-Identifier: Apache-2.0
// Views of thirty and more models with long names (SOB's published store holds 34, such as
// "Qwen/Qwen3-235B-A22B-Instruct-2507"): middle elision that keeps names apart, horizontal bars that grow
// with their number, labels of the cost scatter that never overlap, the frozen model column and the column
// chooser of the leaderboard, the family a page opens on, and screenshots of the pages at laptop and
// desktop sizes (STRUCTSCOPE_SCREENSHOT_STORE names another store to photograph, e.g. SOB's).

#include "analysis/heatmapdata.h"
#include "charts/costaccuracychart.h"
#include "charts/errorsetschart.h"
#include "charts/headlesscharts.h"
#include "charts/heatmapwidget.h"
#include "charts/labelgeometry.h"
#include "charts/metricbarchart.h"
#include "charts/smallmultipleslayout.h"
#include "export/chartexport.h"
#include "mainwindow.h"
#include "manymodelsdata.h"
#include "models/leaderboardmodel.h"
#include "pages/auditpage.h"
#include "pages/leaderboardpage.h"
#include "pages/page.h"
#include "settings/settings.h"
#include "uitestdata.h"
#include "widgets/diffview.h"
#include "widgets/elidingcombobox.h"
#include "widgets/frozencolumntableview.h"
#include "widgets/metricpicker.h"
#include "workspace/workspace.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QMenu>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace structscope;

namespace {

constexpr int kTimeoutMs = 60000;

QString screenshotDir()
{
    const QString dir = QCoreApplication::applicationDirPath() + u"/screenshots"_s;
    QDir().mkpath(dir);
    return dir;
}

bool waitForData(Page* page)
{
    return QTest::qWaitFor([page] { return !page->isLoading() && page->currentReport(); }, kTimeoutMs);
}

/// The text before and after the ellipsis of a middle-elided label.
std::pair<QString, QString> ends(const QString& elided)
{
    const qsizetype at = elided.indexOf(QChar(0x2026));
    return at < 0 ? std::pair { elided, QString() } : std::pair { elided.left(at), elided.mid(at + 1) };
}

} // namespace

class TestManyModels : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_store;

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    // --- Geometry helpers ---------------------------------------------------------------------------------------

    void middleElisionKeepsBothEndsAndKeepsNamesApart();
    void barGeometry();
    void pointLabelsNeverOverlap();
    void smallMultiplesTitleLine();
    // --- Charts with forty models -------------------------------------------------------------------------------

    void barChartLiesHorizontallyWithWholeNamesAtHand();
    void exportedBarChartWritesEveryNameWhole();
    void scatterLabelsOnlyWhereTheyFit();
    void heatmapRowsOfFortyModels();
    void errorPanelTitlesGiveTheWholeName();
    // --- Widgets ------------------------------------------------------------------------------------------------

    void comboBoxesElideInTheMiddle();
    void frozenColumnStaysWhileTheOthersScroll();
    void columnChooserHidesByIdAcrossResets();
    void defaultFamilyIsTheSuitesOwn();
    // --- The leaderboard over a store of forty models -------------------------------------------------------------

    void leaderboardOfFortyModels();
    // --- Screenshots --------------------------------------------------------------------------------------------

    void screenshotsAtLaptopAndDesktopSizes();
};

void TestManyModels::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"StructScopeTests"_s);
    QCoreApplication::setApplicationName(u"tst_manymodels"_s);
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QString error;
    m_store = manymodels::makeStore(m_dir.path(), &error);
    QVERIFY2(!m_store.isEmpty(), qPrintable(error));
}

void TestManyModels::cleanupTestCase()
{
    QSettings().clear();
}

void TestManyModels::middleElisionKeepsBothEndsAndKeepsNamesApart()
{
    const QFontMetricsF metrics(QApplication::font());
    const QStringList names { u"Qwen/Qwen3-30B-A3B-Instruct-2507"_s, u"Qwen/Qwen3-235B-A22B-Instruct-2507"_s,
        u"short"_s, u"short"_s };
    const qreal room = metrics.horizontalAdvance(u"Qwen/Qwen…-2507"_s);
    const QStringList elided = elideLabelsMiddle(names, metrics, room);
    QCOMPARE(elided.size(), 4);
    // Both long names are elided in the middle: the start and the distinguishing end stay.
    for (int i = 0; i < 2; ++i) {
        const auto [head, tail] = ends(elided[i]);
        QVERIFY2(!tail.isEmpty(), qPrintable(elided[i]));
        QVERIFY(names[i].startsWith(head));
        QVERIFY(names[i].endsWith(tail));
        QVERIFY(tail.endsWith(u"2507"_s));
        QVERIFY(head.startsWith(u"Qw"_s));
    }
    // Elided to the same width they would read the same; they were given room until they differ.
    QCOMPARE(metrics.elidedText(names[0], Qt::ElideMiddle, room), metrics.elidedText(names[1], Qt::ElideMiddle, room));
    QVERIFY2(elided[0] != elided[1], qPrintable(elided[0] + u" | "_s + elided[1]));
    // Equal names stay equal, and a name that fits stays whole.
    QCOMPARE(elided[2], u"short"_s);
    QCOMPARE(elided[3], u"short"_s);
    // Forty names elided to a narrow column: all distinct, none wider than it needs beyond the room.
    const QStringList many = manymodels::modelNames();
    const QStringList forty = elideLabelsMiddle(many, metrics, 140);
    QCOMPARE(QSet<QString>(forty.begin(), forty.end()).size(), many.size());
    // A label wider than the room was given more only because, elided to the room, it read as another.
    for (qsizetype i = 0; i < many.size(); ++i) {
        if (metrics.horizontalAdvance(forty[i]) <= 140)
            continue;
        const QString atRoom = metrics.elidedText(many[i], Qt::ElideMiddle, 140);
        bool collides = false;
        for (qsizetype j = 0; j < many.size(); ++j)
            collides = collides || (j != i && metrics.elidedText(many[j], Qt::ElideMiddle, 140) == atRoom);
        QVERIFY2(collides, qPrintable(forty[i]));
    }
}

void TestManyModels::barGeometry()
{
    QVERIFY(!BarChartGeometry::isHorizontal(1));
    QVERIFY(!BarChartGeometry::isHorizontal(8));
    QVERIFY(BarChartGeometry::isHorizontal(9));
    QVERIFY(BarChartGeometry::isHorizontal(40));
    // Few groups with long names lie horizontally too.
    QVERIFY(!BarChartGeometry::isHorizontal(3, 100, 7));
    QVERIFY(BarChartGeometry::isHorizontal(3, 18 * 7 + 1, 7));
    QVERIFY(BarChartGeometry::isHorizontal(9, 10, 7));
    QCOMPARE(BarChartGeometry::heightFor(40, 20, 100), 900);
    QCOMPARE(BarChartGeometry::heightFor(0, 20, 100), 100);
    QCOMPARE(BarChartGeometry::rowHeight(10), 18.0);
    QCOMPARE(BarChartGeometry::rowHeight(20), 31.0);
    // Rows from the top of the plot area: 4 rows of 25 px.
    const QRectF plot(50, 100, 300, 100);
    QCOMPARE(BarChartGeometry::rowAt(100, plot, 4), 0);
    QCOMPARE(BarChartGeometry::rowAt(124.9, plot, 4), 0);
    QCOMPARE(BarChartGeometry::rowAt(125, plot, 4), 1);
    QCOMPARE(BarChartGeometry::rowAt(199, plot, 4), 3);
    QCOMPARE(BarChartGeometry::rowAt(99, plot, 4), -1);
    QCOMPARE(BarChartGeometry::rowAt(200, plot, 4), -1);
    QCOMPARE(BarChartGeometry::rowAt(150, plot, 0), -1);
    // The label column: the widest label, capped at a share of the chart, never below the minimum.
    const QFontMetricsF metrics(QApplication::font());
    const QStringList labels { u"a"_s, u"Qwen/Qwen3-235B-A22B-Instruct-2507"_s };
    const qreal widest = metrics.horizontalAdvance(labels[1]);
    QCOMPARE(BarChartGeometry::labelWidth(labels, metrics, 10000), widest);
    QCOMPARE(BarChartGeometry::labelWidth(labels, metrics, 400, 0.5, 10), std::min(widest, 200.0));
    QCOMPARE(BarChartGeometry::labelWidth(labels, metrics, 100, 0.38, 90), std::min(widest, 90.0));
    QCOMPARE(BarChartGeometry::labelWidth(labels, metrics, 400), std::min(widest, 120.0));
}

void TestManyModels::pointLabelsNeverOverlap()
{
    const QRectF bounds(0, 0, 400, 300);
    const QSizeF size(60, 14);
    // Far apart: each label right of its point.
    auto placed = placePointLabels({ { QPointF(50, 50), size }, { QPointF(50, 200), size } }, bounds, 6);
    QVERIFY(placed[0] && placed[1]);
    QCOMPARE(placed[0]->left(), 50.0 + 6 + 3);
    QCOMPARE(placed[0]->center().y(), 50.0);
    // Near the right edge: left of the point.
    placed = placePointLabels({ { QPointF(390, 100), size } }, bounds, 6);
    QVERIFY(placed[0]);
    QCOMPARE(placed[0]->right(), 390.0 - 6 - 3);
    // Two points on one spot: the first keeps its place, the second finds none beside a marker or label.
    placed = placePointLabels({ { QPointF(200, 150), size }, { QPointF(200, 150), size } }, bounds, 6);
    QVERIFY(placed[0]);
    QVERIFY(placed[1]);
    QVERIFY(!placed[0]->intersects(*placed[1]));
    // A crowd: forty points in a small square; the placed labels overlap neither each other nor a marker,
    // and lie inside the bounds; the first (most important) is always placed.
    std::vector<PointLabel> crowd;
    for (int i = 0; i < 40; ++i)
        crowd.push_back({ QPointF(150 + (i % 8) * 9, 120 + (i / 8) * 9), size });
    placed = placePointLabels(crowd, bounds, 6);
    QVERIFY(placed[0]);
    int count = 0;
    for (std::size_t i = 0; i < placed.size(); ++i) {
        if (!placed[i])
            continue;
        ++count;
        QVERIFY(bounds.contains(*placed[i]));
        for (std::size_t j = 0; j < placed.size(); ++j) {
            if (j != i && placed[j])
                QVERIFY(!placed[i]->intersects(*placed[j]));
            const QRectF marker(crowd[j].anchor - QPointF(6, 6), QSizeF(12, 12));
            QVERIFY(!placed[i]->intersects(marker));
        }
    }
    QVERIFY(count >= 2);
    QVERIFY(count < 40);
    // No room at all: nothing placed.
    placed = placePointLabels({ { QPointF(5, 5), QSizeF(500, 14) } }, bounds, 6);
    QVERIFY(!placed[0]);
}

void TestManyModels::smallMultiplesTitleLine()
{
    SmallMultiplesLayout grid;
    grid.count = 5;
    grid.width = 800;
    grid.top = 20;
    grid.minPanelWidth = 250;
    grid.panelHeight = 200;
    const QRectF title = grid.titleRect(4, 22);
    const QRectF panel = grid.panelRect(4);
    QCOMPARE(title.left(), panel.left() + 8);
    QCOMPARE(title.width(), panel.width() - 16);
    QCOMPARE(title.top(), panel.top() + 2);
    QCOMPARE(title.height(), 22.0);
    QCOMPARE(grid.titleAt(title.center(), 22), 4);
    QCOMPARE(grid.titleAt(panel.center(), 22), -1);
    QVERIFY(grid.titleRect(5, 22).isNull());
}

void TestManyModels::barChartLiesHorizontallyWithWholeNamesAtHand()
{
    const ReportDataPtr data = manymodels::makeReport(false);
    MetricBarChart chart;
    chart.resize(520, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.setReport(data, "grounding.json_parse");
    QVERIFY(chart.isHorizontal());
    QCOMPARE(chart.categories().size(), manymodels::kModels);
    // Best first: the last model has the highest value.
    QCOMPARE(chart.categories().front(), manymodels::modelNames().back());
    auto* axis = qobject_cast<QBarCategoryAxis*>(chart.chart()->axes(Qt::Vertical).value(0));
    QVERIFY(axis);
    // The vertical axis counts from the bottom: the best is its last category (on top).
    QCOMPARE(axis->categories().size(), manymodels::kModels);
    QCOMPARE(axis->categories().back(), chart.shownLabels().front().toHtmlEscaped());
    // Labels: distinct, elided in the middle (never at the end) where long.
    const QStringList shown = chart.shownLabels();
    QCOMPARE(QSet<QString>(shown.begin(), shown.end()).size(), manymodels::kModels);
    int elided = 0;
    for (int i = 0; i < shown.size(); ++i) {
        const auto [head, tail] = ends(shown[i]);
        if (tail.isEmpty()) {
            QCOMPARE(shown[i], chart.categories()[i]);
            continue;
        }
        ++elided;
        QVERIFY(chart.categories()[i].startsWith(head));
        QVERIFY2(chart.categories()[i].endsWith(tail) && tail.size() >= 4, qPrintable(shown[i]));
    }
    QVERIFY(elided > 0);
    // The chart asks for a row per bar.
    const int needed = chart.neededHeight();
    QVERIFY(needed >= manymodels::kModels * 18);
    QCOMPARE(chart.minimumSizeHint().height(), needed);
    // The error bars lie on their rows: the best (first) on the top category.
    auto* best = qobject_cast<QLineSeries*>(chart.chart()->series().value(1));
    QVERIFY(best);
    QCOMPARE(best->at(3), QPointF(chart.errorBars()[0].high, manymodels::kModels - 1));
    // The tooltip over a label names its model whole.
    chart.resize(520, needed);
    QTest::qWait(20);
    QVERIFY(chart.grab().save(screenshotDir() + u"/many-horizontal-bars.png"_s));
    const QRectF plot = chart.chart()->plotArea();
    const QPointF onFirst(plot.left() - 20, plot.top() + plot.height() / manymodels::kModels / 2);
    const QPoint viewportPos = chart.mapFromScene(chart.chart()->mapToScene(onFirst));
    QCOMPARE(chart.labelToolTipAt(viewportPos), chart.categories().front());
    const QPointF onLast(plot.left() - 20, plot.bottom() - 2);
    QCOMPARE(chart.labelToolTipAt(chart.mapFromScene(chart.chart()->mapToScene(onLast))), chart.categories().back());

    // Eight groups of long names lie horizontally as well; eight of short names stand upright.
    auto few = std::make_shared<ReportData>(*data);
    few->report.groups.resize(8);
    chart.setReport(few, "grounding.json_parse");
    QVERIFY(chart.isHorizontal());
    for (int k = 0; k < 8; ++k)
        few->report.groups[std::size_t(k)].key = { { "model", std::to_string(k) + "-model-x-2507" } };
    chart.resize(240, 400);
    chart.setReport(few, "grounding.json_parse");
    QVERIFY(!chart.isHorizontal());
    QCOMPARE(chart.neededHeight(), 0);
    // Their slanted labels are elided in the middle too (QtCharts would cut them at the end), and read apart.
    const QStringList upright = chart.shownLabels();
    QCOMPARE(upright.size(), 8);
    QCOMPARE(QSet<QString>(upright.begin(), upright.end()).size(), 8);
    for (int i = 0; i < upright.size(); ++i) {
        const auto [head, tail] = ends(upright[i]);
        QVERIFY2(
            chart.categories()[i].startsWith(head) && chart.categories()[i].endsWith(tail), qPrintable(upright[i]));
        QVERIFY(!upright[i].endsWith(QChar(0x2026)));
    }
    QVERIFY(upright != chart.categories());
    QTest::qWait(20);
    QVERIFY(chart.grab().save(screenshotDir() + u"/many-upright-bars.png"_s));
}

void TestManyModels::exportedBarChartWritesEveryNameWhole()
{
    const ReportDataPtr data = manymodels::makeReport(false);
    auto chart = makeLeaderboardChart(data, "grounding.json_parse");
    const QSize size = chart->exportSize();
    auto* bars = dynamic_cast<MetricBarChart*>(chart.get());
    QVERIFY(bars);
    QVERIFY(bars->isHorizontal());
    QVERIFY(size.height() >= bars->neededHeight());
    const QFontMetricsF metrics(
        qobject_cast<QBarCategoryAxis*>(bars->chart()->axes(Qt::Vertical).value(0))->labelsFont());
    QVERIFY(size.width() >= metrics.horizontalAdvance(manymodels::modelNames()[4]) + 400);
    const QString svg = m_dir.filePath(u"bars.svg"_s);
    QCOMPARE(exportChart(*chart, svg), QString());
    QCOMPARE(uitest::checkChartFile(svg, manymodels::modelNames()), QString());
    const QString png = m_dir.filePath(u"bars.png"_s);
    QCOMPARE(exportChart(*chart, png, 96), QString());
    QCOMPARE(uitest::checkChartFile(png, {}), QString());
    QCOMPARE(QImage(png).size(), size);
    // Asked for a small picture, it is still as large as the names and rows need.
    auto small = makeLeaderboardChart(data, "grounding.json_parse", QSize(400, 300));
    QVERIFY(small->exportSize().height() >= bars->neededHeight());
    QVERIFY(small->exportSize().width() >= metrics.horizontalAdvance(manymodels::modelNames()[4]) + 400);
    // Three groups export horizontally too: whole names, never cut at an edge.
    auto three = std::make_shared<ReportData>(*data);
    three->report.groups.resize(3);
    auto few = makeLeaderboardChart(three, "grounding.json_parse");
    QVERIFY(dynamic_cast<MetricBarChart*>(few.get())->isHorizontal());
    const QString fewSvg = m_dir.filePath(u"few.svg"_s);
    QCOMPARE(exportChart(*few, fewSvg), QString());
    QCOMPARE(uitest::checkChartFile(fewSvg, manymodels::modelNames().mid(0, 3)), QString());
}

void TestManyModels::scatterLabelsOnlyWhereTheyFit()
{
    const ReportDataPtr data = manymodels::makeReport(true);
    CostAccuracyChart chart;
    chart.resize(640, 400);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.setReport(data, "grounding.json_parse");
    QTest::qWait(20);
    QCOMPARE(chart.plottedLabels().size(), manymodels::kModels);
    const QStringList labelled = chart.labelledPoints();
    const QList<QRectF> rects = chart.labelRects();
    QCOMPARE(rects.size(), labelled.size());
    QVERIFY(!labelled.isEmpty());
    QVERIFY2(labelled.size() < manymodels::kModels, qPrintable(QString::number(labelled.size())));
    // The best group is named first.
    QCOMPARE(labelled.front(), manymodels::modelNames().back());
    for (int i = 0; i < rects.size(); ++i) {
        QVERIFY(chart.chart()->plotArea().adjusted(0, -4, 0, 0).contains(rects[i]));
        for (int j = i + 1; j < rects.size(); ++j)
            QVERIFY2(!rects[i].intersects(rects[j]), qPrintable(labelled[i] + u" / "_s + labelled[j]));
    }
    QCOMPARE(exportChart(chart, screenshotDir() + u"/many-scatter.png"_s, 96), QString());
    // Larger, more names fit.
    chart.resize(1600, 1000);
    QTest::qWait(20);
    QVERIFY(chart.labelledPoints().size() >= labelled.size());
}

void TestManyModels::heatmapRowsOfFortyModels()
{
    const ReportDataPtr data = manymodels::makeReport(false);
    HeatmapData heatmap;
    heatmap.metricId = "grounding.json_parse";
    const QStringList names = manymodels::modelNames();
    heatmap.columnLabels = { u"invoice"_s };
    heatmap.columnValues = { u"invoice"_s };
    for (int k = 0; k < manymodels::kModels; ++k) {
        heatmap.rows.push_back(GroupKey { { { "model", names[k].toStdString() } } });
        heatmap.rowLabels << names[k];
        HeatmapCell cell;
        cell.value = 0.5 + k / 100.0;
        cell.n = 6;
        heatmap.cells.push_back(cell);
    }
    heatmap.minimum = 0;
    heatmap.maximum = 1;
    HeatmapWidget widget;
    widget.setData(heatmap);
    widget.resize(500, 1200);
    const HeatmapLayout layout = widget.layoutFor(QRectF(0, 0, 500, 1200), widget.font());
    // The row names get at most 40% of the width; a hovered row header names its model whole.
    QVERIFY(layout.rowHeaderWidth <= 200.5);
    const QRectF header = layout.rowHeaderRect(1);
    QCOMPARE(layout.hitTest(header.center()).kind, HeatmapLayout::Hit::Kind::RowHeader);
    QVERIFY(widget.toolTipFor(1, 0).contains(widget.data().rowLabels[1]));
    QVERIFY(names.contains(widget.data().rowLabels[1]));
    // Its natural (export) size gives every name its whole width.
    const HeatmapLayout natural = widget.layoutFor(QRectF(QPointF(0, 0), QSizeF(widget.exportSize())), widget.font());
    QVERIFY(natural.rowHeaderWidth >= QFontMetricsF(widget.font()).horizontalAdvance(names[4]));
}

void TestManyModels::errorPanelTitlesGiveTheWholeName()
{
    ErrorSetsChart chart;
    std::vector<ErrorSetCounts> groups;
    for (const QString& name : manymodels::modelNames().mid(0, 6)) {
        ErrorSetCounts group;
        group.key = GroupKey { { { "model", name.toStdString() } } };
        group.labels = { ErrorLabel::MissingKey, ErrorLabel::WrongValue };
        group.n = 10;
        group.perfect = 6;
        group.regions = { { 1u, 2 }, { 2u, 1 }, { 3u, 1 } };
        groups.push_back(group);
    }
    chart.setData(groups);
    chart.resize(520, chart.heightForWidth(520));
    const SmallMultiplesLayout grid = chart.gridFor(chart.width());
    QCOMPARE(chart.panelTitleAt(grid.titleRect(1, 22).center()), manymodels::modelNames()[1]);
    QCOMPARE(chart.panelTitleAt(grid.panelRect(1).center()), QString());
}

void TestManyModels::comboBoxesElideInTheMiddle()
{
    ElidingComboBox combo;
    for (const QString& name : manymodels::modelNames())
        combo.addItem(name, name);
    combo.setItemData(2, u"own tooltip"_s, Qt::ToolTipRole);
    // As wide as its minimum contents length, not as the longest name.
    const int widest = combo.fontMetrics().horizontalAdvance(manymodels::modelNames()[4]);
    QVERIFY2(combo.sizeHint().width() < widest + 40, qPrintable(QString::number(combo.sizeHint().width())));
    QVERIFY(combo.sizeHint().width() >= combo.fontMetrics().averageCharWidth() * 20);
    QCOMPARE(combo.view()->textElideMode(), Qt::ElideMiddle);
    // Tooltips: every item's whole name, the current one's on the box.
    QCOMPARE(combo.itemData(1, Qt::ToolTipRole).toString(), manymodels::modelNames()[1]);
    QCOMPARE(combo.itemData(2, Qt::ToolTipRole).toString(), u"own tooltip"_s);
    combo.setCurrentIndex(1);
    QCOMPARE(combo.toolTip(), manymodels::modelNames()[1]);
    const QString shown = combo.shownText(combo.fontMetrics().horizontalAdvance(u"Qwen/Qwen3-2…Instruct-2507"_s));
    const auto [head, tail] = ends(shown);
    QVERIFY2(!tail.isEmpty(), qPrintable(shown));
    QVERIFY(manymodels::modelNames()[1].startsWith(head));
    QVERIFY(manymodels::modelNames()[1].endsWith(tail));
    QVERIFY(tail.endsWith(u"2507"_s));
}

void TestManyModels::frozenColumnStaysWhileTheOthersScroll()
{
    QStandardItemModel model(40, 20);
    for (int c = 0; c < 20; ++c)
        model.setHorizontalHeaderItem(c, new QStandardItem(u"column %1"_s.arg(c)));
    for (int r = 0; r < 40; ++r) {
        model.setItem(r, 0, new QStandardItem(manymodels::modelNames()[r]));
        for (int c = 1; c < 20; ++c)
            model.setItem(r, c, new QStandardItem(u"0.%1"_s.arg(r * 20 + c, 4, 10, QLatin1Char('0'))));
    }
    FrozenColumnTableView view;
    view.verticalHeader()->hide();
    view.setModel(&model);
    view.resizeColumnsToContents();
    view.resize(500, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTableView* frozen = view.frozenView();
    QVERIFY(frozen->isVisible());
    QCOMPARE(frozen->model(), &model);
    QCOMPARE(frozen->selectionModel(), view.selectionModel());
    for (int c = 1; c < 20; ++c)
        QVERIFY(frozen->isColumnHidden(c));
    QVERIFY(!frozen->isColumnHidden(0));
    QCOMPARE(frozen->columnWidth(0), view.columnWidth(0));
    QCOMPARE(frozen->width(), view.columnWidth(0));
    // Scrolled sideways the model column stays; scrolled down both follow.
    view.horizontalScrollBar()->setValue(view.horizontalScrollBar()->maximum());
    QVERIFY(view.horizontalScrollBar()->maximum() > 0);
    QCOMPARE(frozen->geometry().left(), view.frameWidth());
    view.verticalScrollBar()->setValue(200);
    QCOMPARE(frozen->verticalScrollBar()->value(), view.verticalScrollBar()->value());
    // One selection for both.
    view.selectRow(3);
    QVERIFY(frozen->selectionModel()->isRowSelected(3, {}));
    // Activating the frozen cell is activating the table's.
    QSignalSpy activated(&view, &QTableView::activated);
    Q_EMIT frozen->activated(model.index(5, 0));
    QCOMPARE(activated.count(), 1);
    // A wider first column follows into the frozen view.
    view.setColumnWidth(0, 260);
    QCOMPARE(frozen->columnWidth(0), 260);
    QCOMPARE(frozen->width(), 260);
}

void TestManyModels::columnChooserHidesByIdAcrossResets()
{
    QStandardItemModel model(3, 4);
    const QStringList titles { u"Model"_s, u"Correct"_s, u"Latency"_s, u"Cost"_s };
    model.setHorizontalHeaderLabels(titles);
    FrozenColumnTableView view;
    view.setModel(&model);
    QSignalSpy changed(&view, &FrozenColumnTableView::hiddenColumnsChanged);
    std::unique_ptr<QMenu> menu(view.makeColumnMenu(nullptr));
    QList<QAction*> checkable;
    for (QAction* action : menu->actions()) {
        if (action->isCheckable())
            checkable << action;
    }
    // Every column but the frozen one, all shown.
    QCOMPARE(checkable.size(), 3);
    QCOMPARE(checkable[1]->text(), u"Latency"_s);
    QVERIFY(checkable[1]->isChecked());
    checkable[1]->setChecked(false);
    QVERIFY(view.isColumnHidden(2));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).toStringList(), QStringList { u"Latency"_s });
    // The columns come anew in another order: the hidden one is found by its id.
    model.clear();
    model.setColumnCount(4);
    model.setHorizontalHeaderLabels({ u"Model"_s, u"Latency"_s, u"Correct"_s, u"Cost"_s });
    QVERIFY(view.isColumnHidden(1));
    QVERIFY(!view.isColumnHidden(2));
    // The first column cannot be hidden; "Show All Columns" brings every column back.
    view.setHiddenColumnIds({ u"Model"_s, u"Cost"_s, u"Latency"_s });
    QVERIFY(!view.isColumnHidden(0));
    QVERIFY(view.isColumnHidden(3));
    menu.reset(view.makeColumnMenu(nullptr));
    QAction* all = menu->actions().constLast();
    QVERIFY(all->isEnabled());
    all->trigger();
    for (int c = 0; c < 4; ++c)
        QVERIFY(!view.isColumnHidden(c));
    QCOMPARE(changed.constLast().at(0).toStringList(), QStringList());
}

void TestManyModels::defaultFamilyIsTheSuitesOwn()
{
    ReportData data;
    QCOMPARE(data.defaultFamily(), QString());
    data.report.metrics = { "ladder.correct" };
    QCOMPARE(data.defaultFamily(), u"ladder"_s);
    data.report.metrics = { "ladder.correct", "grounding.json_parse" };
    QCOMPARE(data.families(), (QStringList { u"ladder"_s, u"grounding"_s }));
    QCOMPARE(data.defaultFamily(), u"grounding"_s);
    // Suites of several families (the demo workspace) share only the ladder.
    data.report.metrics = { "ladder.correct", "grounding.json_parse", "contract.semantic_success" };
    QCOMPARE(data.families().size(), 3);
    QCOMPARE(data.defaultFamily(), u"ladder"_s);
    data.report.metrics = { "grounding.json_parse", "contract.semantic_success" };
    QCOMPARE(data.defaultFamily(), data.families().front());

    MetricPicker picker(false);
    picker.setReport(manymodels::makeReport(false));
    QCOMPARE(picker.family(), u"grounding"_s);
    QCOMPARE(picker.metricId(), std::string("grounding.json_parse"));
}

void TestManyModels::leaderboardOfFortyModels()
{
    QSettings().remove(u"workspaces"_s);
    Workspace workspace;
    QString error;
    QVERIFY2(workspace.open(m_store, false, &error), qPrintable(error));
    {
        LeaderboardPage page(&workspace);
        page.resize(1366, 700);
        page.show();
        QVERIFY(waitForData(&page));
        QCOMPARE(page.model()->rowCount(), manymodels::kModels);
        // SOB-style records: the page opens on their own family, not on the ladder.
        QCOMPARE(page.metricPicker()->family(), u"grounding"_s);
        QCOMPARE(page.model()->family(), u"grounding"_s);
        // Horizontal bars in a scroll area that scrolls when they need more room than there is.
        QVERIFY(page.barChart()->isHorizontal());
        QCOMPARE(page.barChart()->categories().size(), manymodels::kModels);
        QVERIFY(page.barScroll()->widget() == page.barChart());
        QTest::qWait(20);
        QVERIFY(page.barChart()->height() >= page.barChart()->neededHeight());
        // No costs in the store: the scatter gives its room to the bar chart.
        QVERIFY(page.scatter()->plottedLabels().isEmpty());
        QVERIFY(!page.scatter()->isVisible());
        QVERIFY(page.barScroll()->width() > page.width() * 3 / 4);
        // The model column is frozen.
        QCOMPARE(page.view()->frozenView()->columnWidth(0), page.view()->columnWidth(0));
        // The user hides a column and picks the ladder family: both are remembered for the workspace.
        const int latency = page.model()->columnOf("ladder.latency_p50");
        QVERIFY(latency > 0);
        page.view()->setColumnIdHidden(u"ladder.latency_p50"_s, true);
        QVERIFY(page.view()->isColumnHidden(latency));
        QVERIFY(page.metricPicker()->setMetric("ladder.correct"));
        QCOMPARE(page.model()->family(), u"ladder"_s);
    }
    QCOMPARE(Settings().metricFamily(m_store, u"leaderboard"_s), u"ladder"_s);
    QCOMPARE(Settings().hiddenColumns(m_store, u"leaderboard"_s), QStringList { u"ladder.latency_p50"_s });
    {
        LeaderboardPage page(&workspace);
        page.show();
        QVERIFY(waitForData(&page));
        QCOMPARE(page.metricPicker()->family(), u"ladder"_s);
        const int latency = page.model()->columnOf("ladder.latency_p50");
        QVERIFY(latency > 0);
        QVERIFY(page.view()->isColumnHidden(latency));
        QVERIFY(!page.view()->isColumnHidden(0));
        // The exported table is the table as shown: without the hidden column, with every other metric.
        const std::optional<Report> table = page.table();
        QVERIFY(table);
        QCOMPARE(table->groups.size(), std::size_t(manymodels::kModels));
        QVERIFY(std::find(table->metrics.begin(), table->metrics.end(), "ladder.latency_p50") == table->metrics.end());
        QVERIFY(std::find(table->metrics.begin(), table->metrics.end(), "ladder.correct") != table->metrics.end());
        QCOMPARE(table->metrics.size(), page.model()->shownReport().metrics.size() - 1);
    }
    // Another workspace knows nothing of this one's choices.
    QCOMPARE(Settings().metricFamily(m_store + u".other"_s, u"leaderboard"_s), QString());
    QVERIFY(Settings().hiddenColumns(m_store + u".other"_s, u"leaderboard"_s).isEmpty());
    QSettings().remove(u"workspaces"_s);
}

void TestManyModels::screenshotsAtLaptopAndDesktopSizes()
{
    QSettings().remove(u"workspaces"_s);
    const QByteArray given = qgetenv("STRUCTSCOPE_SCREENSHOT_STORE");
    const QString store = given.isEmpty() ? m_store : QString::fromLocal8Bit(given);
    const QString prefix
        = given.isEmpty() ? u"many"_s : QString::fromLocal8Bit(qgetenv("STRUCTSCOPE_SCREENSHOT_PREFIX"));
    MainWindow window;
    window.resize(1366, 768);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QString error;
    QVERIFY2(window.openWorkspace(store, false, &error), qPrintable(error));
    for (const QSize& size : { QSize(1366, 768), QSize(1920, 1080) }) {
        window.resize(size);
        for (const QString& id :
            { u"runs"_s, u"leaderboard"_s, u"heatmap"_s, u"cases"_s, u"errors"_s, u"compare"_s, u"audit"_s }) {
            QVERIFY(window.showPage(id));
            Page* page = nullptr;
            for (Page* p : window.pages()) {
                if (p->pageId() == id)
                    page = p;
            }
            QVERIFY(page);
            QVERIFY(QTest::qWaitFor([page] { return !page->isLoading(); }, kTimeoutMs * 5));
            // The Runs list and the audit queue fill in the background after the page's report: the picture waits
            // for the list's rows, and for the queue to be built (it may be empty).
            const auto ready = [page, &id] {
                if (id == u"audit"_s) {
                    for (QLabel* label : page->findChildren<QLabel*>()) {
                        if (label->text().startsWith(u"Building the audit queue"_s))
                            return false;
                    }
                    return true;
                }
                if (id != u"runs"_s)
                    return true;
                for (QAbstractItemView* view : page->findChildren<QAbstractItemView*>()) {
                    if (view->isVisible() && view->model() && view->model()->rowCount() > 0)
                        return true;
                }
                return false;
            };
            QVERIFY2(QTest::qWaitFor(ready, kTimeoutMs), qPrintable(id));
            // The selected finding's case loads in the background too (a queue with no finding shows none).
            if (auto* audit = qobject_cast<AuditPage*>(page); audit && audit->model()->rowCount() > 0)
                QVERIFY2(QTest::qWaitFor([audit] { return audit->diffView()->detail() != nullptr; }, kTimeoutMs),
                    "the audit page shows no case for its first finding");
            QTest::qWait(100);
            const QString path = screenshotDir()
                + u"/%1-%2-%3x%4.png"_s.arg(prefix.isEmpty() ? u"shot"_s : prefix, id)
                      .arg(size.width())
                      .arg(size.height());
            const QImage shot = window.grab().toImage();
            QCOMPARE(shot.size(), size);
            QVERIFY(shot.save(path));
            qInfo("screenshot: %s", qPrintable(path));
        }
    }
}

QTEST_MAIN(TestManyModels)
#include "tst_manymodels.moc"
