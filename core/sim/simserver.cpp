// SPDX-License-Identifier: Apache-2.0
#include "sim/simserver.h"

#include "sim/simprofile.h"
#include "util/printable.h"

#include <QTcpSocket>
#include <QTimer>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

QByteArray dump(const json& value)
{
    return QByteArray::fromStdString(value.dump(-1, ' ', false, json::error_handler_t::replace));
}

QByteArray errorBody(SimApi api, const QString& message, const char* type = "invalid_request_error")
{
    if (api == SimApi::Ollama)
        return dump({ { "error", message.toStdString() } });
    return dump({ { "error", { { "message", message.toStdString() }, { "type", type } } } });
}

QString profileName(const QString& model)
{
    return model.startsWith(u"sim:"_s) ? model.mid(4) : model;
}

} // namespace

SimServer::SimServer(QObject* parent)
    : QObject(parent)
    , m_http(new BoundedHttpServer(this))
    , m_dice(m_options.seed)
{
    m_http->setHandler([this](const HttpRequest& request, const std::shared_ptr<HttpExchange>& exchange) {
        route(request, exchange);
    });
    connect(m_http, &BoundedHttpServer::refusalLogged, this, &SimServer::requestLogged);
}

SimServer::~SimServer() = default;

void SimServer::addSuite(const SuitePtr& suite)
{
    m_catalog.addSuite(suite);
}

void SimServer::setOptions(const SimServerOptions& options)
{
    m_options = options;
    m_dice.seed(options.seed);
    m_http->setLimits(options.limits);
}

quint16 SimServer::listen(const QHostAddress& address, quint16 port)
{
    m_port = m_http->listen(address, port);
    return m_port;
}

void SimServer::route(const HttpRequest& request, const std::shared_ptr<HttpExchange>& exchange)
{
    const QByteArray& path = request.path;
    const bool get = request.method == "GET";
    const bool post = request.method == "POST";
    if (path == "/v1/models" && get) {
        json data = json::array();
        for (const SimProfile& p : simProfiles())
            data.push_back({ { "id", p.name.toStdString() }, { "object", "model" }, { "created", 0 },
                { "owned_by", "structscope-sim" }, { "description", "simulated: " + p.description.toStdString() } });
        exchange->send(200, "application/json", dump({ { "object", "list" }, { "data", data } }));
    } else if (path == "/api/tags" && get) {
        json models = json::array();
        for (const SimProfile& p : simProfiles())
            models.push_back({ { "name", p.name.toStdString() }, { "model", p.name.toStdString() }, { "size", 0 },
                { "details", { { "family", "structscope-sim" }, { "format", "simulated" } } } });
        exchange->send(200, "application/json", dump({ { "models", models } }));
    } else if (path == "/_structscope/stats" && get) {
        exchange->send(200, "application/json", statsJson());
    } else if (path == "/v1/chat/completions" && post) {
        handleChat(SimApi::OpenAI, request, exchange);
    } else if (path == "/api/chat" && post) {
        handleChat(SimApi::Ollama, request, exchange);
    } else {
        const bool known = path == "/v1/models" || path == "/api/tags" || path == "/_structscope/stats"
            || path == "/v1/chat/completions" || path == "/api/chat";
        const int status = known ? 405 : 404;
        const QString shown = printableText(QString::fromUtf8(request.method + ' ' + path), 120);
        exchange->send(status, "application/json",
            errorBody(SimApi::OpenAI,
                known ? u"%1: method not allowed"_s.arg(shown) : u"%1: no such route"_s.arg(shown), "not_found_error"));
        emit requestLogged(u"%1 → %2"_s.arg(shown, QString::number(status)));
    }
}

void SimServer::handleChat(SimApi api, const HttpRequest& request, const std::shared_ptr<HttpExchange>& pending)
{
    const QString path = api == SimApi::OpenAI ? u"/v1/chat/completions"_s : u"/api/chat"_s;
    QString error;
    auto chat = parseSimChatRequest(api, request.body, &error);
    if (!chat) {
        pending->send(400, "application/json", errorBody(api, error));
        emit requestLogged(u"POST %1 → 400 %2"_s.arg(path, printableText(error, 200)));
        return;
    }
    const SimProfile* profile = findSimProfile(profileName(chat->model));
    if (!profile) {
        QStringList names;
        for (const SimProfile& p : simProfiles())
            names << p.name;
        pending->send(404, "application/json",
            errorBody(api, u"model '%1' not found; the simulated models are %2"_s.arg(chat->model, names.join(u", "_s)),
                "not_found_error"));
        emit requestLogged(u"POST %1 %2 → 404"_s.arg(path, printableText(chat->model, 80)));
        return;
    }
    chat->caseId = QString::fromUtf8(QByteArray::fromPercentEncoding(request.header("X-StructScope-Case")));
    chat->repeat = request.header("X-StructScope-Repeat").toInt();

    const SimChatAnswer answer = answerSimChat(m_catalog, *profile, *chat);
    ++m_stats.requests;
    if (answer.caseId.isEmpty())
        ++m_stats.unknownCases;
    else
        ++m_stats.perCase[answer.caseId];
    ++m_stats.inFlight;
    m_stats.maxInFlight = std::max(m_stats.maxInFlight, m_stats.inFlight);

    // The dice are thrown even at rate 0 so that a given seed always gives the same sequence.
    const double roll = m_dice.generateDouble();
    const int faultKind = int(m_dice.bounded(4));
    QString fault;
    if (roll < m_options.faultRate)
        fault = QStringList { u"rate_limited"_s, u"server_error"_s, u"no_answer"_s, u"malformed"_s }.at(faultKind);
    if (!fault.isEmpty())
        ++m_stats.faults[fault];
    emit requestLogged(u"POST %1 %2 %3 → %4"_s.arg(path, profile->name,
        answer.caseId.isEmpty() ? u"(unknown prompt)"_s : printableText(answer.caseId, 80),
        fault.isEmpty() ? u"200"_s : fault));

    const auto finish = [this, pending] {
        --m_stats.inFlight;
        Q_UNUSED(pending);
    };
    if (fault == u"no_answer"_s) {
        // Never answered: the client's timeout has to notice. Held until the client hangs up.
        if (QTcpSocket* socket = pending->socket()) {
            connect(socket, &QTcpSocket::disconnected, this, [pending, finish] { finish(); });
        } else {
            finish();
        }
        return;
    }
    // The answer is made now and only sent when the latency has passed (a model computes while the client
    // waits): what the client measures is the latency asked for, not that plus this server's work.
    struct Prepared
    {
        int status = 200;
        QByteArray type = "application/json";
        QByteArray body;
        QList<QByteArray> chunks; ///< a streamed answer
        QByteArray retryAfter;
    };
    Prepared reply;
    if (fault == u"rate_limited"_s) {
        reply.status = 429;
        reply.body = errorBody(api, u"simulated rate limit"_s, "rate_limit_error");
        reply.retryAfter = QByteArray::number(m_options.retryAfterSeconds);
    } else if (fault == u"server_error"_s) {
        reply.status = 500;
        reply.body = errorBody(api, u"simulated server error"_s, "server_error");
    } else if (fault == u"malformed"_s) {
        // Alternately a cut body and a proxy's HTML page.
        if (m_stats.faults.value(fault) % 2) {
            reply.body
                = (api == SimApi::OpenAI ? simOpenAiBody(answer, chat->model) : simOllamaBody(answer, chat->model))
                      .left(40);
        } else {
            reply.type = "text/html";
            reply.body = "<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>";
        }
    } else if (chat->stream) {
        reply.type = api == SimApi::OpenAI ? "text/event-stream" : "application/x-ndjson";
        reply.chunks
            = api == SimApi::OpenAI ? simOpenAiStream(answer, chat->model) : simOllamaStream(answer, chat->model);
    } else {
        reply.body = api == SimApi::OpenAI ? simOpenAiBody(answer, chat->model) : simOllamaBody(answer, chat->model);
    }
    const bool stream = chat->stream && fault.isEmpty();
    const int delay = int(std::max(0.0, m_options.latencyMs));
    QTimer::singleShot(delay, Qt::PreciseTimer, this, [pending, reply = std::move(reply), stream, finish] {
        finish();
        if (stream) {
            pending->startChunked(200, reply.type);
            for (const QByteArray& part : reply.chunks)
                pending->chunk(part);
            pending->endChunked();
        } else if (!reply.retryAfter.isEmpty()) {
            pending->send(reply.status, reply.type, reply.body, { { "Retry-After", reply.retryAfter } });
        } else {
            pending->send(reply.status, reply.type, reply.body);
        }
    });
}

QByteArray SimServer::statsJson() const
{
    json perCase = json::object();
    for (auto it = m_stats.perCase.cbegin(); it != m_stats.perCase.cend(); ++it)
        perCase[it.key().toStdString()] = it.value();
    json faults = json::object();
    for (auto it = m_stats.faults.cbegin(); it != m_stats.faults.cend(); ++it)
        faults[it.key().toStdString()] = it.value();
    json suites = json::array();
    for (const QString& id : m_catalog.suiteIds())
        suites.push_back(id.toStdString());
    const HttpCounters& http = m_http->counters();
    const json refused = { { "body_or_headers_too_large", http.tooLarge }, { "timed_out", http.timedOut },
        { "over_connection_cap", http.refused }, { "malformed", http.malformed } };
    return dump({ { "requests", m_stats.requests }, { "unknown_cases", m_stats.unknownCases },
        { "in_flight", m_stats.inFlight }, { "max_in_flight", m_stats.maxInFlight }, { "per_case", perCase },
        { "faults", faults }, { "suites", suites }, { "open_connections", http.open },
        { "max_open_connections", http.maxOpen }, { "refused", refused } });
}

} // namespace structscope
