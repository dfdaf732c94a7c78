// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: Ollama /api/chat bodies (single JSON or NDJSON stream) in arbitrary chunks.
// Invariants: ok replies carry no message, errors always one; the answer does not depend on how the
// body was chunked.
#include "fuzzcheck.h"
#include "providers/ollamacodec.h"
#include "providers/responsedecoder.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace structscope;
using structscope::fuzz::check;

namespace {

ProviderReply decodeInChunks(QByteArrayView body, std::size_t step)
{
    auto decoder = makeResponseDecoder(ProviderKind::Ollama, true, 64 * 1024);
    for (qsizetype i = 0; i < body.size(); i += qsizetype(step)) {
        if (!decoder->feed(body.sliced(i, std::min<qsizetype>(qsizetype(step), body.size() - i))))
            break;
    }
    return decoder->finish(200);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArrayView body(reinterpret_cast<const char*>(data), qsizetype(size));
    const ProviderReply whole = parseOllamaBody(body);
    check(whole.ok() == whole.errorMessage.isEmpty());
    const ProviderReply once = decodeInChunks(body, size + 1);
    const ProviderReply split = decodeInChunks(body, 1 + size % 5);
    check(once.ok() == once.errorMessage.isEmpty());
    check(once.error == split.error && once.text == split.text && once.errorMessage == split.errorMessage);
    if (size <= 64 * 1024)
        check(once.error == whole.error && once.text == whole.text);
    return 0;
}
