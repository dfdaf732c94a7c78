// SPDX-License-Identifier: Apache-2.0
// Failure overlaps across models (core/report/failureoverlaps.h): the criterion, the majority rule with its ties,
// the exclusive regions of a choice of sets and what the CLI writes of them, on the hand-built store of
// overlapfixtures.h (memberships worked out by hand there) and on seeded random records.
#include "overlapfixtures.h"
#include "report/evaluation.h"
#include "report/failureoverlaps.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <set>

using namespace structscope;
using namespace Qt::StringLiterals;

namespace {

QStringList caseIds(const std::vector<CaseKey>& cases)
{
    QStringList ids;
    for (const CaseKey& c : cases)
        ids << c.caseId;
    return ids;
}

ScoredRecord record(const QString& model, const QString& caseId, bool correct, int repeat = 0)
{
    ScoredRecord r;
    r.suite = u"s"_s;
    r.model = model;
    r.strategy = u"P"_s;
    r.caseId = caseId;
    r.repeat = repeat;
    r.verdict.ladder = correct ? LadderLabel::Correct : LadderLabel::ValueIncorrect;
    return r;
}

} // namespace

class TestOverlaps : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void criterionParse_data();
    void criterionParse();
    void criterionErrors_data();
    void criterionErrors();
    void majorityAndTies();
    void allFourSets();
    void choicesOfSets();
    void errorKindCriterion();
    void metricCriterion();
    void jsonAndCsv();
    void setChoiceErrors();
    void randomRecordsAddUp();

private:
    QTemporaryDir m_dir;
    std::vector<ScoredRecord> m_records;
};

void TestOverlaps::initTestCase()
{
    QVERIFY(m_dir.isValid());
    auto store = overlapfixture::makeStore(m_dir.filePath(u"ov.structscope"_s));
    QVERIFY(store);
    const Evaluation evaluation = evaluateStore(*store, {});
    QVERIFY2(evaluation.ok(), qPrintable(evaluation.error));
    for (const ScoredRecord& r : evaluation.records)
        m_records.push_back(r);
    QCOMPARE(int(m_records.size()), 6 * (3 + 2 + 1 + 1));
}

void TestOverlaps::criterionParse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("canonical");
    QTest::addRow("default") << QString() << u"not-correct"_s;
    QTest::addRow("not-correct") << u" not-correct "_s << u"not-correct"_s;
    QTest::addRow("error") << u"error:mk"_s << u"error:mk"_s;
    QTest::addRow("error sub-type") << u"error:wv_type"_s << u"error:wv_type"_s;
    QTest::addRow("metric") << u"grounding.value_accuracy<0.8"_s << u"grounding.value_accuracy<0.8"_s;
    QTest::addRow("metric spaces") << u"ladder.correct < 1"_s << u"ladder.correct<1"_s;
}

void TestOverlaps::criterionParse()
{
    QFETCH(QString, text);
    QFETCH(QString, canonical);
    QString error;
    const auto criterion = FailureCriterion::parse(text, &error);
    QVERIFY2(criterion, qPrintable(error));
    QCOMPARE(criterion->toString(), canonical);
    QCOMPARE(FailureCriterion::parse(criterion->toString()), criterion);
}

void TestOverlaps::criterionErrors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("says");
    QTest::addRow("unknown kind") << u"error:nope"_s << u"unknown error kind 'nope'"_s;
    QTest::addRow("unknown metric") << u"extraction.nope<1"_s << u"unknown metric 'extraction.nope'"_s;
    QTest::addRow("not per answer") << u"extraction.f1_micro<0.5"_s << u"not a value of each answer"_s;
    QTest::addRow("lower is better") << u"ladder.invalid_json<0.5"_s << u"lower is better"_s;
    QTest::addRow("threshold") << u"grounding.value_accuracy<high"_s << u"'high' is not a number"_s;
    QTest::addRow("no form") << u"wrong"_s << u"use not-correct, error:KIND"_s;
}

void TestOverlaps::criterionErrors()
{
    QFETCH(QString, text);
    QFETCH(QString, says);
    QString error;
    QVERIFY(!FailureCriterion::parse(text, &error));
    QVERIFY2(error.contains(says), qPrintable(error));
    QVERIFY2(error.contains(text.trimmed()), qPrintable(error)); // where the problem is
}

void TestOverlaps::majorityAndTies()
{
    const FailureMatrix matrix = failureMatrix(m_records, { "model" }, {});
    QCOMPARE(matrix.sets.size(), std::size_t(4));
    QCOMPARE(matrix.cases.size(), std::size_t(6));
    const auto state = [&matrix](const char* model, int caseNumber) {
        return matrix.state(std::size_t(caseNumber - 1), std::size_t(matrix.setIndex(QString::fromLatin1(model))));
    };
    const auto tied = [&matrix](const char* model, int caseNumber) {
        return matrix.tied[std::size_t(caseNumber - 1) * matrix.sets.size()
                   + std::size_t(matrix.setIndex(QString::fromLatin1(model)))]
            != 0;
    };
    QCOMPARE(state("m-a", 1), FailureMatrix::Failed); // 3 of 3
    QCOMPARE(state("m-a", 2), FailureMatrix::Failed); // 2 of 3
    QCOMPARE(state("m-a", 3), FailureMatrix::Passed); // 1 of 3
    QCOMPARE(state("m-a", 5), FailureMatrix::Failed); // 2 of the 2 that vote; the errored one does not
    QCOMPARE(state("m-a", 6), FailureMatrix::NoAnswer); // every repeat errored
    QCOMPARE(state("m-b", 2), FailureMatrix::Passed); // 1 of 2: a tie does not fail
    QVERIFY(tied("m-b", 2));
    QVERIFY(!tied("m-b", 4));
    QCOMPARE(state("m-b", 5), FailureMatrix::Failed); // 1 of the 1 that votes
    QCOMPARE(state("m-c", 3), FailureMatrix::Failed);
    const OverlapSet& a = matrix.sets[std::size_t(matrix.setIndex(u"m-a"_s))];
    QCOMPARE(a.answered, 5);
    QCOMPARE(a.failed, 3);
    const OverlapSet& b = matrix.sets[std::size_t(matrix.setIndex(u"m-b"_s))];
    QCOMPARE(b.answered, 6);
    QCOMPARE(b.failed, 4);
    QCOMPARE(b.ties, 1);
}

void TestOverlaps::allFourSets()
{
    const FailureOverlaps o = countFailureOverlaps(failureMatrix(m_records, { "model" }, {}));
    QVERIFY2(o.ok(), qPrintable(o.error));
    QCOMPARE(o.sets.size(), std::size_t(4));
    QCOMPARE(o.cases, 5);
    QCOMPARE(o.leftOut, 1); // o-6: m-a has no answer
    QCOMPARE(o.unionSize(), 4);
    QCOMPARE(caseIds(o.none), QStringList { u"o-4"_s });
    // a = bit 0, b = 1, c = 2, d = 3.
    QCOMPARE(o.region(0b1111), 1);
    QCOMPARE(o.region(0b1001), 1); // a, d: o-2
    QCOMPARE(o.region(0b0110), 1); // b, c: o-3
    QCOMPARE(o.region(0b0011), 1); // a, b: o-5
    QCOMPARE(o.region(0b0001), 0);
    QCOMPARE(o.regions.size(), std::size_t(4));
    QCOMPARE(caseIds(o.failedByAll()), QStringList { u"o-1"_s });
    QCOMPARE(o.setSize(0), 3);
    QCOMPARE(o.setSize(1), 3);
    QCOMPARE(o.setSize(2), 2);
    QCOMPARE(o.setSize(3), 2);
    QCOMPARE(o.sets[1].ties, 1); // o-2, among the counted cases
    QCOMPARE(o.regionLabel(0b0110), u"m-b ∩ m-c"_s);
    QCOMPARE(o.regionLabel(0b1011), u"all 4 chosen sets but m-c"_s);
    QCOMPARE(o.regionLabel(0b1111), u"all 4 chosen sets"_s);
    QCOMPARE(o.regionLabel(0), u"none of these"_s);
    // Largest first; among equals, fewer sets first, then by mask.
    QCOMPARE(o.regions.front().mask, std::uint64_t(0b0011));
    QCOMPARE(o.regions.back().mask, std::uint64_t(0b1111));
    int sum = 0;
    for (const OverlapRegion& r : o.regions)
        sum += r.count();
    QCOMPARE(sum + int(o.none.size()), o.cases);
}

void TestOverlaps::choicesOfSets()
{
    const FailureMatrix matrix = failureMatrix(m_records, { "model" }, {});
    const auto chosen = [&matrix](const QStringList& labels) {
        QString error;
        const auto sets = chooseOverlapSets(matrix, labels, &error);
        if (!sets)
            qWarning().noquote() << error;
        return sets.value_or(std::vector<int> {});
    };
    // b, c: every case answered by both.
    const FailureOverlaps bc = countFailureOverlaps(matrix, chosen({ u"m-b"_s, u"m-c"_s }));
    QCOMPARE(bc.cases, 6);
    QCOMPARE(bc.leftOut, 0);
    QCOMPARE(bc.region(0b11), 3); // o-1, o-3, o-6
    QCOMPARE(bc.region(0b01), 1); // o-5
    QCOMPARE(bc.region(0b10), 0);
    QCOMPARE(bc.region(0), 2); // o-2 (b's tie), o-4
    QCOMPARE(bc.unionSize(), 4);
    QCOMPARE(caseIds(bc.failedByAll()), (QStringList { u"o-1"_s, u"o-3"_s, u"o-6"_s }));
    // In the order asked for: c is bit 0 now.
    const FailureOverlaps cb = countFailureOverlaps(matrix, chosen({ u"m-c"_s, u"m-b"_s }));
    QCOMPARE(cb.region(0b10), 1);
    QCOMPARE(cb.sets[0].label(), u"m-c"_s);
    // a, b, c: o-6 left out.
    const FailureOverlaps abc = countFailureOverlaps(matrix, chosen({ u"m-a"_s, u"m-b"_s, u"m-c"_s }));
    QCOMPARE(abc.cases, 5);
    QCOMPARE(abc.leftOut, 1);
    for (std::uint64_t mask : { 0b111u, 0b001u, 0b110u, 0b011u })
        QCOMPARE(abc.region(mask), 1);
    QCOMPARE(abc.region(0), 1);
    QCOMPARE(abc.unionSize(), 4);
    // One set: its region is the set.
    const FailureOverlaps d = countFailureOverlaps(matrix, chosen({ u"m-d"_s }));
    QCOMPARE(d.region(1), 2);
    QCOMPARE(caseIds(d.failedByAll()), (QStringList { u"o-1"_s, u"o-2"_s }));
}

void TestOverlaps::errorKindCriterion()
{
    const auto criterion = FailureCriterion::parse(u"error:mk"_s);
    QVERIFY(criterion);
    const FailureOverlaps o = countFailureOverlaps(failureMatrix(m_records, { "model" }, *criterion));
    QCOMPARE(o.unionSize(), 1);
    QCOMPARE(o.regions.size(), std::size_t(1));
    QCOMPARE(o.regionLabel(o.regions[0].mask), u"m-c"_s);
    QCOMPARE(caseIds(o.regions[0].cases), QStringList { u"o-3"_s });
    // A wrong value is a WV error: m-d's o-2, not an MK one.
    const FailureOverlaps wv
        = countFailureOverlaps(failureMatrix(m_records, { "model" }, *FailureCriterion::parse(u"error:wv"_s)));
    QCOMPARE(wv.setSize(3), 2);
    QCOMPARE(wv.setSize(2), 1); // m-c's o-1 (o-3 lacks the key: MK, not WV)
}

void TestOverlaps::metricCriterion()
{
    // Hand-made values: m fails c1 (0.5 < 0.8) and c2 on 2 of 3 repeats; the metric does not apply to c3's answer.
    std::vector<ScoredRecord> records;
    const auto add = [&records](const char* caseId, int repeat, std::optional<double> value) {
        ScoredRecord r = record(u"m"_s, QString::fromLatin1(caseId), true, repeat);
        if (value)
            r.verdict.values.emplace_back("grounding.value_accuracy", *value);
        records.push_back(r);
    };
    add("c1", 0, 0.5);
    add("c2", 0, 0.1);
    add("c2", 1, 0.79);
    add("c2", 2, 0.8); // not below
    add("c3", 0, std::nullopt);
    add("c4", 0, 1.0);
    const auto criterion = FailureCriterion::parse(u"grounding.value_accuracy<0.8"_s);
    QVERIFY(criterion);
    QCOMPARE(criterion->fails(records[3]), std::optional<bool>(false));
    QCOMPARE(criterion->fails(records[4]), std::optional<bool>());
    const FailureMatrix matrix = failureMatrix(records, { "model" }, *criterion);
    const FailureOverlaps o = countFailureOverlaps(matrix);
    QCOMPARE(o.cases, 3);
    QCOMPARE(o.leftOut, 1); // c3: no value, no vote
    QCOMPARE(caseIds(o.failedByAll()), (QStringList { u"c1"_s, u"c2"_s }));
    QVERIFY(failureOverlapRule(*criterion).contains(u"the metric does not apply to"_s));
}

void TestOverlaps::jsonAndCsv()
{
    const FailureOverlaps o = countFailureOverlaps(failureMatrix(m_records, { "model" }, {}));
    const nlohmann::json doc = nlohmann::json::parse(failureOverlapsJson(o, "measured"));
    QCOMPARE(doc["criterion"].get<std::string>(), std::string("not-correct"));
    QVERIFY(doc["rule"].get<std::string>().find("strict majority") != std::string::npos);
    QCOMPARE(doc["cases"].get<int>(), 5);
    QCOMPARE(doc["left_out"].get<int>(), 1);
    QCOMPARE(doc["union"].get<int>(), 4);
    QCOMPARE(doc["none"].get<int>(), 1);
    QCOMPARE(doc["all"]["count"].get<int>(), 1);
    QCOMPARE(doc["all"]["cases"][0]["case"].get<std::string>(), std::string("o-1"));
    QCOMPARE(doc["regions"].size(), std::size_t(4));
    int sum = 0;
    for (const auto& region : doc["regions"])
        sum += region["count"].get<int>();
    QCOMPARE(sum, 4);
    QCOMPARE(doc["sets"][1]["ties"].get<int>(), 1);

    const QString csv = QString::fromStdString(failureOverlapsCsv(o));
    const QStringList lines = csv.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.value(0), u"type,sets,degree,count"_s);
    QVERIFY(lines.contains(u"set,m-a,1,3"_s));
    QVERIFY(lines.contains(u"set,m-d,1,2"_s));
    QVERIFY(lines.contains(u"region,m-a & m-b,2,1"_s));
    QVERIFY(lines.contains(u"none,,0,1"_s));
    QVERIFY(lines.contains(u"all,m-a & m-b & m-c & m-d,4,1"_s));
    QCOMPARE(lines.size(), 1 + 4 + 4 + 2);
}

void TestOverlaps::setChoiceErrors()
{
    const FailureMatrix matrix = failureMatrix(m_records, { "model" }, {});
    QString error;
    QVERIFY(!chooseOverlapSets(matrix, { u"m-z"_s }, &error));
    QVERIFY2(error.contains(u"no set 'm-z'"_s) && error.contains(u"m-a, m-b, m-c, m-d"_s), qPrintable(error));
    QVERIFY(!countFailureOverlaps(matrix, { 7 }).ok());
    QVERIFY(!countFailureOverlaps(matrix, { 1, 1 }).ok());

    // More sets than a mask holds: a clear error, no counts.
    std::vector<ScoredRecord> records;
    for (int m = 0; m < kMaxOverlapSets + 1; ++m)
        records.push_back(record(u"m%1"_s.arg(m, 2, 10, QChar(u'0')), u"c"_s, false));
    const FailureMatrix many = failureMatrix(records, { "model" }, {});
    const FailureOverlaps tooMany = countFailureOverlaps(many);
    QVERIFY(!tooMany.ok());
    QVERIFY2(tooMany.error.contains(u"65 sets"_s), qPrintable(tooMany.error));
    std::vector<int> sixtyFour(64);
    for (int i = 0; i < 64; ++i)
        sixtyFour[std::size_t(i)] = i;
    const FailureOverlaps most = countFailureOverlaps(many, sixtyFour);
    QVERIFY(most.ok());
    QCOMPARE(most.fullMask(), ~std::uint64_t(0));
    QCOMPARE(caseIds(most.failedByAll()), QStringList { u"c"_s });
}

void TestOverlaps::randomRecordsAddUp()
{
    // Seeded random answers (some errored, with repeats); every choice of sets: each counted case in exactly one
    // region, the regions summing to the union, each set's size its own count of majority failures.
    QRandomGenerator random(20261206);
    std::vector<ScoredRecord> records;
    for (int m = 0; m < 6; ++m) {
        const int repeats = 1 + m % 3;
        for (int c = 0; c < 40; ++c) {
            for (int rep = 0; rep < repeats; ++rep) {
                ScoredRecord r
                    = record(u"m%1"_s.arg(m), u"c%1"_s.arg(c, 2, 10, QChar(u'0')), random.bounded(100) < 55, rep);
                if (random.bounded(100) < 8)
                    r.error = ErrorKind::Timeout;
                records.push_back(r);
            }
        }
    }
    const FailureMatrix matrix = failureMatrix(records, { "model" }, {});
    for (const std::vector<int>& chosen : std::vector<std::vector<int>> { {}, { 0, 1 }, { 2, 4, 5 }, { 5, 3, 1, 0 } }) {
        const FailureOverlaps o = countFailureOverlaps(matrix, chosen);
        QVERIFY(o.ok());
        std::set<CaseKey> seen;
        int sum = 0;
        for (const OverlapRegion& r : o.regions) {
            QVERIFY(r.count() > 0);
            sum += r.count();
            for (const CaseKey& c : r.cases)
                QVERIFY(seen.insert(c).second);
        }
        for (const CaseKey& c : o.none)
            QVERIFY(seen.insert(c).second);
        QCOMPARE(int(seen.size()), o.cases);
        QCOMPARE(sum, o.unionSize());
        QCOMPARE(o.cases + o.leftOut, 40);
        for (std::size_t i = 0; i < o.sets.size(); ++i) {
            // Count set i's majority failures straight from the records, among the counted cases.
            int failed = 0;
            for (const CaseKey& c : seen) {
                int fails = 0;
                int passes = 0;
                for (const ScoredRecord& r : records) {
                    if (r.model == o.sets[i].label() && r.caseId == c.caseId && !r.errored())
                        ++(r.verdict.ladder == LadderLabel::Correct ? passes : fails);
                }
                failed += fails > passes ? 1 : 0;
            }
            QCOMPARE(o.setSize(int(i)), failed);
            QCOMPARE(o.sets[i].failed, failed);
        }
    }
}

QTEST_GUILESS_MAIN(TestOverlaps)
#include "tst_overlaps.moc"
