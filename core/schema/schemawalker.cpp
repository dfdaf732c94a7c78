// SPDX-License-Identifier: Apache-2.0
#include "schema/schemawalker.h"

#include "schema/schemauri.h"

#include <algorithm>
#include <deque>

namespace structscope::schemadetail {

using json = nlohmann::json;

SubschemaSlot subschemaSlot(std::string_view keyword)
{
    static const std::unordered_map<std::string_view, SubschemaSlot> slots = {
        { "additionalItems", SubschemaSlot::Single },
        { "additionalProperties", SubschemaSlot::Single },
        { "contains", SubschemaSlot::Single },
        { "propertyNames", SubschemaSlot::Single },
        { "if", SubschemaSlot::Single },
        { "then", SubschemaSlot::Single },
        { "else", SubschemaSlot::Single },
        { "not", SubschemaSlot::Single },
        { "properties", SubschemaSlot::Map },
        { "patternProperties", SubschemaSlot::Map },
        { "definitions", SubschemaSlot::Map },
        // Not a draft-07 keyword, but Pydantic puts its definitions there and $refs reach them by pointer.
        { "$defs", SubschemaSlot::Map },
        { "allOf", SubschemaSlot::Array },
        { "anyOf", SubschemaSlot::Array },
        { "oneOf", SubschemaSlot::Array },
        { "items", SubschemaSlot::SingleOrArray },
        { "dependencies", SubschemaSlot::Dependencies },
    };
    const auto it = slots.find(keyword);
    return it == slots.end() ? SubschemaSlot::None : it->second;
}

namespace {

bool isSchemaValue(const json& value)
{
    return value.is_object() || value.is_boolean();
}

std::string refText(std::string_view text)
{
    return quoteText(text, 120);
}

class Walker
{
public:
    Walker(const json& root, const std::vector<PointerTokens>& resources)
        : m_root(root)
        , m_ids(root, resources)
    { }

    SchemaGraph run()
    {
        enqueue({}, &m_root, {});
        while (!m_queue.empty() || !m_pendingRefs.empty()) {
            while (!m_queue.empty()) {
                const std::size_t index = m_queue.front();
                m_queue.pop_front();
                visit(index);
            }
            // Refs are resolved once the breadth-first pass has seen every "$id" anchor it can reach.
            std::vector<Pending> pending;
            pending.swap(m_pendingRefs);
            for (const Pending& p : pending)
                resolve(p);
        }
        findCycles();
        return std::move(m_graph);
    }

private:
    struct Pending
    {
        PointerTokens ownerTokens;
        std::string owner;
        std::string ref;
    };

    void enqueue(PointerTokens tokens, const json* value, std::string slotKeyword)
    {
        std::string pointer = pointerFromTokens(tokens);
        if (!m_graph.schemaPointers.insert(pointer).second)
            return;
        m_graph.nodes.push_back(SchemaNode { std::move(tokens), std::move(pointer), value, std::move(slotKeyword) });
        m_queue.push_back(m_graph.nodes.size() - 1);
    }

    void visit(std::size_t index)
    {
        // Copies: enqueue() grows m_graph.nodes, which would invalidate references into it.
        const PointerTokens tokens = m_graph.nodes[index].tokens;
        const std::string pointer = m_graph.nodes[index].pointer;
        const json& node = *m_graph.nodes[index].value;
        if (!node.is_object())
            return;

        // valijson follows "$ref" and ignores its siblings (as draft-07 says), so they apply nothing in place.
        const bool isRef = node.contains("$ref");
        for (const auto& item : node.items()) {
            // Named references, not structured bindings: clang 14 cannot capture bindings in lambdas.
            const std::string& key = item.key();
            const json& value = item.value();
            const bool inPlace = !isRef && appliesInPlace(key);
            auto child = [&](std::initializer_list<std::string_view> more, const json& v) {
                if (!isSchemaValue(v))
                    return;
                PointerTokens t = tokens;
                t.emplace_back(key);
                for (const std::string_view m : more)
                    t.emplace_back(m);
                if (inPlace)
                    m_inPlace[pointer].push_back(Edge { pointerFromTokens(t), false });
                enqueue(std::move(t), &v, key);
            };
            switch (subschemaSlot(key)) {
            case SubschemaSlot::None:
                break;
            case SubschemaSlot::Single:
                child({}, value);
                break;
            case SubschemaSlot::Map:
            case SubschemaSlot::Dependencies:
                if (value.is_object())
                    for (const auto& [name, member] : value.items())
                        child({ name }, member);
                break;
            case SubschemaSlot::Array:
                if (value.is_array())
                    for (std::size_t i = 0; i < value.size(); ++i)
                        child({ std::to_string(i) }, value[i]);
                break;
            case SubschemaSlot::SingleOrArray:
                if (value.is_array()) {
                    for (std::size_t i = 0; i < value.size(); ++i)
                        child({ std::to_string(i) }, value[i]);
                } else {
                    child({}, value);
                }
                break;
            }
        }

        if (const auto ref = node.find("$ref"); ref != node.end() && ref->is_string())
            m_pendingRefs.push_back(Pending { tokens, pointer, ref->get<std::string>() });
    }

    void problem(const std::string& owner, std::string message)
    {
        m_graph.problems.push_back(SchemaError { appendToken(owner, "$ref"), std::move(message) });
    }

    void resolve(const Pending& p)
    {
        // The reference is resolved against the base URI where it is written (RFC 3986), then looked up among
        // the document's own "$id"s: the document's base, a subschema's absolute or relative "$id", or a
        // plain-name "$id": "#name" within one of them.
        const auto [uri, encodedFragment] = splitFragment(resolveUri(m_ids.baseAt(p.ownerTokens), p.ref));
        const PointerTokens* resource = m_ids.resource(uri);
        if (resource == nullptr) {
            problem(p.owner,
                "$ref " + refText(p.ref) + " points outside this document"
                    + (uri == p.ref.substr(0, p.ref.find('#')) ? std::string() : " (to " + refText(uri) + ")")
                    + "; remote references are not fetched");
            return;
        }
        std::string fragment;
        if (!percentDecode(encodedFragment, &fragment)) {
            problem(p.owner, "$ref " + refText(p.ref) + " has a malformed %-escape");
            return;
        }

        PointerTokens target;
        if (!fragment.empty() && fragment.front() != '/') {
            const PointerTokens* anchor = m_ids.anchor(uri, fragment);
            if (anchor == nullptr) {
                problem(
                    p.owner, "$ref " + refText(p.ref) + " names an anchor that no \"$id\" in this document defines");
                return;
            }
            target = *anchor;
        } else {
            PointerTokens relative;
            if (!parsePointer(fragment, &relative)) {
                problem(p.owner, "$ref " + refText(p.ref) + " is not a valid JSON pointer");
                return;
            }
            // A pointer fragment is relative to the schema the URI identifies.
            target = *resource;
            target.insert(
                target.end(), std::make_move_iterator(relative.begin()), std::make_move_iterator(relative.end()));
        }

        std::size_t failedAt = 0;
        const json* value = resolveTokens(m_root, target, &failedAt);
        if (!value) {
            const PointerTokens missing(target.begin(), target.begin() + static_cast<std::ptrdiff_t>(failedAt) + 1);
            problem(p.owner, "$ref " + refText(p.ref) + " does not resolve: nothing at " + pointerFromTokens(missing));
            return;
        }
        if (!isSchemaValue(*value)) {
            problem(p.owner, "$ref " + refText(p.ref) + " points at " + previewJson(*value, 40) + ", not at a schema");
            return;
        }
        std::string targetPointer = pointerFromTokens(target);
        m_inPlace[p.owner].push_back(Edge { targetPointer, true });
        m_graph.refs.push_back(SchemaRef { p.owner, p.ref, target, targetPointer });
        enqueue(std::move(target), value, {});
    }

    /// Keywords whose subschemas apply to the very value their schema applies to.
    static bool appliesInPlace(std::string_view keyword)
    {
        return keyword == "allOf" || keyword == "anyOf" || keyword == "oneOf" || keyword == "not" || keyword == "if"
            || keyword == "then" || keyword == "else" || keyword == "dependencies";
    }

    // A cycle of schemas that apply to the same value ({"not": {"$ref": "#"}}, or $refs that only point at each
    // other) never gets anywhere: valijson would recurse until the stack overflows, Python's jsonschema raises
    // RecursionError. Recursion that goes through properties or items descends into the value and ends with it.
    void findCycles()
    {
        enum class Mark { OnPath, Done };
        std::unordered_map<std::string, Mark> marks;
        struct Frame
        {
            std::string node;
            std::size_t next = 0;
        };
        for (const SchemaNode& start : m_graph.nodes) {
            if (marks.contains(start.pointer))
                continue;
            std::vector<Frame> stack { Frame { start.pointer } };
            marks[start.pointer] = Mark::OnPath;
            while (!stack.empty()) {
                Frame& top = stack.back();
                const auto edges = m_inPlace.find(top.node);
                if (edges == m_inPlace.end() || top.next >= edges->second.size()) {
                    marks[top.node] = Mark::Done;
                    stack.pop_back();
                    continue;
                }
                const Edge& edge = edges->second[top.next++];
                const auto mark = marks.find(edge.to);
                if (mark == marks.end()) {
                    marks[edge.to] = Mark::OnPath;
                    stack.push_back(Frame { edge.to });
                } else if (mark->second == Mark::OnPath) {
                    std::string path;
                    bool inCycle = false;
                    for (const Frame& f : stack) {
                        inCycle = inCycle || f.node == edge.to;
                        if (inCycle)
                            path += (f.node.empty() ? std::string("#") : f.node) + " -> ";
                    }
                    path += edge.to.empty() ? std::string("#") : edge.to;
                    const std::string where = edge.isRef ? appendToken(top.node, "$ref") : top.node;
                    m_graph.problems.push_back(
                        SchemaError { where, "circular reference: " + path + " applies to the same value forever" });
                }
            }
        }
    }

    struct Edge
    {
        std::string to;
        bool isRef;
    };

    const json& m_root;
    SchemaIdIndex m_ids;
    SchemaGraph m_graph;
    std::deque<std::size_t> m_queue;
    std::vector<Pending> m_pendingRefs;
    std::unordered_map<std::string, std::vector<Edge>> m_inPlace; ///< schema → schemas applied to the same value
};

} // namespace

SchemaGraph walkSchema(const json& root, const std::vector<PointerTokens>& resources)
{
    return Walker(root, resources).run();
}

} // namespace structscope::schemadetail
