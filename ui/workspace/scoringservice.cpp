// SPDX-License-Identifier: Apache-2.0
#include "workspace/scoringservice.h"

#include "store/resultstore.h"

#include <QDebug>
#include <QElapsedTimer>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

#include <limits>
#include <optional>

namespace structscope {

namespace {

ScoredSetPtr scoreStore(QPromise<ScoredSetPtr>& promise, const QString& location, GoldBasis gold,
    const std::shared_ptr<std::atomic_bool>& cancel, const ScoredSetPtr& previous,
    const std::optional<QSet<qint64>>& changedCases)
{
    QElapsedTimer timer;
    timer.start();
    auto set = std::make_shared<ScoredSet>();
    set->gold = gold;
    ResultStore::OpenOptions openOptions;
    openOptions.readOnly = true;
    openOptions.createIfMissing = false;
    openOptions.integrityCheck = false;
    StoreError error;
    auto store = ResultStore::open(location, openOptions, &error);
    if (!store) {
        set->error = error.message;
        return set;
    }
    // Taken before reading: what is added meanwhile makes the stamp stale (a cache miss later), never wrong.
    if (const auto stamp = store->contentStamp())
        set->stamp = stamp.value();
    EvaluationOptions options;
    options.gold = gold;
    options.cancel = cancel.get();
    if (previous)
        options.reuse = &previous->records;
    options.progress = [&promise, &cancel](qint64 done, qint64 total) {
        // QFuture progress is an int; scale down stores with more than 2^31 responses.
        const qint64 divisor = total / std::numeric_limits<int>::max() + 1;
        promise.setProgressRange(0, int(total / divisor));
        promise.setProgressValue(int(done / divisor));
        return !cancel->load();
    };
    // Re-scoring only the edited cases is right only if nothing else was added since the previous set was read
    // (responses a running run stored meanwhile, say); otherwise it is a full pass, reusing what is unchanged.
    const bool onlyGold = previous && changedCases && !previous->stamp.isEmpty() && !set->stamp.isEmpty()
        && ResultStore::stampsDifferOnlyInGold(previous->stamp, set->stamp);
    // After a gold edit the new set shares all but the edited cases' chunks with the previous one.
    Evaluation evaluation = onlyGold
        ? reevaluateCases(*store, previous->records, *changedCases, options, previous->casePlaces)
        : evaluateStore(*store, options);
    set->records = std::move(evaluation.records);
    set->error = evaluation.error;
    set->cancelled = evaluation.cancelled;
    set->reused = evaluation.reused;
    set->stored = evaluation.stored;
    set->unkept = std::move(evaluation.unkept);
    if (evaluation.rescoredPlaces) {
        set->basedOn = previous;
        set->rescored = std::move(*evaluation.rescoredPlaces);
        set->casePlaces = std::move(evaluation.casePlaces);
    } else if (set->ok()) {
        // Made now, beside the pass (~1% of it), so that the first gold edit need not look for its case's records.
        set->casePlaces = std::make_shared<const CasePlaces>(set->records);
    }
    set->elapsedMs = timer.elapsed();
    return set;
}

} // namespace

ScoringService::ScoringService(QObject* parent)
    : QObject(parent)
    , m_keepTimer(new QTimer(this))
{
    m_pool.setMaxThreadCount(1);
    m_keepTimer->setSingleShot(true);
    m_keepTimer->setInterval(kKeepDelayMs);
    connect(m_keepTimer, &QTimer::timeout, this, &ScoringService::keepNow);
}

namespace {

/// Has the store keep the verdicts of `sets` named by their unkept places, through a connection of this thread's own
/// (the passes' were read-only). A store that cannot take them (a read-only file, a full disk) keeps none: they are
/// a cache, and the next pass scores them again.
void keepScored(const QString& location, const std::vector<std::pair<ScoredSetPtr, std::vector<UnkeptVerdict>>>& sets,
    const std::shared_ptr<std::atomic_bool>& stop)
{
    ResultStore::OpenOptions openOptions;
    openOptions.createIfMissing = false;
    openOptions.integrityCheck = false;
    StoreError error;
    auto store = ResultStore::open(location, openOptions, &error);
    if (!store || stop->load())
        return;
    for (const auto& [set, unkept] : sets) {
        QElapsedTimer timer;
        timer.start();
        const auto kept = keepVerdicts(*store, set->records, unkept, stop.get());
        if (!kept) {
            qInfo().noquote() << "scoring: the store keeps no verdicts of this pass:" << kept.errorMessage();
            return;
        }
        qInfo().noquote() << "scoring: kept" << kept.value() << "verdicts in" << timer.elapsed() << "ms";
    }
}

} // namespace

ScoringService::~ScoringService()
{
    cancelJobs();
    stopKeeping();
    m_pool.waitForDone();
}

void ScoringService::queueKeep(GoldBasis gold, const ScoredSetPtr& set)
{
    std::vector<ToKeep>& pending = m_toKeep[gold];
    const auto basedOn = set->basedOn.lock();
    if (!pending.empty() && basedOn && basedOn == pending.back().set) {
        // An edit's set: its predecessor's places, some scored again. Both lists are by place; the new one wins.
        const std::vector<UnkeptVerdict>& earlier = pending.back().unkept;
        std::vector<UnkeptVerdict> merged;
        merged.reserve(earlier.size() + set->unkept.size());
        auto older = earlier.cbegin();
        for (const UnkeptVerdict& u : set->unkept) {
            for (; older != earlier.cend() && older->place < u.place; ++older)
                merged.push_back(*older);
            if (older != earlier.cend() && older->place == u.place)
                ++older;
            merged.push_back(u);
        }
        merged.insert(merged.end(), older, earlier.cend());
        pending.back() = { set, std::move(merged) };
    } else if (!set->unkept.empty()) {
        pending.push_back({ set, set->unkept });
    }
    if (pending.empty())
        m_toKeep.erase(gold);
    if (!m_toKeep.empty())
        m_keepTimer->start();
}

void ScoringService::keepNow()
{
    if (m_location.isEmpty() || m_toKeep.empty())
        return;
    if (isBusy()) {
        m_keepTimer->start(); // after the pass
        return;
    }
    std::vector<std::pair<ScoredSetPtr, std::vector<UnkeptVerdict>>> sets;
    for (auto& [gold, pending] : m_toKeep) {
        for (ToKeep& entry : pending)
            sets.emplace_back(std::move(entry.set), std::move(entry.unkept));
    }
    m_toKeep.clear();
    stopKeeping();
    m_keeping = std::make_shared<std::atomic_bool>(false);
    m_pool.start(
        [location = m_location, sets = std::move(sets), stop = m_keeping] { keepScored(location, sets, stop); });
}

void ScoringService::stopKeeping()
{
    if (m_keeping)
        m_keeping->store(true);
    m_keeping.reset();
}

void ScoringService::setLocation(const QString& location)
{
    stopKeeping();
    m_toKeep.clear();
    m_keepTimer->stop();
    m_location = location;
    m_cache.clear();
    m_previous.clear();
    m_changedCases.clear();
    cancelJobs();
}

void ScoringService::invalidate()
{
    m_changedCases.clear();
    std::vector<GoldBasis> bases;
    for (const auto& [gold, set] : m_cache)
        bases.push_back(gold);
    for (const auto& [gold, job] : m_jobs)
        bases.push_back(gold);
    invalidateBases(bases);
}

void ScoringService::invalidateCases(const QSet<qint64>& caseRows)
{
    // The measured basis reads revision 0, which no edit changes; only the adjusted one needs scoring again.
    const GoldBasis adjusted = GoldBasis::Adjusted;
    const bool cachedNow = m_cache.count(adjusted) > 0;
    const bool running = m_jobs.count(adjusted) > 0;
    if (!cachedNow && !running) {
        m_changedCases.erase(adjusted); // whoever asks next gets a full pass (reusing what is unchanged)
        return;
    }
    if (cachedNow) {
        m_changedCases[adjusted] = caseRows; // relative to the set about to become m_previous
    } else if (const auto changed = m_changedCases.find(adjusted); changed != m_changedCases.end()) {
        changed->second.unite(caseRows); // the running job started from m_previous too: it restarts with both
    }
    invalidateBases({ adjusted });
}

void ScoringService::invalidateBases(const std::vector<GoldBasis>& bases)
{
    const bool wasBusy = isBusy();
    for (GoldBasis gold : bases) {
        if (const auto set = m_cache.find(gold); set != m_cache.end()) {
            m_previous[gold] = set->second; // its verdicts serve the next pass wherever response and gold are unchanged
            m_cache.erase(set);
        }
        if (const auto job = m_jobs.find(gold); job != m_jobs.end()) {
            job->second.cancel->store(true);
            job->second.watcher->disconnect(this);
            job->second.watcher->deleteLater();
            m_jobs.erase(job);
        }
    }
    ++m_generation;
    if (wasBusy && !isBusy())
        Q_EMIT busyChanged(false);
    for (GoldBasis gold : bases)
        request(gold);
}

ScoredSetPtr ScoringService::cached(GoldBasis gold) const
{
    const auto it = m_cache.find(gold);
    return it == m_cache.end() ? nullptr : it->second;
}

ScoredSetPtr ScoringService::request(GoldBasis gold)
{
    if (ScoredSetPtr set = cached(gold))
        return set;
    if (!m_location.isEmpty() && !m_jobs.count(gold))
        start(gold);
    return nullptr;
}

void ScoringService::cancel()
{
    std::vector<GoldBasis> stopped;
    for (const auto& [gold, job] : m_jobs)
        stopped.push_back(gold);
    cancelJobs();
    // Whoever waits for these sets hears that they will not come.
    for (GoldBasis gold : stopped) {
        auto set = std::make_shared<ScoredSet>();
        set->gold = gold;
        set->cancelled = true;
        Q_EMIT scored(gold, set);
    }
}

void ScoringService::cancelJobs()
{
    ++m_generation;
    const bool wasBusy = isBusy();
    for (auto& [gold, job] : m_jobs) {
        job.cancel->store(true);
        job.watcher->disconnect(this);
        job.watcher->deleteLater();
    }
    m_jobs.clear();
    if (wasBusy)
        Q_EMIT busyChanged(false);
}

void ScoringService::start(GoldBasis gold)
{
    stopKeeping(); // the pass would wait for it on the pool's one thread
    const bool wasBusy = isBusy();
    Job job;
    job.generation = ++m_generation;
    job.cancel = std::make_shared<std::atomic_bool>(false);
    job.watcher = new QFutureWatcher<ScoredSetPtr>(this);
    connect(job.watcher, &QFutureWatcherBase::progressValueChanged, this,
        [this, watcher = job.watcher](int value) { Q_EMIT progress(value, watcher->progressMaximum()); });

    const QString location = m_location;
    const auto cancelFlag = job.cancel;
    const auto previous = m_previous.find(gold);
    const ScoredSetPtr reuse = previous != m_previous.end() ? previous->second : nullptr;
    std::optional<QSet<qint64>> changedCases;
    if (const auto changed = m_changedCases.find(gold); changed != m_changedCases.end() && reuse)
        changedCases = changed->second;
    QFuture<ScoredSetPtr> future = QtConcurrent::run(
        &m_pool, [location, gold, cancelFlag, reuse, changedCases](QPromise<ScoredSetPtr>& promise) {
            promise.addResult(scoreStore(promise, location, gold, cancelFlag, reuse, changedCases));
        });
    job.watcher->setFuture(future);
    const quint64 generation = job.generation;
    // Registered before the continuation is attached: on a job that has already finished (an empty store, a busy
    // GUI thread) then() runs it at once, and it must find its job, or the result is dropped as superseded and the
    // pages wait for it forever.
    m_jobs[gold] = job;
    if (!wasBusy)
        Q_EMIT busyChanged(true);
    future.then(this, [this, gold, generation](const ScoredSetPtr& set) {
        const auto it = m_jobs.find(gold);
        if (it == m_jobs.end() || it->second.generation != generation)
            return; // superseded: another store, or the data changed meanwhile
        it->second.watcher->deleteLater();
        m_jobs.erase(it);
        if (set->ok()) {
            m_cache[gold] = set;
            m_previous.erase(gold);
            m_changedCases.erase(gold);
        }
        Q_EMIT scored(gold, set);
        if (!isBusy())
            Q_EMIT busyChanged(false);
        if (set->ok())
            queueKeep(gold, set);
    });
}

} // namespace structscope
