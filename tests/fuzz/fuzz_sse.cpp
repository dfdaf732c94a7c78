// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the SSE parser. The first byte picks a split point; the events must not depend on
// where the stream was split, nor on feeding it byte by byte.
#include "fuzzcheck.h"
#include "providers/sseparser.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace structscope;
using structscope::fuzz::check;

namespace {

bool sameEvents(const QList<SseEvent>& a, const QList<SseEvent>& b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].event != b[i].event || a[i].data != b[i].data || a[i].id != b[i].id)
            return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const QByteArrayView stream(reinterpret_cast<const char*>(data + 1), qsizetype(size - 1));
    const qsizetype split = stream.isEmpty() ? 0 : data[0] % (stream.size() + 1);

    SseParser whole(4096);
    QList<SseEvent> reference = whole.feed(stream);
    reference += whole.finish();

    SseParser two(4096);
    QList<SseEvent> events = two.feed(stream.first(split));
    events += two.feed(stream.sliced(split));
    events += two.finish();
    check(whole.overflowed() == two.overflowed());
    if (!whole.overflowed())
        check(sameEvents(reference, events));

    if (stream.size() <= 512) {
        SseParser bytes(4096);
        QList<SseEvent> byByte;
        for (const char c : stream)
            byByte += bytes.feed(QByteArrayView(&c, 1));
        byByte += bytes.finish();
        if (!whole.overflowed())
            check(sameEvents(reference, byByte));
    }
    for (const SseEvent& e : reference)
        check(!e.data.contains('\r') && e.data.size() <= 4096);
    return 0;
}
