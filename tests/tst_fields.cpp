// SPDX-License-Identifier: Apache-2.0
// The field dimension: what each response did with each field of its gold (scoring/fieldtally.h), and the reports
// grouped by field (report/fieldreport.h), on cases worked by hand.
#include "report/fieldreport.h"
#include "scoring/fieldtally.h"
#include "scoring/metricregistry.h"
#include "scoring/scorer.h"
#include "scoring/verdictcodec.h"
#include "stats/intervals.h"

#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace Qt::StringLiterals;
using namespace std::literals;
using namespace structscope;
using nlohmann::json;

namespace {

FieldTally tally(std::string_view path, std::uint32_t elements, std::uint32_t correct, std::uint32_t lenient,
    std::uint32_t missing, std::uint32_t wrong, std::uint32_t invented, std::uint32_t typeError)
{
    return { fieldKey(path), elements, correct, lenient, missing, wrong, invented, typeError };
}

QString describe(const FieldTallies& tallies)
{
    QStringList parts;
    for (const FieldTally& t : tallies) {
        parts << u"%1: n%2 c%3 l%4 m%5 w%6 i%7 t%8"_s.arg(QString::fromStdString(fieldPathOf(t.field)))
                     .arg(t.elements)
                     .arg(t.correct)
                     .arg(t.lenient)
                     .arg(t.missing)
                     .arg(t.wrong)
                     .arg(t.invented)
                     .arg(t.typeError);
    }
    return parts.join(u"; "_s);
}

ScoredRecord record(const QString& model, FieldTallies tallies, bool errored = false)
{
    ScoredRecord r;
    r.model = model;
    r.verdict.fields = std::make_shared<const FieldTallies>(std::move(tallies));
    if (errored)
        r.error = ErrorKind::Timeout;
    return r;
}

const ReportGroup* findGroup(const Report& report, const std::string& model, const std::string& field)
{
    for (const ReportGroup& g : report.groups) {
        if (g.key == std::vector<std::pair<std::string, std::string>> { { "model", model }, { "field", field } })
            return &g;
    }
    return nullptr;
}

// Gold and prediction of the hand-worked case (ordered arrays).
const json kGold = json::parse(R"({
    "customer": {"name": "Ann Lee", "city": null},
    "items": [{"sku": "A1", "qty": 2}, {"sku": "B2", "qty": 1}, {"sku": "C3", "qty": 5}],
    "total": 12.5,
    "note": null,
    "tags": []
})");
const json kPrediction = json::parse(R"({
    "customer": {"name": "ann lee ", "city": "Paris"},
    "items": [{"sku": "A1", "qty": "2"}, {"sku": "B9", "qty": 1}],
    "total": "twelve",
    "note": null,
    "extra": 1
})");

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run runCli(const QStringList& args)
{
#ifdef STRUCTSCOPE_BINARY
    QProcess process;
    process.start(QStringLiteral(STRUCTSCOPE_BINARY), args);
    if (!process.waitForFinished(120000))
        return {};
    return { process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2,
        QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError()) };
#else
    Q_UNUSED(args);
    return {};
#endif
}

} // namespace

class TestFields : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void wildcardPathsNameFields();
    // By hand, leaf by leaf (strict diff, then lenient equality on its wrong values):
    //   customer.city  null vs "Paris"        invented
    //   customer.name  "Ann Lee" vs "ann lee " strict deviation; lenient-equal (trimmed, case-folded): lenient only
    //   items[0].qty   2 vs "2"                coercible: wrong (not a type error; 2 ≠ "2" leniently too)
    //   items[0].sku   "A1" = "A1"             correct
    //   items[1].qty   1 = 1                   correct
    //   items[1].sku   "B2" vs "B9"            deviation: wrong
    //   items[2].qty, items[2].sku             element absent: missing key + missing value, each missing
    //   note           null = null             correct
    //   total          12.5 vs "twelve"        type error: wrong and type error
    //   tags           [] is no leaf: no field. "extra" is no gold field.
    // Fields in document order (keys sorted): customer.city, customer.name, items[].qty, items[].sku, note, total.
    void handWorkedResponse();
    void failedResponseMissesEverything();
    // Gold null with an empty container is no invention (as DiffCounts::invented), but another type; a prediction
    // holding a scalar where gold has an object is a type error for every leaf under it.
    void emptyContainersAndContainerMismatch();
    // Unordered matching pairs {"sku":"B2"} with the second predicted element: both correct.
    void unorderedArraysFollowTheAlignment();
    // The scorer tallies from its own strict diff, whether or not it keeps it, and its counts stay the same.
    void scorerKeepsTheTallies();
    void tallyCodecRoundTripAndRefusals();
    // Model A: r1 {x: right; items[].sku: 3 values, 1 strict-correct, 1 only leniently, 1 missing},
    //          r2 {x: missing; items[].sku: 1 value, a type error}, r3 errored (counts in no metric).
    // Model B: r4 {x: invented}.
    // (A, items[].sku): 4 values over 2 responses: accuracy (1 + 1 + 0)/4 = 0.5, strict 1/4, missing 1/4,
    //   wrong 1/4, type error 1/4, invented 0. Not one value per response: a bootstrap interval.
    // (A, x): 2 values, 1 right: accuracy 1/2, missing 1/2, Wilson(1, 2) = [0.0945, 0.9055].
    // (B, x): 1 value, invented: invented 1, accuracy 0.
    void reportByModelAndField();
    // Every response with the same tally: every resample draws the same share, so the interval is that point.
    void clusterBootstrapOfIdenticalResponses();
    void fieldWrongReadsTheTally();
    // tests/data/audit, by hand. m-a: c-1 {Ann, 41, Oslo} for gold {Ann, 14, Oslo} (age wrong); c-2 {Bo, 30, Bergen}
    // for {Bo, 30, null} (city invented); c-3 "dog" for "cat" (species wrong). So age 1 of 2 right, city 1 of 2 (the
    // other invented), name 2 of 2, species 0 of 1. m-d: c-1 {Ann, 14, Oslo} all right; c-3 "fish": species wrong.
    void cliReportAndChartByField();
    void metricsAreRegistered();
};

void TestFields::wildcardPathsNameFields()
{
    QCOMPARE(fieldPathOf(fieldKey("items[].sku")), "items[].sku"s);
    QCOMPARE(fieldKey("items[].sku"), fieldKey(std::string("items[].sku")));
    QVERIFY(fieldKey("items[].sku") != fieldKey("items[].qty"));
    QVERIFY(fieldKeyCount() > fieldKey("items[].qty"));
}

void TestFields::handWorkedResponse()
{
    const std::vector<Difference> strict = diffJson(kGold, kPrediction, { ArrayMatching::Ordered, Equality::Strict });
    const FieldTallies got = tallyFields(kGold, &strict, false);
    const FieldTallies expected = {
        tally("customer.city", 1, 0, 0, 0, 0, 1, 0),
        tally("customer.name", 1, 0, 1, 0, 0, 0, 0),
        tally("items[].qty", 3, 1, 1, 1, 1, 0, 0),
        tally("items[].sku", 3, 1, 1, 1, 1, 0, 0),
        tally("note", 1, 1, 1, 0, 0, 0, 0),
        tally("total", 1, 0, 0, 0, 1, 0, 1),
    };
    QCOMPARE(describe(got), describe(expected));
    QVERIFY(got == expected);
}

void TestFields::failedResponseMissesEverything()
{
    const FieldTallies got = tallyFields(kGold, nullptr, true);
    QCOMPARE(describe(got),
        describe({ tally("customer.city", 1, 0, 0, 1, 0, 0, 0), tally("customer.name", 1, 0, 0, 1, 0, 0, 0),
            tally("items[].qty", 3, 0, 0, 3, 0, 0, 0), tally("items[].sku", 3, 0, 0, 3, 0, 0, 0),
            tally("note", 1, 0, 0, 1, 0, 0, 0), tally("total", 1, 0, 0, 1, 0, 0, 0) }));
    QVERIFY(tallyFields(json(42), nullptr, true).empty());
}

void TestFields::emptyContainersAndContainerMismatch()
{
    const json gold = json::parse(R"({"a": null, "b": {"x": 1, "y": "s"}})");
    const json pred = json::parse(R"({"a": {}, "b": 7})");
    const std::vector<Difference> strict = diffJson(gold, pred, {});
    QCOMPARE(describe(tallyFields(gold, &strict, false)),
        describe(
            { tally("a", 1, 0, 0, 0, 1, 0, 1), tally("b.x", 1, 0, 0, 0, 1, 0, 1), tally("b.y", 1, 0, 0, 0, 1, 0, 1) }));
}

void TestFields::unorderedArraysFollowTheAlignment()
{
    const json gold = json::parse(R"({"items": [{"sku": "A1"}, {"sku": "B2"}]})");
    const json pred = json::parse(R"({"items": [{"sku": "B2"}, {"sku": "A1"}]})");
    const std::vector<Difference> ordered = diffJson(gold, pred, {});
    const std::vector<Difference> unordered = diffJson(gold, pred, { ArrayMatching::Unordered, Equality::Strict });
    QCOMPARE(describe(tallyFields(gold, &ordered, false)), describe({ tally("items[].sku", 2, 0, 0, 0, 2, 0, 0) }));
    QCOMPARE(describe(tallyFields(gold, &unordered, false)), describe({ tally("items[].sku", 2, 2, 2, 0, 0, 0, 0) }));
}

void TestFields::scorerKeepsTheTallies()
{
    const std::string text = kPrediction.dump();
    ScoreInput input;
    input.response = text;
    input.gold = &kGold;
    ScoringOptions options = ScoringOptions::forFamilies({ u"ladder"_s, u"extraction"_s });
    const Verdict bulk = scoreResponse(input, options);
    options.keepDifferences = true;
    const Verdict kept = scoreResponse(input, options);
    QVERIFY(bulk.fields && kept.fields);
    const std::vector<Difference> strict = diffJson(kGold, kPrediction, {});
    QCOMPARE(describe(*bulk.fields), describe(tallyFields(kGold, &strict, false)));
    QVERIFY(*bulk.fields == *kept.fields);
    QCOMPARE(bulk.extraction.strict.partialCredit, kept.extraction.strict.partialCredit);
    QCOMPARE(bulk.extraction.lenient.diff.total(), kept.extraction.lenient.diff.total());
    options.keepDifferences = false;
    options.fields = false;
    QVERIFY(!scoreResponse(input, options).fields);
    // Nothing parses: every field missing.
    input.response = "not json";
    options.fields = true;
    QCOMPARE(describe(*scoreResponse(input, options).fields), describe(tallyFields(kGold, nullptr, true)));
    // No gold document: no fields.
    const json noGold;
    input.gold = &noGold;
    QVERIFY(!scoreResponse(input, options).fields);
}

void TestFields::tallyCodecRoundTripAndRefusals()
{
    Verdict v;
    v.fields = std::make_shared<const FieldTallies>(
        FieldTallies { tally("items[].sku", 3, 1, 1, 1, 1, 0, 0), tally("total", 1, 0, 0, 0, 1, 0, 1) });
    const std::string bytes = encodeVerdict(v);
    Verdict back;
    QVERIFY(decodeVerdict(bytes, back));
    QVERIFY(back.fields && *back.fields == *v.fields);
    // An inconsistent tally (elements ≠ lenient + missing + wrong + invented) is refused.
    Verdict bad;
    bad.fields = std::make_shared<const FieldTallies>(FieldTallies { tally("total", 2, 0, 0, 0, 1, 0, 0) });
    std::string error;
    QVERIFY(!decodeVerdict(encodeVerdict(bad), back, &error));
    QVERIFY2(error.find("inconsistent field tally") != std::string::npos, error.c_str());
    // A verdict of the codec's first version (before field tallies) is refused: kept verdicts are scored again.
    std::string older = encodeVerdict(Verdict {});
    older[0] = 1;
    QVERIFY(!decodeVerdict(older, back, &error));
}

void TestFields::reportByModelAndField()
{
    const std::vector<ScoredRecord> records = {
        record(u"A"_s, { tally("x", 1, 1, 1, 0, 0, 0, 0), tally("items[].sku", 3, 1, 2, 1, 0, 0, 0) }),
        record(u"A"_s, { tally("x", 1, 0, 0, 1, 0, 0, 0), tally("items[].sku", 1, 0, 0, 0, 1, 0, 1) }),
        record(u"A"_s, { tally("x", 1, 1, 1, 0, 0, 0, 0) }, true),
        record(u"B"_s, { tally("x", 1, 0, 0, 0, 0, 1, 0) }),
    };
    AggregateOptions options;
    options.groupBy = { "model", "field" };
    options.bootstrap.resamples = 200;
    const Report report = aggregateFields(records, options);
    QCOMPARE(report.groups.size(), std::size_t(3));
    QCOMPARE(report.groups[0].key[1].second, "items[].sku"s); // sorted by key: A before B, "items" before "x"
    QCOMPARE(report.metrics, fieldMetricIds());
    QCOMPARE(report.metrics.front(), "field.accuracy"s);

    const ReportGroup* sku = findGroup(report, "A", "items[].sku");
    QVERIFY(sku);
    QCOMPARE(sku->n, 2);
    QCOMPARE(sku->errored, 1);
    QCOMPARE(sku->mean.at("field.elements"), 4.0);
    QCOMPARE(sku->mean.at("field.accuracy"), 0.5);
    QCOMPARE(sku->mean.at("field.accuracy_strict"), 0.25);
    QCOMPARE(sku->mean.at("field.missing"), 0.25);
    QCOMPARE(sku->mean.at("field.wrong"), 0.25);
    QCOMPARE(sku->mean.at("field.type_error"), 0.25);
    QCOMPARE(sku->mean.at("field.invented"), 0.0);
    // Two responses of accuracy 2/3 (3 values) and 0/1: a resample's share is one of 0, 2/4 (one of each),
    // 2/3 (the first twice), 0 (the second twice) — the interval's ends are among them.
    const Interval ci = sku->ci95.at("field.accuracy");
    QVERIFY(ci.isValid());
    QCOMPARE(ci.low, 0.0);
    QVERIFY(std::abs(ci.high - 2.0 / 3.0) < 1e-12);

    const ReportGroup* x = findGroup(report, "A", "x");
    QVERIFY(x);
    QCOMPARE(x->n, 2);
    QCOMPARE(x->mean.at("field.accuracy"), 0.5);
    QCOMPARE(x->mean.at("field.missing"), 0.5);
    const Interval wilson = wilsonInterval(1, 2);
    QCOMPARE(x->ci95.at("field.accuracy").low, wilson.low);
    QCOMPARE(x->ci95.at("field.accuracy").high, wilson.high);
    QVERIFY(std::abs(wilson.low - 0.0945) < 1e-4);

    const ReportGroup* b = findGroup(report, "B", "x");
    QVERIFY(b);
    QCOMPARE(b->n, 1);
    QCOMPARE(b->mean.at("field.invented"), 1.0);
    QCOMPARE(b->mean.at("field.accuracy"), 0.0);

    // Point estimates only: the same means; Wilson stays (closed form), the bootstrap goes.
    options.intervals = false;
    const Report quick = aggregateFields(records, options);
    QCOMPARE(findGroup(quick, "A", "items[].sku")->mean, sku->mean);
    QVERIFY(!findGroup(quick, "A", "items[].sku")->ci95.count("field.accuracy"));
    QVERIFY(findGroup(quick, "A", "x")->ci95.count("field.accuracy"));
}

void TestFields::clusterBootstrapOfIdenticalResponses()
{
    std::vector<ScoredRecord> records;
    for (int i = 0; i < 5; ++i)
        records.push_back(record(u"C"_s, { tally("list[]", 2, 1, 1, 1, 0, 0, 0) }));
    AggregateOptions options;
    options.groupBy = { "field" };
    const Report report = aggregateFields(records, options);
    QCOMPARE(report.groups.size(), std::size_t(1));
    QCOMPARE(report.groups[0].key, (std::vector<std::pair<std::string, std::string>> { { "field", "list[]" } }));
    QCOMPARE(report.groups[0].mean.at("field.accuracy"), 0.5);
    QCOMPARE(report.groups[0].ci95.at("field.accuracy").low, 0.5);
    QCOMPARE(report.groups[0].ci95.at("field.accuracy").high, 0.5);
}

void TestFields::fieldWrongReadsTheTally()
{
    Verdict v;
    v.fields = std::make_shared<const FieldTallies>(
        FieldTallies { tally("a", 1, 0, 1, 0, 0, 0, 0), tally("b", 2, 1, 1, 1, 0, 0, 0) });
    QVERIFY(!fieldWrong(v, fieldKey("a"))); // right leniently
    QVERIFY(fieldWrong(v, fieldKey("b")));
    QVERIFY(!fieldWrong(v, fieldKey("not-in-gold")));
}

void TestFields::cliReportAndChartByField()
{
#ifndef STRUCTSCOPE_BINARY
    QSKIP("the structscope executable is not built");
#endif
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString store = dir.filePath(u"fields.db"_s);
    const QString data = QStringLiteral(STRUCTSCOPE_TEST_DATA) + u"/audit"_s;
    Run run = runCli({ u"import"_s, u"--format"_s, u"jsonl"_s, u"--suite"_s, data + u"/suite"_s, u"--store"_s, store,
        data + u"/responses.jsonl"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    run = runCli({ u"report"_s, u"--store"_s, store, u"--format"_s, u"json"_s, u"--by"_s, u"model,field"_s,
        u"--bootstrap"_s, u"50"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const json report = json::parse(run.out.toStdString());
    std::map<std::string, json> byKey;
    for (const json& group : report.at("groups"))
        byKey[group.at("key").at("model").get<std::string>() + "/" + group.at("key").at("field").get<std::string>()]
            = group;
    QCOMPARE(byKey.at("m-a/age").at("mean").at("field.accuracy").get<double>(), 0.5);
    QCOMPARE(byKey.at("m-a/age").at("mean").at("field.wrong").get<double>(), 0.5);
    QCOMPARE(byKey.at("m-a/age").at("n").get<int>(), 2);
    QCOMPARE(byKey.at("m-a/city").at("mean").at("field.invented").get<double>(), 0.5);
    QCOMPARE(byKey.at("m-a/name").at("mean").at("field.accuracy").get<double>(), 1.0);
    QCOMPARE(byKey.at("m-a/species").at("mean").at("field.accuracy").get<double>(), 0.0);
    QCOMPARE(byKey.at("m-d/age").at("mean").at("field.accuracy").get<double>(), 1.0);
    QCOMPARE(byKey.at("m-d/species").at("mean").at("field.wrong").get<double>(), 1.0);
    QVERIFY(!byKey.count("m-d/nothing"));
    // The existing table writers: CSV and LaTeX.
    run = runCli({ u"report"_s, u"--store"_s, store, u"--format"_s, u"csv"_s, u"--by"_s, u"field"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.contains(u"field.accuracy"_s) && run.out.contains(u"species"_s), qPrintable(run.out));
    run = runCli({ u"report"_s, u"--store"_s, store, u"--format"_s, u"latex"_s, u"--by"_s, u"model,field_root"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(run.out.contains(u"tabular"_s));
    // The field family is reported by field, and alone.
    run = runCli({ u"report"_s, u"--store"_s, store, u"--format"_s, u"json"_s, u"--by"_s, u"model,field"_s,
        u"--metrics"_s, u"ladder"_s });
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(u"field family only"_s), qPrintable(run.err));
    run = runCli({ u"report"_s, u"--store"_s, store, u"--format"_s, u"json"_s, u"--metrics"_s, u"field"_s });
    QCOMPARE(run.exitCode, 2);
    // The heatmap, headless.
    const QString png = dir.filePath(u"fields.png"_s);
    run = runCli(
        { u"chart"_s, u"--store"_s, store, u"--kind"_s, u"heatmap"_s, u"--columns"_s, u"field"_s, u"--out"_s, png });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(QFileInfo(png).size() > 1000);
    run = runCli({ u"chart"_s, u"--store"_s, store, u"--kind"_s, u"heatmap"_s, u"--rows"_s, u"field"_s, u"--columns"_s,
        u"model"_s, u"--out"_s, dir.filePath(u"rows.svg"_s) });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    run = runCli({ u"chart"_s, u"--store"_s, store, u"--kind"_s, u"heatmap"_s, u"--rows"_s, u"field"_s, u"--columns"_s,
        u"field_root"_s, u"--out"_s, png });
    QCOMPARE(run.exitCode, 2);
}

void TestFields::metricsAreRegistered()
{
    for (const std::string& id : fieldMetricIds()) {
        const MetricInfo* info = findMetric(id);
        QVERIFY(info);
        QCOMPARE(info->family, "field"sv);
        QVERIFY(info->kind == MetricKind::Micro || info->kind == MetricKind::Value);
    }
    QCOMPARE(fieldMetricIds().size(), std::size_t(7));
    QVERIFY(groupsByField({ "model", "field" }));
    QVERIFY(!groupsByField({ "model" }));
}

QTEST_GUILESS_MAIN(TestFields)
#include "tst_fields.moc"
