// SPDX-License-Identifier: Apache-2.0
#include "sim/boundedhttpserver.h"

#include "util/printable.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <sys/socket.h>

using namespace Qt::StringLiterals;

namespace structscope {

QByteArray httpReasonPhrase(int status)
{
    switch (status) {
    case 100:
        return "Continue";
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 411:
        return "Length Required";
    case 413:
        return "Payload Too Large";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Unknown";
    }
}

namespace {

QByteArray responseHead(
    int status, const QByteArray& contentType, const QList<std::pair<QByteArray, QByteArray>>& extra, bool close)
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + httpReasonPhrase(status) + "\r\n";
    if (!contentType.isEmpty())
        head += "Content-Type: " + contentType + "\r\n";
    for (const auto& [name, value] : extra)
        head += name + ": " + value + "\r\n";
    if (close)
        head += "Connection: close\r\n";
    return head;
}

QByteArray errorJson(const QString& message)
{
    QByteArray escaped;
    for (const char c : message.toUtf8()) {
        if (c == '"' || c == '\\')
            escaped += '\\';
        escaped += c;
    }
    return R"({"error": {"message": ")" + escaped + R"(", "type": "invalid_request_error"}})";
}

} // namespace

/// One client connection: reads a request's head and body within the limits, hands the request to the server's
/// handler and waits for the exchange to be answered before it reads the next one.
class HttpConnection : public QObject
{
public:
    HttpConnection(BoundedHttpServer* server, QTcpSocket* socket)
        : QObject(server)
        , m_server(server)
        , m_socket(socket)
    {
        socket->setParent(this);
        // While a request is answered, at most this much of the next one waits in Qt's buffer; the rest stays
        // in the kernel and the client's sends block.
        socket->setReadBufferSize(m_server->m_limits.maxHeadBytes);
        m_deadline.setSingleShot(true);
        connect(&m_deadline, &QTimer::timeout, this, [this] { deadlinePassed(); });
        connect(socket, &QTcpSocket::readyRead, this, [this] { readMore(); });
        connect(socket, &QTcpSocket::disconnected, this, [this] { closed(); });
        startDeadline(Phase::Idle);
    }

    QTcpSocket* socket() const { return m_closed ? nullptr : m_socket; }

    void write(const QByteArray& data)
    {
        if (!m_closed)
            m_socket->write(data);
    }

    /// The exchange has been answered: go on with the next request, or close.
    void exchangeDone()
    {
        m_phase = Phase::Idle;
        if (m_closeAfter) {
            closeConnection();
            return;
        }
        startDeadline(m_in.isEmpty() ? Phase::Idle : Phase::Head);
        // Input that arrived while the answer was made: parse what is buffered and read what waits.
        QTimer::singleShot(0, this, [self = QPointer<HttpConnection>(this)] {
            if (self)
                self->readMore();
        });
    }

    bool closeAfterAnswer() const { return m_closeAfter; }

private:
    enum class Phase { Idle, Head, Body, Answering, Closing };

    void startDeadline(Phase phase)
    {
        m_phase = phase;
        const HttpLimits& limits = m_server->m_limits;
        switch (phase) {
        case Phase::Idle:
            m_deadline.start(limits.idleTimeoutMs);
            break;
        case Phase::Head:
            m_deadline.start(limits.headTimeoutMs);
            break;
        case Phase::Body:
            m_deadline.start(limits.bodyTimeoutMs);
            break;
        case Phase::Answering:
        case Phase::Closing:
            m_deadline.stop();
            break;
        }
    }

    void readMore()
    {
        if (m_closed || m_phase == Phase::Answering)
            return;
        if (m_phase == Phase::Closing) {
            m_socket->skip(m_socket->bytesAvailable());
            return;
        }
        const qint64 room = m_phase == Phase::Body ? m_bodyLength - (m_in.size() - m_headLength)
                                                   : qint64(m_server->m_limits.maxHeadBytes) + 1 - m_in.size();
        if (room > 0)
            m_in += m_socket->read(room);
        if (m_phase == Phase::Idle && !m_in.isEmpty())
            startDeadline(Phase::Head);
        parse();
    }

    void parse()
    {
        if (m_phase == Phase::Head || m_phase == Phase::Idle) {
            // Empty lines before a request line are ignored (RFC 9112 §2.2).
            while (m_in.startsWith("\r\n"))
                m_in.remove(0, 2);
            if (m_in.isEmpty()) {
                if (m_phase == Phase::Head)
                    startDeadline(Phase::Idle);
                return;
            }
            const qsizetype end = m_in.indexOf("\r\n\r\n");
            if (end < 0 || end + 4 > m_server->m_limits.maxHeadBytes) {
                if (end >= 0 || m_in.size() > m_server->m_limits.maxHeadBytes)
                    refuse(431, u"request headers over %1 bytes"_s.arg(m_server->m_limits.maxHeadBytes));
                return;
            }
            if (!parseHead(QByteArrayView(m_in).first(end)))
                return;
            m_headLength = end + 4;
            startDeadline(Phase::Body);
            if (m_bodyLength > 0 && m_in.size() == m_headLength
                && m_request.header("Expect").compare("100-continue", Qt::CaseInsensitive) == 0)
                write("HTTP/1.1 100 Continue\r\n\r\n");
        }
        if (m_phase == Phase::Body) {
            if (m_in.size() - m_headLength < m_bodyLength) {
                // Read what the socket holds beyond what came with the head.
                if (m_socket->bytesAvailable() > 0)
                    readMore();
                return;
            }
            m_request.body = m_in.mid(m_headLength, m_bodyLength);
            m_in.remove(0, m_headLength + m_bodyLength);
            m_headLength = 0;
            m_bodyLength = 0;
            startDeadline(Phase::Answering);
            HttpRequest request = std::move(m_request);
            m_request = {};
            if (m_server->m_handler)
                m_server->m_handler(request, std::make_shared<HttpExchange>(this));
        }
    }

    bool parseHead(QByteArrayView head)
    {
        HttpHead parsed = parseHttpHead(head, m_server->m_limits.maxBodyBytes);
        if (parsed.status != 0) {
            refuse(parsed.status, parsed.problem);
            return false;
        }
        m_request = std::move(parsed.request);
        m_bodyLength = parsed.bodyLength;
        m_closeAfter = parsed.closeAfter;
        return true;
    }

    void deadlinePassed()
    {
        switch (m_phase) {
        case Phase::Idle:
            ++m_server->m_counters.timedOut;
            closeConnection();
            break;
        case Phase::Head:
            refuse(408, u"the request headers did not arrive in time"_s);
            break;
        case Phase::Body:
            refuse(408, u"the request body did not arrive in time"_s);
            break;
        case Phase::Answering:
        case Phase::Closing:
            break;
        }
    }

    // Answers with an error of the server's own and closes the connection: what the client sent after the
    // failure point is never read.
    void refuse(int status, const QString& why)
    {
        HttpCounters& counters = m_server->m_counters;
        if (status == 413 || status == 431)
            ++counters.tooLarge;
        else if (status == 408)
            ++counters.timedOut;
        else
            ++counters.malformed;
        const QByteArray body = errorJson(why);
        write(responseHead(status, "application/json", { { "Content-Length", QByteArray::number(body.size()) } }, true)
            + "\r\n" + body);
        m_server->refuse(status, why);
        closeConnection();
    }

    // A lingering close: the answer is sent and the sending side shut, and what the client still sends is read
    // and dropped until it closes too. Closing with unread input would reset the connection, and the client could
    // lose the answer (a 413 sent before its body was read, say). A client that does not close in time is cut off.
    void closeConnection()
    {
        if (m_closed || m_phase == Phase::Closing)
            return;
        startDeadline(Phase::Closing);
        m_in.clear();
        QTimer::singleShot(kLingerMs, this, [this] {
            m_socket->abort();
            closed();
        });
        m_socket->flush();
        if (m_socket->bytesToWrite() == 0) {
            shutdownSending();
        } else {
            connect(m_socket, &QTcpSocket::bytesWritten, this, [this] {
                if (m_socket->bytesToWrite() == 0)
                    shutdownSending();
            });
        }
        readMore();
    }

    void shutdownSending()
    {
        if (!m_closed && m_socket->socketDescriptor() >= 0)
            ::shutdown(int(m_socket->socketDescriptor()), SHUT_WR);
    }

    static constexpr int kLingerMs = 2000;

    void closed()
    {
        if (m_closed)
            return;
        m_closed = true;
        m_deadline.stop();
        m_server->connectionClosed();
        deleteLater();
    }

    BoundedHttpServer* m_server;
    QTcpSocket* m_socket;
    QTimer m_deadline;
    Phase m_phase = Phase::Idle;
    QByteArray m_in;
    qsizetype m_headLength = 0;
    qint64 m_bodyLength = 0;
    HttpRequest m_request;
    bool m_closeAfter = false;
    bool m_closed = false;
};

HttpExchange::HttpExchange(HttpConnection* connection)
    : m_connection(connection)
{ }

HttpConnection* HttpExchange::connection() const
{
    return static_cast<HttpConnection*>(m_connection.data());
}

bool HttpExchange::alive() const
{
    return connection() && connection()->socket();
}

QTcpSocket* HttpExchange::socket() const
{
    return connection() ? connection()->socket() : nullptr;
}

void HttpExchange::send(int status, const QByteArray& contentType, const QByteArray& body,
    const QList<std::pair<QByteArray, QByteArray>>& extra)
{
    if (m_state != State::Waiting || !alive())
        return;
    m_state = State::Done;
    HttpConnection* c = connection();
    QList<std::pair<QByteArray, QByteArray>> headers = extra;
    headers.append({ "Content-Length", QByteArray::number(body.size()) });
    c->write(responseHead(status, contentType, headers, c->closeAfterAnswer()) + "\r\n" + body);
    c->exchangeDone();
}

void HttpExchange::startChunked(int status, const QByteArray& contentType)
{
    if (m_state != State::Waiting || !alive())
        return;
    m_state = State::Chunking;
    HttpConnection* c = connection();
    c->write(responseHead(status, contentType, { { "Transfer-Encoding", "chunked" } }, c->closeAfterAnswer()) + "\r\n");
}

void HttpExchange::chunk(const QByteArray& data)
{
    if (m_state != State::Chunking || !alive() || data.isEmpty())
        return;
    connection()->write(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
}

void HttpExchange::endChunked()
{
    if (m_state != State::Chunking || !alive())
        return;
    m_state = State::Done;
    HttpConnection* c = connection();
    c->write("0\r\n\r\n");
    c->exchangeDone();
}

BoundedHttpServer::BoundedHttpServer(QObject* parent)
    : QObject(parent)
    , m_tcp(new QTcpServer(this))
{
    connect(m_tcp, &QTcpServer::newConnection, this, &BoundedHttpServer::acceptPending);
}

BoundedHttpServer::~BoundedHttpServer() = default;

quint16 BoundedHttpServer::listen(const QHostAddress& address, quint16 port)
{
    if (!m_tcp->listen(address, port))
        return 0;
    return m_tcp->serverPort();
}

void BoundedHttpServer::acceptPending()
{
    while (QTcpSocket* socket = m_tcp->nextPendingConnection()) {
        if (m_counters.open >= m_limits.maxConnections) {
            ++m_counters.refused;
            const QByteArray body = errorJson(u"too many open connections"_s);
            socket->write(responseHead(503, "application/json",
                              { { "Content-Length", QByteArray::number(body.size()) }, { "Retry-After", "1" } }, true)
                + "\r\n" + body);
            socket->disconnectFromHost();
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            if (socket->state() == QAbstractSocket::UnconnectedState)
                socket->deleteLater();
            emit refusalLogged(u"→ 503 over the cap of %1 open connections"_s.arg(m_limits.maxConnections));
            continue;
        }
        ++m_counters.open;
        m_counters.maxOpen = std::max(m_counters.maxOpen, m_counters.open);
        new HttpConnection(this, socket);
    }
}

void BoundedHttpServer::connectionClosed()
{
    --m_counters.open;
}

void BoundedHttpServer::refuse(int status, const QString& what)
{
    emit refusalLogged(u"→ %1 %2"_s.arg(QString::number(status), printableText(what, 200)));
}

} // namespace structscope
