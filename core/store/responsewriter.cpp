// SPDX-License-Identifier: Apache-2.0
#include "store/responsewriter.h"

#include "store/resultstore.h"

#include <QCoreApplication>
#include <QDebug>
#include <QThread>

#include <functional>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

/// Commits, in the writer's own thread and through its own connection, the batches handed to it, in
/// order. A failed transaction stays with it and is tried again (with the next batch, after the delay, or
/// on flush).
class Committer : public QObject
{
public:
    std::function<void(qsizetype)> committed; ///< called in this thread; must post to the writer
    std::function<void(const QString&)> failed; ///< likewise

    explicit Committer(std::chrono::milliseconds retryDelay)
    {
        m_retry.setSingleShot(true);
        m_retry.setInterval(retryDelay);
        connect(&m_retry, &QTimer::timeout, this, [this] { (void)commit(); });
    }

    bool open(const ResultStore& store, QString* why)
    {
        StoreError error;
        m_store = store.openAgain(&error);
        if (!m_store && why)
            *why = error.message;
        return m_store != nullptr;
    }

    void add(QList<ResponseRow> batch)
    {
        m_pending.append(std::move(batch));
        (void)commit();
    }

    StoreResult<qsizetype> commit()
    {
        m_retry.stop();
        if (m_pending.isEmpty())
            return qsizetype(0);
        auto stored = m_store->appendResponses(m_pending);
        if (!stored) {
            m_retry.start();
            failed(stored.error().message);
            return stored.error();
        }
        const qsizetype count = m_pending.size();
        m_pending.clear();
        committed(count);
        return count;
    }

    QList<ResponseRow> take()
    {
        m_retry.stop();
        return std::exchange(m_pending, {});
    }

    /// Reports nothing more (the writer is going away); returns what was never committed.
    QList<ResponseRow> detach()
    {
        committed = [](qsizetype) {};
        failed = [](const QString&) {};
        return take();
    }

private:
    std::unique_ptr<ResultStore> m_store; // opened, used and closed in this thread
    QList<ResponseRow> m_pending;
    QTimer m_retry { this };
};

} // namespace

class ResponseWriter::OwnThread
{
public:
    QThread thread;
    Committer* committer = nullptr; ///< lives in `thread`; deleted there when it finishes

    ~OwnThread()
    {
        thread.quit();
        thread.wait();
    }
};

ResponseWriter::ResponseWriter(ResultStore& store, int batchSize, std::chrono::milliseconds maxDelay, QObject* parent)
    : QObject(parent)
    , m_store(store)
    , m_batchSize(qMax(1, batchSize))
    , m_maxDelay(maxDelay)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(m_maxDelay);
    connect(&m_timer, &QTimer::timeout, this, [this] { (void)flushOrHandOff(); });
}

ResponseWriter::~ResponseWriter()
{
    if (pendingCount() > 0) {
        const qsizetype pending = pendingCount();
        if (auto r = flush(); !r)
            qWarning().noquote() << u"ResponseWriter: %1 buffered responses were not stored: %2"_s.arg(
                QString::number(pending), r.error().message);
    }
    if (m_own) {
        Committer* committer = m_own->committer;
        QMetaObject::invokeMethod(
            committer, [committer] { (void)committer->detach(); }, Qt::BlockingQueuedConnection);
        m_own.reset(); // the committer and its connection go with the thread
    }
}

bool ResponseWriter::commitInOwnThread(QString* why)
{
    if (m_own)
        return true;
    auto own = std::make_unique<OwnThread>();
    own->thread.setObjectName(u"StructScope response writer"_s);
    auto* committer = new Committer(m_maxDelay);
    committer->committed = [this](qsizetype count) {
        QMetaObject::invokeMethod(
            this, [this, count] { onCommitted(count); }, Qt::QueuedConnection);
    };
    committer->failed = [this](const QString& message) {
        QMetaObject::invokeMethod(
            this, [this, message] { emit flushFailed(message); }, Qt::QueuedConnection);
    };
    committer->moveToThread(&own->thread);
    QObject::connect(&own->thread, &QThread::finished, committer, &QObject::deleteLater);
    own->committer = committer;
    own->thread.start();
    bool opened = false;
    QMetaObject::invokeMethod(
        committer, [&] { opened = committer->open(m_store, why); }, Qt::BlockingQueuedConnection);
    if (!opened)
        return false; // `own` stops the thread, which deletes the committer
    m_own = std::move(own);
    return true;
}

bool ResponseWriter::append(const ResponseRow& response)
{
    if (m_pending.isEmpty()) {
        m_oldest.start();
        m_timer.start();
    }
    m_pending.append(response);
    if (m_pending.size() >= m_batchSize || m_oldest.elapsed() >= m_maxDelay.count())
        return flushOrHandOff();
    return true;
}

bool ResponseWriter::flushOrHandOff()
{
    if (!m_own)
        return flush().ok();
    m_timer.stop();
    if (m_pending.isEmpty())
        return true;
    m_handedOff += m_pending.size();
    Committer* committer = m_own->committer;
    QMetaObject::invokeMethod(
        committer, [committer, batch = std::exchange(m_pending, {})]() mutable { committer->add(std::move(batch)); },
        Qt::QueuedConnection);
    return true;
}

StoreResult<qsizetype> ResponseWriter::flush()
{
    if (m_own) {
        (void)flushOrHandOff();
        const qint64 before = m_committed;
        StoreResult<qsizetype> committed = qsizetype(0);
        Committer* committer = m_own->committer;
        QMetaObject::invokeMethod(
            committer, [&] { committed = committer->commit(); }, Qt::BlockingQueuedConnection);
        takeReports();
        if (!committed)
            return committed.error();
        return qsizetype(m_committed - before);
    }
    m_timer.stop();
    if (m_pending.isEmpty())
        return qsizetype(0);
    auto stored = m_store.appendResponses(m_pending);
    if (!stored) {
        // Retry later rather than at once: the next append or the timer tries again.
        m_timer.start();
        emit flushFailed(stored.error().message);
        return stored.error();
    }
    const qsizetype count = m_pending.size();
    m_pending.clear();
    onCommitted(count);
    return count;
}

void ResponseWriter::takeReports()
{
    // What the own thread posted before it answered a blocking call is delivered now, in order.
    QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
}

void ResponseWriter::onCommitted(qsizetype count)
{
    if (m_own)
        m_handedOff -= count;
    m_committed += count;
    emit flushed(count, m_committed);
}

QList<ResponseRow> ResponseWriter::takePending()
{
    m_timer.stop();
    QList<ResponseRow> taken;
    if (m_own) {
        Committer* committer = m_own->committer;
        QMetaObject::invokeMethod(
            committer, [&] { taken = committer->take(); }, Qt::BlockingQueuedConnection);
        takeReports();
        m_handedOff = 0;
    }
    taken.append(std::exchange(m_pending, {}));
    return taken;
}

} // namespace structscope
