#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace structscope {

/// One leaf of a JSON document: its dotted path (METRICS.md §0) and the value.
struct Leaf
{
    std::string path; ///< objects join keys with '.', arrays add "[i]"; the root leaf has path ""
    const nlohmann::json* value = nullptr; ///< points into the flattened document
};

/// Every leaf (non-container value, null included) in document order; empty {} / [] have none.
std::vector<Leaf> flattenLeaves(const nlohmann::json& doc);

/// Replaces every array index "[i]" in a leaf path by "[]".
std::string wildcardPath(std::string_view path);

/// Converts a dotted leaf path to an RFC 6901 JSON pointer ("a.b[2]" → "/a/b/2").
std::string leafPathToPointer(std::string_view path);

} // namespace structscope
