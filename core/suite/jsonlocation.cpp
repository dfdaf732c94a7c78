// SPDX-License-Identifier: Apache-2.0
#include "suite/jsonlocation.h"

#include "json/parseladder.h"

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

bool parseLocated(std::string_view text, json& out, QString& error, JsonLocation& where, int maxDepth)
{
    // The JSON core owns parsing limits and locations; this only phrases the result for suite files.
    ParseLimits limits;
    limits.maxDepth = maxDepth;
    JsonParseError parseError;
    if (parseJsonDocument(text, out, parseError, limits))
        return true;
    where = { int(parseError.line), int(parseError.column) };
    error = u"invalid JSON: "_s + QString::fromStdString(parseError.message);
    out = json();
    return false;
}

QString pointerToken(const QString& token)
{
    QString escaped = token;
    escaped.replace(u'~', u"~0"_s);
    escaped.replace(u'/', u"~1"_s);
    return escaped;
}

} // namespace structscope
