// SPDX-License-Identifier: Apache-2.0
#include "providers/ndjsonparser.h"

namespace structscope {

NdjsonParser::NdjsonParser(qsizetype maxLineBytes)
    : m_max(maxLineBytes)
{ }

QList<QByteArray> NdjsonParser::feed(QByteArrayView chunk)
{
    QList<QByteArray> out;
    qsizetype i = 0;
    while (!m_overflow && i < chunk.size()) {
        const qsizetype newline = chunk.indexOf('\n', i);
        const qsizetype end = newline < 0 ? chunk.size() : newline;
        if (m_line.size() + (end - i) > m_max) {
            m_overflow = true;
            m_line.clear();
            break;
        }
        m_line.append(chunk.sliced(i, end - i));
        if (newline < 0)
            break;
        emitLine(out);
        i = newline + 1;
    }
    return out;
}

QList<QByteArray> NdjsonParser::finish()
{
    QList<QByteArray> out;
    if (!m_overflow)
        emitLine(out);
    return out;
}

void NdjsonParser::emitLine(QList<QByteArray>& out)
{
    if (m_line.endsWith('\r'))
        m_line.chop(1);
    if (!m_line.trimmed().isEmpty())
        out.append(m_line);
    m_line.clear();
}

} // namespace structscope
