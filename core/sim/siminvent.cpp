// SPDX-License-Identifier: Apache-2.0
#include "sim/simfaultsdetail.h"

#include "json/leafpaths.h"

#include <algorithm>
#include <array>
#include <regex>

using nlohmann::json;

namespace structscope::simdetail {

namespace {

void walk(const json& value, DocNode node, std::vector<DocNode>& out)
{
    node.value = &value;
    out.push_back(node);
    if (value.is_object()) {
        for (auto it = value.begin(); it != value.end(); ++it) {
            DocNode child;
            child.pointer = pointerJoin(node.pointer, it.key());
            child.tokens = node.tokens;
            child.tokens.push_back(it.key());
            child.inObject = true;
            walk(it.value(), std::move(child), out);
        }
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i) {
            DocNode child;
            child.pointer = pointerJoin(node.pointer, std::to_string(i));
            child.tokens = node.tokens;
            child.tokens.push_back(std::to_string(i));
            walk(value[i], std::move(child), out);
        }
    }
}

bool matchesPattern(const json* sub, const std::string& text)
{
    if (!sub || !sub->is_object())
        return true;
    const auto it = sub->find("pattern");
    if (it == sub->end() || !it->is_string())
        return true;
    try {
        return std::regex_search(text, std::regex(it->get<std::string>(), std::regex::ECMAScript));
    } catch (const std::regex_error&) {
        return true;
    }
}

std::string formatOf(const json* sub)
{
    if (sub && sub->is_object()) {
        if (const auto it = sub->find("format"); it != sub->end() && it->is_string())
            return it->get<std::string>();
    }
    return {};
}

bool keyHas(const std::string& key, const char* word)
{
    return key.find(word) != std::string::npos;
}

// Made-up strings look like what the field would hold, so that an invention reads as a
// plausible value rather than as garbage (the failure that is silent in production).
std::string inventString(const json* sub, const std::string& key, Xoshiro256& rng)
{
    const std::string format = formatOf(sub);
    std::vector<std::string> candidates;
    if (format == "date")
        candidates = { "2024-06-14", "2024-05-02" };
    else if (format == "date-time")
        candidates = { "2024-06-14T09:30:00Z" };
    else if (format == "time")
        candidates = { "09:30:00" };
    else if (format == "email" || keyHas(key, "email"))
        candidates = { "info@example.com", "contact@example.org" };
    else if (keyHas(key, "phone") || keyHas(key, "fax"))
        candidates = { "+442079460000", "+1 555 0100" };
    else if (keyHas(key, "date") || keyHas(key, "deadline") || keyHas(key, "birthday"))
        candidates = { "14.06.2024", "2024-06-14" };
    else if (keyHas(key, "instruction") || keyHas(key, "note"))
        candidates = { "extra crispy", "no ice" };
    else if (keyHas(key, "question"))
        candidates = { "Would you like a drink with that?" };
    else if (key == "size")
        candidates = { "large", "medium" };
    else if (keyHas(key, "price") || keyHas(key, "amount") || keyHas(key, "cost"))
        candidates = { "EUR 1,200", "about 2 million" };
    else if (keyHas(key, "country") || keyHas(key, "currency"))
        candidates = { "GB", "EUR" };
    else if (keyHas(key, "name") || keyHas(key, "person") || keyHas(key, "contact"))
        candidates = { "Alex Morgan", "Sam Taylor", "Jordan Lee" };
    else if (keyHas(key, "city") || keyHas(key, "place") || keyHas(key, "location"))
        candidates = { "Springfield", "Bristol" };
    else
        candidates = { "REF-1042", "Standard", "See attached" };
    // Values that fit a pattern elsewhere in the suites, tried when the first choices do not.
    static const std::array<const char*, 8> fallbacks { "14.06.2024", "2024-06-14", "GB", "AB-10427", "ORD-20240614",
        "SW1A 1AA", "+441234567890", "AB12" };
    const std::size_t start = rng.bounded(candidates.size());
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const std::string& c = candidates[(start + i) % candidates.size()];
        if (matchesPattern(sub, c))
            return c;
    }
    for (const char* c : fallbacks) {
        if (matchesPattern(sub, c))
            return c;
    }
    return candidates[start];
}

double clampToSchema(const json* sub, double value)
{
    if (!sub || !sub->is_object())
        return value;
    if (const auto it = sub->find("minimum"); it != sub->end() && it->is_number() && value < it->get<double>())
        value = it->get<double>();
    if (const auto it = sub->find("maximum"); it != sub->end() && it->is_number() && value > it->get<double>())
        value = it->get<double>();
    return value;
}

} // namespace

std::vector<DocNode> walkDocument(const json& doc)
{
    std::vector<DocNode> out;
    walk(doc, DocNode {}, out);
    return out;
}

const json* propertySchema(const json* objectSchema, const std::string& key)
{
    if (!objectSchema || !objectSchema->is_object())
        return nullptr;
    if (const auto props = objectSchema->find("properties"); props != objectSchema->end() && props->is_object()) {
        if (const auto it = props->find(key); it != props->end())
            return &*it;
    }
    if (const auto add = objectSchema->find("additionalProperties"); add != objectSchema->end() && add->is_object())
        return &*add;
    return nullptr;
}

const json* schemaAt(const json* schema, const json& doc, const std::vector<std::string>& tokens)
{
    const json* sub = schema;
    const json* node = &doc;
    for (const std::string& token : tokens) {
        if (!sub || !sub->is_object() || !node)
            return nullptr;
        if (node->is_object()) {
            sub = propertySchema(sub, token);
            const auto it = node->find(token);
            node = it == node->end() ? nullptr : &*it;
        } else if (node->is_array()) {
            // applyFaultAt() takes any pointer: a token that is no array index describes nothing.
            if (token.empty() || token.size() > 9 || token.find_first_not_of("0123456789") != std::string::npos)
                return nullptr;
            const std::size_t index = std::stoul(token);
            const auto items = sub->find("items");
            if (items == sub->end())
                return nullptr;
            sub = items->is_array() ? (index < items->size() ? &(*items)[index] : nullptr) : &*items;
            node = index < node->size() ? &(*node)[index] : nullptr;
        } else {
            return nullptr;
        }
    }
    return sub;
}

std::vector<std::string> schemaTypes(const json* sub)
{
    std::vector<std::string> types;
    if (!sub || !sub->is_object())
        return types;
    if (const auto it = sub->find("type"); it != sub->end()) {
        if (it->is_string())
            types.push_back(it->get<std::string>());
        else if (it->is_array()) {
            for (const json& t : *it) {
                if (t.is_string())
                    types.push_back(t.get<std::string>());
            }
        }
        return types;
    }
    if (const auto it = sub->find("enum"); it != sub->end() && it->is_array()) {
        for (const json& v : *it) {
            const std::string t = v.is_string() ? "string"
                : v.is_number_integer()         ? "integer"
                : v.is_number()                 ? "number"
                : v.is_boolean()                ? "boolean"
                : v.is_null()                   ? "null"
                                                : "object";
            if (std::find(types.begin(), types.end(), t) == types.end())
                types.push_back(t);
        }
    }
    return types;
}

bool hasEnum(const json* sub)
{
    return sub && sub->is_object() && sub->contains("enum") && (*sub)["enum"].is_array();
}

json inventValue(const json* sub, const std::string& key, Xoshiro256& rng, int depth)
{
    if (hasEnum(sub)) {
        std::vector<json> choices;
        // NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage): hasEnum(sub) is false for a null sub
        for (const json& v : (*sub)["enum"]) {
            if (!v.is_null())
                choices.push_back(v);
        }
        if (!choices.empty())
            return choices[rng.bounded(choices.size())];
    }
    std::string type = "string";
    for (const std::string& t : schemaTypes(sub)) {
        if (t != "null") {
            type = t;
            break;
        }
    }
    if (type == "integer")
        return static_cast<std::int64_t>(clampToSchema(sub, static_cast<double>(1 + rng.bounded(12))));
    if (type == "number")
        return clampToSchema(sub, 12.5 * static_cast<double>(1 + rng.bounded(8)));
    if (type == "boolean")
        return rng.bounded(2) == 0;
    if (type == "object" && depth < 3) {
        json obj = json::object();
        if (sub && sub->contains("properties") && (*sub)["properties"].is_object()) {
            for (auto it = (*sub)["properties"].begin(); it != (*sub)["properties"].end(); ++it)
                obj[it.key()] = inventValue(&it.value(), it.key(), rng, depth + 1);
        }
        if (obj.empty())
            obj["value"] = inventString(nullptr, key, rng);
        return obj;
    }
    if (type == "array" && depth < 3) {
        const json* items = sub && sub->contains("items") && (*sub)["items"].is_object() ? &(*sub)["items"] : nullptr;
        return json::array({ inventValue(items, key, rng, depth + 1) });
    }
    return inventString(sub, key, rng);
}

json* findValue(json& doc, const std::string& pointer)
{
    try {
        const json::json_pointer p(pointer);
        if (!doc.contains(p))
            return nullptr;
        return &doc.at(p);
    } catch (const json::exception&) {
        return nullptr;
    }
}

std::vector<std::string> pointerTokens(const std::string& pointer)
{
    std::vector<std::string> tokens;
    if (pointer.empty())
        return tokens;
    std::string current;
    // RFC 6901 escapes, decoded in one pass so that "~01" stays "~1".
    for (std::size_t i = 1; i <= pointer.size(); ++i) {
        if (i == pointer.size() || pointer[i] == '/') {
            tokens.push_back(current);
            current.clear();
        } else if (pointer[i] == '~' && i + 1 < pointer.size()) {
            current += pointer[i + 1] == '1' ? '/' : '~';
            ++i;
        } else {
            current += pointer[i];
        }
    }
    return tokens;
}

bool splitPointer(const std::string& pointer, std::string* parent, std::string* last)
{
    const std::size_t slash = pointer.rfind('/');
    if (pointer.empty() || slash == std::string::npos)
        return false;
    *parent = pointer.substr(0, slash);
    const std::vector<std::string> tokens = pointerTokens(pointer);
    *last = tokens.empty() ? std::string() : tokens.back();
    return true;
}

} // namespace structscope::simdetail
