// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace structscope {

/// One leaf of a JSON document: its dotted path (docs/metrics.md §0) and the value.
struct Leaf
{
    std::string path; ///< objects join keys with '.', arrays add "[i]"; the root leaf has path ""
    const nlohmann::json* value = nullptr; ///< points into the flattened document
    std::string pointer; ///< RFC 6901 pointer of the leaf; only filled with LeafPointers::Fill
};

/// Whether flattenLeaves() also builds each leaf's exact JSON pointer (costs one more string per leaf).
enum class LeafPointers { Omit, Fill };

/// Every leaf (non-container value, null included) in document order; empty {} / [] have none.
/// Document order is nlohmann::json's iteration order: object keys sorted bytewise, arrays by index.
/// Dotted paths are not escaped, so keys containing '.', '[' or nothing are ambiguous there; the
/// pointer is always exact.
std::vector<Leaf> flattenLeaves(const nlohmann::json& doc, LeafPointers pointers = LeafPointers::Omit);

/// Sizes of a document in the units the extraction metrics count.
struct LeafCounts
{
    int leaves = 0; ///< leaf values, null included
    int nonNullLeaves = 0; ///< leaf values other than null
    int keys = 0; ///< leaves plus empty {} / [] below the root: the places a MissingKey can name
};

/// Counts leaves, non-null leaves and keys of `doc` (see LeafCounts).
LeafCounts countLeaves(const nlohmann::json& doc);

/// Replaces every array index "[i]" in a leaf path by "[]".
std::string wildcardPath(std::string_view path);

/// Converts a dotted leaf path to an RFC 6901 JSON pointer ("a.b[2]" → "/a/b/2", "" → "").
/// Splits at every '.' and every "[digits]", escaping '~' and '/' in the keys.
std::string leafPathToPointer(std::string_view path);

/// Escapes one reference token for a JSON pointer (RFC 6901: "~" → "~0", "/" → "~1").
std::string escapePointerToken(std::string_view token);

/// `base` extended by one object key or array index token (escaped): pointerJoin("/a", "b/c") == "/a/b~1c".
std::string pointerJoin(std::string_view base, std::string_view token);

/// Appends "/token" (escaped) to `pointer` in place.
void appendPointerToken(std::string& pointer, std::string_view token);

/// Appends a key to a dotted path in place ("a" + "b" → "a.b"; at the root just "b").
void appendPathKey(std::string& path, std::string_view key);

/// Appends an array index to a dotted path in place ("a" + 2 → "a[2]").
void appendPathIndex(std::string& path, std::size_t index);

} // namespace structscope
