// SPDX-License-Identifier: Apache-2.0
// The item models behind the pages of the second workbench issue (Cases, diff view, Errors, Audit,
// Compare): every model and proxy of those pages under QAbstractItemModelTester, on synthetic values
// and on the demo workspace of pagestestdata.h. The pages themselves are tested in tst_pages.
#include "analysis/casedetail.h"
#include "analysis/configcomparison.h"
#include "analysis/errorsets.h"
#include "analysistestdata.h"
#include "models/auditqueuemodel.h"
#include "models/casesmodel.h"
#include "models/casesproxymodel.h"
#include "models/diffrowsmodel.h"
#include "models/discordantmodel.h"
#include "models/failureoverlapsmodel.h"
#include "models/pairmatrixmodel.h"
#include "pagestestdata.h"
#include "report/evaluation.h"
#include "json/jsonalignment.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QElapsedTimer>
#include <QFont>
#include <QPalette>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace Qt::StringLiterals;
using namespace structscope;
using nlohmann::json;

namespace {

using analysistest::pairedRecords;

constexpr auto kReport = QAbstractItemModelTester::FailureReportingMode::QtTest;

QStringList columnTexts(const QAbstractItemModel& model, int c, int role = Qt::DisplayRole)
{
    QStringList texts;
    for (int row = 0; row < model.rowCount(); ++row)
        texts << model.index(row, c).data(role).toString();
    return texts;
}

// ladder.correct of three models under strategy P on 13 cases, as in tst_report's pair matrix:
//   c01-c05 a wrong, b right, c right; c06-c08 only c right; c09 only b right; c10-c11 all right; c12-c13 all wrong.
// Pairs (B − A): a–b Δ = (8 − 2)/13 = +46.2 points, McNemar p = 2/2⁶ = 0.03125; a–c Δ = (10 − 2)/13 = +61.5,
// p = 2/2⁸ = 0.0078125; b–c Δ = (10 − 8)/13 = +15.4, p = 2·(1 + 4)/2⁴ = 0.625.
// Holm: 0.0625, 0.0234375, 0.625 (a–c significant); BH: 0.046875, 0.0234375, 0.625 (a–b and a–c).
std::vector<ScoredRecord> threeConfigurationRecords()
{
    static const int rows[13][3] = { { 0, 1, 1 }, { 0, 1, 1 }, { 0, 1, 1 }, { 0, 1, 1 }, { 0, 1, 1 }, { 0, 0, 1 },
        { 0, 0, 1 }, { 0, 0, 1 }, { 0, 1, 0 }, { 1, 1, 1 }, { 1, 1, 1 }, { 0, 0, 0 }, { 0, 0, 0 } };
    std::vector<ScoredRecord> records;
    for (int c = 0; c < 13; ++c) {
        for (int m = 0; m < 3; ++m) {
            ScoredRecord r;
            r.suite = u"s"_s;
            r.model = QString(QChar(u'a' + m));
            r.strategy = u"P"_s;
            r.caseId = u"c%1"_s.arg(c + 1, 2, 10, QChar(u'0'));
            const bool correct = rows[c][m] == 1;
            r.verdict.ladder = correct ? LadderLabel::Correct : LadderLabel::ValueIncorrect;
            r.verdict.values.emplace_back("ladder.correct", correct ? 1.0 : 0.0);
            records.push_back(r);
        }
    }
    return records;
}

} // namespace

class TestPageModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void casesModel();
    void erroredSlotsAreListedNotScored();
    void casesProxyFilters_data();
    void casesProxyFilters();
    void casesProxySortsMissingLast();
    void casesProxyOnALargeSet();
    void diffRowsModel();
    void parseEditText_data();
    void parseEditText();
    void auditQueueModel();
    void discordantModel();
    void failureOverlapModels();
    void pairMatrixModel();

private:
    QTemporaryDir m_dir;
    ScoredSetPtr m_demo;
    CaseTexts m_inputs;
};

void TestPageModels::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const pagestest::DemoStore demo = pagestest::makeDemoStore(m_dir.path());
    QVERIFY2(demo.ok(), qPrintable(demo.error));
    auto store = ResultStore::open(demo.location);
    QVERIFY(store);
    Evaluation evaluation = evaluateStore(*store);
    QVERIFY2(evaluation.ok(), qPrintable(evaluation.error));
    // 40 cases × 4 models × 2 strategies.
    QCOMPARE(evaluation.records.size(), std::size_t(320));
    auto set = std::make_shared<ScoredSet>();
    set->records = std::move(evaluation.records);
    m_demo = set;
    m_inputs = std::make_shared<const QHash<QString, QString>>(loadCaseTexts(*store));
    QCOMPARE(m_inputs->size(), 40);
}

void TestPageModels::casesModel()
{
    CasesModel model;
    QAbstractItemModelTester tester(&model, kReport);
    CasesProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester proxyTester(&proxy, kReport);
    model.setRecords(m_demo);
    QCOMPARE(model.rowCount(), 320);
    QCOMPARE(model.columnCount(), int(CasesModel::ColumnCount));
    model.setInputs(m_inputs);
    const ScoredRecord& first = m_demo->records.front();
    QCOMPARE(model.index(0, CasesModel::Case).data().toString(), first.caseId);
    QCOMPARE(model.index(0, CasesModel::Model).data(CasesModel::SortRole).toString(), first.model);
    QVERIFY(model.index(0, CasesModel::Model).data().toString().contains(u"sim"_s));
    QCOMPARE(model.index(0, CasesModel::Verdict).data(CasesModel::SortRole).toString(),
        QString::fromLatin1(ladderLabelId(first.verdict.ladder)));
    QCOMPARE(model.index(0, CasesModel::Latency).data(CasesModel::SortRole).toDouble(), *first.latencyMs);
    QVERIFY(!model.index(0, CasesModel::Case).data(CasesModel::InputRole).toString().isEmpty());
    QCOMPARE(model.index(0, CasesModel::Case).data(CasesModel::ErrorFlagsRole).toUInt(), errorFlags(first));
    proxy.sort(CasesModel::Latency, Qt::DescendingOrder);
    proxy.setSearchText(u"the"_s);
    proxy.setFilter(CaseFilter::fromGroupKey(GroupKey { { { "model", "sim:sloppy" } } }));
    QCOMPARE(proxy.rowCount(), 80);
    model.setRecords(nullptr);
    QCOMPARE(proxy.rowCount(), 0);

    // The error summary: counts from the strict diff; bulk scoring lists no schema errors, so "schema" alone.
    ScoredRecord invalid = first;
    invalid.verdict.rung = ParseRung::Clean;
    invalid.verdict.extraction = {};
    invalid.verdict.extraction.strict.diff.mk = 2;
    invalid.verdict.schemaValid = false;
    invalid.verdict.schemaErrors.clear();
    QCOMPARE(CasesModel::errorSummary(invalid), u"MK 2 · schema"_s);
    invalid.verdict.schemaErrors = { { "/a", "required" }, { "/b", "type" } };
    QCOMPARE(CasesModel::errorSummary(invalid), u"MK 2 · schema 2"_s);
}

void TestPageModels::erroredSlotsAreListedNotScored()
{
    // The paired records with B's case 2 (wrong) and case 4 (right) errored: a timeout and a malformed body. Their
    // verdicts are an empty answer's; they count in no comparison and no error set, and the Cases page lists them.
    std::vector<ScoredRecord> records = pairedRecords();
    for (ScoredRecord& r : records) {
        if (r.strategy == u"PJ+"_s && (r.caseId == u"c2"_s || r.caseId == u"c4"_s)) {
            r.error = r.caseId == u"c2"_s ? ErrorKind::Timeout : ErrorKind::MalformedBody;
            r.verdict.ladder = LadderLabel::InvalidJson;
            r.verdict.rung = ParseRung::Failed;
            r.verdict.extraction = {};
            r.verdict.extraction.failed = true;
            r.verdict.extraction.strict.diff.mk = 2;
            r.verdict.values = { { "ladder.correct", 0.0 } };
        }
    }
    // Pairs: cases 1, 3 and 5 (A right on 1 and 5; B on all three); 2 and 4 only A answered.
    const ConfigComparison result
        = compareConfigurations(records, { u"m"_s, u"P"_s }, { u"m"_s, u"PJ+"_s }, "ladder.correct");
    QVERIFY2(result.ok(), qPrintable(result.error + result.stats.error));
    QCOMPARE(result.stats.n, qint64(3));
    QVERIFY(qAbs(result.stats.meanA - 2.0 / 3) < 1e-12);
    QCOMPARE(result.stats.meanB, 1.0);
    QCOMPARE(result.stats.b, qint64(0));
    QCOMPARE(result.stats.c, qint64(1));
    QCOMPARE(result.onlyA, 3);
    QCOMPARE(result.onlyB, 0);

    // Error sets: B's group has three answers, all perfect, and two errored slots in none of its counts.
    for (ScoredRecord& r : records)
        r.verdict.extraction.correct = r.verdict.ladder == LadderLabel::Correct;
    const std::vector<ErrorSetCounts> sets
        = countErrorSets(records, { "strategy" }, { ErrorLabel::MissingKey, ErrorLabel::WrongValue });
    QCOMPARE(sets.size(), std::size_t(2));
    const ErrorSetCounts& b = sets[1];
    QCOMPARE(b.key.toString(), u"strategy=PJ+"_s);
    QCOMPARE(b.n, 3);
    QCOMPARE(b.errored, 2);
    QCOMPARE(b.failed, 0);
    QCOMPARE(b.perfect, 3);
    QCOMPARE(sets[0].errored, 0);

    // The Cases page: verdict "errored", the error kind where the error summary goes; a filter of its own.
    auto set = std::make_shared<ScoredSet>();
    set->records = ScoredRecords(std::vector<ScoredRecord>(records));
    CasesModel model;
    QAbstractItemModelTester tester(&model, kReport);
    model.setRecords(set);
    int timeoutRow = -1;
    int malformedRow = -1;
    for (int row = 0; row < model.rowCount(); ++row) {
        const ScoredRecord* r = model.recordAt(row);
        if (r->error == ErrorKind::Timeout)
            timeoutRow = row;
        if (r->error == ErrorKind::MalformedBody)
            malformedRow = row;
    }
    QVERIFY(timeoutRow >= 0 && malformedRow >= 0);
    QCOMPARE(model.index(timeoutRow, CasesModel::Verdict).data().toString(), u"errored"_s);
    QCOMPARE(model.index(timeoutRow, CasesModel::Verdict).data(CasesModel::SortRole).toString(), u"errored"_s);
    QCOMPARE(model.index(timeoutRow, CasesModel::Errors).data().toString(), u"timeout"_s);
    QCOMPARE(model.index(malformedRow, CasesModel::Errors).data().toString(), u"malformed_body"_s);
    QVERIFY(
        model.index(malformedRow, CasesModel::Verdict).data(Qt::ToolTipRole).toString().contains(u"malformed_body"_s));
    QCOMPARE(model.index(malformedRow, CasesModel::Case).data(CasesModel::ErrorFlagsRole).toUInt(), 0u);
    CasesProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setFilter(CaseFilter::fromGroupKey(GroupKey { { { "verdict", "errored" } } }));
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setFilter(CaseFilter::fromGroupKey(GroupKey { { { "verdict", "invalid_json" } } }));
    QCOMPARE(proxy.rowCount(), 0); // the errored slots' verdicts are no answer's
    proxy.setFilter(CaseFilter::fromGroupKey(GroupKey { { { "error", "mk" } } }));
    QCOMPARE(proxy.rowCount(), 0);
}

void TestPageModels::casesProxyFilters_data()
{
    QTest::addColumn<QStringList>("key"); // "part=value"
    QTest::addColumn<QString>("search");
    QTest::addColumn<int>("rows");
    // 40 cases (8 per category) × 4 models × 2 strategies; the oracle answers every case exactly.
    QTest::addRow("everything") << QStringList() << QString() << 320;
    QTest::addRow("one model") << QStringList { u"model=sim:oracle"_s } << QString() << 80;
    QTest::addRow("model and strategy") << QStringList { u"model=sim:oracle"_s, u"strategy=P"_s } << QString() << 40;
    QTest::addRow("one case") << QStringList { u"suite=email-extraction"_s, u"case=st-001"_s } << QString() << 8;
    QTest::addRow("category and strategy")
        << QStringList { u"category=sick_leave"_s, u"strategy=PJ+"_s } << QString() << 32;
    QTest::addRow("repeat") << QStringList { u"repeat=0"_s } << QString() << 320;
    QTest::addRow("another repeat") << QStringList { u"repeat=1"_s } << QString() << 0;
    QTest::addRow("oracle correct") << QStringList { u"model=sim:oracle"_s, u"verdict=correct"_s } << QString() << 80;
    QTest::addRow("oracle in an error region")
        << QStringList { u"model=sim:oracle"_s, u"errors=+mk-mv-wv"_s } << QString() << 0;
    QTest::addRow("oracle with an error label")
        << QStringList { u"model=sim:oracle"_s, u"error=wv"_s } << QString() << 0;
    // st-001's email gives the asset tag NB-20417; no other case mentions it.
    QTest::addRow("search") << QStringList() << u"nb-20417"_s << 8;
    QTest::addRow("search two words") << QStringList() << u"Marta keyboard"_s << 8;
    QTest::addRow("search and filter") << QStringList { u"model=sim:careful"_s } << u"NB-20417"_s << 2;
    QTest::addRow("search a case id") << QStringList() << u"st-002"_s << 8;
}

void TestPageModels::casesProxyFilters()
{
    QFETCH(QStringList, key);
    QFETCH(QString, search);
    QFETCH(int, rows);
    CasesModel model;
    model.setRecords(m_demo);
    model.setInputs(m_inputs);
    CasesProxyModel proxy;
    QAbstractItemModelTester tester(&proxy, kReport);
    proxy.setSourceModel(&model);
    GroupKey groupKey;
    for (const QString& part : key)
        groupKey.parts.emplace_back(part.section(u'=', 0, 0).toStdString(), part.section(u'=', 1).toStdString());
    proxy.setFilter(CaseFilter::fromGroupKey(groupKey));
    proxy.setSearchText(search);
    QCOMPARE(proxy.rowCount(), rows);
    // Every shown row satisfies the filter.
    for (int row = 0; row < proxy.rowCount(); ++row) {
        const int source = proxy.mapToSource(proxy.index(row, 0)).row();
        QVERIFY(proxy.filter().matches(*model.recordAt(source), model.inputAt(source)));
    }
}

void TestPageModels::casesProxySortsMissingLast()
{
    auto set = std::make_shared<ScoredSet>();
    std::vector<ScoredRecord> records;
    for (const std::optional<double> latency :
        { std::optional<double>(300), std::optional<double>(), std::optional<double>(100) }) {
        ScoredRecord r;
        r.caseId = u"c%1"_s.arg(records.size());
        r.latencyMs = latency;
        records.push_back(r);
    }
    set->records = ScoredRecords(std::move(records));
    CasesModel model;
    model.setRecords(set);
    CasesProxyModel proxy;
    QAbstractItemModelTester tester(&proxy, kReport);
    proxy.setSourceModel(&model);
    proxy.sort(CasesModel::Latency, Qt::AscendingOrder);
    QCOMPARE(columnTexts(proxy, CasesModel::Case), (QStringList { u"c2"_s, u"c0"_s, u"c1"_s }));
    proxy.sort(CasesModel::Latency, Qt::DescendingOrder);
    QCOMPARE(columnTexts(proxy, CasesModel::Case), (QStringList { u"c0"_s, u"c2"_s, u"c1"_s }));
    QCOMPARE(proxy.index(2, CasesModel::Latency).data().toString(), u"—"_s);
}

void TestPageModels::casesProxyOnALargeSet()
{
    // 96,000 responses (the demo's 320 as 300 repeats): filtering and searching stay interactive.
    auto large = std::make_shared<ScoredSet>();
    std::vector<ScoredRecord> records;
    records.reserve(m_demo->records.size() * 300);
    for (int repeat = 0; repeat < 300; ++repeat) {
        for (ScoredRecord r : m_demo->records) {
            r.repeat = repeat;
            records.push_back(std::move(r));
        }
    }
    large->records = ScoredRecords(std::move(records));
    CasesModel model;
    model.setRecords(large);
    model.setInputs(m_inputs);
    CasesProxyModel proxy;
    proxy.setSourceModel(&model);
    QElapsedTimer timer;
    timer.start();
    proxy.setFilter(CaseFilter::fromGroupKey(GroupKey { { { "model", "sim:sloppy" } } }));
    const int filtered = proxy.rowCount();
    const qint64 filterMs = timer.restart();
    QCOMPARE(filtered, 24000);
    proxy.setSearchText(u"keyboard Marta"_s);
    const int searched = proxy.rowCount();
    const qint64 searchMs = timer.restart();
    QCOMPARE(searched, 600); // st-001 × sim:sloppy × 2 strategies × 300 repeats
    proxy.setSearchText({});
    proxy.sort(CasesModel::Latency, Qt::DescendingOrder);
    const int sorted = proxy.rowCount();
    const qint64 sortMs = timer.elapsed();
    QCOMPARE(sorted, 24000);
    qInfo("96,000 responses: filter by model %lld ms, search two words %lld ms, unsearch + sort by latency %lld ms",
        filterMs, searchMs, sortMs);
}

void TestPageModels::diffRowsModel()
{
    const json g = json::parse("{\"a\":1,\"b\":{\"c\":\"x\",\"d\":null},\"e\":[1,2]}");
    const json p = json::parse("{\"a\":\"1\",\"b\":{\"c\":\"y\"},\"e\":[1],\"f\":true}");
    DiffRowsModel model;
    QAbstractItemModelTester tester(&model, kReport);
    model.setRows(alignJson(g, &p, diffJson(g, p)));
    QCOMPARE(model.rowCount(), 9);
    QCOMPARE(model.index(0, DiffRowsModel::Gold).data().toString(), u"{ 3 keys }"_s);
    QCOMPARE(model.index(1, DiffRowsModel::Key).data().toString(), u"  a"_s);
    QCOMPARE(model.index(1, DiffRowsModel::Prediction).data().toString(), u"\"1\""_s);
    QCOMPARE(model.index(8, DiffRowsModel::Gold).data().toString(), QString());
    QCOMPARE(model.index(1, 0).data(DiffRowsModel::MarkRole).toInt(), int(DiffMark::Coercible));
    QVERIFY(model.index(1, 0).data(Qt::BackgroundRole).value<QColor>().isValid());
    QVERIFY(!model.index(2, 0).data(Qt::BackgroundRole).isValid());
    QCOMPARE(model.rowOfPointer("/b/c"), 3);
    QCOMPARE(model.rowOfPointer("/f"), 8);

    // Editing is off until the gold shown is the current one; then leaves only.
    QVERIFY(!(model.flags(model.index(1, DiffRowsModel::Gold)) & Qt::ItemIsEditable));
    model.setEditable(true);
    QVERIFY(model.flags(model.index(1, DiffRowsModel::Gold)) & Qt::ItemIsEditable);
    QVERIFY(!(model.flags(model.index(2, DiffRowsModel::Gold)) & Qt::ItemIsEditable));
    QVERIFY(!(model.flags(model.index(1, DiffRowsModel::Prediction)) & Qt::ItemIsEditable));
    QSignalSpy requested(&model, &DiffRowsModel::goldEditRequested);
    // The model hands the edit on and shows the old value until the store has it.
    QVERIFY(!model.setData(model.index(1, DiffRowsModel::Gold), u"7"_s));
    QCOMPARE(requested.size(), 1);
    QCOMPARE(requested[0][0].toString(), u"/a"_s);
    QVERIFY(requested[0][1].value<json>() == json(7));
    QCOMPARE(model.index(1, DiffRowsModel::Gold).data().toString(), u"1"_s);
    QVERIFY(!model.setData(model.index(1, DiffRowsModel::Gold), u"1"_s)); // unchanged: nothing to do
    QCOMPARE(requested.size(), 1);
}

void TestPageModels::parseEditText_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("json");
    QTest::addRow("number") << u"42"_s << u"42"_s;
    QTest::addRow("quoted string") << u"\"x y\""_s << u"\"x y\""_s;
    QTest::addRow("bare text") << u"Marta Lindqvist"_s << u"\"Marta Lindqvist\""_s;
    QTest::addRow("null") << u"null"_s << u"null"_s;
    QTest::addRow("object") << u"{\"a\": 1}"_s << u"{\"a\":1}"_s;
    QTest::addRow("padded boolean") << u" true "_s << u"true"_s;
    QTest::addRow("empty") << QString() << u"\"\""_s;
    QTest::addRow("broken JSON is text") << u"{\"a\":"_s << u"\"{\\\"a\\\":\""_s;
}

void TestPageModels::parseEditText()
{
    QFETCH(QString, text);
    QFETCH(QString, json);
    QCOMPARE(QString::fromStdString(DiffRowsModel::parseEditText(text).dump()), json);
}

void TestPageModels::auditQueueModel()
{
    auto queue = std::make_shared<AuditQueue>();
    for (int i = 0; i < 2; ++i) {
        AuditItem item;
        item.suiteId = u"s"_s;
        item.caseRow = 10 + i;
        item.caseId = u"c-%1"_s.arg(i);
        item.category = u"cat"_s;
        item.path = "name";
        item.pointer = "/name";
        item.gold = json("Ann");
        item.consensus = json("Anne");
        item.agreeing = 3 + i;
        item.answered = 4;
        item.support = item.agreeing / 4.0;
        item.agreeingModels = { u"m1"_s, u"m2"_s, u"m3"_s };
        item.group = i;
        queue->items.push_back(item);
        AuditGroup group;
        group.suiteId = item.suiteId;
        group.caseRow = item.caseRow;
        group.caseId = item.caseId;
        group.first = i;
        group.count = 1;
        queue->groups.push_back(group);
    }
    // A third row: an element the gold lacks, in c-1's "rows" array, and a fourth: a format disagreement.
    {
        AuditItem item = queue->items.back();
        item.kind = FindingKind::MissingElement;
        item.path = "rows[+0]";
        item.pointer = "/rows/0";
        item.arrayPath = "rows";
        item.arrayPointer = "/rows";
        item.gold.reset();
        item.consensus = json::object({ { "year", 1962 } });
        item.consensusSource = SourceSnippet { true, 10, 4, u"since «1962» when"_s };
        item.group = 2;
        queue->items.push_back(item);
        AuditGroup group = queue->groups.back();
        group.arrayPath = "rows";
        group.first = 2;
        queue->groups.push_back(group);
        item.kind = FindingKind::Format;
        item.format = FormatVariant::Contains;
        item.path = "sponsor";
        item.pointer = "/sponsor";
        item.gold = json("IFC");
        item.consensus = json("the IFC");
        item.group = 3;
        queue->items.push_back(item);
        item.batch = AuditBatch::Format;
        group.batch = AuditBatch::Format;
        group.arrayPath.clear();
        group.first = 3;
        queue->groups.push_back(group);
    }
    AuditQueueModel model;
    QAbstractItemModelTester tester(&model, kReport);
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(AuditQueueModel::SortRole);
    QAbstractItemModelTester proxyTester(&proxy, kReport);
    model.setQueue(queue);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.index(0, AuditQueueModel::Kind).data().toString(), u"value"_s);
    QCOMPARE(model.index(2, AuditQueueModel::Kind).data().toString(), u"gold lacks element"_s);
    QCOMPARE(model.index(2, AuditQueueModel::Kind).data(AuditQueueModel::KindRole).toInt(),
        int(FindingKind::MissingElement));
    QCOMPARE(model.index(2, AuditQueueModel::Gold).data().toString(), u"(none)"_s);
    QCOMPARE(model.index(2, AuditQueueModel::Group).data().toString(), u"case c-1 · rows"_s);
    QCOMPARE(model.index(3, AuditQueueModel::Group).data().toString(), u"format · case c-1 · outside arrays"_s);
    {
        // A hash id (SOB's records) is cut to its first 8 digits there; a readable one never is.
        AuditGroup g;
        g.caseId = u"c178fc78e1e149d61583d65f4d301eb5e1c2ebf70c0c56b843502b973a0d0039"_s;
        g.arrayPath = "items";
        QCOMPARE(AuditQueueModel::groupText(g), u"case c178fc78… · items"_s);
        g.caseId = u"shared_modifier-16"_s;
        g.batch = AuditBatch::Unbacked;
        QCOMPARE(AuditQueueModel::groupText(g), u"not backed by the input · case shared_modifier-16 · items"_s);
    }
    QCOMPARE(model.index(3, AuditQueueModel::Kind).data().toString(), u"format"_s);
    QCOMPARE(model.index(2, 0).data(AuditQueueModel::GroupRole).toInt(), 2);
    const QString detail = model.index(2, 0).data(AuditQueueModel::DetailRole).toString();
    QVERIFY2(
        detail.startsWith(uR"(Gold lacks an element that 4 of 4 models give: {"year":1962})"_s), qPrintable(detail));
    QVERIFY2(detail.contains(u"Consensus in the source: since «1962» when"_s), qPrintable(detail));
    QVERIFY2(model.index(3, 0).data(AuditQueueModel::DetailRole).toString().contains(u"(not found in the input)"_s),
        qPrintable(model.index(3, 0).data(AuditQueueModel::DetailRole).toString()));
    QCOMPARE(model.index(1, AuditQueueModel::Support).data(AuditQueueModel::SortRole).toDouble(), 1.0);
    QCOMPARE(model.index(0, AuditQueueModel::Agreement).data().toString(), u"3/4"_s);
    QCOMPARE(model.index(0, AuditQueueModel::Gold).data().toString(), u"\"Ann\""_s);
    QCOMPARE(model.index(0, AuditQueueModel::Triage).data().toString(), u"open"_s);
    proxy.sort(AuditQueueModel::Support, Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, AuditQueueModel::Case).data().toString(), u"c-1"_s);
    const GroupKey key = model.index(1, 0).data(AuditQueueModel::GroupKeyRole).value<GroupKey>();
    QCOMPARE(key.toString(), u"suite=s, case=c-1"_s);

    TriageMark mark;
    mark.state = TriageState::Dismissed;
    mark.author = u"ann"_s;
    mark.at = QDateTime(QDate(2025, 4, 8), QTime(9, 30), Qt::UTC);
    QVERIFY(model.setTriage(11, "name", mark));
    QVERIFY(!model.setTriage(11, "other", mark));
    QCOMPARE(model.index(1, AuditQueueModel::Triage).data().toString(), u"dismissed"_s);
    QCOMPARE(model.index(1, AuditQueueModel::By).data().toString(), u"ann"_s);
    QVERIFY(!model.index(1, AuditQueueModel::When).data().toString().isEmpty());
    QCOMPARE(model.index(0, AuditQueueModel::Triage).data().toString(), u"open"_s);
    model.setQueue(nullptr);
    QCOMPARE(proxy.rowCount(), 0);
}

void TestPageModels::discordantModel()
{
    const std::vector<ScoredRecord> records = pairedRecords();
    auto comparison = std::make_shared<const ConfigComparison>(
        compareConfigurations(records, { u"m"_s, u"P"_s }, { u"m"_s, u"PJ+"_s }, "ladder.correct"));
    DiscordantModel model;
    QAbstractItemModelTester tester(&model, kReport);
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(DiscordantModel::SortRole);
    QAbstractItemModelTester proxyTester(&proxy, kReport);
    model.setComparison(comparison);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(columnTexts(model, DiscordantModel::Case), (QStringList { u"c2"_s, u"c3"_s, u"c4"_s }));
    QCOMPARE(columnTexts(model, DiscordantModel::VerdictA),
        (QStringList { u"correct"_s, u"value incorrect"_s, u"value incorrect"_s }));
    // c2: A right, B wrong → B's answer opens; c3: A wrong → A's.
    QCOMPARE(model.worseSide(0).strategy, u"PJ+"_s);
    QCOMPARE(model.worseSide(1).strategy, u"P"_s);
    QCOMPARE(model.index(0, 0).data(DiscordantModel::GroupKeyRole).value<GroupKey>().toString(),
        u"suite=s, case=c2, model=m, strategy=PJ+, repeat=0"_s);
    QVERIFY(model.headerData(DiscordantModel::ValueA, Qt::Horizontal).toString().startsWith(u"A: "_s));
    model.setComparison(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestPageModels::failureOverlapModels()
{
    auto matrix = std::make_shared<const FailureMatrix>(failureMatrix(m_demo->records, { "model", "strategy" }, {}));
    QCOMPARE(matrix->sets.size(), std::size_t(8));
    OverlapSetsModel sets;
    QAbstractItemModelTester setsTester(&sets, kReport);
    QSignalSpy checked(&sets, &OverlapSetsModel::checkedChanged);
    sets.setMatrix(matrix);
    QCOMPARE(sets.rowCount(), 8);
    QCOMPARE(sets.checkedSets().size(), std::size_t(8));
    QCOMPARE(sets.index(0, OverlapSetsModel::Set).data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
    QVERIFY(sets.flags(sets.index(0, OverlapSetsModel::Set)) & Qt::ItemIsUserCheckable);
    QCOMPARE(sets.index(2, OverlapSetsModel::Failed).data().toInt(), matrix->sets[2].failed);
    QCOMPARE(sets.index(2, OverlapSetsModel::Answered).data().toInt(), 40);
    // Unchecked by a click; the others stay.
    checked.clear();
    QVERIFY(sets.setData(sets.index(1, OverlapSetsModel::Set), int(Qt::Unchecked), Qt::CheckStateRole));
    QCOMPARE(checked.size(), 1);
    QCOMPARE(sets.checkedSets(), (std::vector<int> { 0, 2, 3, 4, 5, 6, 7 }));
    // A new criterion keeps the checks by name.
    sets.setMatrix(std::make_shared<const FailureMatrix>(
        failureMatrix(m_demo->records, { "model", "strategy" }, *FailureCriterion::parse(u"error:wv"_s))));
    QVERIFY(!sets.isChecked(1));
    QVERIFY(sets.isChecked(0));
    const QString second = sets.matrix()->sets[2].label();
    const QString fourth = sets.matrix()->sets[4].label();
    sets.setCheckedLabels({ fourth, second });
    QCOMPARE(sets.checkedSets(), (std::vector<int> { 2, 4 }));
    sets.setAllChecked(false);
    QVERIFY(sets.checkedSets().empty());
    sets.setMatrix(nullptr);
    QCOMPARE(sets.rowCount(), 0);

    // Regions of five sets: rows largest first, then "none of these"; each row's drill-down finds its cases.
    const std::vector<int> chosen = { 0, 2, 4, 5, 7 };
    auto overlaps = std::make_shared<const FailureOverlaps>(countFailureOverlaps(*matrix, chosen));
    QVERIFY(overlaps->ok());
    QVERIFY(overlaps->unionSize() > 0);
    OverlapRegionsModel regions;
    QAbstractItemModelTester regionsTester(&regions, kReport);
    regions.setOverlaps(overlaps);
    QCOMPARE(regions.rowCount(), int(overlaps->regions.size()) + 1);
    int sum = 0;
    for (int row = 0; row + 1 < regions.rowCount(); ++row) {
        const int count = regions.index(row, OverlapRegionsModel::Cases).data().toInt();
        if (row > 0)
            QVERIFY(count <= regions.index(row - 1, OverlapRegionsModel::Cases).data().toInt());
        sum += count;
    }
    QCOMPARE(sum, overlaps->unionSize());
    const int last = regions.rowCount() - 1;
    QCOMPARE(regions.index(last, OverlapRegionsModel::Cases).data().toInt(), int(overlaps->none.size()));
    QCOMPARE(regions.index(last, OverlapRegionsModel::Degree).data().toInt(), 0);
    for (int row : { 0, last }) {
        const GroupKey key
            = regions.index(row, OverlapRegionsModel::Sets).data(OverlapRegionsModel::GroupKeyRole).value<GroupKey>();
        QVERIFY(key.toString().startsWith(u"overlap="_s));
        const CaseFilter filter = CaseFilter::fromGroupKey(key);
        QVERIFY(filter.cases);
        QCOMPARE(filter.anyOfSets.size(), chosen.size());
        std::set<CaseKey> found;
        int answers = 0;
        for (const ScoredRecord& r : m_demo->records) {
            if (!filter.matches(r, {}))
                continue;
            ++answers;
            found.insert({ r.suite, r.caseId });
            bool inChosen = false;
            for (const OverlapSet& set : overlaps->sets)
                inChosen = inChosen
                    || set.label()
                        == QString::fromStdString(groupValue(r, "model") + " · " + groupValue(r, "strategy"));
            QVERIFY(inChosen);
        }
        const std::uint64_t mask = regions.index(row, 0).data(OverlapRegionsModel::MaskRole).toULongLong();
        const std::vector<CaseKey> cases = overlapRegionCases(*overlaps, mask);
        QCOMPARE(found, std::set<CaseKey>(cases.begin(), cases.end()));
        QCOMPARE(answers, int(cases.size() * chosen.size())); // one answer per case and set in the demo
    }
    regions.setOverlaps(nullptr);
    QCOMPARE(regions.rowCount(), 0);
}

void TestPageModels::pairMatrixModel()
{
    const std::vector<ScoredRecord> records = threeConfigurationRecords();
    PairMatrixOptions options;
    options.by = { "model", "strategy" };
    options.bootstrap.resamples = 200;
    auto matrix = std::make_shared<const PairMatrix>(computePairMatrix(records, options));
    QVERIFY2(matrix->ok(), qPrintable(matrix->error));

    PairMatrixModel model;
    QAbstractItemModelTester tester(&model, kReport);
    QCOMPARE(model.rowCount(), 0);
    model.setMatrix(matrix);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), 3);
    QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), u"a · P"_s);
    QCOMPARE(model.headerData(2, Qt::Vertical).toString(), u"c · P"_s);
    QVERIFY(model.configuration(2) == (Configuration { u"c"_s, u"P"_s }));

    // Row − column: (a, b) is a − b = −46.2; (b, a) is +46.2 with the interval mirrored.
    const double ab = model.index(0, 1).data(PairMatrixModel::DeltaRole).toDouble();
    QVERIFY(qAbs(ab + 600.0 / 13) < 1e-9);
    QVERIFY(qAbs(model.index(1, 0).data(PairMatrixModel::DeltaRole).toDouble() - 600.0 / 13) < 1e-9);
    const PairCell* cellAb = matrix->cell(0, 1);
    QVERIFY(cellAb);
    QVERIFY(model.index(0, 1).data().toString().startsWith(u"−46.2 [−"_s));
    QVERIFY(model.index(1, 0).data().toString().startsWith(u"+46.2 [+"_s));
    QVERIFY(cellAb->stats.deltaCiPoints.low > 0);
    // c − a: significant after Holm (adjusted 3·0.0078125 = 0.0234375): bold, tinted, said so.
    const QModelIndex ca = model.index(2, 0);
    QVERIFY(ca.data().toString().startsWith(u"+61.5 ["_s));
    QVERIFY2(ca.data().toString().endsWith(u"p 0.008 · adj. 0.023"_s), qPrintable(ca.data().toString()));
    QCOMPARE(ca.data(PairMatrixModel::PValueRole).toDouble(), 0.0078125);
    QCOMPARE(ca.data(PairMatrixModel::AdjustedPRole).toDouble(), 0.0234375);
    QCOMPARE(ca.data(PairMatrixModel::PairedCasesRole).toLongLong(), qint64(13));
    QVERIFY(ca.data(PairMatrixModel::SignificantRole).toBool());
    QVERIFY(ca.data(Qt::FontRole).value<QFont>().bold());
    QVERIFY(ca.data(Qt::BackgroundRole).value<QColor>().isValid());
    QVERIFY(ca.data(Qt::ToolTipRole).toString().contains(u"<b>Significant</b> after Holm"_s));
    QVERIFY(ca.data(Qt::ToolTipRole).toString().contains(u"McNemar (exact) p = 0.008"_s));
    // b − a: not after Holm (0.0625).
    const QModelIndex ba = model.index(1, 0);
    QVERIFY(!ba.data(PairMatrixModel::SignificantRole).toBool());
    QVERIFY(!ba.data(Qt::FontRole).isValid());
    QVERIFY(!ba.data(Qt::BackgroundRole).isValid());
    QVERIFY(ba.data(Qt::ToolTipRole).toString().contains(u"Not significant after Holm"_s));
    QCOMPARE(ba.data(PairMatrixModel::AdjustedPRole).toDouble(), 0.0625);
    // The diagonal: a dash, not selectable.
    QCOMPARE(model.index(1, 1).data().toString(), u"—"_s);
    QVERIFY(!(model.flags(model.index(1, 1)) & Qt::ItemIsSelectable));
    QVERIFY(model.flags(ba) & Qt::ItemIsSelectable);

    // Benjamini–Hochberg: b − a becomes significant (3·0.03125/2 = 0.046875), in place.
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setAdjustment(PAdjustMethod::BenjaminiHochberg);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(ba.data(PairMatrixModel::AdjustedPRole).toDouble(), 0.046875);
    QVERIFY(ba.data(PairMatrixModel::SignificantRole).toBool());
    QVERIFY(ba.data(Qt::ToolTipRole).toString().contains(u"Benjamini–Hochberg"_s));
    QCOMPARE(model.matrix()->adjust, PAdjustMethod::BenjaminiHochberg);
    // A new matrix (computed with Holm) takes the chosen adjustment.
    model.setMatrix(matrix);
    QCOMPARE(model.index(1, 0).data(PairMatrixModel::AdjustedPRole).toDouble(), 0.046875);

    // The tint follows the palette: a dark one gets its own highlight.
    // 30% of the highlight over the base: (30 + 0.3·(20 − 30), 30 + 0.3·(60 − 30), 30 + 0.3·(120 − 30)) = (27, 39,
    // 57).
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(30, 30, 30));
    dark.setColor(QPalette::Highlight, QColor(20, 60, 120));
    model.setPalette(dark);
    QCOMPARE(ca.data(Qt::BackgroundRole).value<QColor>(), QColor(27, 39, 57));

    // A matrix that could not be computed, and none.
    PairMatrixOptions bad = options;
    bad.metric = "ladder.nope";
    model.setMatrix(std::make_shared<const PairMatrix>(computePairMatrix(records, bad)));
    QCOMPARE(model.rowCount(), 0);
    model.setMatrix(nullptr);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(model.configuration(0).model.isEmpty());
}

QTEST_MAIN(TestPageModels)
#include "tst_pagemodels.moc"
