// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

namespace structscope {

/// One server-sent event.
struct SseEvent
{
    QByteArray event; ///< the "event:" field; empty for the default "message"
    QByteArray data; ///< the "data:" lines joined with '\n'
    QByteArray id;
};

/// Incremental parser of a text/event-stream (the HTML Living Standard's rules): lines end with CRLF,
/// LF or CR, a blank line dispatches the event, ':' starts a comment, one space after the colon is
/// dropped. Chunks may be split anywhere, even between CR and LF or inside a UTF-8 sequence.
class SseParser
{
public:
    /// `maxEventBytes` bounds one line plus the data of one event; beyond it the parser stops.
    explicit SseParser(qsizetype maxEventBytes = qsizetype(16) * 1024 * 1024);

    /// Feeds the next chunk; returns the events it completed.
    QList<SseEvent> feed(QByteArrayView chunk);
    /// End of stream: a last event that had data but no closing blank line is returned too (servers
    /// that close right after the last line lose nothing).
    QList<SseEvent> finish();

    /// True when a line or event exceeded the limit; nothing more is parsed.
    bool overflowed() const { return m_overflow; }

private:
    void processLine(QByteArrayView line, QList<SseEvent>& out);
    void dispatch(QList<SseEvent>& out);

    qsizetype m_max;
    QByteArray m_line;
    SseEvent m_current;
    bool m_hasData = false;
    bool m_skipLf = false; ///< the previous chunk ended with CR: a leading LF belongs to it
    bool m_overflow = false;
};

} // namespace structscope
