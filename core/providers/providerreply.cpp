// SPDX-License-Identifier: Apache-2.0
#include "providers/providerreply.h"

#include "util/printable.h"
#include "json/jsontext.h"

#include <cmath>
#include <string_view>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

bool looksLikeHtml(QByteArrayView body)
{
    const QByteArrayView start = body.trimmed().first(std::min<qsizetype>(body.trimmed().size(), 64));
    const QByteArray lower = start.toByteArray().toLower();
    return lower.startsWith("<!doctype html") || lower.startsWith("<html") || lower.startsWith("<head")
        || lower.startsWith("<body") || lower.startsWith("<?xml") || lower.startsWith("<h1")
        || lower.startsWith("<title");
}

QString providerErrorText(const json& body)
{
    const auto error = body.find("error");
    if (error == body.end())
        return {};
    if (error->is_string())
        return QString::fromStdString(error->get<std::string>());
    if (error->is_object()) {
        const auto message = error->find("message");
        if (message != error->end() && message->is_string())
            return QString::fromStdString(message->get<std::string>());
        return QString::fromStdString(error->dump(-1, ' ', false, json::error_handler_t::replace)).left(300);
    }
    return {};
}

} // namespace

bool parseJsonObjectBody(QByteArrayView body, json& out, QString& problem)
{
    out = json();
    if (body.trimmed().isEmpty()) {
        problem = u"the response body is empty"_s;
        return false;
    }
    if (looksLikeHtml(body)) {
        problem = u"the server sent an HTML page instead of JSON (%1); check the base URL and any proxy"_s.arg(
            bodyExcerpt(body, 80));
        return false;
    }
    const std::string_view text(body.data(), std::size_t(body.size()));
    const JsonTextParse parsed = parseJsonText(text, kMaxBodyDepth, out);
    if (!parsed.ok) {
        if (parsed.tooDeep) {
            problem = u"the response body nests deeper than %1 levels"_s.arg(kMaxBodyDepth);
        } else {
            problem = u"the response body is not JSON (byte %1 of %2: %3); it starts with %4"_s.arg(
                QString::number(parsed.errorOffset), QString::number(body.size()),
                QString::fromStdString(parsed.message), bodyExcerpt(body, 60));
        }
        out = json();
        return false;
    }
    if (!out.is_object()) {
        problem = u"the response body is a JSON %1, expected an object"_s.arg(QString::fromLatin1(out.type_name()));
        out = json();
        return false;
    }
    return true;
}

QString bodyExcerpt(QByteArrayView body, int maxChars)
{
    const QString text = QString::fromUtf8(body.first(std::min<qsizetype>(body.size(), qsizetype(maxChars) * 4)));
    return u"'"_s + printableText(text, maxChars) + u"'"_s;
}

ProviderReply httpErrorReply(int status, QByteArrayView body)
{
    ProviderReply reply;
    reply.error = errorKindForHttpStatus(status);
    if (reply.error == ErrorKind::None)
        reply.error = ErrorKind::MalformedBody;
    json parsed;
    QString problem;
    QString detail;
    if (parseJsonObjectBody(body, parsed, problem))
        detail = providerErrorText(parsed);
    if (detail.isEmpty() && !body.trimmed().isEmpty())
        detail = bodyExcerpt(body);
    reply.errorMessage
        = detail.isEmpty() ? u"HTTP %1"_s.arg(status) : u"HTTP %1: %2"_s.arg(QString::number(status), detail);
    return reply;
}

ProviderReply failedReply(ErrorKind kind, const QString& message)
{
    ProviderReply reply;
    reply.error = kind;
    reply.errorMessage = message;
    return reply;
}

std::optional<qint64> tokenCount(const json& object, const char* key)
{
    if (!object.is_object())
        return std::nullopt;
    const auto it = object.find(key);
    if (it == object.end())
        return std::nullopt;
    if (it->is_number_unsigned())
        return qint64(std::min<std::uint64_t>(it->get<std::uint64_t>(), std::uint64_t(INT64_MAX)));
    if (it->is_number_integer() && it->get<std::int64_t>() >= 0)
        return qint64(it->get<std::int64_t>());
    if (it->is_number_float()) {
        const double v = it->get<double>();
        if (std::isfinite(v) && v >= 0 && v < 9e18 && v == std::floor(v))
            return qint64(v);
    }
    return std::nullopt;
}

} // namespace structscope
