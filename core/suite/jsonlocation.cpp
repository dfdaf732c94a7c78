#include "suite/jsonlocation.h"

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

struct TooDeep
{
    std::size_t depth;
};

JsonLocation locate(std::string_view text, std::size_t byteOffset)
{
    JsonLocation where{1, 1};
    const std::size_t end = std::min(byteOffset, text.size());
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++where.line;
            where.column = 1;
        } else {
            ++where.column;
        }
    }
    return where;
}

// nlohmann's messages start with "[json.exception.parse_error.101] parse error at line 1, column 5: ";
// the location is reported separately, so keep only what went wrong.
QString plainMessage(const char* what)
{
    QString message = QString::fromUtf8(what);
    const qsizetype colon = message.indexOf(u": "_s);
    if (message.startsWith(u"[json.exception"_s) && colon >= 0)
        message = message.mid(colon + 2);
    return u"invalid JSON: "_s + message;
}

} // namespace

bool parseLocated(std::string_view text, json& out, QString& error, JsonLocation& where, int maxDepth)
{
    // The callback sees every value start with its depth, so over-deep input stops early.
    const json::parser_callback_t guard = [maxDepth](int depth, json::parse_event_t event, json&) {
        if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start)
            && depth >= maxDepth)
            throw TooDeep{std::size_t(depth)};
        return true;
    };
    try {
        out = json::parse(text.begin(), text.end(), guard);
        return true;
    } catch (const json::parse_error& e) {
        // e.byte is 1-based and points just past the offending character.
        where = locate(text, e.byte > 0 ? e.byte - 1 : 0);
        error = plainMessage(e.what());
    } catch (const TooDeep&) {
        where = {};
        error = u"invalid JSON: nested deeper than %1 levels"_s.arg(maxDepth);
    } catch (const std::exception& e) {
        where = {};
        error = u"invalid JSON: "_s + QString::fromUtf8(e.what());
    }
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
