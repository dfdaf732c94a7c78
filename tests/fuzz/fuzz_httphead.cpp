// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the request-head parser of serve-sim's HTTP server, which reads whatever a client sends.
// It either refuses with one of its statuses and a printable reason, or gives a request whose method is a token,
// whose path starts with '/', whose header names hold no ':' and whose body length is within the limit.
#include "fuzzcheck.h"
#include "util/httphead.h"

#include <cstddef>
#include <cstdint>

using namespace structscope;
using structscope::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    constexpr qint64 limit = 4096;
    const QByteArrayView text(reinterpret_cast<const char*>(data), qsizetype(size));
    const HttpHead head = parseHttpHead(text, limit);
    if (head.status != 0) {
        check(head.status == 400 || head.status == 411 || head.status == 413 || head.status == 505);
        check(!head.problem.isEmpty());
        for (const QChar c : head.problem)
            check(c.category() != QChar::Other_Control && c.category() != QChar::Other_Format);
        return 0;
    }
    check(!head.request.method.isEmpty() && !head.request.method.contains(' '));
    check(head.request.path.startsWith('/') && !head.request.path.contains('?'));
    check(head.bodyLength >= 0 && head.bodyLength <= limit);
    check(head.request.body.isEmpty());
    for (const auto& [name, value] : head.request.headers) {
        check(!name.isEmpty() && !name.contains(':') && !name.contains('\r') && !name.contains('\n'));
        check(!value.contains('\n'));
    }
    check(head.request.header("Transfer-Encoding").isEmpty());
    return 0;
}
