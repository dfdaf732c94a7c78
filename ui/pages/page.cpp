// SPDX-License-Identifier: Apache-2.0
#include "pages/page.h"

#include "report/fieldreport.h"
#include "report/reportcache.h"
#include "report/sidebyside.h"
#include "store/resultstore.h"
#include "workspace/workspace.h"

#include <QLabel>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <mutex>

namespace structscope {

/// A page's point estimates of a large set kept with their sums, so that the next set — the same with the responses
/// of an edited case scored again (ScoredSet::basedOn, rescored) — gets its estimates by an update of the blocks
/// holding those records (~10 ms at a million) instead of an aggregate of every record. Used by the page's jobs, which
/// may run two at a time: one at a time under the mutex.
struct KeptEstimates
{
    std::mutex mutex;
    ScoredSetPtr set; ///< what `estimates` were computed from: kept alive, they point into its records
    AggregateOptions options;
    std::string gold;
    std::unique_ptr<PointEstimates> estimates;
    QSet<QString> simulatedModels;
    std::atomic_int updates = 0;
};

namespace {

/// The point estimates of `set` for `options` (intervals off), from `kept` when it holds those of the set this one is
/// based on, else aggregated anew (and kept).
ReportDataPtr pointEstimates(
    KeptEstimates& kept, const ScoredSetPtr& set, const AggregateOptions& options, const std::string& gold)
{
    if (groupsByField(options.groupBy)) {
        // Per field: no kept sums to update; the estimates are one pass over the records' tallies.
        return makeReportData(set->records, options, gold);
    }
    const std::lock_guard lock(kept.mutex);
    const bool sameView = kept.estimates && kept.gold == gold && kept.options.groupBy == options.groupBy
        && kept.options.families == options.families;
    if (sameView && kept.set == set) {
        // The same set again (the page asked once more): the kept estimates are its.
    } else if (sameView && kept.set && !set->rescored.empty() && set->basedOn.lock() == kept.set
        && kept.estimates->update(set->records, set->rescored)) {
        ++kept.updates; // the same responses: the same simulated models
    } else {
        kept.estimates = std::make_unique<PointEstimates>(set->records, options);
        kept.simulatedModels = simulatedModelsOf(set->records);
        kept.options = options;
        kept.gold = gold;
    }
    kept.set = set;
    auto data = std::make_shared<ReportData>();
    data->report = kept.estimates->report();
    data->report.gold = gold;
    data->provisional = true;
    data->simulatedModels = kept.simulatedModels;
    return data;
}

} // namespace

Page::Page(Workspace* workspace, QWidget* parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_kept(std::make_shared<KeptEstimates>())
{
    connect(workspace, &Workspace::dataChanged, this, &Page::markStale);
    // Kept estimates hold their scored set: another store's (or none) must not keep the last one alive. A job still
    // running keeps the old ones until it ends.
    const auto forgetKept = [this] { m_kept = std::make_shared<KeptEstimates>(); };
    connect(workspace, &Workspace::opened, this, forgetKept);
    connect(workspace, &Workspace::closed, this, forgetKept);
    connect(workspace->scoring(), &ScoringService::scored, this, [this](GoldBasis gold, const ScoredSetPtr& set) {
        if (!m_waitingForScores || (!m_sideBySide && gold != m_gold))
            return;
        if (!set->ok()) {
            m_waitingForScores = false;
            failScoring(set);
        } else if (!m_sideBySide) {
            m_waitingForScores = false;
            aggregate(set);
        } else if (tryBoth()) {
            m_waitingForScores = false;
        }
    });
}

Page::~Page()
{
    m_pool.waitForDone();
}

int Page::pointEstimatesUpdated() const
{
    return m_kept->updates;
}

void Page::markStale()
{
    m_stale = true;
    if (isVisible()) {
        m_stale = false;
        reload();
    }
}

void Page::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale) {
        m_stale = false;
        reload();
    }
}

void Page::requestReport(GoldBasis gold, const AggregateOptions& options, bool sideBySide)
{
    request(gold, options, sideBySide, false);
}

void Page::requestScoredSet(GoldBasis gold)
{
    request(gold, {}, false, true);
}

void Page::request(GoldBasis gold, const AggregateOptions& options, bool sideBySide, bool setOnly)
{
    ++m_generation;
    m_computedApplied = false;
    m_savedApplied = false;
    m_gold = gold;
    m_sideBySide = sideBySide;
    m_setOnly = setOnly;
    m_options = options;
    if (!m_workspace->isOpen()) {
        m_waitingForScores = false;
        setLoading(false);
        m_report = nullptr;
        reportReady(nullptr, {});
        Q_EMIT reportApplied();
        return;
    }
    setLoading(true);
    if (sideBySide) {
        // Ask for both at once so the two passes run side by side too.
        m_workspace->scoring()->request(GoldBasis::Measured);
        m_workspace->scoring()->request(GoldBasis::Adjusted);
        m_waitingForScores = !tryBoth();
        return;
    }
    if (ScoredSetPtr set = m_workspace->scoring()->request(gold)) {
        m_waitingForScores = false;
        aggregate(set);
    } else {
        m_waitingForScores = true;
        if (!m_setOnly)
            loadSavedReport();
    }
}

void Page::showLoadingIn(QLabel* status)
{
    connect(this, &Page::loadingChanged, status, [status](bool loading) {
        status->setText(loading ? tr("Scoring…") : QString());
        status->setToolTip({});
    });
    connect(this, &Page::savedReportApplied, status, [status] {
        status->setText(tr("Scoring… saved results shown"));
        status->setToolTip(tr("The results saved when this store was last scored are shown until scoring ends; "
                              "the store has not changed since."));
    });
    connect(this, &Page::pointEstimatesApplied, status, [status] {
        status->setText(tr("Computing intervals…"));
        status->setToolTip(tr("Every value shown is final. The bootstrap 95% intervals of the means and micro "
                              "metrics of this many responses take a few seconds; they appear when ready."));
    });
}

void Page::loadSavedReport()
{
    const quint64 generation = m_generation;
    const QString location = m_workspace->location();
    const GoldBasis gold = m_gold;
    const AggregateOptions options = m_options;
    QtConcurrent::run(&m_pool, [location, gold, options]() -> ReportDataPtr {
        ResultStore::OpenOptions open;
        open.readOnly = true;
        open.createIfMissing = false;
        open.integrityCheck = false;
        auto store = ResultStore::open(location, open);
        if (!store)
            return nullptr;
        const auto stamp = store->contentStamp();
        if (!stamp)
            return nullptr;
        auto saved = loadCachedReport(reportCacheFile(location, gold, options), stamp.value());
        if (!saved)
            return nullptr;
        auto data = std::make_shared<ReportData>();
        data->report = std::move(saved->report);
        data->simulatedModels = std::move(saved->simulatedModels);
        return data;
    }).then(this, [this, generation](const ReportDataPtr& data) {
        if (!data || generation != m_generation || m_computedApplied)
            return; // none saved, or the request changed, or the computed report is already shown
        m_report = data;
        m_savedApplied = true;
        reportReady(data, {});
        Q_EMIT savedReportApplied();
    });
}

bool Page::tryBoth()
{
    const ScoredSetPtr measured = m_workspace->scoring()->cached(GoldBasis::Measured);
    const ScoredSetPtr adjusted = m_workspace->scoring()->cached(GoldBasis::Adjusted);
    if (!measured || !adjusted)
        return false;
    for (const ScoredSetPtr& set : { measured, adjusted }) {
        if (!set->ok()) {
            failScoring(set);
            return true;
        }
    }
    aggregateBoth(measured, adjusted);
    return true;
}

void Page::failScoring(const ScoredSetPtr& set)
{
    m_computedApplied = true; // the outcome is known: a saved report arriving now must not hide it
    setLoading(false);
    m_report = nullptr;
    reportReady(nullptr, set->cancelled ? tr("Scoring was cancelled.") : set->error);
    Q_EMIT reportApplied();
}

void Page::aggregate(const ScoredSetPtr& set)
{
    const quint64 generation = m_generation;
    if (m_setOnly) {
        // Nothing to aggregate (a million records took a quarter of a second for a summary no one saw). Applied
        // from the event loop, as a computed report is.
        QMetaObject::invokeMethod(
            this, [this, generation] { applyReport(generation, std::make_shared<const ReportData>()); },
            Qt::QueuedConnection);
        return;
    }
    const AggregateOptions options = m_options;
    const std::string gold = m_gold == GoldBasis::Adjusted ? "adjusted" : "measured";
    const QString cacheFile = reportCacheFile(m_workspace->location(), m_gold, options);
    const bool pointEstimatesFirst = options.intervals && set->records.size() >= m_pointEstimatesFirstFrom;
    const std::shared_ptr<KeptEstimates> kept = m_kept;
    QtConcurrent::run(&m_pool, [this, generation, set, options, gold, cacheFile, pointEstimatesFirst, kept] {
        if (pointEstimatesFirst) {
            // Posted before the complete report's continuation, so applied before it; the page waits for this job
            // before it goes away, and a call posted to a deleted page is dropped.
            AggregateOptions quick = options;
            quick.intervals = false;
            ReportDataPtr estimates = pointEstimates(*kept, set, quick, gold);
            QMetaObject::invokeMethod(
                this, [this, generation, estimates] { applyPointEstimates(generation, estimates); },
                Qt::QueuedConnection);
        }
        ReportDataPtr data = makeReportData(set->records, options, gold);
        // Saved for the next opening of the unchanged store; a cache that cannot be written only costs that.
        if (!set->stamp.isEmpty())
            saveCachedReport(cacheFile, set->stamp, { data->report, data->simulatedModels });
        return data;
    }).then(this, [this, generation](const ReportDataPtr& data) { applyReport(generation, data); });
}

void Page::aggregateBoth(const ScoredSetPtr& measured, const ScoredSetPtr& adjusted)
{
    const quint64 generation = m_generation;
    const AggregateOptions options = m_options;
    QtConcurrent::run(&m_pool, [measured, adjusted, options] {
        const ReportDataPtr m = makeReportData(measured->records, options, "measured");
        const ReportDataPtr a = makeReportData(adjusted->records, options, "adjusted");
        auto both = std::make_shared<ReportData>();
        both->report = goldSideBySide(m->report, a->report);
        both->simulatedModels = m->simulatedModels + a->simulatedModels;
        return ReportDataPtr(std::move(both));
    }).then(this, [this, generation](const ReportDataPtr& data) { applyReport(generation, data); });
}

void Page::applyReport(quint64 generation, const ReportDataPtr& data)
{
    if (generation != m_generation)
        return; // the user changed the grouping or gold meanwhile
    m_computedApplied = true;
    setLoading(false);
    m_report = data;
    reportReady(data, {});
    Q_EMIT reportApplied();
}

void Page::applyPointEstimates(quint64 generation, const ReportDataPtr& data)
{
    // A saved report of the unchanged store is the complete one: the estimates would only take its intervals away.
    if (generation != m_generation || m_computedApplied || m_savedApplied)
        return;
    m_report = data;
    reportReady(data, {});
    Q_EMIT pointEstimatesApplied();
}

void Page::setLoading(bool loading)
{
    if (loading == m_loading)
        return;
    m_loading = loading;
    Q_EMIT loadingChanged(loading);
}

} // namespace structscope
