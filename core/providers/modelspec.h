// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>
#include <utility>

namespace structscope {

/// The kinds of model endpoint StructScope talks to.
enum class ProviderKind { OpenAI, Ollama, Sim };

/// "openai", "ollama", "sim" (the strings stored in RunRow::providerKind).
QString providerKindName(ProviderKind kind);
/// Parses providerKindName(); nullopt for anything else.
std::optional<ProviderKind> providerKindFromName(const QString& name);
/// The base URL used when a spec names none ("" for sim).
QString defaultBaseUrl(ProviderKind kind);
/// The environment variable holding the API key when a spec names none: OPENAI_API_KEY for the official
/// OpenAI endpoint (an empty `baseUrl` means the kind's default URL), "" for any other base URL, Ollama and sim.
/// A key for another endpoint is read only from the variable its spec names (`;key_env=NAME`).
QString defaultKeyEnv(ProviderKind kind, const QString& baseUrl = QString());

/// "scheme://host:port" of a URL, lower case, with the scheme's default port filled in: two URLs of the same
/// origin may share credentials, any others may not.
QString urlOrigin(const QUrl& url);
/// Whether `host` is "localhost" or a loopback address (127.0.0.0/8, ::1).
bool isLoopbackHost(const QString& host);

/// One model endpoint and its request parameters. Written as text (see parseModelSpec):
///   PROVIDER:MODEL[@BASE_URL][;option…]
/// e.g. `openai:gpt-4.1-mini@https://api.openai.com/v1`, `ollama:qwen3:8b@http://localhost:11434`,
/// `sim:careful`, `openai:gpt-4o@https://openrouter.ai/api/v1;key_env=OPENROUTER_API_KEY;stream`.
/// Options: key_env=NAME, temperature=X, max_tokens=N, seed=N, stream, case_headers, header=NAME:$VAR
/// (repeatable; the value is read from the environment variable VAR at request time — a literal value is
/// refused, so that no header value is ever written to a store or a settings file). Values may be %-encoded.
/// A spec never holds the API key itself: only the name of the variable it is read from.
struct ModelSpec
{
    ProviderKind kind = ProviderKind::OpenAI;
    QString model;
    QString baseUrl; ///< without a trailing '/'; empty for sim
    QString keyEnv; ///< environment variable with the API key; empty: send no key
    QList<std::pair<QString, QString>> headers; ///< extra request headers, in order; each value is "$VAR"
    double temperature = 0;
    std::optional<int> maxTokens;
    std::optional<qint64> seed;
    bool stream = false;
    /// Send X-StructScope-Case and X-StructScope-Repeat (for serve-sim; real providers never see them).
    bool caseHeaders = false;

    /// "openai:gpt-4.1-mini": provider and model, for tables and logs.
    QString label() const;
    /// Provider, model and base URL: specs with the same endpoint share rate limits.
    QString endpointKey() const;
    bool isSimulated() const { return kind == ProviderKind::Sim; }
    /// urlOrigin() of the base URL; empty for sim.
    QString origin() const;
    /// The environment variables a request reads: the key variable, then each header's `$VAR`.
    QStringList environmentVariables() const;

    friend bool operator==(const ModelSpec&, const ModelSpec&) = default;
};

/// Parses a model spec; on failure returns nullopt and says what is wrong (and how to write it) in `error`.
std::optional<ModelSpec> parseModelSpec(const QString& text, QString* error = nullptr);

/// Why a spec must not be sent as it is: it would send a key or a `$VAR` header over plain http to a host
/// that is not loopback, where anyone on the path can read it. Empty when that is not the case, or when
/// `allowInsecureKey` (`--allow-insecure-key`) says the user accepts it.
QString insecureKeyProblem(const ModelSpec& spec, bool allowInsecureKey);

/// How much of a spec formatModelSpec writes.
enum class SpecText {
    Full, ///< everything, headers included: parses back to an equal spec
    Stored ///< without headers (they may carry secrets; runs keep the non-secret ones in their settings)
};

/// The canonical text of a spec: the base URL only when it differs from the default, options only when
/// they differ from their defaults, in a fixed order. parseModelSpec(formatModelSpec(s)) == s.
QString formatModelSpec(const ModelSpec& spec, SpecText detail = SpecText::Full);

} // namespace structscope
