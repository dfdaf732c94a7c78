// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include <cstdint>
#include <optional>

namespace structscope {

/// Why a model call produced no usable answer. The names are the strings stored in
/// ResponseRow::errorKind (empty for None).
enum class ErrorKind : std::uint8_t {
    None,
    Timeout, ///< "timeout": no connection, no data or no complete answer in time
    Http4xx, ///< "http_4xx": the request was refused (bad request, auth, unknown model …)
    Http5xx, ///< "http_5xx": the server failed
    RateLimited, ///< "rate_limited": HTTP 429
    MalformedBody, ///< "malformed_body": a body that is not the provider's JSON (HTML, truncated, too big …)
    Refusal, ///< "refusal": the model declined (refusal field, content filter)
    Truncated, ///< "truncated": the output hit the token limit (finish_reason length); the text is kept
    Network, ///< "network": connection refused or dropped, DNS, TLS …
    Cancelled ///< "cancelled": the user cancelled the call (never stored as an answer)
};

/// "" for None, else "timeout", "http_4xx", "http_5xx", "rate_limited", "malformed_body", "refusal",
/// "truncated", "network", "cancelled".
QString errorKindName(ErrorKind kind);
/// Parses errorKindName() (including "" → None); nullopt for anything else.
std::optional<ErrorKind> errorKindFromName(const QString& name);
/// The error kind of an HTTP status: None for 2xx, RateLimited for 429, Timeout for 408, Http4xx / Http5xx,
/// MalformedBody for anything else (1xx, unfollowed 3xx, nonsense).
ErrorKind errorKindForHttpStatus(int status);
/// Whether a call that failed this way is worth sending again: the transient failures of the transport or the
/// provider (timeouts, 5xx, 429, network, and a body that is not the provider's JSON or a stream cut short).
bool isRetryable(ErrorKind kind);
/// Whether a call whose last attempt failed this way got no answer from the model: the transport or the provider
/// failed (timeout, HTTP 4xx/5xx, rate limiting, malformed body, network, cancelled). Such a slot is "errored": it
/// is left out of every quality metric. A refusal or a length cut is the model's answer (false), as is None.
bool isTransportError(ErrorKind kind);

} // namespace structscope
