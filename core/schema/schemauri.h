// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "schema/schemapointer.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

// Base URIs of a draft-07 schema document: RFC 3986 reference resolution, and the index of every "$id" in the
// document that a "$ref" resolves against.
namespace structscope::schemadetail {

/// Resolves `reference` against `base` as RFC 3986 section 5.2 says (dot segments removed). `base` may itself be
/// relative or empty: a relative reference against an empty base stays relative (with dot segments removed).
std::string resolveUri(std::string_view base, std::string_view reference);

/// The URI without its fragment, and the fragment (without "#", still %-encoded; empty when there is none).
std::pair<std::string, std::string> splitFragment(std::string_view uri);

/// Whether `match` holds for some object in `value` (`value` itself included): a walk with one stack and no
/// allocation per node, for the quick looks that decide whether a document needs more work at all.
template <typename Match> bool anyObject(const nlohmann::json& value, Match match)
{
    std::vector<const nlohmann::json*> pending { &value };
    while (!pending.empty()) {
        const nlohmann::json* node = pending.back();
        pending.pop_back();
        if (node->is_object() && match(*node))
            return true;
        if (node->is_structured())
            for (const nlohmann::json& child : *node)
                pending.push_back(&child);
    }
    return false;
}

/// Every identified schema of a document, by absolute (or, without a base, relative) URI.
class SchemaIdIndex
{
public:
    /// Indexes the schemas under `root` reachable through draft-07 subschema keywords. Each of `resources` (a
    /// schema document embedded in `root`, such as the meta-schema) is indexed too, after the root's identifiers.
    /// A "$id" beside "$ref" is ignored, as draft-07 ignores every sibling of "$ref".
    explicit SchemaIdIndex(const nlohmann::json& root, const std::vector<PointerTokens>& resources = {});

    /// The base URI that applies at `tokens` (that of the nearest enclosing schema with a "$id"; "" when none).
    std::string baseAt(const PointerTokens& tokens) const;
    /// The schema whose "$id" (or the document's base) is `uri` (no fragment), or nullptr.
    const PointerTokens* resource(const std::string& uri) const;
    /// The schema named by a plain-name fragment ("$id": "#name") in the resource `uri`, or nullptr.
    const PointerTokens* anchor(const std::string& uri, const std::string& name) const;

private:
    void index(const nlohmann::json& root, PointerTokens start, std::string base);

    /// Base URIs set by a "$id", by the pointer of the schema holding it.
    std::unordered_map<std::string, std::string> m_bases;
    std::unordered_map<std::string, PointerTokens> m_resources;
    std::map<std::pair<std::string, std::string>, PointerTokens> m_anchors;
};

} // namespace structscope::schemadetail
