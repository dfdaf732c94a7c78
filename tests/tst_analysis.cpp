// SPDX-License-Identifier: Apache-2.0
// The value functions behind the GUI pages, which need no widgets (core/analysis, core/json): alignment, error sets,
// source highlights, paired comparison, report and heatmap data, group keys, with hand-computed expectations.
#include "analysis/configcomparison.h"
#include "analysis/errorsets.h"
#include "analysis/groupkey.h"
#include "analysis/heatmapdata.h"
#include "analysis/reportdata.h"
#include "analysistestdata.h"
#include "pagestestdata.h"
#include "report/evaluation.h"
#include "report/fieldreport.h"
#include "samplestoredata.h"
#include "store/resultstore.h"
#include "json/jsonalignment.h"
#include "json/sourcehighlights.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

using namespace Qt::StringLiterals;
using namespace std::literals;
using namespace structscope;
using analysistest::fieldReportData;
using analysistest::pairedRecords;
using nlohmann::json;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

class TestAnalysis : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void alignment_data();
    void alignment();
    void alignmentWithoutPrediction();
    void stepDifference_data();
    void stepDifference();
    void errorSetCounts();
    void errorSetsOfTheDemoAddUp();
    void errorRegionText_data();
    void errorRegionText();
    void sourceHighlights();
    void configComparison();
    void reportDataKnowsFamiliesAndMetrics();
    void heatmapFromStore();
    void heatmapOfPlainValuesUsesTheDataRange();
    void heatmapNeedsTheMatchingGrouping();
    void heatmapMissingCell();
    void heatmapSortRows_data();
    void heatmapSortRows();
    void heatmapSortColumns();
    void groupKeyText();
    void topLevelKeys();

private:
    QTemporaryDir m_dir;
    std::optional<Evaluation> m_demo; ///< the demo workspace of pagestestdata.h, scored
    ScoredRecords m_records; ///< the sample store of samplestoredata.h, scored

    ReportDataPtr report(std::vector<std::string> groupBy) const
    {
        AggregateOptions options;
        options.groupBy = std::move(groupBy);
        options.bootstrap.resamples = 200;
        return makeReportData(m_records, options);
    }
};

void TestAnalysis::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const pagestest::DemoStore demo = pagestest::makeDemoStore(m_dir.path());
    QVERIFY2(demo.ok(), qPrintable(demo.error));
    auto store = ResultStore::open(demo.location);
    QVERIFY(store);
    m_demo = evaluateStore(*store);
    QVERIFY2(m_demo->ok(), qPrintable(m_demo->error));
    // 40 cases × 4 models × 2 strategies.
    QCOMPARE(m_demo->records.size(), std::size_t(320));

    QString error;
    const QString location = uitest::makeSampleStore(m_dir.path(), &error);
    QVERIFY2(!location.isEmpty(), qPrintable(error));
    auto sample = ResultStore::open(location, &error);
    QVERIFY2(sample, qPrintable(error));
    Evaluation evaluation = evaluateStore(*sample);
    QVERIFY2(evaluation.ok(), qPrintable(evaluation.error));
    QCOMPARE(evaluation.records.size(), std::size_t(30));
    m_records = std::move(evaluation.records);
}

void TestAnalysis::alignment_data()
{
    QTest::addColumn<QString>("gold");
    QTest::addColumn<QString>("predicted");
    QTest::addColumn<QStringList>("rows"); // "path:mark" in row order

    // Keys in nlohmann's order; the prediction's extra key after gold's keys of the same object.
    QTest::addRow("every kind") << u"{\"a\":1,\"b\":{\"c\":\"x\",\"d\":null},\"e\":[1,2]}"_s
                                << u"{\"a\":\"1\",\"b\":{\"c\":\"y\"},\"e\":[1],\"f\":true}"_s
                                << QStringList { u":"_s, u"a:coercible"_s, u"b:"_s, u"b.c:deviation"_s,
                                       u"b.d:missing_key"_s, u"e:"_s, u"e[0]:"_s, u"e[1]:missing_key"_s,
                                       u"f:extra_key"_s };
    QTest::addRow("missing object") << u"{\"p\":{\"q\":1}}"_s << u"{}"_s
                                    << QStringList { u":"_s, u"p:missing_key"_s, u"p.q:missing_key"_s };
    QTest::addRow("null where gold has values")
        << u"{\"p\":{\"q\":1},\"r\":2}"_s << u"{\"p\":null,\"r\":null}"_s
        << QStringList { u":"_s, u"p:missing_value"_s, u"p.q:missing_value"_s, u"r:missing_value"_s };
    QTest::addRow("invented") << u"{\"x\":null}"_s << u"{\"x\":{\"y\":1}}"_s
                              << QStringList { u":"_s, u"x:invented"_s, u"x.y:"_s };
    QTest::addRow("container met by a primitive")
        << u"{\"o\":{\"k\":1}}"_s << u"{\"o\":5}"_s
        << QStringList { u":"_s, u"o:type_mismatch"_s, u"o.k:type_mismatch"_s };
    QTest::addRow("extra object") << u"{\"a\":1}"_s << u"{\"a\":2,\"z\":{\"w\":[3]}}"_s
                                  << QStringList { u":"_s, u"a:value_error"_s, u"z:extra_key"_s, u"z.w:extra_key"_s,
                                         u"z.w[0]:extra_key"_s };
    QTest::addRow("equal") << u"[1,{\"k\":\"v\"}]"_s << u"[1,{\"k\":\"v\"}]"_s
                           << QStringList { u":"_s, u"[0]:"_s, u"[1]:"_s, u"[1].k:"_s };
}

void TestAnalysis::alignment()
{
    QFETCH(QString, gold);
    QFETCH(QString, predicted);
    QFETCH(QStringList, rows);
    const json g = json::parse(gold.toStdString());
    const json p = json::parse(predicted.toStdString());
    const std::vector<AlignedRow> aligned = alignJson(g, &p, diffJson(g, p));
    QStringList actual;
    for (const AlignedRow& row : aligned)
        actual << QString::fromStdString(row.path) + u':' + QLatin1String(diffMarkId(row.mark));
    QCOMPARE(actual, rows);
    // Every row's pointer names its place, and each side holds its value there.
    for (const AlignedRow& row : aligned) {
        QVERIFY(!row.gold || *row.gold == g.at(json::json_pointer(row.pointer)));
        QVERIFY(!row.predicted || *row.predicted == p.at(json::json_pointer(row.pointer)));
    }
}

void TestAnalysis::alignmentWithoutPrediction()
{
    const json g = { { "a", 1 }, { "b", { 1, 2 } } };
    const std::vector<AlignedRow> rows = alignJson(g, nullptr, {});
    QCOMPARE(rows.size(), std::size_t(5));
    for (const AlignedRow& row : rows) {
        QVERIFY(row.gold);
        QVERIFY(!row.predicted);
        QCOMPARE(int(row.mark), int(DiffMark::Same));
    }
    QCOMPARE(rows[4].pointer, std::string("/b/1"));
    QCOMPARE(rows[4].depth, 2);
    QVERIFY(differenceRows(rows).empty());
}

void TestAnalysis::stepDifference_data()
{
    QTest::addColumn<int>("current");
    QTest::addColumn<bool>("forward");
    QTest::addColumn<int>("expected");
    // Difference rows {1, 3, 4, 7, 8}.
    QTest::addRow("first from nothing") << -1 << true << 1;
    QTest::addRow("next from a plain row") << 5 << true << 7;
    QTest::addRow("next from a difference") << 3 << true << 4;
    QTest::addRow("wraps forward") << 8 << true << 1;
    QTest::addRow("previous") << 7 << false << 4;
    QTest::addRow("previous from a plain row") << 6 << false << 4;
    QTest::addRow("wraps backward") << 1 << false << 8;
}

void TestAnalysis::stepDifference()
{
    QFETCH(int, current);
    QFETCH(bool, forward);
    QFETCH(int, expected);
    QCOMPARE(structscope::stepDifference({ 1, 3, 4, 7, 8 }, current, forward), expected);
    QCOMPARE(structscope::stepDifference({}, current, forward), -1);
}

void TestAnalysis::errorSetCounts()
{
    const auto record = [](const char* model, int mk, int mv, int wv, int extra, bool correct, bool failed) {
        ScoredRecord r;
        r.model = QString::fromLatin1(model);
        r.strategy = u"P"_s;
        r.verdict.rung = failed ? ParseRung::Failed : ParseRung::Clean;
        r.verdict.schemaValid = !failed;
        DiffCounts& d = r.verdict.extraction.strict.diff;
        d.mk = mk;
        d.mv = mv;
        d.wvValue = wv;
        d.extra = extra;
        r.verdict.extraction.correct = correct;
        r.verdict.extraction.failed = failed;
        return r;
    };
    const std::vector<ScoredRecord> records
        = { record("m", 0, 0, 0, 0, true, false), record("m", 0, 0, 0, 0, false, true),
              record("m", 1, 0, 0, 0, false, false), record("m", 2, 1, 0, 0, false, false),
              record("m", 0, 0, 3, 0, false, false), record("m", 0, 0, 0, 1, false, false),
              record("m", 1, 1, 1, 0, false, false), record("n", 0, 1, 0, 0, false, false) };
    const std::vector<ErrorSetCounts> groups = countErrorSets(
        records, { "model" }, { ErrorLabel::MissingKey, ErrorLabel::MissingValue, ErrorLabel::WrongValue });
    QCOMPARE(groups.size(), std::size_t(2));
    const ErrorSetCounts& m = groups[0];
    QCOMPARE(m.n, 7);
    QCOMPARE(m.perfect, 1);
    QCOMPARE(m.failed, 1);
    QCOMPARE(m.nErr(), 5);
    QCOMPARE(m.region(1), 1); // MK only
    QCOMPARE(m.region(3), 1); // MK and MV
    QCOMPARE(m.region(4), 1); // WV only
    QCOMPARE(m.region(7), 1); // all three
    QCOMPARE(m.region(0), 1); // an extra key only
    QCOMPARE(m.region(2), 0);
    QCOMPARE(m.setSize(0), 3);
    QCOMPARE(groups[1].region(2), 1);
    QCOMPARE(m.regionKey(3).toString(), u"model=m, errors=+mk+mv-wv"_s);
    // A region's filter picks exactly the records counted in it.
    const ErrorRegion region = ErrorRegion::of(m.labels, 3);
    QCOMPARE(
        std::count_if(records.begin(), records.end(), [&](const ScoredRecord& r) { return region.matches(r); }), 1);
}

void TestAnalysis::errorSetsOfTheDemoAddUp()
{
    for (const std::vector<ErrorLabel>& labels : std::vector<std::vector<ErrorLabel>> {
             { ErrorLabel::MissingKey, ErrorLabel::MissingValue, ErrorLabel::WrongValue },
             { ErrorLabel::Deviation, ErrorLabel::ExtraKey },
             { ErrorLabel::MissingKey, ErrorLabel::MissingValue, ErrorLabel::WrongValue, ErrorLabel::ExtraKey,
                 ErrorLabel::Invented } }) {
        const std::vector<ErrorSetCounts> groups = countErrorSets(m_demo->records, { "model", "strategy" }, labels);
        QCOMPARE(groups.size(), std::size_t(8));
        int errors = 0;
        for (const ErrorSetCounts& g : groups) {
            int sum = 0;
            for (const auto& [mask, count] : g.regions) {
                sum += count;
                // The drill-down of the region finds exactly its records.
                const ErrorRegion region = ErrorRegion::of(labels, mask);
                const auto found
                    = std::count_if(m_demo->records.begin(), m_demo->records.end(), [&](const ScoredRecord& r) {
                          return groupValue(r, "model") == g.key.parts[0].second
                              && groupValue(r, "strategy") == g.key.parts[1].second && region.matches(r);
                      });
                QCOMPARE(int(found), count);
            }
            QCOMPARE(sum, g.nErr());
            QCOMPARE(g.n, 40);
            errors += g.nErr();
        }
        QVERIFY2(errors > 20, "the demo's models make errors");
    }
}

void TestAnalysis::errorRegionText_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addRow("three") << u"+mk-mv+wv"_s << true;
    QTest::addRow("sub-types") << u"+wv_deviation-extra+schema+invented"_s << true;
    QTest::addRow("empty") << QString() << false;
    QTest::addRow("no sign") << u"mk+mv"_s << false;
    QTest::addRow("unknown label") << u"+mk+nope"_s << false;
}

void TestAnalysis::errorRegionText()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    const std::optional<ErrorRegion> region = ErrorRegion::parse(text);
    QCOMPARE(region.has_value(), valid);
    if (region)
        QCOMPARE(region->toString(), text);
}

void TestAnalysis::sourceHighlights()
{
    //                    0         1         2         3         4
    //                    0123456789012345678901234567890123456789012345
    const QString text = u"Call Anna at noon; anna's id is 42, not 142."_s;
    const std::vector<TextSpan> spans
        = findValueSpans(text, { { u"Anna"_s, 0 }, { u"42"_s, 1 }, { u"a"_s, 2 }, { u"noon"_s, 3 } });
    // "anna" in "anna's" is a whole word; "42" inside "142" is not; "a" is too short for a string.
    const std::vector<TextSpan> expected = { { 5, 4, 0 }, { 13, 4, 3 }, { 19, 4, 0 }, { 32, 2, 1 } };
    QCOMPARE(spans.size(), expected.size());
    for (std::size_t i = 0; i < spans.size(); ++i)
        QVERIFY2(spans[i] == expected[i], qPrintable(u"span %1 at %2"_s.arg(i).arg(spans[i].start)));
    // An earlier needle wins where two overlap.
    const std::vector<TextSpan> overlap = findValueSpans(u"Anna Lee"_s, { { u"Anna Lee"_s, 1 }, { u"Lee"_s, 2 } });
    QCOMPARE(overlap.size(), std::size_t(1));
    QCOMPARE(overlap[0].tag, 1);
    QCOMPARE(searchTextOf(json(42)), u"42"_s);
    QCOMPARE(searchTextOf(json(true)), u"true"_s);
    QVERIFY(searchTextOf(json(nullptr)).isEmpty());
}

void TestAnalysis::configComparison()
{
    // Rates 3/5 and 4/5 → Δ = +20 points; b = 1 (case 2), c = 2 (cases 3, 4);
    // McNemar p = min(1, 2·(C(3,0) + C(3,1))/2³) = 1. Case 6 only A answered: left out.
    const std::vector<ScoredRecord> records = pairedRecords();
    const ConfigComparison result
        = compareConfigurations(records, { u"m"_s, u"P"_s }, { u"m"_s, u"PJ+"_s }, "ladder.correct");
    QVERIFY2(result.ok(), qPrintable(result.error + result.stats.error));
    QVERIFY(result.rate);
    QCOMPARE(result.stats.n, qint64(5));
    QCOMPARE(result.stats.meanA, 0.6);
    QCOMPARE(result.stats.meanB, 0.8);
    QVERIFY(qAbs(result.stats.deltaPoints - 20.0) < 1e-9);
    QVERIFY(result.stats.deltaCiPoints.isValid());
    QCOMPARE(result.stats.b, qint64(1));
    QCOMPARE(result.stats.c, qint64(2));
    QCOMPARE(result.stats.pValue, 1.0);
    QCOMPARE(result.onlyA, 1);
    QCOMPARE(result.onlyB, 0);
    QCOMPARE(result.discordant.size(), std::size_t(3));
    QCOMPARE(result.discordant[0].caseId, u"c2"_s);
    QCOMPARE(result.discordant[0].refB.strategy, u"PJ+"_s);
    QCOMPARE(configurationsOf(records).size(), std::size_t(2));
    QCOMPARE(comparableMetrics(records), std::vector<std::string> { "ladder.correct" });
    // A metric that is not per record is refused with a message.
    QVERIFY(!compareConfigurations(records, { u"m"_s, u"P"_s }, { u"m"_s, u"PJ+"_s }, "extraction.f1_micro").ok());
}

void TestAnalysis::reportDataKnowsFamiliesAndMetrics()
{
    const ReportDataPtr data = report({ "model" });
    QCOMPARE(data->families(), QStringList({ u"ladder"_s, u"grounding"_s }));
    const auto grounding = data->scoreMetrics(u"grounding"_s);
    QVERIFY(std::find(grounding.begin(), grounding.end(), "grounding.json_parse") != grounding.end());
    // Latency and cost are columns of their own, never "scores".
    const auto ladder = data->scoreMetrics(u"ladder"_s);
    QVERIFY(std::find(ladder.begin(), ladder.end(), "ladder.latency_p50") == ladder.end());
    QVERIFY(std::find(ladder.begin(), ladder.end(), "ladder.correct") != ladder.end());
}

void TestAnalysis::heatmapFromStore()
{
    const HeatmapData heatmap
        = buildHeatmap(*report({ "model", "category" }), { "model" }, "category", "grounding.json_parse");
    QCOMPARE(heatmap.rowLabels, QStringList({ u"demo/model-a"_s, u"demo/model-b"_s, u"demo/model-c"_s }));
    QCOMPARE(heatmap.columnLabels, QStringList({ u"image"_s, u"text"_s }));
    // model-a: image 3 of 4, text 5 of 6; model-b: 2 of 4 and 3 of 6; model-c: all.
    QCOMPARE(heatmap.cell(0, 0).value, 0.75);
    QCOMPARE(heatmap.cell(0, 1).value, 5.0 / 6.0);
    QCOMPARE(heatmap.cell(1, 0).value, 0.5);
    QCOMPARE(heatmap.cell(1, 1).value, 0.5);
    QCOMPARE(heatmap.cell(2, 1).value, 1.0);
    QCOMPARE(heatmap.cell(0, 0).n, 4);
    QCOMPARE(heatmap.cell(0, 1).n, 6);
    QVERIFY(std::abs(heatmap.cell(0, 1).ci.low - 0.43649717781352987) < 1e-12);
    QCOMPARE(heatmap.rows[1].value("model"), std::optional<QString>(u"demo/model-b"_s));
    QCOMPARE(heatmap.minimum, 0.0);
    QCOMPARE(heatmap.maximum, 1.0);
    QVERIFY(heatmap.higherIsBetter);
}

void TestAnalysis::heatmapOfPlainValuesUsesTheDataRange()
{
    const HeatmapData heatmap
        = buildHeatmap(*report({ "model", "category" }), { "model" }, "category", "ladder.latency_p50");
    QCOMPARE(heatmap.minimum, 400.0);
    QCOMPARE(heatmap.maximum, 1500.0);
    QVERIFY(!heatmap.higherIsBetter);
}

void TestAnalysis::heatmapNeedsTheMatchingGrouping()
{
    QVERIFY(buildHeatmap(*report({ "model" }), { "model" }, "category", "grounding.json_parse").isEmpty());
}

void TestAnalysis::heatmapMissingCell()
{
    auto data = std::make_shared<ReportData>();
    data->report.groupBy = { "model", "tier" };
    data->report.metrics = { "ladder.correct" };
    ReportGroup a;
    a.key = { { "model", "a" }, { "tier", "easy" } };
    a.mean["ladder.correct"] = 0.5;
    ReportGroup b;
    b.key = { { "model", "b" }, { "tier", "hard" } };
    b.mean["ladder.correct"] = 0.25;
    data->report.groups = { a, b };
    const HeatmapData heatmap = buildHeatmap(*data, { "model" }, "tier", "ladder.correct");
    QCOMPARE(heatmap.rowCount(), 2);
    QCOMPARE(heatmap.columnCount(), 2);
    QVERIFY(std::isnan(heatmap.cell(0, 1).value));
    QVERIFY(std::isnan(heatmap.cell(1, 0).value));
    QCOMPARE(heatmap.cell(0, 1).n, 0);
    QCOMPARE(heatmap.rowMean(0), 0.5);
    QCOMPARE(heatmap.columnMean(1), 0.25);
}

void TestAnalysis::heatmapSortRows_data()
{
    QTest::addColumn<int>("by");
    QTest::addColumn<QString>("line");
    QTest::addColumn<int>("order");
    QTest::addColumn<QStringList>("expected");
    // rows: r1 = [0.2, NaN], r2 = [0.9, 0.1], r3 = [0.5, 0.7]; means 0.2, 0.5, 0.6.
    QTest::addRow("label desc") << int(HeatmapSort::By::Label) << QString() << int(Qt::DescendingOrder)
                                << QStringList({ u"r3"_s, u"r2"_s, u"r1"_s });
    QTest::addRow("mean desc") << int(HeatmapSort::By::Mean) << QString() << int(Qt::DescendingOrder)
                               << QStringList({ u"r3"_s, u"r2"_s, u"r1"_s });
    QTest::addRow("mean asc") << int(HeatmapSort::By::Mean) << QString() << int(Qt::AscendingOrder)
                              << QStringList({ u"r1"_s, u"r2"_s, u"r3"_s });
    QTest::addRow("column x desc") << int(HeatmapSort::By::Line) << u"x"_s << int(Qt::DescendingOrder)
                                   << QStringList({ u"r2"_s, u"r3"_s, u"r1"_s });
    QTest::addRow("column y asc, NaN last") << int(HeatmapSort::By::Line) << u"y"_s << int(Qt::AscendingOrder)
                                            << QStringList({ u"r2"_s, u"r3"_s, u"r1"_s });
    QTest::addRow("column y desc, NaN last") << int(HeatmapSort::By::Line) << u"y"_s << int(Qt::DescendingOrder)
                                             << QStringList({ u"r3"_s, u"r2"_s, u"r1"_s });
    QTest::addRow("unknown column: unchanged") << int(HeatmapSort::By::Line) << u"z"_s << int(Qt::AscendingOrder)
                                               << QStringList({ u"r1"_s, u"r2"_s, u"r3"_s });
}

void TestAnalysis::heatmapSortRows()
{
    QFETCH(int, by);
    QFETCH(QString, line);
    QFETCH(int, order);
    QFETCH(QStringList, expected);
    HeatmapData heatmap;
    heatmap.rowLabels = { u"r1"_s, u"r2"_s, u"r3"_s };
    heatmap.rows = { GroupKey { { { "model", "r1" } } }, GroupKey { { { "model", "r2" } } },
        GroupKey { { { "model", "r3" } } } };
    heatmap.columnLabels = { u"x"_s, u"y"_s };
    heatmap.columnValues = heatmap.columnLabels;
    for (double v : { 0.2, kNaN, 0.9, 0.1, 0.5, 0.7 })
        heatmap.cells.push_back({ v, {}, 1 });
    heatmap.sortRows({ HeatmapSort::By(by), line, Qt::SortOrder(order) });
    QCOMPARE(heatmap.rowLabels, expected);
    // Cells and keys move with their row.
    for (int r = 0; r < 3; ++r)
        QCOMPARE(heatmap.rows[std::size_t(r)].value("model"), std::optional<QString>(expected[r]));
    const int r2 = int(heatmap.rowLabels.indexOf(u"r2"_s));
    QCOMPARE(heatmap.cell(r2, 0).value, 0.9);
    QCOMPARE(heatmap.cell(r2, 1).value, 0.1);
}

void TestAnalysis::heatmapSortColumns()
{
    HeatmapData heatmap;
    heatmap.rowLabels = { u"r1"_s, u"r2"_s };
    heatmap.rows = { GroupKey { { { "model", "r1" } } }, GroupKey { { { "model", "r2" } } } };
    heatmap.columnLabels = { u"a"_s, u"b"_s, u"c"_s };
    heatmap.columnValues = { u"a"_s, u""_s, u"c"_s };
    for (double v : { 0.1, 0.9, 0.5, 0.3, 0.8, kNaN })
        heatmap.cells.push_back({ v, {}, 1 });
    heatmap.sortColumns({ HeatmapSort::By::Line, u"r1"_s, Qt::DescendingOrder });
    QCOMPARE(heatmap.columnLabels, QStringList({ u"b"_s, u"c"_s, u"a"_s }));
    QCOMPARE(heatmap.columnValues, QStringList({ u""_s, u"c"_s, u"a"_s }));
    QCOMPARE(heatmap.cell(1, 0).value, 0.8);
    QVERIFY(std::isnan(heatmap.cell(1, 1).value));
    heatmap.sortColumns({ HeatmapSort::By::Mean, {}, Qt::AscendingOrder });
    // Means: a 0.2, b 0.85, c 0.5.
    QCOMPARE(heatmap.columnLabels, QStringList({ u"a"_s, u"c"_s, u"b"_s }));
}

void TestAnalysis::groupKeyText()
{
    const GroupKey key { { { "model", "gpt-x" }, { "strategy", "" } } };
    QCOMPARE(key.label(), u"gpt-x · —"_s);
    QCOMPARE(key.toString(), u"model=gpt-x, strategy="_s);
    QCOMPARE(key.with("category", "receipts").toString(), u"model=gpt-x, strategy=, category=receipts"_s);
    QCOMPARE(key.value("tier"), std::nullopt);
}

void TestAnalysis::topLevelKeys()
{
    QCOMPARE(fieldRoot("items[].sku"), "items"s);
    QCOMPARE(fieldRoot("customer.address.city"), "customer"s);
    QCOMPARE(fieldRoot("note"), "note"s);
    QCOMPARE(fieldRoot("[].a"), "[]"s);
    // By top-level key, A: customer 2 values right, items 1 of 4, note 1 of 2.
    const ReportData data = fieldReportData({ "model", "field_root" });
    const HeatmapData heatmap = buildHeatmap(data, { "model" }, "field_root", "field.accuracy");
    QCOMPARE(heatmap.columnLabels, QStringList({ u"customer"_s, u"items"_s, u"note"_s }));
    QCOMPARE(heatmap.cell(0, 1).value, 0.25);
    QCOMPARE(heatmap.cell(0, 1).n, 2);
}

QTEST_GUILESS_MAIN(TestAnalysis)
#include "tst_analysis.moc"
