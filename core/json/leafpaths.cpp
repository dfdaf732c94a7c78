// SPDX-License-Identifier: Apache-2.0
#include "json/leafpaths.h"

namespace structscope {

using nlohmann::json;

namespace {

void countInto(const json& value, LeafCounts& counts, bool root)
{
    if (value.is_structured()) {
        if (value.empty()) {
            if (!root)
                ++counts.keys;
            return;
        }
        if (value.is_object()) {
            for (const auto& [key, child] : value.get_ref<const json::object_t&>())
                countInto(child, counts, false);
        } else {
            for (const json& child : value.get_ref<const json::array_t&>())
                countInto(child, counts, false);
        }
        return;
    }
    ++counts.leaves;
    ++counts.keys;
    if (!value.is_null())
        ++counts.nonNullLeaves;
}

// Length of "[digits]" starting at path[i], 0 if there is none.
std::size_t indexTokenLength(std::string_view path, std::size_t i)
{
    if (i >= path.size() || path[i] != '[')
        return 0;
    std::size_t j = i + 1;
    while (j < path.size() && path[j] >= '0' && path[j] <= '9')
        ++j;
    if (j == i + 1 || j >= path.size() || path[j] != ']')
        return 0;
    return j - i + 1;
}

} // namespace

std::vector<Leaf> flattenLeaves(const json& doc, LeafPointers pointers)
{
    std::vector<Leaf> leaves;
    walkLeaves<ArrayPathStyle::Indexed>(doc, pointers == LeafPointers::Fill,
        [&leaves](const json& value, const std::string& path, const std::string& pointer) {
            leaves.push_back(Leaf { path, &value, pointer });
        });
    return leaves;
}

LeafCounts countLeaves(const json& doc)
{
    LeafCounts counts;
    countInto(doc, counts, true);
    return counts;
}

std::string wildcardPath(std::string_view path)
{
    std::string out;
    out.reserve(path.size());
    std::size_t i = 0;
    while (i < path.size()) {
        const std::size_t len = indexTokenLength(path, i);
        if (len > 0) {
            out += "[]";
            i += len;
        } else {
            out.push_back(path[i++]);
        }
    }
    return out;
}

std::string leafPathToPointer(std::string_view path)
{
    std::string out;
    if (path.empty())
        return out;
    std::size_t i = 0;
    bool expectKey = indexTokenLength(path, 0) == 0; // a root array's path starts with "[i]"
    for (;;) {
        if (expectKey) {
            std::size_t end = i;
            while (end < path.size() && path[end] != '.' && indexTokenLength(path, end) == 0)
                ++end;
            appendPointerToken(out, path.substr(i, end - i));
            i = end;
        }
        while (const std::size_t len = indexTokenLength(path, i)) {
            appendPointerToken(out, path.substr(i + 1, len - 2));
            i += len;
        }
        if (i >= path.size())
            break;
        if (path[i] == '.')
            ++i;
        expectKey = true;
    }
    return out;
}

std::string escapePointerToken(std::string_view token)
{
    std::string out;
    out.reserve(token.size());
    for (const char c : token) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out.push_back(c);
    }
    return out;
}

void appendPointerToken(std::string& pointer, std::string_view token)
{
    pointer.push_back('/');
    for (const char c : token) {
        if (c == '~')
            pointer += "~0";
        else if (c == '/')
            pointer += "~1";
        else
            pointer.push_back(c);
    }
}

std::string pointerJoin(std::string_view base, std::string_view token)
{
    std::string out(base);
    appendPointerToken(out, token);
    return out;
}

void appendPathKey(std::string& path, std::string_view key)
{
    if (!path.empty())
        path.push_back('.');
    path.append(key);
}

void appendPathIndex(std::string& path, std::size_t index)
{
    path.push_back('[');
    path += std::to_string(index);
    path.push_back(']');
}

} // namespace structscope
