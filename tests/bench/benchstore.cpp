// SPDX-License-Identifier: Apache-2.0
// A store at scale: 1,000,000 responses (--records N) from 20 models × 5 strategies × 2,000 cases × 5 repeats,
// the answers of the simulated profiles (realistic sizes and faults) to the built-in email-extraction cases,
// replicated to 2,000. The store is generated once and kept in $TMPDIR (generation is timed apart); then the
// paths a user waits on are timed through the same core calls the GUI makes: open and score everything to a
// leaderboard, re-score after a scorer change, a gold edit, a new metric's leaderboard and heatmap, and the
// process's peak memory.
#include "bench.h"

#include "providers/strategy.h"
#include "report/aggregator.h"
#include "report/evaluation.h"
#include "report/fieldreport.h"
#include "report/reportcache.h"
#include "report/reportwriter.h"
#include "sim/simprofile.h"
#include "sim/simulator.h"
#include "store/resultstore.h"
#include "store/suiteimport.h"
#include "suite/suiteloader.h"
#include "suite/suitelocator.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <optional>

#include <sys/resource.h>

using nlohmann::json;
using namespace Qt::StringLiterals;

namespace structscope::bench {

namespace {

constexpr int kModels = 20;
constexpr int kRepeats = 5;

double seconds(const QElapsedTimer& timer)
{
    return double(timer.nsecsElapsed()) / 1e9;
}

/// The email-extraction suite with its cases replicated (ids suffixed "~k") to `cases`.
SuitePtr scaledSuite(int cases, QString* error)
{
    const SuiteLoadResult loaded = loadSuiteDir(resolveSuitePath(u"email-extraction"_s, error));
    if (!loaded.ok()) {
        if (error->isEmpty())
            *error = u"cannot load the built-in email-extraction suite"_s;
        return nullptr;
    }
    auto suite = std::make_shared<Suite>(*loaded.suite);
    const QList<SuiteCase> originals = suite->cases;
    suite->cases.clear();
    for (int i = 0; i < cases; ++i) {
        SuiteCase c = originals.at(i % originals.size());
        c.id += u"~%1"_s.arg(i / originals.size());
        suite->cases.append(c);
    }
    suite->id = u"email-extraction-x%1"_s.arg(cases);
    suite->contentHash = QCryptographicHash::hash(
        QByteArray(loaded.suite->contentHash + QByteArray::number(cases)), QCryptographicHash::Sha256)
                             .toHex();
    return suite;
}

bool generate(const QString& path, const Suite& suite, QString* error)
{
    auto store = ResultStore::open(path, error);
    if (!store)
        return false;
    const auto imported = store->importSuite(makeSuiteImport(suite));
    if (!imported) {
        *error = imported.errorMessage();
        return false;
    }
    const auto rows = store->caseRows(imported->suite.row);
    if (!rows) {
        *error = rows.errorMessage();
        return false;
    }
    const QList<SimProfile>& profiles = simProfiles();
    QList<ResponseRow> batch;
    for (int m = 0; m < kModels; ++m) {
        const SimProfile& profile = profiles.at(m % profiles.size());
        // Models that share a profile answer different draws of it.
        const int drawOffset = (m / int(profiles.size())) * kRepeats;
        for (const Strategy strategy : allStrategies()) {
            RunRow run;
            run.suiteRow = imported->suite.row;
            run.modelSpec = u"import:model-%1-%2"_s.arg(m, 2, 10, QLatin1Char('0')).arg(profile.name);
            run.providerKind = u"import"_s;
            run.strategy = strategyName(strategy);
            run.repeats = kRepeats;
            run.status = RunStatus::Finished;
            const auto created = store->createRun(run);
            if (!created) {
                *error = created.errorMessage();
                return false;
            }
            for (const SuiteCase& c : suite.cases) {
                for (int repeat = 0; repeat < kRepeats; ++repeat) {
                    const SimAnswer answer = simulateAnswer(profile, suite, c, strategy, repeat + drawOffset);
                    ResponseRow r;
                    r.runId = created->id;
                    r.caseRow = rows->value(c.id);
                    r.repeat = repeat;
                    r.requestHash = u"bench:%1:%2:%3"_s.arg(created->id).arg(r.caseRow).arg(repeat);
                    r.rawText = answer.text;
                    r.httpStatus = 200;
                    r.latencyMs = answer.latencyMs;
                    r.tokensIn = answer.tokensIn;
                    r.tokensOut = answer.tokensOut;
                    batch.append(std::move(r));
                }
            }
            if (const auto stored = store->appendResponses(batch); !stored) {
                *error = stored.errorMessage();
                return false;
            }
            batch.clear();
            if (const auto done = store->finishRun(created->id); !done) {
                *error = done.errorMessage();
                return false;
            }
        }
    }
    return true;
}

} // namespace

QString reportDigest(const Report& report)
{
    const std::string text = writeReportJson(report);
    return QString::fromLatin1(
        QCryptographicHash::hash(QByteArrayView(text.data(), qsizetype(text.size())), QCryptographicHash::Sha256)
            .toHex()
            .left(16));
}

double peakRssMiB()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0; // KiB on Linux
}

double quantile(std::vector<double> values, double q)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[std::min(values.size() - 1, std::size_t(q * double(values.size())))];
}

std::optional<BenchGoldEdit> benchGoldEdit(ResultStore& store, QString* error, int which, int of)
{
    const auto suiteRecords = store.suites();
    const auto caseList = suiteRecords && !suiteRecords->isEmpty()
        ? store.cases(suiteRecords->constFirst().row, CaseFields::WithoutText)
        : StoreResult<QList<CaseRow>>(StoreError { StoreErrorKind::Corrupt, u"no suite"_s });
    if (!caseList || caseList->isEmpty()) {
        *error = u"cannot read the cases: %1"_s.arg(caseList.errorMessage());
        return std::nullopt;
    }
    BenchGoldEdit edit;
    edit.caseRow
        = caseList->at(qsizetype(qint64(caseList->size()) * std::clamp(which, 0, of - 1) / std::max(1, of))).row;
    const auto current = store.currentGold(edit.caseRow);
    if (!current) {
        *error = current.errorMessage();
        return std::nullopt;
    }
    edit.original = current->gold;
    edit.revision = current->revision;
    // The first string value of the gold changes: answers that matched it no longer do, so the edit changes its
    // case's verdicts and the leaderboard. The gold is restored at the end, so every run starts from the same gold.
    edit.edited = current->gold;
    bool editedValue = false;
    for (auto it = edit.edited.begin(); it != edit.edited.end() && !editedValue; ++it) {
        if (it->is_string()) {
            *it = it->get<std::string>() + " (bench edit)";
            editedValue = true;
        }
    }
    if (!editedValue)
        edit.edited["bench_edit"] = "a key no answer has";
    return edit;
}

QString ensureBenchStore(int responses, const QTemporaryDir& scratch, QString* error, BenchStoreShape* shape)
{
    const int perModel = 5 * kRepeats; // strategies × repeats
    const int cases = std::max(1, responses / (kModels * perModel));
    const qint64 total = qint64(cases) * kModels * perModel;
    const SuitePtr suite = scaledSuite(cases, error);
    if (!suite)
        return {};
    if (shape)
        *shape = { cases, total };
    // Large stores are kept for the next run (generating a million responses takes minutes); small ones (the
    // CTest smoke run) go to a folder removed afterwards.
    const QString path = QDir(total >= 100000 ? QDir::tempPath() : scratch.path())
                             .filePath(u"structscope-bench-store-%1.db"_s.arg(total));
    if (!QFileInfo::exists(path)) {
        QElapsedTimer timer;
        timer.start();
        if (!generate(path + u".part"_s, *suite, error) || !QFile::rename(path + u".part"_s, path)) {
            *error = u"cannot generate %1: %2"_s.arg(path, *error);
            QFile::remove(path + u".part"_s);
            return {};
        }
        report("store", u"generated %1 responses into %2"_s.arg(total).arg(path), seconds(timer), "s");
    }
    return path;
}

int benchStore(const BenchArgs& args)
{
    QTemporaryDir scratch;
    QString error;
    BenchStoreShape shape;
    const QString path = ensureBenchStore(args.records > 0 ? args.records : 1000000, scratch, &error, &shape);
    if (path.isEmpty()) {
        std::fprintf(stderr, "bench store: %s\n", qPrintable(error));
        return 1;
    }
    const int cases = shape.cases;
    const qint64 total = shape.total;
    report("store",
        u"store file (%1 models x 5 strategies x %2 cases x %3 repeats)"_s.arg(kModels).arg(cases).arg(kRepeats),
        double(QFileInfo(path).size()) / 1048576.0, "MiB");

    // Opening the workspace: the store, then every response scored and the leaderboard aggregated, as the
    // GUI's scoring service does before the leaderboard is painted (no verdicts are persisted yet). The store is
    // opened as the workspace opens it: without SQLite's whole-file quick_check (the CLI's default), timed below.
    QElapsedTimer timer;
    timer.start();
    ResultStore::OpenOptions openOptions;
    openOptions.integrityCheck = false;
    StoreError openError;
    auto store = ResultStore::open(path, openOptions, &openError);
    if (!store) {
        std::fprintf(stderr, "bench store: %s\n", qPrintable(openError.message));
        return 1;
    }
    report("store", u"open the store"_s, seconds(timer) * 1000.0, "ms");
    QElapsedTimer step;
    step.start();
    const auto stamp = store->contentStamp(); // taken before reading, as the GUI's scoring does
    if (!stamp) {
        std::fprintf(stderr, "bench store: %s\n", qPrintable(stamp.errorMessage()));
        return 1;
    }
    // The adjusted gold (latest revisions), so that the gold edit below shows in the leaderboard.
    EvaluationOptions adjusted;
    adjusted.gold = GoldBasis::Adjusted;
    // Never scored: whatever an earlier run of the bench had the store keep is not read (see below for that).
    adjusted.useStoredVerdicts = false;
    Evaluation first = evaluateStore(*store, adjusted);
    if (!first.ok() || qint64(first.records.size()) != total) {
        std::fprintf(stderr, "bench store: scored %zu of %lld responses: %s\n", first.records.size(), total,
            qPrintable(first.error));
        return 1;
    }
    report("store",
        u"read + score every response (%1 copied from an identical answer to the case)"_s.arg(first.identical),
        seconds(step), "s");
    // As the GUI's scoring does after a full pass, for the gold edits to come (and within the open, as there).
    step.restart();
    const auto casePlaces = std::make_shared<const CasePlaces>(first.records);
    report("store", u"where each case's records lie (for gold edits)"_s, seconds(step) * 1000.0, "ms");
    // As a page does with a set this large: the point estimates first (painted at once), then the intervals.
    step.restart();
    AggregateOptions leaderboard;
    leaderboard.groupBy = { "model", "strategy" };
    AggregateOptions estimatesOnly = leaderboard;
    estimatesOnly.intervals = false;
    const Report estimates = aggregate(first.records, estimatesOnly);
    report("store", u"leaderboard point estimates (%1 groups)"_s.arg(estimates.groups.size()), seconds(step) * 1000.0,
        "ms");
    // The same kept with their sums (PointEstimates), as the leaderboard keeps them to follow gold edits.
    step.restart();
    // Kept as the page keeps them: they point into the records, and are made again from the set that replaces them.
    std::optional<PointEstimates> keptEstimates;
    keptEstimates.emplace(first.records, estimatesOnly);
    report("store",
        u"leaderboard point estimates kept with their sums (digest %1)"_s.arg(reportDigest(keptEstimates->report())),
        seconds(step) * 1000.0, "ms");
    if (reportDigest(keptEstimates->report()) != reportDigest(estimates)) {
        std::fprintf(stderr, "bench store: the kept point estimates differ from the aggregate's\n");
        return 1;
    }
    report("store", u"open to the leaderboard's point estimates, total"_s, seconds(timer), "s");
    step.restart();
    const Report board = aggregate(first.records, leaderboard);
    const double boardSeconds = seconds(step);
    report("store",
        u"leaderboard aggregate (model x strategy, %1 groups, digest %2)"_s.arg(board.groups.size())
            .arg(reportDigest(board)),
        boardSeconds * 1000.0, "ms");
    report("store", u"open to leaderboard with intervals, total"_s, seconds(timer), "s");
    report("store", u"  peak memory so far"_s, peakRssMiB(), "MiB");

    // The GUI saves each computed report with the stamp; opening the unchanged store again paints it at once
    // (opening the store, reading its stamp and the saved file) while scoring runs in the background.
    QTemporaryDir cacheDir;
    const QString cacheFile = reportCacheFile(path, GoldBasis::Adjusted, leaderboard, cacheDir.path());
    if (!saveCachedReport(cacheFile, stamp.value(), { board, {} }, &error)) {
        std::fprintf(stderr, "bench store: %s\n", qPrintable(error));
        return 1;
    }
    step.restart();
    {
        auto again = ResultStore::open(path, openOptions, &openError);
        const auto againStamp = again ? again->contentStamp() : StoreResult<QString>(openError);
        const auto saved = againStamp ? loadCachedReport(cacheFile, againStamp.value()) : std::nullopt;
        const double reopenMs = seconds(step) * 1000.0;
        if (!saved || reportDigest(saved->report) != reportDigest(board)) {
            std::fprintf(stderr, "bench store: the saved leaderboard did not come back\n");
            return 1;
        }
        report(
            "store", u"reopen to the saved leaderboard (digest %1)"_s.arg(reportDigest(saved->report)), reopenMs, "ms");
    }

    // A scorer change: nothing can be reused.
    step.restart();
    Evaluation rescored = evaluateStore(*store, adjusted);
    report("store", u"re-score everything (scorer change)"_s, seconds(step), "s");
    if (!rescored.ok())
        return 1;
    rescored = {};

    // The GUI's scoring service has the store keep the verdicts of a pass once its set is out (in the background);
    // a later opening then reads them instead of scoring every answer. First set free, so that peak memory is that
    // of one set, as in the GUI; the read-back set takes its place for the steps below (the same records in the
    // same places: its point estimates must have the same digest).
    step.restart();
    const auto kept = keepVerdicts(*store, first.records, first.unkept);
    if (!kept) {
        std::fprintf(stderr, "bench store: %s\n", qPrintable(kept.errorMessage()));
        return 1;
    }
    report("store",
        u"the store keeps every verdict (%1 written, in the background after a first pass)"_s.arg(kept.value()),
        seconds(step), "s");
    report("store", u"store file and its write-ahead log with the verdicts kept"_s,
        double(QFileInfo(path).size() + QFileInfo(path + u"-wal"_s).size()) / 1048576.0, "MiB");
    keptEstimates.reset();
    first = {};
    {
        timer.restart();
        auto reopened = ResultStore::open(path, openOptions, &openError);
        if (!reopened) {
            std::fprintf(stderr, "bench store: %s\n", qPrintable(openError.message));
            return 1;
        }
        step.restart();
        EvaluationOptions fromKept = adjusted;
        fromKept.useStoredVerdicts = true;
        Evaluation read = evaluateStore(*reopened, fromKept);
        if (!read.ok() || qint64(read.records.size()) != total || read.stored != total) {
            std::fprintf(stderr, "bench store: read %lld kept verdicts of %lld responses: %s\n", read.stored, total,
                qPrintable(read.error));
            return 1;
        }
        report("store", u"read every kept verdict instead of scoring (%1)"_s.arg(read.stored), seconds(step), "s");
        step.restart();
        keptEstimates.emplace(read.records, estimatesOnly);
        report("store",
            u"leaderboard point estimates kept with their sums (digest %1)"_s.arg(
                reportDigest(keptEstimates->report())),
            seconds(step) * 1000.0, "ms");
        if (reportDigest(keptEstimates->report()) != reportDigest(estimates)) {
            std::fprintf(stderr, "bench store: the point estimates of the kept verdicts differ from the scored ones\n");
            return 1;
        }
        report("store", u"open a store that keeps its verdicts to the leaderboard's point estimates, total"_s,
            seconds(timer), "s");
        report("store", u"  peak memory so far"_s, peakRssMiB(), "MiB");
        first = std::move(read); // the records stay where they are: the kept estimates still point at them
    }

    // A gold edit: one new revision, then the evaluation again reusing every other verdict, and the leaderboard.
    const std::optional<BenchGoldEdit> goldEdit = benchGoldEdit(*store, &error);
    if (!goldEdit) {
        std::fprintf(stderr, "bench store: %s\n", qPrintable(error));
        return 1;
    }
    const qint64 editedCase = goldEdit->caseRow;
    step.restart();
    const GoldEditResult edit = store->addGoldRevision(
        editedCase, goldEdit->edited, u"bench"_s, u"bench: one gold edit"_s, goldEdit->revision);
    if (!edit.ok()) {
        std::fprintf(stderr, "bench store: the gold edit failed\n");
        return 1;
    }
    const double storeEdit = seconds(step);
    // As the GUI does after a gold edit: only the edited case's responses are read and scored again.
    Evaluation afterEdit = reevaluateCases(*store, first.records, { editedCase }, adjusted, casePlaces);
    const double reevaluateSeconds = seconds(step);
    const Report estimatesAfterEdit = aggregate(afterEdit.records, estimatesOnly);
    const double estimatesSeconds = seconds(step);
    QElapsedTimer updating;
    updating.start();
    const bool updated
        = afterEdit.rescoredPlaces && keptEstimates->update(afterEdit.records, *afterEdit.rescoredPlaces);
    const double updateSeconds = seconds(updating);
    const Report boardAfterEdit = aggregate(afterEdit.records, leaderboard);
    const double editSeconds = seconds(step);
    report("store", u"gold edit: store the revision"_s, storeEdit * 1000.0, "ms");
    if (const auto newStamp = store->contentStamp(); newStamp && loadCachedReport(cacheFile, newStamp.value())) {
        std::fprintf(stderr, "bench store: the saved leaderboard survived a gold edit\n");
        return 1;
    }
    report("store", u"gold edit: its case's responses scored again, the rest shared"_s,
        (reevaluateSeconds - storeEdit) * 1000.0, "ms");
    qint64 verdictsChanged = 0;
    for (std::size_t i = 0; i < afterEdit.records.size() && i < first.records.size(); ++i) {
        const ExtractionRecord& before = first.records[i].verdict.extraction;
        const ExtractionRecord& after = afterEdit.records[i].verdict.extraction;
        verdictsChanged += before.correct != after.correct || before.strict.diff.total() != after.strict.diff.total()
            || before.strict.partialCredit != after.strict.partialCredit;
    }
    report("store",
        u"gold edit to the leaderboard's point estimates (%1 groups)"_s.arg(estimatesAfterEdit.groups.size()),
        estimatesSeconds * 1000.0, "ms");
    if (!updated || reportDigest(keptEstimates->report()) != reportDigest(estimatesAfterEdit)) {
        std::fprintf(stderr, "bench store: the kept point estimates did not follow the gold edit\n");
        return 1;
    }
    report("store",
        u"  the kept point estimates updated instead (digest %1)"_s.arg(reportDigest(keptEstimates->report())),
        updateSeconds * 1000.0, "ms");
    report("store", u"gold edit to the leaderboard's point estimates, kept ones updated"_s,
        (reevaluateSeconds + updateSeconds) * 1000.0, "ms");
    report("store",
        u"gold edit to updated leaderboard with intervals (%1 re-scored, %2 verdicts changed, digest %3)"_s
            .arg(qint64(afterEdit.records.size()) - afterEdit.reused)
            .arg(verdictsChanged)
            .arg(reportDigest(boardAfterEdit)),
        editSeconds * 1000.0, "ms");
    first = {};

    // A new metric on screen: the leaderboard and the heatmap (model x category) for one family.
    step.restart();
    AggregateOptions newMetric = leaderboard;
    newMetric.families = { "ladder" };
    const Report ladderBoard = aggregate(afterEdit.records, newMetric);
    const double ladderSeconds = seconds(step);
    report("store", u"leaderboard for a new metric family (digest %1)"_s.arg(reportDigest(ladderBoard)),
        ladderSeconds * 1000.0, "ms");
    step.restart();
    AggregateOptions heatmap = newMetric;
    heatmap.groupBy = { "model", "category" };
    const Report ladderHeatmap = aggregate(afterEdit.records, heatmap);
    const double heatmapSeconds = seconds(step);
    report("store",
        u"heatmap (model x category, %1 cells, digest %2) for it"_s.arg(ladderHeatmap.groups.size())
            .arg(reportDigest(ladderHeatmap)),
        heatmapSeconds * 1000.0, "ms");
    // The field heatmap (docs/metrics.md "Fields"): every response's field tallies summed per model and field, with
    // the fields' intervals.
    step.restart();
    AggregateOptions byField = leaderboard;
    byField.groupBy = { "field", "model" };
    const Report fieldHeatmap = aggregateFields(afterEdit.records, byField);
    const double fieldSeconds = seconds(step);
    report("store",
        u"field heatmap (field x model, %1 cells, digest %2)"_s.arg(fieldHeatmap.groups.size())
            .arg(reportDigest(fieldHeatmap)),
        fieldSeconds * 1000.0, "ms");
    const GoldEditResult undo = store->addGoldRevision(
        editedCase, goldEdit->original, u"bench"_s, u"bench: the edit undone"_s, edit.added.revision);
    if (!undo.ok()) {
        std::fprintf(stderr, "bench store: the gold edit could not be undone: %s\n", qPrintable(undo.error.message));
        return 1;
    }
    step.restart();
    const auto checked = store->checkIntegrity();
    report("store", u"SQLite quick_check of the whole file (%1)"_s.arg(checked ? u"ok"_s : checked.errorMessage()),
        seconds(step), "s");
    report("store", u"peak memory"_s, peakRssMiB(), "MiB");
    return boardAfterEdit.groups.empty() || ladderBoard.groups.empty() || fieldHeatmap.groups.empty() ? 1 : 0;
}

int benchOpen(const BenchArgs& args)
{
    // Opening a store that keeps its verdicts (as the GUI's scoring service has it keep them after a first pass), to
    // the leaderboard's point estimates, three times: the store, a read of every response without its answer and of
    // every kept verdict, the places of each case's records and the kept point estimates, as the GUI makes them.
    QTemporaryDir scratch;
    QString error;
    BenchStoreShape shape;
    const QString path = ensureBenchStore(args.records > 0 ? args.records : 1000000, scratch, &error, &shape);
    if (path.isEmpty()) {
        std::fprintf(stderr, "bench open: %s\n", qPrintable(error));
        return 1;
    }
    ResultStore::OpenOptions openOptions;
    openOptions.integrityCheck = false;
    StoreError openError;
    EvaluationOptions adjusted;
    adjusted.gold = GoldBasis::Adjusted;
    AggregateOptions estimatesOnly;
    estimatesOnly.groupBy = { "model", "strategy" };
    estimatesOnly.intervals = false;
    QString scoredDigest;
    {
        auto store = ResultStore::open(path, openOptions, &openError);
        if (!store) {
            std::fprintf(stderr, "bench open: %s\n", qPrintable(openError.message));
            return 1;
        }
        EvaluationOptions fromAnswers = adjusted;
        fromAnswers.useStoredVerdicts = false;
        const Evaluation scored = evaluateStore(*store, fromAnswers);
        if (!scored.ok()) {
            std::fprintf(stderr, "bench open: %s\n", qPrintable(scored.error));
            return 1;
        }
        scoredDigest = reportDigest(aggregate(scored.records, estimatesOnly));
        const auto kept = keepVerdicts(*store, scored.records, scored.unkept);
        if (!kept) {
            std::fprintf(stderr, "bench open: %s\n", qPrintable(kept.errorMessage()));
            return 1;
        }
    }
    std::vector<double> totals;
    for (int round = 0; round < 3; ++round) {
        QElapsedTimer timer;
        timer.start();
        auto store = ResultStore::open(path, openOptions, &openError);
        if (!store) {
            std::fprintf(stderr, "bench open: %s\n", qPrintable(openError.message));
            return 1;
        }
        QElapsedTimer step;
        step.start();
        Evaluation read = evaluateStore(*store, adjusted);
        if (!read.ok() || qint64(read.records.size()) != shape.total || read.stored != shape.total) {
            std::fprintf(stderr, "bench open: read %lld kept verdicts of %lld responses: %s\n", read.stored,
                shape.total, qPrintable(read.error));
            return 1;
        }
        const double readSeconds = seconds(step);
        step.restart();
        const auto places = std::make_shared<const CasePlaces>(read.records);
        PointEstimates estimates(read.records, estimatesOnly);
        const double estimatesSeconds = seconds(step);
        totals.push_back(seconds(timer));
        if (reportDigest(estimates.report()) != scoredDigest) {
            std::fprintf(stderr, "bench open: the kept verdicts' point estimates differ from the scored ones\n");
            return 1;
        }
        report("open",
            u"round %1: read %2 kept verdicts %3 s, case places and point estimates %4 ms (digest %5)"_s.arg(round + 1)
                .arg(read.stored)
                .arg(readSeconds, 0, 'f', 2)
                .arg(estimatesSeconds * 1000.0, 0, 'f', 0)
                .arg(reportDigest(estimates.report())),
            totals.back(), "s");
    }
    std::sort(totals.begin(), totals.end());
    report("open", u"open a store that keeps its verdicts to the leaderboard's point estimates, median of 3"_s,
        totals[1], "s");
    report("open", u"peak memory"_s, peakRssMiB(), "MiB");
    return 0;
}

} // namespace structscope::bench
