// SPDX-License-Identifier: Apache-2.0
#include "schema/schemapointer.h"

#include "json/leafpaths.h"

namespace structscope::schemadetail {

std::string appendToken(const std::string& pointer, std::string_view token)
{
    return pointer + '/' + escapePointerToken(token);
}

std::string pointerFromTokens(const PointerTokens& tokens)
{
    std::string out;
    for (const std::string& t : tokens)
        out = appendToken(out, t);
    return out;
}

bool parsePointer(std::string_view pointer, PointerTokens* tokens)
{
    tokens->clear();
    if (pointer.empty())
        return true;
    if (pointer.front() != '/')
        return false;
    std::string current;
    for (std::size_t i = 1; i <= pointer.size(); ++i) {
        if (i == pointer.size() || pointer[i] == '/') {
            tokens->push_back(std::move(current));
            current.clear();
            continue;
        }
        if (pointer[i] == '~') {
            if (i + 1 >= pointer.size() || (pointer[i + 1] != '0' && pointer[i + 1] != '1'))
                return false;
            current += pointer[i + 1] == '0' ? '~' : '/';
            ++i;
            continue;
        }
        current += pointer[i];
    }
    return true;
}

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace

bool percentDecode(std::string_view text, std::string* out)
{
    out->clear();
    out->reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            *out += text[i];
            continue;
        }
        if (i + 2 >= text.size())
            return false;
        const int hi = hexValue(text[i + 1]);
        const int lo = hexValue(text[i + 2]);
        if (hi < 0 || lo < 0)
            return false;
        *out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    return true;
}

std::string percentEncodeForRef(std::string_view pointer)
{
    std::string out;
    out.reserve(pointer.size());
    for (const char c : pointer) {
        if (c == '%')
            out += "%25";
        else
            out += c;
    }
    return out;
}

bool parseArrayIndex(std::string_view token, std::size_t* index)
{
    if (token.empty() || token.size() > 18 || (token.size() > 1 && token.front() == '0'))
        return false;
    std::size_t value = 0;
    for (const char c : token) {
        if (c < '0' || c > '9')
            return false;
        value = value * 10 + static_cast<std::size_t>(c - '0');
    }
    *index = value;
    return true;
}

const nlohmann::json* resolveTokens(const nlohmann::json& root, const PointerTokens& tokens, std::size_t* failedAt)
{
    const nlohmann::json* node = &root;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string& token = tokens[i];
        if (node->is_object()) {
            const auto it = node->find(token);
            if (it == node->end()) {
                if (failedAt)
                    *failedAt = i;
                return nullptr;
            }
            node = &*it;
        } else if (node->is_array()) {
            std::size_t index = 0;
            if (!parseArrayIndex(token, &index) || index >= node->size()) {
                if (failedAt)
                    *failedAt = i;
                return nullptr;
            }
            node = &(*node)[index];
        } else {
            if (failedAt)
                *failedAt = i;
            return nullptr;
        }
    }
    return node;
}

std::string jsonTypeName(const nlohmann::json& value)
{
    switch (value.type()) {
    case nlohmann::json::value_t::null:
        return "null";
    case nlohmann::json::value_t::boolean:
        return "boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
        return "integer";
    case nlohmann::json::value_t::number_float:
        return "number";
    case nlohmann::json::value_t::string:
        return "string";
    case nlohmann::json::value_t::array:
        return "array";
    case nlohmann::json::value_t::object:
        return "object";
    default:
        return "value";
    }
}

std::string truncateUtf8(std::string_view text, std::size_t maxBytes)
{
    if (text.size() <= maxBytes)
        return std::string(text);
    std::size_t cut = maxBytes;
    // Step back over continuation bytes so a multi-byte character is never split.
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    return std::string(text.substr(0, cut)) + "\xE2\x80\xA6";
}

std::string quoteText(std::string_view text, std::size_t maxBytes)
{
    return nlohmann::json(truncateUtf8(text, maxBytes)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string previewJson(const nlohmann::json& value, std::size_t maxChars)
{
    if (value.is_object())
        return value.empty() ? "an empty object" : "an object";
    if (value.is_array())
        return value.empty() ? "an empty array"
                             : "an array of " + std::to_string(value.size()) + (value.size() == 1 ? " item" : " items");
    const std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return truncateUtf8(text, maxChars);
}

} // namespace structscope::schemadetail
