#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace structscope {

/// Outcome of parsing one complete JSON text (see parseJsonText).
struct JsonTextParse
{
    bool ok = false;
    bool tooDeep = false; ///< stopped because arrays/objects nest deeper than the limit
    std::size_t errorOffset = 0; ///< 0-based offset of the last byte read (text.size() at end of input)
    std::string message; ///< the parser's message, valid UTF-8, at most a few hundred bytes
};

/// Parses `text` as exactly one JSON value (whitespace and a leading BOM allowed) into `out`.
/// Never throws and never recurses: nesting deeper than `maxDepth` stops the parse early.
/// Strings in a successfully parsed value are always valid UTF-8 (the lexer rejects anything else),
/// so dump() on the result cannot throw. On failure `out` is null.
JsonTextParse parseJsonText(std::string_view text, int maxDepth, nlohmann::json& out);

/// 1-based line and column of a byte offset; the column counts bytes, as nlohmann and the suite
/// loader do. An offset past the end is clamped to the end.
struct TextLocation
{
    std::size_t line = 1;
    std::size_t column = 1;
};
TextLocation locateOffset(std::string_view text, std::size_t offset);

/// Byte offset of the first '[' or '{' (outside strings) that opens nesting level maxDepth + 1,
/// or text.size() when there is none. Used to locate a depth error.
std::size_t findTooDeepOffset(std::string_view text, int maxDepth);

} // namespace structscope
