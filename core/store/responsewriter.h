// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/rows.h"
#include "store/storeresult.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QTimer>

#include <chrono>
#include <memory>

namespace structscope {

class ResultStore;

/// Buffers responses and appends them to a ResultStore in batches: when `batchSize` are waiting, when
/// the oldest has waited `maxDelay`, on flush(), and on destruction. One batch is one transaction, so a
/// crash loses at most the responses still buffered. Lives in the thread of its store; the delay timer
/// needs an event loop, the other triggers do not.
///
/// By default a batch is committed in the caller's thread, which waits for the disk (a SQLite store
/// syncs every commit). After commitInOwnThread() the batches are committed, in order, by a thread of
/// the writer's own through a second connection to the same store; only flush() and the destructor
/// wait for them.
class ResponseWriter : public QObject
{
    Q_OBJECT
public:
    explicit ResponseWriter(ResultStore& store, int batchSize = 64,
        std::chrono::milliseconds maxDelay = std::chrono::milliseconds(500), QObject* parent = nullptr);
    /// Flushes what is buffered; a failure there is logged with qWarning.
    ~ResponseWriter() override;

    /// Commits the batches in a thread of the writer's own from now on. False (and why) when a second
    /// connection to the store cannot be opened; the writer then goes on committing in the caller's thread.
    /// Call it before the first append().
    bool commitInOwnThread(QString* why = nullptr);
    bool commitsInOwnThread() const { return m_own != nullptr; }

    /// Buffers one response and flushes if a trigger is reached. False when that flush failed (the
    /// responses stay buffered; see flushFailed). In the writer's own thread the commit happens later: a
    /// failure there is reported by flushFailed and the next flush().
    bool append(const ResponseRow& response);
    /// Stores everything buffered (and waits for the writer's own thread to have committed everything handed
    /// to it); returns how many were stored by this call. On failure nothing of the failed transaction is
    /// stored and everything stays buffered, to retry or take back with takePending().
    StoreResult<qsizetype> flush();

    /// Responses appended and not yet committed.
    qsizetype pendingCount() const { return m_pending.size() + m_handedOff; }
    /// Responses stored through this writer so far.
    qint64 committedCount() const { return m_committed; }
    /// Removes and returns the responses not yet committed (e.g. to report them after a failed flush).
    QList<ResponseRow> takePending();

signals:
    /// A batch of `count` responses was committed; `committedTotal` counts all of this writer's.
    void flushed(qsizetype count, qint64 committedTotal);
    /// A batch could not be stored; its responses are still buffered.
    void flushFailed(const QString& message);

private:
    class OwnThread;

    /// Commits the buffer, or gives it to the own thread to commit. False when a commit here failed.
    bool flushOrHandOff();
    /// In this thread: what the own thread reported (a commit, a failure) before now.
    void takeReports();
    void onCommitted(qsizetype count);

    ResultStore& m_store;
    int m_batchSize;
    std::chrono::milliseconds m_maxDelay;
    QList<ResponseRow> m_pending;
    QElapsedTimer m_oldest;
    QTimer m_timer;
    qint64 m_committed = 0;
    std::unique_ptr<OwnThread> m_own;
    qsizetype m_handedOff = 0; ///< given to the own thread, not yet reported committed
};

} // namespace structscope
