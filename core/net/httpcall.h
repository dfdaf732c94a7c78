// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "providers/providerreply.h"
#include "providers/providerrequest.h"
#include "providers/responsedecoder.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;

namespace structscope {

/// The three clocks of a call.
struct CallTimeouts
{
    std::chrono::milliseconds connect { 15000 }; ///< from start until the request is sent
    std::chrono::milliseconds idle { 180000 }; ///< without a byte from the server once sent
    std::chrono::milliseconds total { 600000 }; ///< for the whole call
};

/// How one HTTP call ended.
struct HttpOutcome
{
    int httpStatus = 0; ///< 0 when no response arrived
    ProviderReply reply;
    QByteArray retryAfter; ///< the Retry-After header, raw
    double latencyMs = 0;
    std::optional<double> ttftMs;
};

/// One chat request in flight through a QNetworkAccessManager, never blocking: reads the body as it
/// arrives into a ResponseDecoder (stopping at its size limit), enforces the timeouts, and reports
/// exactly once through the callback — also for abort(), with ErrorKind::Cancelled.
///
/// Redirects are followed within the request's origin (scheme, host and port) only, at most five: the key
/// and the extra headers never go to another server. A redirect to another origin ends the call with
/// ErrorKind::MalformedBody and a message naming both origins; nothing is sent to the other one.
class HttpCall : public QObject
{
public:
    using Callback = std::function<void(const HttpOutcome&)>;

    HttpCall(QNetworkAccessManager& nam, HttpRequestSpec request, std::unique_ptr<ResponseDecoder> decoder,
        const CallTimeouts& timeouts, QObject* parent = nullptr);
    ~HttpCall() override;

    void start(Callback done);
    /// Stops the call; the callback runs with ErrorKind::Cancelled before this returns.
    void abort();

private:
    enum class Stop { None, ConnectTimeout, IdleTimeout, TotalTimeout, TooBig, Cancelled, CrossOriginRedirect };

    void onRedirected(const QUrl& target);
    void onReadyRead();
    void onFinished();
    void stop(Stop why);
    void report(const HttpOutcome& outcome);

    QNetworkAccessManager& m_nam;
    HttpRequestSpec m_request;
    std::unique_ptr<ResponseDecoder> m_decoder;
    CallTimeouts m_timeouts;
    Callback m_done;
    QPointer<QNetworkReply> m_reply;
    QElapsedTimer m_clock;
    QTimer m_connectTimer;
    QTimer m_idleTimer;
    QTimer m_totalTimer;
    std::optional<double> m_ttft;
    QUrl m_redirectTarget; ///< the other origin a redirect pointed to
    Stop m_stop = Stop::None;
    bool m_reported = false;
};

} // namespace structscope
