// SPDX-License-Identifier: Apache-2.0
#include "providers/ollamacodec.h"

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

QString str(const json& value)
{
    return QString::fromStdString(value.get<std::string>());
}

void applyDoneReason(ProviderReply& reply)
{
    if (reply.error == ErrorKind::None && reply.finishReason == u"length"_s) {
        reply.error = ErrorKind::Truncated;
        reply.errorMessage = u"the output was cut at the token limit (done_reason \"length\")"_s;
    }
}

} // namespace

json ollamaRequestBody(const ModelSpec& spec, const Prompt& prompt, bool stream)
{
    json options = { { "temperature", spec.temperature } };
    if (spec.maxTokens)
        options["num_predict"] = *spec.maxTokens;
    if (spec.seed)
        options["seed"] = *spec.seed;
    json body = { { "model", spec.model.toStdString() }, { "messages", chatMessagesJson(prompt) }, { "stream", stream },
        { "options", std::move(options) } };
    if (prompt.schemaAsFormat)
        body["format"] = formatSchema(prompt);
    else if (prompt.jsonMode)
        body["format"] = "json";
    return body;
}

ProviderReply parseOllamaBody(QByteArrayView body)
{
    OllamaDecoder decoder(std::max<qint64>(body.size(), 1), false);
    decoder.feed(body);
    return decoder.finish(200);
}

OllamaDecoder::OllamaDecoder(qint64 maxBodyBytes, bool stream)
    : ResponseDecoder(maxBodyBytes)
    , m_lines(std::min<qint64>(maxBodyBytes, qint64(16) * 1024 * 1024))
    , m_stream(stream)
{ }

void OllamaDecoder::consume(QByteArrayView chunk)
{
    for (const QByteArray& line : m_lines.feed(chunk))
        handle(line);
}

void OllamaDecoder::handle(const QByteArray& line)
{
    ++m_count;
    if (m_wholeBody || m_done || !m_problem.isEmpty() || m_reply.error != ErrorKind::None)
        return;
    json object;
    QString problem;
    if (!parseJsonObjectBody(line, object, problem)) {
        if (m_count == 1 && !m_triedWhole && !line.trimmed().startsWith('<')) {
            m_wholeBody
                = true; // not NDJSON: perhaps one pretty-printed object (a proxy); decode() tries the whole body
            return;
        }
        m_problem = m_count == 1 ? problem : u"stream line %1: %2"_s.arg(QString::number(m_count), problem);
        return;
    }
    if (const auto error = object.find("error"); error != object.end() && !error->is_null()) {
        m_reply.error = ErrorKind::Http5xx;
        m_reply.errorMessage = u"Ollama reported an error: %1"_s.arg(
            error->is_string() ? str(*error) : QString::fromStdString(error->dump()).left(300));
        return;
    }
    if (m_count == 1)
        stopKeepingRaw(); // it is NDJSON; the first 64 KiB stay for error bodies
    const auto message = object.find("message");
    if (message != object.end() && message->is_object()) {
        const auto content = message->find("content");
        if (content != message->end() && content->is_string() && !content->get_ref<const std::string&>().empty()) {
            m_reply.text += str(*content);
            if (m_stream)
                markFirstToken();
        }
    } else if (m_count == 1 && object.find("done") == object.end()) {
        m_problem = u"the response has neither \"message\" nor \"done\""_s;
        return;
    }
    const auto done = object.find("done");
    if (done != object.end() && done->is_boolean() && done->get<bool>()) {
        m_done = true;
        if (const auto reason = object.find("done_reason"); reason != object.end() && reason->is_string())
            m_reply.finishReason = str(*reason);
        m_reply.tokensIn = tokenCount(object, "prompt_eval_count");
        m_reply.tokensOut = tokenCount(object, "eval_count");
        if (message == object.end() || !message->is_object())
            m_problem = m_count == 1 ? u"the response has no \"message\" object"_s : QString();
    }
}

ProviderReply OllamaDecoder::decode()
{
    for (const QByteArray& line : m_lines.finish())
        handle(line);
    if (m_wholeBody) {
        m_wholeBody = false;
        m_triedWhole = true;
        m_count = 0;
        handle(raw());
    }
    if (m_lines.overflowed())
        return failedReply(ErrorKind::MalformedBody, u"a response line exceeds the size limit"_s);
    if (m_count == 0)
        return failedReply(ErrorKind::MalformedBody, u"the response body is empty"_s);
    if (!m_problem.isEmpty())
        return failedReply(ErrorKind::MalformedBody, m_problem);
    if (m_reply.error != ErrorKind::None)
        return m_reply;
    if (!m_done)
        return failedReply(ErrorKind::MalformedBody, u"the response ended before a line with \"done\": true"_s);
    ProviderReply reply = m_reply;
    applyDoneReason(reply);
    return reply;
}

} // namespace structscope
