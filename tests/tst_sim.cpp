// SPDX-License-Identifier: Apache-2.0
// Simulated models and the prompt builder. The simulator's faults are known, so these tests check
// the judge as much as the simulator: every injected fault must be flagged by exactly the metrics
// that should flag it, and by no other.
#include "providers/promptbuilder.h"
#include "scoring/scorer.h"
#include "sim/simfaults.h"
#include "sim/simulator.h"
#include "simfaultrows.h"
#include "suite/suiteloader.h"

#include <QCryptographicHash>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <map>
#include <set>

using namespace Qt::StringLiterals;
using nlohmann::json;
using namespace structscope;
using namespace structscope::simtest;

namespace {

const QString kDatasetsDir = QStringLiteral(STRUCTSCOPE_SOURCE_DIR) + u"/datasets/"_s;
const QStringList kSuites { u"email-extraction"_s, u"schema-tiers"_s, u"grounded"_s, u"orderbench"_s };

const Suite& suite(const QString& id)
{
    static std::map<QString, SuitePtr> cache;
    auto it = cache.find(id);
    if (it == cache.end()) {
        SuiteLoadResult r = loadSuiteDir(kDatasetsDir + id);
        if (!r.ok())
            qFatal("suite %s does not load", qPrintable(id));
        it = cache.emplace(id, r.suite).first;
    }
    return *it->second;
}

const SuiteCase& suiteCase(const QString& suiteId, const QString& caseId)
{
    const SuiteCase* c = suite(suiteId).findCase(caseId);
    if (!c)
        qFatal("case %s/%s not found", qPrintable(suiteId), qPrintable(caseId));
    return *c;
}

Verdict score(const Suite& s, const SuiteCase& c, const QString& text, bool withSchema = true)
{
    ScoringOptions options = ScoringOptions::forSuite(s);
    options.keepDifferences = true;
    const QByteArray utf8 = text.toUtf8();
    ScoreInput in;
    in.response = std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size()));
    in.gold = &c.gold;
    in.schema = withSchema ? s.schemaFor(c) : nullptr;
    return scoreResponse(in, options);
}

QString compact(const json& v)
{
    return QString::fromStdString(v.dump(-1, ' ', false, json::error_handler_t::replace));
}

/// Strict metrics read only the clean rung (docs/metrics.md §0) on top of strict equality.
bool strictCorrect(const Verdict& v)
{
    return v.rung == ParseRung::Clean && v.ladderStrict == LadderLabel::Correct;
}

} // namespace

class TestSim : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void strategies();
    void strategyEffects();
    void promptBuilder_data();
    void promptBuilder();
    void promptKeepsInputVerbatim();
    void determinism_data();
    void determinism();
    void oracleIsPerfect_data();
    void oracleIsPerfect();
    void faultDetection_data();
    void faultDetection();
    void faultsRejectBadSites();
    void profilesOverAllSuites();
    void pinnedOutput();
};

void TestSim::strategies()
{
    const QStringList names { u"P"_s, u"J"_s, u"PJ"_s, u"J+"_s, u"PJ+"_s };
    QCOMPARE(allStrategies().size(), 5);
    for (int i = 0; i < 5; ++i) {
        const Strategy s = allStrategies()[i];
        QCOMPARE(strategyName(s), names[i]);
        QVERIFY(strategyFromName(names[i]) == std::optional<Strategy>(s));
        // Exactly one of: plain prompt (P), JSON mode (J, PJ), schema format (J+, PJ+).
        QCOMPARE(strategyUsesJsonMode(s), i == 1 || i == 2);
        QCOMPARE(strategyUsesSchemaFormat(s), i == 3 || i == 4);
        QCOMPARE(strategyPutsSchemaInPrompt(s), i == 0 || i == 2 || i == 4);
    }
    QVERIFY(!strategyFromName(u"p"_s));
    QVERIFY(!strategyFromName(u"J +"_s));
    QVERIFY(!strategyFromName(QString()));
}

void TestSim::strategyEffects()
{
    // P asks for the profile's rates as they are; a response schema (J+, PJ+) rules out wrappers and
    // schema violations.
    const StrategyEffect p = strategyEffect(Strategy::P);
    for (double factor : { p.format, p.truncate, p.keys, p.values, p.coercion, p.schema, p.decision })
        QCOMPARE(factor, 1.0);
    for (Strategy s : { Strategy::JPlus, Strategy::PJPlus }) {
        QCOMPARE(strategyEffect(s).format, 0.0);
        QCOMPARE(strategyEffect(s).schema, 0.0);
    }
    // The published factor is the one simulateAnswer() draws with: a profile that always fences
    // fences a share `format` of its answers: exactly at 0 and 1, else within three standard errors
    // (the draws are seeded, so this never flakes; 0.12 instead of J's 0.15 fails it).
    SimProfile fencer;
    fencer.name = u"fencer"_s;
    fencer.codeFence = 1.0;
    for (Strategy s : allStrategies()) {
        int n = 0;
        int fenced = 0;
        for (const QString& id : kSuites) {
            for (const SuiteCase& c : suite(id).cases) {
                for (int repeat = 0; repeat < 4; ++repeat) {
                    ++n;
                    fenced += simulateAnswer(fencer, suite(id), c, s, repeat).faults.contains(u"code_fence"_s);
                }
            }
        }
        const double expected = strategyEffect(s).format;
        const double share = double(fenced) / double(n);
        const double tolerance = 3.0 * std::sqrt(expected * (1.0 - expected) / double(n));
        QVERIFY2(std::abs(share - expected) <= tolerance,
            qPrintable(u"%1: %2 fenced, factor %3"_s.arg(strategyName(s)).arg(share).arg(expected)));
    }
}

void TestSim::promptBuilder_data()
{
    QTest::addColumn<QString>("suiteId");
    QTest::addColumn<QString>("caseId");
    QTest::addColumn<int>("strategy");
    QTest::addColumn<QString>("schemaName");
    QTest::addColumn<bool>("hasExample");
    const struct
    {
        QString suiteId, caseId, schemaName;
        bool hasExample;
    } cases[] = {
        { u"email-extraction"_s, u"st-001"_s, u"support_ticket"_s, true },
        { u"grounded"_s, u"gr-001"_s, u"grounded"_s, false }, // inline schema: named after the suite
        { u"orderbench"_s, u"simple_exact-01"_s, u"order"_s, true },
        { u"schema-tiers"_s, u"st-001"_s, u"t1_invoice"_s, true },
    };
    for (const auto& c : cases) {
        for (Strategy s : allStrategies()) {
            QTest::addRow("%s %s %s", qPrintable(c.suiteId), qPrintable(c.caseId), qPrintable(strategyName(s)))
                << c.suiteId << c.caseId << int(s) << c.schemaName << c.hasExample;
        }
    }
}

void TestSim::promptBuilder()
{
    QFETCH(QString, suiteId);
    QFETCH(QString, caseId);
    QFETCH(int, strategy);
    QFETCH(QString, schemaName);
    QFETCH(bool, hasExample);
    const Strategy s = Strategy(strategy);
    const Suite& st = suite(suiteId);
    const SuiteCase& c = suiteCase(suiteId, caseId);
    const Prompt p = buildPrompt(st, c, s);

    QVERIFY(p.strategy == s);
    QCOMPARE(p.jsonMode, s == Strategy::J || s == Strategy::PJ);
    QCOMPARE(p.schemaAsFormat, s == Strategy::JPlus || s == Strategy::PJPlus);
    QCOMPARE(p.schemaName, schemaName);
    QVERIFY(QRegularExpression(u"^[a-zA-Z0-9_-]{1,64}$"_s).match(p.schemaName).hasMatch());
    QVERIFY(p.schema == *st.schemaFor(c));

    QVERIFY(!p.messages.isEmpty());
    QCOMPARE(p.messages.first().role, u"system"_s);
    QCOMPARE(p.messages.first().content, st.systemPrompt);
    QCOMPARE(p.messages.last().role, u"user"_s);
    const QString user = p.messages.last().content;
    QVERIFY(user.contains(c.input));
    if (c.question && !c.question->isEmpty())
        QVERIFY(user.contains(*c.question));
    QVERIFY2(!user.contains(u"{{"_s), qPrintable(user));

    const bool schemaInPrompt = s == Strategy::P || s == Strategy::PJ || s == Strategy::PJPlus;
    const QString schemaText = QString::fromStdString(p.schema.dump(2));
    QCOMPARE(user.contains(schemaText), schemaInPrompt);
    if (hasExample) {
        const SuiteExample& ex = st.examples.at(schemaName);
        QCOMPARE(user.contains(ex.input), schemaInPrompt);
        QCOMPARE(user.contains(compact(ex.output)), schemaInPrompt);
    }
    // J asks for JSON in words; J+ leaves the format entirely to the response schema.
    const QString instruction = u"Respond with a single JSON object only."_s;
    QCOMPARE(user.contains(instruction), s == Strategy::J);

    const Prompt again = buildPrompt(st, c, s);
    QCOMPARE(again.messages.size(), p.messages.size());
    for (qsizetype i = 0; i < p.messages.size(); ++i)
        QCOMPARE(again.messages[i].content, p.messages[i].content);
}

void TestSim::promptKeepsInputVerbatim()
{
    Suite s;
    s.id = u"my suite/v2 (test)"_s;
    s.systemPrompt = QString();
    s.userPrompt = u"Schema:\n{{schema}}\n\nText: {{input}} {{schema}}\n\nTask: {{question}}"_s;
    SuiteCase c;
    c.id = u"a"_s;
    c.inlineSchema = json { { "type", "object" } };
    c.input = u"a literal {{schema}} and {{question}} stay"_s;
    c.gold = json::object();
    s.cases << c;

    const Prompt pj = buildPrompt(s, c, Strategy::J);
    QCOMPARE(pj.messages.size(), 1); // no system prompt, no system message
    // The schema paragraph is dropped, the empty placeholder on the input line is left blank, and the
    // question paragraph goes because the case has no question.
    QCOMPARE(pj.messages.last().content, u"Text: "_s + c.input + u" \n\nRespond with a single JSON object only."_s);
    QCOMPARE(pj.schemaName, u"my_suite_v2__test_"_s);

    const Prompt pp = buildPrompt(s, c, Strategy::P);
    QCOMPARE(pp.messages.last().content,
        u"Schema:\n{\n  \"type\": \"object\"\n}\n\nText: "_s + c.input + u" {\n  \"type\": \"object\"\n}"_s);
}

void TestSim::determinism_data()
{
    QTest::addColumn<QString>("profile");
    for (const SimProfile& p : simProfiles())
        QTest::addRow("%s", qPrintable(p.name)) << p.name;
}

void TestSim::determinism()
{
    QFETCH(QString, profile);
    const SimProfile* p = findSimProfile(profile);
    QVERIFY(p);
    QVERIFY(!p->description.isEmpty());
    int differingRepeats = 0;
    for (const QString& id : kSuites) {
        const Suite& st = suite(id);
        for (qsizetype i = 0; i < std::min<qsizetype>(st.cases.size(), 12); ++i) {
            const SuiteCase& c = st.cases[i];
            for (Strategy s : allStrategies()) {
                const SimAnswer a = simulateAnswer(*p, st, c, s, 0);
                const SimAnswer b = simulateAnswer(*p, st, c, s, 0);
                QCOMPARE(a.text, b.text);
                QCOMPARE(a.faults, b.faults);
                QCOMPARE(a.tokensIn, b.tokensIn);
                QCOMPARE(a.tokensOut, b.tokensOut);
                QCOMPARE(a.latencyMs, b.latencyMs);
                QVERIFY(a.tokensIn > 0 && a.tokensOut > 0 && a.latencyMs > 0);
                if (simulateAnswer(*p, st, c, s, 1).text != a.text)
                    ++differingRepeats;
            }
        }
    }
    if (profile == u"oracle")
        QCOMPARE(differingRepeats, 0);
    else if (profile == u"sloppy" || profile == u"chatty" || profile == u"hallucinator")
        QVERIFY(differingRepeats > 0);
}

void TestSim::oracleIsPerfect_data()
{
    QTest::addColumn<QString>("suiteId");
    for (const QString& id : kSuites)
        QTest::addRow("%s", qPrintable(id)) << id;
}

void TestSim::oracleIsPerfect()
{
    QFETCH(QString, suiteId);
    const Suite& st = suite(suiteId);
    const SimProfile* oracle = findSimProfile(u"oracle"_s);
    QVERIFY(oracle);
    for (qsizetype i = 0; i < std::min<qsizetype>(st.cases.size(), 25); ++i) {
        const SuiteCase& c = st.cases[i];
        for (Strategy s : allStrategies()) {
            const SimAnswer a = simulateAnswer(*oracle, st, c, s, 3);
            QVERIFY(a.faults.isEmpty());
            QCOMPARE(a.text, compact(c.gold));
            const Verdict v = score(st, c, a.text);
            QVERIFY2(strictCorrect(v), qPrintable(c.id));
            QCOMPARE(v.ladder, LadderLabel::Correct);
            QVERIFY(v.extraction.correct);
            if (v.contract) {
                QVERIFY2(v.contract->semanticSuccess, qPrintable(c.id));
                QVERIFY(v.contract->labels.empty());
            }
            if (v.grounding)
                QCOMPARE(v.grounding->valueAccuracy, 1.0);
        }
    }
}

void TestSim::faultDetection_data()
{
    QTest::addColumn<int>("row");
    for (std::size_t i = 0; i < faultRows().size(); ++i)
        QTest::addRow("%s", faultRows()[i].name) << int(i);
}

void TestSim::faultDetection()
{
    QFETCH(int, row);
    const FaultRow& r = faultRows()[std::size_t(row)];
    const Suite& st = suite(r.suiteId);
    const SuiteCase& c = suiteCase(r.suiteId, r.caseId);
    const ScoringOptions options = ScoringOptions::forSuite(st);
    FaultContext ctx;
    ctx.schema = st.schemaFor(c);
    ctx.contract = options.contract.get();
    ctx.catalog = st.catalog.is_null() ? nullptr : &st.catalog;
    ctx.caseExtra = &c.extra;
    Xoshiro256 rng(2024);

    QString text;
    if (isTextFault(r.kind)) {
        text = applyTextFault(r.kind, compact(c.gold), rng);
    } else {
        json doc = c.gold;
        const std::vector<std::string> sites = faultSites(r.kind, doc, ctx);
        QVERIFY2(std::find(sites.begin(), sites.end(), r.site) != sites.end(), r.site.c_str());
        QVERIFY(applyFaultAt(r.kind, doc, r.site, ctx, rng));
        QVERIFY(doc != c.gold);
        text = compact(doc);
    }
    const Verdict v = score(st, c, text, r.withSchema);

    QVERIFY2(v.rung == r.rung, parseRungId(v.rung));
    QVERIFY2(v.ladder == r.ladder, ladderLabelId(v.ladder));
    // Only the untouched clean answer is strictly correct; a fence or prose costs that and nothing else.
    QCOMPARE(strictCorrect(v), false);
    if (r.rung != ParseRung::Failed) {
        QVERIFY2(countsOf(v.extraction.lenient.diff) == r.lenient,
            qPrintable(describe(countsOf(v.extraction.lenient.diff)) + u" for "_s + text));
        QCOMPARE(v.extraction.failed, false);
    } else {
        QCOMPARE(v.extraction.failed, true);
    }
    if (r.kind == FaultKind::NearMiss) {
        QCOMPARE(v.differences.size(), std::size_t(1));
        QVERIFY(v.differences[0].wrongKind == WrongValueKind::Deviation);
        QVERIFY(v.differences[0].levenshtein > 0 && v.differences[0].levenshtein <= 0.2);
    }
    if (r.kind == FaultKind::WrongEnum) {
        // Invisible to lenient equality, but strictly a (small) deviation.
        QCOMPARE(v.extraction.strict.diff.wvDeviation, 1);
        QVERIFY(!v.schemaValid);
    }

    if (v.contract) {
        QStringList labels;
        for (const std::string& l : v.contract->labels)
            labels << QString::fromStdString(l);
        QCOMPARE(labels, r.contractLabels);
        QCOMPARE(v.contract->unsafeAcceptance, r.unsafe);
        QCOMPARE(v.contract->semanticSuccess, false);
        QCOMPARE(v.contract->catalogViolation, r.kind == FaultKind::CatalogInvention);
    } else {
        QVERIFY(r.contractLabels.isEmpty());
    }
    if (r.valueAccuracy >= 0) {
        QVERIFY(v.grounding);
        QCOMPARE(v.grounding->jsonPass, 1.0);
        QCOMPARE(v.grounding->valueAccuracy, r.valueAccuracy);
        QCOMPARE(v.grounding->perfect, r.kind == FaultKind::CodeFence ? 1.0 : 0.0);
    }
}

void TestSim::faultsRejectBadSites()
{
    for (const QString& id : { u"email-extraction"_s, u"orderbench"_s }) {
        const Suite& st = suite(id);
        const SuiteCase& c = st.cases.first();
        const ScoringOptions options = ScoringOptions::forSuite(st);
        FaultContext ctx;
        ctx.schema = st.schemaFor(c);
        ctx.contract = options.contract.get();
        ctx.catalog = st.catalog.is_null() ? nullptr : &st.catalog;
        ctx.caseExtra = &c.extra;
        Xoshiro256 rng(7);
        for (FaultKind kind : allFaultKinds()) {
            for (const char* site : { "/requester/name/x", "/items/abc/sku", "/items/99", "/~2", "no-pointer" }) {
                json doc = c.gold;
                QVERIFY2(
                    !applyFaultAt(kind, doc, site, ctx, rng), qPrintable(faultId(kind) + u' ' + QLatin1String(site)));
                QVERIFY(doc == c.gold);
            }
        }
    }
}

void TestSim::profilesOverAllSuites()
{
    struct Tally
    {
        int n = 0, correct = 0, hallucinated = 0, schemaViolation = 0, invalid = 0, notClean = 0, unsafe = 0,
            semantic = 0;
        double valueAccuracy = 0;
    };
    std::map<std::pair<QString, QString>, ExtractionTotals> extraction;
    std::map<std::tuple<QString, QString, Strategy>, Tally> tallies;
    std::set<QString> sloppyFaults;
    for (const SimProfile& p : simProfiles()) {
        for (const QString& id : kSuites) {
            const Suite& st = suite(id);
            for (const SuiteCase& c : st.cases) {
                for (Strategy s : allStrategies()) {
                    const SimAnswer a = simulateAnswer(p, st, c, s, 0);
                    const Verdict v = score(st, c, a.text);
                    Tally& t = tallies[{ p.name, id, s }];
                    ++t.n;
                    t.correct += v.ladder == LadderLabel::Correct;
                    t.hallucinated += v.ladder == LadderLabel::HallucinatedOnMissing;
                    t.schemaViolation += v.ladder == LadderLabel::SchemaViolation;
                    t.invalid += v.ladder == LadderLabel::InvalidJson;
                    t.notClean += v.rung != ParseRung::Clean;
                    if (v.contract) {
                        t.unsafe += v.contract->unsafeAcceptance;
                        t.semantic += v.contract->semanticSuccess;
                    }
                    if (v.grounding)
                        t.valueAccuracy += v.grounding->valueAccuracy;
                    extraction[{ p.name, id }].add(v.extraction);
                    if (a.faults.isEmpty()) {
                        const json& gold = c.gold;
                        QCOMPARE(a.text, QString::fromStdString(gold.dump(p.pretty ? 2 : -1)));
                    }
                    if (strategyUsesSchemaFormat(s)) {
                        // A response schema rules out wrappers and invalid documents (but not a token limit).
                        QVERIFY(!a.faults.contains(u"code_fence"_s) && !a.faults.contains(u"prose"_s));
                        QVERIFY2(v.rung == ParseRung::Failed || (v.rung == ParseRung::Clean && v.schemaValid),
                            qPrintable(p.name + u' ' + c.id + u' ' + a.text));
                    }
                    if (p.name == u"sloppy")
                        sloppyFaults.insert(a.faults.begin(), a.faults.end());
                }
            }
        }
    }
    // Sloppy shows every kind of fault somewhere.
    for (FaultKind k : allFaultKinds())
        QVERIFY2(sloppyFaults.count(faultId(k)), qPrintable(faultId(k)));

    auto share = [&](const QString& profile, const QString& suiteId, Strategy s, int Tally::*field) {
        const Tally& t = tallies[{ profile, suiteId, s }];
        return double(t.*field) / double(t.n);
    };
    auto mean = [&](const QString& profile, const QString& suiteId, int Tally::*field) {
        double sum = 0;
        for (Strategy s : allStrategies())
            sum += share(profile, suiteId, s, field);
        return sum / double(allStrategies().size());
    };

    // The demo leaderboard, one headline per family (means over the five strategies), for the report.
    qInfo().noquote()
        << u"profile       ladder.correct(email tiers grounded order) | extraction.f1_micro(email tiers) | "
           "grounding.value_accuracy | contract.semantic_success contract.unsafe_acceptance"_s;
    for (const SimProfile& p : simProfiles()) {
        QStringList ladder, f1;
        double va = 0, semantic = 0, unsafe = 0;
        for (const QString& id : kSuites)
            ladder << QString::number(mean(p.name, id, &Tally::correct), 'f', 3);
        for (const QString& id : { u"email-extraction"_s, u"schema-tiers"_s })
            f1 << QString::number(extraction[{ p.name, id }].f1Micro(), 'f', 3);
        for (Strategy s : allStrategies()) {
            const Tally& g = tallies[{ p.name, u"grounded"_s, s }];
            va += g.valueAccuracy / g.n / 5;
        }
        semantic = mean(p.name, u"orderbench"_s, &Tally::semantic);
        unsafe = mean(p.name, u"orderbench"_s, &Tally::unsafe);
        QStringList byStrategy;
        for (Strategy s : allStrategies()) {
            double sum = 0;
            for (const QString& id : kSuites)
                sum += share(p.name, id, s, &Tally::correct);
            byStrategy << strategyName(s) + u'=' + QString::number(sum / double(kSuites.size()), 'f', 3);
        }
        qInfo().noquote() << p.name.leftJustified(13) << ladder.join(u' ') << u"|"_s << f1.join(u' ') << u"|"_s
                          << QString::number(va, 'f', 3) << u"|"_s << QString::number(semantic, 'f', 3)
                          << QString::number(unsafe, 'f', 3) << u"| ladder.correct by strategy"_s
                          << byStrategy.join(u' ');
    }

    const QString email = u"email-extraction"_s;
    for (const QString& id : kSuites) {
        QCOMPARE(mean(u"oracle"_s, id, &Tally::correct), 1.0);
        QVERIFY(mean(u"careful"_s, id, &Tally::correct) > mean(u"sloppy"_s, id, &Tally::correct));
    }
    QVERIFY(mean(u"careful"_s, email, &Tally::correct) > 0.8);
    QVERIFY(mean(u"sloppy"_s, email, &Tally::correct) < 0.6);
    // The hallucinator's signature is the silent failure; careful almost never invents.
    QVERIFY(mean(u"hallucinator"_s, email, &Tally::hallucinated) > 0.3);
    QVERIFY(mean(u"careful"_s, email, &Tally::hallucinated) < 0.02);
    QVERIFY(mean(u"hallucinator"_s, u"orderbench"_s, &Tally::unsafe) > 0.05);
    QVERIFY(mean(u"careful"_s, u"orderbench"_s, &Tally::unsafe) < 0.01);
    // Chatty's values are good, but its P answers are rarely clean.
    QVERIFY(share(u"chatty"_s, email, Strategy::P, &Tally::notClean) > 0.5);
    QVERIFY(share(u"chatty"_s, email, Strategy::PJPlus, &Tally::notClean) < 0.1);
    QVERIFY(mean(u"chatty"_s, email, &Tally::correct) > 0.7);
    // Strategy matters: P fails the schema more often than J+, which never does.
    QVERIFY(share(u"sloppy"_s, email, Strategy::P, &Tally::schemaViolation) > 0.1);
    QCOMPARE(share(u"sloppy"_s, email, Strategy::JPlus, &Tally::schemaViolation), 0.0);
    // Stringly's coercions are schema violations unless the response schema forbids them.
    const QString tiers = u"schema-tiers"_s;
    QVERIFY(share(u"stringly"_s, tiers, Strategy::JPlus, &Tally::correct)
        > share(u"stringly"_s, tiers, Strategy::P, &Tally::correct) + 0.2);
}

void TestSim::pinnedOutput()
{
    // Byte-for-byte pins: the seed and every draw are platform-independent, so these hold on every
    // machine and standard library. A change here changes every stored simulated run.
    const SimProfile* sloppy = findSimProfile(u"sloppy"_s);
    QVERIFY(sloppy);
    const SimAnswer a = simulateAnswer(
        *sloppy, suite(u"orderbench"_s), suiteCase(u"orderbench"_s, u"allergen_conflict-01"_s), Strategy::PJ, 1);
    QCOMPARE(a.faults, QStringList({ u"unsafe_flip"_s, u"omit_value"_s, u"near_miss"_s }));
    QCOMPARE(a.text,
        u"{\"clarification_question\":null,\"constraints\":{\"allergens\":[\"gluten\"],\"dietary\":[]},"
        "\"items\":[{\"additions\":[],\"instructions\":null,\"quantity\":1,\"removals\":[],\"size\":\"smal\","
        "\"sku\":\"milkshake\"},{\"additions\":[],\"instructions\":null,\"quantity\":null,\"removals\":[],"
        "\"size\":null,\"sku\":\"classic_burger\"}],\"reasons\":[\"allergen_conflict\"],\"status\":\"accepted\"}"_s);
    QCOMPARE(a.tokensIn, 2925);
    QCOMPARE(a.tokensOut, 85);
    QCOMPARE(a.latencyMs, 987.3);

    // Everything else, as one digest over every profile's answers to the first cases of each suite.
    QCryptographicHash digest(QCryptographicHash::Sha256);
    for (const SimProfile& p : simProfiles()) {
        for (const QString& id : kSuites) {
            const Suite& st = suite(id);
            for (qsizetype i = 0; i < std::min<qsizetype>(st.cases.size(), 10); ++i) {
                for (Strategy s : allStrategies()) {
                    const SimAnswer b = simulateAnswer(p, st, st.cases[i], s, int(i % 3));
                    digest.addData(b.text.toUtf8());
                    digest.addData(b.faults.join(u',').toUtf8());
                    const QByteArray numbers = QByteArray::number(b.tokensIn) + ' ' + QByteArray::number(b.tokensOut)
                        + ' ' + QByteArray::number(b.latencyMs, 'f', 1) + '\n';
                    digest.addData(numbers);
                }
            }
        }
    }
    QCOMPARE(digest.result().toHex(), QByteArray("3f3a18efae5da934031f63735ee6972d1dee724ccf3b3c43d87fad06d5020ea2"));
}

QTEST_GUILESS_MAIN(TestSim)
#include "tst_sim.moc"
