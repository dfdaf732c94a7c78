// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdlib>

namespace structscope::fuzz {

/// A fuzzer's invariant: aborting makes libFuzzer keep the input that broke it as a crash artifact.
inline void check(bool condition)
{
    if (!condition)
        std::abort();
}

} // namespace structscope::fuzz
