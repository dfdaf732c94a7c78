// SPDX-License-Identifier: Apache-2.0
// The field dimension in the GUI: the heatmap's Field choice, the leaderboard's breakdown by field, the Cases page
// opened on a field, and the models and value functions behind them (each model under QAbstractItemModelTester).
#include "analysis/heatmapdata.h"
#include "analysistestdata.h"
#include "charts/heatmapwidget.h"
#include "models/casesproxymodel.h"
#include "models/diffrowsmodel.h"
#include "models/fieldbreakdownmodel.h"
#include "models/heatmapmodel.h"
#include "models/leaderboardmodel.h"
#include "pages/casespage.h"
#include "pages/heatmappage.h"
#include "pages/leaderboardpage.h"
#include "pagestestdata.h"
#include "pagestesthelpers.h"
#include "report/fieldreport.h"
#include "widgets/diffview.h"
#include "widgets/fieldbreakdowndialog.h"
#include "widgets/metricpicker.h"
#include "workspace/workspace.h"
#include "json/jsonalignment.h"
#include "json/leafpaths.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace Qt::StringLiterals;
using namespace std::literals;
using namespace structscope;
using namespace pagestest;
using namespace analysistest;
using nlohmann::json;

namespace {

constexpr auto kReport = QAbstractItemModelTester::FailureReportingMode::QtTest;

} // namespace

class TestFieldViews : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    DemoStore m_demo;
    std::unique_ptr<Workspace> m_workspace;

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    // Field rows, model columns: (customer.name, A) 2/2, (items[].sku, A) 1/4, (note, A) 1/2, (customer.name, B) 0/1.
    void fieldHeatmapCellsAndCounts();
    void breakdownModel();
    void casesFilterOnAField();
    void diffViewFindsTheField();
    // On the demo store: the Field choice lays out fields as rows, worst first; a cell opens the Cases page on the
    // responses that got that field wrong, with the field selected in the diff view.
    void heatmapPageByField();
    // The field heatmap of another store, grabbed offscreen: STRUCTSCOPE_FIELDS_SHOT=store.db[,out.png[,filter]]
    // (docs/screenshots/heatmap-fields.png is made so from SOB's published image responses, filtered on "date").
    void screenshotOfAStore();
    void leaderboardBreakdown();
};

void TestFieldViews::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"StructScopeTests"_s);
    QCoreApplication::setApplicationName(u"tst_fieldviews"_s);
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    m_demo = makeDemoStore(m_dir.path());
    QVERIFY2(m_demo.ok(), qPrintable(m_demo.error));
    m_workspace = std::make_unique<Workspace>();
    QString error;
    QVERIFY2(m_workspace->open(m_demo.location, false, &error), qPrintable(error));
}

void TestFieldViews::cleanupTestCase()
{
    m_workspace.reset();
}

void TestFieldViews::fieldHeatmapCellsAndCounts()
{
    const ReportData data = fieldReportData({ "field", "model" });
    HeatmapData heatmap = buildHeatmap(data, { "field" }, "model", "field.accuracy");
    QCOMPARE(heatmap.rowLabels, QStringList({ u"customer.name"_s, u"items[].sku"_s, u"note"_s }));
    QCOMPARE(heatmap.columnLabels, QStringList({ u"A"_s, u"B"_s }));
    QCOMPARE(heatmap.cell(0, 0).value, 1.0);
    QCOMPARE(heatmap.cell(0, 1).value, 0.0);
    QCOMPARE(heatmap.cell(1, 0).value, 0.25);
    QVERIFY(std::isnan(heatmap.cell(1, 1).value)); // B's gold has no items
    QCOMPARE(heatmap.cell(1, 0).n, 2);
    QCOMPARE(heatmap.cell(1, 0).detail,
        u"4 values in 2 responses: 1 right (1 strictly), 1 missing, 2 wrong (1 of another type), 0 invented"_s);
    QCOMPARE(heatmap.cell(0, 0).detail,
        u"2 values in 2 responses: 2 right (1 strictly), 0 missing, 0 wrong (0 of another type), 0 invented"_s);

    // Worst first: row means 0.5 (customer.name: 1 and 0), 0.25, 0.5 → items[].sku, then the two ties by name.
    heatmap.sortRows({ HeatmapSort::By::Mean, {}, Qt::AscendingOrder });
    QCOMPARE(heatmap.rowLabels, QStringList({ u"items[].sku"_s, u"customer.name"_s, u"note"_s }));
    HeatmapData filtered = heatmap;
    filtered.filterRows(u"CUSTOMER"_s);
    QCOMPARE(filtered.rowLabels, QStringList({ u"customer.name"_s }));
    QCOMPARE(filtered.cell(0, 1).value, 0.0);
    filtered = heatmap;
    filtered.filterColumns(u"b"_s);
    QCOMPARE(filtered.columnLabels, QStringList({ u"B"_s }));
    QCOMPARE(filtered.cell(1, 0).value, 0.0); // customer.name is the second row after the sort

    HeatmapModel model;
    QAbstractItemModelTester tester(&model, kReport);
    model.setHeatmap(heatmap);
    QCOMPARE(model.rowCount(), 3);
}

void TestFieldViews::breakdownModel()
{
    const ReportData data = fieldReportData({ "model", "field" });
    FieldBreakdownModel model;
    QAbstractItemModelTester tester(&model, kReport);
    model.setReport(data.report, { { "model", "A" } });
    QCOMPARE(model.rowCount(), 3);
    // Worst accuracy first: items[].sku 0.25, note 0.5, customer.name 1.
    QCOMPARE(model.fieldAt(0), u"items[].sku"_s);
    QCOMPARE(model.fieldAt(1), u"note"_s);
    QCOMPARE(model.fieldAt(2), u"customer.name"_s);
    QCOMPARE(model.index(0, FieldBreakdownModel::Values).data().toString(), u"4"_s);
    QCOMPARE(model.index(0, FieldBreakdownModel::Accuracy).data(FieldBreakdownModel::SortRole).toDouble(), 0.25);
    QCOMPARE(model.index(0, FieldBreakdownModel::Wrong).data(FieldBreakdownModel::SortRole).toDouble(), 0.5);
    QCOMPARE(model.index(0, FieldBreakdownModel::TypeError).data(FieldBreakdownModel::SortRole).toDouble(), 0.25);
    QCOMPARE(model.index(1, FieldBreakdownModel::Invented).data(FieldBreakdownModel::SortRole).toDouble(), 0.5);
    QCOMPARE(model.index(2, FieldBreakdownModel::Strict).data(FieldBreakdownModel::SortRole).toDouble(), 0.5);
    QVERIFY(!model.index(0, FieldBreakdownModel::Interval95).data().toString().isEmpty());
    QSortFilterProxyModel proxy;
    QAbstractItemModelTester proxyTester(&proxy, kReport);
    proxy.setSourceModel(&model);
    proxy.setFilterKeyColumn(FieldBreakdownModel::Field);
    proxy.setFilterFixedString(u"sku"_s);
    QCOMPARE(proxy.rowCount(), 1);
    model.setReport(data.report, { { "model", "B" } });
    QCOMPARE(model.rowCount(), 1); // B's gold has customer.name only
    QCOMPARE(model.fieldAt(0), u"customer.name"_s);
    QCOMPARE(proxy.rowCount(), 0); // the proxy still filters on "sku"
    QCOMPARE(model.fieldAt(1), QString());
}

void TestFieldViews::casesFilterOnAField()
{
    const CaseFilter filter = CaseFilter::fromGroupKey(key({ { "model", "A" }, { "field", "items[].sku" } }));
    QCOMPARE(filter.wrongField.value_or(""), "items[].sku"s);
    QCOMPARE(filter.key("model"), u"A"_s);
    const std::vector<ScoredRecord> records = fieldRecords();
    QVERIFY(filter.matches(records[0], {})); // 3 values, 1 right
    QVERIFY(filter.matches(records[1], {}));
    CaseFilter name = CaseFilter::fromGroupKey(key({ { "field", "customer.name" } }));
    QVERIFY(!name.matches(records[0], {}));
    QVERIFY(!name.matches(records[1], {})); // right leniently
    QVERIFY(name.matches(records[2], {}));
}

void TestFieldViews::diffViewFindsTheField()
{
    const json gold = json::parse(R"({"items": [{"sku": "A1"}, {"sku": "B2"}], "n": 1})");
    const json pred = json::parse(R"({"items": [{"sku": "A1"}, {"sku": "B9"}], "n": 1})");
    const std::vector<AlignedRow> rows = alignJson(gold, &pred, diffJson(gold, pred));
    const int row = DiffView::rowOfField(rows, u"items[].sku"_s);
    QVERIFY(row >= 0);
    QCOMPARE(rows[std::size_t(row)].path, "items[1].sku"s); // the one that differs, not the first
    const int n = DiffView::rowOfField(rows, u"n"_s);
    QVERIFY(n >= 0);
    QCOMPARE(rows[std::size_t(n)].path, "n"s); // none differs: the first of the field
    QCOMPARE(DiffView::rowOfField(rows, u"missing"_s), -1);
    QCOMPARE(DiffView::rowOfField(rows, {}), -1);
}

void TestFieldViews::heatmapPageByField()
{
    HeatmapPage page(m_workspace.get());
    page.resize(1280, 820);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page, kTimeoutMs));
    QVERIFY(page.setColumnKey(u"field"_s));
    QVERIFY(QTest::qWaitFor(
        [&] {
            return page.heatmap()->data().rowKeys == std::vector<std::string> { "field" }
            && page.heatmap()->data().rowCount() > 0 && !page.metricPicker()->metricId().empty();
        },
        kTimeoutMs));
    const HeatmapData& data = page.heatmap()->data();
    QCOMPARE(data.columnKey, "model"s);
    QCOMPARE(data.metricId, "field.accuracy"s);
    QCOMPARE(data.columnCount(), int(profiles().size()));
    for (int r = 1; r < data.rowCount(); ++r) {
        const double before = data.rowMean(r - 1);
        const double after = data.rowMean(r);
        QVERIFY2(std::isnan(after) || before <= after, qPrintable(data.rowLabels[r]));
    }
    // Some cell with errors: its tooltip names the counts; a click opens its responses.
    int row = -1;
    int column = -1;
    for (int r = 0; r < data.rowCount() && row < 0; ++r) {
        for (int c = 0; c < data.columnCount(); ++c) {
            if (data.cell(r, c).value < 1.0) {
                row = r;
                column = c;
                break;
            }
        }
    }
    QVERIFY(row >= 0);
    QVERIFY(page.heatmap()->toolTipFor(row, column).contains(u"values in"_s));
    const QString field = data.rowLabels[row];
    QSignalSpy drill(&page, &Page::drillDown);
    Q_EMIT page.heatmap()->cellClicked(data.rows[std::size_t(row)], data.columnValues[column]);
    QCOMPARE(drill.count(), 1);
    const GroupKey cell = drill.at(0).at(0).value<GroupKey>();
    QCOMPARE(cell.value("field").value_or(QString()), field);
    QCOMPARE(cell.value("model").value_or(QString()), data.columnValues[column]);

    CasesPage cases(m_workspace.get());
    cases.resize(1280, 820);
    cases.show();
    QVERIFY(waitRecords(&cases));
    cases.showCases(cell);
    QVERIFY(cases.proxy()->rowCount() > 0);
    for (int r = 0; r < cases.proxy()->rowCount(); ++r) {
        const ScoredRecord* rec = cases.model()->recordAt(cases.proxy()->mapToSource(cases.proxy()->index(r, 0)).row());
        QVERIFY(fieldWrong(rec->verdict, fieldKey(field.toStdString())));
    }
    QVERIFY(waitDetail(cases.diffView()));
    const int selected = cases.diffView()->currentRow();
    QVERIFY(selected >= 0);
    QCOMPARE(QString::fromStdString(wildcardPath(cases.diffView()->rowsModel()->rowAt(selected)->path)), field);

    // Fields as columns, and a filter.
    page.setFieldsAsRows(false);
    QVERIFY(QTest::qWaitFor([&] { return page.heatmap()->data().columnKey == "field"; }, kTimeoutMs));
    page.setFieldFilter(field);
    QVERIFY(page.heatmap()->data().columnCount() >= 1);
    for (const QString& label : page.heatmap()->data().columnLabels)
        QVERIFY(label.contains(field, Qt::CaseInsensitive));
    // By top-level key: a click shows that key's fields.
    page.setFieldFilter({});
    page.setFieldsByTopLevelKey(true);
    QVERIFY(QTest::qWaitFor([&] { return page.heatmap()->data().columnKey == "field_root"; }, kTimeoutMs));
    const HeatmapData& roots = page.heatmap()->data();
    const QString root = roots.columnValues[0];
    Q_EMIT page.heatmap()->cellClicked(roots.rows[0], root);
    QCOMPARE(drill.count(), 1); // no drill-down: one level down instead
    QCOMPARE(page.fieldFilter()->text(), root);
    QVERIFY(QTest::qWaitFor([&] { return page.heatmap()->data().columnKey == "field"; }, kTimeoutMs));
    QVERIFY(page.table().has_value());
}

void TestFieldViews::screenshotOfAStore()
{
    const QStringList shot = qEnvironmentVariable("STRUCTSCOPE_FIELDS_SHOT").split(u',', Qt::SkipEmptyParts);
    if (shot.isEmpty())
        QSKIP("set STRUCTSCOPE_FIELDS_SHOT=store[,out.png] to grab a store's field heatmap");
    Workspace workspace;
    QString error;
    QVERIFY2(workspace.open(shot.at(0), false, &error), qPrintable(error));
    HeatmapPage page(&workspace);
    page.resize(1600, 1000);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page, kTimeoutMs));
    QVERIFY(page.setColumnKey(u"field"_s));
    QVERIFY(QTest::qWaitFor(
        [&] {
            return page.heatmap()->data().rowKeys == std::vector<std::string> { "field" }
            && page.heatmap()->data().rowCount() > 0 && !page.isLoading();
        },
        5 * kTimeoutMs));
    if (shot.size() > 2)
        page.setFieldFilter(shot.at(2));
    QTest::qWait(200);
    const QString out = shot.size() > 1 ? shot.at(1) : QDir::temp().filePath(u"heatmap-fields.png"_s);
    QVERIFY(page.grab().save(out));
    qInfo().noquote() << u"%1 fields, saved to %2"_s.arg(page.heatmap()->data().rowCount()).arg(out);
}

void TestFieldViews::leaderboardBreakdown()
{
    LeaderboardPage page(m_workspace.get());
    page.resize(1280, 820);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page, kTimeoutMs));
    QVERIFY(QTest::qWaitFor([&] { return page.model()->rowCount() > 0 && !page.isLoading(); }, kTimeoutMs));
    QVERIFY(
        QTest::qWaitFor([&] { return m_workspace->scoring()->cached(GoldBasis::Measured) != nullptr; }, kTimeoutMs));
    const GroupKey row = page.model()->index(0, 0).data(LeaderboardModel::GroupKeyRole).value<GroupKey>();
    FieldBreakdownDialog* dialog = page.showFieldBreakdown(row);
    QVERIFY(dialog);
    QVERIFY(dialog->model()->rowCount() > 0);
    QAbstractItemModelTester tester(dialog->model(), kReport);
    for (int r = 1; r < dialog->model()->rowCount(); ++r) {
        const double before = dialog->model()
                                  ->index(r - 1, FieldBreakdownModel::Accuracy)
                                  .data(FieldBreakdownModel::SortRole)
                                  .toDouble();
        const double after
            = dialog->model()->index(r, FieldBreakdownModel::Accuracy).data(FieldBreakdownModel::SortRole).toDouble();
        QVERIFY(std::isnan(after) || before <= after);
    }
    QSignalSpy drill(&page, &Page::drillDown);
    dialog->view()->activated(dialog->proxy()->index(0, 0));
    QCOMPARE(drill.count(), 1);
    const GroupKey cases = drill.at(0).at(0).value<GroupKey>();
    QCOMPARE(cases.value("field").value_or(QString()), dialog->model()->fieldAt(0));
    QCOMPARE(cases.value("model"), row.value("model"));
    dialog->close();
}

QTEST_MAIN(TestFieldViews)
#include "tst_fieldviews.moc"
