// SPDX-License-Identifier: Apache-2.0
#include "providers/errorkind.h"

using namespace Qt::StringLiterals;

namespace structscope {

QString errorKindName(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::None:
        return {};
    case ErrorKind::Timeout:
        return u"timeout"_s;
    case ErrorKind::Http4xx:
        return u"http_4xx"_s;
    case ErrorKind::Http5xx:
        return u"http_5xx"_s;
    case ErrorKind::RateLimited:
        return u"rate_limited"_s;
    case ErrorKind::MalformedBody:
        return u"malformed_body"_s;
    case ErrorKind::Refusal:
        return u"refusal"_s;
    case ErrorKind::Truncated:
        return u"truncated"_s;
    case ErrorKind::Network:
        return u"network"_s;
    case ErrorKind::Cancelled:
        return u"cancelled"_s;
    }
    return {};
}

std::optional<ErrorKind> errorKindFromName(const QString& name)
{
    for (const ErrorKind kind : { ErrorKind::None, ErrorKind::Timeout, ErrorKind::Http4xx, ErrorKind::Http5xx,
             ErrorKind::RateLimited, ErrorKind::MalformedBody, ErrorKind::Refusal, ErrorKind::Truncated,
             ErrorKind::Network, ErrorKind::Cancelled }) {
        if (errorKindName(kind) == name)
            return kind;
    }
    return std::nullopt;
}

ErrorKind errorKindForHttpStatus(int status)
{
    if (status >= 200 && status < 300)
        return ErrorKind::None;
    if (status == 429)
        return ErrorKind::RateLimited;
    if (status == 408)
        return ErrorKind::Timeout;
    if (status >= 400 && status < 500)
        return ErrorKind::Http4xx;
    if (status >= 500 && status < 600)
        return ErrorKind::Http5xx;
    return ErrorKind::MalformedBody;
}

bool isRetryable(ErrorKind kind)
{
    return kind == ErrorKind::Timeout || kind == ErrorKind::Http5xx || kind == ErrorKind::RateLimited
        || kind == ErrorKind::Network || kind == ErrorKind::MalformedBody;
}

bool isTransportError(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::Timeout:
    case ErrorKind::Http4xx:
    case ErrorKind::Http5xx:
    case ErrorKind::RateLimited:
    case ErrorKind::MalformedBody:
    case ErrorKind::Network:
    case ErrorKind::Cancelled:
        return true;
    case ErrorKind::None:
    case ErrorKind::Refusal:
    case ErrorKind::Truncated:
        return false;
    }
    return false;
}

} // namespace structscope
