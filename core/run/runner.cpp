// SPDX-License-Identifier: Apache-2.0
#include "run/runner.h"

#include "providers/providerrequest.h"
#include "sim/simulator.h"
#include "store/responsewriter.h"
#include "store/resultstore.h"

#include <QCryptographicHash>
#include <QLockFile>
#include <QNetworkAccessManager>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

// QNetworkAccessManager opens at most six HTTP/1.1 connections per host; more concurrency needs more managers.
constexpr int kConnectionsPerManager = 6;

} // namespace

Runner::Runner(ResultStore& store, QObject* parent)
    : QObject(parent)
    , m_store(store)
    , m_random(QRandomGenerator::securelySeeded())
{
    qRegisterMetaType<RunnerProgress>();
    qRegisterMetaType<ResponseRow>();
    m_progressTimer.setSingleShot(true);
    m_progressTimer.setInterval(100);
    connect(&m_progressTimer, &QTimer::timeout, this, [this] { emit progressChanged(progress()); });
    m_unblockTimer.setSingleShot(true);
    connect(&m_unblockTimer, &QTimer::timeout, this, &Runner::pump);
}

Runner::~Runner()
{
    if (m_active)
        cancel(RunStatus::Interrupted);
}

void Runner::setPriceTable(const PriceTable& table)
{
    m_prices = table;
    m_pricesSet = true;
}

void Runner::launch()
{
    m_writer = std::make_unique<ResponseWriter>(m_store, m_options.writerBatch, m_options.writerDelay);
    connect(m_writer.get(), &ResponseWriter::flushFailed, this,
        [this](const QString& message) { emit warning(u"could not store answers (will retry): "_s + message); });
    // Commits wait for the disk; in the writer's own thread they do not hold up the answers arriving here. Without
    // a second connection (never expected) the batches are committed here, as before.
    (void)m_writer->commitInOwnThread();
    const int managers = (m_options.globalConcurrency + kConnectionsPerManager - 1) / kConnectionsPerManager;
    while (int(m_nams.size()) < managers) {
        m_nams.push_back(std::make_unique<QNetworkAccessManager>());
        m_nams.back()->setAutoDeleteReplies(false);
    }
    m_namLoad.assign(m_nams.size(), 0);
    for (const Job& job : m_jobs) {
        if (job.spec.kind == ProviderKind::OpenAI && !job.spec.keyEnv.isEmpty() && apiKeyFor(job.spec).isEmpty()
            && !m_warnedKeys.contains(job.spec.keyEnv)) {
            m_warnedKeys << job.spec.keyEnv;
            emit warning(
                u"%1 is not set: requests to %2 go without an API key"_s.arg(job.spec.keyEnv, job.spec.label()));
        }
    }
    ++m_generation;
    m_active = true;
    m_clock.start();
    emit progressChanged(progress());
    // The first requests go out from the event loop: start() never emits finished() before it returns.
    const quint64 generation = m_generation;
    QTimer::singleShot(0, this, [this, generation] {
        if (generation == m_generation)
            pump();
    });
}

QNetworkAccessManager& Runner::networkFor(int& index)
{
    index = int(std::min_element(m_namLoad.begin(), m_namLoad.end()) - m_namLoad.begin());
    ++m_namLoad[std::size_t(index)];
    return *m_nams[std::size_t(index)];
}

void Runner::pump()
{
    sendMore();
    checkFinished();
}

void Runner::sendMore()
{
    if (!m_active || m_paused || m_stopping)
        return;
    const qint64 now = m_clock.elapsed();
    qint64 nextUnblock = -1;
    while (m_inFlight < m_options.globalConcurrency) {
        int picked = -1;
        for (std::size_t k = 0; k < m_jobs.size() && picked < 0; ++k) {
            const std::size_t j = (m_roundRobin + k) % m_jobs.size();
            Job& job = m_jobs[j];
            if (job.queue.empty())
                continue;
            const ModelState& model = m_models[std::size_t(job.model)];
            if (model.blockedUntilMs > now) {
                nextUnblock = nextUnblock < 0 ? model.blockedUntilMs : std::min(nextUnblock, model.blockedUntilMs);
                continue;
            }
            if (model.inFlight < model.limit.current())
                picked = int(j);
        }
        if (picked < 0)
            break;
        m_roundRobin = std::size_t(picked) + 1;
        Job& job = m_jobs[std::size_t(picked)];
        const Slot slot = job.queue.front();
        job.queue.pop_front();
        dispatch(slot);
    }
    if (nextUnblock >= 0)
        m_unblockTimer.start(int(std::max<qint64>(1, nextUnblock - now)));
}

bool Runner::dispatch(const Slot& slot)
{
    Job& job = m_jobs[std::size_t(slot.job)];
    const SuiteCase& c = m_suite->cases.at(slot.caseIndex);
    std::shared_ptr<const PreparedCase> prepared;
    QString hash;
    if (job.profile) {
        // A simulated answer depends on (profile, suite, case, strategy, repeat) only: hash those, cheaply.
        const QByteArray key = job.spec.label().toUtf8() + '\n' + m_suite->contentHash + '\n' + c.id.toUtf8() + '\n'
            + job.run.strategy.toUtf8() + '\n' + QByteArray::number(slot.repeat);
        hash = QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex());
    } else {
        // Repeats of a case send the same prompt: build it, its digest and the body once.
        auto& cached = job.prompts[std::size_t(slot.caseIndex)];
        if (!cached) {
            Prompt built = buildPrompt(*m_suite, c, job.strategy);
            QByteArray digest = requestDigest(job.spec, built);
            QByteArray body = chatRequestBytes(job.spec, built);
            cached = std::make_shared<const PreparedCase>(
                PreparedCase { std::move(built), std::move(digest), std::move(body) });
        }
        prepared = cached;
        hash = requestHash(cached->digest, slot.repeat);
        if (m_options.useCache && slot.attempts == 0 && answerFromCache(slot, hash))
            return true;
    }
    const quint64 id = m_nextFlight++;
    m_flights.insert(id, { slot, hash, nullptr, -1 });
    ++m_inFlight;
    ++m_models[std::size_t(job.model)].inFlight;
    ++job.progress.inFlight;
    if (job.profile)
        sendSimulated(id, slot);
    else
        sendHttp(id, slot, *prepared);
    return true;
}

bool Runner::answerFromCache(const Slot& slot, const QString& hash)
{
    const auto earlier = m_store.latestAnswerForRequest(hash);
    if (!earlier || !earlier->has_value())
        return false;
    Job& job = m_jobs[std::size_t(slot.job)];
    ResponseRow record = *earlier.value();
    record.id = 0;
    record.runId = job.run.id;
    record.caseRow = m_caseRows.value(m_suite->cases.at(slot.caseIndex).id);
    record.repeat = slot.repeat;
    record.attempts = 0;
    record.createdAt = {};
    m_writer->append(record);
    ++job.progress.done;
    ++job.progress.cached;
    ++m_doneThisSession;
    emit responseReceived(record);
    scheduleProgress();
    return true;
}

void Runner::sendSimulated(quint64 id, const Slot& slot)
{
    // Asynchronous like a network call, but the simulated latency is recorded, not slept.
    const quint64 generation = m_generation;
    QTimer::singleShot(0, this, [this, id, slot, generation] {
        if (generation != m_generation || !m_flights.contains(id))
            return;
        const Job& job = m_jobs[std::size_t(slot.job)];
        const SimAnswer answer
            = simulateAnswer(*job.profile, *m_suite, m_suite->cases.at(slot.caseIndex), job.strategy, slot.repeat);
        HttpOutcome outcome;
        outcome.httpStatus = 200;
        outcome.reply.text = answer.text;
        outcome.reply.tokensIn = answer.tokensIn;
        outcome.reply.tokensOut = answer.tokensOut;
        outcome.reply.finishReason = u"stop"_s;
        outcome.latencyMs = answer.latencyMs;
        complete(id, outcome);
    });
}

void Runner::sendHttp(quint64 id, const Slot& slot, const PreparedCase& prepared)
{
    const Job& job = m_jobs[std::size_t(slot.job)];
    const QString key = apiKeyFor(job.spec); // read now, never kept
    HttpRequestSpec request
        = buildHttpRequest(job.spec, prepared.body, m_suite->cases.at(slot.caseIndex).id, key, slot.repeat);
    const QStringList secrets = request.secrets; // never stored or shown, in an answer or an error
    Flight& flight = m_flights[id];
    QNetworkAccessManager& nam = networkFor(flight.nam);
    const CallTimeouts timeouts { m_options.connectTimeout, m_options.idleTimeout, m_options.totalTimeout };
    auto* call = new HttpCall(nam, std::move(request),
        makeResponseDecoder(job.spec.kind, job.spec.stream, m_options.maxBodyBytes), timeouts, this);
    flight.call = call;
    call->start([this, id, call, secrets](const HttpOutcome& outcome) {
        call->deleteLater();
        HttpOutcome clean = outcome;
        clean.reply.errorMessage = redactSecrets(clean.reply.errorMessage, secrets);
        clean.reply.text = redactSecrets(clean.reply.text, secrets);
        complete(id, clean);
    });
}

void Runner::complete(quint64 id, const HttpOutcome& outcome)
{
    const auto it = m_flights.constFind(id);
    if (it == m_flights.cend())
        return;
    // NOLINTNEXTLINE(performance-unnecessary-copy-initialization): a copy, as erase(it) ends *it
    const Flight flight = *it;
    m_flights.erase(it);
    Job& job = m_jobs[std::size_t(flight.slot.job)];
    ModelState& model = m_models[std::size_t(job.model)];
    --m_inFlight;
    --model.inFlight;
    --job.progress.inFlight;
    if (flight.nam >= 0)
        --m_namLoad[std::size_t(flight.nam)];
    if (m_stopping || outcome.reply.error == ErrorKind::Cancelled)
        return; // not an answer: resume asks again
    Slot slot = flight.slot;
    ++slot.attempts;
    const ErrorKind kind = outcome.reply.error;
    if (isRetryable(kind) && slot.attempts < m_options.maxAttempts) {
        scheduleRetry(slot, kind, outcome.retryAfter);
        pump();
        return;
    }
    if (kind == ErrorKind::None)
        model.limit.onSuccess();
    // The next request goes out before this answer is recorded: the server works on it meanwhile.
    sendMore();
    storeAnswer(slot, flight.requestHash, outcome, slot.attempts);
    checkFinished();
}

void Runner::storeAnswer(const Slot& slot, const QString& hash, const HttpOutcome& outcome, int attempts)
{
    Job& job = m_jobs[std::size_t(slot.job)];
    const ProviderReply& reply = outcome.reply;
    ResponseRow record;
    record.runId = job.run.id;
    record.caseRow = m_caseRows.value(m_suite->cases.at(slot.caseIndex).id);
    record.repeat = slot.repeat;
    record.requestHash = hash;
    record.rawText = reply.text;
    record.httpStatus = outcome.httpStatus;
    record.errorKind = errorKindName(reply.error);
    record.errorMessage = reply.errorMessage;
    record.latencyMs = outcome.latencyMs;
    record.ttftMs = outcome.ttftMs;
    record.tokensIn = reply.tokensIn;
    record.tokensOut = reply.tokensOut;
    record.attempts = attempts;
    if (reply.cost) {
        record.cost = reply.cost;
        record.costSource = CostSource::Provider;
    } else if (reply.tokensIn || reply.tokensOut) {
        record.cost = m_prices.cost(job.spec, reply.tokensIn.value_or(0), reply.tokensOut.value_or(0));
        record.costSource = record.cost ? CostSource::PriceTable : CostSource::None;
    }
    m_writer->append(record);
    ++job.progress.done;
    ++m_doneThisSession;
    job.progress.cost += record.cost.value_or(0);
    if (!record.errorKind.isEmpty()) {
        ++job.progress.errors;
        ++m_errorsByKind[record.errorKind];
    }
    emit responseReceived(record);
    scheduleProgress();
}

void Runner::scheduleRetry(Slot slot, ErrorKind kind, const QByteArray& retryAfter)
{
    Job& job = m_jobs[std::size_t(slot.job)];
    ModelState& model = m_models[std::size_t(job.model)];
    auto delay = backoffDelay(slot.attempts, m_options.backoffBase, m_options.backoffMax, m_random.generateDouble());
    if (const auto asked = parseRetryAfter(retryAfter, QDateTime::currentDateTimeUtc())) {
        // Honour the server's wait, plus up to 10% so that a burst does not come back at once.
        const auto wait = std::min(*asked, m_options.maxRetryAfter);
        delay = wait + std::chrono::milliseconds(qint64(double(wait.count()) * 0.1 * m_random.generateDouble()));
    }
    if (kind == ErrorKind::RateLimited) {
        model.limit.onRateLimited();
        model.blockedUntilMs = std::max(model.blockedUntilMs, m_clock.elapsed() + qint64(delay.count()));
        emit progressChanged(progress()); // now: the lowered limit is news, not a detail to throttle
    }
    ++job.progress.retries;
    ++m_retriesByKind[errorKindName(kind)];
    ++m_waitingRetries;
    const quint64 generation = m_generation;
    QTimer::singleShot(delay, this, [this, slot, generation] {
        if (generation != m_generation)
            return;
        --m_waitingRetries;
        m_jobs[std::size_t(slot.job)].queue.push_front(slot);
        pump();
    });
    scheduleProgress();
}

void Runner::pause()
{
    if (!m_active || m_paused)
        return;
    m_paused = true;
    setRunStatus(RunStatus::Paused);
    emit progressChanged(progress());
}

void Runner::resumeSending()
{
    if (!m_active || !m_paused)
        return;
    m_paused = false;
    setRunStatus(RunStatus::Running);
    emit progressChanged(progress());
    pump();
}

void Runner::cancel(RunStatus status)
{
    if (!m_active || m_stopping)
        return;
    m_stopping = true;
    ++m_generation; // pending retries and simulated answers are dropped
    const auto flights = m_flights;
    for (const Flight& flight : flights) {
        if (flight.call)
            flight.call->abort();
    }
    m_flights.clear();
    m_inFlight = 0;
    m_waitingRetries = 0;
    for (ModelState& model : m_models)
        model.inFlight = 0;
    for (Job& job : m_jobs)
        job.progress.inFlight = 0;
    std::fill(m_namLoad.begin(), m_namLoad.end(), 0);
    finishSession(status);
}

void Runner::checkFinished()
{
    if (!m_active || m_stopping || m_inFlight > 0 || m_waitingRetries > 0)
        return;
    for (const Job& job : m_jobs) {
        if (!job.queue.empty())
            return;
    }
    finishSession(RunStatus::Finished);
}

void Runner::finishSession(RunStatus status)
{
    m_stopping = true;
    if (m_writer) {
        const auto flushed = m_writer->flush();
        if (!flushed) {
            emit warning(u"could not store %1 answers: %2"_s.arg(
                QString::number(m_writer->pendingCount()), flushed.errorMessage()));
        }
    }
    for (const Job& job : m_jobs) {
        const auto done = m_store.finishRun(job.run.id, status);
        if (!done)
            emit warning(done.errorMessage());
    }
    m_progressTimer.stop();
    m_unblockTimer.stop();
    m_locks.clear();
    m_active = false;
    m_paused = false;
    emit progressChanged(progress());
    emit finished(status);
}

void Runner::setRunStatus(RunStatus status)
{
    for (const Job& job : m_jobs) {
        const auto updated = m_store.updateRunStatus(job.run.id, status);
        if (!updated)
            emit warning(updated.errorMessage());
    }
}

void Runner::scheduleProgress()
{
    if (!m_progressTimer.isActive())
        m_progressTimer.start();
}

QList<RunRow> Runner::runs() const
{
    QList<RunRow> out;
    for (const Job& job : m_jobs)
        out.append(job.run);
    return out;
}

RunnerProgress Runner::progress() const
{
    RunnerProgress p;
    for (const Job& job : m_jobs) {
        RunProgress run = job.progress;
        run.limit = m_models[std::size_t(job.model)].limit.current();
        p.total += run.total;
        p.done += run.done;
        p.retries += run.retries;
        p.cached += run.cached;
        p.cost += run.cost;
        p.runs.append(run);
    }
    p.doneThisSession = m_doneThisSession;
    p.inFlight = m_inFlight;
    p.errorsByKind = m_errorsByKind;
    p.retriesByKind = m_retriesByKind;
    p.elapsedSeconds = m_clock.isValid() ? double(m_clock.elapsed()) / 1000.0 : 0;
    if (m_doneThisSession > 0 && p.total >= p.done)
        p.etaSeconds = p.elapsedSeconds / double(m_doneThisSession) * double(p.total - p.done);
    p.paused = m_paused;
    p.active = m_active;
    return p;
}

} // namespace structscope
