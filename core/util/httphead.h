// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <utility>

namespace structscope {

/// One HTTP/1.x request as a server reads it.
struct HttpRequest
{
    QByteArray method;
    QByteArray path; ///< the target without its query
    QByteArray query;
    QList<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body;

    /// The first header of that name (case-insensitive), or empty.
    QByteArray header(QByteArrayView name) const;
};

/// A request head read by parseHttpHead().
struct HttpHead
{
    int status = 0; ///< 0: a request to serve; else the status to refuse it with (400, 411, 413, 505)
    QString problem; ///< why, for the refusal's body and the log (printable, no request bytes but the version)
    HttpRequest request; ///< method, path, query and headers; no body
    qint64 bodyLength = 0; ///< from Content-Length; 0 without one
    bool closeAfter = false; ///< the connection closes after the answer (Connection: close, or HTTP/1.0)
};

/// Reads a request line and its header lines (`text`, without the blank line that ends it) as RFC 9112 says, for
/// a server that needs every body to come with one Content-Length of at most `maxBodyBytes`: a chunked body is
/// refused with 411, a larger length with 413, several different lengths or a malformed line with 400, another
/// version than HTTP/1.0 and 1.1 with 505.
HttpHead parseHttpHead(QByteArrayView text, qint64 maxBodyBytes);

} // namespace structscope
