#include "store/responsewriter.h"

#include "store/resultstore.h"

#include <QDebug>

using namespace Qt::StringLiterals;

namespace structscope {

ResponseWriter::ResponseWriter(ResultStore& store, int batchSize, std::chrono::milliseconds maxDelay, QObject* parent)
    : QObject(parent)
    , m_store(store)
    , m_batchSize(qMax(1, batchSize))
    , m_maxDelay(maxDelay)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(m_maxDelay);
    connect(&m_timer, &QTimer::timeout, this, [this] { (void)flush(); });
}

ResponseWriter::~ResponseWriter()
{
    if (m_pending.isEmpty())
        return;
    const qsizetype pending = m_pending.size();
    if (auto r = flush(); !r)
        qWarning().noquote() << u"ResponseWriter: %1 buffered responses were not stored: %2"_s.arg(
            QString::number(pending), r.error().message);
}

bool ResponseWriter::append(const ResponseRecord& response)
{
    if (m_pending.isEmpty()) {
        m_oldest.start();
        m_timer.start();
    }
    m_pending.append(response);
    if (m_pending.size() >= m_batchSize || m_oldest.elapsed() >= m_maxDelay.count())
        return flush().ok();
    return true;
}

StoreResult<qsizetype> ResponseWriter::flush()
{
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
    m_committed += count;
    emit flushed(count, m_committed);
    return count;
}

QList<ResponseRecord> ResponseWriter::takePending()
{
    m_timer.stop();
    return std::exchange(m_pending, {});
}

} // namespace structscope
