// SPDX-License-Identifier: Apache-2.0
#include "providers/sseparser.h"

namespace structscope {

SseParser::SseParser(qsizetype maxEventBytes)
    : m_max(maxEventBytes)
{ }

QList<SseEvent> SseParser::feed(QByteArrayView chunk)
{
    QList<SseEvent> out;
    if (m_overflow)
        return out;
    qsizetype i = 0;
    if (m_skipLf && !chunk.isEmpty()) {
        if (chunk.front() == '\n')
            i = 1;
        m_skipLf = false;
    }
    while (i < chunk.size()) {
        qsizetype end = i;
        while (end < chunk.size() && chunk[end] != '\n' && chunk[end] != '\r')
            ++end;
        if (m_line.size() + (end - i) > m_max) {
            m_overflow = true;
            return out;
        }
        m_line.append(chunk.sliced(i, end - i));
        if (end == chunk.size())
            break;
        const bool cr = chunk[end] == '\r';
        i = end + 1;
        if (cr) {
            if (i < chunk.size()) {
                if (chunk[i] == '\n')
                    ++i;
            } else {
                m_skipLf = true;
            }
        }
        processLine(m_line, out);
        m_line.clear();
        if (m_overflow)
            return out;
    }
    return out;
}

QList<SseEvent> SseParser::finish()
{
    QList<SseEvent> out;
    if (m_overflow)
        return out;
    if (!m_line.isEmpty()) {
        processLine(m_line, out);
        m_line.clear();
    }
    dispatch(out);
    return out;
}

void SseParser::processLine(QByteArrayView line, QList<SseEvent>& out)
{
    if (line.isEmpty()) {
        dispatch(out);
        return;
    }
    if (line.front() == ':')
        return;
    const qsizetype colon = line.indexOf(':');
    const QByteArrayView field = colon < 0 ? line : line.first(colon);
    QByteArrayView value = colon < 0 ? QByteArrayView() : line.sliced(colon + 1);
    if (!value.isEmpty() && value.front() == ' ')
        value = value.sliced(1);
    if (field == "data") {
        if (m_current.data.size() + value.size() + 1 > m_max) {
            m_overflow = true;
            return;
        }
        if (m_hasData)
            m_current.data.append('\n');
        m_current.data.append(value);
        m_hasData = true;
    } else if (field == "event") {
        m_current.event = value.toByteArray();
    } else if (field == "id") {
        if (!value.contains('\0'))
            m_current.id = value.toByteArray();
    }
    // "retry" and unknown fields are ignored, as the standard says.
}

void SseParser::dispatch(QList<SseEvent>& out)
{
    if (m_hasData)
        out.append(m_current);
    m_current = SseEvent();
    m_hasData = false;
}

} // namespace structscope
