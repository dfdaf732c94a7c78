// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace structscope::bench {

/// Shape of a generated set of SOB-like response lines (the format of docs/user-guide.md "Importing results").
struct SobGenOptions
{
    std::uint64_t seed = 1;
    int records = 100000;
    int schemas = 200; ///< distinct schema shapes the records share (SOB's records reuse a few hundred)
    int models = 1; ///< model ids model-0 … model-(n-1); record ids repeat per model
    int contextSentences = 24; ///< ~60 bytes each: a few KB of context per record
};

/// Deterministic SOB-like JSONL lines: nested documents (objects, arrays of objects, strings, numbers,
/// booleans, nulls) with a per-shape schema, a context text, and a candidate that is the ground truth with
/// realistic faults (changed, missing and extra values, wrong types, a string instead of an object).
std::vector<std::string> generateSobLines(const SobGenOptions& options);

} // namespace structscope::bench
