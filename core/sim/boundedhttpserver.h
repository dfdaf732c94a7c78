// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "util/httphead.h"

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>
#include <utility>

class QTcpServer;
class QTcpSocket;

namespace structscope {

/// What one client may cost the server. A request over a limit is answered with its status and the connection
/// closed; nothing of it is buffered past the limit.
struct HttpLimits
{
    qint64 maxBodyBytes
        = qint64(16) * 1024 * 1024; ///< a larger Content-Length is refused with 413 before the body is read
    int maxHeadBytes = 64 * 1024; ///< request line and headers; more is refused with 431
    int headTimeoutMs = 10'000; ///< from a request's first byte to the end of its headers; then 408
    int bodyTimeoutMs = 60'000; ///< from the end of the headers to the last byte of the body; then 408
    int idleTimeoutMs = 30'000; ///< a kept-alive connection without a request is closed after this
    int maxConnections = 256; ///< further connections are answered 503 and closed at once
};

/// What the server has refused, for the stats page and tests.
struct HttpCounters
{
    qint64 tooLarge = 0; ///< 413 and 431
    qint64 timedOut = 0; ///< 408, and idle connections closed
    qint64 refused = 0; ///< 503: over the connection cap
    qint64 malformed = 0; ///< 400, 411, 505
    int open = 0;
    int maxOpen = 0;
};

class HttpConnection;

/// The answer to one request; answers at most once. The client may hang up at any time: then every call is a
/// no-op and alive() is false.
class HttpExchange
{
public:
    explicit HttpExchange(HttpConnection* connection);

    bool alive() const;
    bool answered() const { return m_state == State::Done; }
    /// The client's socket while the connection is open (to watch for it hanging up), else null.
    QTcpSocket* socket() const;

    void send(int status, const QByteArray& contentType, const QByteArray& body,
        const QList<std::pair<QByteArray, QByteArray>>& extraHeaders = {});
    void startChunked(int status, const QByteArray& contentType);
    void chunk(const QByteArray& data);
    void endChunked();

private:
    enum class State { Waiting, Chunking, Done };
    HttpConnection* connection() const;

    QPointer<QObject> m_connection; ///< an HttpConnection; null once the client has gone
    State m_state = State::Waiting;
};

/// A small HTTP/1.1 server for serve-sim that a hostile or broken client cannot exhaust: bodies need a
/// Content-Length within HttpLimits::maxBodyBytes (answering "Expect: 100-continue"), headers and bodies have
/// deadlines, idle connections are closed, and the number of open connections is capped. Keep-alive and
/// pipelined requests are served in order, one at a time per connection; while a request is being answered,
/// the connection's further input stays in the kernel (the client is slowed down, not buffered).
class BoundedHttpServer : public QObject
{
    Q_OBJECT
public:
    using Handler = std::function<void(const HttpRequest&, std::shared_ptr<HttpExchange>)>;

    explicit BoundedHttpServer(QObject* parent = nullptr);
    ~BoundedHttpServer() override;

    void setLimits(const HttpLimits& limits) { m_limits = limits; }
    const HttpLimits& limits() const { return m_limits; }
    void setHandler(Handler handler) { m_handler = std::move(handler); }

    /// Starts listening; returns the port (0 when it could not listen).
    quint16 listen(const QHostAddress& address, quint16 port);

    const HttpCounters& counters() const { return m_counters; }

signals:
    /// A request refused by the server itself (413, 431, 408, 400, 411, 503), one line for a log. Its text
    /// holds only printable characters.
    void refusalLogged(const QString& line);

private:
    friend class HttpConnection;
    void acceptPending();
    void connectionClosed();
    void refuse(int status, const QString& what);

    QTcpServer* m_tcp;
    HttpLimits m_limits;
    HttpCounters m_counters;
    Handler m_handler;
};

/// The reason phrase of an HTTP status ("Payload Too Large"); "Unknown" for one this server never sends.
QByteArray httpReasonPhrase(int status);

} // namespace structscope
