// SPDX-License-Identifier: Apache-2.0
#include "sim/simchat.h"

#include "providers/costestimate.h"
#include "sim/minimalinstance.h"
#include "sim/simulator.h"
#include "json/jsontext.h"

#include <QDateTime>

#include <algorithm>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

QString str(const json& value)
{
    return value.is_string() ? QString::fromStdString(value.get<std::string>()) : QString();
}

QByteArray dump(const json& value)
{
    return QByteArray::fromStdString(value.dump(-1, ' ', false, json::error_handler_t::replace));
}

QString lastUserMessage(const SimChatRequest& request)
{
    const auto last = std::find_if(request.messages.crbegin(), request.messages.crend(),
        [](const ChatMessage& message) { return message.role == u"user"_s; });
    return last == request.messages.crend() ? QString() : last->content;
}

bool sameMessages(const QList<ChatMessage>& a, const QList<ChatMessage>& b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].role != b[i].role || a[i].content != b[i].content)
            return false;
    }
    return true;
}

json usage(const SimChatAnswer& answer)
{
    return { { "prompt_tokens", answer.tokensIn }, { "completion_tokens", answer.tokensOut },
        { "total_tokens", answer.tokensIn + answer.tokensOut } };
}

} // namespace

std::optional<SimChatRequest> parseSimChatRequest(SimApi api, const QByteArray& body, QString* error)
{
    const auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return std::nullopt;
    };
    json root;
    const JsonTextParse parsed = parseJsonText(std::string_view(body.constData(), std::size_t(body.size())), 128, root);
    if (!parsed.ok || !root.is_object())
        return fail(u"the request body is not a JSON object"_s);
    SimChatRequest request;
    request.api = api;
    request.model = str(root.value("model", json()));
    if (request.model.isEmpty())
        return fail(u"\"model\" is required"_s);
    const auto messages = root.find("messages");
    if (messages == root.end() || !messages->is_array() || messages->empty())
        return fail(u"\"messages\" must be a non-empty array"_s);
    for (const json& m : *messages) {
        if (!m.is_object() || !m.contains("role"))
            return fail(u"every message needs a \"role\""_s);
        request.messages.append({ str(m["role"]), str(m.value("content", json())) });
    }
    const auto stream = root.find("stream");
    request.stream = stream != root.end() && stream->is_boolean() && stream->get<bool>();
    if (api == SimApi::OpenAI) {
        const auto format = root.find("response_format");
        if (format != root.end() && format->is_object()) {
            const std::string type = format->value("type", std::string());
            request.jsonMode = type == "json_object";
            if (type == "json_schema") {
                request.schemaFormat = true;
                const auto spec = format->find("json_schema");
                if (spec != format->end() && spec->is_object())
                    request.schema = spec->value("schema", json::object());
            }
        }
    } else {
        const auto format = root.find("format");
        if (format != root.end() && format->is_string() && *format == "json")
            request.jsonMode = true;
        else if (format != root.end() && format->is_object()) {
            request.schemaFormat = true;
            request.schema = *format;
        }
    }
    return request;
}

void SimCatalog::addSuite(const SuitePtr& suite)
{
    if (suite)
        m_suites.append(suite);
}

QStringList SimCatalog::suiteIds() const
{
    QStringList ids;
    for (const SuitePtr& s : m_suites)
        ids << s->id;
    return ids;
}

qsizetype SimCatalog::caseCount() const
{
    qsizetype n = 0;
    for (const SuitePtr& s : m_suites)
        n += s->cases.size();
    return n;
}

const SimCatalog::PromptShape& SimCatalog::shape(const Suite& suite, const SuiteCase& c, Strategy s) const
{
    const QPair<const SuiteCase*, int> key(&c, int(s));
    auto it = m_shapes.find(key);
    if (it == m_shapes.end()) {
        const Prompt prompt = buildPrompt(suite, c, s);
        it = m_shapes.insert(key, { prompt.messages, prompt.jsonMode, prompt.schemaAsFormat });
    }
    return *it;
}

std::optional<SimCatalog::Match> SimCatalog::match(const SimChatRequest& request) const
{
    Match found;
    if (!request.caseId.isEmpty()) {
        for (const SuitePtr& s : m_suites) {
            if (const SuiteCase* c = s->findCase(request.caseId)) {
                found = { s, c, Strategy::P };
                break;
            }
        }
    }
    if (!found.c) {
        const QString text = lastUserMessage(request);
        qsizetype longest = 0;
        for (const SuitePtr& s : m_suites) {
            for (const SuiteCase& c : s->cases) {
                if (c.input.size() > longest && !c.input.isEmpty() && text.contains(c.input)) {
                    found = { s, &c, Strategy::P };
                    longest = c.input.size();
                }
            }
        }
    }
    if (!found.c)
        return std::nullopt;
    // Strategies can share their messages (P and PJ differ only in the format): the format decides.
    std::optional<Strategy> sameText;
    for (const Strategy s : allStrategies()) {
        const PromptShape& prompt = shape(*found.suite, *found.c, s);
        if (!sameMessages(prompt.messages, request.messages))
            continue;
        if (prompt.jsonMode == request.jsonMode && prompt.schemaFormat == request.schemaFormat) {
            found.strategy = s;
            return found;
        }
        if (!sameText)
            sameText = s;
    }
    found.strategy = sameText  ? *sameText
        : request.schemaFormat ? Strategy::JPlus
        : request.jsonMode     ? Strategy::J
                               : Strategy::P;
    return found;
}

SimChatAnswer answerSimChat(const SimCatalog& catalog, const SimProfile& profile, const SimChatRequest& request)
{
    SimChatAnswer answer;
    if (const auto match = catalog.match(request)) {
        const SimAnswer sim = simulateAnswer(profile, *match->suite, *match->c, match->strategy, request.repeat);
        answer.text = sim.text;
        answer.tokensIn = sim.tokensIn;
        answer.tokensOut = sim.tokensOut;
        answer.caseId = match->c->id;
        return answer;
    }
    answer.text = QString::fromUtf8(dump(minimalInstance(request.schema)));
    for (const ChatMessage& m : request.messages)
        answer.tokensIn += estimateTokens(m.content) + 4;
    answer.tokensOut = estimateTokens(answer.text);
    return answer;
}

QByteArray simOpenAiBody(const SimChatAnswer& answer, const QString& model)
{
    const json body = { { "id", "chatcmpl-sim" }, { "object", "chat.completion" },
        { "created", QDateTime::currentSecsSinceEpoch() }, { "model", model.toStdString() },
        { "choices",
            { { { "index", 0 },
                { "message",
                    { { "role", "assistant" }, { "content", answer.text.toStdString() }, { "refusal", nullptr } } },
                { "finish_reason", "stop" } } } },
        { "usage", usage(answer) }, { "system_fingerprint", "structscope-sim" } };
    return dump(body);
}

QList<QByteArray> simOpenAiStream(const SimChatAnswer& answer, const QString& model)
{
    const auto event = [&](const json& choices, const json& extra = json()) -> QByteArray {
        json chunk = { { "id", "chatcmpl-sim" }, { "object", "chat.completion.chunk" },
            { "model", model.toStdString() }, { "choices", choices } };
        if (!extra.is_null())
            chunk.update(extra);
        return "data: " + dump(chunk) + "\n\n";
    };
    QList<QByteArray> events;
    events << event(json::array({ { { "index", 0 }, { "delta", { { "role", "assistant" }, { "content", "" } } } } }));
    // A few pieces, so clients see a real stream.
    const QString& text = answer.text;
    const qsizetype piece = std::max<qsizetype>(1, text.size() / 4);
    for (qsizetype i = 0; i < text.size(); i += piece)
        events << event(
            json::array({ { { "index", 0 }, { "delta", { { "content", text.mid(i, piece).toStdString() } } } } }));
    events << event(json::array({ { { "index", 0 }, { "delta", json::object() }, { "finish_reason", "stop" } } }));
    events << event(json::array(), { { "usage", usage(answer) } });
    events << QByteArray("data: [DONE]\n\n");
    return events;
}

QByteArray simOllamaBody(const SimChatAnswer& answer, const QString& model)
{
    const json body = { { "model", model.toStdString() },
        { "created_at", QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString() },
        { "message", { { "role", "assistant" }, { "content", answer.text.toStdString() } } }, { "done", true },
        { "done_reason", "stop" }, { "prompt_eval_count", answer.tokensIn }, { "eval_count", answer.tokensOut } };
    return dump(body) + '\n';
}

QList<QByteArray> simOllamaStream(const SimChatAnswer& answer, const QString& model)
{
    QList<QByteArray> lines;
    const QString& text = answer.text;
    const qsizetype piece = std::max<qsizetype>(1, text.size() / 4);
    for (qsizetype i = 0; i < text.size(); i += piece) {
        lines << dump({ { "model", model.toStdString() },
                     { "message", { { "role", "assistant" }, { "content", text.mid(i, piece).toStdString() } } },
                     { "done", false } })
                + '\n';
    }
    SimChatAnswer last = answer;
    last.text.clear();
    lines << simOllamaBody(last, model);
    return lines;
}

} // namespace structscope
