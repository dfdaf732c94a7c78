// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "sim/boundedhttpserver.h"
#include "sim/simchat.h"

#include <QHash>
#include <QHostAddress>
#include <QObject>
#include <QRandomGenerator>

namespace structscope {

/// How serve-sim behaves.
struct SimServerOptions
{
    double latencyMs = 0; ///< every answer is sent this much later (never blocking the server)
    double faultRate = 0; ///< share of chat requests answered with a fault (429, 500, no answer, bad body)
    int retryAfterSeconds = 1; ///< the Retry-After of an injected 429
    quint32 seed = 1; ///< the fault dice are seeded: the same requests meet the same faults
    HttpLimits limits; ///< what one client may cost: body size, deadlines, open connections
};

/// What serve-sim has seen, for people (GET /_structscope/stats) and tests.
struct SimServerStats
{
    qint64 requests = 0; ///< chat requests
    qint64 unknownCases = 0; ///< chat requests that matched no case
    int inFlight = 0;
    int maxInFlight = 0;
    QHash<QString, qint64> perCase; ///< case id → chat requests
    QHash<QString, qint64> faults; ///< "rate_limited", "server_error", "no_answer", "malformed" → count
};

/// A loopback server that speaks the OpenAI-compatible (GET /v1/models, POST /v1/chat/completions,
/// streaming too) and Ollama (GET /api/tags, POST /api/chat, streaming too) APIs, with the simulated
/// profiles as its models. It recognises a request's case by the X-StructScope-Case header, else by the
/// case input inside the last user message; an unknown prompt gets a minimal instance of the requested
/// schema. Faults and latency are injected as the options say. Any OpenAI or Ollama client works with it.
/// Requests over the limits of SimServerOptions::limits are refused by BoundedHttpServer; what it logs of a
/// request (model names, case ids, errors) holds only printable characters.
class SimServer : public QObject
{
    Q_OBJECT
public:
    explicit SimServer(QObject* parent = nullptr);
    ~SimServer() override;

    void addSuite(const SuitePtr& suite);
    const SimCatalog& catalog() const { return m_catalog; }
    void setOptions(const SimServerOptions& options);

    /// Starts listening; returns the port (0 when it could not listen).
    quint16 listen(const QHostAddress& address = QHostAddress::LocalHost, quint16 port = 0);
    quint16 port() const { return m_port; }

    const SimServerStats& stats() const { return m_stats; }
    /// What the HTTP layer refused (bodies over the limit, timeouts, connections over the cap).
    const HttpCounters& httpCounters() const { return m_http->counters(); }

signals:
    /// One line per request, for a log ("POST /v1/chat/completions careful st-001 → 200"); printable only.
    void requestLogged(const QString& line);

private:
    void route(const HttpRequest& request, const std::shared_ptr<HttpExchange>& exchange);
    void handleChat(SimApi api, const HttpRequest& request, const std::shared_ptr<HttpExchange>& pending);
    QByteArray statsJson() const;

    BoundedHttpServer* m_http;
    SimCatalog m_catalog;
    SimServerOptions m_options;
    QRandomGenerator m_dice;
    SimServerStats m_stats;
    quint16 m_port = 0;
};

} // namespace structscope
