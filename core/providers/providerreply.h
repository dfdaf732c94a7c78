// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "providers/errorkind.h"

#include <nlohmann/json.hpp>

#include <QByteArrayView>
#include <QString>

#include <optional>

namespace structscope {

/// What a provider's answer to one request said, decoded from its body. A value.
struct ProviderReply
{
    ErrorKind error = ErrorKind::None;
    QString errorMessage; ///< what went wrong, for a person; empty when ok
    QString text; ///< the model's output (kept for Truncated: the cut text is what the model said)
    QString finishReason; ///< as the provider wrote it ("stop", "length", …); may be empty
    std::optional<qint64> tokensIn;
    std::optional<qint64> tokensOut;
    std::optional<double> cost; ///< only when the provider reported it (e.g. OpenRouter's usage.cost)

    bool ok() const { return error == ErrorKind::None; }
};

/// Largest nesting a provider body may have; deeper bodies are malformed (and never recursed into).
inline constexpr int kMaxBodyDepth = 256;

/// Parses a body that must be one JSON object. On failure returns false and says why in `problem`:
/// empty, an HTML page (a proxy or a wrong base URL), not JSON (with the offset), too deep, not an object.
bool parseJsonObjectBody(QByteArrayView body, nlohmann::json& out, QString& problem);

/// A short, printable excerpt of a body for error messages (control characters escaped, at most
/// `maxChars` characters, "…" when cut).
QString bodyExcerpt(QByteArrayView body, int maxChars = 160);

/// The reply for a non-2xx status: the kind from the status and a message with the provider's own
/// error text when the body carries one ({"error": {"message": …}} or {"error": "…"}).
ProviderReply httpErrorReply(int status, QByteArrayView body);

/// A reply that failed with `kind` and `message`.
ProviderReply failedReply(ErrorKind kind, const QString& message);

/// Reads a non-negative integer token count; nullopt when absent or not a count.
std::optional<qint64> tokenCount(const nlohmann::json& object, const char* key);

} // namespace structscope
