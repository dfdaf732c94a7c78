// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: OpenAI-compatible response bodies, whole and streamed (SSE), in arbitrary chunks.
// Besides "no crash, leak or hang": every reply is either ok with no message or an error with one; the
// streaming decoder agrees with itself whatever the chunking; decoding never exceeds the body limit.
#include "fuzzcheck.h"
#include "providers/openaicodec.h"
#include "providers/responsedecoder.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace structscope;
using structscope::fuzz::check;

namespace {

void checkReply(const ProviderReply& reply)
{
    check(reply.ok() == reply.errorMessage.isEmpty());
    check(!reply.tokensIn || *reply.tokensIn >= 0);
    check(!reply.cost || *reply.cost >= 0);
}

ProviderReply decodeInChunks(bool stream, QByteArrayView body, std::size_t step, int status)
{
    auto decoder = makeResponseDecoder(ProviderKind::OpenAI, stream, 64 * 1024);
    for (qsizetype i = 0; i < body.size(); i += qsizetype(step)) {
        if (!decoder->feed(body.sliced(i, std::min<qsizetype>(qsizetype(step), body.size() - i))))
            break;
    }
    return decoder->finish(status);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArrayView body(reinterpret_cast<const char*>(data), qsizetype(size));
    const ProviderReply whole = parseOpenAiBody(body);
    checkReply(whole);
    const int status = size > 0 && data[0] == 'E' ? 503 : 200;
    for (const bool stream : { false, true }) {
        const ProviderReply once = decodeInChunks(stream, body, size + 1, status);
        const ProviderReply split = decodeInChunks(stream, body, 1 + size % 7, status);
        checkReply(once);
        checkReply(split);
        check(once.error == split.error && once.text == split.text && once.errorMessage == split.errorMessage);
        if (!stream && status == 200 && size <= 64 * 1024)
            check(once.error == whole.error && once.text == whole.text);
    }
    return 0;
}
