// SPDX-License-Identifier: Apache-2.0
#include "providers/openaicodec.h"

#include <cmath>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

QString str(const json& value)
{
    return QString::fromStdString(value.get<std::string>());
}

// Content is a string, null, or (some servers) an array of parts of which the text parts count.
bool contentText(const json& content, QString& out, QString& problem)
{
    if (content.is_string()) {
        out = str(content);
        return true;
    }
    if (content.is_array()) {
        for (const json& part : content) {
            if (part.is_object() && part.value("type", std::string()) == "text") {
                const auto text = part.find("text");
                if (text != part.end() && text->is_string())
                    out += str(*text);
            }
        }
        return true;
    }
    problem = u"choices[0].message.content is a %1, expected text"_s.arg(QString::fromLatin1(content.type_name()));
    return false;
}

void readUsage(const json& body, ProviderReply& reply)
{
    const auto usage = body.find("usage");
    if (usage == body.end() || !usage->is_object())
        return;
    reply.tokensIn = tokenCount(*usage, "prompt_tokens");
    reply.tokensOut = tokenCount(*usage, "completion_tokens");
    const auto cost = usage->find("cost");
    if (cost != usage->end() && cost->is_number()) {
        const double c = cost->get<double>();
        if (std::isfinite(c) && c >= 0)
            reply.cost = c;
    }
}

// An "error" member in a body that came with HTTP 2xx (OpenRouter does this for upstream failures).
bool readInBandError(const json& body, ProviderReply& reply)
{
    const auto error = body.find("error");
    if (error == body.end() || error->is_null())
        return false;
    int code = 0;
    QString message;
    if (error->is_object()) {
        const auto c = error->find("code");
        if (c != error->end() && c->is_number_integer())
            code = c->get<int>();
        const auto m = error->find("message");
        if (m != error->end() && m->is_string())
            message = str(*m);
    } else if (error->is_string()) {
        message = str(*error);
    }
    const ErrorKind kind = code >= 400 ? errorKindForHttpStatus(code) : ErrorKind::Http5xx;
    reply.error = kind;
    reply.errorMessage = u"the provider reported an error%1: %2"_s.arg(
        code ? u" %1"_s.arg(code) : QString(), message.isEmpty() ? bodyExcerpt(error->dump().c_str()) : message);
    return true;
}

// Turns finish_reason and refusal into error kinds; the text stays (a truncated answer is still scored).
void applyOutcome(ProviderReply& reply, const QString& refusal)
{
    if (!refusal.isEmpty()) {
        reply.error = ErrorKind::Refusal;
        reply.errorMessage = u"the model refused: %1"_s.arg(refusal.left(500));
    } else if (reply.finishReason == u"length"_s) {
        reply.error = ErrorKind::Truncated;
        reply.errorMessage = u"the output was cut at the token limit (finish_reason \"length\")"_s;
    } else if (reply.finishReason == u"content_filter"_s) {
        reply.error = ErrorKind::Refusal;
        reply.errorMessage = u"the provider's content filter stopped the output (finish_reason \"content_filter\")"_s;
    }
}

} // namespace

json openAiRequestBody(const ModelSpec& spec, const Prompt& prompt, bool stream)
{
    json body = { { "model", spec.model.toStdString() }, { "messages", chatMessagesJson(prompt) },
        { "temperature", spec.temperature } };
    if (spec.maxTokens)
        body["max_tokens"] = *spec.maxTokens;
    if (spec.seed)
        body["seed"] = *spec.seed;
    if (prompt.schemaAsFormat) {
        body["response_format"] = { { "type", "json_schema" },
            { "json_schema",
                { { "name", prompt.schemaName.toStdString() }, { "strict", true },
                    { "schema", formatSchema(prompt) } } } };
    } else if (prompt.jsonMode) {
        body["response_format"] = { { "type", "json_object" } };
    }
    if (stream) {
        body["stream"] = true;
        body["stream_options"] = { { "include_usage", true } };
    }
    return body;
}

ProviderReply parseOpenAiBody(QByteArrayView bytes)
{
    ProviderReply reply;
    json body;
    QString problem;
    if (!parseJsonObjectBody(bytes, body, problem))
        return failedReply(ErrorKind::MalformedBody, problem);
    readUsage(body, reply);
    if (readInBandError(body, reply))
        return reply;
    const auto choices = body.find("choices");
    if (choices == body.end() || !choices->is_array() || choices->empty() || !choices->front().is_object()) {
        reply.error = ErrorKind::MalformedBody;
        reply.errorMessage
            = choices == body.end() ? u"the response has no \"choices\""_s : u"the response has no choices[0] object"_s;
        return reply;
    }
    const json& choice = choices->front();
    const auto finish = choice.find("finish_reason");
    if (finish != choice.end() && finish->is_string())
        reply.finishReason = str(*finish);
    const auto message = choice.find("message");
    if (message == choice.end() || !message->is_object()) {
        reply.error = ErrorKind::MalformedBody;
        reply.errorMessage = u"choices[0] has no \"message\" object"_s;
        return reply;
    }
    QString refusal;
    if (const auto r = message->find("refusal"); r != message->end() && r->is_string())
        refusal = str(*r);
    const auto content = message->find("content");
    if ((content == message->end() || content->is_null()) && refusal.isEmpty()
        && reply.finishReason != u"content_filter"_s) {
        reply.error = ErrorKind::MalformedBody;
        reply.errorMessage = u"choices[0].message has no content"_s;
        return reply;
    }
    if (content != message->end() && !content->is_null() && !contentText(*content, reply.text, problem))
        return failedReply(ErrorKind::MalformedBody, problem);
    applyOutcome(reply, refusal);
    return reply;
}

ProviderReply OpenAiBodyDecoder::decode()
{
    return parseOpenAiBody(raw());
}

OpenAiStreamDecoder::OpenAiStreamDecoder(qint64 maxBodyBytes)
    : ResponseDecoder(maxBodyBytes)
    , m_sse(std::min<qint64>(maxBodyBytes, qint64(16) * 1024 * 1024))
{ }

void OpenAiStreamDecoder::consume(QByteArrayView chunk)
{
    for (const SseEvent& event : m_sse.feed(chunk))
        handle(event);
}

void OpenAiStreamDecoder::handle(const SseEvent& event)
{
    if (m_events++ == 0)
        stopKeepingRaw();
    if (m_done || !m_problem.isEmpty() || m_reply.error != ErrorKind::None)
        return;
    if (event.data.trimmed() == "[DONE]") {
        m_done = true;
        return;
    }
    json chunk;
    QString problem;
    if (!parseJsonObjectBody(event.data, chunk, problem)) {
        m_problem = u"stream event %1: %2"_s.arg(QString::number(m_events), problem);
        return;
    }
    if (readInBandError(chunk, m_reply))
        return;
    if (const auto usage = chunk.find("usage"); usage != chunk.end() && usage->is_object())
        readUsage(chunk, m_reply);
    const auto choices = chunk.find("choices");
    if (choices == chunk.end() || !choices->is_array() || choices->empty() || !choices->front().is_object())
        return; // the usage-only last chunk, or a keep-alive
    const json& choice = choices->front();
    if (const auto f = choice.find("finish_reason"); f != choice.end() && f->is_string())
        m_reply.finishReason = str(*f);
    const auto delta = choice.find("delta");
    if (delta == choice.end() || !delta->is_object())
        return;
    if (const auto c = delta->find("content");
        c != delta->end() && c->is_string() && !c->get_ref<const std::string&>().empty()) {
        m_reply.text += str(*c);
        markFirstToken();
    }
    if (const auto r = delta->find("refusal"); r != delta->end() && r->is_string()) {
        m_refusal += str(*r);
        markFirstToken();
    }
}

ProviderReply OpenAiStreamDecoder::decode()
{
    for (const SseEvent& event : m_sse.finish())
        handle(event);
    if (m_sse.overflowed())
        return failedReply(ErrorKind::MalformedBody, u"a stream event exceeds the size limit"_s);
    if (m_events == 0)
        return parseOpenAiBody(raw()); // the server ignored "stream": one plain body (or garbage)
    if (!m_problem.isEmpty())
        return failedReply(ErrorKind::MalformedBody, m_problem);
    if (m_reply.error != ErrorKind::None)
        return m_reply;
    if (!m_done && m_reply.finishReason.isEmpty())
        return failedReply(ErrorKind::MalformedBody, u"the stream ended without a finish_reason or [DONE]"_s);
    ProviderReply reply = m_reply;
    applyOutcome(reply, m_refusal);
    return reply;
}

} // namespace structscope
