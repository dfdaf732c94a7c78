#include "workspace/scoringservice.h"

#include "store/resultstore.h"

#include <QElapsedTimer>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

#include <limits>

namespace structscope {

namespace {

ScoredSetPtr scoreStore(QPromise<ScoredSetPtr>& promise, const QString& location, GoldBasis gold,
    const std::shared_ptr<std::atomic_bool>& cancel, const ScoredSetPtr& previous)
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
    Evaluation evaluation = evaluateStore(*store, options);
    set->records = std::move(evaluation.records);
    set->error = evaluation.error;
    set->cancelled = evaluation.cancelled;
    set->reused = evaluation.reused;
    set->elapsedMs = timer.elapsed();
    return set;
}

} // namespace

ScoringService::ScoringService(QObject* parent)
    : QObject(parent)
{
    m_pool.setMaxThreadCount(1);
}

ScoringService::~ScoringService()
{
    cancelJobs();
    m_pool.waitForDone();
}

void ScoringService::setLocation(const QString& location)
{
    m_location = location;
    m_cache.clear();
    m_previous.clear();
    cancelJobs();
}

void ScoringService::invalidate()
{
    std::vector<GoldBasis> wanted;
    for (const auto& [gold, set] : m_cache) {
        wanted.push_back(gold);
        m_previous[gold] = set; // its verdicts serve the next pass wherever response and gold are unchanged
    }
    for (const auto& [gold, job] : m_jobs)
        wanted.push_back(gold);
    m_cache.clear();
    cancelJobs();
    for (GoldBasis gold : wanted)
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
    QFuture<ScoredSetPtr> future
        = QtConcurrent::run(&m_pool, [location, gold, cancelFlag, reuse](QPromise<ScoredSetPtr>& promise) {
              promise.addResult(scoreStore(promise, location, gold, cancelFlag, reuse));
          });
    job.watcher->setFuture(future);
    const quint64 generation = job.generation;
    future.then(this, [this, gold, generation](const ScoredSetPtr& set) {
        const auto it = m_jobs.find(gold);
        if (it == m_jobs.end() || it->second.generation != generation)
            return; // superseded: another store, or the data changed meanwhile
        it->second.watcher->deleteLater();
        m_jobs.erase(it);
        if (set->ok()) {
            m_cache[gold] = set;
            m_previous.erase(gold);
        }
        Q_EMIT scored(gold, set);
        if (!isBusy())
            Q_EMIT busyChanged(false);
    });
    m_jobs[gold] = job;
    if (!wasBusy)
        Q_EMIT busyChanged(true);
}

} // namespace structscope
