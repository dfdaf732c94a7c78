#pragma once

#include "store/records.h"
#include "store/storeresult.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QTimer>

#include <chrono>

namespace structscope {

class ResultStore;

/// Buffers responses and appends them to a ResultStore in batches: when `batchSize` are waiting, when
/// the oldest has waited `maxDelay`, on flush(), and on destruction. One batch is one transaction, so a
/// crash loses at most the responses still buffered. Lives in the thread of its store; the delay timer
/// needs an event loop, the other triggers do not.
class ResponseWriter : public QObject
{
    Q_OBJECT
public:
    explicit ResponseWriter(ResultStore& store, int batchSize = 64,
        std::chrono::milliseconds maxDelay = std::chrono::milliseconds(500), QObject* parent = nullptr);
    /// Flushes what is buffered; a failure there is logged with qWarning.
    ~ResponseWriter() override;

    /// Buffers one response and flushes if a trigger is reached. False when that flush failed (the
    /// responses stay buffered; see flushFailed).
    bool append(const ResponseRecord& response);
    /// Appends everything buffered in one transaction; returns how many were stored. On failure
    /// nothing is stored and everything stays buffered, to retry or take back with takePending().
    StoreResult<qsizetype> flush();

    qsizetype pendingCount() const { return m_pending.size(); }
    /// Responses stored through this writer so far.
    qint64 committedCount() const { return m_committed; }
    /// Removes and returns the buffered responses (e.g. to report them after a failed flush).
    QList<ResponseRecord> takePending();

signals:
    /// A batch of `count` responses was committed; `committedTotal` counts all of this writer's.
    void flushed(qsizetype count, qint64 committedTotal);
    /// A batch could not be stored; its responses are still buffered.
    void flushFailed(const QString& message);

private:
    ResultStore& m_store;
    int m_batchSize;
    std::chrono::milliseconds m_maxDelay;
    QList<ResponseRecord> m_pending;
    QElapsedTimer m_oldest;
    QTimer m_timer;
    qint64 m_committed = 0;
};

} // namespace structscope
