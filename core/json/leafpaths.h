// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <utility>
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

/// How a leaf walk names an array's elements in its path: by index (`items[0].sku`) or wildcarded (`items[].sku`,
/// the field every element's leaf belongs to).
enum class ArrayPathStyle { Indexed, Wildcard };

/// Walks the scalar leaves of a JSON value depth first, in document order, keeping each leaf's dotted path (as
/// appendPathKey() and appendPathIndex() write it, or with `[]` for every index) and, when `pointers` is set, its
/// RFC 6901 pointer, in two buffers reused from leaf to leaf; calls `onLeaf(value, path, pointer)` for each (the
/// pointer is "" when not kept). Empty objects and arrays have no leaves.
template <ArrayPathStyle Style, typename OnLeaf> class LeafWalk
{
public:
    LeafWalk(bool pointers, OnLeaf onLeaf)
        : m_pointers(pointers)
        , m_onLeaf(std::move(onLeaf))
    { }

    void visit(const nlohmann::json& value)
    {
        if (value.is_object()) {
            for (const auto& [key, child] : value.get_ref<const nlohmann::json::object_t&>()) {
                const std::size_t pathSize = m_path.size();
                const std::size_t pointerSize = m_pointer.size();
                appendPathKey(m_path, key);
                if (m_pointers)
                    appendPointerToken(m_pointer, key);
                visit(child);
                m_path.resize(pathSize);
                m_pointer.resize(pointerSize);
            }
        } else if (value.is_array()) {
            const auto& items = value.get_ref<const nlohmann::json::array_t&>();
            const std::size_t pathSize = m_path.size();
            if constexpr (Style == ArrayPathStyle::Wildcard)
                m_path += "[]";
            for (std::size_t i = 0; i < items.size(); ++i) {
                const std::size_t pointerSize = m_pointer.size();
                if constexpr (Style == ArrayPathStyle::Indexed)
                    appendPathIndex(m_path, i);
                if (m_pointers)
                    appendPointerToken(m_pointer, std::to_string(i));
                visit(items[i]);
                if constexpr (Style == ArrayPathStyle::Indexed)
                    m_path.resize(pathSize);
                m_pointer.resize(pointerSize);
            }
            m_path.resize(pathSize);
        } else {
            m_onLeaf(value, m_path, m_pointer);
        }
    }

private:
    bool m_pointers;
    OnLeaf m_onLeaf;
    std::string m_path;
    std::string m_pointer;
};

/// Walks `value`'s leaves with a LeafWalk of `Style` (see there), calling `onLeaf(value, path, pointer)`.
template <ArrayPathStyle Style, typename OnLeaf>
void walkLeaves(const nlohmann::json& value, bool pointers, OnLeaf onLeaf)
{
    LeafWalk<Style, OnLeaf>(pointers, std::move(onLeaf)).visit(value);
}

} // namespace structscope
