// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "net/httpcall.h"
#include "providers/errorkind.h"
#include "providers/modelspec.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <memory>

class QNetworkAccessManager;

namespace structscope {

/// How a connection test ended.
struct ConnectionTestResult
{
    bool ok = false; ///< the endpoint answered the chat request (a cut-off answer counts)
    bool simulated = false; ///< a simulated model: nothing was sent
    ErrorKind error = ErrorKind::None;
    int httpStatus = 0; ///< 0 when no HTTP response arrived
    double latencyMs = 0;
    QString model; ///< ModelSpec::label()
    QString message; ///< one or two sentences for a person: what happened, and what to check
};

/// Sends one small chat request ("reply with OK", a few output tokens) to a model endpoint through the
/// runner's own request path (buildHttpRequest, HttpCall, the provider's decoder) and tells whether it
/// answered, or why not. Asynchronous on the thread it lives in; the API key is read from the spec's
/// variable when the request is made and never kept or shown.
class ConnectionTest : public QObject
{
    Q_OBJECT
public:
    explicit ConnectionTest(QObject* parent = nullptr);
    ~ConnectionTest() override;

    /// Starts a test (aborting one in flight). finished() always follows, never before this returns.
    void start(const ModelSpec& given, const CallTimeouts& timeouts = defaultTimeouts());
    void abort();
    bool isRunning() const { return m_call != nullptr; }
    /// Whether a key may go over plain http to a host that is not loopback (insecureKeyProblem()).
    void setAllowInsecureKey(bool allow) { m_allowInsecureKey = allow; }

    static CallTimeouts defaultTimeouts();

Q_SIGNALS:
    void finished(const structscope::ConnectionTestResult& result);

private:
    void report(const ModelSpec& spec, bool hasKey, const HttpOutcome& outcome);

    std::unique_ptr<QNetworkAccessManager> m_nam;
    HttpCall* m_call = nullptr;
    quint64 m_generation = 0;
    bool m_allowInsecureKey = false;
};

} // namespace structscope

Q_DECLARE_METATYPE(structscope::ConnectionTestResult)
