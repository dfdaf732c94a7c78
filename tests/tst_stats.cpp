// SPDX-License-Identifier: Apache-2.0
// Statistics building blocks: intervals, bootstrap, paired tests, percentiles, repeats, gold suspicion.
// Reference values marked "python3" were computed with an independent re-implementation in exact or
// double arithmetic (fractions.Fraction, math.comb), as the comment next to each says.
#include "stats/binomial.h"
#include "stats/bootstrap.h"
#include "stats/intervals.h"
#include "stats/mcnemar.h"
#include "stats/means.h"
#include "stats/multiplicity.h"
#include "stats/paired.h"
#include "stats/percentile.h"
#include "stats/prng.h"
#include "stats/repeats.h"
#include "stats/suspicion.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTest>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>

using namespace Qt::StringLiterals;

using namespace structscope;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Equal within an absolute tolerance, NaN equal to NaN, infinities equal to themselves.
bool near(double actual, double expected, double tolerance)
{
    if (std::isnan(expected))
        return std::isnan(actual);
    if (std::isinf(expected))
        return actual == expected;
    return std::abs(actual - expected) <= tolerance;
}

#define COMPARE_NEAR(actual, expected, tolerance)                                                                      \
    QVERIFY2(near((actual), (expected), (tolerance)),                                                                  \
        qPrintable(u"%1 is %2, expected %3"_s.arg(QString::fromLatin1(#actual))                                        \
                       .arg(actual, 0, 'g', 17)                                                                        \
                       .arg(expected, 0, 'g', 17)))

std::vector<double> doubles(const QString& text)
{
    std::vector<double> out;
    for (const QString& item : text.split(u',', Qt::SkipEmptyParts)) {
        const QString t = item.trimmed();
        out.push_back(t == u"nan"_s ? kNaN : t == u"inf"_s ? kInf : t.toDouble());
    }
    return out;
}

std::vector<bool> bits(const QString& text)
{
    std::vector<bool> out;
    for (QChar ch : text)
        out.push_back(ch == u'1');
    return out;
}

// Fair-coin 0/1 data of any size, from the generator under test (its stream is pinned elsewhere).
std::vector<double> coinFlips(std::size_t n, std::uint64_t seed)
{
    Xoshiro256 rng(seed);
    std::vector<double> out(n);
    for (double& v : out)
        v = static_cast<double>(rng.bounded(2));
    return out;
}

// "m1=\"x\"; m2=1.0; m3=" → answers; an empty value after '=' means the path is absent.
std::vector<ModelAnswer> answers(const QString& text)
{
    std::vector<ModelAnswer> out;
    for (const QString& item : text.split(u';', Qt::SkipEmptyParts)) {
        const qsizetype eq = item.indexOf(u'=');
        ModelAnswer a;
        a.model = item.left(eq).trimmed();
        const QString value = item.mid(eq + 1).trimmed();
        if (!value.isEmpty())
            a.value = nlohmann::json::parse(value.toStdString());
        out.push_back(std::move(a));
    }
    return out;
}

// "cat:model=rate; …"
std::vector<CategoryFailureRate> failureRates(const QString& text)
{
    std::vector<CategoryFailureRate> out;
    for (const QString& item : text.split(u';', Qt::SkipEmptyParts)) {
        const qsizetype colon = item.indexOf(u':');
        const qsizetype eq = item.indexOf(u'=');
        const QString rate = item.mid(eq + 1).trimmed();
        out.push_back({ item.left(colon).trimmed(), item.mid(colon + 1, eq - colon - 1).trimmed(),
            rate == u"nan"_s ? kNaN : rate.toDouble() });
    }
    return out;
}

using Samples = std::vector<std::vector<RepeatSample<QString>>>;

// "correct+ value_incorrect- | invalid_json-" → cases separated by '|', samples by spaces, +/- = correct.
Samples repeatSamples(const QString& text)
{
    Samples out;
    for (const QString& c : text.split(u'|')) {
        std::vector<RepeatSample<QString>> samples;
        for (const QString& s : c.split(u' ', Qt::SkipEmptyParts))
            samples.push_back({ s.chopped(1), s.endsWith(u'+') });
        out.push_back(std::move(samples));
    }
    return out;
}

} // namespace

// ---- Wilson --------------------------------------------------------------------------------------------

// ---- PRNG ----------------------------------------------------------------------------------------------

// ---- Percentiles and cost ------------------------------------------------------------------------------

// ---- Means ---------------------------------------------------------------------------------------------

// ---- Bootstrap -----------------------------------------------------------------------------------------

// ---- Binomial draws and the counts method of the bootstrap ------------------------------------------------

// ---- McNemar -------------------------------------------------------------------------------------------

// ---- Paired comparison ---------------------------------------------------------------------------------

// ---- Repeats -------------------------------------------------------------------------------------------

// ---- Multiple comparisons -----------------------------------------------------------------------------

using Doubles = std::vector<double>;

// ---- Gold suspicion ------------------------------------------------------------------------------------

class TestStats : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void wilson_data();
    void wilson();
    void estimateRate();
    void intervalHelpers();
    void prngStreamIsPinned();
    void boundedIsUniform();
    void quantiles_data();
    void quantiles();
    void latencyPercentiles();
    void latencyPercentilesSelectWhatASortReads();
    void costPerSuccess_data();
    void costPerSuccess();
    void weightedMean_data();
    void weightedMean();
    void complexityWeights_data();
    void complexityWeights();
    void bootstrapPinnedValues();
    void bootstrapDeterminism();
    void bootstrapMeansMatchOneByOne();
    void bootstrapContainsMeanAndNarrows();
    void bootstrapBadInput_data();
    void bootstrapBadInput();
    void weightedBootstrap();
    void weightedBootstrapBadInput_data();
    void weightedBootstrapBadInput();
    void bootstrapMillionRecords();
    void binomialMoments_data();
    void binomialMoments();
    void binomialDistribution_data();
    void binomialDistribution();
    void multinomialCounts();
    void bootstrapCountsMatchIndexed();
    void weightedBootstrapCountsMatchIndexed();
    void logFactorial();
    void mcnemar_data();
    void mcnemar();
    void pairedOutcomes();
    void pairedScores();
    void pairedBadInput();
    void adjustPValues_data();
    void adjustPValues();
    void adjustPValuesEdges();
    void passAllProbability_data();
    void passAllProbability();
    void repeats_data();
    void repeats();
    void repeatsIntLabels();
    void consensusKey_data();
    void consensusKey();
    void suspicion_data();
    void suspicion();
    void suspicionRanking();
    void uniformFailure_data();
    void uniformFailure();
    void uniformFailureOrderAndOptions();
};

void TestStats::wilson_data()
{
    QTest::addColumn<qint64>("k");
    QTest::addColumn<qint64>("n");
    QTest::addColumn<double>("low");
    QTest::addColumn<double>("high");
    // python3, textbook form with p = k/n, z = 1.959963984540054:
    //   (p + z²/2n ± z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n)
    // 0/10: centre = (z²/20)/(1+z²/10) = 0.1387664; half the same → [0, 0.2775328].
    QTest::addRow("0 of 10") << qint64(0) << qint64(10) << 0.0 << 0.2775327998628892;
    // 10/10 mirrors 0/10: [1 − 0.2775328, 1].
    QTest::addRow("10 of 10") << qint64(10) << qint64(10) << 0.7224672001371107 << 1.0;
    QTest::addRow("5 of 10") << qint64(5) << qint64(10) << 0.236593090512564 << 0.7634069094874361;
    QTest::addRow("81 of 100") << qint64(81) << qint64(100) << 0.7222115462093562 << 0.8748524849023126;
    QTest::addRow("1 of 1") << qint64(1) << qint64(1) << 0.20654931437723745 << 1.0;
    // n = 0: centre (z²/2)/z² = 1/2, half z·(z/2)/z² = 1/2 → [0, 1].
    QTest::addRow("no trials") << qint64(0) << qint64(0) << 0.0 << 1.0;
    QTest::addRow("more successes than trials") << qint64(11) << qint64(10) << kNaN << kNaN;
    QTest::addRow("negative successes") << qint64(-1) << qint64(10) << kNaN << kNaN;
    QTest::addRow("negative trials") << qint64(0) << qint64(-3) << kNaN << kNaN;
}

void TestStats::wilson()
{
    QFETCH(qint64, k);
    QFETCH(qint64, n);
    QFETCH(double, low);
    QFETCH(double, high);
    const Interval ci = wilsonInterval(k, n);
    COMPARE_NEAR(ci.low, low, 1e-12);
    COMPARE_NEAR(ci.high, high, 1e-12);
    if (k == 0 && n >= 0)
        QCOMPARE(ci.low, 0.0); // exact, not 1e-17
    if (k == n && n >= 0)
        QCOMPARE(ci.high, 1.0);
}

void TestStats::estimateRate()
{
    const RateEstimate r = structscope::estimateRate(81, 100);
    QCOMPARE(r.rate, 0.81);
    COMPARE_NEAR(r.ci.low, 0.7222115462093562, 1e-12);
    const RateEstimate empty = structscope::estimateRate(0, 0);
    QVERIFY(std::isnan(empty.rate));
    QCOMPARE(empty.ci.low, 0.0);
    QCOMPARE(empty.ci.high, 1.0);
    QVERIFY(std::isnan(structscope::estimateRate(5, 4).rate));
    // A z of 0, negative or NaN is not an interval.
    QVERIFY(!wilsonInterval(5, 10, 0.0).isValid());
    QVERIFY(!wilsonInterval(5, 10, -1.0).isValid());
    QVERIFY(!wilsonInterval(5, 10, kNaN).isValid());
    // z = 1 is narrower than z = 1.96 around the same centre.
    QVERIFY(wilsonInterval(5, 10, 1.0).width() < wilsonInterval(5, 10).width());
}

void TestStats::intervalHelpers()
{
    const Interval unknown;
    QVERIFY(!unknown.isValid());
    QVERIFY(!unknown.contains(0.5));
    const Interval ci { 0.2, 0.4 };
    QVERIFY(ci.isValid());
    QVERIFY(ci.contains(0.2));
    QVERIFY(ci.contains(0.4));
    QVERIFY(!ci.contains(0.41));
    QVERIFY(!ci.contains(kNaN));
    COMPARE_NEAR(ci.width(), 0.2, 1e-15);
    QVERIFY(!(Interval { 0.5, 0.4 }).isValid());
}

void TestStats::prngStreamIsPinned()
{
    // splitmix64 from state 0: the published first output.
    std::uint64_t state = 0;
    QCOMPARE(splitMix64(state), 0xe220a8397b1dcdafull);

    // python3 port of xoshiro256** (state = 4 splitmix64 outputs from the seed), exact integers.
    Xoshiro256 rng(42);
    QCOMPARE(rng.next(), 0x15780b2e0c2ec716ull);
    QCOMPARE(rng.next(), 0x6104d9866d113a7eull);
    QCOMPARE(rng.next(), 0xae17533239e499a1ull);

    // Lemire on the upper 32 bits: python3 m = (next() >> 32) · bound, reject while m mod 2^32 < 2^32 mod bound.
    const QList<quint64> tens { 0, 3, 6, 9, 9, 7, 7, 8, 7, 5, 6, 2 };
    Xoshiro256 ten(42);
    for (quint64 expected : tens)
        QCOMPARE(quint64(ten.bounded(10)), expected);
    const QList<quint64> threes { 2, 0, 2, 2, 2, 2, 0, 0, 1, 0, 1, 2 };
    Xoshiro256 three(7);
    for (quint64 expected : threes)
        QCOMPARE(quint64(three.bounded(3)), expected);

    // Bounds of 2^32 and more: mask to the bit length of bound − 1 and reject (python3, same rule).
    Xoshiro256 wide(99);
    const std::uint64_t bound = 3ull * (1ull << 32) + 5;
    for (quint64 expected : { 5131241086ull, 708974019ull, 6297843164ull, 6641943836ull })
        QCOMPARE(quint64(wide.bounded(bound)), expected);

    QCOMPARE(quint64(rng.bounded(0)), quint64(0));
    QCOMPARE(quint64(rng.bounded(1)), quint64(0));
}

void TestStats::boundedIsUniform()
{
    // 60,000 draws from 6 values: each count is 10,000 ± 3·sqrt(60000·(1/6)(5/6)) ≈ ± 274.
    Xoshiro256 rng(2024);
    std::array<int, 6> counts {};
    for (int i = 0; i < 60000; ++i)
        ++counts[rng.bounded(6)];
    for (int c : counts)
        QVERIFY2(std::abs(c - 10000) < 300, qPrintable(QString::number(c)));
}

void TestStats::quantiles_data()
{
    QTest::addColumn<QString>("values");
    QTest::addColumn<double>("q");
    QTest::addColumn<double>("expected");
    // h = (n − 1)·q; x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
    QTest::addRow("median of 1..4") << u"1,2,3,4"_s << 0.5 << 2.5; // h = 1.5 → 2 + 0.5
    QTest::addRow("unsorted input") << u"4,1,3,2"_s << 0.5 << 2.5;
    QTest::addRow("minimum") << u"4,1,3,2"_s << 0.0 << 1.0;
    QTest::addRow("maximum") << u"4,1,3,2"_s << 1.0 << 4.0;
    QTest::addRow("p95 of 1..4") << u"1,2,3,4"_s << 0.95 << 3.85; // h = 2.85 → 3 + 0.85
    QTest::addRow("p25 of 1..5") << u"5,4,3,2,1"_s << 0.25 << 2.0; // h = 1 exactly
    QTest::addRow("single value") << u"7"_s << 0.99 << 7.0;
    QTest::addRow("NaN dropped") << u"nan,2,1"_s << 0.5 << 1.5;
    QTest::addRow("only NaN") << u"nan,nan"_s << 0.5 << kNaN;
    QTest::addRow("empty") << QString() << 0.5 << kNaN;
    QTest::addRow("q below 0") << u"1,2"_s << -0.1 << kNaN;
    QTest::addRow("q above 1") << u"1,2"_s << 1.1 << kNaN;
    QTest::addRow("q NaN") << u"1,2"_s << kNaN << kNaN;
    QTest::addRow("infinity at the top") << u"1,inf"_s << 1.0 << kInf;
    QTest::addRow("repeated infinity") << u"inf,inf"_s << 0.5 << kInf; // not inf − inf
}

void TestStats::quantiles()
{
    QFETCH(QString, values);
    QFETCH(double, q);
    QFETCH(double, expected);
    COMPARE_NEAR(quantile(doubles(values), q), expected, 1e-12);
}

void TestStats::latencyPercentiles()
{
    // 10..100 step 10: p50 h = 4.5 → 55; p95 h = 8.55 → 95.5; p99 h = 8.91 → 99.1.
    const LatencyPercentiles p = structscope::latencyPercentiles(doubles(u"100,90,80,70,60,50,40,30,20,10,nan"_s));
    QCOMPARE(p.count, qint64(10));
    COMPARE_NEAR(p.p50, 55.0, 1e-9);
    COMPARE_NEAR(p.p95, 95.5, 1e-9);
    COMPARE_NEAR(p.p99, 99.1, 1e-9);
    const LatencyPercentiles none = structscope::latencyPercentiles({});
    QCOMPARE(none.count, qint64(0));
    QVERIFY(std::isnan(none.p50) && std::isnan(none.p95) && std::isnan(none.p99));
}

void TestStats::latencyPercentilesSelectWhatASortReads()
{
    // latencyPercentiles() selects its order statistics instead of sorting: the same bits as quantile() (a sort
    // and quantileOfSorted()) on every size, with ties, infinities and NaN among the values.
    QRandomGenerator rng(20261201);
    for (int round = 0; round < 2000; ++round) {
        const int n = 1 + int(rng.bounded(round < 1000 ? 12 : 400));
        const bool ties = rng.bounded(2) == 0;
        std::vector<double> values;
        for (int i = 0; i < n; ++i) {
            const quint32 pick = rng.bounded(40);
            if (pick == 0)
                values.push_back(kInf);
            else if (pick == 1)
                values.push_back(-kInf);
            else if (pick == 2)
                values.push_back(kNaN);
            else
                values.push_back(ties ? double(rng.bounded(5)) * 10.0 : rng.generateDouble() * 1000.0);
        }
        const LatencyPercentiles p = structscope::latencyPercentiles(values);
        const auto same
            = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0; };
        QVERIFY2(same(p.p50, quantile(values, 0.50)) && same(p.p95, quantile(values, 0.95))
                && same(p.p99, quantile(values, 0.99)),
            qPrintable(u"round %1 (%2 values)"_s.arg(round).arg(n)));
    }
}

void TestStats::costPerSuccess_data()
{
    QTest::addColumn<double>("cost");
    QTest::addColumn<qint64>("successes");
    QTest::addColumn<double>("expected");
    QTest::addRow("plain") << 1.5 << qint64(3) << 0.5;
    QTest::addRow("free") << 0.0 << qint64(5) << 0.0;
    QTest::addRow("paid, no success") << 2.0 << qint64(0) << kInf;
    QTest::addRow("free, no success") << 0.0 << qint64(0) << kNaN;
    QTest::addRow("negative cost") << -1.0 << qint64(2) << kNaN;
    QTest::addRow("NaN cost") << kNaN << qint64(2) << kNaN;
    QTest::addRow("negative successes") << 1.0 << qint64(-1) << kNaN;
}

void TestStats::costPerSuccess()
{
    QFETCH(double, cost);
    QFETCH(qint64, successes);
    QFETCH(double, expected);
    COMPARE_NEAR(structscope::costPerSuccess(cost, successes), expected, 1e-15);
}

void TestStats::weightedMean_data()
{
    QTest::addColumn<QString>("values");
    QTest::addColumn<QString>("weights");
    QTest::addColumn<double>("expected");
    // (1·1 + 2·0 + 3·0.5 + 0·0.9) / (1 + 2 + 3 + 0) = 2.5 / 6
    QTest::addRow("unknown tier weighs 0") << u"1,0,0.5,0.9"_s << u"1,2,3,0"_s << 2.5 / 6.0;
    QTest::addRow("NaN value of weight 0 ignored") << u"1,nan"_s << u"1,0"_s << 1.0;
    QTest::addRow("equal weights = plain mean") << u"0.2,0.4"_s << u"3,3"_s << 0.3;
    QTest::addRow("all weights 0") << u"1,0"_s << u"0,0"_s << kNaN;
    QTest::addRow("empty") << QString() << QString() << kNaN;
    QTest::addRow("negative weight") << u"1,0"_s << u"1,-1"_s << kNaN;
    QTest::addRow("NaN weight") << u"1,0"_s << u"1,nan"_s << kNaN;
    QTest::addRow("size mismatch") << u"1,0"_s << u"1"_s << kNaN;
}

void TestStats::weightedMean()
{
    QFETCH(QString, values);
    QFETCH(QString, weights);
    QFETCH(double, expected);
    COMPARE_NEAR(weightedMeanOf(doubles(values), doubles(weights)), expected, 1e-15);
}

void TestStats::complexityWeights_data()
{
    QTest::addColumn<QString>("tier");
    QTest::addColumn<double>("weight");
    QTest::addRow("easy") << u"easy"_s << 1.0;
    QTest::addRow("medium") << u"medium"_s << 2.0;
    QTest::addRow("hard") << u"hard"_s << 3.0;
    QTest::addRow("unknown") << u"expert"_s << 0.0;
    QTest::addRow("empty") << QString() << 0.0;
    QTest::addRow("capitalised") << u"Easy"_s << 0.0;
    QTest::addRow("padded") << u" hard"_s << 0.0;
}

void TestStats::complexityWeights()
{
    QFETCH(QString, tier);
    QFETCH(double, weight);
    QCOMPARE(complexityWeight(tier), weight);
}

void TestStats::bootstrapPinnedValues()
{
    // python3 re-implementation of the documented procedure. Seed 7, B = 10 on 1..5: the sorted
    // means are 1.8 2.0 2.2 3.0 3.0 3.4 3.6 3.8 4.0 4.2; h = 9·0.025 = 0.225 → 1.8 + 0.225·0.2 = 1.845,
    // h = 9·0.975 = 8.775 → 4.0 + 0.775·0.2 = 4.155.
    const MeanEstimate small = bootstrapMean(doubles(u"1,2,3,4,5"_s), { 10, 7, 0.95 });
    QVERIFY(small.ok());
    QCOMPARE(small.mean, 3.0);
    QCOMPARE(small.n, qint64(5));
    QCOMPARE(small.resamplesUsed, 10);
    COMPARE_NEAR(small.ci.low, 1.845, 1e-12);
    COMPARE_NEAR(small.ci.high, 4.155, 1e-12);

    // python3, seed 12345, B = 1000 on 0.1 0.5 0.9 0.3.
    const MeanEstimate four = bootstrapMean(doubles(u"0.1,0.5,0.9,0.3"_s), { 1000, 12345, 0.95 });
    COMPARE_NEAR(four.ci.low, 0.19999999999999998, 1e-12);
    COMPARE_NEAR(four.ci.high, 0.75, 1e-12);

    // One record: every resample is that record.
    const MeanEstimate one = bootstrapMean(doubles(u"0.25"_s));
    QCOMPARE(one.ci.low, 0.25);
    QCOMPARE(one.ci.high, 0.25);
}

void TestStats::bootstrapDeterminism()
{
    const std::vector<double> data = coinFlips(200, 1);
    const MeanEstimate first = bootstrapMean(data, { 1000, 11, 0.95 });
    const MeanEstimate again = bootstrapMean(data, { 1000, 11, 0.95 });
    QCOMPARE(first.ci.low, again.ci.low); // bit-identical, not merely close
    QCOMPARE(first.ci.high, again.ci.high);
    const MeanEstimate other = bootstrapMean(data, { 1000, 12, 0.95 });
    QVERIFY(first.ci.low != other.ci.low || first.ci.high != other.ci.high);
    // The default options are the documented ones.
    const MeanEstimate defaults = bootstrapMean(data);
    const MeanEstimate explicitDefaults = bootstrapMean(data, { 1000, kDefaultBootstrapSeed, 0.95 });
    QCOMPARE(defaults.ci.low, explicitDefaults.ci.low);
    QCOMPARE(defaults.ci.high, explicitDefaults.ci.high);
    QCOMPARE(defaults.resamplesUsed, 1000);
}

// Columns bootstrapped together share their draws; each interval is bit for bit the one of its own call, whatever
// the column: two lengths, few distinct values at a length the counts method takes, a value that is not finite,
// no values.
void TestStats::bootstrapMeansMatchOneByOne()
{
    QRandomGenerator rng(5);
    const auto uniform = [&rng](std::size_t n) {
        std::vector<double> v(n);
        for (double& x : v)
            x = rng.generateDouble();
        return v;
    };
    const std::vector<std::vector<double>> data = { uniform(209), coinFlips(209, 2), uniform(209), uniform(57),
        coinFlips(5000, 3), { 0.5, std::numeric_limits<double>::infinity() }, {}, uniform(57) };
    std::vector<std::span<const double>> columns(data.begin(), data.end());
    for (const BootstrapOptions& options :
        { BootstrapOptions { 1000, 11, 0.95 }, BootstrapOptions { 3, 4, 0.5 }, BootstrapOptions { 0, 4, 0.5 } }) {
        const std::vector<MeanEstimate> together = bootstrapMeans(columns, options);
        QCOMPARE(together.size(), data.size());
        for (std::size_t c = 0; c < data.size(); ++c) {
            const MeanEstimate alone = bootstrapMean(data[c], options);
            const QString where = u"column %1, %2 resamples"_s.arg(c).arg(options.resamples);
            QVERIFY2(together[c].n == alone.n && together[c].resamplesUsed == alone.resamplesUsed
                    && together[c].error == alone.error,
                qPrintable(where));
            const auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
            QVERIFY2(same(together[c].mean, alone.mean) && same(together[c].ci.low, alone.ci.low)
                    && same(together[c].ci.high, alone.ci.high),
                qPrintable(where));
        }
    }
}

void TestStats::bootstrapContainsMeanAndNarrows()
{
    const MeanEstimate small = bootstrapMean(coinFlips(20, 3));
    const MeanEstimate large = bootstrapMean(coinFlips(2000, 3));
    QVERIFY(small.ci.contains(small.mean));
    QVERIFY(large.ci.contains(large.mean));
    // Width shrinks like 1/sqrt(n): 100× the data, about a tenth of the width.
    QVERIFY2(large.ci.width() < small.ci.width() / 5.0,
        qPrintable(u"%1 vs %2"_s.arg(large.ci.width()).arg(small.ci.width())));
    // For fair coins, n = 2000: half-width ≈ 1.96·sqrt(0.25/2000) ≈ 0.0219.
    QVERIFY(std::abs(large.ci.width() / 2.0 - 0.0219) < 0.004);
    // A lower confidence gives a narrower interval from the same resamples.
    const MeanEstimate eighty = bootstrapMean(coinFlips(2000, 3), { 1000, kDefaultBootstrapSeed, 0.80 });
    QVERIFY(eighty.ci.width() < large.ci.width());
    QVERIFY(eighty.ci.low >= large.ci.low && eighty.ci.high <= large.ci.high);
}

void TestStats::bootstrapBadInput_data()
{
    QTest::addColumn<QString>("values");
    QTest::addColumn<int>("resamples");
    QTest::addColumn<double>("confidence");
    QTest::addColumn<QString>("errorPart"); // empty: valid input
    QTest::addRow("no resamples") << u"1,2"_s << 0 << 0.95 << u"resamples must be at least 1 (got 0)"_s;
    QTest::addRow("negative resamples") << u"1,2"_s << -5 << 0.95 << u"(got -5)"_s;
    QTest::addRow("confidence 1") << u"1,2"_s << 100 << 1.0 << u"confidence"_s;
    QTest::addRow("confidence 0") << u"1,2"_s << 100 << 0.0 << u"confidence"_s;
    QTest::addRow("confidence NaN") << u"1,2"_s << 100 << kNaN << u"confidence"_s;
    QTest::addRow("NaN value") << u"1,2,nan"_s << 100 << 0.95 << u"value at index 2 is not a finite number"_s;
    QTest::addRow("infinite value") << u"inf,2"_s << 100 << 0.95 << u"value at index 0"_s;
    QTest::addRow("empty is no data, not an error") << QString() << 100 << 0.95 << QString();
}

void TestStats::bootstrapBadInput()
{
    QFETCH(QString, values);
    QFETCH(int, resamples);
    QFETCH(double, confidence);
    QFETCH(QString, errorPart);
    const MeanEstimate e = bootstrapMean(doubles(values), { resamples, 1, confidence });
    if (errorPart.isEmpty())
        QVERIFY(e.ok());
    else
        QVERIFY2(e.error.contains(errorPart), qPrintable(e.error));
    QVERIFY(std::isnan(e.mean));
    QVERIFY(!e.ci.isValid());
}

void TestStats::weightedBootstrap()
{
    // python3, seed 3, B = 20; all 20 resamples carry weight.
    const MeanEstimate w = bootstrapWeightedMean(doubles(u"1,0,0.5,0.25"_s), doubles(u"1,0,2,3"_s), { 20, 3, 0.95 });
    QVERIFY(w.ok());
    COMPARE_NEAR(w.mean, (1.0 + 1.0 + 0.75) / 6.0, 1e-15); // (1·1 + 2·0.5 + 3·0.25) / 6
    QCOMPARE(w.resamplesUsed, 20);
    COMPARE_NEAR(w.ci.low, 0.2715909090909091, 1e-12);
    COMPARE_NEAR(w.ci.high, 0.6214285714285712, 1e-12);

    // python3, seed 5, B = 40 on two records, one of weight 0: the 11 resamples that drew only the
    // weightless record (about a quarter) are skipped, the other 29 all have mean 1.
    const MeanEstimate skip = bootstrapWeightedMean(doubles(u"1,0"_s), doubles(u"1,0"_s), { 40, 5, 0.95 });
    QCOMPARE(skip.resamplesUsed, 29);
    QCOMPARE(skip.ci.low, 1.0);
    QCOMPARE(skip.ci.high, 1.0);

    // Weights all 1: the same draws as the unweighted bootstrap, and Σw = n exactly.
    const std::vector<double> data = coinFlips(300, 9);
    const std::vector<double> ones(data.size(), 1.0);
    const MeanEstimate plain = bootstrapMean(data);
    const MeanEstimate weighted = bootstrapWeightedMean(data, ones);
    QCOMPARE(weighted.ci.low, plain.ci.low);
    QCOMPARE(weighted.ci.high, plain.ci.high);

    // No weight anywhere: no estimate, but no error either.
    const MeanEstimate none = bootstrapWeightedMean(doubles(u"1,0"_s), doubles(u"0,0"_s));
    QVERIFY(none.ok());
    QVERIFY(std::isnan(none.mean));
    QCOMPARE(none.resamplesUsed, 0);
    QVERIFY(!none.ci.isValid());
}

void TestStats::weightedBootstrapBadInput_data()
{
    QTest::addColumn<QString>("values");
    QTest::addColumn<QString>("weights");
    QTest::addColumn<QString>("errorPart");
    QTest::addRow("size mismatch") << u"1,2,3"_s << u"1,1"_s << u"3 values but 2 weights"_s;
    QTest::addRow("negative weight") << u"1,2"_s << u"1,-2"_s << u"weight at index 1"_s;
    QTest::addRow("NaN weight") << u"1,2"_s << u"nan,1"_s << u"weight at index 0"_s;
    QTest::addRow("infinite weight") << u"1,2"_s << u"1,inf"_s << u"weight at index 1"_s;
    QTest::addRow("NaN value with weight") << u"1,nan"_s << u"1,2"_s << u"value at index 1"_s;
    QTest::addRow("NaN value without weight is fine") << u"1,nan"_s << u"1,0"_s << QString();
}

void TestStats::weightedBootstrapBadInput()
{
    QFETCH(QString, values);
    QFETCH(QString, weights);
    QFETCH(QString, errorPart);
    const MeanEstimate e = bootstrapWeightedMean(doubles(values), doubles(weights), { 50, 1, 0.95 });
    if (errorPart.isEmpty()) {
        QVERIFY2(e.ok(), qPrintable(e.error));
        QCOMPARE(e.mean, 1.0);
    } else {
        QVERIFY2(e.error.contains(errorPart), qPrintable(e.error));
        QVERIFY(std::isnan(e.mean));
        QVERIFY(!e.ci.isValid());
    }
}

void TestStats::bootstrapMillionRecords()
{
    // The size StructScope must handle; a small B keeps the debug build quick (cost is B·n).
    const std::vector<double> data = coinFlips(1'000'000, 5);
    QElapsedTimer timer;
    timer.start();
    const MeanEstimate e = bootstrapMean(data, { 5, 1, 0.95 });
    qInfo("bootstrap of 10^6 records, B = 5: %lld ms", static_cast<long long>(timer.elapsed()));
    QVERIFY(e.ci.contains(e.mean));
    QVERIFY(e.ci.width() < 0.005); // 2·1.96·0.0005 ≈ 0.002
}

void TestStats::binomialMoments_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<double>("p");
    QTest::addRow("inversion, n 5") << qint64(5) << 0.3;
    QTest::addRow("inversion, n·p 6") << qint64(30) << 0.2;
    QTest::addRow("rejection, n 1000") << qint64(1000) << 0.3;
    QTest::addRow("rejection, n 10^6, p 1/2") << qint64(1000000) << 0.5;
    QTest::addRow("mirrored, p 0.9") << qint64(100) << 0.9;
    QTest::addRow("rare, p 10^-5") << qint64(1000000) << 1e-5;
}

void TestStats::binomialMoments()
{
    QFETCH(qint64, n);
    QFETCH(double, p);
    Xoshiro256 rng(5);
    constexpr int kDraws = 200000;
    double sum = 0;
    double sumSquares = 0;
    for (int i = 0; i < kDraws; ++i) {
        const std::uint64_t x = drawBinomial(rng, std::uint64_t(n), p);
        QVERIFY(x <= std::uint64_t(n));
        sum += double(x);
        sumSquares += double(x) * double(x);
    }
    const double mean = sum / kDraws;
    const double variance = sumSquares / kDraws - mean * mean;
    const double expectedVariance = double(n) * p * (1 - p);
    // The sample mean is within 5 standard errors; the variance within 3%.
    QVERIFY2(std::abs(mean - double(n) * p) < 5 * std::sqrt(expectedVariance / kDraws),
        qPrintable(u"mean %1, expected %2"_s.arg(mean).arg(double(n) * p)));
    QVERIFY2(std::abs(variance / expectedVariance - 1) < 0.03,
        qPrintable(u"variance %1, expected %2"_s.arg(variance).arg(expectedVariance)));
}

void TestStats::binomialDistribution_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<double>("p");
    QTest::addRow("inversion") << qint64(12) << 0.3;
    QTest::addRow("rejection") << qint64(50) << 0.4;
    QTest::addRow("rejection, skewed") << qint64(200) << 0.06;
}

void TestStats::binomialDistribution()
{
    // Every probability of the distribution, not only its moments: the frequencies of 400,000 draws against
    // C(n, k)·p^k·(1 − p)^(n − k), each within 6 standard errors.
    QFETCH(qint64, n);
    QFETCH(double, p);
    Xoshiro256 rng(17);
    constexpr int kDraws = 400000;
    std::vector<int> seen(std::size_t(n) + 1, 0);
    for (int i = 0; i < kDraws; ++i)
        ++seen[std::size_t(drawBinomial(rng, std::uint64_t(n), p))];
    for (qint64 k = 0; k <= n; ++k) {
        const double pk = std::exp(structscope::logFactorial(n) - structscope::logFactorial(k)
            - structscope::logFactorial(n - k) + double(k) * std::log(p) + double(n - k) * std::log1p(-p));
        const double frequency = double(seen[std::size_t(k)]) / kDraws;
        const double error = std::sqrt(pk * (1 - pk) / kDraws);
        QVERIFY2(std::abs(frequency - pk) <= 6 * error + 1e-6,
            qPrintable(u"k = %1: %2 drawn, %3 expected"_s.arg(k).arg(frequency).arg(pk)));
    }
}

void TestStats::multinomialCounts()
{
    const std::vector<std::uint64_t> frequencies { 5, 0, 1, 94 };
    std::vector<std::uint64_t> counts(frequencies.size());
    std::vector<double> sums(frequencies.size(), 0.0);
    Xoshiro256 rng(3);
    constexpr int kDraws = 20000;
    for (int i = 0; i < kDraws; ++i) {
        drawMultinomial(rng, 1000, frequencies, counts);
        std::uint64_t total = 0;
        for (std::size_t c = 0; c < counts.size(); ++c) {
            total += counts[c];
            sums[c] += double(counts[c]);
        }
        QCOMPARE(total, std::uint64_t(1000)); // every draw lands somewhere
        QCOMPARE(counts[1], std::uint64_t(0)); // never in an empty category
    }
    // Category means n·f_i/F: 50, 0, 10, 940.
    QVERIFY(std::abs(sums[0] / kDraws - 50) < 0.3);
    QVERIFY(std::abs(sums[2] / kDraws - 10) < 0.15);
    QVERIFY(std::abs(sums[3] / kDraws - 940) < 0.3);
    // One category takes every draw; nothing to draw gives nothing.
    drawMultinomial(rng, 7, std::vector<std::uint64_t> { 0, 3 }, counts);
    QCOMPARE(counts[0], std::uint64_t(0));
    QCOMPARE(counts[1], std::uint64_t(7));
    drawMultinomial(rng, 0, frequencies, counts);
    for (const std::uint64_t c : counts)
        QCOMPARE(c, std::uint64_t(0));
}

void TestStats::bootstrapCountsMatchIndexed()
{
    // 8,000 records with five distinct values (a score over four fields): drawn as counts, the percentile
    // interval agrees with the record-by-record one up to the bootstrap's Monte Carlo error (about 3% of the
    // width for B = 1000).
    Xoshiro256 rng(21);
    std::vector<double> data(8000);
    for (double& v : data)
        v = double(rng.bounded(5)) / 4.0;
    BootstrapOptions options { 1000, 8, 0.95 };
    options.method = BootstrapMethod::Indexed;
    const MeanEstimate indexed = bootstrapMean(data, options);
    options.method = BootstrapMethod::Counts;
    const MeanEstimate counts = bootstrapMean(data, options);
    options.method = BootstrapMethod::Automatic;
    const MeanEstimate automatic = bootstrapMean(data, options);
    QCOMPARE(counts.mean, indexed.mean);
    QCOMPARE(counts.resamplesUsed, 1000);
    QCOMPARE(automatic.ci.low, counts.ci.low); // Automatic chose counts: the same draws
    QCOMPARE(automatic.ci.high, counts.ci.high);
    const double width = indexed.ci.width();
    QVERIFY(std::abs(counts.ci.low - indexed.ci.low) < 0.12 * width);
    QVERIFY(std::abs(counts.ci.high - indexed.ci.high) < 0.12 * width);
    // And both with the normal approximation: half-width 1.96·sd/√n.
    double sumSquares = 0;
    for (const double v : data)
        sumSquares += (v - indexed.mean) * (v - indexed.mean);
    const double half = 1.959964 * std::sqrt(sumSquares / double(data.size())) / std::sqrt(double(data.size()));
    QVERIFY2(std::abs(counts.ci.width() / 2 - half) < 0.1 * half,
        qPrintable(u"%1 vs %2"_s.arg(counts.ci.width() / 2).arg(half)));

    // Few records, or many distinct values: Automatic keeps the record-by-record draws.
    const std::vector<double> few = coinFlips(2000, 3);
    BootstrapOptions indexedOnly;
    indexedOnly.method = BootstrapMethod::Indexed;
    QCOMPARE(bootstrapMean(few).ci.low, bootstrapMean(few, indexedOnly).ci.low);
    std::vector<double> spread(8000);
    for (std::size_t i = 0; i < spread.size(); ++i)
        spread[i] = double(i % 1000);
    QVERIFY(!bootstrapUsesCounts({}, spread.size(), 1000));
    QVERIFY(bootstrapUsesCounts({}, spread.size(), 250));
    QCOMPARE(bootstrapMean(spread, { 20, 1, 0.95 }).ci.low,
        bootstrapMean(spread, { 20, 1, 0.95, BootstrapMethod::Indexed }).ci.low);
    // Forced counts on every-value-distinct data is still the bootstrap (one category per record).
    const MeanEstimate forced = bootstrapMean(doubles(u"1,2,3,4,5"_s), { 4000, 7, 0.95, BootstrapMethod::Counts });
    QVERIFY(std::abs(forced.ci.low - 1.8) < 0.15 && std::abs(forced.ci.high - 4.2) < 0.15);
}

void TestStats::weightedBootstrapCountsMatchIndexed()
{
    Xoshiro256 rng(33);
    std::vector<double> values(6000);
    std::vector<double> weights(6000);
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = double(rng.bounded(3)) / 2.0;
        weights[i] = double(rng.bounded(4)); // 0 (unknown tier) to 3 (hard)
    }
    const MeanEstimate indexed = bootstrapWeightedMean(values, weights, { 1000, 4, 0.95, BootstrapMethod::Indexed });
    const MeanEstimate counts = bootstrapWeightedMean(values, weights, { 1000, 4, 0.95, BootstrapMethod::Counts });
    const MeanEstimate automatic = bootstrapWeightedMean(values, weights, { 1000, 4, 0.95 });
    QCOMPARE(counts.mean, indexed.mean);
    QCOMPARE(automatic.ci.low, counts.ci.low);
    const double width = indexed.ci.width();
    QVERIFY(width > 0);
    QVERIFY(std::abs(counts.ci.low - indexed.ci.low) < 0.12 * width);
    QVERIFY(std::abs(counts.ci.high - indexed.ci.high) < 0.12 * width);
}

void TestStats::logFactorial()
{
    QCOMPARE(structscope::logFactorial(0), 0.0);
    QCOMPARE(structscope::logFactorial(1), 0.0);
    COMPARE_NEAR(structscope::logFactorial(5), std::log(120.0), 1e-14);
    QVERIFY(std::isnan(structscope::logFactorial(-1)));
    // Across the switch from the table to Stirling's series, and far beyond.
    for (qint64 n : { 10, 255, 256, 257, 1000, 100000 }) {
        const double expected = std::lgamma(static_cast<double>(n) + 1.0);
        QVERIFY2(std::abs(structscope::logFactorial(n) - expected) <= 1e-14 * expected, qPrintable(QString::number(n)));
    }
}

void TestStats::mcnemar_data()
{
    QTest::addColumn<qint64>("b");
    QTest::addColumn<qint64>("c");
    QTest::addColumn<double>("p");
    QTest::addColumn<double>("relativeTolerance");
    // n = 12, m = 2: 2·(C(12,0) + C(12,1) + C(12,2)) / 2^12 = 2·(1 + 12 + 66)/4096 = 158/4096.
    QTest::addRow("10 vs 2") << qint64(10) << qint64(2) << 0.03857421875 << 1e-13;
    QTest::addRow("2 vs 10") << qint64(2) << qint64(10) << 0.03857421875 << 1e-13;
    // n = 12, m = 3: 2·(1 + 12 + 66 + 220)/4096 = 299/2048.
    QTest::addRow("3 vs 9") << qint64(3) << qint64(9) << 0.14599609375 << 1e-13;
    // n = 1: 2·C(1,0)/2 = 1.
    QTest::addRow("1 vs 0") << qint64(1) << qint64(0) << 1.0 << 0.0;
    // n = 10, m = 5: 2·(1+10+45+120+210+252)/1024 = 1276/1024 > 1 → capped at 1.
    QTest::addRow("5 vs 5") << qint64(5) << qint64(5) << 1.0 << 0.0;
    // n = 6, m = 0: 2·0.5^6.
    QTest::addRow("0 vs 6") << qint64(0) << qint64(6) << 0.03125 << 1e-13;
    // n = 10, m = 0: 2/1024.
    QTest::addRow("10 vs 0") << qint64(10) << qint64(0) << 0.001953125 << 1e-13;
    QTest::addRow("no discordant pair") << qint64(0) << qint64(0) << 1.0 << 0.0;
    // python3: p = min(1, Fraction(2·Σ_{i≤500} math.comb(1100, i), 2**1100)), then float(p).
    QTest::addRow("600 vs 500") << qint64(600) << qint64(500) << 0.0028195449914364275 << 1e-11;
    // python3, exact integers: C(n, i−1) = C(n, i)·i/(n−i+1) summed down from i = 45000, n = 100000,
    // then float(Fraction(2·S, 2**100000)). Far below what 0.5^n alone could represent.
    QTest::addRow("45000 vs 55000") << qint64(45000) << qint64(55000) << 8.600341645714696e-220 << 2e-9;
    // 2·0.5^100000 ≈ 1e-30103: below the smallest double, so 0 is the right double.
    QTest::addRow("0 vs 100000") << qint64(0) << qint64(100000) << 0.0 << 0.0;
    QTest::addRow("negative b") << qint64(-1) << qint64(2) << kNaN << 0.0;
    QTest::addRow("negative c") << qint64(3) << qint64(-2) << kNaN << 0.0;
}

void TestStats::mcnemar()
{
    QFETCH(qint64, b);
    QFETCH(qint64, c);
    QFETCH(double, p);
    QFETCH(double, relativeTolerance);
    COMPARE_NEAR(mcnemarExactP(b, c), p, p * relativeTolerance);
}

void TestStats::pairedOutcomes()
{
    // A right on 6/10, B on 8/10. A right & B wrong: index 2 → b = 1; A wrong & B right: 4, 5, 6 → c = 3.
    // p = 2·(C(4,0) + C(4,1))/2^4 = 10/16 = 0.625.
    const std::vector<bool> a = bits(u"1111000011"_s);
    const std::vector<bool> b = bits(u"1101111011"_s);
    const PairedComparison cmp = comparePairedOutcomes(a, b);
    QVERIFY(cmp.ok());
    QCOMPARE(cmp.n, qint64(10));
    COMPARE_NEAR(cmp.meanA, 0.6, 1e-15);
    COMPARE_NEAR(cmp.meanB, 0.8, 1e-15);
    COMPARE_NEAR(cmp.deltaPoints, 20.0, 1e-12);
    QCOMPARE(cmp.b, qint64(1));
    QCOMPARE(cmp.c, qint64(3));
    COMPARE_NEAR(cmp.pValue, 0.625, 1e-13);
    QVERIFY(cmp.deltaCiPoints.contains(cmp.deltaPoints));
    // The interval is the bootstrap of the per-case differences bᵢ − aᵢ, in points.
    const MeanEstimate differences = bootstrapMean(doubles(u"0,0,-1,0,1,1,1,0,0,0"_s));
    COMPARE_NEAR(cmp.deltaCiPoints.low, 100.0 * differences.ci.low, 1e-12);
    COMPARE_NEAR(cmp.deltaCiPoints.high, 100.0 * differences.ci.high, 1e-12);

    // Swapping A and B mirrors everything.
    const PairedComparison swapped = comparePairedOutcomes(b, a);
    COMPARE_NEAR(swapped.deltaPoints, -20.0, 1e-12);
    QCOMPARE(swapped.b, qint64(3));
    QCOMPARE(swapped.c, qint64(1));
    QCOMPARE(swapped.pValue, cmp.pValue);

    // Identical configurations: nothing discordant, p = 1, Δ = 0 with a [0, 0] interval.
    const PairedComparison same = comparePairedOutcomes(a, a);
    QCOMPARE(same.pValue, 1.0);
    QCOMPARE(same.deltaCiPoints.low, 0.0);
    QCOMPARE(same.deltaCiPoints.high, 0.0);

    // No cases: no numbers, but a valid (empty) comparison.
    const PairedComparison empty = comparePairedOutcomes({}, {});
    QVERIFY(empty.ok());
    QVERIFY(std::isnan(empty.meanA) && std::isnan(empty.deltaPoints) && !empty.deltaCiPoints.isValid());
    QCOMPARE(empty.pValue, 1.0);
}

void TestStats::pairedScores()
{
    // A higher at index 2, B higher at index 0, ties at 1 and 3: b = c = 1, p = min(1, 2·3/4) = 1.
    // meanA = 2.6/4 = 0.65, meanB = 2.7/4 = 0.675, Δ = 2.5 points.
    const PairedComparison cmp = comparePairedScores(doubles(u"0.5,0.9,0.2,1.0"_s), doubles(u"0.7,0.9,0.1,1.0"_s));
    QVERIFY(cmp.ok());
    COMPARE_NEAR(cmp.meanA, 0.65, 1e-15);
    COMPARE_NEAR(cmp.meanB, 0.675, 1e-15);
    COMPARE_NEAR(cmp.deltaPoints, 2.5, 1e-12);
    QCOMPARE(cmp.b, qint64(1));
    QCOMPARE(cmp.c, qint64(1));
    QCOMPARE(cmp.pValue, 1.0);
    // Sign test: B better on 6 cases by any margin, never worse → 2·0.5^6.
    const PairedComparison sign = comparePairedScores(doubles(u"0,0,0,0,0,0,0.5"_s), doubles(u"0.1,1,1,1,1,0.2,0.5"_s));
    QCOMPARE(sign.c, qint64(6));
    COMPARE_NEAR(sign.pValue, 0.03125, 1e-15);
}

void TestStats::pairedBadInput()
{
    const PairedComparison lengths = comparePairedOutcomes(bits(u"1010101010"_s), bits(u"101010101"_s));
    QVERIFY(!lengths.ok());
    QVERIFY2(lengths.error.contains(u"A has 10 cases but B has 9"_s), qPrintable(lengths.error));
    QVERIFY(std::isnan(lengths.pValue) && std::isnan(lengths.deltaPoints));

    const PairedComparison scoreLengths = comparePairedScores(doubles(u"1"_s), doubles(u"1,0"_s));
    QVERIFY(scoreLengths.error.contains(u"A has 1 cases but B has 2"_s));

    const PairedComparison nan = comparePairedScores(doubles(u"1,nan"_s), doubles(u"1,0"_s));
    QVERIFY2(nan.error.contains(u"index 1"_s), qPrintable(nan.error));
    QVERIFY(std::isnan(nan.pValue));
    QCOMPARE(nan.b, qint64(0));

    const PairedComparison options = comparePairedOutcomes(bits(u"10"_s), bits(u"01"_s), { 0, 1, 0.95 });
    QVERIFY2(options.error.contains(u"resamples"_s), qPrintable(options.error));
}

void TestStats::adjustPValues_data()
{
    QTest::addColumn<Doubles>("p");
    QTest::addColumn<Doubles>("holm");
    QTest::addColumn<Doubles>("bh");

    // p = (0.01, 0.04, 0.03, 0.005), m = 4; sorted 0.005, 0.01, 0.03, 0.04.
    // Holm, (m − j + 1)·p₍ⱼ₎ then the running maximum:
    //   j=1: 4·0.005 = 0.02; j=2: 3·0.01 = 0.03; j=3: 2·0.03 = 0.06; j=4: 1·0.04 = 0.04 → max(0.06, 0.04) = 0.06.
    // BH, m·p₍ⱼ₎/j then the running minimum from j = m down:
    //   j=4: 4·0.04/4 = 0.04; j=3: 4·0.03/3 = 0.04; j=2: 4·0.01/2 = 0.02; j=1: 4·0.005/1 = 0.02.
    // (R's p.adjust gives the same.)
    QTest::newRow("four") << Doubles { 0.01, 0.04, 0.03, 0.005 } << Doubles { 0.03, 0.06, 0.06, 0.02 }
                          << Doubles { 0.02, 0.04, 0.04, 0.02 };
    // BH's monotonicity: p = (0.02, 0.021, 0.5), m = 3. j=3: 3·0.5/3 = 0.5; j=2: 3·0.021/2 = 0.0315;
    // j=1: 3·0.02/1 = 0.06 → min(0.06, 0.0315) = 0.0315. Holm: 3·0.02 = 0.06; 2·0.021 = 0.042 → 0.06; 0.5.
    QTest::newRow("bh running minimum") << Doubles { 0.02, 0.021, 0.5 } << Doubles { 0.06, 0.06, 0.5 }
                                        << Doubles { 0.0315, 0.0315, 0.5 };
    // Ties: p = (0.02, 0.02, 0.5). Holm: 3·0.02 = 0.06; 2·0.02 = 0.04 → max 0.06; 1·0.5 = 0.5: the tied pair
    // both 0.06. BH: j=3: 0.5; j=2: 3·0.02/2 = 0.03; j=1: 3·0.02/1 = 0.06 → min 0.03: both 0.03.
    QTest::newRow("ties") << Doubles { 0.02, 0.02, 0.5 } << Doubles { 0.06, 0.06, 0.5 } << Doubles { 0.03, 0.03, 0.5 };
    // p = 1 and the cap: p = (1, 0.4, 0.3); sorted 0.3, 0.4, 1. Holm: 3·0.3 = 0.9; 2·0.4 = 0.8 → 0.9; 1·1 = 1.
    // BH: j=3: 3·1/3 = 1; j=2: 3·0.4/2 = 0.6; j=1: 3·0.3/1 = 0.9 → min 0.6.
    QTest::newRow("p one") << Doubles { 1.0, 0.4, 0.3 } << Doubles { 1.0, 0.9, 0.9 } << Doubles { 1.0, 0.6, 0.6 };
    // Capped at 1: p = (0.6, 0.7). Holm: 2·0.6 = 1.2 → 1; 1·0.7 → max(1, 0.7) = 1. BH: j=2: 2·0.7/2 = 0.7;
    // j=1: 2·0.6/1 = 1.2 → min(1.2, 0.7) = 0.7.
    QTest::newRow("cap") << Doubles { 0.6, 0.7 } << Doubles { 1.0, 1.0 } << Doubles { 0.7, 0.7 };
    // Every p = 1: nothing moves.
    QTest::newRow("all one") << Doubles { 1.0, 1.0, 1.0 } << Doubles { 1.0, 1.0, 1.0 } << Doubles { 1.0, 1.0, 1.0 };
    // One test: no correction.
    QTest::newRow("single") << Doubles { 0.037 } << Doubles { 0.037 } << Doubles { 0.037 };
    // The pair-matrix example of tst_report (McNemar p of three pairs): Holm 3·0.0078125 = 0.0234375,
    // 2·0.03125 = 0.0625, 0.625; BH j=3: 0.625, j=2: 3·0.03125/2 = 0.046875, j=1: 3·0.0078125 = 0.0234375.
    QTest::newRow("pair matrix") << Doubles { 0.03125, 0.0078125, 0.625 } << Doubles { 0.0625, 0.0234375, 0.625 }
                                 << Doubles { 0.046875, 0.0234375, 0.625 };
}

void TestStats::adjustPValues()
{
    QFETCH(Doubles, p);
    QFETCH(Doubles, holm);
    QFETCH(Doubles, bh);
    const Doubles gotHolm = holmAdjust(p);
    const Doubles gotBh = benjaminiHochbergAdjust(p);
    QCOMPARE(gotHolm.size(), p.size());
    QCOMPARE(gotBh.size(), p.size());
    for (std::size_t i = 0; i < p.size(); ++i) {
        COMPARE_NEAR(gotHolm[i], holm[i], 1e-15);
        COMPARE_NEAR(gotBh[i], bh[i], 1e-15);
        // Neither is below p; Holm is never below BH.
        QVERIFY(gotHolm[i] >= p[i] && gotBh[i] >= p[i] && gotHolm[i] >= gotBh[i]);
    }
    QCOMPARE(structscope::adjustPValues(p, PAdjustMethod::Holm), gotHolm);
    QCOMPARE(structscope::adjustPValues(p, PAdjustMethod::BenjaminiHochberg), gotBh);
    // The order of the input does not matter: reversed in, reversed out.
    const Doubles reversed(p.rbegin(), p.rend());
    const Doubles holmReversed = holmAdjust(reversed);
    for (std::size_t i = 0; i < p.size(); ++i)
        COMPARE_NEAR(holmReversed[p.size() - 1 - i], holm[i], 1e-15);
}

void TestStats::adjustPValuesEdges()
{
    QVERIFY(holmAdjust({}).empty());
    QVERIFY(benjaminiHochbergAdjust({}).empty());
    // A NaN (a test not made) is neither counted in m nor given a value: (0.01, NaN, 0.04) is adjusted as
    // (0.01, 0.04) with m = 2. Holm: 2·0.01 = 0.02, 1·0.04 = 0.04. BH: j=2: 2·0.04/2 = 0.04; j=1: 2·0.01 = 0.02.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const Doubles holm = holmAdjust(Doubles { 0.01, nan, 0.04 });
    COMPARE_NEAR(holm[0], 0.02, 1e-15);
    QVERIFY(std::isnan(holm[1]));
    COMPARE_NEAR(holm[2], 0.04, 1e-15);
    const Doubles bh = benjaminiHochbergAdjust(Doubles { 0.01, nan, 0.04 });
    COMPARE_NEAR(bh[0], 0.02, 1e-15);
    QVERIFY(std::isnan(bh[1]));
    COMPARE_NEAR(bh[2], 0.04, 1e-15);
    // Names.
    QCOMPARE(pAdjustMethodFromName("holm"), std::optional(PAdjustMethod::Holm));
    QCOMPARE(pAdjustMethodFromName("bh"), std::optional(PAdjustMethod::BenjaminiHochberg));
    QVERIFY(!pAdjustMethodFromName("bonferroni"));
    QVERIFY(!pAdjustMethodFromName("Holm"));
    QCOMPARE(pAdjustMethodName(PAdjustMethod::BenjaminiHochberg), std::string_view("bh"));
}

void TestStats::passAllProbability_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<qint64>("correct");
    QTest::addColumn<int>("k");
    QTest::addColumn<double>("expected");
    QTest::addRow("all correct") << qint64(3) << qint64(3) << 3 << 1.0;
    QTest::addRow("one wrong") << qint64(3) << qint64(2) << 3 << 0.0;
    QTest::addRow("pass^1 is accuracy") << qint64(4) << qint64(3) << 1 << 0.75;
    QTest::addRow("C(3,2)/C(5,2)") << qint64(5) << qint64(3) << 2 << 0.3; // 3/10
    QTest::addRow("fewer samples than k") << qint64(2) << qint64(2) << 3 << kNaN;
    QTest::addRow("more correct than samples") << qint64(3) << qint64(4) << 1 << kNaN;
    QTest::addRow("negative correct") << qint64(3) << qint64(-1) << 1 << kNaN;
    QTest::addRow("k = 0") << qint64(3) << qint64(3) << 0 << kNaN;
}

void TestStats::passAllProbability()
{
    QFETCH(qint64, n);
    QFETCH(qint64, correct);
    QFETCH(int, k);
    QFETCH(double, expected);
    COMPARE_NEAR(structscope::passAllProbability(n, correct, k), expected, 1e-15);
}

void TestStats::repeats_data()
{
    QTest::addColumn<QString>("samples");
    QTest::addColumn<int>("k");
    QTest::addColumn<qint64>("cases");
    QTest::addColumn<qint64>("consistent");
    QTest::addColumn<double>("consistency");
    QTest::addColumn<qint64>("passCases");
    QTest::addColumn<double>("passHatK");
    QTest::addColumn<qint64>("incomplete");
    // Case 1 agrees and is right, case 2 disagrees, case 3 agrees on a wrong verdict, case 4 has one
    // sample only, case 5 none.
    const QString mixed = u"correct+ correct+ correct+ | correct+ value_incorrect- correct+ |"
                          " invalid_json- invalid_json- invalid_json- | correct+ |"_s;
    // consistency 3/4 (cases 1, 3, 4); pass^3 over cases 1–3 = 1/3; case 4 incomplete, case 5 absent.
    QTest::addRow("k = 3") << mixed << 3 << qint64(4) << qint64(3) << 0.75 << qint64(3) << 1.0 / 3.0 << qint64(1);
    // pass^1 = mean accuracy per case: (1 + 2/3 + 0 + 1)/4 = 2/3.
    QTest::addRow("k = 1") << mixed << 1 << qint64(4) << qint64(3) << 0.75 << qint64(4) << 2.0 / 3.0 << qint64(0);
    // pass^2 from 3 samples: C(3,2)/C(3,2) = 1, C(2,2)/C(3,2) = 1/3, 0; case 4 incomplete → 4/9.
    QTest::addRow("k = 2") << mixed << 2 << qint64(4) << qint64(3) << 0.75 << qint64(3) << 4.0 / 9.0 << qint64(1);
    QTest::addRow("k = 0") << mixed << 0 << qint64(0) << qint64(0) << kNaN << qint64(0) << kNaN << qint64(0);
    QTest::addRow("no cases") << QString() << 3 << qint64(0) << qint64(0) << kNaN << qint64(0) << kNaN << qint64(0);
    // Agreeing verdicts with different correctness flags still agree.
    QTest::addRow("verdicts, not flags") << u"schema_violation+ schema_violation-"_s << 2 << qint64(1) << qint64(1)
                                         << 1.0 << qint64(1) << 0.0 << qint64(0);
}

void TestStats::repeats()
{
    QFETCH(QString, samples);
    QFETCH(int, k);
    QFETCH(qint64, cases);
    QFETCH(qint64, consistent);
    QFETCH(double, consistency);
    QFETCH(qint64, passCases);
    QFETCH(double, passHatK);
    QFETCH(qint64, incomplete);
    const auto perCase = repeatSamples(samples);
    const RepeatStats s = repeatStats(perCase, k);
    // The same samples held case after case in one array give the same statistics.
    std::vector<RepeatSample<QString>> flat;
    std::vector<std::size_t> caseEnds;
    for (const auto& c : perCase) {
        flat.insert(flat.end(), c.begin(), c.end());
        caseEnds.push_back(flat.size());
    }
    const RepeatStats f = repeatStats<QString>(flat, caseEnds, k);
    QCOMPARE(f.cases, s.cases);
    QCOMPARE(f.consistentCases, s.consistentCases);
    QCOMPARE(f.passCases, s.passCases);
    QCOMPARE(f.incompleteCases, s.incompleteCases);
    QCOMPARE(std::isnan(f.passHatK), std::isnan(s.passHatK));
    if (!std::isnan(s.passHatK))
        QCOMPARE(f.passHatK, s.passHatK);
    QCOMPARE(s.k, k);
    QCOMPARE(s.cases, cases);
    QCOMPARE(s.consistentCases, consistent);
    COMPARE_NEAR(s.consistency, consistency, 1e-15);
    QCOMPARE(s.passCases, passCases);
    COMPARE_NEAR(s.passHatK, passHatK, 1e-15);
    QCOMPARE(s.incompleteCases, incomplete);
}

void TestStats::repeatsIntLabels()
{
    const std::vector<std::vector<RepeatSample<int>>> samples {
        { { 1, true }, { 1, true } },
        { { 1, true }, { 2, false } },
        { { 3, false }, { 3, false } },
    };
    const RepeatStats s = repeatStats(samples, 2);
    COMPARE_NEAR(s.consistency, 2.0 / 3.0, 1e-15);
    COMPARE_NEAR(s.passHatK, 1.0 / 3.0, 1e-15);
}

void TestStats::consensusKey_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<bool>("same");
    QTest::addRow("1 vs 1.0") << u"1"_s << u"1.0"_s << true;
    QTest::addRow("-0.0 vs 0") << u"-0.0"_s << u"0"_s << true;
    QTest::addRow("-3.0 vs -3") << u"-3.0"_s << u"-3"_s << true;
    QTest::addRow("1e2 vs 100") << u"1e2"_s << u"100"_s << true;
    QTest::addRow("2^63 float vs unsigned") << u"9223372036854775808.0"_s << u"9223372036854775808"_s << true;
    QTest::addRow("-2^63 float vs int") << u"-9223372036854775808.0"_s << u"-9223372036854775808"_s << true;
    QTest::addRow("1.5 vs 1") << u"1.5"_s << u"1"_s << false;
    QTest::addRow("true vs 1") << u"true"_s << u"1"_s << false;
    QTest::addRow("false vs 0") << u"false"_s << u"0"_s << false;
    QTest::addRow("\"1\" vs 1") << u"\"1\""_s << u"1"_s << false;
    QTest::addRow("null vs \"null\"") << u"null"_s << u"\"null\""_s << false;
    QTest::addRow("strings byte-exact") << u"\"Paris\""_s << u"\"paris\""_s << false;
    QTest::addRow("key order") << u"{\"b\": 1, \"a\": [2.0, null]}"_s << u"{\"a\":[2,null],\"b\":1.0}"_s << true;
    QTest::addRow("array order counts") << u"[1, 2]"_s << u"[2, 1]"_s << false;
    QTest::addRow("nested number by value") << u"[{\"x\": 1}]"_s << u"[{\"x\": 1.0}]"_s << true;
    QTest::addRow("empty object vs array") << u"{}"_s << u"[]"_s << false;
}

void TestStats::consensusKey()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(bool, same);
    const std::string ka = structscope::consensusKey(nlohmann::json::parse(a.toStdString()));
    const std::string kb = structscope::consensusKey(nlohmann::json::parse(b.toStdString()));
    QVERIFY2((ka == kb) == same, (ka + " / " + kb).c_str());
}

void TestStats::suspicion_data()
{
    QTest::addColumn<QString>("gold");
    QTest::addColumn<QString>("answers");
    QTest::addColumn<double>("minSupport");
    QTest::addColumn<bool>("absentEqualsNull");
    QTest::addColumn<bool>("suspect");
    QTest::addColumn<QString>("consensus"); // JSON text; "absent" for consensusAbsent
    QTest::addColumn<int>("agreeing");
    QTest::addColumn<int>("answered");

    QTest::addRow("2 models only") << u"\"a\""_s << u"m1=\"x\"; m2=\"x\""_s << 0.6 << true << false << QString() << 0
                                   << 0;
    QTest::addRow("3 models, 2 agree (66.7%%)")
        << u"\"a\""_s << u"m1=\"x\"; m2=\"x\"; m3=\"a\""_s << 0.6 << true << true << u"\"x\""_s << 2 << 3;
    QTest::addRow("5 models, 3 agree (60%%)") << u"\"a\""_s << u"m1=\"x\"; m2=\"x\"; m3=\"x\"; m4=\"a\"; m5=\"y\""_s
                                              << 0.6 << true << true << u"\"x\""_s << 3 << 5;
    QTest::addRow("5 models, 2 agree (40%%)") << u"\"a\""_s << u"m1=\"x\"; m2=\"x\"; m3=\"y\"; m4=\"a\"; m5=\"z\""_s
                                              << 0.6 << true << false << QString() << 0 << 0;
    QTest::addRow("consensus is gold") << u"\"a\""_s << u"m1=\"a\"; m2=\"a\"; m3=\"a\""_s << 0.6 << true << false
                                       << QString() << 0 << 0;
    QTest::addRow("1 and 1.0 agree") << u"2"_s << u"m1=1; m2=1.0; m3=1"_s << 0.6 << true << true << u"1"_s << 3 << 3;
    QTest::addRow("1.0 agrees with gold 1")
        << u"1"_s << u"m1=1.0; m2=1.0; m3=1"_s << 0.6 << true << false << QString() << 0 << 0;
    QTest::addRow("true is not 1") << u"1"_s << u"m1=true; m2=true; m3=true"_s << 0.6 << true << true << u"true"_s << 3
                                   << 3;
    QTest::addRow("strings strict") << u"\"Paris\""_s << u"m1=\"paris\"; m2=\"paris\"; m3=\"Paris\""_s << 0.6 << true
                                    << true << u"\"paris\""_s << 2 << 3;
    QTest::addRow("object value by value") << u"{\"a\": 1}"_s << u"m1={\"a\": 1.0}; m2={\"a\": 1}; m3={\"a\": 1}"_s
                                           << 0.6 << true << false << QString() << 0 << 0;
    // Without de-duplication m1 would count thrice: 3/5 = 60%.
    QTest::addRow("a model counts once") << u"\"a\""_s << u"m1=\"x\"; m1=\"x\"; m1=\"x\"; m2=\"y\"; m3=\"z\""_s << 0.6
                                         << true << false << QString() << 0 << 0;
    QTest::addRow("absent counts as null")
        << u"\"a\""_s << u"m1=; m2=; m3=null"_s << 0.6 << true << true << u"null"_s << 3 << 3;
    QTest::addRow("absent agrees with null gold")
        << u"null"_s << u"m1=; m2=; m3="_s << 0.6 << true << false << QString() << 0 << 0;
    QTest::addRow("absent apart from null")
        << u"null"_s << u"m1=; m2=; m3=null"_s << 0.6 << false << true << u"absent"_s << 2 << 3;
    QTest::addRow("absent models still answered")
        << u"\"a\""_s << u"m1=\"x\"; m2=\"x\"; m3=; m4=; m5=\"x\""_s << 0.6 << true << true << u"\"x\""_s << 3 << 5;
    // Two values at 50% with a lower threshold: the smaller key wins the tie.
    QTest::addRow("tie at 50%%") << u"\"z\""_s << u"m1=\"y\"; m2=\"x\"; m3=\"y\"; m4=\"x\""_s << 0.5 << true << true
                                 << u"\"x\""_s << 2 << 4;
    // At 50% gold and one other value tie: the other value still reaches the threshold.
    QTest::addRow("other value ties gold")
        << u"\"g\""_s << u"m1=\"g\"; m2=\"x\"; m3=\"g\"; m4=\"x\""_s << 0.5 << true << true << u"\"x\""_s << 2 << 4;
    QTest::addRow("no answers") << u"\"a\""_s << QString() << 0.6 << true << false << QString() << 0 << 0;
}

void TestStats::suspicion()
{
    QFETCH(QString, gold);
    QFETCH(QString, answers);
    QFETCH(double, minSupport);
    QFETCH(bool, absentEqualsNull);
    QFETCH(bool, suspect);
    QFETCH(QString, consensus);
    QFETCH(int, agreeing);
    QFETCH(int, answered);

    LeafAnswers leaf { u"case-1"_s, "a.b[0]", nlohmann::json::parse(gold.toStdString()), ::answers(answers) };
    SuspicionOptions options;
    options.minSupport = minSupport;
    options.absentEqualsNull = absentEqualsNull;
    const std::vector<SuspectLeaf> queue = goldSuspicionQueue({ leaf }, options);
    QCOMPARE(queue.size(), std::size_t(suspect ? 1 : 0));
    if (!suspect)
        return;
    const SuspectLeaf& s = queue.front();
    QCOMPARE(s.caseId, u"case-1"_s);
    QCOMPARE(s.path, std::string("a.b[0]"));
    QVERIFY(s.gold == leaf.gold);
    QCOMPARE(s.consensusAbsent, consensus == u"absent"_s);
    if (!s.consensusAbsent)
        QCOMPARE(structscope::consensusKey(s.consensus),
            structscope::consensusKey(nlohmann::json::parse(consensus.toStdString())));
    QCOMPARE(s.agreeing, agreeing);
    QCOMPARE(s.answered, answered);
    COMPARE_NEAR(s.support, double(agreeing) / double(answered), 1e-15);
    QCOMPARE(s.agreeingModels.size(), qsizetype(agreeing));
}

void TestStats::suspicionRanking()
{
    const auto leaf = [](const QString& caseId, const std::string& path, const QString& text) {
        return LeafAnswers { caseId, path, nlohmann::json("gold"), answers(text) };
    };
    const QString three = u"m3=\"x\"; m1=\"x\"; m2=\"x\""_s; // 3/3 = 1.0
    const QString four = u"m1=\"x\"; m2=\"x\"; m3=\"x\"; m4=\"x\""_s; // 4/4 = 1.0
    const QString twoOfThree = u"m1=\"x\"; m2=\"x\"; m3=\"gold\""_s; // 2/3
    const QString threeOfFive = u"m1=1; m2=1; m3=1; m4=2; m5=3"_s; // 3/5
    const std::vector<LeafAnswers> leaves {
        leaf(u"c"_s, "p", threeOfFive), leaf(u"b"_s, "x.b", twoOfThree), leaf(u"b"_s, "x.a", twoOfThree),
        leaf(u"a"_s, "p", twoOfThree), leaf(u"z"_s, "p", three), leaf(u"y"_s, "p", four),
        leaf(u"d"_s, "p", u"m1=\"gold\"; m2=\"gold\"; m3=\"x\""_s), // not suspicious
    };
    const std::vector<SuspectLeaf> queue = goldSuspicionQueue(leaves);
    QStringList order;
    for (const SuspectLeaf& s : queue)
        order << s.caseId + u'/' + QString::fromStdString(s.path);
    // Support first, then agreeing count, then case id, then path.
    QCOMPARE(order, (QStringList { u"y/p"_s, u"z/p"_s, u"a/p"_s, u"b/x.a"_s, u"b/x.b"_s, u"c/p"_s }));
    QCOMPARE(queue[1].agreeingModels, (QStringList { u"m1"_s, u"m2"_s, u"m3"_s }));
    QVERIFY(queue[5].consensus == nlohmann::json(1));
}

void TestStats::uniformFailure_data()
{
    QTest::addColumn<QString>("rates");
    QTest::addColumn<QStringList>("flagged");
    QTest::addRow("spread exactly 0.2") << u"c:m1=0.6; c:m2=0.7; c:m3=0.8"_s << QStringList { u"c"_s };
    QTest::addRow("lowest exactly 0.5") << u"c:m1=0.5; c:m2=0.6; c:m3=0.7"_s << QStringList { u"c"_s };
    QTest::addRow("one model below 0.5") << u"c:m1=0.49; c:m2=0.6; c:m3=0.6"_s << QStringList();
    QTest::addRow("spread 0.25") << u"c:m1=0.6; c:m2=0.7; c:m3=0.85"_s << QStringList();
    QTest::addRow("two models") << u"c:m1=0.9; c:m2=0.9"_s << QStringList();
    QTest::addRow("NaN rate skipped") << u"c:m1=0.9; c:m2=0.9; c:m3=nan"_s << QStringList();
    QTest::addRow("repeated model keeps first")
        << u"c:m1=0.9; c:m1=0.1; c:m2=0.9; c:m3=0.9"_s << QStringList { u"c"_s };
    QTest::addRow("categories apart") << u"a:m1=0.9; a:m2=0.9; a:m3=0.95; b:m1=0.9; b:m2=0.1; b:m3=0.9"_s
                                      << QStringList { u"a"_s };
    QTest::addRow("all fail completely") << u"c:m1=1; c:m2=1; c:m3=1; c:m4=1"_s << QStringList { u"c"_s };
    QTest::addRow("nothing") << QString() << QStringList();
}

void TestStats::uniformFailure()
{
    QFETCH(QString, rates);
    QFETCH(QStringList, flagged);
    QStringList actual;
    for (const UniformFailureFlag& f : uniformFailureFlags(failureRates(rates)))
        actual << f.category;
    QCOMPARE(actual, flagged);
}

void TestStats::uniformFailureOrderAndOptions()
{
    const std::vector<CategoryFailureRate> rates
        = failureRates(u"low:m1=0.6; low:m2=0.6; low:m3=0.7; high:m1=0.9; high:m2=0.95; high:m3=1.0;"
                       " mild:m1=0.3; mild:m2=0.6; mild:m3=0.75"_s);
    const std::vector<UniformFailureFlag> flags = uniformFailureFlags(rates);
    QCOMPARE(flags.size(), std::size_t(2));
    QCOMPARE(flags[0].category, u"high"_s); // lowest rate 0.9 before 0.6
    QCOMPARE(flags[0].models, 3);
    QCOMPARE(flags[0].minRate, 0.9);
    QCOMPARE(flags[0].maxRate, 1.0);
    QCOMPARE(flags[1].category, u"low"_s);

    // Looser thresholds admit "mild" (0.3 … 0.75).
    const std::vector<UniformFailureFlag> loose = uniformFailureFlags(rates, { 3, 0.3, 0.5 });
    QCOMPARE(loose.size(), std::size_t(3));
    QCOMPARE(loose[2].category, u"mild"_s);
    // Demanding four models flags nothing.
    QVERIFY(uniformFailureFlags(rates, { 4, 0.5, 0.2 }).empty());
}

QTEST_GUILESS_MAIN(TestStats)
#include "tst_stats.moc"
