// SPDX-License-Identifier: Apache-2.0
#include "audit/goldpatch.h"

#include "schema/schemapointer.h"

using nlohmann::json;

namespace structscope {

namespace {

/// Splits the pointer a patch applies at into `tokens`; false, with the error in `out`, when it is malformed.
bool parsePatchPointer(std::string_view pointer, schemadetail::PointerTokens& tokens, GoldPatch& out)
{
    if (schemadetail::parsePointer(pointer, &tokens))
        return true;
    out.error = "malformed JSON pointer \"" + std::string(pointer) + "\"";
    return false;
}

} // namespace

std::optional<json> valueAtPointer(const json& doc, std::string_view pointer)
{
    schemadetail::PointerTokens tokens;
    if (!schemadetail::parsePointer(pointer, &tokens))
        return std::nullopt;
    if (const json* value = schemadetail::resolveTokens(doc, tokens))
        return *value;
    return std::nullopt;
}

bool samePlaceValue(const std::optional<json>& a, const std::optional<json>& b)
{
    if (a.has_value() != b.has_value())
        return false;
    return !a || *a == *b;
}

GoldPatch withValueAt(const json& doc, std::string_view pointer, const std::optional<json>& value)
{
    GoldPatch out;
    schemadetail::PointerTokens tokens;
    if (!parsePatchPointer(pointer, tokens, out))
        return out;
    if (tokens.empty()) {
        if (!value)
            out.error = "the whole gold cannot be removed";
        else
            out.document = *value;
        return out;
    }
    json patched = doc;
    const std::string last = tokens.back();
    tokens.pop_back();
    json* node = &patched;
    for (const std::string& token : tokens) {
        std::size_t index = 0;
        if (node->is_object() && node->contains(token))
            node = &(*node)[token];
        else if (node->is_array() && schemadetail::parseArrayIndex(token, &index) && index < node->size())
            node = &(*node)[index];
        else
            node = nullptr;
        if (!node) {
            out.error = "the gold has no place \"" + schemadetail::pointerFromTokens(tokens) + "\"";
            return out;
        }
    }
    json& parent = *node;
    if (parent.is_object()) {
        if (value)
            parent[last] = *value;
        else if (parent.erase(last) == 0) {
            out.error = "the gold has no key at \"" + std::string(pointer) + "\"";
            return out;
        }
    } else if (parent.is_array()) {
        std::size_t index = 0;
        if (!schemadetail::parseArrayIndex(last, &index) || index > parent.size()
            || (index == parent.size() && !value)) {
            out.error = "no array element at \"" + std::string(pointer) + "\"";
            return out;
        }
        if (!value)
            parent.erase(index);
        else if (index == parent.size())
            parent.push_back(*value);
        else
            parent[index] = *value;
    } else {
        out.error
            = "the value at \"" + schemadetail::pointerFromTokens(tokens) + "\" is neither an object nor an array";
        return out;
    }
    out.document = std::move(patched);
    return out;
}

} // namespace structscope

namespace structscope {

GoldPatch withElementInserted(const json& doc, std::string_view pointer, const json& value)
{
    GoldPatch out;
    schemadetail::PointerTokens tokens;
    if (!parsePatchPointer(pointer, tokens, out))
        return out;
    if (tokens.empty()) {
        out.error = "the whole gold is not an array element";
        return out;
    }
    const std::string last = tokens.back();
    tokens.pop_back();
    const std::string parentPointer = schemadetail::pointerFromTokens(tokens);
    std::optional<json> parent = valueAtPointer(doc, parentPointer);
    std::size_t index = 0;
    if (!parent || !parent->is_array()) {
        out.error = "the value at \"" + parentPointer + "\" is not an array";
        return out;
    }
    if (!schemadetail::parseArrayIndex(last, &index) || index > parent->size()) {
        out.error = "no array place at \"" + std::string(pointer) + "\"";
        return out;
    }
    parent->insert(parent->begin() + std::ptrdiff_t(index), value);
    return withValueAt(doc, parentPointer, *parent);
}

} // namespace structscope
