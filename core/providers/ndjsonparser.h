// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

namespace structscope {

/// Incremental splitter of newline-delimited JSON (Ollama's stream): one value per line, '\n' or
/// "\r\n" endings, blank lines skipped. Chunks may be split anywhere.
class NdjsonParser
{
public:
    /// `maxLineBytes` bounds one line; beyond it the parser stops.
    explicit NdjsonParser(qsizetype maxLineBytes = qsizetype(16) * 1024 * 1024);

    /// Feeds the next chunk; returns the lines it completed (without their line ending).
    QList<QByteArray> feed(QByteArrayView chunk);
    /// End of stream: a last line without a newline is returned too.
    QList<QByteArray> finish();

    /// True when a line exceeded the limit; nothing more is parsed.
    bool overflowed() const { return m_overflow; }

private:
    void emitLine(QList<QByteArray>& out);

    qsizetype m_max;
    QByteArray m_line;
    bool m_overflow = false;
};

} // namespace structscope
