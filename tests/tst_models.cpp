// SPDX-License-Identifier: Apache-2.0
// Item models of the GUI (ui/models): the leaderboard and heatmap models and their proxy under
// QAbstractItemModelTester, with values checked against the sample store (uitestdata.h) whose
// numbers were worked out by hand from tests/data/grounding/EXPECTED.md.
#include "analysis/groupkey.h"
#include "analysis/heatmapdata.h"
#include "analysis/reportdata.h"
#include "models/heatmapmodel.h"
#include "models/leaderboardmodel.h"
#include "models/resultsproxymodel.h"
#include "report/evaluation.h"
#include "store/resultstore.h"
#include "uitestdata.h"

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>

using namespace Qt::StringLiterals;
using namespace structscope;

namespace {

ReportGroup group(const std::string& model, int n, std::map<std::string, double> mean)
{
    ReportGroup g;
    g.key = { { "model", model } };
    g.n = n;
    g.mean = std::move(mean);
    return g;
}

/// Three groups, one of them without a value: the missing value must sort last either way.
ReportDataPtr syntheticReport()
{
    auto data = std::make_shared<ReportData>();
    data->report.groupBy = { "model" };
    data->report.metrics = { "ladder.correct", "ladder.latency_p50" };
    data->report.groups = { group("alpha", 4, { { "ladder.correct", 0.25 }, { "ladder.latency_p50", 300 } }),
        group("beta", 2, { { "ladder.latency_p50", 100 } }),
        group("gamma", 8, { { "ladder.correct", 0.75 }, { "ladder.latency_p50", 200 } }) };
    data->report.groups[0].ci95["ladder.correct"] = { 0.1, 0.5 };
    data->simulatedModels.insert(u"gamma"_s);
    return data;
}

QStringList columnTexts(const QAbstractItemModel& model, int column, int role = Qt::DisplayRole)
{
    QStringList texts;
    for (int row = 0; row < model.rowCount(); ++row)
        texts << model.index(row, column).data(role).toString();
    return texts;
}

} // namespace

class TestModels : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    ScoredRecords m_records;

    ReportDataPtr report(std::vector<std::string> groupBy) const
    {
        AggregateOptions options;
        options.groupBy = std::move(groupBy);
        options.bootstrap.resamples = 200;
        return makeReportData(m_records, options);
    }

private Q_SLOTS:
    void initTestCase();
    void leaderboardUnderModelTester();
    void leaderboardColumns();
    void leaderboardValues_data();
    void leaderboardValues();
    void leaderboardCountAndBestInBold();
    void leaderboardShowsErroredSlots();
    void simulatedModelsAreLabelled();
    void shownReportHoldsTheShownColumns();
    void proxyUnderModelTester();
    void proxyFilter_data();
    void proxyFilter();
    void proxySort_data();
    void proxySort();
    void proxyPutsMissingValuesLast_data();
    void proxyPutsMissingValuesLast();
    void heatmapModelUnderModelTester();
    void heatmapModelThroughTheProxy();
};

void TestModels::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QString error;
    const QString location = uitest::makeSampleStore(m_dir.path(), &error);
    QVERIFY2(!location.isEmpty(), qPrintable(error));
    auto store = ResultStore::open(location, &error);
    QVERIFY2(store, qPrintable(error));
    Evaluation evaluation = evaluateStore(*store);
    QVERIFY2(evaluation.ok(), qPrintable(evaluation.error));
    QCOMPARE(evaluation.records.size(), std::size_t(30));
    m_records = std::move(evaluation.records);
}

void TestModels::leaderboardUnderModelTester()
{
    LeaderboardModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setFamily(u"grounding"_s);
    model.setReport(report({ "model" }));
    QCOMPARE(model.rowCount(), 3);
    model.setFamily(u"ladder"_s);
    model.setReport(report({ "model", "strategy" }));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columns().front().id, std::string("model"));
    QCOMPARE(model.columns()[1].id, std::string("strategy"));
    model.setReport(nullptr);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 0);
}

void TestModels::leaderboardColumns()
{
    LeaderboardModel model;
    model.setFamily(u"grounding"_s);
    model.setReport(report({ "model" }));
    const auto& columns = model.columns();
    QCOMPARE(columns.front().kind, LeaderboardModel::ColumnKind::Key);
    QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), u"Model"_s);
    // ... the family's scores, then n, cost per success, p50 and p95 latency.
    const int n = int(columns.size());
    QCOMPARE(columns[std::size_t(n - 4)].kind, LeaderboardModel::ColumnKind::Count);
    QCOMPARE(columns[std::size_t(n - 3)].id, std::string("ladder.cost_per_success"));
    QCOMPARE(columns[std::size_t(n - 2)].id, std::string("ladder.latency_p50"));
    QCOMPARE(columns[std::size_t(n - 1)].id, std::string("ladder.latency_p95"));
    QCOMPARE(columns[1].id, std::string("grounding.json_parse"));
    QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), u"JSON parse"_s);
    // Header tooltips carry the registry's definition.
    QVERIFY(model.headerData(1, Qt::Horizontal, Qt::ToolTipRole).toString().contains(u"string counts as not parsed"_s));
    QCOMPARE(model.headerData(1, Qt::Horizontal, LeaderboardModel::MetricIdRole).toString(), u"grounding.json_parse"_s);
}

void TestModels::leaderboardValues_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("metric");
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("display");
    // json_parse: model-a 8 of 10 (EXPECTED.md), model-b 5 of 10 (even lines), model-c 10 of 10;
    // Wilson intervals computed by hand (z = 1.96).
    QTest::addRow("a json_parse") << u"demo/model-a"_s << u"grounding.json_parse"_s << 0.8
                                  << u"0.800  [0.490, 0.943]"_s;
    QTest::addRow("b json_parse") << u"demo/model-b"_s << u"grounding.json_parse"_s << 0.5
                                  << u"0.500  [0.237, 0.763]"_s;
    QTest::addRow("c json_parse") << u"demo/model-c"_s << u"grounding.json_parse"_s << 1.0
                                  << u"1.000  [0.722, 1.000]"_s;
    // Latencies: model-a 800..850 (text) and 800..830 (image): median 820, p95 at rank 8.55.
    QTest::addRow("a p50") << u"demo/model-a"_s << u"ladder.latency_p50"_s << 820.0 << u"820 ms"_s;
    QTest::addRow("a p95") << u"demo/model-a"_s << u"ladder.latency_p95"_s << 845.5 << u"846 ms"_s;
    QTest::addRow("b p95") << u"demo/model-b"_s << u"ladder.latency_p95"_s << 400.0 << u"400 ms"_s;
    // Cost per success: 10 × 0.0005 USD over the 5 gold answers; 10 × 0.01 over 10.
    QTest::addRow("b cost") << u"demo/model-b"_s << u"ladder.cost_per_success"_s << 0.001 << u"$0.00100"_s;
    QTest::addRow("c cost") << u"demo/model-c"_s << u"ladder.cost_per_success"_s << 0.01 << u"$0.0100"_s;
}

void TestModels::leaderboardValues()
{
    QFETCH(QString, model);
    QFETCH(QString, metric);
    QFETCH(double, value);
    QFETCH(QString, display);
    LeaderboardModel leaderboard;
    leaderboard.setFamily(u"grounding"_s);
    leaderboard.setReport(report({ "model" }));
    const int column = leaderboard.columnOf(metric.toStdString());
    QVERIFY(column > 0);
    const int row = int(columnTexts(leaderboard, 0).indexOf(model));
    QVERIFY(row >= 0);
    const QModelIndex index = leaderboard.index(row, column);
    QCOMPARE(index.data(LeaderboardModel::SortRole).toDouble(), value);
    QCOMPARE(index.data(Qt::DisplayRole).toString(), display);
    QCOMPARE(index.data(LeaderboardModel::MetricIdRole).toString(), metric);
    QVERIFY(index.data(Qt::ToolTipRole).toString().contains(u"n = 10"_s));
    const GroupKey key = index.data(LeaderboardModel::GroupKeyRole).value<GroupKey>();
    QCOMPARE(key.value("model"), std::optional<QString>(model));
}

void TestModels::leaderboardCountAndBestInBold()
{
    LeaderboardModel model;
    model.setFamily(u"grounding"_s);
    model.setReport(report({ "model" }));
    const int nColumn = int(model.columns().size()) - 4;
    QCOMPARE(columnTexts(model, nColumn), QStringList({ u"10"_s, u"10"_s, u"10"_s }));
    const int parse = model.columnOf("grounding.json_parse");
    const int c = int(columnTexts(model, 0).indexOf(u"demo/model-c"_s));
    const int a = int(columnTexts(model, 0).indexOf(u"demo/model-a"_s));
    QVERIFY(model.index(c, parse).data(Qt::FontRole).value<QFont>().bold());
    QVERIFY(!model.index(a, parse).data(Qt::FontRole).isValid());
}

void TestModels::leaderboardShowsErroredSlots()
{
    // No group has errored slots: no column for them.
    LeaderboardModel model;
    model.setFamily(u"ladder"_s);
    model.setReport(syntheticReport());
    for (const LeaderboardModel::Column& column : model.columns())
        QVERIFY(column.kind != LeaderboardModel::ColumnKind::Errored);
    // alpha: 4 answers and 1 errored slot; beta: none errored; gamma: 8 answers and 2 errored.
    auto data = std::make_shared<ReportData>(*syntheticReport());
    data->report.groups[0].errored = 1;
    data->report.groups[2].errored = 2;
    model.setReport(data);
    int count = -1;
    int errored = -1;
    for (std::size_t c = 0; c < model.columns().size(); ++c) {
        if (model.columns()[c].kind == LeaderboardModel::ColumnKind::Count)
            count = int(c);
        if (model.columns()[c].kind == LeaderboardModel::ColumnKind::Errored)
            errored = int(c);
    }
    QCOMPARE(errored, count + 1); // right after n
    QCOMPARE(model.headerData(errored, Qt::Horizontal).toString(), u"Errored"_s);
    QVERIFY(model.headerData(errored, Qt::Horizontal, Qt::ToolTipRole).toString().contains(u"transport"_s));
    QCOMPARE(columnTexts(model, errored), QStringList({ u"1 (20.0%)"_s, u"0"_s, u"2 (20.0%)"_s }));
    QCOMPARE(columnTexts(model, errored, LeaderboardModel::SortRole), QStringList({ u"1"_s, u"0"_s, u"2"_s }));
    QCOMPARE(columnTexts(model, count), QStringList({ u"4"_s, u"2"_s, u"8"_s }));
    // A score's tooltip names the errored slots beside n.
    const QString tip = model.index(0, model.columnOf("ladder.correct")).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(u"n = 4"_s) && tip.contains(u"errored = 1 (20.0%)"_s), qPrintable(tip));
    QVERIFY(!model.index(1, model.columnOf("ladder.correct")).data(Qt::ToolTipRole).toString().contains(u"errored"_s));
    // The heatmap's cells carry them too.
    auto byTier = std::make_shared<ReportData>();
    byTier->report.groupBy = { "model", "tier" };
    byTier->report.metrics = { "ladder.correct" };
    ReportGroup cell;
    cell.key = { { "model", "a" }, { "tier", "easy" } };
    cell.n = 6;
    cell.errored = 2;
    cell.mean["ladder.correct"] = 1.0;
    byTier->report.groups = { cell };
    const HeatmapData heatmap = buildHeatmap(*byTier, { "model" }, "tier", "ladder.correct");
    QCOMPARE(heatmap.cell(0, 0).n, 6);
    QCOMPARE(heatmap.cell(0, 0).errored, 2);
}

void TestModels::simulatedModelsAreLabelled()
{
    LeaderboardModel model;
    model.setFamily(u"ladder"_s);
    model.setReport(syntheticReport());
    QCOMPARE(columnTexts(model, 0), QStringList({ u"alpha"_s, u"beta"_s, u"gamma (simulated)"_s }));
    QCOMPARE(columnTexts(model, 0, LeaderboardModel::SortRole), QStringList({ u"alpha"_s, u"beta"_s, u"gamma"_s }));
    const int correct = model.columnOf("ladder.correct");
    QCOMPARE(model.index(1, correct).data().toString(), u"—"_s);
    QVERIFY(std::isnan(model.index(1, correct).data(LeaderboardModel::SortRole).toDouble()));
}

void TestModels::shownReportHoldsTheShownColumns()
{
    LeaderboardModel model;
    model.setFamily(u"grounding"_s);
    model.setReport(report({ "model" }));
    const Report shown = model.shownReport();
    QCOMPARE(shown.groups.size(), std::size_t(3));
    QCOMPARE(shown.metrics.front(), std::string("grounding.json_parse"));
    QCOMPARE(shown.metrics.back(), std::string("ladder.latency_p95"));
    QVERIFY(std::find(shown.metrics.begin(), shown.metrics.end(), "ladder.correct") == shown.metrics.end());
}

void TestModels::proxyUnderModelTester()
{
    LeaderboardModel model;
    ResultsProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setFamily(u"grounding"_s);
    model.setReport(report({ "model" }));
    proxy.sort(model.columnOf("grounding.json_parse"), Qt::DescendingOrder);
    proxy.setFilterText(u"model-b"_s);
    QCOMPARE(proxy.rowCount(), 1);
    proxy.setFilterText({});
    model.setReport(report({ "model", "strategy" }));
    QCOMPARE(proxy.rowCount(), 3);
}

void TestModels::proxyFilter_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QStringList>("models");
    QTest::addRow("empty") << QString() << QStringList({ u"demo/model-a"_s, u"demo/model-b"_s, u"demo/model-c"_s });
    QTest::addRow("one") << u"model-b"_s << QStringList({ u"demo/model-b"_s });
    QTest::addRow("case-insensitive") << u"MODEL-C"_s << QStringList({ u"demo/model-c"_s });
    QTest::addRow("all words") << u"demo  -a"_s << QStringList({ u"demo/model-a"_s });
    QTest::addRow("none") << u"gpt"_s << QStringList();
    // Only key columns are searched, not the numbers.
    QTest::addRow("numbers ignored") << u"0.800"_s << QStringList();
}

void TestModels::proxyFilter()
{
    QFETCH(QString, filter);
    QFETCH(QStringList, models);
    LeaderboardModel model;
    model.setFamily(u"grounding"_s);
    model.setReport(report({ "model" }));
    ResultsProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.sort(0, Qt::AscendingOrder);
    proxy.setFilterText(filter);
    QCOMPARE(columnTexts(proxy, 0), models);
}

void TestModels::proxySort_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<int>("order");
    QTest::addColumn<QStringList>("expected");
    QTest::addRow("parse desc") << u"grounding.json_parse"_s << int(Qt::DescendingOrder)
                                << QStringList({ u"demo/model-c"_s, u"demo/model-a"_s, u"demo/model-b"_s });
    QTest::addRow("parse asc") << u"grounding.json_parse"_s << int(Qt::AscendingOrder)
                               << QStringList({ u"demo/model-b"_s, u"demo/model-a"_s, u"demo/model-c"_s });
    QTest::addRow("latency asc") << u"ladder.latency_p50"_s << int(Qt::AscendingOrder)
                                 << QStringList({ u"demo/model-b"_s, u"demo/model-a"_s, u"demo/model-c"_s });
}

void TestModels::proxySort()
{
    QFETCH(QString, metric);
    QFETCH(int, order);
    QFETCH(QStringList, expected);
    LeaderboardModel model;
    model.setFamily(u"grounding"_s);
    model.setReport(report({ "model" }));
    ResultsProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.sort(model.columnOf(metric.toStdString()), Qt::SortOrder(order));
    QCOMPARE(columnTexts(proxy, 0), expected);
}

void TestModels::proxyPutsMissingValuesLast_data()
{
    QTest::addColumn<int>("order");
    QTest::addColumn<QStringList>("expected");
    QTest::addRow("desc") << int(Qt::DescendingOrder) << QStringList({ u"gamma"_s, u"alpha"_s, u"beta"_s });
    QTest::addRow("asc") << int(Qt::AscendingOrder) << QStringList({ u"alpha"_s, u"gamma"_s, u"beta"_s });
}

void TestModels::proxyPutsMissingValuesLast()
{
    QFETCH(int, order);
    QFETCH(QStringList, expected);
    LeaderboardModel model;
    model.setFamily(u"ladder"_s);
    model.setReport(syntheticReport());
    ResultsProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.sort(model.columnOf("ladder.correct"), Qt::SortOrder(order));
    QCOMPARE(columnTexts(proxy, 0, LeaderboardModel::SortRole), expected);
}

void TestModels::heatmapModelUnderModelTester()
{
    HeatmapModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.columnCount(), 0);
    model.setHeatmap(buildHeatmap(*report({ "model", "category" }), { "model" }, "category", "grounding.json_parse"));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), 3);
    QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), u"Model"_s);
    QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), u"text"_s);
    // model-a × text: 5 of 6, Wilson [0.436, 0.970].
    QCOMPARE(model.index(0, 2).data().toString(), u"0.833  [0.436, 0.970]  · n = 6"_s);
    QCOMPARE(model.index(0, 2).data(HeatmapModel::SortRole).toDouble(), 5.0 / 6.0);
    QCOMPARE(model.index(0, 2).data(HeatmapModel::CountRole).toInt(), 6);
    QCOMPARE(model.index(1, 1).data(HeatmapModel::GroupKeyRole).value<GroupKey>().toString(),
        u"model=demo/model-b, category=image"_s);
    QCOMPARE(model.index(2, 0).data().toString(), u"demo/model-c"_s);
    model.setHeatmap({});
    QCOMPARE(model.rowCount(), 0);
}

void TestModels::heatmapModelThroughTheProxy()
{
    HeatmapModel model;
    ResultsProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setHeatmap(buildHeatmap(*report({ "model", "tier" }), { "model" }, "tier", "grounding.json_parse"));
    // Easy records: invoice-003, invoice-006, receipt-01, receipt-04 → parsed by a 3 of 4, b 2 of 4, c 4.
    proxy.sort(1, Qt::AscendingOrder);
    QCOMPARE(columnTexts(proxy, 0), QStringList({ u"demo/model-b"_s, u"demo/model-a"_s, u"demo/model-c"_s }));
    proxy.setFilterText(u"model-c"_s);
    QCOMPARE(proxy.rowCount(), 1);
}

QTEST_MAIN(TestModels)
#include "tst_models.moc"
