// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the audit's format-disagreement test and the date reader under it, which read model answers and
// gold values (anyone's text). Input: two texts separated by a NUL byte. The test is symmetric, never calls a value a
// format variant of itself, and any date read is a possible one.
#include "fuzzcheck.h"
#include "stats/suspicion.h"
#include "json/datetext.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

using namespace structscope;
using structscope::fuzz::check;

namespace {

void checkDate(const std::string& text)
{
    const auto date = parseDateText(text);
    if (!date)
        return;
    check(date->month >= 1 && date->month <= 12);
    check(date->day >= 0 && date->day <= 31);
    check(date->year == 0 || date->year >= 32);
    check(date->day != 0 || date->year != 0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char*>(data), size);
    const std::size_t cut = input.find('\0');
    const std::string first = input.substr(0, std::min(cut, input.size()));
    const std::string second = cut == std::string::npos ? std::string() : input.substr(cut + 1);
    checkDate(first);
    checkDate(second);
    const nlohmann::json a = first;
    const nlohmann::json b = second;
    const FormatVariant ab = formatVariantOf(a, b);
    check(ab == formatVariantOf(b, a));
    check(formatVariantOf(a, a) == FormatVariant::None);
    return 0;
}
