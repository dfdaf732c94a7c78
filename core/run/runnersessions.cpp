// SPDX-License-Identifier: Apache-2.0
// The Runner's sessions: what start(), resume() and retryErrors() queue, and the state they reset.
#include "run/runner.h"

#include "run/runsetup.h"
#include "sim/simprofile.h"
#include "store/resultstore.h"

#include <QCryptographicHash>
#include <QDir>
#include <QLockFile>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

/// A stored run to send again (resumed, or its errors retried): the run, its model spec as the plan resolves it
/// (specForRun()) and its strategy.
struct StoredRun
{
    RunRow run;
    ModelSpec spec;
    Strategy strategy = Strategy::P;
};

/// Reads run `runId` and checks that it can be sent again: made with `suite` when one is given (a resume continues
/// the run itself), a strategy and a simulated model this build knows, and no key sent where the options refuse to.
/// nullopt and the error otherwise.
template <typename Plan>
std::optional<StoredRun> storedRunToSend(
    ResultStore& store, qint64 runId, const Plan& plan, const Suite* suite, QString* error)
{
    const auto run = store.run(runId);
    if (!run) {
        fail(error, run.errorMessage());
        return std::nullopt;
    }
    if (suite && run->suiteHash != QString::fromLatin1(suite->contentHash)) {
        fail(error,
            u"run %1 was made with another version of suite '%2'; resume it with that version"_s.arg(
                QString::number(runId), suite->id));
        return std::nullopt;
    }
    const auto spec = specForRun(run.value(), plan.specs, plan.trustStoreOrigins, error);
    if (!spec)
        return std::nullopt;
    const auto strategy = strategyFromName(run->strategy);
    if (!strategy) {
        fail(error, u"run %1 has an unknown strategy '%2'"_s.arg(QString::number(runId), run->strategy));
        return std::nullopt;
    }
    if (spec->isSimulated() && !findSimProfile(spec->model)) {
        fail(error, u"unknown simulated model '%1'"_s.arg(spec->label()));
        return std::nullopt;
    }
    if (const QString problem = insecureKeyProblem(*spec, plan.options.allowInsecureKey); !problem.isEmpty()) {
        fail(error, problem);
        return std::nullopt;
    }
    return StoredRun { run.value(), *spec, *strategy };
}

} // namespace

bool Runner::beginSession(const SuitePtr& suite, const RunnerOptions& options, QString* error)
{
    if (m_active)
        return fail(error, u"the runner is already running"_s);
    if (!suite)
        return fail(error, u"no suite"_s);
    if (options.perModelConcurrency < 1 || options.globalConcurrency < 1 || options.maxAttempts < 1)
        return fail(error, u"concurrency and attempts must be at least 1"_s);
    m_suite = suite;
    m_options = options;
    if (!m_pricesSet) {
        QString problem;
        if (!options.priceTablePath.isEmpty()) {
            auto table = PriceTable::load(options.priceTablePath, &problem);
            if (!table)
                return fail(error, problem);
            m_prices = *table;
        } else {
            m_prices = PriceTable::loadDefault(&problem);
            if (!problem.isEmpty())
                emit warning(problem);
        }
    }
    m_jobs.clear();
    m_models.clear();
    m_flights.clear();
    m_errorsByKind.clear();
    m_retriesByKind.clear();
    m_warnedKeys.clear();
    m_continued.clear();
    m_locks.clear();
    m_doneThisSession = 0;
    m_inFlight = 0;
    m_waitingRetries = 0;
    m_paused = false;
    m_stopping = false;
    if (options.jitterSeed)
        m_random.seed(options.jitterSeed);
    const auto stored = storeSuiteForRun(m_store, *suite);
    if (!stored)
        return fail(error, stored.errorMessage());
    m_stored = stored.value();
    m_caseRows = m_stored.caseRows;
    return true;
}

bool Runner::lockRun(qint64 runId, QString* holder)
{
    const QByteArray store = QCryptographicHash::hash(m_store.displayName().toUtf8(), QCryptographicHash::Sha1).toHex();
    auto lock = std::make_unique<QLockFile>(
        QDir(QDir::tempPath())
            .filePath(u"structscope-%1-run-%2.lock"_s.arg(QLatin1String(store.left(16)), QString::number(runId))));
    lock->setStaleLockTime(0); // stale only when its process is gone, however long a run takes
    if (!lock->tryLock(0)) {
        if (lock->error() != QLockFile::LockFailedError)
            return true; // no lock file can be made here: nothing to guard with
        qint64 pid = 0;
        QString host;
        QString app;
        lock->getLockInfo(&pid, &host, &app);
        if (holder)
            *holder = u"process %1 on %2"_s.arg(QString::number(pid), host);
        return false;
    }
    m_locks.push_back(std::move(lock));
    return true;
}

int Runner::modelIndex(const ModelSpec& spec)
{
    const QString key = spec.endpointKey();
    for (std::size_t i = 0; i < m_models.size(); ++i) {
        if (m_models[i].key == key)
            return int(i);
    }
    m_models.push_back({ key, AdaptiveLimit(m_options.perModelConcurrency), 0, 0 });
    return int(m_models.size() - 1);
}

void Runner::addJob(
    Job job, const QHash<QString, qint64>& caseRows, const QSet<ResponseKey>& skip, const QSet<ResponseKey>* only)
{
    job.model = modelIndex(job.spec);
    job.progress.runId = job.run.id;
    job.progress.model = job.spec.label();
    job.progress.strategy = job.run.strategy;
    job.progress.simulated = job.spec.isSimulated();
    job.prompts.assign(std::size_t(m_suite->cases.size()), nullptr);
    const int jobIndex = int(m_jobs.size());
    for (int c = 0; c < m_suite->cases.size(); ++c) {
        const qint64 row = caseRows.value(m_suite->cases.at(c).id);
        for (int r = 0; r < job.run.repeats; ++r) {
            const ResponseKey key { row, r };
            if (only && !only->contains(key))
                continue;
            ++job.progress.total;
            if (skip.contains(key))
                ++job.progress.done;
            else
                job.queue.push_back({ jobIndex, c, r, 0 });
        }
    }
    m_jobs.push_back(std::move(job));
}

bool Runner::start(const RunPlan& plan, QString* error)
{
    if (plan.models.isEmpty() || plan.strategies.isEmpty() || plan.repeats < 1)
        return fail(error, u"a run needs at least one model, one strategy and one repeat"_s);
    for (const ModelSpec& spec : plan.models) {
        if (spec.isSimulated() && !findSimProfile(spec.model))
            return fail(error, u"unknown simulated model '%1'"_s.arg(spec.label()));
        if (const QString problem = insecureKeyProblem(spec, plan.options.allowInsecureKey); !problem.isEmpty())
            return fail(error, problem);
    }
    if (!beginSession(plan.suite, plan.options, error))
        return false;
    QList<PlanRunMatch> matches;
    if (plan.continueUnfinished) {
        auto matched = matchPlanRuns(m_store, m_stored, plan);
        if (!matched)
            return fail(error, matched.errorMessage());
        matches = std::move(matched).value();
    }
    const bool continuing
        = std::any_of(matches.cbegin(), matches.cend(), [](const PlanRunMatch& m) { return m.unfinished(); });
    // The runs to continue are claimed before any run is created: a refusal leaves no new run behind.
    for (const PlanRunMatch& match : std::as_const(matches)) {
        QString holder;
        if (match.unfinished() && !lockRun(match.latest->id, &holder))
            return fail(error,
                u"run %1 of this command is still being sent by another StructScope (%2): give the command "
                u"again once it has ended, or start new runs"_s.arg(QString::number(match.latest->id), holder));
    }
    std::vector<std::pair<Job, QSet<ResponseKey>>> jobs;
    for (int m = 0; m < plan.models.size(); ++m) {
        const ModelSpec& spec = plan.models.at(m);
        for (int s = 0; s < plan.strategies.size(); ++s) {
            const Strategy strategy = plan.strategies.at(s);
            RunRow run;
            QSet<ResponseKey> answered;
            const PlanRunMatch* const match
                = continuing ? &matches.at(qsizetype(m) * plan.strategies.size() + s) : nullptr;
            if (match && match->latest) {
                if (!match->unfinished())
                    continue; // answered in full by the session being continued
                const auto keys = m_store.answeredKeys(match->latest->id);
                if (!keys)
                    return fail(error, keys.errorMessage());
                run = *match->latest;
                answered = keys.value();
                m_continued.append(run.id);
            } else {
                const auto created = m_store.createRun(
                    makeRunRow(m_stored, *plan.suite, spec, strategy, plan.repeats, runSettings(spec, plan.options)));
                if (!created)
                    return fail(error, created.errorMessage());
                run = created.value();
                (void)lockRun(run.id, nullptr); // a new run: nobody else holds it
            }
            jobs.emplace_back(jobFor(std::move(run), spec, strategy), std::move(answered));
        }
    }
    for (auto& [job, answered] : jobs)
        addJob(std::move(job), m_caseRows, answered, nullptr);
    if (continuing)
        setRunStatus(RunStatus::Running);
    launch();
    return true;
}

Runner::Job Runner::jobFor(RunRow run, const ModelSpec& spec, Strategy strategy)
{
    Job job;
    job.run = std::move(run);
    job.spec = spec;
    job.strategy = strategy;
    job.profile = spec.isSimulated() ? findSimProfile(spec.model) : nullptr;
    return job;
}

bool Runner::resume(const ResumePlan& plan, QString* error)
{
    if (!beginSession(plan.suite, plan.options, error))
        return false;
    for (const qint64 runId : plan.runIds) {
        std::optional<StoredRun> stored = storedRunToSend(m_store, runId, plan, plan.suite.get(), error);
        if (!stored)
            return false;
        QString holder;
        if (!lockRun(runId, &holder))
            return fail(error,
                u"run %1 is still being sent by another StructScope (%2): resume it once that has ended"_s.arg(
                    QString::number(runId), holder));
        const auto answered = m_store.answeredKeys(runId);
        if (!answered)
            return fail(error, answered.errorMessage());
        addJob(jobFor(std::move(stored->run), stored->spec, stored->strategy), m_caseRows, answered.value(), nullptr);
    }
    setRunStatus(RunStatus::Running);
    launch();
    return true;
}

bool Runner::retryErrors(const RetryPlan& plan, QString* error)
{
    if (!beginSession(plan.suite, plan.options, error))
        return false;
    for (const qint64 runId : plan.runIds) {
        const std::optional<StoredRun> stored = storedRunToSend(m_store, runId, plan, nullptr, error);
        if (!stored)
            return false;
        const auto fixed = keysRetriedSuccessfully(m_store, stored->run);
        if (!fixed)
            return fail(error, fixed.errorMessage());
        QSet<ResponseKey> errored;
        const auto visited = m_store.forEachResponse(runId, [&](const ResponseRow& r) {
            if (!r.errorKind.isEmpty() && (plan.errorKinds.isEmpty() || plan.errorKinds.contains(r.errorKind))
                && !fixed->contains({ r.caseRow, r.repeat }))
                errored.insert({ r.caseRow, r.repeat });
            return true;
        });
        if (!visited)
            return fail(error, visited.errorMessage());
        if (errored.isEmpty())
            continue;
        auto settings = runSettings(stored->spec, plan.options);
        settings["retry_of"] = runId;
        const auto created = m_store.createRun(
            makeRunRow(m_stored, *plan.suite, stored->spec, stored->strategy, stored->run.repeats, settings));
        if (!created)
            return fail(error, created.errorMessage());
        (void)lockRun(created->id, nullptr);
        addJob(jobFor(created.value(), stored->spec, stored->strategy), m_caseRows, {}, &errored);
    }
    launch();
    return true;
}

} // namespace structscope
