// SPDX-License-Identifier: Apache-2.0
#include "util/httphead.h"

#include "util/printable.h"

#include <algorithm>
#include <string_view>

using namespace Qt::StringLiterals;

namespace structscope {

QByteArray HttpRequest::header(QByteArrayView name) const
{
    for (const auto& [n, v] : headers) {
        if (QByteArrayView(n).compare(name, Qt::CaseInsensitive) == 0)
            return v;
    }
    return {};
}

namespace {

// A token of RFC 9110: the characters a method or header name may have.
bool isToken(QByteArrayView text)
{
    if (text.isEmpty())
        return false;
    return std::ranges::all_of(text, [](const char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
    });
}

HttpHead refused(int status, const QString& problem)
{
    HttpHead head;
    head.status = status;
    head.problem = problem;
    return head;
}

} // namespace

HttpHead parseHttpHead(QByteArrayView text, qint64 maxBodyBytes)
{
    const QList<QByteArray> lines = text.toByteArray().split('\n');
    const QList<QByteArray> start = lines.constFirst().trimmed().split(' ');
    if (start.size() != 3 || !isToken(start[0]) || !start[1].startsWith('/'))
        return refused(400, u"not an HTTP request line"_s);
    if (start[2] != "HTTP/1.1" && start[2] != "HTTP/1.0")
        return refused(505, u"HTTP version %1"_s.arg(printableText(QString::fromLatin1(start[2]), 20)));
    HttpHead head;
    HttpRequest& request = head.request;
    request.method = start[0];
    const qsizetype question = start[1].indexOf('?');
    request.path = question < 0 ? start[1] : start[1].left(question);
    request.query = question < 0 ? QByteArray() : start[1].mid(question + 1);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        QByteArray line = lines[i];
        if (line.endsWith('\r'))
            line.chop(1);
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0 || !isToken(QByteArrayView(line).first(colon)))
            return refused(400, u"malformed header line %1"_s.arg(i + 1));
        request.headers.append({ line.left(colon), line.mid(colon + 1).trimmed() });
    }
    const bool http10 = start[2] == "HTTP/1.0";
    const QByteArray connection = request.header("Connection").toLower();
    head.closeAfter = http10 ? !connection.contains("keep-alive") : connection.contains("close");
    if (!request.header("Transfer-Encoding").isEmpty())
        return refused(411, u"a request body must come with Content-Length"_s);
    bool seenLength = false;
    for (const auto& [name, value] : std::as_const(request.headers)) {
        if (name.compare("Content-Length", Qt::CaseInsensitive) != 0)
            continue;
        bool ok = !value.isEmpty() && value.size() <= 18;
        for (const char c : value)
            ok = ok && c >= '0' && c <= '9';
        const qint64 length = ok ? value.toLongLong(&ok) : -1;
        if (!ok || length < 0 || (seenLength && length != head.bodyLength))
            return refused(400, u"Content-Length is not one whole number"_s);
        seenLength = true;
        head.bodyLength = length;
    }
    if (head.bodyLength > maxBodyBytes)
        return refused(413, u"a body of %1 bytes is over the limit of %2"_s.arg(head.bodyLength).arg(maxBodyBytes));
    return head;
}

} // namespace structscope
