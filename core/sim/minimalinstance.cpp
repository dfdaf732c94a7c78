// SPDX-License-Identifier: Apache-2.0
#include "sim/minimalinstance.h"

#include <cmath>
#include <string>

using nlohmann::json;

namespace structscope {

namespace {

constexpr int kMaxDepth = 32;

const json* resolveRef(const json& root, const json& schema)
{
    const auto ref = schema.find("$ref");
    if (ref == schema.end() || !ref->is_string())
        return &schema;
    const auto& text = ref->get_ref<const std::string&>();
    if (text.rfind('#', 0) != 0)
        return nullptr;
    try {
        const json::json_pointer pointer(text.substr(1));
        return root.contains(pointer) ? &root.at(pointer) : nullptr;
    } catch (const json::exception&) {
        return nullptr;
    }
}

json instance(const json& root, const json& schemaIn, int depth);

json forType(const json& root, const json& schema, const std::string& type, int depth)
{
    if (type == "object") {
        json out = json::object();
        const auto properties = schema.find("properties");
        const auto required = schema.find("required");
        if (required != schema.end() && required->is_array()) {
            for (const json& name : *required) {
                if (!name.is_string())
                    continue;
                const auto& key = name.get_ref<const std::string&>();
                const json* property = nullptr;
                if (properties != schema.end() && properties->is_object() && properties->contains(key))
                    property = &(*properties)[key];
                out[key] = property ? instance(root, *property, depth + 1) : json();
            }
        }
        return out;
    }
    if (type == "array") {
        json out = json::array();
        const auto minItems = schema.find("minItems");
        const auto items = schema.find("items");
        if (minItems != schema.end() && minItems->is_number_unsigned()) {
            const auto count = std::min<std::uint64_t>(minItems->get<std::uint64_t>(), 16);
            for (std::uint64_t i = 0; i < count; ++i)
                out.push_back(items != schema.end() && items->is_object() ? instance(root, *items, depth + 1) : json());
        }
        return out;
    }
    if (type == "string") {
        const auto minLength = schema.find("minLength");
        if (minLength != schema.end() && minLength->is_number_unsigned())
            return std::string(std::min<std::uint64_t>(minLength->get<std::uint64_t>(), 256), 'a');
        return "";
    }
    if (type == "integer" || type == "number") {
        for (const char* bound : { "minimum", "exclusiveMinimum" }) {
            const auto it = schema.find(bound);
            if (it != schema.end() && it->is_number()) {
                double v = it->get<double>();
                if (std::string(bound) == "exclusiveMinimum")
                    v = type == "integer" ? std::floor(v) + 1 : v + 1;
                if (v > 0)
                    return type == "integer" ? json(std::int64_t(std::ceil(v))) : json(v);
            }
        }
        return type == "integer" ? json(0) : json(0.0);
    }
    if (type == "boolean")
        return false;
    return nullptr;
}

json instance(const json& root, const json& schemaIn, int depth)
{
    if (depth > kMaxDepth || !schemaIn.is_object())
        return nullptr;
    const json* resolved = resolveRef(root, schemaIn);
    if (!resolved || !resolved->is_object())
        return json::object();
    const json& schema = *resolved;
    if (const auto c = schema.find("const"); c != schema.end())
        return *c;
    if (const auto e = schema.find("enum"); e != schema.end() && e->is_array() && !e->empty())
        return e->front();
    for (const char* combinator : { "allOf", "anyOf", "oneOf" }) {
        const auto list = schema.find(combinator);
        if (list != schema.end() && list->is_array() && !list->empty() && !schema.contains("type"))
            return instance(root, list->front(), depth + 1);
    }
    const auto type = schema.find("type");
    if (type != schema.end() && type->is_string())
        return forType(root, schema, type->get<std::string>(), depth);
    if (type != schema.end() && type->is_array()) {
        // Prefer null when allowed: it is the smallest answer.
        for (const json& t : *type) {
            if (t == "null")
                return nullptr;
        }
        if (!type->empty() && type->front().is_string())
            return forType(root, schema, type->front().get<std::string>(), depth);
    }
    if (schema.contains("properties") || schema.contains("required"))
        return forType(root, schema, "object", depth);
    return json::object();
}

} // namespace

json minimalInstance(const json& schema)
{
    if (!schema.is_object())
        return json::object();
    json out = instance(schema, schema, 0);
    return out.is_null() ? json::object() : out;
}

} // namespace structscope
