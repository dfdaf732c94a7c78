#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace structscope {

/// Which rung of the parse ladder (METRICS.md §0) turned a raw response into JSON.
enum class ParseRung { Clean, Fenced, Extracted, Failed };

/// Stable lower-case id of a rung: "clean", "fenced", "extracted", "failed".
const char* parseRungId(ParseRung rung);

/// Limits that turn pathological input into a clean failure instead of a crash.
struct ParseLimits
{
    int maxDepth = 512; ///< deepest allowed nesting of arrays/objects
    std::size_t maxBytes = 32u * 1024u * 1024u; ///< largest response accepted at all
};

/// Outcome of the parse ladder; `value` is meaningful unless rung == Failed.
struct ParseResult
{
    ParseRung rung = ParseRung::Failed;
    nlohmann::json value;
    std::string reason; ///< why the ladder failed (empty otherwise)

    bool ok() const { return rung != ParseRung::Failed; }
};

/// Parses a model response through the ladder clean → fenced → extracted → failed.
ParseResult parseResponse(std::string_view text, const ParseLimits& limits = {});

/// Parses one JSON document (no ladder) under the same depth/size limits.
/// On failure returns false and describes the problem (with byte offset) in `error`.
bool parseJsonDocument(std::string_view text, nlohmann::json& out, std::string& error,
                       const ParseLimits& limits = {});

} // namespace structscope
