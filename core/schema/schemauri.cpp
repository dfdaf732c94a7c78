// SPDX-License-Identifier: Apache-2.0
#include "schema/schemauri.h"

#include "schema/schemawalker.h"

#include <optional>

namespace structscope::schemadetail {

using json = nlohmann::json;

namespace {

/// The five components of RFC 3986 section 3; an absent component differs from an empty one.
struct UriParts
{
    std::optional<std::string> scheme;
    std::optional<std::string> authority;
    std::string path;
    std::optional<std::string> query;
    std::optional<std::string> fragment;
};

bool isSchemeChar(char c, bool first)
{
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (first)
        return alpha;
    return alpha || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
}

UriParts parseUri(std::string_view text)
{
    UriParts parts;
    if (const std::size_t hash = text.find('#'); hash != std::string_view::npos) {
        parts.fragment = std::string(text.substr(hash + 1));
        text = text.substr(0, hash);
    }
    if (const std::size_t question = text.find('?'); question != std::string_view::npos) {
        parts.query = std::string(text.substr(question + 1));
        text = text.substr(0, question);
    }
    // A scheme is letters, digits, "+-." up to the first ':', before any '/'.
    if (const std::size_t colon = text.find(':'); colon != std::string_view::npos && colon > 0) {
        bool scheme = true;
        for (std::size_t i = 0; i < colon && scheme; ++i)
            scheme = isSchemeChar(text[i], i == 0);
        if (scheme) {
            parts.scheme = std::string(text.substr(0, colon));
            text = text.substr(colon + 1);
        }
    }
    if (text.substr(0, 2) == "//") {
        const std::size_t end = text.find('/', 2);
        parts.authority = std::string(text.substr(2, end == std::string_view::npos ? std::string_view::npos : end - 2));
        text = end == std::string_view::npos ? std::string_view() : text.substr(end);
    }
    parts.path = std::string(text);
    return parts;
}

/// RFC 3986 section 5.2.4.
std::string removeDotSegments(std::string_view input)
{
    std::string output;
    while (!input.empty()) {
        if (input.substr(0, 3) == "../") {
            input.remove_prefix(3);
        } else if (input.substr(0, 2) == "./" || input.substr(0, 3) == "/./") {
            input.remove_prefix(2); // "./" goes; "/./" becomes "/"
        } else if (input == "/.") {
            input = "/";
        } else if (input.substr(0, 4) == "/../" || input == "/..") {
            input = input.size() == 3 ? std::string_view("/") : input.substr(3);
            const std::size_t last = output.rfind('/');
            output.erase(last == std::string::npos ? 0 : last);
        } else if (input == "." || input == "..") {
            input = {};
        } else {
            const std::size_t next = input.find('/', input.front() == '/' ? 1 : 0);
            const std::size_t size = next == std::string_view::npos ? input.size() : next;
            output.append(input.substr(0, size));
            input.remove_prefix(size);
        }
    }
    return output;
}

/// RFC 3986 section 5.2.3.
std::string mergePaths(const UriParts& base, const std::string& path)
{
    if (base.authority && base.path.empty())
        return "/" + path;
    const std::size_t slash = base.path.rfind('/');
    return slash == std::string::npos ? path : base.path.substr(0, slash + 1) + path;
}

std::string recompose(const UriParts& parts)
{
    std::string out;
    if (parts.scheme)
        out += *parts.scheme + ":";
    if (parts.authority)
        out += "//" + *parts.authority;
    out += parts.path;
    if (parts.query)
        out += "?" + *parts.query;
    if (parts.fragment)
        out += "#" + *parts.fragment;
    return out;
}

} // namespace

std::string resolveUri(std::string_view base, std::string_view reference)
{
    const UriParts r = parseUri(reference);
    const UriParts b = parseUri(base);
    UriParts t;
    if (r.scheme) {
        t.scheme = r.scheme;
        t.authority = r.authority;
        t.path = removeDotSegments(r.path);
        t.query = r.query;
    } else {
        if (r.authority) {
            t.authority = r.authority;
            t.path = removeDotSegments(r.path);
            t.query = r.query;
        } else {
            if (r.path.empty()) {
                t.path = b.path;
                t.query = r.query ? r.query : b.query;
            } else {
                t.path = removeDotSegments(r.path.front() == '/' ? r.path : mergePaths(b, r.path));
                t.query = r.query;
            }
            t.authority = b.authority;
        }
        t.scheme = b.scheme;
    }
    t.fragment = r.fragment;
    return recompose(t);
}

std::pair<std::string, std::string> splitFragment(std::string_view uri)
{
    const std::size_t hash = uri.find('#');
    if (hash == std::string_view::npos)
        return { std::string(uri), std::string() };
    return { std::string(uri.substr(0, hash)), std::string(uri.substr(hash + 1)) };
}

namespace { } // namespace

SchemaIdIndex::SchemaIdIndex(const json& root, const std::vector<PointerTokens>& resources)
{
    // Most documents have no "$id": indexing them is skipped.
    if (anyObject(root, [](const json& object) { return object.contains("$id"); }))
        index(root, {}, std::string());
    m_resources.emplace(std::string(), PointerTokens {});
    for (const PointerTokens& tokens : resources)
        index(root, tokens, std::string());
}

void SchemaIdIndex::index(const json& root, PointerTokens start, std::string startBase)
{
    const json* first = resolveTokens(root, start);
    if (first == nullptr)
        return;
    struct Item
    {
        PointerTokens tokens;
        const json* value;
        std::string base;
    };
    std::vector<Item> stack;
    stack.push_back(Item { std::move(start), first, std::move(startBase) });
    while (!stack.empty()) {
        Item item = std::move(stack.back());
        stack.pop_back();
        const json& node = *item.value;
        if (!node.is_object())
            continue;
        const auto id = node.find("$id");
        if (id != node.end() && id->is_string() && !node.contains("$ref")) {
            auto [uri, fragment] = splitFragment(resolveUri(item.base, id->get_ref<const std::string&>()));
            const bool anchor = !fragment.empty() && fragment.front() != '/';
            if (anchor) {
                std::string name;
                if (percentDecode(fragment, &name))
                    m_anchors.emplace(std::make_pair(uri, std::move(name)), item.tokens);
            } else {
                m_resources.emplace(uri, item.tokens);
            }
            if (!anchor || uri != item.base) {
                m_bases.emplace(pointerFromTokens(item.tokens), uri);
                item.base = std::move(uri);
            }
        }
        for (const auto& member : node.items()) {
            const std::string& key = member.key();
            const json& value = member.value();
            auto push = [&](std::initializer_list<std::string_view> more, const json& child) {
                if (!child.is_object())
                    return;
                PointerTokens tokens = item.tokens;
                tokens.emplace_back(key);
                for (const std::string_view m : more)
                    tokens.emplace_back(m);
                stack.push_back(Item { std::move(tokens), &child, item.base });
            };
            switch (subschemaSlot(key)) {
            case SubschemaSlot::None:
                break;
            case SubschemaSlot::Single:
                push({}, value);
                break;
            case SubschemaSlot::Map:
            case SubschemaSlot::Dependencies:
                if (value.is_object())
                    for (const auto& [name, child] : value.items())
                        push({ name }, child);
                break;
            case SubschemaSlot::Array:
            case SubschemaSlot::SingleOrArray:
                if (value.is_array()) {
                    for (std::size_t i = 0; i < value.size(); ++i)
                        push({ std::to_string(i) }, value[i]);
                } else if (subschemaSlot(key) == SubschemaSlot::SingleOrArray) {
                    push({}, value);
                }
                break;
            }
        }
    }
}

std::string SchemaIdIndex::baseAt(const PointerTokens& tokens) const
{
    if (m_bases.empty())
        return {};
    std::vector<std::string> prefixes(tokens.size() + 1);
    for (std::size_t i = 0; i < tokens.size(); ++i)
        prefixes[i + 1] = appendToken(prefixes[i], tokens[i]);
    for (std::size_t k = prefixes.size(); k-- > 0;) {
        if (const auto it = m_bases.find(prefixes[k]); it != m_bases.end())
            return it->second;
    }
    return {};
}

const PointerTokens* SchemaIdIndex::resource(const std::string& uri) const
{
    const auto it = m_resources.find(uri);
    return it == m_resources.end() ? nullptr : &it->second;
}

const PointerTokens* SchemaIdIndex::anchor(const std::string& uri, const std::string& name) const
{
    const auto it = m_anchors.find(std::make_pair(uri, name));
    return it == m_anchors.end() ? nullptr : &it->second;
}

} // namespace structscope::schemadetail
