// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringView>

namespace structscope {

/// `text` made safe for a terminal or a log line: line breaks and tabs as \n, \r, \t; other control characters,
/// format characters (bidirectional overrides and the like) and U+FFFD as \xNN or \uNNNN. At most `maxChars`
/// characters of `text` are kept (all when negative), with "…" when cut.
QString printableText(QStringView text, int maxChars = -1);

} // namespace structscope
