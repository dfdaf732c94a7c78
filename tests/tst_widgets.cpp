// SPDX-License-Identifier: Apache-2.0
// Custom chart widgets and small controls (ui/charts, ui/widgets): the heatmap's geometry and
// colour mapping as plain structs, then the widget itself on the offscreen platform, the bar
// chart's error bars, the debounced filter field, the ETA text, and the About the Data dialog with
// its note over simulated results. Expected rectangles and colours are worked out by hand in the
// comments.
#include "analysis/casedetail.h"
#include "analysis/heatmapdata.h"
#include "charts/colorscale.h"
#include "charts/heatmaplayout.h"
#include "charts/heatmapwidget.h"
#include "charts/metricbarchart.h"
#include "demo/demogoldmistakes.h"
#include "export/chartexport.h"
#include "providers/pricetable.h"
#include "sim/simprofile.h"
#include "sim/simulator.h"
#include "suite/suitelocator.h"
#include "uitestdata.h"
#include "widgets/activityindicator.h"
#include "widgets/diffview.h"
#include "widgets/filterlineedit.h"
#include "widgets/simulateddatadialog.h"
#include "widgets/simulateddatanote.h"
#include "workspace/workspace.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;
using namespace structscope;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// 600×400 at the origin, 3 rows × 4 columns, fixed header sizes. Then (by hand):
/// cell width  = (600 − 2·8 − 100 − 16 − 16 − 56) / 4 = 396 / 4 = 99
/// cell height = min(48, (400 − 2·8 − 0 − 40) / 3 = 114.67) = 48
/// grid origin = (8 + 100, 8 + 0 + 40) = (108, 48)
HeatmapLayout sampleLayout()
{
    HeatmapLayout layout;
    layout.rows = 3;
    layout.columns = 4;
    layout.bounds = QRectF(0, 0, 600, 400);
    layout.rowHeaderWidth = 100;
    layout.columnHeaderHeight = 40;
    return layout;
}

/// Rows m1, m2; columns easy, hard; m2 × hard has no data.
HeatmapData sampleHeatmap()
{
    HeatmapData data;
    data.metricId = "ladder.correct";
    data.rowKeys = { "model" };
    data.columnKey = "tier";
    data.rows = { GroupKey { { { "model", "m1" } } }, GroupKey { { { "model", "m2" } } } };
    data.rowLabels = { u"m1"_s, u"m2"_s };
    data.columnLabels = { u"easy"_s, u"hard"_s };
    data.columnValues = data.columnLabels;
    data.cells = { { 0.25, { 0.1, 0.4 }, 12, 0 }, { 0.5, { 0.3, 0.7 }, 8, 2 }, { 1.0, { 0.8, 1.0 }, 12, 0 },
        { kNaN, {}, 0, 0 } };
    return data;
}

bool near(const QColor& a, const QColor& b, int tolerance = 3)
{
    return std::abs(a.red() - b.red()) <= tolerance && std::abs(a.green() - b.green()) <= tolerance
        && std::abs(a.blue() - b.blue()) <= tolerance;
}

QPalette lightPalette()
{
    QPalette p;
    p.setColor(QPalette::WindowText, Qt::black);
    p.setColor(QPalette::Text, Qt::black);
    p.setColor(QPalette::Window, Qt::white);
    p.setColor(QPalette::Base, Qt::white);
    return p;
}

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
    p.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
    p.setColor(QPalette::Window, QColor(0x20, 0x20, 0x20));
    p.setColor(QPalette::Base, QColor(0x18, 0x18, 0x18));
    p.setColor(QPalette::Mid, QColor(0x55, 0x55, 0x55));
    return p;
}

/// The rows of About the Data's rate table, by their label, with the profile field each must show.
const QList<QPair<QString, double SimProfile::*>>& rateFields()
{
    static const QList<QPair<QString, double SimProfile::*>> fields = {
        { u"code fence"_s, &SimProfile::codeFence },
        { u"prose"_s, &SimProfile::prose },
        { u"truncated"_s, &SimProfile::truncate },
        { u"dropped key"_s, &SimProfile::dropKey },
        { u"extra key"_s, &SimProfile::extraKey },
        { u"omitted value"_s, &SimProfile::omitValue },
        { u"wrong value"_s, &SimProfile::wrongValue },
        { u"near miss"_s, &SimProfile::nearMiss },
        { u"coercion"_s, &SimProfile::coercion },
        { u"invented value"_s, &SimProfile::inventValue },
        { u"long input"_s, &SimProfile::longInput },
        { u"schema violation"_s, &SimProfile::schemaViolation },
        { u"unsafe acceptance"_s, &SimProfile::unsafeFlip },
        { u"over-refusal"_s, &SimProfile::overRefusal },
        { u"invented SKU"_s, &SimProfile::catalogInvention },
        { u"wrong quantity"_s, &SimProfile::wrongQuantity },
    };
    return fields;
}

/// Every leaf row of a tree (children of group rows, or top-level rows without children).
QList<QTreeWidgetItem*> leafRows(QTreeWidget* tree)
{
    QList<QTreeWidgetItem*> rows;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* top = tree->topLevelItem(i);
        if (top->childCount() == 0)
            rows << top;
        for (int c = 0; c < top->childCount(); ++c)
            rows << top->child(c);
    }
    return rows;
}

QTreeWidgetItem* rowNamed(QTreeWidget* tree, const QString& name)
{
    for (QTreeWidgetItem* row : leafRows(tree)) {
        if (row->text(0) == name)
            return row;
    }
    return nullptr;
}

} // namespace

class TestWidgets : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void diffHeaderShowsStoredTextAsText();
    void cellRects_data();
    void cellRects();
    void headersAndLegend();
    void cellsDoNotGrowWithoutBound();
    void hitTest_data();
    void hitTest();
    void viridis_data();
    void viridis();
    void scaleMapsItsRange();
    void textColour_data();
    void textColour();
    void contrastRatio();
    void widgetPaintsCellsAndLegend();
    void widgetFollowsThePalette();
    void tooltipHasNAndInterval();
    void clickingACellSignalsRowAndColumn();
    void clickingAHeaderSorts();
    void emptyHeatmapShowsItsPlaceholder();
    void pngExportHonoursDpi();
    void barChartSortsBestFirstWithErrorBars();
    void filterIsDebounced();
    void aboutTheDataListsEveryProfile();
    void aboutTheDataStrategiesMatchTheSimulator();
    void aboutTheDataListsTheDemoGoldMistakes();
    void aboutTheDataListsTheBuiltInSuites();
    void simulatedNoteAppearsExactlyWithSimulatedModels();
    void etaText_data();
    void etaText();
};

void TestWidgets::diffHeaderShowsStoredTextAsText()
{
    // Model, strategy and case ids come from imported files and shared stores: the rich-text header of the
    // diff view shows them as text, never as markup.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    const QString location = uitest::makeSampleStore(dir.path(), &error);
    QVERIFY2(!location.isEmpty(), qPrintable(error));
    CaseRef ref;
    {
        auto store = ResultStore::open(location, &error);
        QVERIFY2(store, qPrintable(error));
        const SuiteRow suite = store->suites()->constFirst();
        const RunRow run = store->runs(suite.row)->constFirst();
        const ResponseRow response = store->responses(run.id)->constFirst();
        ref.suite = suite.id;
        ref.caseId = store->caseRecord(response.caseRow)->id;
        ref.runId = run.id;
        ref.repeat = response.repeat;
    }
    ref.model = u"<i>model</i>"_s;
    ref.strategy = u"<img src=\"x.png\"><b>PJ</b>"_s;

    Workspace workspace;
    QVERIFY2(workspace.open(location, false, &error), qPrintable(error));
    DiffView view(&workspace);
    QSignalSpy loaded(&view, &DiffView::detailLoaded);
    view.showResponse(ref, GoldBasis::Measured);
    QVERIFY(loaded.wait(30000));
    QVERIFY2(view.detail()->ok(), qPrintable(view.detail()->error));
    const auto* header = view.findChild<QLabel*>(u"diffHeader"_s);
    QVERIFY(header);
    QVERIFY2(header->text().contains(u"&lt;img src=&quot;x.png&quot;&gt;&lt;b&gt;PJ&lt;/b&gt;"_s),
        qPrintable(header->text()));
    QVERIFY2(header->text().contains(u"&lt;i&gt;model&lt;/i&gt;"_s), qPrintable(header->text()));
    QVERIFY2(!header->text().contains(u"<img"_s), qPrintable(header->text()));
}

void TestWidgets::cellRects_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::addColumn<QRectF>("expected");
    QTest::addRow("first") << 0 << 0 << QRectF(108, 48, 99, 48);
    QTest::addRow("last") << 2 << 3 << QRectF(108 + 3 * 99, 48 + 2 * 48, 99, 48);
    QTest::addRow("middle") << 1 << 2 << QRectF(306, 96, 99, 48);
    QTest::addRow("row out of range") << 3 << 0 << QRectF();
    QTest::addRow("negative column") << 0 << -1 << QRectF();
}

void TestWidgets::cellRects()
{
    QFETCH(int, row);
    QFETCH(int, column);
    QFETCH(QRectF, expected);
    QCOMPARE(sampleLayout().cellRect(row, column), expected);
}

void TestWidgets::headersAndLegend()
{
    const HeatmapLayout layout = sampleLayout();
    QCOMPARE(layout.gridRect(), QRectF(108, 48, 396, 144));
    QCOMPARE(layout.columnHeaderRect(1), QRectF(207, 8, 99, 40));
    QCOMPARE(layout.rowHeaderRect(2), QRectF(8, 144, 100, 48));
    // The bar starts 16 right of the grid, as tall as the grid but at least 120.
    QCOMPARE(layout.legendBarRect(), QRectF(520, 48, 16, 144));
    QCOMPARE(layout.legendY(0.0), 192.0);
    QCOMPARE(layout.legendY(1.0), 48.0);
    QCOMPARE(layout.legendY(0.5), 120.0);
    QCOMPARE(layout.legendY(2.0), 48.0); // clamped
}

void TestWidgets::cellsDoNotGrowWithoutBound()
{
    HeatmapLayout layout = sampleLayout();
    layout.bounds = QRectF(0, 0, 4000, 3000);
    QCOMPARE(layout.cellWidth(), 160.0);
    QCOMPARE(layout.cellHeight(), 48.0);
    layout.bounds = QRectF(0, 0, 100, 50); // no room at all
    QCOMPARE(layout.cellWidth(), 0.0);
    QCOMPARE(layout.hitTest(QPointF(50, 40)), HeatmapLayout::Hit {});
}

void TestWidgets::hitTest_data()
{
    using Kind = HeatmapLayout::Hit::Kind;
    QTest::addColumn<QPointF>("point");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::addRow("cell 1,2") << QPointF(310, 100) << int(Kind::Cell) << 1 << 2;
    QTest::addRow("cell 0,0 corner") << QPointF(108, 48) << int(Kind::Cell) << 0 << 0;
    QTest::addRow("column header 1") << QPointF(250, 30) << int(Kind::ColumnHeader) << -1 << 1;
    QTest::addRow("row header 2") << QPointF(50, 170) << int(Kind::RowHeader) << 2 << -1;
    QTest::addRow("below the grid") << QPointF(200, 300) << int(Kind::None) << -1 << -1;
    QTest::addRow("legend") << QPointF(525, 100) << int(Kind::None) << -1 << -1;
    QTest::addRow("top-left corner") << QPointF(50, 20) << int(Kind::None) << -1 << -1;
}

void TestWidgets::hitTest()
{
    QFETCH(QPointF, point);
    QFETCH(int, kind);
    QFETCH(int, row);
    QFETCH(int, column);
    const HeatmapLayout::Hit hit = sampleLayout().hitTest(point);
    QCOMPARE(int(hit.kind), kind);
    QCOMPARE(hit.row, row);
    QCOMPARE(hit.column, column);
}

void TestWidgets::viridis_data()
{
    QTest::addColumn<double>("t");
    QTest::addColumn<QColor>("expected");
    // matplotlib's viridis stops; t outside [0, 1] clamps.
    QTest::addRow("0") << 0.0 << QColor(0x44, 0x01, 0x54);
    QTest::addRow("0.25") << 0.25 << QColor(0x3b, 0x52, 0x8b);
    QTest::addRow("0.5") << 0.5 << QColor(0x21, 0x91, 0x8c);
    QTest::addRow("1") << 1.0 << QColor(0xfd, 0xe7, 0x25);
    QTest::addRow("below") << -3.0 << QColor(0x44, 0x01, 0x54);
    QTest::addRow("above") << 7.0 << QColor(0xfd, 0xe7, 0x25);
    // Halfway between the stops at 0.5 (#21918c) and 0.5625 (#1fa088): (32, 153, 138).
    QTest::addRow("between stops") << 0.53125 << QColor(32, 153, 138);
}

void TestWidgets::viridis()
{
    QFETCH(double, t);
    QFETCH(QColor, expected);
    QCOMPARE(ColorScale::viridis(t), expected);
}

void TestWidgets::scaleMapsItsRange()
{
    const ColorScale scale { 400, 1500 };
    QCOMPARE(scale.normalized(400), 0.0);
    QCOMPARE(scale.normalized(950), 0.5);
    QCOMPARE(scale.normalized(1500), 1.0);
    QCOMPARE(scale.normalized(100), 0.0);
    QCOMPARE(scale.color(950), QColor(0x21, 0x91, 0x8c));
    QVERIFY(std::isnan(scale.normalized(kNaN)));
    QVERIFY(!scale.color(kNaN).isValid());
    const ColorScale flat { 1, 1 };
    QCOMPARE(flat.normalized(1), 1.0);
}

void TestWidgets::textColour_data()
{
    QTest::addColumn<double>("t");
    QTest::addColumn<bool>("dark");
    QTest::addColumn<QColor>("expected");
    QTest::addRow("light, dark purple cell") << 0.0 << false << QColor(Qt::white);
    // Teal (#21918c) has luminance 0.22: 5.5:1 against black, 3.8:1 against white.
    QTest::addRow("light, teal cell") << 0.5 << false << QColor(Qt::black);
    QTest::addRow("light, yellow cell") << 1.0 << false << QColor(Qt::black);
    QTest::addRow("dark, purple cell") << 0.0 << true << QColor(0xee, 0xee, 0xee);
    QTest::addRow("dark, yellow cell") << 1.0 << true << QColor(0x20, 0x20, 0x20);
}

void TestWidgets::textColour()
{
    QFETCH(double, t);
    QFETCH(bool, dark);
    QFETCH(QColor, expected);
    const QColor background = ColorScale::viridis(t);
    const QColor text = ColorScale::textColorOn(background, dark ? darkPalette() : lightPalette());
    QCOMPARE(text, expected);
    QVERIFY(ColorScale::contrast(text, background) >= 4.5);
}

void TestWidgets::contrastRatio()
{
    QCOMPARE(ColorScale::contrast(Qt::black, Qt::white), 21.0);
    QCOMPARE(ColorScale::contrast(Qt::white, Qt::white), 1.0);
    QVERIFY(std::abs(ColorScale::luminance(QColor(0x80, 0x80, 0x80)) - 0.2158605) < 1e-6);
}

void TestWidgets::widgetPaintsCellsAndLegend()
{
    HeatmapWidget widget;
    widget.setPalette(lightPalette());
    widget.setData(sampleHeatmap());
    widget.resize(560, 320);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    const QImage image = widget.grab().toImage();
    const HeatmapLayout layout = widget.layoutFor(QRectF(widget.rect()), widget.font());
    QCOMPARE(layout.rows, 2);
    QCOMPARE(layout.columns, 2);
    const auto corner = [&](int r, int c) {
        const QPointF p = layout.cellRect(r, c).topLeft() + QPointF(4, 4);
        return image.pixelColor(p.toPoint());
    };
    QVERIFY(near(corner(0, 0), ColorScale::viridis(0.25)));
    QVERIFY(near(corner(0, 1), ColorScale::viridis(0.5)));
    QVERIFY(near(corner(1, 0), ColorScale::viridis(1.0)));
    QVERIFY(near(corner(1, 1), ColorScale::noDataColor(widget.palette())));
    // The legend runs from the scale's maximum (top) to its minimum (bottom).
    const QRectF bar = layout.legendBarRect();
    for (const double y : { bar.top() + 4, bar.center().y(), bar.bottom() - 4 }) {
        const double t = (bar.bottom() - y) / bar.height();
        const QColor pixel = image.pixelColor(QPointF(bar.center().x(), y).toPoint());
        QVERIFY2(near(pixel, ColorScale::viridis(t), 8), qPrintable(pixel.name()));
    }
    QVERIFY(near(image.pixelColor(QPointF(bar.center().x(), bar.top() + 4).toPoint()), ColorScale::viridis(1), 24));
    // The value is written in the cell: some pixels in the middle of cell (0, 0) are text, not fill.
    const QRect cell = layout.cellRect(0, 0).toRect().adjusted(6, 6, -6, -6);
    int textPixels = 0;
    for (int x = cell.left(); x < cell.right(); ++x)
        textPixels += near(image.pixelColor(x, cell.center().y()), ColorScale::viridis(0.25), 40) ? 0 : 1;
    QVERIFY2(textPixels > 3, qPrintable(QString::number(textPixels)));
}

void TestWidgets::widgetFollowsThePalette()
{
    HeatmapWidget widget;
    widget.setPalette(lightPalette());
    widget.setData(sampleHeatmap());
    widget.resize(560, 320);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    QCOMPARE(widget.grab().toImage().pixelColor(2, 2), QColor(Qt::white));
    widget.setPalette(darkPalette()); // QEvent::PaletteChange
    const QImage dark = widget.grab().toImage();
    QCOMPARE(dark.pixelColor(2, 2), QColor(0x18, 0x18, 0x18));
    const HeatmapLayout layout = widget.layoutFor(QRectF(widget.rect()), widget.font());
    const QPointF noData = layout.cellRect(1, 1).topLeft() + QPointF(4, 4);
    QVERIFY(near(dark.pixelColor(noData.toPoint()), ColorScale::noDataColor(darkPalette())));
}

void TestWidgets::tooltipHasNAndInterval()
{
    HeatmapWidget widget;
    widget.setData(sampleHeatmap());
    const QString tip = widget.toolTipFor(0, 1);
    QVERIFY2(tip.contains(u"n = 8"_s), qPrintable(tip));
    QVERIFY2(tip.contains(u"errored = 2 (20.0%)"_s), qPrintable(tip)); // slots no answer came back for
    QVERIFY2(widget.toolTipFor(0, 0).contains(u"errored = 0"_s), qPrintable(widget.toolTipFor(0, 0)));
    QVERIFY2(tip.contains(u"[0.300, 0.700]"_s), qPrintable(tip));
    QVERIFY(tip.contains(u"0.500"_s));
    QVERIFY(widget.toolTipFor(1, 1).contains(u"no responses"_s));
    // A cell of errored slots only has no value, and says why.
    HeatmapData allErrored = sampleHeatmap();
    allErrored.cells[3].errored = 5;
    widget.setData(allErrored);
    const QString none = widget.toolTipFor(1, 1);
    QVERIFY2(none.contains(u"no answers"_s) && none.contains(u"errored = 5 (100.0%)"_s), qPrintable(none));
    QVERIFY(widget.toolTipFor(5, 0).isEmpty());
}

void TestWidgets::clickingACellSignalsRowAndColumn()
{
    HeatmapWidget widget;
    widget.setData(sampleHeatmap());
    widget.resize(560, 320);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    QSignalSpy spy(&widget, &HeatmapWidget::cellClicked);
    const HeatmapLayout layout = widget.layoutFor(QRectF(widget.rect()), widget.font());
    QTest::mouseClick(&widget, Qt::LeftButton, {}, layout.cellRect(1, 0).center().toPoint());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).value<GroupKey>().value("model"), std::optional<QString>(u"m2"_s));
    QCOMPARE(spy.at(0).at(1).toString(), u"easy"_s);
}

void TestWidgets::clickingAHeaderSorts()
{
    HeatmapWidget widget;
    widget.setData(sampleHeatmap());
    widget.resize(560, 320);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    const HeatmapLayout layout = widget.layoutFor(QRectF(widget.rect()), widget.font());
    // Column "easy": m1 0.25, m2 1.0 → best first puts m2 on top; a second click reverses.
    QTest::mouseClick(&widget, Qt::LeftButton, {}, layout.columnHeaderRect(0).center().toPoint());
    QCOMPARE(widget.data().rowLabels, QStringList({ u"m2"_s, u"m1"_s }));
    QCOMPARE(widget.rowSort().order, Qt::DescendingOrder);
    QTest::mouseClick(&widget, Qt::LeftButton, {}, layout.columnHeaderRect(0).center().toPoint());
    QCOMPARE(widget.data().rowLabels, QStringList({ u"m1"_s, u"m2"_s }));
    // Row "m1" (now the first row): easy 0.25, hard 0.5 → hard first.
    QTest::mouseClick(&widget, Qt::LeftButton, {}, layout.rowHeaderRect(0).center().toPoint());
    QCOMPARE(widget.data().columnLabels, QStringList({ u"hard"_s, u"easy"_s }));
    // The sort survives new data.
    widget.setData(sampleHeatmap());
    QCOMPARE(widget.data().columnLabels, QStringList({ u"hard"_s, u"easy"_s }));
    QCOMPARE(widget.data().rowLabels, QStringList({ u"m1"_s, u"m2"_s }));
}

void TestWidgets::emptyHeatmapShowsItsPlaceholder()
{
    HeatmapWidget widget;
    widget.setPalette(lightPalette());
    widget.setPlaceholderText(u"Nothing here"_s);
    widget.resize(300, 200);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    const QImage image = widget.grab().toImage();
    int dark = 0;
    for (int x = 0; x < image.width(); ++x)
        dark += image.pixelColor(x, 100).lightness() < 200 ? 1 : 0;
    QVERIFY(dark > 5);
}

void TestWidgets::pngExportHonoursDpi()
{
    QTemporaryDir dir;
    HeatmapWidget widget;
    widget.setData(sampleHeatmap());
    const QSize logical = widget.exportSize();
    const QString path = dir.filePath(u"heatmap.png"_s);
    QCOMPARE(exportChart(widget, path, 192), QString());
    QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), logical * 2);
    QCOMPARE(image.dotsPerMeterX(), 7559); // 192 dpi
    QCOMPARE(image.pixelColor(1, 1), QColor(Qt::white)); // exported on white
    QVERIFY(exportChart(widget, dir.filePath(u"heatmap.gif"_s)).contains(u"unknown chart format"_s));
}

void TestWidgets::barChartSortsBestFirstWithErrorBars()
{
    auto data = std::make_shared<ReportData>();
    data->report.groupBy = { "model" };
    data->report.metrics = { "ladder.invalid_json" };
    for (const auto& [model, value] : { std::pair { "a", 0.3 }, std::pair { "b", 0.1 }, std::pair { "c", 0.2 } }) {
        ReportGroup g;
        g.key = { { "model", model } };
        g.n = 10;
        g.mean["ladder.invalid_json"] = value;
        if (std::string(model) != "c")
            g.ci95["ladder.invalid_json"] = { value - 0.05, value + 0.05 };
        data->report.groups.push_back(g);
    }
    MetricBarChart chart;
    chart.setReport(data, "ladder.invalid_json");
    // Lower is better for invalid JSON: b, c, a.
    QCOMPARE(chart.categories(), QStringList({ u"b"_s, u"c"_s, u"a"_s }));
    QCOMPARE(chart.errorBars().size(), std::size_t(3));
    QCOMPARE(chart.errorBars()[0].low, 0.05);
    QVERIFY(!chart.errorBars()[1].isValid());
    // One bar series and an error-bar series per interval.
    QCOMPARE(chart.chart()->series().size(), 3);
    QCOMPARE(chart.bars()[2].value("model"), std::optional<QString>(u"a"_s));

    // New values of the same groups (a gold edit): the series stay, their values and places follow — a now
    // ranks first and b last, c (without an interval) stays in the middle.
    const QList<QAbstractSeries*> shown = chart.chart()->series();
    auto edited = std::make_shared<ReportData>(*data);
    edited->report.groups[0].mean["ladder.invalid_json"] = 0.0;
    edited->report.groups[0].ci95["ladder.invalid_json"] = { 0.0, 0.02 };
    edited->report.groups[1].mean["ladder.invalid_json"] = 0.15;
    edited->report.groups[1].ci95["ladder.invalid_json"] = { 0.1, 0.2 };
    edited->report.groups[2].mean["ladder.invalid_json"] = 0.12;
    chart.setReport(edited, "ladder.invalid_json");
    QCOMPARE(chart.updatesInPlace(), 1);
    QCOMPARE(chart.chart()->series(), shown);
    QCOMPARE(chart.categories(), QStringList({ u"a"_s, u"c"_s, u"b"_s }));
    auto* bars = qobject_cast<QBarSeries*>(shown.at(0));
    QVERIFY(bars);
    QCOMPARE(bars->barSets().at(0)->at(0), 0.0);
    QCOMPARE(bars->barSets().at(0)->at(1), 0.12);
    QCOMPARE(bars->barSets().at(0)->at(2), 0.15);
    auto* axis = qobject_cast<QBarCategoryAxis*>(chart.chart()->axes(Qt::Horizontal).at(0));
    QCOMPARE(axis->categories(), QStringList({ u"a"_s, u"c"_s, u"b"_s }));
    auto* firstBar = qobject_cast<QLineSeries*>(shown.at(1));
    QCOMPARE(firstBar->at(3), QPointF(0, 0.02)); // the top of a's interval, on the first bar
    auto* lastBar = qobject_cast<QLineSeries*>(shown.at(2));
    QCOMPARE(lastBar->at(3), QPointF(2, 0.2)); // b's, on the last bar
    QVERIFY(!chart.errorBars()[1].isValid());
    QCOMPARE(chart.errorBars()[2].high, 0.2);

    // The error bars elsewhere (c's interval now known, b's gone): the series are made anew.
    edited->report.groups[1].ci95.erase("ladder.invalid_json");
    edited->report.groups[2].ci95["ladder.invalid_json"] = { 0.1, 0.3 };
    chart.setReport(edited, "ladder.invalid_json");
    QCOMPARE(chart.updatesInPlace(), 1);
    QCOMPARE(chart.chart()->series().size(), 3);
    QCOMPARE(chart.errorBars()[1].high, 0.3);
    QVERIFY(!chart.errorBars()[2].isValid());
    // Another metric: anew as well.
    chart.setReport(edited, "ladder.correct");
    QCOMPARE(chart.updatesInPlace(), 1);
    chart.setReport(nullptr, "ladder.invalid_json");
    QCOMPARE(chart.chart()->series().size(), 0);
}

void TestWidgets::filterIsDebounced()
{
    FilterLineEdit edit;
    QSignalSpy spy(&edit, &FilterLineEdit::filterChanged);
    QTest::keyClicks(&edit, u"gpt"_s);
    QCOMPARE(spy.count(), 0);
    QTest::qWait(FilterLineEdit::kDebounceMs / 2);
    QCOMPARE(spy.count(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(spy.count(), 1, 2000);
    QCOMPARE(spy.at(0).at(0).toString(), u"gpt"_s);
    edit.clear(); // clearing reports at once
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(1).at(0).toString(), QString());
}

void TestWidgets::aboutTheDataListsEveryProfile()
{
    SimulatedDataDialog dialog;
    QTreeWidget* profiles = dialog.profileTable();
    QCOMPARE(profiles->topLevelItemCount(), int(simProfiles().size()));
    QVERIFY(simProfiles().size() >= 5);
    for (int i = 0; i < int(simProfiles().size()); ++i) {
        const SimProfile& p = simProfiles()[i];
        QTreeWidgetItem* row = profiles->topLevelItem(i);
        QCOMPARE(row->text(0), p.name);
        QCOMPARE(row->text(2), p.description);
        QVERIFY(!row->toolTip(0).isEmpty());
    }
    QCOMPARE(rowNamed(profiles, u"oracle"_s)->text(3), u"50 ms + 1 ms/token"_s);
    // Costs are the price table's nominal prices, as the runner charges them.
    const PriceTable prices = PriceTable::loadDefault();
    for (const SimProfile& p : simProfiles()) {
        ModelSpec spec;
        spec.kind = ProviderKind::Sim;
        spec.model = p.name;
        const std::optional<ModelPrice> price = prices.find(spec);
        QVERIFY(price);
        QCOMPARE(rowNamed(profiles, p.name)->data(4, SimulatedDataDialog::ValueRole).toList(),
            (QVariantList { price->inputPerMillion, price->outputPerMillion }));
    }
    QCOMPARE(rowNamed(profiles, u"chatty"_s)->text(1), u"indented JSON"_s);
    QCOMPARE(rowNamed(profiles, u"sloppy"_s)->text(1), u"compact JSON"_s);

    // One column per profile, one row per rate of SimProfile, each cell the profile's own number.
    QTreeWidget* rates = dialog.rateTable();
    QCOMPARE(rates->columnCount(), 2 + int(simProfiles().size()));
    QCOMPARE(leafRows(rates).size(), rateFields().size());
    for (const auto& [label, field] : rateFields()) {
        QTreeWidgetItem* row = rowNamed(rates, label);
        QVERIFY2(row, qPrintable(label));
        QVERIFY2(!row->toolTip(0).isEmpty(), qPrintable(label));
        for (int c = 0; c < int(simProfiles().size()); ++c) {
            const SimProfile& p = simProfiles()[c];
            QCOMPARE(rates->headerItem()->text(2 + c), p.name);
            QCOMPARE(row->data(2 + c, SimulatedDataDialog::ValueRole).toDouble(), p.*field);
            QVERIFY(!row->toolTip(2 + c).isEmpty());
        }
    }
    const auto column = [](const QString& name) {
        for (int c = 0; c < int(simProfiles().size()); ++c) {
            if (simProfiles()[c].name == name)
                return 2 + c;
        }
        return -1;
    };
    const int sloppy = column(u"sloppy"_s);
    const int careful = column(u"careful"_s);
    QVERIFY(sloppy > 0 && careful > 0);
    QCOMPARE(rowNamed(rates, u"code fence"_s)->text(sloppy), u"25%"_s);
    QCOMPARE(rowNamed(rates, u"dropped key"_s)->text(careful), u"0.2%"_s);
    QCOMPARE(rowNamed(rates, u"invented value"_s)->text(careful), u"—"_s);
    QCOMPARE(rowNamed(rates, u"long input"_s)->text(careful), u"+300% per 500 chars"_s);
}

void TestWidgets::aboutTheDataStrategiesMatchTheSimulator()
{
    SimulatedDataDialog dialog;
    QTreeWidget* table = dialog.strategyTable();
    const QList<double StrategyEffect::*> factors
        = { &StrategyEffect::format, &StrategyEffect::truncate, &StrategyEffect::keys, &StrategyEffect::values,
              &StrategyEffect::coercion, &StrategyEffect::schema, &StrategyEffect::decision };
    QCOMPARE(table->columnCount(), 2 + int(factors.size()));
    QCOMPARE(table->topLevelItemCount(), int(allStrategies().size()));
    for (int i = 0; i < int(allStrategies().size()); ++i) {
        const Strategy s = allStrategies()[i];
        QTreeWidgetItem* row = table->topLevelItem(i);
        QCOMPARE(row->text(0), strategyName(s));
        for (int f = 0; f < int(factors.size()); ++f)
            QCOMPARE(row->data(2 + f, SimulatedDataDialog::ValueRole).toDouble(), strategyEffect(s).*factors[f]);
    }
    QTreeWidgetItem* j = table->topLevelItem(1);
    QCOMPARE(j->text(1), u"JSON mode"_s);
    QCOMPARE(j->text(2), u"×0.15"_s);
    QCOMPARE(table->topLevelItem(4)->text(1), u"schema in the prompt, response schema enforced"_s);
    QCOMPARE(table->headerItem()->toolTip(2), u"Multiplies: code fence, prose"_s);
    QCOMPARE(table->topLevelItem(3)->toolTip(7), u"J+ rules out: schema violation"_s);
}

void TestWidgets::aboutTheDataListsTheDemoGoldMistakes()
{
    // One row per planted mistake, in the list's order: where, the stored (planted) and the true value, why.
    SimulatedDataDialog dialog;
    QTreeWidget* table = dialog.goldMistakeTable();
    QCOMPARE(dialog.tabs()->tabText(dialog.tabs()->indexOf(table->parentWidget())), u"Demo gold mistakes"_s);
    QCOMPARE(table->columnCount(), 6);
    QCOMPARE(table->topLevelItemCount(), int(demoGoldMistakes().size()));
    QVERIFY(demoGoldMistakes().size() >= 4);
    for (int i = 0; i < table->topLevelItemCount(); ++i) {
        const DemoGoldMistake& m = demoGoldMistakes()[std::size_t(i)];
        QTreeWidgetItem* row = table->topLevelItem(i);
        QCOMPARE(row->text(0), m.suite);
        QCOMPARE(row->text(1), m.caseId);
        QCOMPARE(row->text(2), QString::fromStdString(m.path));
        QCOMPARE(row->text(3), demoGoldValueText(m.planted));
        QCOMPARE(row->text(4), demoGoldValueText(m.truth));
        QCOMPARE(row->text(5), m.kind + u": "_s + m.note);
    }
    QTreeWidgetItem* name = table->topLevelItem(3);
    QCOMPARE(name->text(2), u"requester.name"_s);
    QCOMPARE(name->text(3), u"\"Aiyana Brookes\""_s);
    QCOMPARE(name->text(4), u"\"Aiyana Brooks\""_s);
    QCOMPARE(table->topLevelItem(0)->text(3), u"427.8"_s);
    QCOMPARE(table->topLevelItem(1)->text(3), u"null"_s);
}

void TestWidgets::aboutTheDataListsTheBuiltInSuites()
{
    SimulatedDataDialog dialog;
    QTRY_VERIFY_WITH_TIMEOUT(dialog.hasLoadedSuites(), 60000);
    QTreeWidget* suites = dialog.suiteTable();
    const QStringList names = builtInSuiteNames();
    for (const char* expected : { "email-extraction", "grounded", "orderbench", "schema-tiers" })
        QVERIFY2(names.contains(QLatin1String(expected)), expected);
    QCOMPARE(suites->topLevelItemCount(), int(names.size()));
    for (int i = 0; i < int(names.size()); ++i) {
        const QString dir = resolveSuitePath(names[i]);
        QFile manifestFile(dir + u"/suite.json"_s);
        QVERIFY(manifestFile.open(QIODevice::ReadOnly));
        const QJsonObject manifest = QJsonDocument::fromJson(manifestFile.readAll()).object();
        QFile casesFile(dir + u"/cases.jsonl"_s);
        QVERIFY(casesFile.open(QIODevice::ReadOnly));
        qlonglong lines = 0;
        for (const QByteArray& line : casesFile.readAll().split('\n'))
            lines += line.trimmed().isEmpty() ? 0 : 1;

        QTreeWidgetItem* row = suites->topLevelItem(i);
        QCOMPARE(
            row->text(0), manifest.value(u"name"_s).toString() + u" ("_s + manifest.value(u"id"_s).toString() + u')');
        QCOMPARE(row->data(2, SimulatedDataDialog::ValueRole).toLongLong(), lines);
        QCOMPARE(row->text(3), manifest.value(u"license"_s).toString());
        QVERIFY(row->childCount() == 1);
        QVERIFY(row->child(0)->text(0).startsWith(manifest.value(u"description"_s).toString()));
        QVERIFY(row->toolTip(4).contains(u"README.md"_s));
    }
    const QList<QTreeWidgetItem*> found = suites->findItems(u"OrderBench (orderbench)"_s, Qt::MatchExactly);
    QCOMPARE(found.size(), 1);
    QTreeWidgetItem* orderbench = found.first();
    QCOMPARE(orderbench->text(2), u"300"_s);
    QVERIFY(orderbench->child(0)->text(0).contains(u"Generated by datasets/orderbench/generator"_s));
}

void TestWidgets::simulatedNoteAppearsExactlyWithSimulatedModels()
{
    QWidget window;
    auto* note = new SimulatedDataNote(&window);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(!note->isVisible()); // no data yet
    note->setSimulatedModels({ u"sloppy"_s, u"oracle"_s });
    QVERIFY(note->isVisible());
    QVERIFY2(note->text().contains(u"(oracle, sloppy)"_s), qPrintable(note->text()));
    QVERIFY(note->text().contains(u"<a href="_s));
    QVERIFY(!note->toolTip().isEmpty());
    note->setSimulatedModels({});
    QVERIFY(!note->isVisible());
    note->setSimulatedModels({ u"chatty"_s });
    QVERIFY(note->isVisible());

    // The link opens the window's one About the Data dialog, on its profiles.
    QVERIFY(!window.findChild<SimulatedDataDialog*>());
    Q_EMIT note->linkActivated(u"about-the-data"_s);
    auto* dialog = window.findChild<SimulatedDataDialog*>();
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    Q_EMIT note->linkActivated(u"about-the-data"_s);
    QCOMPARE(window.findChildren<SimulatedDataDialog*>().size(), 1);
    QCOMPARE(dialog->tabs()->currentIndex(), 0);
}

void TestWidgets::etaText_data()
{
    QTest::addColumn<qint64>("done");
    QTest::addColumn<qint64>("total");
    QTest::addColumn<qint64>("elapsedMs");
    QTest::addColumn<QString>("expected");
    QTest::addRow("nothing done") << qint64(0) << qint64(100) << qint64(5000) << QString();
    QTest::addRow("too early") << qint64(50) << qint64(100) << qint64(200) << QString();
    QTest::addRow("finished") << qint64(100) << qint64(100) << qint64(5000) << QString();
    QTest::addRow("half after 10 s") << qint64(50) << qint64(100) << qint64(10000) << u"10 s"_s;
    QTest::addRow("a tenth after 60 s") << qint64(10) << qint64(100) << qint64(60000) << u"9 min"_s;
    QTest::addRow("hours") << qint64(1) << qint64(100) << qint64(3600000) << u"99.0 h"_s;
}

void TestWidgets::etaText()
{
    QFETCH(qint64, done);
    QFETCH(qint64, total);
    QFETCH(qint64, elapsedMs);
    QFETCH(QString, expected);
    QCOMPARE(ActivityIndicator::etaText(done, total, elapsedMs), expected);
}

QTEST_MAIN(TestWidgets)
#include "tst_widgets.moc"
