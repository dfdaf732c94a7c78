// SPDX-License-Identifier: Apache-2.0
#include "suite/problem.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace structscope {

QString Problem::toString() const
{
    QString text = file.isEmpty() ? u"<input>"_s : file;
    if (line > 0) {
        text += u':' + QString::number(line);
        if (column > 0)
            text += u':' + QString::number(column);
    }
    text += u": "_s;
    if (warning)
        text += u"warning: "_s;
    if (!pointer.isEmpty())
        text += pointer + u": "_s;
    return text + message;
}

bool hasErrors(const Problems& problems)
{
    return std::any_of(problems.cbegin(), problems.cend(), [](const Problem& p) { return !p.warning; });
}

} // namespace structscope
