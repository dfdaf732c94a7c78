// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "providers/modelspec.h"
#include "providers/promptbuilder.h"

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <utility>

namespace structscope {

/// Everything needed to send one chat request over HTTP (not for sim).
struct HttpRequestSpec
{
    QUrl url;
    QList<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body;
    /// The values read from the environment for this request (the key, `$VAR` headers): redactSecrets()
    /// removes them from whatever is stored or shown about it.
    QStringList secrets;
};

/// The headers that tell a server (serve-sim) which case, and which repeat of it, a request is for. Sent
/// only for a spec with `;case_headers`: a real provider need not learn that it serves benchmark traffic.
inline constexpr char kCaseHeader[] = "X-StructScope-Case";
inline constexpr char kRepeatHeader[] = "X-StructScope-Repeat";

/// POST URL of the chat endpoint: {base}/chat/completions (OpenAI) or {base}/api/chat (Ollama).
QUrl chatEndpoint(const ModelSpec& spec);

/// The JSON request body for a spec and prompt (OpenAI-compatible or Ollama). Holds no secret.
nlohmann::json chatRequestBody(const ModelSpec& spec, const Prompt& prompt, bool stream);

/// The API key for a spec, read from its environment variable now; empty when unset or not used.
QString apiKeyFor(const ModelSpec& spec);

/// The HTTP request: JSON body, Accept, `Authorization: Bearer <apiKey>` when the key is not empty,
/// X-StructScope-Case and -Repeat when the spec asks for them, and the spec's extra headers (their `$VAR`
/// values read from the environment now; a header whose variable is unset or empty is not sent).
HttpRequestSpec buildHttpRequest(
    const ModelSpec& spec, const Prompt& prompt, const QString& caseId, const QString& apiKey, int repeat = 0);
/// The same from the body's bytes (chatRequestBytes), which every repeat of a case shares.
HttpRequestSpec buildHttpRequest(
    const ModelSpec& spec, QByteArray body, const QString& caseId, const QString& apiKey, int repeat);
/// chatRequestBody as sent, with the spec's own streaming choice.
QByteArray chatRequestBytes(const ModelSpec& spec, const Prompt& prompt);

/// The request-cache key: SHA-256 (hex) over provider, base URL, model, strategy, sample index and the
/// request body as sent without streaming (messages, temperature, max_tokens, seed, format). Never the
/// key or headers. The sample index keeps repeats distinct: repeat i reuses only an earlier repeat i.
/// Equal to requestHash(requestDigest(spec, prompt), repeat).
QString requestHash(const ModelSpec& spec, const Prompt& prompt, int repeat);
/// The expensive part of requestHash, the same for every repeat of a request (SHA-256, raw bytes).
QByteArray requestDigest(const ModelSpec& spec, const Prompt& prompt);
/// requestHash from a digest and the repeat.
QString requestHash(const QByteArray& digest, int repeat);

/// `text` with every occurrence of each secret replaced by "[redacted]" (secrets shorter than 4
/// characters are ignored: they would redact ordinary text).
QString redactSecrets(QString text, const QStringList& secrets);

} // namespace structscope
