// SPDX-License-Identifier: Apache-2.0
#include "schema/keywordaudit.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace structscope::schemadetail {

namespace {

struct Ignored
{
    std::string_view origin;
    std::string_view advice;
};

const std::unordered_map<std::string_view, Ignored>& ignoredKeywords()
{
    static const std::unordered_map<std::string_view, Ignored> table = {
        { "prefixItems", { "JSON Schema 2020-12", "draft-07 uses an \"items\" array" } },
        { "$dynamicRef", { "JSON Schema 2020-12", "draft-07 has only \"$ref\"" } },
        { "$dynamicAnchor", { "JSON Schema 2020-12", "draft-07 names anchors with \"$id\": \"#name\"" } },
        { "unevaluatedProperties", { "JSON Schema 2019-09", "draft-07 has only \"additionalProperties\"" } },
        { "unevaluatedItems", { "JSON Schema 2019-09", "draft-07 has only \"additionalItems\"" } },
        { "dependentRequired", { "JSON Schema 2019-09", "draft-07 uses \"dependencies\" with an array" } },
        { "dependentSchemas", { "JSON Schema 2019-09", "draft-07 uses \"dependencies\" with a schema" } },
        { "minContains", { "JSON Schema 2019-09", "draft-07 has only \"contains\"" } },
        { "maxContains", { "JSON Schema 2019-09", "draft-07 has only \"contains\"" } },
        { "contentSchema", { "JSON Schema 2019-09", "draft-07 does not validate encoded content" } },
        { "$anchor", { "JSON Schema 2019-09", "draft-07 names anchors with \"$id\": \"#name\"" } },
        { "$recursiveRef", { "JSON Schema 2019-09", "draft-07 has only \"$ref\"" } },
        { "$recursiveAnchor", { "JSON Schema 2019-09", "draft-07 has only \"$ref\"" } },
        { "$vocabulary", { "JSON Schema 2019-09", "draft-07 has no vocabularies" } },
        { "divisibleBy", { "JSON Schema draft-03", "use \"multipleOf\"" } },
        { "extends", { "JSON Schema draft-03", "use \"allOf\"" } },
        { "disallow", { "JSON Schema draft-03", "use \"not\"" } },
        { "nullable", { "OpenAPI, not JSON Schema", "use \"type\": [\"...\", \"null\"]" } },
    };
    return table;
}

bool isDraft07Uri(std::string text)
{
    if (!text.empty() && text.back() == '#')
        text.pop_back();
    return text == "http://json-schema.org/draft-07/schema" || text == "https://json-schema.org/draft-07/schema";
}

} // namespace

std::vector<SchemaError> auditKeywords(const SchemaGraph& graph)
{
    std::vector<SchemaError> out;
    for (const SchemaNode& node : graph.nodes) {
        if (!node.value->is_object())
            continue;
        for (const auto& [key, value] : node.value->items()) {
            const std::string pointer = appendToken(node.pointer, key);
            if (const auto it = ignoredKeywords().find(key); it != ignoredKeywords().end()) {
                out.push_back(SchemaError { pointer,
                    "unsupported keyword '" + key + "' (" + std::string(it->second.origin) + "; "
                        + std::string(it->second.advice) + "): the draft-07 validator ignores it" });
            } else if (key == "$schema" && value.is_string() && !isDraft07Uri(value.get<std::string>())) {
                out.push_back(SchemaError { pointer,
                    "unsupported dialect " + quoteText(value.get<std::string>(), 120)
                        + ": the schema is validated as draft-07" });
            }
        }
    }
    std::sort(out.begin(), out.end(), [](const SchemaError& a, const SchemaError& b) { return a.pointer < b.pointer; });
    return out;
}

} // namespace structscope::schemadetail
