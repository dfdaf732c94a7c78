// SPDX-License-Identifier: Apache-2.0
#include "util/printable.h"

using namespace Qt::StringLiterals;

namespace structscope {

QString printableText(QStringView text, int maxChars)
{
    QString out;
    out.reserve(text.size());
    int count = 0;
    for (const QChar c : text) {
        if (maxChars >= 0 && count >= maxChars) {
            out += u"…"_s;
            break;
        }
        ++count;
        if (c == u'\n') {
            out += u"\\n"_s;
        } else if (c == u'\r') {
            out += u"\\r"_s;
        } else if (c == u'\t') {
            out += u"\\t"_s;
        } else if (c.unicode() < 0x100 && (c.category() == QChar::Other_Control || c.unicode() == 0x7f)) {
            out += u"\\x"_s + QString::number(c.unicode(), 16).rightJustified(2, u'0');
        } else if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format
            || c == QChar::ReplacementCharacter) {
            out += u"\\u"_s + QString::number(c.unicode(), 16).rightJustified(4, u'0');
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace structscope
