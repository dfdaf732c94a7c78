// SPDX-License-Identifier: Apache-2.0
#include "providers/modelspec.h"

#include <QHostAddress>
#include <QRegularExpression>
#include <QUrl>

#include <charconv>
#include <cmath>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

QString shortestNumber(double value)
{
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return QString::fromLatin1(buffer, int(result.ptr - buffer));
}

// Only what would break the option syntax is encoded, so specs stay readable.
QString encodeOptionValue(const QString& value)
{
    QString out;
    for (const QChar c : value) {
        if (c == u'%' || c == u';' || c.isSpace())
            out += u'%' + QString::number(c.unicode(), 16).rightJustified(2, u'0').toUpper();
        else
            out += c;
    }
    return out;
}

QString decodeOptionValue(const QString& value)
{
    return QUrl::fromPercentEncoding(value.toUtf8());
}

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

bool isEnvName(const QString& name)
{
    static const QRegularExpression pattern(u"^[A-Za-z_][A-Za-z0-9_]*$"_s);
    return pattern.match(name).hasMatch();
}

bool isHeaderName(const QString& name)
{
    // RFC 9110 token characters.
    static const QRegularExpression pattern(u"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"_s);
    return pattern.match(name).hasMatch();
}

// Splits "MODEL@URL" at the '@' that starts the URL: model names may contain '@' and ':'
// ("@cf/meta/llama-3", "qwen3:8b"), so only an '@' followed by a scheme counts.
bool splitModelAndUrl(const QString& rest, QString& model, QString& url, QString* error)
{
    static const QRegularExpression urlStart(u"@([A-Za-z][A-Za-z0-9+.-]*)://"_s);
    qsizetype at = -1;
    QString scheme;
    auto it = urlStart.globalMatch(rest);
    while (it.hasNext()) {
        const auto match = it.next();
        at = match.capturedStart();
        scheme = match.captured(1).toLower();
    }
    if (at < 0) {
        model = rest;
        url.clear();
        return true;
    }
    if (scheme != u"http"_s && scheme != u"https"_s)
        return fail(error, u"base URL '%1' must start with http:// or https://"_s.arg(rest.mid(at + 1)));
    model = rest.left(at);
    url = rest.mid(at + 1);
    return true;
}

bool checkUrl(const QString& text, QString* error)
{
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty())
        return fail(error, u"base URL '%1' is not a valid http(s) URL"_s.arg(text));
    if (!url.userInfo().isEmpty())
        return fail(error,
            u"the base URL must not contain credentials; put the key in an environment variable "
            "and name it with ;key_env=NAME"_s);
    if (url.hasFragment())
        return fail(error, u"base URL '%1' must not contain a '#' fragment"_s.arg(text));
    return true;
}

bool applyOption(ModelSpec& spec, const QString& option, QString* error)
{
    const qsizetype eq = option.indexOf(u'=');
    const QString name = (eq < 0 ? option : option.left(eq)).trimmed();
    const bool hasValue = eq >= 0;
    const QString value = hasValue ? decodeOptionValue(option.mid(eq + 1)) : QString();
    const auto needValue
        = [&] { return hasValue ? true : fail(error, u"option '%1' needs a value (%1=…)"_s.arg(name)); };
    if (name == u"key_env"_s) {
        if (!needValue())
            return false;
        if (!value.isEmpty() && !isEnvName(value))
            return fail(error, u"key_env '%1' is not an environment variable name"_s.arg(value));
        spec.keyEnv = value;
        return true;
    }
    if (name == u"temperature"_s) {
        if (!needValue())
            return false;
        bool ok = false;
        const double t = value.toDouble(&ok);
        if (!ok || !std::isfinite(t) || t < 0)
            return fail(error, u"temperature '%1' must be a number ≥ 0"_s.arg(value));
        spec.temperature = t;
        return true;
    }
    if (name == u"max_tokens"_s) {
        if (!needValue())
            return false;
        bool ok = false;
        const int n = value.toInt(&ok);
        if (!ok || n <= 0)
            return fail(error, u"max_tokens '%1' must be a whole number > 0"_s.arg(value));
        spec.maxTokens = n;
        return true;
    }
    if (name == u"seed"_s) {
        if (!needValue())
            return false;
        bool ok = false;
        const qint64 n = value.toLongLong(&ok);
        if (!ok)
            return fail(error, u"seed '%1' must be a whole number"_s.arg(value));
        spec.seed = n;
        return true;
    }
    // A switch: given alone, or as true/1 or false/0.
    const auto setSwitch = [&](bool& target) {
        if (!hasValue || value == u"true"_s || value == u"1"_s)
            target = true;
        else if (value == u"false"_s || value == u"0"_s)
            target = false;
        else
            return fail(error, u"%1 '%2' must be true or false"_s.arg(name, value));
        return true;
    };
    if (name == u"stream"_s)
        return setSwitch(spec.stream);
    if (name == u"case_headers"_s)
        return setSwitch(spec.caseHeaders);
    if (name == u"header"_s) {
        if (!needValue())
            return false;
        const qsizetype colon = value.indexOf(u':');
        const QString headerName = colon < 0 ? value : value.left(colon).trimmed();
        if (colon < 0 || !isHeaderName(headerName))
            return fail(error, u"header '%1' must be written header=NAME:$VAR"_s.arg(value));
        const QString headerValue = value.mid(colon + 1).trimmed();
        if (!headerValue.startsWith(u'$') || !isEnvName(headerValue.mid(1)))
            // Header values often are credentials; a literal one would end up in stores and settings files.
            return fail(error,
                u"header '%1' has a literal value: header values are read from the environment, so that none is "
                "ever stored; put the value in an environment variable and write header=%1:$VAR"_s.arg(headerName));
        spec.headers.append({ headerName, headerValue });
        return true;
    }
    return fail(error,
        u"unknown option '%1' (use key_env, temperature, max_tokens, seed, stream, case_headers or header)"_s.arg(
            name));
}

} // namespace

QString providerKindName(ProviderKind kind)
{
    switch (kind) {
    case ProviderKind::OpenAI:
        return u"openai"_s;
    case ProviderKind::Ollama:
        return u"ollama"_s;
    case ProviderKind::Sim:
        return u"sim"_s;
    }
    return {};
}

std::optional<ProviderKind> providerKindFromName(const QString& name)
{
    for (const ProviderKind kind : { ProviderKind::OpenAI, ProviderKind::Ollama, ProviderKind::Sim }) {
        if (providerKindName(kind) == name)
            return kind;
    }
    return std::nullopt;
}

QString defaultBaseUrl(ProviderKind kind)
{
    switch (kind) {
    case ProviderKind::OpenAI:
        return u"https://api.openai.com/v1"_s;
    case ProviderKind::Ollama:
        return u"http://localhost:11434"_s;
    case ProviderKind::Sim:
        break;
    }
    return {};
}

QString defaultKeyEnv(ProviderKind kind, const QString& baseUrl)
{
    if (kind != ProviderKind::OpenAI)
        return {};
    const QString official = defaultBaseUrl(kind);
    if (!baseUrl.isEmpty() && urlOrigin(QUrl(baseUrl)) != urlOrigin(QUrl(official)))
        return {};
    return u"OPENAI_API_KEY"_s;
}

QString urlOrigin(const QUrl& url)
{
    const QString scheme = url.scheme().toLower();
    const int defaultPort = scheme == u"https"_s ? 443 : scheme == u"http"_s ? 80 : -1;
    const int port = url.port(defaultPort);
    QString host = url.host(QUrl::FullyEncoded).toLower();
    if (host.contains(u':'))
        host = u'[' + host + u']';
    const QString portText = port < 0 ? QString() : QString(u':' + QString::number(port));
    return scheme + u"://"_s + host + portText;
}

bool isLoopbackHost(const QString& host)
{
    const QString h = host.toLower();
    if (h == u"localhost"_s)
        return true;
    const QHostAddress address(h.startsWith(u'[') && h.endsWith(u']') ? h.mid(1, h.size() - 2) : h);
    return !address.isNull() && address.isLoopback();
}

QString insecureKeyProblem(const ModelSpec& spec, bool allowInsecureKey)
{
    if (allowInsecureKey || spec.isSimulated())
        return {};
    const QStringList variables = spec.environmentVariables();
    const QUrl url(spec.baseUrl);
    if (variables.isEmpty() || url.scheme().toLower() != u"http"_s || isLoopbackHost(url.host()))
        return {};
    return u"%1 would send %2 over plain http to %3, where anyone on the way can read it: use https, or "
           "--allow-insecure-key if this network is yours"_s.arg(spec.label(), variables.join(u", "_s), urlOrigin(url));
}

QString ModelSpec::label() const
{
    return providerKindName(kind) + u':' + model;
}

QString ModelSpec::origin() const
{
    return baseUrl.isEmpty() ? QString() : urlOrigin(QUrl(baseUrl));
}

QStringList ModelSpec::environmentVariables() const
{
    QStringList variables;
    if (!keyEnv.isEmpty())
        variables << keyEnv;
    for (const auto& header : headers) {
        if (header.second.size() > 1 && header.second.startsWith(u'$') && !variables.contains(header.second.mid(1)))
            variables << header.second.mid(1);
    }
    return variables;
}

QString ModelSpec::endpointKey() const
{
    return baseUrl.isEmpty() ? label() : label() + u'@' + baseUrl;
}

std::optional<ModelSpec> parseModelSpec(const QString& text, QString* error)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty()) {
        fail(error, u"empty model spec (write PROVIDER:MODEL, e.g. openai:gpt-4.1-mini or sim:careful)"_s);
        return std::nullopt;
    }
    const QStringList parts = trimmed.split(u';');
    const QString& head = parts.constFirst();
    const qsizetype colon = head.indexOf(u':');
    if (colon < 0) {
        fail(error,
            u"'%1' names no provider: write PROVIDER:MODEL, e.g. openai:gpt-4.1-mini, "
            "ollama:qwen3:8b or sim:careful"_s.arg(head));
        return std::nullopt;
    }
    ModelSpec spec;
    const QString kindName = head.left(colon).toLower();
    const auto kind = providerKindFromName(kindName);
    if (!kind) {
        fail(error, u"unknown provider '%1' in '%2' (use openai, ollama or sim)"_s.arg(head.left(colon), head));
        return std::nullopt;
    }
    spec.kind = *kind;
    QString url;
    if (!splitModelAndUrl(head.mid(colon + 1), spec.model, url, error))
        return std::nullopt;
    if (spec.model.isEmpty()) {
        fail(error, u"no model name in '%1' (write %2:MODEL)"_s.arg(head, kindName));
        return std::nullopt;
    }
    for (const QChar c : std::as_const(spec.model)) {
        if (c.isSpace() || c.category() == QChar::Other_Control) {
            fail(error, u"model name '%1' contains white space or control characters"_s.arg(spec.model));
            return std::nullopt;
        }
    }
    if (spec.kind == ProviderKind::Sim) {
        if (!url.isEmpty()) {
            fail(error, u"simulated models run in-process: remove '@%1' from '%2'"_s.arg(url, head));
            return std::nullopt;
        }
    } else {
        if (url.isEmpty())
            url = defaultBaseUrl(spec.kind);
        while (url.endsWith(u'/'))
            url.chop(1);
        if (!checkUrl(url, error))
            return std::nullopt;
        spec.baseUrl = url;
    }
    spec.keyEnv = defaultKeyEnv(spec.kind, spec.baseUrl);
    for (qsizetype i = 1; i < parts.size(); ++i) {
        if (parts.at(i).trimmed().isEmpty())
            continue;
        if (!applyOption(spec, parts.at(i), error))
            return std::nullopt;
    }
    if (spec.kind == ProviderKind::Sim
        && (!spec.keyEnv.isEmpty() || !spec.headers.isEmpty() || spec.stream || spec.caseHeaders)) {
        fail(error, u"simulated models take no key_env, header, stream or case_headers option"_s);
        return std::nullopt;
    }
    return spec;
}

QString formatModelSpec(const ModelSpec& spec, SpecText detail)
{
    QString text = spec.label();
    if (!spec.baseUrl.isEmpty() && spec.baseUrl != defaultBaseUrl(spec.kind))
        text += u'@' + spec.baseUrl;
    if (spec.keyEnv != defaultKeyEnv(spec.kind, spec.baseUrl))
        text += u";key_env="_s + spec.keyEnv;
    if (spec.temperature != 0)
        text += u";temperature="_s + shortestNumber(spec.temperature);
    if (spec.maxTokens)
        text += u";max_tokens="_s + QString::number(*spec.maxTokens);
    if (spec.seed)
        text += u";seed="_s + QString::number(*spec.seed);
    if (spec.stream)
        text += u";stream"_s;
    if (spec.caseHeaders)
        text += u";case_headers"_s;
    if (detail == SpecText::Full) {
        for (const auto& [name, value] : spec.headers)
            text += u";header="_s + encodeOptionValue(name + u':' + value);
    }
    return text;
}

} // namespace structscope
