// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the quick JSON path (simdjson, its DOM converted into nlohmann's) against nlohmann's parser.
// Aborts when the quick path answers with anything but exactly the value nlohmann builds (types, signs and
// repeated keys included), when it answers where nlohmann fails, or when parseJsonText and nlohmann alone disagree
// on success, value, location or message. Both depth limits matter: the first byte picks a small one.
#include "fuzzcheck.h"
#include "json/jsontext.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace structscope;
using nlohmann::json;
using structscope::fuzz::check;

namespace {

void compare(std::string_view text, int maxDepth)
{
    json quickly;
    const bool quick = parseJsonQuickly(text, maxDepth, quickly);
    json slowly;
    const JsonTextParse alone = parseJsonTextWithNlohmann(text, maxDepth, slowly);
    if (quick) {
        check(alone.ok);
        check(identicalJson(quickly, slowly));
    } else {
        check(quickly.is_null());
    }
    json both;
    const JsonTextParse combined = parseJsonText(text, maxDepth, both);
    check(combined.ok == alone.ok && combined.tooDeep == alone.tooDeep);
    check(combined.errorOffset == alone.errorOffset && combined.message == alone.message);
    check(identicalJson(both, slowly));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    compare(text, 512);
    if (size > 0)
        compare(text.substr(1), 1 + data[0] % 8);
    return 0;
}
