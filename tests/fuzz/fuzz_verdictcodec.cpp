// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the verdict codec on arbitrary bytes, as the store may read them from a damaged file. Decoding
// accepts exactly what encoding writes, so a blob that decodes must encode back to itself, and decode again to a
// verdict of the same encoding; a blob that does not decode must say why.
#include "fuzzcheck.h"
#include "scoring/verdictcodec.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

using namespace structscope;
using structscope::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    Verdict verdict;
    std::string error;
    if (!decodeVerdict(bytes, verdict, &error)) {
        check(!error.empty());
        return 0;
    }
    const std::string encoded = encodeVerdict(verdict);
    check(encoded == bytes);
    Verdict again;
    check(decodeVerdict(encoded, again));
    check(encodeVerdict(again) == encoded);
    return 0;
}
