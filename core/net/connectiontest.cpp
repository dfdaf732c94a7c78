// SPDX-License-Identifier: Apache-2.0
#include "net/connectiontest.h"

#include "providers/promptbuilder.h"
#include "providers/providerrequest.h"
#include "providers/responsedecoder.h"

#include <QNetworkAccessManager>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

constexpr int kMaxTokens = 16;
constexpr qint64 kMaxBodyBytes = qint64(1024) * 1024;

QString hintFor(const ModelSpec& spec, bool hasKey, const HttpOutcome& outcome)
{
    const QString url = chatEndpoint(spec).toString();
    switch (outcome.reply.error) {
    case ErrorKind::Http4xx:
        if (outcome.httpStatus == 401 || outcome.httpStatus == 403) {
            if (spec.keyEnv.isEmpty())
                return u"The server wants an API key: name the environment variable that holds it."_s;
            if (!hasKey)
                return u"The server wants an API key, and %1 is not set in StructScope's environment."_s.arg(
                    spec.keyEnv);
            return u"The server refused the key in %1: check that it is valid for this server."_s.arg(spec.keyEnv);
        }
        if (outcome.httpStatus == 404)
            return u"Check the base URL (%1 was not found) and the model name."_s.arg(url);
        return u"Check the model name and the provider kind."_s;
    case ErrorKind::Http5xx:
        return u"The server failed; try again later."_s;
    case ErrorKind::RateLimited:
        return u"The server is reachable but limits the request rate; runs slow down and retry on 429."_s;
    case ErrorKind::Timeout:
        return u"No answer in time from %1: is the server running and the base URL right?"_s.arg(url);
    case ErrorKind::Network:
        return u"Cannot reach %1: is the server running and the base URL right?"_s.arg(url);
    case ErrorKind::MalformedBody:
        return u"The answer is not what a %1 server sends: check the base URL and the provider kind."_s.arg(
            providerKindName(spec.kind));
    default:
        return {};
    }
}

} // namespace

ConnectionTest::ConnectionTest(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<ConnectionTestResult>();
}

ConnectionTest::~ConnectionTest()
{
    abort();
}

CallTimeouts ConnectionTest::defaultTimeouts()
{
    using namespace std::chrono_literals;
    return { 10s, 30s, 45s };
}

void ConnectionTest::abort()
{
    ++m_generation; // the aborted call's report is dropped
    if (HttpCall* call = std::exchange(m_call, nullptr)) {
        call->abort();
        call->deleteLater();
    }
}

void ConnectionTest::start(const ModelSpec& given, const CallTimeouts& timeouts)
{
    abort();
    const quint64 generation = m_generation;
    ModelSpec spec = given;
    if (spec.isSimulated()) {
        ConnectionTestResult result;
        result.ok = true;
        result.simulated = true;
        result.model = spec.label();
        result.message
            = tr("%1 is a simulated model: it answers inside StructScope and needs no connection.").arg(spec.label());
        QTimer::singleShot(0, this, [this, generation, result] {
            if (generation == m_generation)
                Q_EMIT finished(result);
        });
        return;
    }
    if (const QString problem = insecureKeyProblem(spec, m_allowInsecureKey); !problem.isEmpty()) {
        ConnectionTestResult result;
        result.model = spec.label();
        result.message = tr("Not sent: %1.").arg(problem);
        QTimer::singleShot(0, this, [this, generation, result] {
            if (generation == m_generation)
                Q_EMIT finished(result);
        });
        return;
    }
    spec.stream = false;
    spec.maxTokens = kMaxTokens;
    Prompt prompt;
    prompt.strategy = Strategy::P;
    prompt.messages = { { u"user"_s, u"Reply with the single word OK."_s } };
    const QString key = apiKeyFor(spec); // read now, never kept
    if (!m_nam)
        m_nam = std::make_unique<QNetworkAccessManager>();
    HttpRequestSpec request = buildHttpRequest(spec, prompt, u"connection-test"_s, key);
    const QStringList secrets = request.secrets; // never shown
    auto* call = new HttpCall(
        *m_nam, std::move(request), makeResponseDecoder(spec.kind, false, kMaxBodyBytes), timeouts, this);
    m_call = call;
    // HttpCall reports from the event loop at the earliest, so finished() never precedes start()'s return.
    call->start([this, call, generation, spec, hasKey = !key.isEmpty(), secrets](const HttpOutcome& outcome) {
        call->deleteLater();
        if (generation != m_generation)
            return;
        m_call = nullptr;
        HttpOutcome clean = outcome;
        clean.reply.errorMessage = redactSecrets(clean.reply.errorMessage, secrets);
        report(spec, hasKey, clean);
    });
}

void ConnectionTest::report(const ModelSpec& spec, bool hasKey, const HttpOutcome& outcome)
{
    ConnectionTestResult result;
    result.model = spec.label();
    result.error = outcome.reply.error;
    result.httpStatus = outcome.httpStatus;
    result.latencyMs = outcome.latencyMs;
    const QString ms = QString::number(qRound(outcome.latencyMs));
    switch (outcome.reply.error) {
    case ErrorKind::None:
    case ErrorKind::Truncated: // the token limit of the test cut it: the model did answer
        result.ok = true;
        result.message = tr("Connected: %1 answered in %2 ms.").arg(spec.label(), ms);
        if (spec.kind == ProviderKind::OpenAI && !spec.keyEnv.isEmpty() && !hasKey)
            result.message += u' ' + tr("(%1 is not set; this server needs no key.)").arg(spec.keyEnv);
        break;
    case ErrorKind::Refusal:
        result.ok = true;
        result.message = tr("Connected: %1 answered in %2 ms, but declined the test prompt.").arg(spec.label(), ms);
        break;
    default: {
        const QString kind = errorKindName(outcome.reply.error);
        const QString what = outcome.httpStatus > 0 ? tr("HTTP %1, %2").arg(outcome.httpStatus).arg(kind) : kind;
        result.message
            = tr("Failed (%1): %2")
                  .arg(what, outcome.reply.errorMessage.isEmpty() ? tr("no details") : outcome.reply.errorMessage);
        if (const QString hint = hintFor(spec, hasKey, outcome); !hint.isEmpty())
            result.message += u' ' + hint;
        break;
    }
    }
    Q_EMIT finished(result);
}

} // namespace structscope
