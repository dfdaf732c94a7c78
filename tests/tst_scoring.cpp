// SPDX-License-Identifier: Apache-2.0
// The scorer: ladder labels, extraction counts and micro metrics, worked out by hand.
#include "report/aggregator.h"
#include "scoring/extraction.h"
#include "scoring/ladder.h"
#include "scoring/metricregistry.h"
#include "scoring/scorer.h"
#include "stats/bootstrap.h"
#include "stats/intervals.h"
#include "stats/percentile.h"
#include "stats/prng.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace Qt::StringLiterals;
using namespace structscope;
using nlohmann::json;

Q_DECLARE_METATYPE(LadderLabel)

namespace {

json j(const char* text)
{
    return json::parse(text);
}

// Extraction records of four hand-made cases, used by several tests.
// A: gold {"name":"Ana","age":30,"city":"Berlin"} vs {"name":"Ana","age":"30","city":"Berlni","extra":1}
//    age coercible; city deviation lev("Berlin","Berlni") = 2, l = 2/6, C(l) = 0.5·(1 − 1/3) = 1/3;
//    one extra key. TP_v = 3 − 0 − 2 + 1/3 + 0.2 = 1.5333…; N_pred_v = 4; keys TP 3, FP 1, FN 0.
// B: gold {"a":{"b":1,"c":null},"d":[1,2]} vs {"a":{"b":null},"d":[1]}
//    a.b MV; a.c MK only (gold null); d[1] MK + MV. N_v = 3 (non-null gold), TP_v = 3 − 2 = 1,
//    N_pred_v = 1; keys TP 4 − 2 = 2, FN 2.
// C: unparsable → failed: keys FN 1, N_v 1.
// D: perfect: {"k":"v"}.
struct Fixture
{
    ExtractionRecord a, b, c, d;
};

Fixture fixture()
{
    Fixture f;
    const json goldA = j(R"({"name":"Ana","age":30,"city":"Berlin"})");
    const json predA = j(R"({"name":"Ana","age":"30","city":"Berlni","extra":1})");
    f.a = scoreExtraction(goldA, &predA, ArrayMatching::Ordered);
    const json goldB = j(R"({"a":{"b":1,"c":null},"d":[1,2]})");
    const json predB = j(R"({"a":{"b":null},"d":[1]})");
    f.b = scoreExtraction(goldB, &predB, ArrayMatching::Ordered);
    const json goldC = j(R"({"x":"y"})");
    f.c = scoreExtraction(goldC, nullptr, ArrayMatching::Ordered);
    const json goldD = j(R"({"k":"v"})");
    f.d = scoreExtraction(goldD, &goldD, ArrayMatching::Ordered);
    return f;
}

/// The micro intervals of `group` must be those of the definition: B resamples of n draws from Xoshiro256(seed),
/// each record added with ExtractionTotals::add, percentiles of the sorted values.
void checkMicroAgainstDefinition(
    const ReportGroup& group, const std::vector<const ScoredRecord*>& members, const BootstrapOptions& bootstrap)
{
    Xoshiro256 draws(bootstrap.seed);
    std::vector<double> f1Values;
    std::vector<double> f1Keys;
    std::vector<double> docMicro;
    for (int b = 0; b < bootstrap.resamples; ++b) {
        ExtractionTotals t;
        for (std::size_t d = 0; d < members.size(); ++d)
            t.add(members[std::size_t(draws.bounded(members.size()))]->verdict.extraction);
        f1Values.push_back(t.f1Values());
        f1Keys.push_back(t.f1Keys());
        docMicro.push_back(t.docMicro());
    }
    const double tail = (1.0 - bootstrap.confidence) / 2.0;
    for (auto [id, samples] : { std::pair("extraction.f1_values", &f1Values), std::pair("extraction.f1_keys", &f1Keys),
             std::pair("extraction.doc_micro", &docMicro) }) {
        std::sort(samples->begin(), samples->end());
        QCOMPARE(group.ci95.at(id).low, quantileOfSorted(*samples, tail));
        QCOMPARE(group.ci95.at(id).high, quantileOfSorted(*samples, 1.0 - tail));
    }
}

/// A record of suite "s" scored for the ladder family alone (case row 0: not read from a store).
ScoredRecord ladderRecord(
    const QString& model, qint64 run, const QString& caseId, qint64 caseRow, int repeat, LadderLabel label)
{
    ScoredRecord r;
    r.model = model;
    r.suite = u"s"_s;
    r.runId = run;
    r.caseId = caseId;
    r.caseRow = caseRow;
    r.repeat = repeat;
    r.verdict.ladder = label;
    r.verdict.values = { { "ladder.correct", label == LadderLabel::Correct ? 1.0 : 0.0 } };
    return r;
}

/// The aggregate of records that form one group, its micro intervals checked against the definition.
Report aggregateCheckingMicro(const std::vector<ScoredRecord>& records, const AggregateOptions& options)
{
    Report report = aggregate(records, options);
    if (report.groups.size() != 1) {
        QTest::qFail("not one group", __FILE__, __LINE__);
        return report;
    }
    std::vector<const ScoredRecord*> members;
    for (const ScoredRecord& r : records)
        members.push_back(&r);
    checkMicroAgainstDefinition(report.groups[0], members, options.bootstrap);
    return report;
}

} // namespace

class TestScoring : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void deviationCredit_data();
    void deviationCredit();
    void recordCounts();
    void lenientCountsForgiveCaseAndFullStop();
    void inventedValueLowersPrecisionOnly();
    void microTotals();
    void ladder_data();
    void ladder();
    void schemaErrorsAreKept();
    void importedStringCountsAsNotParsedForGrounding();
    // The ladder checks formats, SOB's json_pass does not (both read 1.0 as an integer, as draft-07 does, unless the
    // ladder's options ask for strict integers); the scorer validates once when both must agree, and twice where
    // they may not. Each family keeps its own verdict.
    void oneValidationServesBothFamiliesOnlyWhereTheyAgree_data();
    void oneValidationServesBothFamiliesOnlyWhereTheyAgree();
    void aggregateRepeats();
    void aggregateLeavesErroredSlotsOut();
    void aggregateRepeatsInAnyOrder();
    void aggregateRatesAndMicro();
    void aggregateMicroBootstrapByCounts();
    void aggregateMicroBootstrapByClassTallies();
    void aggregateWithoutIntervalsHasTheSameEstimates();
    void pointEstimatesFollowAGoldEditBitForBit();
    void aggregateEqualsRecordByRecordDefinition();
    void aggregateMicroWithHugeCounts();
    void extractionAddsSumToTotals();
    void everyMetricIsDescribed();
    void metricValuesKeepOrderAndSpillPastTheInlineOnes();
    void metricKeysAreInternedOnceAcrossThreads();
};

void TestScoring::deviationCredit_data()
{
    QTest::addColumn<double>("l");
    QTest::addColumn<double>("credit");
    QTest::addRow("exact") << 0.0 << 1.0;
    QTest::addRow("at 0.1") << 0.1 << 1.0;
    QTest::addRow("just above 0.1") << 0.1000001 << 0.5 * (1 - 0.1000001);
    QTest::addRow("one third") << 1.0 / 3 << 0.5 * (2.0 / 3);
    QTest::addRow("1.0 gives 0") << 1.0 << 0.0;
    QTest::addRow("1.5 costs") << 1.5 << -0.25;
    QTest::addRow("at 2.0") << 2.0 << -1.0;
    QTest::addRow("far") << 7.0 << -1.0;
}

void TestScoring::deviationCredit()
{
    QFETCH(double, l);
    QFETCH(double, credit);
    QCOMPARE(structscope::deviationCredit(l), credit);
}

void TestScoring::recordCounts()
{
    const Fixture f = fixture();
    QCOMPARE(f.a.strict.diff.wvCoercible, 1);
    QCOMPARE(f.a.strict.diff.wvDeviation, 1);
    QCOMPARE(f.a.strict.diff.extra, 1);
    QCOMPARE(f.a.strict.goldKeys, 3);
    QCOMPARE(f.a.strict.goldValues, 3);
    QCOMPARE(f.a.strict.predictedValues, 4);
    QVERIFY(std::abs(f.a.strict.partialCredit - 1.0 / 3) < 1e-12);
    QVERIFY(std::abs(f.a.strict.valueTruePositives() - (1 + 1.0 / 3 + 0.2)) < 1e-12);
    QCOMPARE(f.a.points, -3.0); // two wrong values and one extra key, −1 each
    QVERIFY(!f.a.correct && !f.a.failed);

    QCOMPARE(f.b.strict.diff.mk, 2);
    QCOMPARE(f.b.strict.diff.mv, 2);
    QCOMPARE(f.b.strict.goldKeys, 4);
    QCOMPARE(f.b.strict.goldValues, 3);
    QCOMPARE(f.b.strict.predictedValues, 1);
    QCOMPARE(f.b.strict.valueTruePositives(), 1.0);
    QCOMPARE(f.b.points, -8.0); // two MK and two MV, −2 each

    QVERIFY(f.c.failed);
    QCOMPARE(f.c.points, -15.0);
    QVERIFY(f.d.correct);
    QCOMPARE(f.d.points, 10.0);
}

void TestScoring::lenientCountsForgiveCaseAndFullStop()
{
    const json gold = j(R"({"city":"Berlin.","who":"Ana"})");
    const json pred = j(R"({"city":" berlin","who":"ANA"})");
    const ExtractionRecord r = scoreExtraction(gold, &pred, ArrayMatching::Ordered);
    QCOMPARE(r.strict.diff.wvDeviation, 2);
    QCOMPARE(r.lenient.diff.wv(), 0);
    QCOMPARE(r.lenient.valueTruePositives(), 2.0);
}

void TestScoring::inventedValueLowersPrecisionOnly()
{
    // gold {"a":1,"b":null} vs {"a":1,"b":"x"}: N_v = 1, TP_v = 1, N_pred_v = 2 → P = 0.5, R = 1.
    const json gold = j(R"({"a":1,"b":null})");
    const json pred = j(R"({"a":1,"b":"x"})");
    const ExtractionRecord r = scoreExtraction(gold, &pred, ArrayMatching::Ordered);
    QCOMPARE(r.strict.valueTruePositives(), 1.0);
    ExtractionTotals t;
    t.add(r);
    QVERIFY(std::abs(t.f1Values() - 2 * 0.5 * 1 / 1.5) < 1e-12);
}

void TestScoring::microTotals()
{
    const Fixture f = fixture();
    ExtractionTotals ab;
    ab.add(f.a);
    ab.add(f.b);
    // keys: TP 5, FP 1, FN 2 → 10/13; values: TP 2.5333, N_pred 5, N_v 6.
    QVERIFY(std::abs(ab.f1Keys() - 10.0 / 13) < 1e-12);
    QVERIFY(std::abs(ab.f1Values() - 0.4606060606060606) < 1e-12);

    ExtractionTotals all = ab;
    all.add(f.c);
    all.add(f.d);
    // keys: TP 6, FP 1, FN 3 → 12/16 = 0.75; values TP 3.5333, N_pred 6, N_v 8 → F1 0.50476…
    QCOMPARE(all.f1Keys(), 0.75);
    QVERIFY(std::abs(all.f1Values() - 0.5047619047619049) < 1e-12);
    QVERIFY(std::abs(all.f1Micro() - 0.5660714285714287) < 1e-12);
    QCOMPARE(all.docMicro(), 0.25 * 0.75); // 1 correct of 4, 1 failed of 4
    QVERIFY(std::abs(all.score() - 0.37678571428571433) < 1e-12);
    QCOMPARE(all.meanPoints(), (-3.0 - 8 - 15 + 10) / 4);
}

void TestScoring::ladder_data()
{
    QTest::addColumn<QString>("response");
    QTest::addColumn<QString>("gold");
    QTest::addColumn<LadderLabel>("label");
    QTest::addColumn<LadderLabel>("strictLabel");
    QTest::addColumn<QString>("rung");

    using L = LadderLabel;
    QTest::addRow("prose only") << u"I cannot help with that."_s << u"{\"city\":\"Oslo\",\"state\":null}"_s
                                << L::InvalidJson << L::InvalidJson << u"failed"_s;
    QTest::addRow("schema violation") << u"{\"city\": 5, \"state\": null}"_s << u"{\"city\":\"Oslo\",\"state\":null}"_s
                                      << L::SchemaViolation << L::SchemaViolation << u"clean"_s;
    QTest::addRow("invented state") << u"{\"city\": \"Oslo\", \"state\": \"CA\"}"_s
                                    << u"{\"city\":\"Oslo\",\"state\":null}"_s << L::HallucinatedOnMissing
                                    << L::HallucinatedOnMissing << u"clean"_s;
    QTest::addRow("invention outranks a wrong value")
        << u"{\"city\": \"Bergen\", \"state\": \"CA\"}"_s << u"{\"city\":\"Oslo\",\"state\":null}"_s
        << L::HallucinatedOnMissing << L::HallucinatedOnMissing << u"clean"_s;
    QTest::addRow("wrong value") << u"{\"city\": \"Bergen\", \"state\": null}"_s
                                 << u"{\"city\":\"Oslo\",\"state\":null}"_s << L::ValueIncorrect << L::ValueIncorrect
                                 << u"clean"_s;
    QTest::addRow("lenient equal, strict not")
        << u"{\"city\": \" oslo.\", \"state\": null}"_s << u"{\"city\":\"Oslo\",\"state\":null}"_s << L::Correct
        << L::ValueIncorrect << u"clean"_s;
    QTest::addRow("absent key where gold is null")
        << u"{\"city\": \"Oslo\"}"_s << u"{\"city\":\"Oslo\",\"state\":null}"_s << L::Correct << L::Correct
        << u"clean"_s;
    QTest::addRow("fenced and correct") << u"Here:\n```json\n{\"city\": \"Oslo\", \"state\": null}\n```"_s
                                        << u"{\"city\":\"Oslo\",\"state\":null}"_s << L::Correct << L::Correct
                                        << u"fenced"_s;
    QTest::addRow("missing value") << u"{\"city\": null, \"state\": null}"_s << u"{\"city\":\"Oslo\",\"state\":null}"_s
                                   << L::ValueIncorrect << L::ValueIncorrect << u"clean"_s;
    QTest::addRow("number by value") << u"{\"city\": \"Oslo\", \"state\": null, \"n\": 2.0}"_s
                                     << u"{\"city\":\"Oslo\",\"state\":null,\"n\":2}"_s << L::Correct << L::Correct
                                     << u"clean"_s;
}

void TestScoring::ladder()
{
    QFETCH(QString, response);
    QFETCH(QString, gold);
    QFETCH(LadderLabel, label);
    QFETCH(LadderLabel, strictLabel);
    QFETCH(QString, rung);

    const json schema = j(R"({"type":"object","properties":{"city":{"type":["string","null"]},)"
                          R"("state":{"type":["string","null"]},"n":{"type":"number"}},"additionalProperties":false})");
    const json goldDoc = json::parse(gold.toStdString());
    const std::string text = response.toStdString();
    ScoreInput input;
    input.response = text;
    input.gold = &goldDoc;
    input.schema = &schema;
    const Verdict v = scoreResponse(input, ScoringOptions::forFamilies({ u"ladder"_s, u"extraction"_s }));
    QCOMPARE(QString::fromLatin1(parseRungId(v.rung)), rung);
    QCOMPARE(v.ladder, label);
    QCOMPARE(v.ladderStrict, strictLabel);
    QCOMPARE(*v.value("ladder.correct"), label == LadderLabel::Correct ? 1.0 : 0.0);
    // Strict metrics accept a clean parse only (docs/metrics.md §0): a fenced correct answer is not
    // strictly correct.
    QCOMPARE(*v.value("ladder.correct_strict"), strictLabel == LadderLabel::Correct && rung == u"clean"_s ? 1.0 : 0.0);
    double sum = 0;
    for (const char* id : { "ladder.invalid_json", "ladder.schema_violation", "ladder.hallucinated_on_missing",
             "ladder.value_incorrect", "ladder.correct" })
        sum += *v.value(id);
    QCOMPARE(sum, 1.0); // the five labels partition the responses
}

void TestScoring::schemaErrorsAreKept()
{
    const json schema = j(R"({"type":"object","required":["a"]})");
    const json gold = j(R"({"a":1})");
    ScoreInput input;
    input.response = "{\"b\": 2}";
    input.gold = &gold;
    input.schema = &schema;
    const Verdict v = scoreResponse(input, ScoringOptions::forFamilies({ u"ladder"_s }));
    QVERIFY(!v.schemaValid);
    QCOMPARE(v.schemaErrors.size(), std::size_t(1));
    QVERIFY(!v.value("extraction.strategy_points")); // family not asked for

    // Bulk scoring (evaluateStore) asks only whether it is valid: the same verdict, no error list.
    ScoringOptions bulk = ScoringOptions::forFamilies({ u"ladder"_s });
    bulk.collectSchemaErrors = false;
    const Verdict quick = scoreResponse(input, bulk);
    QVERIFY(!quick.schemaValid);
    QVERIFY(quick.schemaErrors.empty());
    QCOMPARE(quick.ladder, v.ladder);
    QCOMPARE(quick.ladderStrict, v.ladderStrict);
    input.response = "{\"a\": 2}";
    QVERIFY(scoreResponse(input, bulk).schemaValid);
}

void TestScoring::importedStringCountsAsNotParsedForGrounding()
{
    const json schema = j(R"({"type":"object","properties":{"a":{"type":"integer"}}})");
    const json gold = j(R"({"a":1})");
    ScoreInput input;
    input.response = "{\"a\": 1}"; // the candidate arrived as this string
    input.importedAsString = true;
    input.gold = &gold;
    input.schema = &schema;
    const Verdict v = scoreResponse(input, ScoringOptions::forFamilies({ u"ladder"_s, u"grounding"_s }));
    QCOMPARE(v.ladder, LadderLabel::Correct); // the ladder parses the text
    QCOMPARE(*v.value("grounding.json_parse"), 0.0);
    QCOMPARE(*v.value("grounding.value_accuracy"), 0.0);
}

void TestScoring::oneValidationServesBothFamiliesOnlyWhereTheyAgree_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<QByteArray>("response");
    QTest::addColumn<bool>("ladderValid");
    QTest::addColumn<bool>("jsonPass");
    QTest::addColumn<bool>("strictIntegers"); ///< the ladder with SchemaOptions::integralFloatsAsIntegers off

    const QByteArray integer = R"({"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]})";
    const QByteArray date = R"({"type":"object","properties":{"n":{"type":"string","format":"date"}}})";
    for (const bool strict : { false, true }) {
        const char* const mode = strict ? "strict integers" : "draft-07";
        QTest::addRow("%s, integer: 1 valid for both", mode)
            << integer << QByteArray(R"({"n": 1})") << true << true << strict;
        QTest::addRow("%s, integer: 1.5 invalid for both", mode)
            << integer << QByteArray(R"({"n": 1.5})") << false << false << strict;
        QTest::addRow("%s, integer: 1.0", mode) << integer << QByteArray(R"({"n": 1.0})") << !strict << true << strict;
        QTest::addRow("%s, integer: missing for both", mode)
            << integer << QByteArray(R"({"m": 1})") << false << false << strict;
        QTest::addRow("%s, date: not a date only for SOB", mode)
            << date << QByteArray(R"({"n": "soon"})") << false << true << strict;
        QTest::addRow("%s, date: a date for both", mode)
            << date << QByteArray(R"({"n": "2024-01-31"})") << true << true << strict;
    }
}

void TestScoring::oneValidationServesBothFamiliesOnlyWhereTheyAgree()
{
    QFETCH(QByteArray, schema);
    QFETCH(QByteArray, response);
    QFETCH(bool, ladderValid);
    QFETCH(bool, jsonPass);
    QFETCH(bool, strictIntegers);

    const json schemaDoc = json::parse(schema.toStdString());
    const json gold = j(R"({"n": 1})");
    ScoringOptions options = ScoringOptions::forFamilies({ u"ladder"_s, u"grounding"_s });
    QVERIFY(options.schema.validateFormats);
    QVERIFY(options.schema.integralFloatsAsIntegers);
    options.schema.integralFloatsAsIntegers = !strictIntegers;
    for (const bool precompiled : { false, true }) {
        ScoreInput input;
        input.response = std::string_view(response.constData(), std::size_t(response.size()));
        input.gold = &gold;
        input.schema = &schemaDoc;
        const CompiledForScoring compiled = compileForScoring(schemaDoc, options);
        if (precompiled) {
            input.compiledSchema = compiled.schema;
            input.groundingSchema = compiled.grounding;
        }
        const Verdict v = scoreResponse(input, options);
        QCOMPARE(v.schemaValid, ladderValid);
        QCOMPARE(v.schemaErrors.empty(), ladderValid);
        QCOMPARE(*v.value("grounding.json_pass"), jsonPass ? 1.0 : 0.0);
        // The same as the grounding family alone, which always validates itself.
        const json candidate = json::parse(response.toStdString());
        const GroundingScores alone = scoreGrounding({ &candidate, gold, schemaDoc });
        QCOMPARE(alone.jsonPass, jsonPass ? 1.0 : 0.0);
    }
}

void TestScoring::aggregateRepeats()
{
    // m1 asked three cases three times (one case only twice, cut short); m2 asked each once.
    const auto record = [](const QString& model, const QString& caseId, int repeat, LadderLabel label) {
        return ladderRecord(model, model == u"m1"_s ? 1 : 2, caseId, 0, repeat, label);
    };
    using L = LadderLabel;
    const std::vector<ScoredRecord> records = {
        record(u"m1"_s, u"a"_s, 0, L::Correct),
        record(u"m1"_s, u"a"_s, 1, L::Correct),
        record(u"m1"_s, u"a"_s, 2, L::Correct),
        record(u"m1"_s, u"b"_s, 0, L::Correct),
        record(u"m1"_s, u"b"_s, 1, L::ValueIncorrect),
        record(u"m1"_s, u"b"_s, 2, L::Correct),
        record(u"m1"_s, u"c"_s, 0, L::ValueIncorrect),
        record(u"m1"_s, u"c"_s, 1, L::ValueIncorrect),
        record(u"m2"_s, u"a"_s, 0, L::Correct),
        record(u"m2"_s, u"b"_s, 0, L::Correct),
    };
    AggregateOptions options;
    options.groupBy = { "model" };
    options.families = { "ladder" };
    const Report report = aggregate(records, options);
    QCOMPARE(report.groups.size(), std::size_t(2));
    const ReportGroup& m1 = report.groups[0];
    // k = 3. Consistent: a (all correct) and c (both wrong, judged on the two it has); b is not → 2/3.
    QVERIFY(std::abs(m1.mean.at("ladder.consistency") - 2.0 / 3) < 1e-12);
    // pass^3 over the cases with three samples: a 1, b 0 → 1/2 (c is left out).
    QCOMPARE(m1.mean.at("ladder.pass_hat_k"), 0.5);
    // One sample per case: no repeats, no such metrics.
    QVERIFY(!report.groups[1].mean.count("ladder.consistency"));
    QVERIFY(!report.groups[1].mean.count("ladder.pass_hat_k"));
    QVERIFY(std::find(report.metrics.begin(), report.metrics.end(), "ladder.pass_hat_k") != report.metrics.end());
}

void TestScoring::aggregateLeavesErroredSlotsOut()
{
    // m1: three answers of case a (correct) and two errored slots of it, whose verdicts (an empty answer's) are
    // no answer of the model. m2: errored slots only. m3: an answer and an errored slot of case b.
    using L = LadderLabel;
    std::vector<ScoredRecord> records;
    const auto add = [&records](const QString& model, qint64 run, const QString& caseId, int repeat, L label,
                         ErrorKind error = ErrorKind::None) {
        ScoredRecord r = ladderRecord(model, run, caseId, 0, repeat, label);
        r.verdict.values.emplace_back("ladder.invalid_json", label == L::InvalidJson ? 1.0 : 0.0);
        r.verdict.values.emplace_back("extraction.strategy_points", label == L::Correct ? 2.0 : -1.0);
        r.verdict.extraction.failed = label == L::InvalidJson;
        r.verdict.extraction.correct = label == L::Correct;
        r.verdict.extraction.strict.goldKeys = 2;
        r.verdict.extraction.strict.goldValues = 2;
        if (label == L::InvalidJson) {
            r.verdict.extraction.strict.diff.mk = 2;
        }
        r.latencyMs = 100.0 * (repeat + 1);
        r.cost = 0.01;
        r.error = error;
        records.push_back(std::move(r));
    };
    add(u"m1"_s, 1, u"a"_s, 0, L::Correct);
    add(u"m1"_s, 1, u"a"_s, 1, L::InvalidJson, ErrorKind::MalformedBody);
    add(u"m1"_s, 1, u"a"_s, 2, L::Correct);
    add(u"m1"_s, 1, u"a"_s, 3, L::InvalidJson, ErrorKind::Timeout);
    add(u"m1"_s, 1, u"a"_s, 4, L::Correct);
    add(u"m2"_s, 2, u"a"_s, 0, L::InvalidJson, ErrorKind::Http5xx);
    add(u"m2"_s, 2, u"a"_s, 1, L::InvalidJson, ErrorKind::RateLimited);
    add(u"m3"_s, 3, u"b"_s, 0, L::ValueIncorrect);
    add(u"m3"_s, 3, u"b"_s, 1, L::InvalidJson, ErrorKind::Network);
    for (const bool intervals : { true, false }) {
        AggregateOptions options;
        options.groupBy = { "model" };
        options.intervals = intervals;
        options.bootstrap.resamples = 50;
        const Report report = aggregate(records, options);
        QCOMPARE(report.groups.size(), std::size_t(3));
        const ReportGroup& m1 = report.groups[0];
        QCOMPARE(m1.n, 3);
        QCOMPARE(m1.errored, 2);
        QCOMPARE(m1.erroredShare(), 0.4);
        QCOMPARE(m1.mean.at("ladder.correct"), 1.0);
        QCOMPARE(m1.mean.at("ladder.invalid_json"), 0.0);
        QCOMPARE(m1.mean.at("ladder.consistency"), 1.0); // its three answers agree
        QCOMPARE(m1.mean.at("ladder.pass_hat_k"), 1.0);
        QCOMPARE(m1.mean.at("extraction.strategy_points"), 2.0);
        QCOMPARE(m1.mean.at("extraction.doc_micro"), 1.0);
        QCOMPARE(m1.mean.at("ladder.latency_p50"), 300.0); // the answers' latencies: 100, 300, 500
        QVERIFY(std::abs(m1.mean.at("ladder.cost_per_success") - 0.01) < 1e-12); // the answers' cost per success
        if (intervals) {
            QCOMPARE(m1.ci95.at("ladder.correct").low, wilsonInterval(3, 3).low);
            QCOMPARE(m1.ci95.at("extraction.strategy_points").low, 2.0);
        }
        // A group of errored slots only: shown, with no score at all.
        const ReportGroup& m2 = report.groups[1];
        QCOMPARE(m2.n, 0);
        QCOMPARE(m2.errored, 2);
        QCOMPARE(m2.erroredShare(), 1.0);
        QVERIFY(m2.mean.empty());
        QVERIFY(m2.ci95.empty());
        const ReportGroup& m3 = report.groups[2];
        QCOMPARE(m3.n, 1);
        QCOMPARE(m3.errored, 1);
        QCOMPARE(m3.mean.at("ladder.correct"), 0.0);
        QCOMPARE(m3.mean.at("ladder.invalid_json"), 0.0);
        QVERIFY(!m3.mean.count("ladder.consistency")); // one answer: no repeats
    }
    // Records of errored slots only carry no family.
    const std::vector<ScoredRecord> onlyErrored(records.begin() + 5, records.begin() + 7);
    const Report none = aggregate(onlyErrored, {});
    QVERIFY(none.metrics.empty());
    QCOMPARE(none.groups.size(), std::size_t(1));
    QCOMPARE(none.groups[0].errored, 2);
}

void TestScoring::aggregateRepeatsInAnyOrder()
{
    // The records of aggregateRepeats() in one group (by suite: both runs), cases interleaved, with and without
    // the case rows a store gives: the same cases, whatever way they are told apart.
    const auto record = [](qint64 run, const QString& caseId, qint64 caseRow, LadderLabel label) {
        return ladderRecord(u"m%1"_s.arg(run), run, caseId, caseRow, 0, label);
    };
    using L = LadderLabel;
    for (const int rows : { 0, 1, 2 }) { // 0: no case rows; 1: every record has its row; 2: one lacks it
        const auto row = [rows](qint64 r, bool last) { return rows == 0 || (rows == 2 && last) ? 0 : r; };
        const std::vector<ScoredRecord> records = {
            record(1, u"a"_s, row(11, false), L::Correct),
            record(1, u"b"_s, row(12, false), L::Correct),
            record(2, u"a"_s, row(11, false), L::Correct),
            record(1, u"a"_s, row(11, false), L::Correct),
            record(1, u"c"_s, row(13, false), L::ValueIncorrect),
            record(1, u"b"_s, row(12, false), L::ValueIncorrect),
            record(1, u"c"_s, row(13, false), L::ValueIncorrect),
            record(1, u"b"_s, row(12, false), L::Correct),
            record(2, u"b"_s, row(12, false), L::Correct),
            record(1, u"a"_s, row(11, true), L::Correct),
        };
        AggregateOptions options;
        options.groupBy = { "suite" };
        options.families = { "ladder" };
        const Report report = aggregate(records, options);
        QCOMPARE(report.groups.size(), std::size_t(1));
        const ReportGroup& g = report.groups[0];
        // Cases (1,a) CCC, (1,b) CVC, (1,c) VV, (2,a) C, (2,b) C; k = 3. Consistent: all but (1,b) → 4/5.
        // Were the runs not told apart, a would be CCCC and b CVCC: 2/3 and pass^3 (1 + 1/4)/2.
        QVERIFY2(std::abs(g.mean.at("ladder.consistency") - 0.8) < 1e-12, qPrintable(u"rows %1"_s.arg(rows)));
        // pass^3 over the cases with three samples: (1,a) 1, (1,b) 0 → 1/2.
        QCOMPARE(g.mean.at("ladder.pass_hat_k"), 0.5);
    }
}

void TestScoring::aggregateRatesAndMicro()
{
    const Fixture f = fixture();
    std::vector<ScoredRecord> records(4);
    const ExtractionRecord* extraction[] = { &f.a, &f.b, &f.c, &f.d };
    for (int i = 0; i < 4; ++i) {
        ScoredRecord& r = records[std::size_t(i)];
        r.model = i < 2 ? u"m1"_s : u"m2"_s;
        r.tier = i % 2 ? u"hard"_s : u"easy"_s;
        r.weight = i % 2 ? 3 : 1;
        r.latencyMs = 100.0 * (i + 1);
        r.cost = 0.01;
        r.verdict.extraction = *extraction[i];
        r.verdict.ladder = i == 3 ? LadderLabel::Correct : LadderLabel::ValueIncorrect;
        r.verdict.values
            = { { "ladder.correct", i == 3 ? 1.0 : 0.0 }, { "extraction.strategy_points", extraction[i]->points } };
    }
    AggregateOptions options;
    options.groupBy = { "model" };
    Report all = aggregate(records, options);
    QCOMPARE(all.groups.size(), std::size_t(2));
    const ReportGroup& m2 = all.groups[1];
    QCOMPARE(m2.key.front().second, std::string("m2"));
    QCOMPARE(m2.n, 2);
    QCOMPARE(m2.mean.at("ladder.correct"), 0.5);
    // Wilson for 1/2: (0.5 + z²/4 ∓ z·sqrt(0.25/2 + z²/16)) / (1 + z²/2)
    const double z = 1.959963984540054;
    const double centre = (0.5 + z * z / 4) / (1 + z * z / 2);
    const double half = z * std::sqrt(0.25 / 2 + z * z / 16) / (1 + z * z / 2);
    QVERIFY(std::abs(m2.ci95.at("ladder.correct").low - (centre - half)) < 1e-12);
    // Weighted: C easy (w 1) wrong, D hard (w 3) right → 3/4.
    QCOMPARE(m2.weightedMean.at("ladder.correct"), 0.75);
    QCOMPARE(m2.mean.at("ladder.cost_per_success"), 0.02);
    QCOMPARE(m2.mean.at("ladder.latency_p50"), 350.0);
    // m2 = C (failed) + D (perfect): keys TP 1, FN 1 → F1 2/3; DOC (1/2)·(1 − 1/2).
    QVERIFY(std::abs(m2.mean.at("extraction.f1_keys") - 2.0 / 3) < 1e-12);
    QCOMPARE(m2.mean.at("extraction.doc_micro"), 0.25);
    QVERIFY(m2.ci95.at("extraction.f1_keys").isValid());

    options.groupBy = {};
    const Report one = aggregate(records, options);
    QCOMPARE(one.groups.size(), std::size_t(1));
    QVERIFY(std::abs(one.groups[0].mean.at("extraction.score") - 0.37678571428571433) < 1e-12);
    QCOMPARE(one.groups[0].mean.at("extraction.strategy_points"), -4.0);
    QVERIFY(std::find(one.metrics.begin(), one.metrics.end(), "extraction.f1_micro") != one.metrics.end());
}

void TestScoring::aggregateMicroBootstrapByCounts()
{
    // 4,500 records of four kinds: the micro intervals drawn as multinomial counts over the four (what a large
    // group gets) match those drawn record by record, up to the bootstrap's own Monte Carlo error.
    const Fixture f = fixture();
    const ExtractionRecord* kinds[] = { &f.a, &f.b, &f.c, &f.d };
    std::vector<ScoredRecord> records(4500);
    Xoshiro256 rng(99);
    for (ScoredRecord& r : records) {
        const std::size_t kind = std::size_t(rng.bounded(4));
        r.model = u"m"_s;
        r.verdict.extraction = *kinds[kind];
        r.verdict.values = { { "extraction.strategy_points", kinds[kind]->points } };
    }
    AggregateOptions options;
    options.families = { "extraction" };
    options.bootstrap.resamples = 1000;
    options.bootstrap.method = BootstrapMethod::Indexed;
    const Report indexed = aggregate(records, options);
    options.bootstrap.method = BootstrapMethod::Automatic;
    const Report automatic = aggregate(records, options);
    options.bootstrap.method = BootstrapMethod::Counts;
    const Report counts = aggregate(records, options);
    for (const char* id : { "extraction.score", "extraction.f1_micro", "extraction.doc_micro", "extraction.f1_keys",
             "extraction.f1_values", "extraction.f1_values_lenient" }) {
        const Interval a = indexed.groups.at(0).ci95.at(id);
        const Interval b = counts.groups.at(0).ci95.at(id);
        QCOMPARE(indexed.groups.at(0).mean.at(id), counts.groups.at(0).mean.at(id));
        // Automatic chose counts (4,500 records, 4 kinds): the very same draws.
        QCOMPARE(automatic.groups.at(0).ci95.at(id).low, b.low);
        QCOMPARE(automatic.groups.at(0).ci95.at(id).high, b.high);
        QVERIFY2(a.low != b.low, id); // really another method
        const double width = a.high - a.low;
        QVERIFY2(width > 0, id);
        QVERIFY2(std::abs(a.low - b.low) < 0.12 * width && std::abs(a.high - b.high) < 0.12 * width,
            qPrintable(u"%1: [%2, %3] vs [%4, %5]"_s.arg(QString::fromLatin1(id))
                           .arg(a.low)
                           .arg(a.high)
                           .arg(b.low)
                           .arg(b.high)));
    }
}

void TestScoring::aggregateMicroBootstrapByClassTallies()
{
    // A large group with too many kinds of record for the counts method (partial credits of every size): its
    // records' draws are tallied per kind, and the micro intervals must be those of the definition — the same
    // generator's draws, ExtractionTotals::add per drawn record — and of the record-by-record method.
    const json gold = j(R"({"name":"Anastasia","city":"Berlin Mitte","street":"Unter den Linden","zip":"10115"})");
    std::vector<ScoredRecord> records;
    std::set<std::array<double, ExtractionAdds::Count>> kinds;
    Xoshiro256 rng(11);
    for (int i = 0; i < 4603; ++i) { // not a multiple of the four tallies
        json pred = gold;
        pred["city"] = "Berlin Mitte" + std::string(std::size_t(rng.bounded(24)), 'x');
        pred["name"] = "Anastasia" + std::string(std::size_t(rng.bounded(18)), 'y');
        pred["street"] = "Unter den Linden" + std::string(std::size_t(rng.bounded(32)), 'z');
        if (rng.bounded(4) == 0)
            pred.erase("zip");
        const bool failed = rng.bounded(13) == 0;
        ScoredRecord r;
        r.model = u"m"_s;
        r.verdict.extraction = scoreExtraction(gold, failed ? nullptr : &pred, ArrayMatching::Ordered);
        r.verdict.values = { { "extraction.strategy_points", r.verdict.extraction.points } };
        kinds.insert(extractionAdds(r.verdict.extraction).values);
        records.push_back(std::move(r));
    }
    QVERIFY2(kinds.size() * 32 > records.size(), qPrintable(u"%1 kinds"_s.arg(kinds.size())));
    AggregateOptions options;
    options.families = { "extraction" };
    options.bootstrap.resamples = 300;
    const Report tallied = aggregateCheckingMicro(records, options);
    QCOMPARE(tallied.groups.size(), std::size_t(1));
    options.bootstrap.method = BootstrapMethod::Indexed;
    const Report indexed = aggregate(records, options);
    for (const char* id : { "extraction.score", "extraction.f1_micro", "extraction.doc_micro", "extraction.f1_keys",
             "extraction.f1_values", "extraction.f1_values_lenient" }) {
        QCOMPARE(tallied.groups[0].mean.at(id), indexed.groups[0].mean.at(id));
        QCOMPARE(tallied.groups[0].ci95.at(id).low, indexed.groups[0].ci95.at(id).low);
        QCOMPARE(tallied.groups[0].ci95.at(id).high, indexed.groups[0].ci95.at(id).high);
    }
}

void TestScoring::aggregateWithoutIntervalsHasTheSameEstimates()
{
    // Point estimates first (what a page paints while a large set's bootstrap runs): every value the full
    // aggregate gives, bit for bit, the rates' Wilson intervals, and no bootstrap interval.
    const json gold = j(R"({"name":"Ana","city":"Berlin","zip":"10115"})");
    std::vector<ScoredRecord> records;
    Xoshiro256 rng(3);
    for (int i = 0; i < 5000; ++i) {
        json pred = gold;
        pred["city"] = "Berlin" + std::string(std::size_t(rng.bounded(9)), 'x');
        ScoredRecord r;
        r.model = i % 2 ? u"m-b"_s : u"m-a"_s;
        r.runId = 1 + i % 2;
        r.caseId = u"c%1"_s.arg(i / 6);
        r.weight = double(i % 3);
        r.latencyMs = double(i % 17);
        r.verdict.ladder = rng.bounded(3) == 0 ? LadderLabel::Correct : LadderLabel::ValueIncorrect;
        r.verdict.extraction = scoreExtraction(gold, rng.bounded(10) == 0 ? nullptr : &pred, ArrayMatching::Ordered);
        r.verdict.values = { { "ladder.correct", r.verdict.ladder == LadderLabel::Correct ? 1.0 : 0.0 },
            { "extraction.strategy_points", r.verdict.extraction.points } };
        records.push_back(std::move(r));
    }
    // Groups where the estimates are NaN or absent: a weight that is NaN or negative (no weighted mean), weights
    // that sum to nothing, a value that is not finite (no mean) — without intervals they come from running
    // sums, and must still say what the values say.
    const auto odd = [&records](const QString& model, int at, double weight, double points) {
        for (int i = 0; i < 30; ++i) {
            ScoredRecord r = records[std::size_t(i)];
            r.model = model;
            r.runId = 10;
            if (i == at) {
                r.weight = weight;
                r.verdict.values = { { "ladder.correct", 1.0 }, { "extraction.strategy_points", points } };
            }
            records.push_back(std::move(r));
        }
    };
    const double nan = std::numeric_limits<double>::quiet_NaN();
    odd(u"m-nan-weight"_s, 5, nan, 1.0);
    odd(u"m-negative-weight"_s, 7, -1.0, 1.0);
    odd(u"m-nan-value"_s, 9, 1.0, nan);
    odd(u"m-infinite-value"_s, 11, 2.0, std::numeric_limits<double>::infinity());
    for (int i = 0; i < 3; ++i) { // weights of only 0 and one −1: they sum to less than nothing
        ScoredRecord r = records[std::size_t(i)];
        r.model = u"m-no-weight"_s;
        r.weight = i == 1 ? -1.0 : 0.0;
        records.push_back(std::move(r));
    }
    AggregateOptions options;
    options.bootstrap.resamples = 200;
    const Report full = aggregate(records, options);
    options.intervals = false;
    const Report quick = aggregate(records, options);
    QCOMPARE(quick.groups.size(), full.groups.size());
    QCOMPARE(quick.groups.size(), std::size_t(7));
    QCOMPARE(quick.metrics, full.metrics);
    const auto sameValues = [](const std::map<std::string, double>& a, const std::map<std::string, double>& b) {
        if (a.size() != b.size())
            return false;
        for (const auto& [id, value] : a) {
            const auto other = b.find(id);
            if (other == b.end() || !(other->second == value || (std::isnan(value) && std::isnan(other->second))))
                return false;
        }
        return true;
    };
    int nanWeighted = 0;
    for (std::size_t g = 0; g < full.groups.size(); ++g) {
        const ReportGroup& a = full.groups[g];
        const ReportGroup& b = quick.groups[g];
        QCOMPARE(b.key, a.key);
        QCOMPARE(b.n, a.n);
        QVERIFY2(sameValues(a.mean, b.mean), a.key.front().second.c_str());
        QVERIFY2(sameValues(a.weightedMean, b.weightedMean), a.key.front().second.c_str());
        nanWeighted += int(std::count_if(
            b.weightedMean.begin(), b.weightedMean.end(), [](const auto& entry) { return std::isnan(entry.second); }));
        QVERIFY(b.ci95.count("ladder.correct")); // a rate
        QCOMPARE(b.ci95.at("ladder.correct").low, a.ci95.at("ladder.correct").low);
        QCOMPARE(b.ci95.at("ladder.correct").high, a.ci95.at("ladder.correct").high);
        QVERIFY(!b.ci95.count("extraction.strategy_points"));
    }
    QCOMPARE(nanWeighted, 3); // the negative weight's two metrics, the NaN value's
    const auto group = [&quick](const char* model) {
        return *std::find_if(quick.groups.begin(), quick.groups.end(),
            [model](const ReportGroup& g) { return g.key.front().second == model; });
    };
    QVERIFY(std::isnan(group("m-nan-value").mean.at("extraction.strategy_points")));
    QVERIFY(std::isnan(group("m-infinite-value").mean.at("extraction.strategy_points")));
    QVERIFY(group("m-no-weight").weightedMean.empty());
    QVERIFY(group("m-nan-weight").weightedMean.empty()); // the weights' total is NaN: not above 0
    QVERIFY(std::isnan(group("m-nan-value").weightedMean.at("extraction.strategy_points")));
    QVERIFY(std::isnan(group("m-negative-weight").weightedMean.at("ladder.correct")));
}

void TestScoring::pointEstimatesFollowAGoldEditBitForBit()
{
    // 2 models × 3 strategies × 400 cases × 3 repeats: groups of 1,200 records, five blocks of sums each. A gold
    // edit re-scores every response of one case; the kept estimates, updated from the blocks holding them, must be
    // what aggregate() computes from all the records, bit for bit — edit after edit.
    const json gold = j(R"({"name":"Ana","city":"Berlin","zip":"10115"})");
    const json other = j(R"({"name":"Ana","city":"Bern","zip":null})");
    const QStringList cities = { u"Berlin"_s, u"Berlni"_s, u"Brln"_s, u"Bern"_s, u"berlin"_s };
    Xoshiro256 rng(11);
    const auto score = [&](ScoredRecord& r, const json& truth) {
        json pred = gold;
        pred["city"] = cities.at(int(rng.bounded(std::uint64_t(cities.size())))).toStdString();
        const bool failed = rng.bounded(12) == 0;
        r.verdict.extraction = scoreExtraction(truth, failed ? nullptr : &pred, ArrayMatching::Ordered);
        r.verdict.ladder = failed          ? LadderLabel::InvalidJson
            : r.verdict.extraction.correct ? LadderLabel::Correct
                                           : LadderLabel::ValueIncorrect;
        r.verdict.values = { { "ladder.correct", r.verdict.ladder == LadderLabel::Correct ? 1.0 : 0.0 },
            { "ladder.invalid_json", failed ? 1.0 : 0.0 },
            { "extraction.strategy_points", r.verdict.extraction.points } };
    };
    std::vector<ScoredRecord> flat;
    for (int run = 0; run < 6; ++run) {
        for (int c = 0; c < 400; ++c) {
            for (int repeat = 0; repeat < 3; ++repeat) {
                ScoredRecord r;
                r.model = run % 2 ? u"m-b"_s : u"m-a"_s;
                r.strategy = u"s%1"_s.arg(run / 2);
                r.runId = run + 1;
                r.caseRow = c + 1;
                r.caseId = u"c%1"_s.arg(c);
                r.repeat = repeat;
                r.weight = double(c % 4);
                r.latencyMs = double(rng.bounded(5000)) / 7.0;
                if (c % 5 != 0)
                    r.cost = double(rng.bounded(100)) / 3000.0;
                score(r, gold);
                // Some slots errored: in no sum, whatever their verdict becomes.
                if (repeat == 2 && c % 7 == 0)
                    r.error = run % 2 ? ErrorKind::MalformedBody : ErrorKind::Timeout;
                flat.push_back(std::move(r));
            }
        }
    }
    // Small groups edited too: one of a single record (no repeat values), one whose cases have 1 and 2 samples.
    for (const auto& [run, model, caseRow, repeat] :
        { std::tuple(7, u"m-solo"_s, 8, 0), std::tuple(8, u"m-short"_s, 8, 0), std::tuple(8, u"m-short"_s, 9, 0),
            std::tuple(8, u"m-short"_s, 9, 1) }) {
        ScoredRecord r;
        r.model = model;
        r.strategy = u"s0"_s;
        r.runId = run;
        r.caseRow = caseRow;
        r.caseId = u"c%1"_s.arg(caseRow - 1);
        r.repeat = repeat;
        r.latencyMs = 10.0;
        r.cost = 0.01;
        score(r, gold);
        flat.push_back(std::move(r));
    }
    ScoredRecords records(std::move(flat));
    AggregateOptions options;
    options.groupBy = { "model", "strategy" };
    options.intervals = false;
    const auto sameValues = [](const std::map<std::string, double>& a, const std::map<std::string, double>& b) {
        if (a.size() != b.size())
            return false;
        for (const auto& [id, value] : a) {
            const auto found = b.find(id);
            if (found == b.end() || std::memcmp(&found->second, &value, sizeof value) != 0)
                return false;
        }
        return true;
    };
    const auto sameReport = [&](const Report& a, const Report& b) {
        if (a.groups.size() != b.groups.size() || a.metrics != b.metrics)
            return false;
        for (std::size_t g = 0; g < a.groups.size(); ++g) {
            const ReportGroup& x = a.groups[g];
            const ReportGroup& y = b.groups[g];
            if (x.key != y.key || x.n != y.n || x.errored != y.errored || !sameValues(x.mean, y.mean)
                || !sameValues(x.weightedMean, y.weightedMean) || x.ci95.size() != y.ci95.size())
                return false;
            for (const auto& [id, ci] : x.ci95) {
                if (!y.ci95.count(id) || std::memcmp(&ci, &y.ci95.at(id), sizeof ci) != 0)
                    return false;
            }
        }
        return true;
    };
    PointEstimates kept(records, options);
    QVERIFY(sameReport(kept.report(), aggregate(records, options)));
    QCOMPARE(kept.report().groups.size(), std::size_t(8));
    QCOMPARE(kept.report().groups[6].key.front().second, "m-short");
    QVERIFY(kept.report().groups[6].mean.count("ladder.consistency")); // k = 2, a case short of it
    QCOMPARE(kept.report().groups[7].key.front().second, "m-solo");
    QVERIFY(!kept.report().groups[7].mean.count("ladder.consistency")); // one record: no repeats
    QVERIFY(kept.report().groups.front().mean.count("ladder.pass_hat_k"));
    QVERIFY(kept.report().groups.front().mean.count("extraction.f1_micro"));
    QVERIFY(kept.report().groups.front().mean.count("ladder.cost_per_success"));
    QVERIFY(kept.report().groups.front().errored > 0);

    // Gold edits: every response of a case scored again against other gold, one case after another.
    std::vector<ScoredRecords> sets { records };
    for (const int edited : { 7, 255, 256, 399, 7 }) {
        const ScoredRecords& before = sets.back();
        std::vector<std::pair<std::size_t, ScoredRecord>> replacements;
        std::vector<std::size_t> places;
        for (std::size_t i = 0; i < before.size(); ++i) {
            if (before[i].caseRow != edited + 1)
                continue;
            ScoredRecord r = before[i];
            score(r, other);
            replacements.emplace_back(i, std::move(r));
            places.push_back(i);
        }
        QCOMPARE(places.size(), std::size_t(edited == 7 ? 20 : 18));
        sets.push_back(before.withReplaced(std::move(replacements)));
        QVERIFY(kept.update(sets.back(), places));
        QVERIFY2(sameReport(kept.report(), aggregate(sets.back(), options)), qPrintable(u"case %1"_s.arg(edited)));
    }
    QVERIFY(!sameReport(kept.report(), aggregate(records, options))); // the edits did change something

    // What the kept sums cannot follow is refused, and changes nothing: a record moved to another group, another
    // response's verdict (its latency differs), a family that was not there, a different number of records.
    const Report last = kept.report();
    const ScoredRecords& current = sets.back();
    const auto refused = [&](const std::function<void(ScoredRecord&)>& change) {
        ScoredRecord r = current[100];
        change(r);
        const ScoredRecords changed = current.withReplaced({ { 100, r } });
        return !kept.update(changed, { 100 });
    };
    QVERIFY(refused([](ScoredRecord& r) { r.model = u"m-c"_s; }));
    QVERIFY(refused([](ScoredRecord& r) { r.latencyMs = -1.0; }));
    QVERIFY(refused([](ScoredRecord& r) { r.error = ErrorKind::Network; })); // an answer cannot become errored
    QVERIFY(refused([](ScoredRecord& r) { r.verdict.values.emplace_back("grounding.value_accuracy", 0.5); }));
    QVERIFY(!kept.update(RecordsView(std::span<const ScoredRecord>(current.span(0))), { 0 }));
    QVERIFY(sameReport(kept.report(), last));
    // With the families named, a value of another family is not looked at: accepted.
    AggregateOptions named = options;
    named.families = { "ladder", "extraction" };
    PointEstimates namedKept(current, named);
    ScoredRecord extra = current[100];
    extra.verdict.values.emplace_back("grounding.value_accuracy", 0.5);
    const ScoredRecords withExtra = current.withReplaced({ { 100, extra } });
    QVERIFY(namedKept.update(withExtra, { 100 }));
    QVERIFY(sameReport(namedKept.report(), aggregate(withExtra, named)));
}

void TestScoring::aggregateEqualsRecordByRecordDefinition()
{
    // The aggregate groups by interned keys and resamples flat arrays; here every figure is recomputed the plain
    // way — groups by their key strings, Verdict::value() per record, ExtractionTotals::add per draw — and must
    // come out bit for bit the same. Key strings are built afresh per record (no shared QString data), records of
    // the groups interleave, and one record lists an id twice (the first value counts).
    const json gold = j(R"({"name":"Ana","city":"Berlin","zip":"10115"})");
    const QStringList cities = { u"Berlin"_s, u"Berlni"_s, u"Brln"_s, u"Paris"_s, u"berlin"_s, u"Berlin Mitte"_s };
    std::vector<ScoredRecord> records;
    std::vector<ExtractionRecord> extractions;
    Xoshiro256 rng(7);
    for (int i = 0; i < 600; ++i) {
        json pred = gold;
        pred["city"] = cities.at(int(rng.bounded(std::uint64_t(cities.size())))).toStdString();
        if (rng.bounded(5) == 0)
            pred.erase("zip");
        const bool failed = rng.bounded(11) == 0;
        ScoredRecord r;
        r.model = QString::fromLatin1(i % 3 ? "m-b" : "m-a");
        r.category = QString::fromLatin1(i % 2 ? "x" : "y");
        r.weight = double(1 + i % 3);
        r.verdict.extraction = scoreExtraction(gold, failed ? nullptr : &pred, ArrayMatching::Ordered);
        r.verdict.values = { { "ladder.correct", double(i % 5 == 0) },
            { "extraction.strategy_points", r.verdict.extraction.points } };
        if (i == 5)
            r.verdict.values.emplace_back("ladder.correct", 0.5); // a repeated id: ignored
        records.push_back(std::move(r));
    }
    AggregateOptions options;
    options.groupBy = { "category", "model" };
    options.families = { "ladder", "extraction" };
    options.bootstrap.resamples = 200;
    options.bootstrap.method = BootstrapMethod::Indexed;
    const Report report = aggregate(records, options);
    QCOMPARE(report.groups.size(), std::size_t(4));
    const std::vector<std::pair<std::string, std::string>> order
        = { { "x", "m-a" }, { "x", "m-b" }, { "y", "m-a" }, { "y", "m-b" } };
    for (std::size_t g = 0; g < order.size(); ++g) {
        const ReportGroup& group = report.groups[g];
        QCOMPARE(group.key.at(0).second, order[g].first);
        QCOMPARE(group.key.at(1).second, order[g].second);
        std::vector<const ScoredRecord*> members;
        for (const ScoredRecord& r : records) {
            if (r.category.toStdString() == order[g].first && r.model.toStdString() == order[g].second)
                members.push_back(&r);
        }
        QCOMPARE(group.n, int(members.size()));
        std::vector<double> points;
        for (const ScoredRecord* r : members)
            points.push_back(*r->verdict.value("extraction.strategy_points"));
        const MeanEstimate pointsEstimate = bootstrapMean(points, options.bootstrap);
        QCOMPARE(group.mean.at("extraction.strategy_points"), pointsEstimate.mean);
        QCOMPARE(group.ci95.at("extraction.strategy_points").low, pointsEstimate.ci.low);
        QCOMPARE(group.ci95.at("extraction.strategy_points").high, pointsEstimate.ci.high);
        qint64 correct = 0;
        for (const ScoredRecord* r : members)
            correct += *r->verdict.value("ladder.correct") > 0.5 ? 1 : 0;
        const RateEstimate rate = estimateRate(correct, qint64(members.size()));
        QVERIFY(correct > 0);
        QCOMPARE(group.mean.at("ladder.correct"), rate.rate);
        QCOMPARE(group.ci95.at("ladder.correct").low, rate.ci.low);
        QCOMPARE(group.ci95.at("ladder.correct").high, rate.ci.high);

        checkMicroAgainstDefinition(group, members, options.bootstrap);
        ExtractionTotals all;
        for (const ScoredRecord* r : members)
            all.add(r->verdict.extraction);
        QCOMPARE(group.mean.at("extraction.f1_values"), all.f1Values());
        QCOMPARE(group.mean.at("extraction.score"), all.score());
    }
}

void TestScoring::aggregateMicroWithHugeCounts()
{
    // Records with tens of millions of gold values (a batch of 256 draws would overflow 32 bits) take the 64-bit
    // path of the micro bootstrap: still the definition.
    std::vector<ScoredRecord> records(300);
    for (std::size_t i = 0; i < records.size(); ++i) {
        ExtractionRecord& e = records[i].verdict.extraction;
        e.strict.goldValues = 20'000'000 + int(i);
        e.strict.goldKeys = 20'000'000 + int(i);
        e.strict.predictedValues = 19'900'000 - int(i * 1000);
        e.strict.diff.mk = int(i * 37);
        e.strict.diff.extra = int(i % 7);
        e.strict.partialCredit = 0.5 * double(i);
        e.lenient = e.strict;
        e.failed = i % 9 == 0;
        e.correct = i % 5 == 0 && !e.failed;
        records[i].model = u"m"_s;
        records[i].verdict.values = { { "extraction.strategy_points", double(i % 3) } };
    }
    AggregateOptions options;
    options.families = { "extraction" };
    options.bootstrap.resamples = 100;
    QCOMPARE(aggregateCheckingMicro(records, options).groups.size(), std::size_t(1));
}

void TestScoring::extractionAddsSumToTotals()
{
    // ExtractionTotals from summed ExtractionAdds equal those of add(), a failed record included.
    const Fixture f = fixture();
    ExtractionTotals added;
    std::array<double, ExtractionAdds::Count> sums {};
    for (const ExtractionRecord* r : { &f.a, &f.b, &f.c, &f.d, &f.a }) {
        added.add(*r);
        const auto a = extractionAdds(*r).values;
        for (std::size_t i = 0; i < a.size(); ++i)
            sums[i] += a[i];
    }
    const ExtractionTotals summed = ExtractionTotals::fromSums(sums, 5);
    QCOMPARE(summed.records, added.records);
    QCOMPARE(summed.failed, 1);
    QCOMPARE(summed.correct, added.correct);
    QCOMPARE(summed.keyTp, added.keyTp);
    QCOMPARE(summed.keyFp, added.keyFp);
    QCOMPARE(summed.keyFn, added.keyFn);
    QCOMPARE(summed.valueTp, added.valueTp);
    QCOMPARE(summed.valueTpLenient, added.valueTpLenient);
    QCOMPARE(summed.goldValues, added.goldValues);
    QCOMPARE(summed.predictedValues, added.predictedValues);
    QCOMPARE(summed.meanPoints(), added.meanPoints());
    QCOMPARE(summed.score(), added.score());
}

void TestScoring::everyMetricIsDescribed()
{
    for (const MetricInfo& m : allMetrics()) {
        QVERIFY2(!m.description.empty(), m.id.data());
        QVERIFY(findMetric(m.id) == &m);
        QVERIFY(m.id.substr(0, m.family.size()) == m.family);
    }
    QCOMPARE(familyMetrics("grounding").size(), std::size_t(11));
    QVERIFY(findMetric("nope.nothing") == nullptr);
}

void TestScoring::metricValuesKeepOrderAndSpillPastTheInlineOnes()
{
    static_assert(sizeof(MetricValues) <= 80, "a verdict's values must stay compact: a million are held at once");
    MetricValues values;
    QVERIFY(values.empty());
    std::vector<std::string> ids; // built at run time: interning copies the text, so these may die
    for (int i = 0; i < 20; ++i)
        ids.push_back("test.metric_" + std::to_string(i));
    for (int i = 0; i < 20; ++i)
        values.emplace_back(ids[std::size_t(i)], i * 0.5);
    values.emplace_back(ids[3], 99.0); // a repeated id: the first value is the one found
    QCOMPARE(values.size(), std::size_t(21));
    for (std::size_t i = 0; i < 20; ++i) {
        QCOMPARE(values.id(i), std::string_view(ids[i]));
        QCOMPARE(values.value(i), double(i) * 0.5);
        QCOMPARE(values[i].first, std::string_view(ids[i]));
    }
    QCOMPARE(values.find("test.metric_3"), std::optional<double>(1.5));
    QCOMPARE(values.find("test.metric_19"), std::optional<double>(9.5));
    QCOMPARE(values.find("test.never_added"), std::optional<double>());
    std::size_t visited = 0;
    for (const auto& [id, value] : values) {
        QCOMPARE(id, values.id(visited));
        QCOMPARE(value, values.value(visited));
        ++visited;
    }
    QCOMPARE(visited, values.size());

    // Copies are deep and equal; a changed copy is not; a move leaves the source empty.
    MetricValues copy = values;
    QVERIFY(copy == values);
    copy.emplace_back("test.metric_0", 0.0);
    QVERIFY(!(copy == values));
    copy = values;
    QVERIFY(copy == values);
    MetricValues other { { "test.metric_0", 0.0 }, { "test.metric_1", 0.5 } };
    QVERIFY(!(other == values));
    MetricValues moved = std::move(copy);
    QVERIFY(moved == values);
    QVERIFY(copy.empty()); // a moved-from MetricValues is empty, by its contract
    QCOMPARE(copy.begin() == copy.end(), true);
    MetricValues assigned;
    assigned = std::move(moved);
    QVERIFY(assigned == values);
    const MetricValues withNan { { "test.metric_0", std::nan("") } };
    QVERIFY(!(withNan == withNan)); // as a double: NaN equals nothing
    assigned.clear();
    QVERIFY(assigned.empty());
    QCOMPARE(assigned.find("test.metric_0"), std::optional<double>());
}

void TestScoring::metricKeysAreInternedOnceAcrossThreads()
{
    // The same text from different storage is one key with one interned storage.
    const std::string a = "test.interned";
    const std::string b = std::string("test.") + "interned";
    QCOMPARE(metricKey(a), metricKey(b));
    QCOMPARE(metricIdOf(metricKey(a)).data(), metricIdOf(metricKey(b)).data());
    QVERIFY(metricIdOf(metricKey(a)).data() != a.data());
    QVERIFY(metricKey("ladder.correct") != metricKey("ladder.correct_strict"));

    // Threads interning the same new ids at once all get the same keys.
    constexpr int kThreads = 4, kIds = 200;
    std::vector<std::vector<MetricKey>> keys(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([t, &keys] {
            for (int i = 0; i < kIds; ++i) {
                const int n = (i * 7 + t * 13) % kIds; // each thread in its own order
                keys[std::size_t(t)].push_back(metricKey("test.concurrent_" + std::to_string(n)));
            }
        });
    }
    for (std::thread& thread : threads)
        thread.join();
    std::map<int, MetricKey> keyOf;
    for (int t = 0; t < kThreads; ++t) {
        for (int i = 0; i < kIds; ++i) {
            const int n = (i * 7 + t * 13) % kIds;
            const auto [it, inserted] = keyOf.emplace(n, keys[std::size_t(t)][std::size_t(i)]);
            QCOMPARE(it->second, keys[std::size_t(t)][std::size_t(i)]);
        }
    }
    QCOMPARE(keyOf.size(), std::size_t(kIds));
    std::set<MetricKey> distinct;
    for (const auto& [n, key] : keyOf) {
        distinct.insert(key);
        QCOMPARE(metricIdOf(key), std::string_view("test.concurrent_" + std::to_string(n)));
    }
    QCOMPARE(distinct.size(), std::size_t(kIds));
}

QTEST_GUILESS_MAIN(TestScoring)
#include "tst_scoring.moc"
