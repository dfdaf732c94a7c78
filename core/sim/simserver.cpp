#include "sim/simserver.h"

#include "sim/simprofile.h"

#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QPointer>
#include <QTcpSocket>
#include <QTimer>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

using Status = QHttpServerResponder::StatusCode;

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

// A held request: answered later, or never. The socket may be gone by then.
struct Pending
{
    QHttpServerResponder responder;
    QPointer<QTcpSocket> socket;
    bool answered = false;

    explicit Pending(QHttpServerResponder&& r)
        : responder(std::move(r))
        , socket(responder.socket())
    { }

    bool alive() const { return socket && socket->state() == QAbstractSocket::ConnectedState; }

    void send(Status status, const QByteArray& body, const QByteArray& type, const QByteArray& extraName = {},
        const QByteArray& extraValue = {})
    {
        if (answered || !alive())
            return;
        answered = true;
        responder.writeStatusLine(status);
        responder.writeHeader("Content-Type", type);
        responder.writeHeader("Content-Length", QByteArray::number(body.size()));
        if (!extraName.isEmpty())
            responder.writeHeader(extraName, extraValue);
        responder.writeBody(body);
    }

    void startChunked(const QByteArray& type)
    {
        if (answered || !alive())
            return;
        responder.writeStatusLine(Status::Ok);
        responder.writeHeader("Content-Type", type);
        responder.writeHeader("Transfer-Encoding", "chunked");
    }

    void chunk(const QByteArray& data)
    {
        if (answered || !alive() || data.isEmpty())
            return;
        responder.writeBody(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
    }

    void endChunked()
    {
        if (answered || !alive())
            return;
        answered = true;
        responder.writeBody("0\r\n\r\n");
    }
};

} // namespace

SimServer::SimServer(QObject* parent)
    : QObject(parent)
    , m_server(std::make_unique<QHttpServer>())
    , m_dice(m_options.seed)
{
    m_server->route(u"/v1/models"_s, QHttpServerRequest::Method::Get, [] {
        json data = json::array();
        for (const SimProfile& p : simProfiles())
            data.push_back({ { "id", p.name.toStdString() }, { "object", "model" }, { "created", 0 },
                { "owned_by", "structscope-sim" }, { "description", "simulated: " + p.description.toStdString() } });
        return QHttpServerResponse("application/json", dump({ { "object", "list" }, { "data", data } }));
    });
    m_server->route(u"/api/tags"_s, QHttpServerRequest::Method::Get, [] {
        json models = json::array();
        for (const SimProfile& p : simProfiles())
            models.push_back({ { "name", p.name.toStdString() }, { "model", p.name.toStdString() }, { "size", 0 },
                { "details", { { "family", "structscope-sim" }, { "format", "simulated" } } } });
        return QHttpServerResponse("application/json", dump({ { "models", models } }));
    });
    m_server->route(u"/_structscope/stats"_s, QHttpServerRequest::Method::Get,
        [this] { return QHttpServerResponse("application/json", statsJson()); });
    m_server->route(u"/v1/chat/completions"_s, QHttpServerRequest::Method::Post,
        [this](const QHttpServerRequest& request, QHttpServerResponder&& responder) {
            handleChat(SimApi::OpenAI, request, std::move(responder));
        });
    m_server->route(u"/api/chat"_s, QHttpServerRequest::Method::Post,
        [this](const QHttpServerRequest& request, QHttpServerResponder&& responder) {
            handleChat(SimApi::Ollama, request, std::move(responder));
        });
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
}

quint16 SimServer::listen(const QHostAddress& address, quint16 port)
{
    m_port = m_server->listen(address, port);
    return m_port;
}

void SimServer::handleChat(SimApi api, const QHttpServerRequest& request, QHttpServerResponder&& responder)
{
    auto pending = std::make_shared<Pending>(std::move(responder));
    const QString path = api == SimApi::OpenAI ? u"/v1/chat/completions"_s : u"/api/chat"_s;
    QString error;
    auto chat = parseSimChatRequest(api, request.body(), &error);
    if (!chat) {
        pending->send(Status::BadRequest, errorBody(api, error), "application/json");
        emit requestLogged(u"POST %1 → 400 %2"_s.arg(path, error));
        return;
    }
    const SimProfile* profile = findSimProfile(profileName(chat->model));
    if (!profile) {
        QStringList names;
        for (const SimProfile& p : simProfiles())
            names << p.name;
        pending->send(Status::NotFound,
            errorBody(api, u"model '%1' not found; the simulated models are %2"_s.arg(chat->model, names.join(u", "_s)),
                "not_found_error"),
            "application/json");
        emit requestLogged(u"POST %1 %2 → 404"_s.arg(path, chat->model));
        return;
    }
    chat->caseId = QString::fromUtf8(QByteArray::fromPercentEncoding(request.value("X-StructScope-Case")));
    chat->repeat = request.value("X-StructScope-Repeat").toInt();

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
        answer.caseId.isEmpty() ? u"(unknown prompt)"_s : answer.caseId, fault.isEmpty() ? u"200"_s : fault));

    const auto finish = [this, pending] {
        --m_stats.inFlight;
        Q_UNUSED(pending);
    };
    if (fault == u"no_answer"_s) {
        // Never answered: the client's timeout has to notice. Held until the client hangs up.
        if (pending->socket) {
            connect(pending->socket, &QTcpSocket::disconnected, this, [pending, finish] { finish(); });
        } else {
            finish();
        }
        return;
    }
    // The answer is made now and only sent when the latency has passed (a model computes while the client
    // waits): what the client measures is the latency asked for, not that plus this server's work.
    struct Prepared
    {
        Status status = Status::Ok;
        QByteArray type = "application/json";
        QByteArray body;
        QList<QByteArray> chunks; ///< a streamed answer
        QByteArray retryAfter;
    };
    Prepared reply;
    if (fault == u"rate_limited"_s) {
        reply.status = Status::TooManyRequests;
        reply.body = errorBody(api, u"simulated rate limit"_s, "rate_limit_error");
        reply.retryAfter = QByteArray::number(m_options.retryAfterSeconds);
    } else if (fault == u"server_error"_s) {
        reply.status = Status::InternalServerError;
        reply.body = errorBody(api, u"simulated server error"_s, "server_error");
    } else if (fault == u"malformed"_s) {
        // Alternately a cut body and a proxy's HTML page.
        if (m_stats.faults.value(fault) % 2) {
            reply.body = (api == SimApi::OpenAI ? simOpenAiBody(answer, chat->model)
                                                : simOllamaBody(answer, chat->model))
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
            pending->startChunked(reply.type);
            for (const QByteArray& part : reply.chunks)
                pending->chunk(part);
            pending->endChunked();
        } else if (!reply.retryAfter.isEmpty()) {
            pending->send(reply.status, reply.body, reply.type, "Retry-After", reply.retryAfter);
        } else {
            pending->send(reply.status, reply.body, reply.type);
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
    return dump({ { "requests", m_stats.requests }, { "unknown_cases", m_stats.unknownCases },
        { "in_flight", m_stats.inFlight }, { "max_in_flight", m_stats.maxInFlight }, { "per_case", perCase },
        { "faults", faults }, { "suites", suites } });
}

} // namespace structscope
