// SPDX-License-Identifier: Apache-2.0
// evaluateStore: which stored rows a report counts, and measured versus adjusted gold.
#include "report/evaluation.h"
#include "report/reportcache.h"
#include "scoring/verdictcodec.h"
#include "store/resultstore.h"
#include "store/suiteimport.h"
#include "suite/suiteloader.h"
#include "util/prefault.h"

#include <QDir>
#include <QFile>
#include <QMap>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

using namespace Qt::StringLiterals;
using namespace structscope;

class TestEvaluation : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<ResultStore> m_store;
    QHash<QString, qint64> m_caseRows;
    qint64 m_runId = 0;
    qint64 m_rootRun = 0;

    ResponseRow response(const QString& caseId, int repeat, const QString& text, const QString& error, double cost)
    {
        ResponseRow r;
        r.runId = m_runId;
        r.caseRow = m_caseRows.value(caseId);
        r.repeat = repeat;
        r.requestHash = caseId + QString::number(repeat);
        r.rawText = text;
        r.errorKind = error;
        r.httpStatus = error.isEmpty() ? 200 : 0;
        r.latencyMs = 100;
        r.cost = cost;
        r.costSource = CostSource::Provider;
        return r;
    }

    /// A new run of a simulated model on the suite; its responses go to it from now on.
    bool startRun(const QString& model)
    {
        RunRow run;
        run.suiteRow = m_store->suites()->constFirst().row;
        run.modelSpec = model;
        run.providerKind = u"sim"_s;
        run.strategy = u"J"_s;
        const auto created = m_store->createRun(run);
        if (!created)
            return false;
        m_runId = created->id;
        return true;
    }

    /// Makes a store of its own at `path` with the import suite, and runs `fill` while it stands in for m_store (so
    /// startRun() and response() write to it); m_store is put back whatever `fill` does. Callers check
    /// QTest::currentTestFailed() afterwards.
    void makeImportStore(const QString& path, const std::function<void()>& fill)
    {
        const SuiteLoadResult loaded = loadSuiteDir(QStringLiteral(STRUCTSCOPE_TEST_DATA) + u"/import/suite"_s);
        QVERIFY(loaded.ok());
        auto store = ResultStore::open(path);
        QVERIFY(store);
        QVERIFY(store->importSuite(makeSuiteImport(*loaded.suite)));
        std::swap(store, m_store);
        fill();
        std::swap(store, m_store);
    }

    /// Whether two verdicts agree on everything a report reads of them: parse rung, both ladder labels, schema
    /// validity and every per-record metric value.
    static bool sameVerdict(const Verdict& a, const Verdict& b)
    {
        if (a.rung != b.rung || a.ladder != b.ladder || a.ladderStrict != b.ladderStrict
            || a.schemaValid != b.schemaValid || a.values.size() != b.values.size())
            return false;
        for (std::size_t v = 0; v < a.values.size(); ++v) {
            if (a.values.key(v) != b.values.key(v) || a.values.value(v) != b.values.value(v))
                return false;
        }
        return true;
    }

    const ScoredRecord* find(const Evaluation& e, const QString& caseId)
    {
        for (const ScoredRecord& r : e.records) {
            if (r.caseId == caseId)
                return &r;
        }
        return nullptr;
    }

private Q_SLOTS:
    void scoredRecordsShareWhatAReplacementLeaves();
    void casePlacesFindEachCasesRecords();
    void prefaultingKeepsWhatIsThere();
    void initTestCase();
    void retriedSlotsCountOnceTheLatestSuccessfulAnswer();
    void transportErrorsAreErroredRefusalsAreAnswers();
    void adjustedGoldRescoresWithoutTouchingMeasured();
    void reuseScoresOnlyWhatChanged();
    void reevaluatingCasesEqualsAFullPass();
    void contentStampFollowsWhatReportsReadAndTheSavedReportWithIt();
    void responsesStoredWhileScoringAreScoredToo();
    void identicalAnswersAreScoredOnce();
    void keptVerdictsAreReadInsteadOfScored();
    void goldIsParsedOnlyForAnswersScored();
    void scoreAndKeepCoversBothGoldBases();
    void cancelWhileTheNextRunIsReadStops();
    void cancelStopsWithoutRecords();
};

void TestEvaluation::scoredRecordsShareWhatAReplacementLeaves()
{
    // Four chunks' worth of records but 24: the last chunk short.
    constexpr std::size_t K = ScoredRecords::kChunk;
    constexpr std::size_t n = 4 * K - 24;
    std::vector<ScoredRecord> flat(n);
    for (std::size_t i = 0; i < flat.size(); ++i) {
        flat[i].responseId = qint64(i);
        flat[i].model = i % 2 ? u"odd"_s : u"even"_s;
        flat[i].verdict.values.emplace_back("ladder.correct", i % 3 == 0 ? 1.0 : 0.0);
    }
    const ScoredRecords original { std::span<const ScoredRecord>(flat) };
    QCOMPARE(original.size(), flat.size());
    QCOMPARE(original.spanCount(), std::size_t(4));
    QCOMPARE(original.span(3).size(), K - 24);
    QCOMPARE(original.ownerCount(), std::size_t(1));
    for (std::size_t i = 0; i < flat.size(); ++i)
        QCOMPARE(original[i].responseId, qint64(i));
    QCOMPARE(original.back().responseId, qint64(n - 1));
    QCOMPARE(std::distance(original.begin(), original.end()), std::ptrdiff_t(n));

    // Places 3 and n - 1 (the first and the last chunk) replaced: the two middle chunks stay shared.
    ScoredRecord three = original[3];
    three.responseId = -3;
    ScoredRecord last = original[n - 1];
    last.responseId = -qint64(n - 1);
    const ScoredRecords edited = original.withReplaced({ { n - 1, last }, { 3, three } });
    QCOMPARE(edited.size(), original.size());
    QCOMPARE(edited[3].responseId, qint64(-3));
    QCOMPARE(edited[n - 1].responseId, -qint64(n - 1));
    QCOMPARE(original[3].responseId, qint64(3)); // the earlier set is unchanged
    QCOMPARE(original[n - 1].responseId, qint64(n - 1));
    for (std::size_t i = 0; i < edited.size(); ++i) {
        if (i != 3 && i != n - 1)
            QCOMPARE(edited[i].responseId, qint64(i));
        const bool shared = i >= K && i < 3 * K;
        QCOMPARE(&edited[i] == &original[i], shared);
    }
    QCOMPARE(edited.ownerCount(), std::size_t(3));

    // Replacing again in a chunk copied before lets the earlier copy go; toVector() is the records in order.
    ScoredRecord again = edited[5];
    again.responseId = -5;
    const ScoredRecords twice = edited.withReplaced({ { 5, again } });
    QCOMPARE(twice.ownerCount(), std::size_t(3));
    QCOMPARE(twice[3].responseId, qint64(-3));
    QCOMPARE(twice[5].responseId, qint64(-5));
    QCOMPARE(edited[5].responseId, qint64(5));
    const std::vector<ScoredRecord> back = twice.toVector();
    QCOMPARE(back.size(), n);
    QCOMPARE(back[5].responseId, qint64(-5));
    QCOMPARE(back[n - 2].responseId, qint64(n - 2));

    // A view of the chunks reads what a view of one array does: the same aggregate.
    const RecordsView chunked(twice);
    const RecordsView oneArray(back);
    QCOMPARE(chunked.size(), oneArray.size());
    QCOMPARE(chunked.spanCount(), std::size_t(4));
    QCOMPARE(oneArray.spanCount(), std::size_t(1));
    std::size_t visited = 0;
    chunked.forEach([&](const ScoredRecord& r, std::size_t index) {
        QCOMPARE(r.responseId, back[index].responseId);
        ++visited;
    });
    QCOMPARE(visited, n);
    AggregateOptions byModel;
    byModel.bootstrap.resamples = 50;
    const Report a = aggregate(chunked, byModel);
    const Report b = aggregate(oneArray, byModel);
    QCOMPARE(a.groups.size(), std::size_t(2));
    QCOMPARE(a.groups.size(), b.groups.size());
    for (std::size_t g = 0; g < a.groups.size(); ++g) {
        QCOMPARE(a.groups[g].n, b.groups[g].n);
        QCOMPARE(a.groups[g].mean, b.groups[g].mean);
        QCOMPARE(a.groups[g].ci95.at("ladder.correct").low, b.groups[g].ci95.at("ladder.correct").low);
    }
    QVERIFY(ScoredRecords().empty());
    QCOMPARE(ScoredRecords().spanCount(), std::size_t(0));

    // Values that differ as QStrings but not as UTF-8 (lone surrogates) are one group, its records in record
    // order although a replaced chunk lies elsewhere in memory: the same sums, to the bit, as one array gives.
    std::vector<ScoredRecord> surrogates(2 * K + K / 3);
    for (std::size_t i = 0; i < surrogates.size(); ++i) {
        surrogates[i].model = QString(QChar(char16_t(i % 2 ? 0xD800 : 0xDC00)));
        surrogates[i].verdict.values.emplace_back("grounding.value_accuracy", std::sqrt(double(i)));
    }
    // The replaced chunk is a new array, above or below the first: one of the two replacements puts a chunk
    // out of address order (a sort of the merged group by address would then lose record order).
    const auto outOfAddressOrder = [](const ScoredRecords& r) { return !(&r[0] < &r[K] && &r[K] < &r[2 * K]); };
    ScoredRecords mixed;
    for (const std::size_t place : { K + K / 5, std::size_t(10) }) {
        ScoredRecord moved = surrogates[place];
        moved.verdict.values.clear();
        moved.verdict.values.emplace_back("grounding.value_accuracy", 1e6);
        mixed = ScoredRecords(std::span<const ScoredRecord>(surrogates)).withReplaced({ { place, moved } });
        if (outOfAddressOrder(mixed))
            break;
    }
    QVERIFY(outOfAddressOrder(mixed));
    AggregateOptions pointEstimates;
    pointEstimates.intervals = false;
    const Report merged = aggregate(mixed, pointEstimates);
    const Report reference = aggregate(mixed.toVector(), pointEstimates);
    QCOMPARE(merged.groups.size(), std::size_t(1));
    QCOMPARE(merged.groups[0].n, int(surrogates.size()));
    const double mean = merged.groups[0].mean.at("grounding.value_accuracy");
    QCOMPARE(std::memcmp(&mean, &reference.groups[0].mean.at("grounding.value_accuracy"), sizeof mean), 0);
}

void TestEvaluation::casePlacesFindEachCasesRecords()
{
    // Case 7's records at places 0, 1 and, after case 9's, 4 (not adjacent); places across chunk boundaries.
    std::vector<ScoredRecord> flat(ScoredRecords::kChunk * 2 + 5);
    for (std::size_t i = 0; i < flat.size(); ++i)
        flat[i].caseRow = 100 + qint64(i % 50);
    for (const auto& [place, caseRow] : { std::pair { 0, 7 }, { 1, 7 }, { 2, 9 }, { 3, 9 }, { 4, 7 } })
        flat[std::size_t(place)].caseRow = caseRow;
    const ScoredRecords records(std::move(flat));
    const CasePlaces places(records);
    QVERIFY(places.complete());
    QCOMPARE(places.size(), records.size());
    const auto seven = places.of(7);
    QCOMPARE(std::vector<std::uint32_t>(seven.begin(), seven.end()), (std::vector<std::uint32_t> { 0, 1, 4 }));
    QCOMPARE(places.of(9).size(), std::size_t(2));
    QVERIFY(places.of(8).empty());
    std::size_t counted = 5;
    for (qint64 caseRow = 100; caseRow < 150; ++caseRow) {
        for (const std::uint32_t place : places.of(caseRow)) {
            QCOMPARE(records[place].caseRow, caseRow);
            ++counted;
        }
    }
    QCOMPARE(counted, records.size());

    // A record without its case row (from before records knew theirs): nothing can be looked up.
    std::vector<ScoredRecord> old(3);
    old[0].caseRow = 1;
    old[2].caseRow = 1;
    const CasePlaces incomplete { ScoredRecords(std::move(old)) };
    QVERIFY(!incomplete.complete());
    QVERIFY(incomplete.of(1).empty());
}

void TestEvaluation::prefaultingKeepsWhatIsThere()
{
    // The scored sets are reserved with their pages mapped ahead (MADV_POPULATE_WRITE): a hint that must never
    // change memory — not what a vector already holds, nor its size; a call that discarded pages
    // (MADV_DONTNEED, MADV_FREE) would zero them.
    std::vector<std::uint64_t> held(std::size_t(3) << 20);
    for (std::size_t i = 0; i < held.size(); ++i)
        held[i] = i * 0x9E3779B97F4A7C15ull;
    prefaultPages(held.data(), held.size() * sizeof(std::uint64_t));
    prefaultPages(held.data() + 1, 4096); // below the size worth it, unaligned: nothing
    prefaultPages(nullptr, std::size_t(64) << 20);
    for (std::size_t i = 0; i < held.size(); ++i) {
        if (held[i] != i * 0x9E3779B97F4A7C15ull)
            QFAIL(qPrintable(u"word %1 changed"_s.arg(i)));
    }
    std::vector<std::uint64_t> reserved;
    reservePrefaulted(reserved, held.size());
    QCOMPARE(reserved.size(), std::size_t(0));
    QVERIFY(reserved.capacity() >= held.size());
    reserved.insert(reserved.end(), held.begin(), held.end());
    QVERIFY(reserved == held);
}

void TestEvaluation::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const SuiteLoadResult loaded = loadSuiteDir(QStringLiteral(STRUCTSCOPE_TEST_DATA) + u"/import/suite"_s);
    QVERIFY(loaded.ok());
    m_store = ResultStore::open(m_dir.filePath(u"e.db"_s));
    QVERIFY(m_store);
    const auto imported = m_store->importSuite(makeSuiteImport(*loaded.suite));
    QVERIFY(imported);
    const auto cases = m_store->cases(imported->suite.row);
    QVERIFY(cases);
    for (const CaseRow& c : cases.value())
        m_caseRows.insert(c.id, c.row);
    RunRow run;
    run.suiteRow = imported->suite.row;
    run.modelSpec = u"sim:test"_s;
    run.providerKind = u"sim"_s;
    run.strategy = u"J"_s;
    const auto created = m_store->createRun(run);
    QVERIFY(created);
    m_runId = created->id;
    // p-1: a timeout, then a retry that answered. p-2: an answer, then a later failed retry.
    // p-3: three failures.
    QVERIFY(m_store->appendResponses({
        response(u"p-1"_s, 0, {}, u"timeout"_s, 0.001),
        response(u"p-2"_s, 0, uR"({"name": "Bo"})"_s, {}, 0.002),
        response(u"p-3"_s, 0, {}, u"network"_s, 0.0),
    }));
    // The runner retries errored slots in a new run that names its parent; a retry of the retry too.
    for (int generation = 0; generation < 2; ++generation) {
        RunRow retry = run;
        retry.settings = { { "retry_of", m_runId } };
        const auto again = m_store->createRun(retry);
        QVERIFY(again);
        m_runId = again->id;
        if (generation == 0) {
            QVERIFY(m_store->appendResponses({
                response(u"p-1"_s, 0, uR"({"name": "Ann", "age": 41})"_s, {}, 0.002),
                response(u"p-2"_s, 0, {}, u"http_5xx"_s, 0.0),
                response(u"p-3"_s, 0, {}, u"timeout"_s, 0.0),
            }));
        } else {
            QVERIFY(m_store->appendResponses({ response(u"p-3"_s, 0, {}, u"timeout"_s, 0.0) }));
        }
    }
    m_rootRun = created->id;
}

void TestEvaluation::retriedSlotsCountOnceTheLatestSuccessfulAnswer()
{
    const Evaluation e = evaluateStore(*m_store);
    QVERIFY2(e.ok(), qPrintable(e.error));
    QCOMPARE(e.records.size(), std::size_t(3));
    const ScoredRecord* p1 = find(e, u"p-1"_s);
    const ScoredRecord* p2 = find(e, u"p-2"_s);
    const ScoredRecord* p3 = find(e, u"p-3"_s);
    QVERIFY(p1 && p2 && p3);
    QCOMPARE(p1->verdict.ladder, LadderLabel::Correct);
    QCOMPARE(p2->verdict.ladder, LadderLabel::Correct); // the later failure does not replace the answer
    QCOMPARE(p3->verdict.ladder, LadderLabel::InvalidJson);
    // p-3's last attempt timed out: no answer of the model, an errored slot. The others are answers.
    QVERIFY(!p1->errored() && !p2->errored());
    QCOMPARE(p3->error, ErrorKind::Timeout);
    // Every call of a slot was paid for.
    QVERIFY(qAbs(*p1->cost - 0.003) < 1e-12);
    QVERIFY(qAbs(*p2->cost - 0.002) < 1e-12);
    // All three count under the first run of the family.
    QCOMPARE(p1->runId, m_rootRun);
    QCOMPARE(p3->runId, m_rootRun);
}

void TestEvaluation::transportErrorsAreErroredRefusalsAreAnswers()
{
    // One run answers p-1 through p-3 in every way a call can end. Only what the transport or the provider failed
    // is errored; a refusal and a length cut are the model's answers, scored as such — read from the answers and
    // from kept verdicts alike.
    const QString path = m_dir.filePath(u"errored.db"_s);
    const qint64 runBefore = m_runId; // startRun() below sets it; later tests write to m_store's run
    makeImportStore(path, [this] {
        QVERIFY(startRun(u"sim:kinds"_s));
        QVERIFY(m_store->appendResponses({
            response(u"p-1"_s, 0, uR"({"name": "Ann", "age": 41})"_s, {}, 0.0),
            response(u"p-1"_s, 1, {}, u"refusal"_s, 0.0),
            response(u"p-1"_s, 2, u"{\"name\": \"An"_s, u"truncated"_s, 0.0),
            response(u"p-1"_s, 3, {}, u"malformed_body"_s, 0.0),
            response(u"p-2"_s, 0, {}, u"timeout"_s, 0.0),
            response(u"p-2"_s, 1, {}, u"http_4xx"_s, 0.0),
            response(u"p-2"_s, 2, {}, u"http_5xx"_s, 0.0),
            response(u"p-2"_s, 3, {}, u"rate_limited"_s, 0.0),
            response(u"p-3"_s, 0, {}, u"network"_s, 0.0),
            response(u"p-3"_s, 1, uR"({"name": null})"_s, {}, 0.0),
        }));
    });
    m_runId = runBefore;
    QVERIFY(!QTest::currentTestFailed());
    auto store = ResultStore::open(path);
    QVERIFY(store);
    for (const bool kept : { false, true }) {
        if (kept)
            QCOMPARE(scoreAndKeepVerdicts(*store).error, QString());
        const Evaluation e = evaluateStore(*store);
        QVERIFY2(e.ok(), qPrintable(e.error));
        QCOMPARE(e.records.size(), std::size_t(10));
        if (kept)
            QCOMPARE(e.stored, qint64(10));
        QMap<std::pair<QString, int>, ErrorKind> errors;
        for (const ScoredRecord& r : e.records)
            errors[{ r.caseId, r.repeat }] = r.error;
        QCOMPARE(errors.value({ u"p-1"_s, 0 }, ErrorKind::Cancelled), ErrorKind::None);
        QCOMPARE(errors.value({ u"p-1"_s, 1 }, ErrorKind::Cancelled), ErrorKind::None); // refusal
        QCOMPARE(errors.value({ u"p-1"_s, 2 }, ErrorKind::Cancelled), ErrorKind::None); // length cut
        QCOMPARE(errors.value({ u"p-1"_s, 3 }), ErrorKind::MalformedBody);
        QCOMPARE(errors.value({ u"p-2"_s, 0 }), ErrorKind::Timeout);
        QCOMPARE(errors.value({ u"p-2"_s, 1 }), ErrorKind::Http4xx);
        QCOMPARE(errors.value({ u"p-2"_s, 2 }), ErrorKind::Http5xx);
        QCOMPARE(errors.value({ u"p-2"_s, 3 }), ErrorKind::RateLimited);
        QCOMPARE(errors.value({ u"p-3"_s, 0 }), ErrorKind::Network);
        QCOMPARE(errors.value({ u"p-3"_s, 1 }, ErrorKind::Cancelled), ErrorKind::None);

        AggregateOptions options;
        options.groupBy = { "case" };
        options.families = { "ladder" };
        options.intervals = false;
        const Report report = aggregate(e.records, options);
        QCOMPARE(report.groups.size(), std::size_t(3));
        // p-1: a correct answer, a refusal and a length cut (both invalid JSON, the model's); one errored.
        QCOMPARE(report.groups[0].n, 3);
        QCOMPARE(report.groups[0].errored, 1);
        QVERIFY(std::abs(report.groups[0].mean.at("ladder.correct") - 1.0 / 3) < 1e-12);
        QVERIFY(std::abs(report.groups[0].mean.at("ladder.invalid_json") - 2.0 / 3) < 1e-12);
        // p-2: no answer at all.
        QCOMPARE(report.groups[1].n, 0);
        QCOMPARE(report.groups[1].errored, 4);
        QVERIFY(!report.groups[1].mean.count("ladder.correct"));
        // p-3: its one answer, which parsed, is all that counts.
        QCOMPARE(report.groups[2].n, 1);
        QCOMPARE(report.groups[2].errored, 1);
        QVERIFY(report.groups[2].mean.count("ladder.correct"));
        QCOMPARE(report.groups[2].mean.at("ladder.invalid_json"), 0.0);
    }
}

void TestEvaluation::adjustedGoldRescoresWithoutTouchingMeasured()
{
    const GoldEditResult edit = m_store->addGoldRevision(m_caseRows.value(u"p-1"_s),
        nlohmann::json { { "name", "Ann" }, { "age", 42 } }, u"tester"_s, u"the text says 42"_s, 0);
    QVERIFY(edit.ok());
    const Evaluation measured = evaluateStore(*m_store);
    EvaluationOptions adjustedOptions;
    adjustedOptions.gold = GoldBasis::Adjusted;
    const Evaluation adjusted = evaluateStore(*m_store, adjustedOptions);
    QCOMPARE(find(measured, u"p-1"_s)->verdict.ladder, LadderLabel::Correct);
    QCOMPARE(find(adjusted, u"p-1"_s)->verdict.ladder, LadderLabel::ValueIncorrect);
    QCOMPARE(find(adjusted, u"p-2"_s)->verdict.ladder, LadderLabel::Correct);
}

void TestEvaluation::reuseScoresOnlyWhatChanged()
{
    EvaluationOptions options;
    options.gold = GoldBasis::Adjusted;
    const Evaluation first = evaluateStore(*m_store, options);
    QVERIFY2(first.ok(), qPrintable(first.error));
    QCOMPARE(first.reused, 0);
    for (const ScoredRecord& r : first.records) {
        QVERIFY(r.responseId > 0);
        QVERIFY(r.goldRevisionRow > 0);
        QCOMPARE(r.scorerVersion, kScorerVersion);
    }

    // Nothing changed: every verdict is taken over, and equals what scoring gives.
    options.reuse = &first.records;
    const Evaluation same = evaluateStore(*m_store, options);
    QCOMPARE(same.reused, 3);
    for (const ScoredRecord& r : same.records) {
        const ScoredRecord* before = find(first, r.caseId);
        QCOMPARE(r.verdict.ladder, before->verdict.ladder);
        QCOMPARE(r.verdict.values, before->verdict.values);
    }

    // A gold edit of p-1 (42 back to 41): only p-1's response is scored again, against the new revision.
    const GoldEditResult edit = m_store->addGoldRevision(m_caseRows.value(u"p-1"_s),
        nlohmann::json { { "name", "Ann" }, { "age", 41 } }, u"tester"_s, u"41 after all"_s, 1);
    QVERIFY(edit.ok());
    const Evaluation after = evaluateStore(*m_store, options);
    QCOMPARE(after.reused, 2);
    QCOMPARE(find(first, u"p-1"_s)->verdict.ladder, LadderLabel::ValueIncorrect);
    QCOMPARE(find(after, u"p-1"_s)->verdict.ladder, LadderLabel::Correct);
    QVERIFY(find(after, u"p-1"_s)->goldRevisionRow != find(first, u"p-1"_s)->goldRevisionRow);
    EvaluationOptions fresh;
    fresh.gold = GoldBasis::Adjusted;
    const Evaluation scratch = evaluateStore(*m_store, fresh);
    for (const ScoredRecord& r : after.records) {
        QCOMPARE(r.verdict.ladder, find(scratch, r.caseId)->verdict.ladder);
        QCOMPARE(r.verdict.values, find(scratch, r.caseId)->verdict.values);
    }

    // Verdicts of another scorer version are never taken over.
    std::vector<ScoredRecord> olderRecords = after.records.toVector();
    for (ScoredRecord& r : olderRecords)
        r.scorerVersion = kScorerVersion - 1;
    const ScoredRecords older(std::move(olderRecords));
    options.reuse = &older;
    QCOMPARE(evaluateStore(*m_store, options).reused, 0);
}

void TestEvaluation::reevaluatingCasesEqualsAFullPass()
{
    EvaluationOptions options;
    options.gold = GoldBasis::Adjusted;
    const Evaluation before = evaluateStore(*m_store, options);
    QVERIFY2(before.ok(), qPrintable(before.error));
    for (const ScoredRecord& r : before.records)
        QCOMPARE(r.caseRow, m_caseRows.value(r.caseId));
    const auto current = m_store->currentGold(m_caseRows.value(u"p-2"_s));
    QVERIFY(current);
    const GoldEditResult edit = m_store->addGoldRevision(m_caseRows.value(u"p-2"_s),
        nlohmann::json { { "name", "Bob" } }, u"tester"_s, u"the text says Bob"_s, current->revision);
    QVERIFY(edit.ok());

    // Only p-2's responses are read and scored; every record is where a full pass puts it, with its verdict.
    const Evaluation partial = reevaluateCases(*m_store, before.records, { m_caseRows.value(u"p-2"_s) }, options);
    QVERIFY2(partial.ok(), qPrintable(partial.error));
    const Evaluation full = evaluateStore(*m_store, options);
    QCOMPARE(partial.records.size(), full.records.size());
    QCOMPARE(partial.reused, qint64(full.records.size()) - 1);
    for (std::size_t i = 0; i < full.records.size(); ++i) {
        const ScoredRecord& a = partial.records[i];
        const ScoredRecord& b = full.records[i];
        QCOMPARE(a.caseId, b.caseId);
        QCOMPARE(a.runId, b.runId);
        QCOMPARE(a.responseId, b.responseId);
        QCOMPARE(a.goldRevisionRow, b.goldRevisionRow);
        QCOMPARE(a.verdict.ladder, b.verdict.ladder);
        QCOMPARE(a.verdict.values, b.verdict.values);
        QCOMPARE(a.cost, b.cost);
    }
    QCOMPARE(find(partial, u"p-2"_s)->verdict.ladder, LadderLabel::ValueIncorrect);
    QCOMPARE(find(before, u"p-2"_s)->verdict.ladder, LadderLabel::Correct);
    // It says which places it scored again (those of p-2, ascending); a full pass says nothing of the kind.
    QVERIFY(partial.rescoredPlaces.has_value());
    std::vector<std::size_t> p2Places;
    for (std::size_t i = 0; i < before.records.size(); ++i) {
        if (before.records[i].caseId == u"p-2"_s)
            p2Places.push_back(i);
    }
    QVERIFY(!p2Places.empty());
    QCOMPARE(*partial.rescoredPlaces, p2Places);
    QVERIFY(!full.rescoredPlaces.has_value());
    // Where each case's records lie comes with it, for the next edit; given, it is used (a second edit of the
    // same case, back to what it was, gives the first set's verdicts), and the same places come out again.
    QVERIFY(partial.casePlaces);
    QCOMPARE(partial.casePlaces->size(), partial.records.size());
    const auto p2 = partial.casePlaces->of(m_caseRows.value(u"p-2"_s));
    QCOMPARE(std::vector<std::size_t>(p2.begin(), p2.end()), p2Places);
    const GoldEditResult undo = m_store->addGoldRevision(
        m_caseRows.value(u"p-2"_s), current->gold, u"tester"_s, u"back"_s, edit.added.revision);
    QVERIFY(undo.ok());
    const Evaluation back
        = reevaluateCases(*m_store, partial.records, { m_caseRows.value(u"p-2"_s) }, options, partial.casePlaces);
    QVERIFY2(back.ok(), qPrintable(back.error));
    QCOMPARE(back.casePlaces, partial.casePlaces);
    QCOMPARE(*back.rescoredPlaces, p2Places);
    for (std::size_t i = 0; i < before.records.size(); ++i)
        QCOMPARE(back.records[i].verdict.ladder, before.records[i].verdict.ladder);
    const Evaluation fullNow = evaluateStore(*m_store, options);

    // Responses added meanwhile (a new run answering p-2): the slots no longer match, so it is a full pass.
    QVERIFY(startRun(u"sim:other"_s));
    QVERIFY(m_store->appendResponses(
        { response(u"p-2"_s, 0, QString::fromStdString(current->gold.dump()), {}, 0.001) })); // the gold again
    const Evaluation stale = reevaluateCases(*m_store, fullNow.records, { m_caseRows.value(u"p-2"_s) }, options);
    QVERIFY2(stale.ok(), qPrintable(stale.error));
    QCOMPARE(stale.records.size(), fullNow.records.size() + 1);
    QCOMPARE(stale.records.back().verdict.ladder, LadderLabel::Correct);
    QCOMPARE(stale.reused, qint64(fullNow.records.size())); // the full pass still took over the unchanged verdicts
    QVERIFY(!stale.rescoredPlaces.has_value());
}

void TestEvaluation::contentStampFollowsWhatReportsReadAndTheSavedReportWithIt()
{
    const auto stamp = [this] {
        const auto s = m_store->contentStamp();
        return s ? s.value() : QString();
    };
    const QString before = stamp();
    QVERIFY(!before.isEmpty());
    QCOMPARE(stamp(), before); // reading changes nothing

    // A saved report comes back bit for bit (NaN and infinities too) while the stamp holds.
    EvaluationOptions options;
    options.gold = GoldBasis::Adjusted;
    const Evaluation e = evaluateStore(*m_store, options);
    AggregateOptions aggregateOptions;
    CachedReport cached { aggregate(e.records, aggregateOptions), { u"sim:test"_s } };
    cached.report.groups.front().mean["ladder.cost_per_success"] = std::numeric_limits<double>::infinity();
    cached.report.groups.front().ci95["ladder.correct"].high = std::numeric_limits<double>::quiet_NaN();
    const QString file
        = reportCacheFile(m_dir.filePath(u"e.db"_s), GoldBasis::Adjusted, aggregateOptions, m_dir.path());
    QVERIFY(!file.contains(u"e.db"_s)); // the location is hashed, not written out
    QVERIFY(file != reportCacheFile(m_dir.filePath(u"e.db"_s), GoldBasis::Measured, aggregateOptions, m_dir.path()));
    QString error;
    QVERIFY2(saveCachedReport(file, before, cached, &error), qPrintable(error));
    const auto loaded = loadCachedReport(file, before);
    QVERIFY(loaded);
    QCOMPARE(loaded->simulatedModels, cached.simulatedModels);
    QCOMPARE(loaded->report.groups.size(), cached.report.groups.size());
    for (std::size_t i = 0; i < cached.report.groups.size(); ++i) {
        const ReportGroup& a = cached.report.groups[i];
        const ReportGroup& b = loaded->report.groups[i];
        QCOMPARE(b.key, a.key);
        QCOMPARE(b.n, a.n);
        QCOMPARE(b.errored, a.errored);
        QCOMPARE(b.mean.size(), a.mean.size());
        const auto same = [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; };
        for (const auto& [id, value] : a.mean)
            QVERIFY2(same(value, b.mean.at(id)), id.c_str());
        for (const auto& [id, interval] : a.ci95) {
            QVERIFY2(same(interval.low, b.ci95.at(id).low), id.c_str());
            QVERIFY2(same(interval.high, b.ci95.at(id).high), id.c_str());
        }
        QCOMPARE(b.weightedMean, a.weightedMean);
    }
    QCOMPARE(loaded->report.metrics, cached.report.metrics);
    QCOMPARE(loaded->report.groupBy, cached.report.groupBy);
    // p-3's timed-out slot is no answer: its group shows it errored, and so does the saved report.
    QVERIFY(std::any_of(
        cached.report.groups.begin(), cached.report.groups.end(), [](const ReportGroup& g) { return g.errored > 0; }));
    {
        // A report saved in the format before errored slots (n counted them as answers) is a miss.
        QFile saved(file);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QByteArray text = saved.readAll();
        saved.close();
        QVERIFY(text.contains("\"version\":2"));
        text.replace("\"version\":2", "\"version\":1");
        const QString older = m_dir.filePath(u"older-report.json"_s);
        QFile out(older);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text);
        out.close();
        QVERIFY(!loadCachedReport(older, before));
    }

    // A gold edit, a new run and a new response each change the stamp, and the saved report is then a miss.
    const auto current = m_store->currentGold(m_caseRows.value(u"p-1"_s));
    QVERIFY(current);
    QVERIFY(m_store
                ->addGoldRevision(
                    m_caseRows.value(u"p-1"_s), current->gold, u"tester"_s, u"same again"_s, current->revision)
                .ok());
    const QString afterEdit = stamp();
    QVERIFY(afterEdit != before);
    QVERIFY(ResultStore::stampsDifferOnlyInGold(before, afterEdit));
    QVERIFY(!loadCachedReport(file, afterEdit));
    QVERIFY(startRun(u"sim:stamp"_s));
    const QString afterRun = stamp();
    QVERIFY(afterRun != afterEdit);
    QVERIFY(!ResultStore::stampsDifferOnlyInGold(afterEdit, afterRun));
    QVERIFY(m_store->appendResponses({ response(u"p-1"_s, 0, uR"({"name": "Ann"})"_s, {}, 0.0) }));
    const QString afterResponse = stamp();
    QVERIFY(afterResponse != afterRun);
    QVERIFY(!ResultStore::stampsDifferOnlyInGold(afterRun, afterResponse));
    QVERIFY(!ResultStore::stampsDifferOnlyInGold(before, afterResponse));
    QVERIFY(ResultStore::stampsDifferOnlyInGold(afterResponse, afterResponse));
    // A run's status is no input of a report.
    QVERIFY(m_store->finishRun(m_runId));
    QCOMPARE(stamp(), afterResponse);

    // A damaged or foreign file is a miss, not an error.
    QFile damaged(file);
    QVERIFY(damaged.open(QIODevice::WriteOnly));
    damaged.write("{\"format\": \"structscope-report-cache\", \"version\": 1, \"stamp\": \"");
    damaged.write(afterResponse.toUtf8());
    damaged.write("\", \"gold\": 3}");
    damaged.close();
    QVERIFY(!loadCachedReport(file, afterResponse));
    QVERIFY(damaged.open(QIODevice::WriteOnly));
    damaged.write("not json");
    damaged.close();
    QVERIFY(!loadCachedReport(file, afterResponse));
    QVERIFY(!loadCachedReport(m_dir.filePath(u"none.json"_s), afterResponse));

    // The folder keeps the most recently saved kSavedReportsKept reports.
    QTemporaryDir folder;
    for (qsizetype i = 0; i < kSavedReportsKept + 5; ++i) {
        AggregateOptions other;
        other.bootstrap.resamples = int(10 + i);
        QVERIFY(saveCachedReport(reportCacheFile(u"x"_s, GoldBasis::Measured, other, folder.path()), before, cached));
    }
    QCOMPARE(QDir(folder.path()).entryList({ u"*.json"_s }, QDir::Files).size(), kSavedReportsKept);
}

void TestEvaluation::responsesStoredWhileScoringAreScoredToo()
{
    // Each run is scored while the next one is read. Responses stored meanwhile (by a running run, say) go past
    // the records reserved for the responses counted at the start: they are read and scored too, and every
    // verdict is the one a pass afterwards gives, in the same place.
    const SuiteLoadResult loaded = loadSuiteDir(QStringLiteral(STRUCTSCOPE_TEST_DATA) + u"/import/suite"_s);
    QVERIFY(loaded.ok());
    const QString path = m_dir.filePath(u"growing.db"_s);
    auto store = ResultStore::open(path);
    QVERIFY(store);
    const auto imported = store->importSuite(makeSuiteImport(*loaded.suite));
    QVERIFY(imported);
    const QList<CaseRow> cases = store->cases(imported->suite.row).value();
    QCOMPARE(cases.size(), 3);
    QList<qint64> runIds;
    for (int i = 0; i < 4; ++i) {
        RunRow run;
        run.suiteRow = imported->suite.row;
        run.modelSpec = u"sim:model-%1"_s.arg(i);
        run.providerKind = u"sim"_s;
        run.strategy = u"J"_s;
        runIds << store->createRun(run).value().id;
    }
    const auto answers = [&cases](qint64 runId, int repeats) {
        QList<ResponseRow> out;
        for (int repeat = 0; repeat < repeats; ++repeat) {
            for (const CaseRow& c : cases) {
                ResponseRow r;
                r.runId = runId;
                r.caseRow = c.row;
                r.repeat = repeat;
                r.requestHash = u"%1-%2-%3"_s.arg(runId).arg(c.row).arg(repeat);
                r.rawText = repeat % 2 ? uR"({"name": "Ann", "age": 41})"_s : uR"(```json {"name": "Bo"}```)"_s;
                r.httpStatus = 200;
                out << r;
            }
        }
        return out;
    };
    // Three runs answered; the last one answers only while the first is scored.
    for (int i = 0; i < 3; ++i)
        QVERIFY(store->appendResponses(answers(runIds.at(i), 2)));
    std::atomic_int calls = 0;
    QString added;
    EvaluationOptions options;
    options.progress = [&](qint64, qint64) {
        if (calls++ > 0)
            return true;
        // The thread scoring the first run; the store's own connection is reading the second one.
        StoreError error;
        auto writer = ResultStore::open(path, {}, &error);
        const auto stored
            = writer ? writer->appendResponses(answers(runIds.at(3), 3)) : StoreResult<QList<qint64>>(error);
        added = stored ? u"ok"_s : stored.errorMessage();
        return true;
    };
    const Evaluation e = evaluateStore(*store, options);
    QVERIFY2(e.ok(), qPrintable(e.error));
    QCOMPARE(added, u"ok"_s);
    QCOMPARE(e.records.size(), std::size_t(3 * 2 * 3 + 3 * 3));
    const Evaluation after = evaluateStore(*store);
    QVERIFY2(after.ok(), qPrintable(after.error));
    QCOMPARE(after.records.size(), e.records.size());
    for (std::size_t i = 0; i < e.records.size(); ++i) {
        const ScoredRecord& a = e.records[i];
        const ScoredRecord& b = after.records[i];
        QCOMPARE(a.responseId, b.responseId);
        QCOMPARE(a.model, b.model);
        QVERIFY2(sameVerdict(a.verdict, b.verdict), qPrintable(u"response %1"_s.arg(a.responseId)));
    }
    // The added run's answers are scored as such: its repeat 1 answers are correct for p-1.
    const auto late = std::find_if(e.records.cbegin(), e.records.cend(),
        [](const ScoredRecord& r) { return r.model == u"sim:model-3"_s && r.caseId == u"p-1"_s && r.repeat == 1; });
    QVERIFY(late != e.records.cend());
    QCOMPARE(late->verdict.ladder, LadderLabel::Correct);
}

void TestEvaluation::identicalAnswersAreScoredOnce()
{
    // The same text answering the same case is scored once per pass and copied; the same text answering
    // another case, or a record a retry takes over, is not.
    const SuiteLoadResult loaded = loadSuiteDir(QStringLiteral(STRUCTSCOPE_TEST_DATA) + u"/import/suite"_s);
    QVERIFY(loaded.ok());
    auto store = ResultStore::open(m_dir.filePath(u"identical.db"_s));
    QVERIFY(store);
    const auto imported = store->importSuite(makeSuiteImport(*loaded.suite));
    QVERIFY(imported);
    QHash<QString, qint64> rows;
    const QList<CaseRow> cases = store->cases(imported->suite.row).value();
    for (const CaseRow& c : cases)
        rows.insert(c.id, c.row);
    const auto newRun = [&](const QString& model, std::optional<qint64> retryOf = std::nullopt) {
        RunRow run;
        run.suiteRow = imported->suite.row;
        run.modelSpec = model;
        run.providerKind = u"sim"_s;
        run.strategy = u"J"_s;
        if (retryOf)
            run.settings = { { "retry_of", *retryOf } };
        return store->createRun(run).value().id;
    };
    const auto answer
        = [&](qint64 runId, const QString& caseId, const QString& text, const QString& error = {}, int repeat = 0) {
              ResponseRow r;
              r.runId = runId;
              r.caseRow = rows.value(caseId);
              r.repeat = repeat;
              r.requestHash = u"%1-%2-%3"_s.arg(runId).arg(caseId).arg(repeat);
              r.rawText = text;
              r.errorKind = error;
              r.httpStatus = error.isEmpty() ? 200 : 0;
              return r;
          };
    const QString bo = uR"({"name": "Bo"})"_s;
    // A retried family first: its timeout on p-1 is taken over by the retry's correct answer.
    const qint64 root = newRun(u"sim:retried"_s);
    QVERIFY(store->appendResponses({ answer(root, u"p-1"_s, {}, u"timeout"_s) }));
    const qint64 retry = newRun(u"sim:retried"_s, root);
    QVERIFY(store->appendResponses({ answer(retry, u"p-1"_s, uR"({"name": "Ann", "age": 41})"_s) }));
    // Then three runs of their own (each scored after the one before): the same text to p-2 (correct) and to
    // p-1 (wrong), and on p-1 the timeout whose record the retried family's retry took over.
    for (int i = 0; i < 3; ++i) {
        const qint64 run = newRun(u"sim:model-%1"_s.arg(i));
        QVERIFY(store->appendResponses(
            { answer(run, u"p-2"_s, bo), answer(run, u"p-1"_s, bo), answer(run, u"p-1"_s, {}, u"timeout"_s, 1) }));
    }
    const Evaluation e = evaluateStore(*store);
    QVERIFY2(e.ok(), qPrintable(e.error));
    QCOMPARE(e.records.size(), std::size_t(1 + 3 * 3));
    // Runs one after the other: the second and third runs copy all three of the first run's verdicts.
    QCOMPARE(e.identical, qint64(6));
    for (const ScoredRecord& r : e.records) {
        if (r.model == u"sim:retried"_s) {
            QCOMPARE(r.verdict.ladder, LadderLabel::Correct);
            continue;
        }
        if (r.caseId == u"p-2"_s)
            QCOMPARE(r.verdict.ladder, LadderLabel::Correct);
        else if (r.repeat == 0)
            QVERIFY(r.verdict.ladder != LadderLabel::Correct && r.verdict.ladder != LadderLabel::InvalidJson);
        else
            QCOMPARE(r.verdict.ladder, LadderLabel::InvalidJson);
    }
    // Each copy is the verdict the first run's answer was scored to (a memo miss: nothing before it answered
    // so), all of it — not only the labels checked above.
    QHash<std::pair<qint64, int>, const ScoredRecord*> scored; // (case row, repeat) → sim:model-0's record
    for (const ScoredRecord& r : e.records) {
        if (r.model == u"sim:model-0"_s)
            scored.insert({ r.caseRow, r.repeat }, &r);
    }
    QCOMPARE(scored.size(), 3);
    for (const ScoredRecord& r : e.records) {
        if (r.model == u"sim:model-1"_s || r.model == u"sim:model-2"_s) {
            const ScoredRecord* first = scored.value({ r.caseRow, r.repeat });
            QVERIFY(first);
            QVERIFY2(sameVerdict(r.verdict, first->verdict), qPrintable(u"response %1"_s.arg(r.responseId)));
        }
    }

    // A gold edit of p-1 scores its answers again — the slot the retry took over and the identical answers
    // among them, all at once — and gives what a full pass gives.
    EvaluationOptions adjusted;
    adjusted.gold = GoldBasis::Adjusted;
    const Evaluation before = evaluateStore(*store, adjusted);
    const auto current = store->currentGold(rows.value(u"p-1"_s));
    QVERIFY(before.ok() && current);
    QVERIFY(store
                ->addGoldRevision(rows.value(u"p-1"_s), nlohmann::json { { "name", "Bo" } }, u"tester"_s,
                    u"the text says Bo"_s, current->revision)
                .ok());
    const Evaluation partial = reevaluateCases(*store, before.records, { rows.value(u"p-1"_s) }, adjusted);
    const Evaluation full = evaluateStore(*store, adjusted);
    QVERIFY2(partial.ok() && full.ok(), qPrintable(partial.error + full.error));
    QVERIFY(partial.rescoredPlaces.has_value());
    QCOMPARE(partial.rescoredPlaces->size(), std::size_t(1 + 3 * 2));
    QCOMPARE(partial.records.size(), full.records.size());
    for (std::size_t i = 0; i < full.records.size(); ++i) {
        QCOMPARE(partial.records[i].responseId, full.records[i].responseId);
        QVERIFY2(sameVerdict(partial.records[i].verdict, full.records[i].verdict), qPrintable(u"record %1"_s.arg(i)));
    }
    for (const ScoredRecord& r : partial.records) {
        if (r.caseId != u"p-1"_s)
            continue;
        const LadderLabel expected = r.repeat == 1 ? LadderLabel::InvalidJson
            : r.model == u"sim:retried"_s          ? LadderLabel::HallucinatedOnMissing // an age the gold lacks
                                                   : LadderLabel::Correct; // Bo: now right
        QCOMPARE(r.verdict.ladder, expected);
    }
}

void TestEvaluation::keptVerdictsAreReadInsteadOfScored()
{
    // A store of its own: the answers of m_store's retried family (p-1's slot taken over by the retry run, p-2's
    // kept by the first run) and a second run.
    const QString path = m_dir.filePath(u"kept.db"_s);
    makeImportStore(path, [this] {
        QVERIFY(startRun(u"sim:first"_s));
        const qint64 first = m_runId;
        QVERIFY(m_store->appendResponses(
            { response(u"p-1"_s, 0, {}, u"timeout"_s, 0.001), response(u"p-2"_s, 0, uR"({"name": "Bo"})"_s, {}, 0.002),
                response(u"p-3"_s, 0, uR"({"name": "Cy"})"_s, {}, 0.002) }));
        RunRow retry = m_store->run(first).value();
        retry.settings = { { "retry_of", first } };
        m_runId = m_store->createRun(retry)->id;
        QVERIFY(m_store->appendResponses({ response(u"p-1"_s, 0, uR"({"name": "Ann", "age": 41})"_s, {}, 0.002) }));
        QVERIFY(startRun(u"sim:second"_s));
        QVERIFY(m_store->appendResponses({ response(u"p-1"_s, 0, uR"({"name": "Ann"})"_s, {}, 0.001),
            response(u"p-2"_s, 0, uR"({"name": "Bo"})"_s, {}, 0.001) }));
    });
    if (QTest::currentTestFailed())
        return;
    auto store = ResultStore::open(path);
    QVERIFY(store);
    QVERIFY(store->keepsVerdicts());
    const auto same = [](const Evaluation& a, const Evaluation& b) {
        if (a.records.size() != b.records.size())
            return false;
        for (std::size_t i = 0; i < a.records.size(); ++i) {
            const ScoredRecord& x = a.records[i];
            const ScoredRecord& y = b.records[i];
            if (x.caseId != y.caseId || x.runId != y.runId || x.responseId != y.responseId
                || x.goldRevisionRow != y.goldRevisionRow || x.cost != y.cost || x.latencyMs != y.latencyMs
                || encodeVerdict(x.verdict) != encodeVerdict(y.verdict)) {
                qWarning() << "record" << i << "differs:" << x.caseId << y.caseId << x.runId << y.runId << x.responseId
                           << y.responseId << x.goldRevisionRow << y.goldRevisionRow
                           << "verdicts equal:" << (encodeVerdict(x.verdict) == encodeVerdict(y.verdict));
                return false;
            }
        }
        return true;
    };

    // Nothing kept yet: everything is scored and said to be unkept, each under its response's own run.
    const Evaluation scored = evaluateStore(*store);
    QVERIFY2(scored.ok(), qPrintable(scored.error));
    QCOMPARE(scored.records.size(), std::size_t(5));
    QCOMPARE(scored.stored, 0);
    QCOMPARE(scored.unkept.size(), scored.records.size());
    const ScoredRecord* p1 = find(scored, u"p-1"_s);
    QCOMPARE(p1->verdict.ladder, LadderLabel::Correct); // the retry's answer
    const auto p1Unkept = std::find_if(scored.unkept.begin(), scored.unkept.end(),
        [&](const UnkeptVerdict& u) { return &scored.records[u.place] == p1; });
    QVERIFY(p1Unkept != scored.unkept.end());
    QVERIFY(p1Unkept->runId != p1->runId); // the retry run, not the family's first
    const auto kept = keepVerdicts(*store, scored.records, scored.unkept);
    QVERIFY2(kept, qPrintable(kept.errorMessage()));
    QCOMPARE(kept.value(), 5);
    QCOMPARE(store->storedVerdictCount().value(), 5);
    QCOMPARE(keepVerdicts(*store, scored.records, scored.unkept).value(), 5); // kept already: nothing doubles
    QCOMPARE(store->storedVerdictCount().value(), 5);

    // Read back: the same records, verdicts byte for byte, nothing left to keep.
    const Evaluation read = evaluateStore(*store);
    QVERIFY2(read.ok(), qPrintable(read.error));
    QCOMPARE(read.stored, 5);
    QVERIFY(read.unkept.empty());
    QVERIFY(same(read, scored));

    // The answers are not read at all: one changed behind the store's back (no writer does that) leaves the
    // kept verdicts' pass as it was, while a pass from the answers sees it.
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"tamper"_s);
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY2(q.exec(u"UPDATE responses SET raw_text = 'not json' WHERE raw_text LIKE '%Cy%'"_s),
            qPrintable(q.lastError().text()));
        QCOMPARE(q.numRowsAffected(), 1);
    }
    QSqlDatabase::removeDatabase(u"tamper"_s);
    EvaluationOptions fromAnswers;
    fromAnswers.useStoredVerdicts = false;
    const Evaluation rescored = evaluateStore(*store, fromAnswers);
    QCOMPARE(find(rescored, u"p-3"_s)->verdict.ladder, LadderLabel::InvalidJson);
    QCOMPARE(rescored.unkept.size(), std::size_t(5));
    const Evaluation again = evaluateStore(*store);
    QVERIFY(find(read, u"p-3"_s)->verdict.ladder != LadderLabel::InvalidJson);
    QCOMPARE(find(again, u"p-3"_s)->verdict.ladder, find(read, u"p-3"_s)->verdict.ladder);
    QVERIFY(same(again, read));
    // A read-only opening of the store reads them too.
    {
        ResultStore::OpenOptions readOnly;
        readOnly.readOnly = true;
        auto reader = ResultStore::open(path, readOnly);
        QVERIFY(reader);
        QVERIFY(reader->keepsVerdicts());
        const Evaluation viaReader = evaluateStore(*reader);
        QCOMPARE(viaReader.stored, 5);
        QVERIFY(same(viaReader, read));
        QVERIFY(!keepVerdicts(*reader, rescored.records, rescored.unkept)); // read-only: refused
    }

    // A damaged kept verdict: the whole pass is made again from the answers, and says so.
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"damage"_s);
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(u"UPDATE scored_verdicts SET verdict = X'01FFFF' WHERE response_id = "
                       "(SELECT min(response_id) FROM scored_verdicts)"_s));
        QCOMPARE(q.numRowsAffected(), 1);
    }
    QSqlDatabase::removeDatabase(u"damage"_s);
    const Evaluation damaged = evaluateStore(*store);
    QVERIFY2(damaged.ok(), qPrintable(damaged.error));
    QVERIFY(damaged.storedDamaged);
    QCOMPARE(damaged.stored, 0);
    QVERIFY(same(damaged, rescored));

    // Measured against edited gold: only the edited case's answers are scored, the rest read.
    EvaluationOptions adjusted;
    adjusted.gold = GoldBasis::Adjusted;
    adjusted.useStoredVerdicts = false;
    const Evaluation before = evaluateStore(*store, adjusted);
    // What is kept now was scored before the answer changed: dropped (no version is kScorerVersion + 1).
    QCOMPARE(store->dropStoredVerdictsExcept(kScorerVersion + 1).value(), 5);
    QCOMPARE(keepVerdicts(*store, before.records, before.unkept).value(), 5);
    const qint64 p2Case = find(before, u"p-2"_s)->caseRow;
    const GoldEditResult edit
        = store->addGoldRevision(p2Case, nlohmann::json { { "name", "Bob" } }, u"tester"_s, u"the text says Bob"_s, 0);
    QVERIFY(edit.ok());
    adjusted.useStoredVerdicts = true;
    const Evaluation after = evaluateStore(*store, adjusted);
    QCOMPARE(after.stored, 3);
    QCOMPARE(after.unkept.size(), std::size_t(2));
    adjusted.useStoredVerdicts = false;
    QVERIFY(same(after, evaluateStore(*store, adjusted)));
    QCOMPARE(find(after, u"p-2"_s)->verdict.ladder, LadderLabel::ValueIncorrect);
    // The edit's partial pass names the places it scored as unkept.
    const Evaluation partial = reevaluateCases(*store, before.records, { p2Case }, adjusted);
    QVERIFY(partial.rescoredPlaces.has_value());
    std::vector<std::size_t> unkeptPlaces;
    for (const UnkeptVerdict& u : partial.unkept)
        unkeptPlaces.push_back(u.place);
    QCOMPARE(unkeptPlaces, *partial.rescoredPlaces);
    QVERIFY(same(partial, after));
}

void TestEvaluation::goldIsParsedOnlyForAnswersScored()
{
    // Gold is parsed (and schemas compiled) by the jobs that score: a pass that reads every verdict from the store
    // needs none of it, and a gold that does not parse is an error only where an answer is scored against it.
    const QString path = m_dir.filePath(u"lazy-gold.db"_s);
    makeImportStore(path, [this] {
        QVERIFY(startRun(u"sim:lazy"_s));
        QVERIFY(m_store->appendResponses({ response(u"p-1"_s, 0, uR"({"name": "Ann"})"_s, {}, 0.001),
            response(u"p-2"_s, 0, uR"({"name": "Bo"})"_s, {}, 0.002) }));
    });
    if (QTest::currentTestFailed())
        return;
    auto store = ResultStore::open(path);
    QVERIFY(store);
    const Evaluation scored = evaluateStore(*store);
    QVERIFY2(scored.ok(), qPrintable(scored.error));
    QCOMPARE(scored.records.size(), std::size_t(2));
    QVERIFY(keepVerdicts(*store, scored.records, scored.unkept));
    const qint64 damagedRow = find(scored, u"p-2"_s)->goldRevisionRow;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"damage-gold"_s);
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.prepare(u"UPDATE gold_revisions SET gold = '{\"name\": ' WHERE id = ?"_s));
        q.addBindValue(damagedRow);
        QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
        QCOMPARE(q.numRowsAffected(), 1);
    }
    QSqlDatabase::removeDatabase(u"damage-gold"_s);
    const Evaluation read = evaluateStore(*store);
    QVERIFY2(read.ok(), qPrintable(read.error));
    QCOMPARE(read.stored, 2);
    QCOMPARE(encodeVerdict(find(read, u"p-2"_s)->verdict), encodeVerdict(find(scored, u"p-2"_s)->verdict));
    EvaluationOptions fromAnswers;
    fromAnswers.useStoredVerdicts = false;
    const Evaluation rescored = evaluateStore(*store, fromAnswers);
    QVERIFY(!rescored.ok());
    QVERIFY2(rescored.error.contains(u"gold_revisions row %1: column gold does not hold JSON"_s.arg(damagedRow)),
        qPrintable(rescored.error));
}

void TestEvaluation::scoreAndKeepCoversBothGoldBases()
{
    // What `run` and `import` do before they end: every answer scored once and kept, on the gold as measured and,
    // where some gold was edited, as adjusted; then both passes read every verdict and score nothing.
    // One run of three answers: two to score, one that failed.
    const auto threeAnswers = [this] {
        QVERIFY(startRun(u"sim:keep"_s));
        QVERIFY(m_store->appendResponses({ response(u"p-1"_s, 0, uR"({"name": "Ann"})"_s, {}, 0.001),
            response(u"p-2"_s, 0, uR"({"name": "Bo"})"_s, {}, 0.002),
            response(u"p-3"_s, 0, {}, u"timeout"_s, 0.001) }));
    };
    const QString path = m_dir.filePath(u"keep-all.db"_s);
    makeImportStore(path, threeAnswers);
    if (QTest::currentTestFailed())
        return;
    auto store = ResultStore::open(path);
    QVERIFY(store);
    QCOMPARE(store->hasEditedGold().value(), false);
    KeptVerdictsSummary summary = scoreAndKeepVerdicts(*store);
    QVERIFY2(summary.ok(), qPrintable(summary.error));
    QCOMPARE(summary.answers, 3); // one basis: without edits the adjusted gold is the measured one
    QCOMPARE(summary.kept, 3);
    QCOMPARE(summary.alreadyKept, 0);
    QCOMPARE(store->storedVerdictCount().value(), 3);

    // Gold edited: the measured verdicts are kept already, the adjusted one of the edited case is not.
    const Evaluation first = evaluateStore(*store);
    QCOMPARE(first.stored, 3);
    const GoldEditResult edit = store->addGoldRevision(
        find(first, u"p-2"_s)->caseRow, nlohmann::json { { "name", "Bob" } }, u"tester"_s, u"typo"_s, 0);
    QVERIFY(edit.ok());
    QCOMPARE(store->hasEditedGold().value(), true);
    {
        // The run's three kept verdicts (all on the measured gold) make the adjusted pass read its rows without
        // their answers (fewTexts); p-2's answer, whose adjusted verdict is not kept, is looked up by its id.
        EvaluationOptions adjusted;
        adjusted.gold = GoldBasis::Adjusted;
        const Evaluation mixed = evaluateStore(*store, adjusted);
        QVERIFY2(mixed.ok(), qPrintable(mixed.error));
        QCOMPARE(mixed.stored, 2);
        QCOMPARE(mixed.unkept.size(), std::size_t(1));
        QCOMPARE(find(mixed, u"p-2"_s)->verdict.ladder, LadderLabel::ValueIncorrect);
        adjusted.useStoredVerdicts = false;
        const Evaluation fromAnswers = evaluateStore(*store, adjusted);
        QVERIFY2(fromAnswers.ok(), qPrintable(fromAnswers.error));
        QCOMPARE(encodeVerdict(find(mixed, u"p-2"_s)->verdict), encodeVerdict(find(fromAnswers, u"p-2"_s)->verdict));
    }
    summary = scoreAndKeepVerdicts(*store);
    QVERIFY2(summary.ok(), qPrintable(summary.error));
    QCOMPARE(summary.answers, 6);
    QCOMPARE(summary.alreadyKept, 5);
    QCOMPARE(summary.kept, 1);
    QCOMPARE(store->storedVerdictCount().value(), 4);

    for (const GoldBasis basis : { GoldBasis::Measured, GoldBasis::Adjusted }) {
        EvaluationOptions options;
        options.gold = basis;
        const Evaluation read = evaluateStore(*store, options);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.stored, 3);
        QVERIFY(read.unkept.empty());
        options.useStoredVerdicts = false;
        const Evaluation scored = evaluateStore(*store, options);
        QVERIFY2(scored.ok(), qPrintable(scored.error));
        QCOMPARE(scored.records.size(), read.records.size());
        for (std::size_t i = 0; i < read.records.size(); ++i)
            QCOMPARE(encodeVerdict(read.records[i].verdict), encodeVerdict(scored.records[i].verdict));
        QCOMPARE(find(read, u"p-2"_s)->verdict.ladder,
            basis == GoldBasis::Measured ? LadderLabel::Correct : LadderLabel::ValueIncorrect);
    }

    // A store whose gold was edited before anything was kept: the adjusted pass reads back what the measured pass
    // of the same call kept (the cases not edited), which does not count as kept before.
    const QString editedFirst = m_dir.filePath(u"keep-edited-first.db"_s);
    makeImportStore(editedFirst, threeAnswers);
    if (QTest::currentTestFailed())
        return;
    {
        auto edited = ResultStore::open(editedFirst);
        QVERIFY(edited);
        const Evaluation before = evaluateStore(*edited);
        QVERIFY(edited
                    ->addGoldRevision(find(before, u"p-2"_s)->caseRow, nlohmann::json { { "name", "Bob" } },
                        u"tester"_s, u"typo"_s, 0)
                    .ok());
        const KeptVerdictsSummary both = scoreAndKeepVerdicts(*edited);
        QVERIFY2(both.ok(), qPrintable(both.error));
        QCOMPARE(both.answers, 6);
        QCOMPARE(both.kept, 4);
        QCOMPARE(both.alreadyKept, 0);
        const KeptVerdictsSummary again = scoreAndKeepVerdicts(*edited);
        QCOMPARE(again.kept, 0);
        QCOMPARE(again.alreadyKept, 6);
    }

    // Nothing left: a third call keeps nothing; cancelled before it starts, it says so and keeps nothing.
    summary = scoreAndKeepVerdicts(*store);
    QVERIFY2(summary.ok(), qPrintable(summary.error));
    QCOMPARE(summary.kept, 0);
    QCOMPARE(summary.alreadyKept, 6);
    const std::atomic_bool stop = true;
    EvaluationOptions cancelled;
    cancelled.cancel = &stop;
    summary = scoreAndKeepVerdicts(*store, cancelled);
    QVERIFY(summary.cancelled);
    QVERIFY(!summary.ok());
    QCOMPARE(summary.kept, 0);
}

void TestEvaluation::cancelWhileTheNextRunIsReadStops()
{
    // Cancelled from the scoring of the first run while the second is read: the pass ends as cancelled.
    std::atomic_int calls = 0;
    EvaluationOptions options;
    options.progress = [&calls](qint64, qint64) { return calls++ > 0; };
    const Evaluation e = evaluateStore(*m_store, options);
    QVERIFY(e.cancelled);
    QVERIFY(e.records.empty());
    QCOMPARE(calls.load(), 1);
}

void TestEvaluation::cancelStopsWithoutRecords()
{
    std::atomic_bool cancel = true;
    EvaluationOptions options;
    options.cancel = &cancel;
    const Evaluation e = evaluateStore(*m_store, options);
    QVERIFY(e.cancelled);
    QVERIFY(e.records.empty());
}

QTEST_GUILESS_MAIN(TestEvaluation)
#include "tst_evaluation.moc"
