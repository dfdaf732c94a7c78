// SPDX-License-Identifier: Apache-2.0
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
/// Never throws; nesting deeper than `maxDepth` stops the parse early. Only the quick path's conversion recurses,
/// at most min(maxDepth, 1024) levels; the parsers themselves keep their own stacks.
/// Strings in a successfully parsed value are always valid UTF-8 (the lexer rejects anything else),
/// so dump() on the result cannot throw. On failure `out` is null.
JsonTextParse parseJsonText(std::string_view text, int maxDepth, nlohmann::json& out);

/// parseJsonText without its quick path: nlohmann's parser alone (what parseJsonText falls back to, and what its
/// quick path has to agree with). Exposed for tests and benchmarks.
JsonTextParse parseJsonTextWithNlohmann(std::string_view text, int maxDepth, nlohmann::json& out);

/// True when both are objects with the same keys, or arrays of the same length, whose members are so in turn, and
/// `leaf(x, y)` holds for every pair of members (or the values themselves) of which one is no object or array.
/// The walk of identicalJson and of any other equality that differs only in its scalars.
template <typename Leaf> bool sameStructureJson(const nlohmann::json& a, const nlohmann::json& b, const Leaf& leaf)
{
    if (a.is_object() && b.is_object()) {
        const auto& ao = a.get_ref<const nlohmann::json::object_t&>();
        const auto& bo = b.get_ref<const nlohmann::json::object_t&>();
        if (ao.size() != bo.size())
            return false;
        for (auto ai = ao.begin(), bi = bo.begin(); ai != ao.end(); ++ai, ++bi) {
            if (ai->first != bi->first || !sameStructureJson(ai->second, bi->second, leaf))
                return false;
        }
        return true;
    }
    if (a.is_array() && b.is_array()) {
        const auto& aa = a.get_ref<const nlohmann::json::array_t&>();
        const auto& ba = b.get_ref<const nlohmann::json::array_t&>();
        if (aa.size() != ba.size())
            return false;
        for (std::size_t i = 0; i < aa.size(); ++i) {
            if (!sameStructureJson(aa[i], ba[i], leaf))
                return false;
        }
        return true;
    }
    return leaf(a, b);
}

/// True when both are the same JSON value down to the representation: the same types (a signed integer is not an
/// unsigned one), floats bit for bit (0.0 is not -0.0). Stricter than operator==.
bool identicalJson(const nlohmann::json& a, const nlohmann::json& b);

/// Only the quick path of parseJsonText: simdjson's parser, its DOM converted into nlohmann's. True only when `out`
/// is exactly the value parseJsonText (nlohmann's parser) would build; false for any error and for the rare
/// documents where the two could differ (see jsontext.cpp), `out` then null. Exposed for tests and benchmarks.
bool parseJsonQuickly(std::string_view text, int maxDepth, nlohmann::json& out);

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
