// SPDX-License-Identifier: Apache-2.0
#include "net/httpcall.h"

#include "providers/modelspec.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

constexpr int kMaxRedirects = 5;

QString seconds(std::chrono::milliseconds ms)
{
    return QString::number(double(ms.count()) / 1000.0, 'g', 4) + u" s"_s;
}

} // namespace

HttpCall::HttpCall(QNetworkAccessManager& nam, HttpRequestSpec request, std::unique_ptr<ResponseDecoder> decoder,
    const CallTimeouts& timeouts, QObject* parent)
    : QObject(parent)
    , m_nam(nam)
    , m_request(std::move(request))
    , m_decoder(std::move(decoder))
    , m_timeouts(timeouts)
{
    for (QTimer* timer : { &m_connectTimer, &m_idleTimer, &m_totalTimer })
        timer->setSingleShot(true);
    connect(&m_connectTimer, &QTimer::timeout, this, [this] { stop(Stop::ConnectTimeout); });
    connect(&m_idleTimer, &QTimer::timeout, this, [this] { stop(Stop::IdleTimeout); });
    connect(&m_totalTimer, &QTimer::timeout, this, [this] { stop(Stop::TotalTimeout); });
}

HttpCall::~HttpCall()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
    }
}

void HttpCall::start(Callback done)
{
    m_done = std::move(done);
    QNetworkRequest request(m_request.url);
    for (const auto& [name, value] : std::as_const(m_request.headers))
        request.setRawHeader(name, value);
    request.setTransferTimeout(0); // our own clocks tell the three timeouts apart
    // Qt's default policy follows a redirect to any host, with every header: each one is checked here.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::UserVerifiedRedirectPolicy);
    request.setMaximumRedirectsAllowed(kMaxRedirects);
    m_clock.start();
    m_reply = m_nam.post(request, m_request.body);
    m_connectTimer.start(m_timeouts.connect);
    m_totalTimer.start(m_timeouts.total);
    connect(m_reply, &QNetworkReply::requestSent, this, [this] {
        m_connectTimer.stop();
        m_idleTimer.start(m_timeouts.idle);
    });
    connect(m_reply, &QNetworkReply::metaDataChanged, this, [this] {
        if (m_idleTimer.isActive())
            m_idleTimer.start(m_timeouts.idle);
    });
    connect(m_reply, &QNetworkReply::redirected, this, &HttpCall::onRedirected);
    connect(m_reply, &QNetworkReply::readyRead, this, &HttpCall::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &HttpCall::onFinished);
}

void HttpCall::abort()
{
    stop(Stop::Cancelled);
}

void HttpCall::onRedirected(const QUrl& target)
{
    if (!m_reply || m_stop != Stop::None)
        return;
    const QUrl next = m_reply->url().resolved(target);
    if (urlOrigin(next) == urlOrigin(m_request.url)) {
        Q_EMIT m_reply->redirectAllowed();
        return;
    }
    m_redirectTarget = next;
    stop(Stop::CrossOriginRedirect);
}

void HttpCall::onReadyRead()
{
    if (!m_reply || m_stop != Stop::None)
        return;
    m_connectTimer.stop();
    m_idleTimer.start(m_timeouts.idle);
    const QByteArray chunk = m_reply->readAll();
    if (!m_decoder->feed(chunk)) {
        stop(Stop::TooBig);
        return;
    }
    if (!m_ttft && m_decoder->firstTokenSeen())
        m_ttft = double(m_clock.nsecsElapsed()) / 1e6;
}

void HttpCall::stop(Stop why)
{
    if (m_reported || m_stop != Stop::None)
        return;
    m_stop = why;
    if (m_reply)
        m_reply->abort(); // emits finished, which reports
    if (!m_reported)
        onFinished();
}

void HttpCall::onFinished()
{
    if (m_reported)
        return;
    for (QTimer* timer : { &m_connectTimer, &m_idleTimer, &m_totalTimer })
        timer->stop();
    HttpOutcome outcome;
    outcome.latencyMs = double(m_clock.nsecsElapsed()) / 1e6;
    outcome.ttftMs = m_ttft;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QString errorString;
    qint64 declaredLength = -1; // the body's Content-Length, when the server gave one
    if (m_reply) {
        outcome.httpStatus = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        outcome.retryAfter = m_reply->rawHeader("Retry-After");
        error = m_reply->error();
        errorString = m_reply->errorString();
        bool lengthOk = false;
        declaredLength = m_reply->rawHeader("Content-Length").toLongLong(&lengthOk);
        if (!lengthOk || !m_reply->rawHeader("Content-Encoding").isEmpty())
            declaredLength = -1; // a compressed body's length is not what arrives decoded
        if (m_stop == Stop::None && m_reply->bytesAvailable() > 0 && !m_decoder->feed(m_reply->readAll()))
            m_stop = Stop::TooBig;
    }
    // Every byte of the body the server declared arrived: a connection error after it (Qt reports one, now and then,
    // for the connection a followed redirect leaves behind) does not make the answer incomplete.
    const bool wholeBody
        = outcome.httpStatus != 0 && declaredLength >= 0 && m_decoder->bytesReceived() == declaredLength;
    switch (m_stop) {
    case Stop::Cancelled:
        outcome.reply = failedReply(ErrorKind::Cancelled, u"cancelled"_s);
        break;
    case Stop::ConnectTimeout:
        outcome.reply = failedReply(
            ErrorKind::Timeout, u"could not connect and send the request within %1"_s.arg(seconds(m_timeouts.connect)));
        break;
    case Stop::IdleTimeout:
        outcome.reply
            = failedReply(ErrorKind::Timeout, u"no data from the server for %1"_s.arg(seconds(m_timeouts.idle)));
        break;
    case Stop::TotalTimeout:
        outcome.reply
            = failedReply(ErrorKind::Timeout, u"no complete answer within %1"_s.arg(seconds(m_timeouts.total)));
        break;
    case Stop::CrossOriginRedirect:
        outcome.reply = failedReply(ErrorKind::MalformedBody,
            u"%1 redirected to %2, another origin; redirects are followed within one origin only, so that the "
            "key and headers stay with the server the model spec names"_s.arg(
                urlOrigin(m_request.url), urlOrigin(m_redirectTarget)));
        break;
    case Stop::TooBig:
        outcome.reply = m_decoder->finish(outcome.httpStatus ? outcome.httpStatus : 200);
        break;
    case Stop::None:
        if (error == QNetworkReply::ProtocolFailure && outcome.httpStatus == 0) {
            outcome.reply
                = failedReply(ErrorKind::MalformedBody, u"the server's reply is not valid HTTP: %1"_s.arg(errorString));
        } else if (error != QNetworkReply::NoError && !wholeBody && (outcome.httpStatus == 0 || int(error) < 200)) {
            // No HTTP answer, or the connection broke while the body was arriving.
            const QString when = outcome.httpStatus ? u" after HTTP %1 and %2 body bytes"_s.arg(
                                     QString::number(outcome.httpStatus), QString::number(m_decoder->bytesReceived()))
                                                    : QString();
            outcome.reply = failedReply(error == QNetworkReply::TimeoutError ? ErrorKind::Timeout : ErrorKind::Network,
                u"%1%2"_s.arg(errorString, when));
        } else {
            outcome.reply = m_decoder->finish(outcome.httpStatus);
        }
        break;
    }
    report(outcome);
}

void HttpCall::report(const HttpOutcome& outcome)
{
    m_reported = true;
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->deleteLater();
        m_reply = nullptr;
    }
    if (m_done) {
        // The callback may delete this call; nothing touches members after it.
        const Callback done = std::move(m_done);
        done(outcome);
    }
}

} // namespace structscope
