// SPDX-License-Identifier: Apache-2.0
#include "providers/providerrequest.h"

#include "providers/ollamacodec.h"
#include "providers/openaicodec.h"

#include <QCryptographicHash>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

QByteArray headerValue(const QString& value)
{
    // Header values must be visible ASCII; anything else is sent %-encoded rather than mangled.
    QByteArray bytes = value.toUtf8();
    for (const char c : std::as_const(bytes)) {
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e)
            return QUrl::toPercentEncoding(value, " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");
    }
    return bytes;
}

// Header values are `$VAR` references (parseModelSpec refuses literal ones): read the variable now.
QString resolveHeaderValue(const QString& value)
{
    if (value.size() > 1 && value.startsWith(u'$'))
        return qEnvironmentVariable(value.mid(1).toLocal8Bit().constData());
    return {};
}

} // namespace

QUrl chatEndpoint(const ModelSpec& spec)
{
    const QString path = spec.kind == ProviderKind::Ollama ? u"/api/chat"_s : u"/chat/completions"_s;
    return QUrl(spec.baseUrl + path);
}

json chatRequestBody(const ModelSpec& spec, const Prompt& prompt, bool stream)
{
    if (spec.kind == ProviderKind::Ollama)
        return ollamaRequestBody(spec, prompt, stream);
    return openAiRequestBody(spec, prompt, stream);
}

QString apiKeyFor(const ModelSpec& spec)
{
    if (spec.keyEnv.isEmpty() || spec.kind == ProviderKind::Sim)
        return {};
    return qEnvironmentVariable(spec.keyEnv.toLocal8Bit().constData()).trimmed();
}

QByteArray chatRequestBytes(const ModelSpec& spec, const Prompt& prompt)
{
    return QByteArray::fromStdString(
        chatRequestBody(spec, prompt, spec.stream).dump(-1, ' ', false, json::error_handler_t::replace));
}

HttpRequestSpec buildHttpRequest(
    const ModelSpec& spec, const Prompt& prompt, const QString& caseId, const QString& apiKey, int repeat)
{
    return buildHttpRequest(spec, chatRequestBytes(spec, prompt), caseId, apiKey, repeat);
}

HttpRequestSpec buildHttpRequest(
    const ModelSpec& spec, QByteArray body, const QString& caseId, const QString& apiKey, int repeat)
{
    HttpRequestSpec request;
    request.url = chatEndpoint(spec);
    request.body = std::move(body);
    request.headers.append({ QByteArray("Content-Type"), QByteArray("application/json") });
    QByteArray accept = "application/json";
    if (spec.stream)
        accept = spec.kind == ProviderKind::Ollama ? "application/x-ndjson" : "text/event-stream";
    request.headers.append({ QByteArray("Accept"), accept });
    if (!apiKey.isEmpty()) {
        request.headers.append({ QByteArray("Authorization"), "Bearer " + apiKey.toUtf8() });
        request.secrets << apiKey;
    }
    if (spec.caseHeaders) {
        request.headers.append({ QByteArray(kCaseHeader), headerValue(caseId) });
        request.headers.append({ QByteArray(kRepeatHeader), QByteArray::number(repeat) });
    }
    for (const auto& [name, value] : spec.headers) {
        const QString resolved = resolveHeaderValue(value);
        if (resolved.isEmpty())
            continue;
        const QByteArray sent = headerValue(resolved);
        request.headers.append({ name.toLatin1(), sent });
        request.secrets << resolved;
        if (sent != resolved.toUtf8())
            request.secrets << QString::fromLatin1(sent);
    }
    return request;
}

QByteArray requestDigest(const ModelSpec& spec, const Prompt& prompt)
{
    json key = { { "v", 1 }, { "provider", providerKindName(spec.kind).toStdString() },
        { "base_url", spec.baseUrl.toStdString() }, { "model", spec.model.toStdString() },
        { "strategy", strategyName(prompt.strategy).toStdString() } };
    if (spec.kind == ProviderKind::Sim) {
        json messages = json::array();
        for (const ChatMessage& m : prompt.messages)
            messages.push_back({ m.role.toStdString(), m.content.toStdString() });
        key["messages"] = std::move(messages);
    } else {
        key["body"] = chatRequestBody(spec, prompt, false);
    }
    // nlohmann objects are ordered by key, so dump() is canonical.
    const std::string text = key.dump(-1, ' ', false, json::error_handler_t::replace);
    return QCryptographicHash::hash(QByteArrayView(text.data(), qsizetype(text.size())), QCryptographicHash::Sha256);
}

QString requestHash(const QByteArray& digest, int repeat)
{
    return QString::fromLatin1(QCryptographicHash::hash(
        QByteArray(digest + "/repeat/" + QByteArray::number(repeat)), QCryptographicHash::Sha256)
                                   .toHex());
}

QString requestHash(const ModelSpec& spec, const Prompt& prompt, int repeat)
{
    return requestHash(requestDigest(spec, prompt), repeat);
}

QString redactSecrets(QString text, const QStringList& secrets)
{
    for (const QString& secret : secrets) {
        if (secret.size() >= 4)
            text.replace(secret, u"[redacted]"_s);
    }
    return text;
}

} // namespace structscope
