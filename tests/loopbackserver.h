// SPDX-License-Identifier: Apache-2.0
#pragma once
// A tiny HTTP/1.1 server on 127.0.0.1 for the runner tests: each request goes to a handler that may
// answer at once, later, badly, never, or drop the connection. It counts requests in flight.
#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <functional>
#include <memory>
#include <utility>

namespace structscope::testing {

struct ReceivedRequest
{
    QByteArray method;
    QByteArray path;
    QList<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body;
    qint64 atMs = 0; ///< when it was complete, on the server's clock

    QByteArray header(const QByteArray& name) const
    {
        for (const auto& [n, v] : headers) {
            if (n.compare(name, Qt::CaseInsensitive) == 0)
                return v;
        }
        return {};
    }
};

class LoopbackServer;

/// Answers one request; copyable, answers at most once.
class Responder
{
public:
    Responder(LoopbackServer* server, QTcpSocket* socket, QByteArray key)
        : m_server(server)
        , m_socket(socket)
        , m_key(std::move(key))
        , m_answered(std::make_shared<bool>(false))
    { }

    void send(int status, const QByteArray& body, QList<std::pair<QByteArray, QByteArray>> headers = {},
        const QByteArray& contentType = "application/json")
    {
        QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + " " + reason(status) + "\r\n";
        head += "Content-Type: " + contentType + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
        for (const auto& [name, value] : headers)
            head += name + ": " + value + "\r\n";
        raw(head + "\r\n" + body);
    }

    /// Writes a chunked body, one HTTP chunk per element.
    void sendChunked(int status, const QList<QByteArray>& chunks, const QByteArray& contentType)
    {
        QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + " " + reason(status)
            + "\r\nContent-Type: " + contentType + "\r\nTransfer-Encoding: chunked\r\n\r\n";
        for (const QByteArray& chunk : chunks) {
            if (!chunk.isEmpty())
                out += QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n";
        }
        raw(out + "0\r\n\r\n");
    }

    /// Writes bytes as they are; `close` closes the connection afterwards.
    void raw(const QByteArray& bytes, bool close = false);
    /// Closes the connection without an answer.
    void drop();
    /// The connection, for tests that write to it themselves (null once it is gone).
    QTcpSocket* socket() const { return m_socket; }
    /// Answers later (the connection may be gone by then; then nothing happens).
    void later(int ms, std::function<void(Responder)> answer)
    {
        Responder self = *this;
        QTimer::singleShot(ms, [self, answer = std::move(answer)] { answer(self); });
    }

private:
    static QByteArray reason(int status)
    {
        switch (status) {
        case 200:
            return "OK";
        case 400:
            return "Bad Request";
        case 401:
            return "Unauthorized";
        case 429:
            return "Too Many Requests";
        case 500:
            return "Internal Server Error";
        case 502:
            return "Bad Gateway";
        default:
            return "Status";
        }
    }
    void done();

    LoopbackServer* m_server;
    QPointer<QTcpSocket> m_socket;
    QByteArray m_key; ///< what the server counts in flight under (e.g. the model)
    std::shared_ptr<bool> m_answered;
};

class LoopbackServer
{
public:
    using Handler = std::function<void(const ReceivedRequest&, Responder)>;
    /// Names the in-flight group of a request (default: one group for all).
    using Grouper = std::function<QByteArray(const ReceivedRequest&)>;

    explicit LoopbackServer(Handler handler, Grouper grouper = {})
        : m_handler(std::move(handler))
        , m_grouper(std::move(grouper))
    {
        m_clock.start();
        QObject::connect(&m_server, &QTcpServer::newConnection, &m_server, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection())
                accept(socket);
        });
    }

    ~LoopbackServer()
    {
        // The connections are the server's children: destroying them emits disconnected(), whose
        // handlers would reach a half-destroyed socket and this half-destroyed server.
        for (QTcpSocket* socket : m_server.findChildren<QTcpSocket*>())
            QObject::disconnect(socket, nullptr, nullptr, nullptr);
    }
    LoopbackServer(const LoopbackServer&) = delete;
    LoopbackServer& operator=(const LoopbackServer&) = delete;

    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    QString baseUrl(const QString& path = QString()) const
    {
        return QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort()) + path;
    }
    qint64 elapsedMs() const { return m_clock.elapsed(); }

    QList<ReceivedRequest> requests;
    int inFlight = 0;
    int maxInFlight = 0;
    QHash<QByteArray, int> groupInFlight;
    QHash<QByteArray, int> groupMaxInFlight;

    void finishedOne(const QByteArray& key)
    {
        --inFlight;
        --groupInFlight[key];
    }

private:
    struct Connection
    {
        QByteArray buffer;
    };

    void accept(QTcpSocket* socket)
    {
        auto connection = std::make_shared<Connection>();
        QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket, connection] {
            connection->buffer += socket->readAll();
            parse(socket, *connection);
        });
        QObject::connect(socket, &QTcpSocket::disconnected, socket, [socket] { socket->deleteLater(); });
    }

    void parse(QTcpSocket* socket, Connection& connection)
    {
        for (;;) {
            const qsizetype end = connection.buffer.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            ReceivedRequest request;
            const QList<QByteArray> lines = connection.buffer.left(end).split('\n');
            const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
            request.method = first.value(0);
            request.path = first.value(1);
            qsizetype length = 0;
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const qsizetype colon = lines[i].indexOf(':');
                if (colon < 0)
                    continue;
                const QByteArray name = lines[i].left(colon).trimmed();
                const QByteArray value = lines[i].mid(colon + 1).trimmed();
                request.headers.append({ name, value });
                if (name.compare("Content-Length", Qt::CaseInsensitive) == 0)
                    length = value.toLongLong();
            }
            if (connection.buffer.size() < end + 4 + length)
                return;
            request.body = connection.buffer.mid(end + 4, length);
            connection.buffer.remove(0, end + 4 + length);
            request.atMs = m_clock.elapsed();
            const QByteArray key = m_grouper ? m_grouper(request) : QByteArray();
            ++inFlight;
            maxInFlight = std::max(maxInFlight, inFlight);
            const int group = ++groupInFlight[key];
            groupMaxInFlight[key] = std::max(groupMaxInFlight.value(key), group);
            requests.append(request);
            Responder responder(this, socket, key);
            // A request whose client hangs up is no longer in flight.
            QObject::connect(socket, &QTcpSocket::disconnected, socket, [responder]() mutable { responder.drop(); });
            m_handler(request, responder);
        }
    }

    QTcpServer m_server;
    Handler m_handler;
    Grouper m_grouper;
    QElapsedTimer m_clock;
};

inline void Responder::raw(const QByteArray& bytes, bool close)
{
    if (*m_answered)
        return;
    done();
    if (!m_socket)
        return;
    m_socket->write(bytes);
    if (close)
        m_socket->disconnectFromHost();
}

inline void Responder::drop()
{
    if (*m_answered)
        return;
    done();
    if (m_socket)
        m_socket->abort();
}

inline void Responder::done()
{
    *m_answered = true;
    m_server->finishedOne(m_key);
}

} // namespace structscope::testing
