// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the NDJSON line splitter. Lines must not depend on where the stream was split;
// no line holds a newline or is blank, and a CRLF ending loses its CR (only that one: "a\r\r\n" → "a\r").
#include "fuzzcheck.h"
#include "providers/ndjsonparser.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace structscope;
using structscope::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const QByteArrayView stream(reinterpret_cast<const char*>(data + 1), qsizetype(size - 1));
    const qsizetype split = stream.isEmpty() ? 0 : data[0] % (stream.size() + 1);
    NdjsonParser whole(4096);
    QList<QByteArray> reference = whole.feed(stream);
    reference += whole.finish();
    NdjsonParser two(4096);
    QList<QByteArray> lines = two.feed(stream.first(split));
    lines += two.feed(stream.sliced(split));
    lines += two.finish();
    check(whole.overflowed() == two.overflowed());
    if (!whole.overflowed())
        check(lines == reference);
    for (const QByteArray& line : reference)
        check(!line.contains('\n') && !line.trimmed().isEmpty());
    if (!whole.overflowed() && stream.endsWith("x\r\n") && !reference.isEmpty())
        check(reference.constLast().endsWith('x'));
    return 0;
}
