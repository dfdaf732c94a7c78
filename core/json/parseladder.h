// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace structscope {

/// Which rung of the parse ladder (docs/metrics.md §0) turned a raw response into JSON.
enum class ParseRung { Clean, Fenced, Extracted, Failed };

/// Stable lower-case id of a rung: "clean", "fenced", "extracted", "failed".
const char* parseRungId(ParseRung rung);

/// Limits that turn pathological input into a clean failure instead of a crash.
struct ParseLimits
{
    int maxDepth = 512; ///< deepest allowed nesting of arrays/objects
    std::size_t maxBytes = std::size_t(32) * 1024 * 1024; ///< largest response accepted at all
};

/// Outcome of the parse ladder; `value` is meaningful unless rung == Failed.
struct ParseResult
{
    ParseRung rung = ParseRung::Failed;
    nlohmann::json value;
    std::string reason; ///< why the ladder failed (empty otherwise); always valid UTF-8
    std::size_t offset = 0; ///< where in the text the JSON was found (byte offset; 0 when failed)
    std::size_t length = 0; ///< bytes of the text that held it

    bool ok() const { return rung != ParseRung::Failed; }
};

/// Parses a model response through the ladder clean → fenced → extracted → failed.
/// - clean: the whole text, trimmed of whitespace and a UTF-8 BOM, is one JSON value (scalars too);
/// - fenced: the first ``` block tagged json (any case, "jsonc" etc. too) or untagged whose trimmed
///   content is one JSON value; blocks with other tags are skipped, and at most 256 blocks whose
///   content could start a JSON value are parsed (see findFencedBlocks for the fence rules);
/// - extracted: the first balanced {…} / […] span of the text that parses (see extractFirstJson);
/// - failed: `reason` says why (empty, too large, too deep, no JSON found, the clean rung's syntax error).
/// Never throws. Values never contain invalid UTF-8 (the parser rejects it), so dump() is safe.
ParseResult parseResponse(std::string_view text, const ParseLimits& limits = {});

/// A located parse error of one document.
struct JsonParseError
{
    std::string message; ///< what went wrong, without location; valid UTF-8
    /// 0-based byte offset where the parser stopped: the last byte of the offending token (nlohmann's
    /// convention; for an unexpected string that is its closing quote), text.size() at end of input
    std::size_t offset = 0;
    std::size_t line = 1; ///< 1-based
    std::size_t column = 1; ///< 1-based, in bytes (as nlohmann and the suite loader count)
};

/// Parses one JSON document (no ladder) under the same depth/size limits.
/// On failure returns false and describes the problem in `error` as
/// "line L, column C (byte B): message".
bool parseJsonDocument(std::string_view text, nlohmann::json& out, std::string& error, const ParseLimits& limits = {});

/// The same, with the location as separate fields.
bool parseJsonDocument(
    std::string_view text, nlohmann::json& out, JsonParseError& error, const ParseLimits& limits = {});

} // namespace structscope
