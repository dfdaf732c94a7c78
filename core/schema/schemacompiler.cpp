// SPDX-License-Identifier: Apache-2.0
#include "schema/schemacompiler.h"

#include "schema/keywordaudit.h"
#include "schema/schemapointer.h"
#include "schema/schemauri.h"
#include "schema/schemawalker.h"
#include "json/leafpaths.h"

#include <QFile>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema_parser.hpp>

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

namespace structscope::schemadetail {

using json = nlohmann::json;

namespace {

// The compiled document wraps the user's schema under this key and points every $ref into it, so that a helper
// schema can start anywhere (through the wrapper's own "$ref") while "#" still means the user's root.
const std::string kRootKey = "structscope:root";
const std::string kReserved = "structscope:";
// Where the draft-07 meta-schema is embedded in a user's document whose $refs reach it (by its URI).
const std::string kMetaKey = "structscope:meta-draft-07";
// Copies of the subschemas that a $ref reaches through a pointer with an empty token ("/definitions//x"): valijson
// skips empty tokens, so such a $ref points at a copy instead.
const std::string kCopiesKey = "structscope:copies";

// Keywords valijson must not see, kept (renamed) so that helper schemas can still be addressed inside them.
const std::unordered_map<std::string, std::string>& renamedKeywords()
{
    static const std::unordered_map<std::string, std::string> names = {
        { "anyOf", "structscope:anyOf" },
        { "oneOf", "structscope:oneOf" },
        { "propertyNames", "structscope:propertyNames" },
        { "patternProperties", "structscope:patternProperties" },
        { "additionalProperties", "structscope:additionalProperties" },
    };
    return names;
}

// One custom valijson keyword per rule kind, in the order valijson runs them (after its own constraints).
const char* const kRuleKeys[] = {
    "structscope:rule:false",
    "structscope:rule:members",
    "structscope:rule:type",
    "structscope:rule:enum",
    "structscope:rule:const",
    "structscope:rule:range",
    "structscope:rule:length",
    "structscope:rule:multipleOf",
    "structscope:rule:pattern",
    "structscope:rule:format",
    "structscope:rule:anyOf",
    "structscope:rule:oneOf",
    "structscope:rule:propertyNames",
};

struct CompileFailure
{
    std::string message;
};

bool isSchemaValue(const json& v)
{
    return v.is_object() || v.is_boolean();
}

/// A non-negative integer, accepting integral floats (5.0) as Python's draft-7 checker does.
bool nonNegativeInteger(const json& v, std::uint64_t* out)
{
    if (v.is_number_unsigned()) {
        *out = v.get<std::uint64_t>();
        return true;
    }
    if (v.is_number_integer()) {
        if (v.get<std::int64_t>() < 0)
            return false;
        *out = static_cast<std::uint64_t>(v.get<std::int64_t>());
        return true;
    }
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (!std::isfinite(d) || d < 0 || std::trunc(d) != d || d > 9.0e18)
            return false;
        *out = static_cast<std::uint64_t>(d);
        return true;
    }
    return false;
}

/// The type mask of a schema that asserts nothing but a valid `type` (annotations aside), or nothing.
std::optional<unsigned> typeOnlyMask(const json& schema)
{
    static const std::unordered_set<std::string> annotations = {
        "title",
        "description",
        "default",
        "examples",
        "$comment",
        "readOnly",
        "writeOnly",
        "deprecated",
    };
    if (!schema.is_object())
        return std::nullopt;
    const auto type = schema.find("type");
    if (type == schema.end())
        return std::nullopt;
    for (const auto& [key, value] : schema.items())
        if (key != "type" && !annotations.contains(key))
            return std::nullopt;
    unsigned mask = 0;
    const auto add = [&mask](const json& name) {
        const unsigned bit = name.is_string() ? typeBit(name.get<std::string>()) : 0;
        mask |= bit;
        return bit != 0;
    };
    if (type->is_array()) {
        if (type->empty())
            return std::nullopt;
        for (const json& name : *type)
            if (!add(name))
                return std::nullopt;
    } else if (!add(*type)) {
        return std::nullopt;
    }
    return mask;
}

class Compiler
{
public:
    /// `embedsMetaSchema`: the document holds the draft-07 meta-schema at kMetaKey, for its $refs to reach.
    Compiler(const json& document, bool embedsMetaSchema, const SchemaOptions& options, CompiledSchemaPrivate& out)
        : m_document(document)
        , m_embedsMetaSchema(embedsMetaSchema)
        , m_options(options)
        , m_out(out)
    { }

    void run()
    {
        m_graph = m_embedsMetaSchema ? walkSchema(m_document, { PointerTokens { kMetaKey } }) : walkSchema(m_document);
        if (!m_graph.problems.empty()) {
            const SchemaError& first = m_graph.problems.front();
            std::string message = first.pointer + ": " + first.message;
            if (m_graph.problems.size() > 1)
                message += " (and " + std::to_string(m_graph.problems.size() - 1) + " more $ref problems)";
            throw CompileFailure { message };
        }
        m_out.unsupported = auditKeywords(m_graph);
        if (m_embedsMetaSchema) {
            const std::string embedded = appendToken({}, kMetaKey);
            std::erase_if(m_out.unsupported, [&embedded](const SchemaError& e) {
                return e.pointer == embedded || e.pointer.rfind(embedded + "/", 0) == 0;
            });
        }
        for (const SchemaRef& r : m_graph.refs)
            m_refByOwner.emplace(r.ownerPointer, &r);

        json root = m_document;
        // Parents before children: renaming a parent's keyword moves its children, and mapPointer() assumes it.
        std::vector<const SchemaNode*> order;
        order.reserve(m_graph.nodes.size());
        for (const SchemaNode& n : m_graph.nodes)
            order.push_back(&n);
        std::stable_sort(order.begin(), order.end(),
            [](const SchemaNode* a, const SchemaNode* b) { return a->tokens.size() < b->tokens.size(); });
        for (const SchemaNode* node : order) {
            json& target = root.at(json::json_pointer(mapPointer(node->tokens)));
            if (node->value->is_boolean()) {
                if (!node->value->get<bool>())
                    target = json { { "structscope:rule:false", addRule(makeFalseRule(falseReason(*node))) } };
                continue;
            }
            transformObject(*node, target);
        }

        // Every $ref valijson will follow is known before the wrapper is built: the copies they need are taken
        // from the compiled document first.
        std::vector<std::string> helperRefs;
        helperRefs.reserve(m_helperPointers.size());
        for (const std::string& pointer : m_helperPointers)
            helperRefs.push_back(refTo(pointer));
        const std::string rootRef = refTo({});
        json copies = json::array();
        for (const std::string& pointer : m_copies)
            copies.push_back(root.at(json::json_pointer(pointer)));

        json wrapper = json::object();
        wrapper[kRootKey] = std::move(root);
        if (!copies.empty())
            wrapper[kCopiesKey] = std::move(copies);
        valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
        for (const char* key : kRuleKeys)
            parser.addConstraintBuilder(key, new RuleBuilder(&m_out.rules));

        m_out.helpers.reserve(helperRefs.size());
        for (const std::string& ref : helperRefs) {
            wrapper["$ref"] = ref;
            auto helper = std::make_unique<valijson::Schema>();
            parser.populateSchema(valijson::adapters::NlohmannJsonAdapter(wrapper), *helper);
            m_out.helpers.push_back(std::move(helper));
        }
        wrapper["$ref"] = rootRef;
        m_out.schema = std::make_unique<valijson::Schema>();
        parser.populateSchema(valijson::adapters::NlohmannJsonAdapter(wrapper), *m_out.schema);
    }

private:
    [[noreturn]] static void fail(const std::string& pointer, const std::string& message)
    {
        throw CompileFailure { (pointer.empty() ? std::string("(root)") : pointer) + ": " + message };
    }

    /// The $ref valijson follows to a schema of the compiled document.
    std::string refTo(const std::string& mappedPointer)
    {
        const bool emptyToken
            = mappedPointer.find("//") != std::string::npos || (!mappedPointer.empty() && mappedPointer.back() == '/');
        if (!emptyToken)
            return "#/" + escapePointerToken(kRootKey) + percentEncodeForRef(mappedPointer);
        const auto known = std::find(m_copies.begin(), m_copies.end(), mappedPointer);
        const std::size_t index = static_cast<std::size_t>(known - m_copies.begin());
        if (known == m_copies.end())
            m_copies.push_back(mappedPointer);
        return "#/" + escapePointerToken(kCopiesKey) + "/" + std::to_string(index);
    }

    /// Where a node of the user's document sits in the compiled document (some keywords are renamed).
    std::string mapPointer(const PointerTokens& tokens) const
    {
        std::string original;
        std::string mapped;
        for (const std::string& token : tokens) {
            std::string_view name = token;
            if (m_graph.schemaPointers.contains(original)) {
                const auto renamed = renamedKeywords().find(token);
                if (renamed != renamedKeywords().end())
                    name = renamed->second;
            }
            mapped = appendToken(mapped, name);
            original = appendToken(original, token);
        }
        return mapped;
    }

    std::size_t addRule(std::unique_ptr<Rule> rule)
    {
        m_out.rules.push_back(std::move(rule));
        return m_out.rules.size() - 1;
    }

    std::size_t addHelper(std::string mappedPointer)
    {
        m_helperPointers.push_back(std::move(mappedPointer));
        return m_helperPointers.size() - 1;
    }

    static FalseReason falseReason(const SchemaNode& node)
    {
        if (node.slotKeyword == "additionalProperties")
            return FalseReason::AdditionalProperties;
        if (node.slotKeyword == "additionalItems")
            return FalseReason::AdditionalItems;
        if (node.slotKeyword == "properties")
            return FalseReason::Property;
        if (node.slotKeyword == "items")
            return FalseReason::Item;
        return FalseReason::Schema;
    }

    void transformObject(const SchemaNode& node, json& target)
    {
        const std::string& at = node.pointer;
        auto where = [&](std::string_view keyword) { return appendToken(at, keyword); };

        // Keys that would collide with ours (but the embedded meta-schema), draft-04's "id" (valijson would take
        // it as a base URI; draft-07 ignores it) and draft-03's "divisibleBy" (valijson refuses it; draft-07
        // ignores it). "$id" stays: valijson does not read it, and every $ref below is an absolute pointer.
        for (auto it = target.begin(); it != target.end();) {
            const bool embedded = m_embedsMetaSchema && node.tokens.empty() && it.key() == kMetaKey;
            if ((it.key().rfind(kReserved, 0) == 0 && !embedded) || it.key() == "id" || it.key() == "divisibleBy")
                it = target.erase(it);
            else
                ++it;
        }

        if (const auto ref = target.find("$ref"); ref != target.end()) {
            if (!ref->is_string())
                fail(where("$ref"), "$ref must be a string");
            const auto resolved = m_refByOwner.find(at);
            if (resolved == m_refByOwner.end())
                fail(where("$ref"), "$ref could not be resolved");
            *ref = refTo(mapPointer(resolved->second->target));
        }

        takeType(target, where("type"));
        if (const auto it = target.find("enum"); it != target.end()) {
            if (!it->is_array())
                fail(where("enum"), "enum must be an array");
            std::vector<json> values(it->begin(), it->end());
            target.erase(it);
            target["structscope:rule:enum"] = addRule(makeEnumRule(std::move(values), false));
        }
        if (const auto it = target.find("const"); it != target.end()) {
            std::vector<json> values { *it };
            target.erase(it);
            target["structscope:rule:const"] = addRule(makeEnumRule(std::move(values), true));
        }
        takeRange(target, at);
        takeLength(target, at);
        if (const auto it = target.find("multipleOf"); it != target.end()) {
            if (!it->is_number() || it->get<double>() <= 0)
                fail(where("multipleOf"), "multipleOf must be a number greater than 0");
            const json divisor = *it;
            target.erase(it);
            target["structscope:rule:multipleOf"] = addRule(makeMultipleOfRule(divisor));
        }
        if (const auto it = target.find("pattern"); it != target.end()) {
            if (!it->is_string())
                fail(where("pattern"), "pattern must be a string");
            const std::string pattern = it->get<std::string>();
            std::string error;
            QRegularExpression compiled = compilePattern(pattern, &error);
            if (!error.empty())
                fail(where("pattern"), "invalid regular expression: " + error);
            target.erase(it);
            target["structscope:rule:pattern"] = addRule(makePatternRule(pattern, std::move(compiled)));
        }
        if (const auto it = target.find("format"); it != target.end()) {
            if (!it->is_string())
                fail(where("format"), "format must be a string");
            const std::optional<FormatKind> kind = formatKind(it->get<std::string>());
            target.erase(it);
            m_out.checkableFormats = m_out.checkableFormats || kind.has_value();
            if (m_options.validateFormats && kind)
                target["structscope:rule:format"] = addRule(makeFormatRule(*kind));
        }
        for (const char* keyword : { "minItems", "maxItems", "minProperties", "maxProperties" }) {
            if (const auto it = target.find(keyword); it != target.end()) {
                std::uint64_t n = 0;
                if (!nonNegativeInteger(*it, &n))
                    fail(where(keyword), std::string(keyword) + " must be a non-negative integer");
                *it = n; // valijson rejects 5.0 where Python's checker accepts it
            }
        }
        if (const auto it = target.find("required"); it != target.end()) {
            if (!it->is_array() || !std::all_of(it->begin(), it->end(), [](const json& v) { return v.is_string(); }))
                fail(where("required"), "required must be an array of strings");
        }
        takeMembers(target, node);
        takeCombinator(target, node, "anyOf", false);
        takeCombinator(target, node, "oneOf", true);
        if (const auto it = target.find("propertyNames"); it != target.end()) {
            if (!isSchemaValue(*it))
                fail(where("propertyNames"), "propertyNames must be a schema");
            json value = std::move(*it);
            target.erase(it);
            const std::string renamed = renamedKeywords().at("propertyNames");
            target[renamed] = std::move(value);
            const std::size_t helper = addHelper(appendToken(mapPointer(node.tokens), renamed));
            target["structscope:rule:propertyNames"] = addRule(makePropertyNamesRule(helper, &m_out.helpers));
        }
    }

    void takeMembers(json& target, const SchemaNode& node)
    {
        const auto patterns = target.find("patternProperties");
        const auto additional = target.find("additionalProperties");
        if (patterns == target.end() && additional == target.end())
            return;
        const std::string base = mapPointer(node.tokens);
        auto memberSchema = [&](const json& value, const std::string& pointer, const std::string& keyword,
                                const std::string& mappedKey) {
            if (!isSchemaValue(value))
                fail(pointer, keyword + " must hold schemas");
            MemberSchema m;
            if (value.is_boolean()) {
                m.kind = value.get<bool>() ? MemberSchema::Any : MemberSchema::Never;
            } else {
                m.kind = MemberSchema::Helper;
                m.helper = addHelper(mappedKey);
            }
            return m;
        };

        std::vector<std::string> declared;
        if (const auto properties = target.find("properties"); properties != target.end() && properties->is_object())
            for (const auto& [name, value] : properties->items())
                declared.push_back(name);
        std::sort(declared.begin(), declared.end());

        std::vector<PatternMember> members;
        if (patterns != target.end()) {
            const std::string pointer = appendToken(node.pointer, "patternProperties");
            if (!patterns->is_object())
                fail(pointer, "patternProperties must be an object");
            const std::string renamed = appendToken(base, renamedKeywords().at("patternProperties"));
            for (const auto& [key, value] : patterns->items()) {
                std::string error;
                QRegularExpression compiled = compilePattern(key, &error);
                if (!error.empty())
                    fail(appendToken(pointer, key), "invalid regular expression: " + error);
                members.push_back(PatternMember { key, std::move(compiled),
                    memberSchema(value, appendToken(pointer, key), "patternProperties", appendToken(renamed, key)) });
            }
        }
        std::optional<MemberSchema> extra;
        if (additional != target.end())
            extra = memberSchema(*additional, appendToken(node.pointer, "additionalProperties"), "additionalProperties",
                appendToken(base, renamedKeywords().at("additionalProperties")));

        for (const char* keyword : { "patternProperties", "additionalProperties" }) {
            if (const auto it = target.find(keyword); it != target.end()) {
                json value = std::move(*it);
                target.erase(it);
                target[renamedKeywords().at(keyword)] = std::move(value);
            }
        }
        target["structscope:rule:members"]
            = addRule(makeMembersRule(std::move(declared), std::move(members), extra, &m_out.helpers));
    }

    void takeType(json& target, const std::string& pointer)
    {
        const auto it = target.find("type");
        if (it == target.end())
            return;
        unsigned mask = 0;
        auto add = [&](const json& name) {
            const unsigned bit = name.is_string() ? typeBit(name.get<std::string>()) : 0;
            if (!bit)
                fail(pointer, "unknown type " + previewJson(name));
            mask |= bit;
        };
        if (it->is_array()) {
            if (it->empty())
                fail(pointer, "type must name at least one type");
            for (const json& name : *it)
                add(name);
        } else {
            add(*it);
        }
        target.erase(it);
        noteIntegerOnly(mask);
        target["structscope:rule:type"] = addRule(makeTypeRule(mask, m_options.integralFloatsAsIntegers));
    }

    void noteIntegerOnly(unsigned mask)
    {
        if ((mask & IntegerType) && !(mask & NumberType))
            m_out.integerOnlyTypes = true;
    }

    void takeRange(json& target, const std::string& at)
    {
        json bounds[4];
        const char* const names[4] = { "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum" };
        bool any = false;
        for (int i = 0; i < 4; ++i) {
            const auto it = target.find(names[i]);
            if (it == target.end())
                continue;
            if (!it->is_number())
                fail(appendToken(at, names[i]), std::string(names[i]) + " must be a number");
            bounds[i] = *it;
            target.erase(it);
            any = true;
        }
        if (any)
            target["structscope:rule:range"] = addRule(makeRangeRule(bounds[0], bounds[1], bounds[2], bounds[3]));
    }

    void takeLength(json& target, const std::string& at)
    {
        std::optional<std::uint64_t> limits[2];
        const char* const names[2] = { "minLength", "maxLength" };
        for (int i = 0; i < 2; ++i) {
            const auto it = target.find(names[i]);
            if (it == target.end())
                continue;
            std::uint64_t n = 0;
            if (!nonNegativeInteger(*it, &n))
                fail(appendToken(at, names[i]), std::string(names[i]) + " must be a non-negative integer");
            limits[i] = n;
            target.erase(it);
        }
        if (limits[0] || limits[1])
            target["structscope:rule:length"] = addRule(makeLengthRule(limits[0], limits[1]));
    }

    void takeCombinator(json& target, const SchemaNode& node, const std::string& keyword, bool oneOf)
    {
        const auto it = target.find(keyword);
        if (it == target.end())
            return;
        const std::string pointer = appendToken(node.pointer, keyword);
        if (!it->is_array() || it->empty())
            fail(pointer, keyword + " must be a non-empty array of schemas");
        const std::string renamed = renamedKeywords().at(keyword);
        const std::string base = appendToken(mapPointer(node.tokens), renamed);
        std::vector<Alternative> alternatives;
        for (std::size_t i = 0; i < it->size(); ++i) {
            const json& alternative = (*it)[i];
            if (!isSchemaValue(alternative))
                fail(appendToken(pointer, std::to_string(i)), "an " + keyword + " entry must be a schema");
            // A `false` alternative never matches: leaving it out changes neither anyOf nor oneOf, and keeps it
            // out of the error ("no value is allowed" would hide the alternative that nearly matched).
            if (alternative.is_boolean() && !alternative.get<bool>())
                continue;
            Alternative a;
            a.index = i;
            if (alternative.is_boolean()) {
                a.typeOnly = true;
                a.typeMask = kAnyType;
            } else if (const std::optional<unsigned> mask = typeOnlyMask(alternative)) {
                a.typeOnly = true;
                a.typeMask = *mask;
                noteIntegerOnly(*mask);
            } else {
                a.helper = addHelper(appendToken(base, std::to_string(i)));
            }
            alternatives.push_back(a);
        }
        json value = std::move(*it);
        target.erase(it);
        target[renamed] = std::move(value);
        if (alternatives.empty()) {
            target["structscope:rule:false"] = addRule(makeFalseRule(FalseReason::Schema));
            return;
        }
        target["structscope:rule:" + keyword] = addRule(
            makeCombinatorRule(oneOf, std::move(alternatives), m_options.integralFloatsAsIntegers, &m_out.helpers));
    }

    const json& m_document;
    const bool m_embedsMetaSchema;
    const SchemaOptions& m_options;
    CompiledSchemaPrivate& m_out;
    SchemaGraph m_graph;
    std::unordered_map<std::string, const SchemaRef*> m_refByOwner;
    std::vector<std::string> m_helperPointers;
    std::vector<std::string> m_copies; ///< mapped pointers (with an empty token) copied to kCopiesKey, in order
};

/// Whether some "$ref" of the document names the draft-07 meta-schema by its URI (a quick look at every "$ref"
/// string; the walker decides what each one resolves to).
bool mentionsMetaSchema(const json& document)
{
    return anyObject(document, [](const json& object) {
        const auto ref = object.find("$ref");
        return ref != object.end() && ref->is_string()
            && ref->get_ref<const std::string&>().find("json-schema.org/draft-07/schema") != std::string::npos;
    });
}

} // namespace

const json* draft07MetaSchemaDocument()
{
    static const json document = [] {
        QFile file(QStringLiteral(":/structscope/schemas/draft-07.json"));
        if (!file.open(QIODevice::ReadOnly))
            return json(json::value_t::discarded);
        const QByteArray bytes = file.readAll();
        return json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
    }();
    return document.is_object() ? &document : nullptr;
}

DocumentShape inspectDocument(const json& document, std::size_t maxDepth, std::size_t maxNodes)
{
    struct Frame
    {
        const json* node;
        json::const_iterator it;
        std::size_t index; ///< of the element `it` points at
    };
    DocumentShape shape;
    auto isHuge = [](const json& v) {
        return v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX);
    };
    shape.hugeUnsigned = isHuge(document);
    if (!document.is_structured())
        return shape;
    std::vector<Frame> stack;
    stack.push_back(Frame { &document, document.cbegin(), 0 });
    std::size_t nodes = 1;
    // Each frame's iterator has already moved past the child being visited, so the path to the current child is
    // the previous element of every frame; nothing is allocated unless a limit is hit.
    auto currentPointer = [&stack]() {
        std::string pointer;
        for (const Frame& f : stack)
            pointer = appendToken(pointer, f.node->is_object() ? std::prev(f.it).key() : std::to_string(f.index - 1));
        return pointer;
    };
    while (!stack.empty()) {
        Frame& top = stack.back();
        if (top.it == top.node->cend()) {
            stack.pop_back();
            continue;
        }
        const json& child = *top.it;
        ++top.it;
        ++top.index;
        if (++nodes > maxNodes) {
            shape.ok = false;
            shape.message = "has more than " + std::to_string(maxNodes) + " values";
            return shape;
        }
        if (isHuge(child))
            shape.hugeUnsigned = true;
        if (!child.is_structured())
            continue;
        if (stack.size() + 1 > maxDepth) {
            shape.ok = false;
            shape.pointer = currentPointer();
            shape.message = "is nested deeper than " + std::to_string(maxDepth) + " levels";
            return shape;
        }
        stack.push_back(Frame { &child, child.cbegin(), 0 });
    }
    return shape;
}

std::unique_ptr<CompiledSchemaPrivate> compileDocument(
    const json& document, const SchemaOptions& options, std::string* error)
{
    auto out = std::make_unique<CompiledSchemaPrivate>();
    out->document = document;
    out->options = options;
    std::string message;
    try {
        if (!document.is_object() && !document.is_boolean())
            throw CompileFailure { "a schema must be a JSON object or boolean, not " + jsonTypeName(document) };
        const DocumentShape shape = inspectDocument(document, kMaxSchemaDepth, kMaxSchemaNodes);
        if (!shape.ok)
            throw CompileFailure { "the schema " + shape.message
                + (shape.pointer.empty() ? std::string() : " (at " + shape.pointer + ")") };
        // A document that refers to the meta-schema by its URI is compiled with the meta-schema embedded.
        const json* meta = document.is_object() && mentionsMetaSchema(document) ? draft07MetaSchemaDocument() : nullptr;
        if (meta != nullptr && !document.contains(kMetaKey)) {
            json embedding = document;
            embedding[kMetaKey] = *meta;
            Compiler(embedding, true, options, *out).run();
        } else {
            Compiler(out->document, false, options, *out).run();
        }
        return out;
    } catch (const CompileFailure& f) {
        message = f.message;
    } catch (const std::exception& e) {
        // valijson (built with VALIJSON_USE_EXCEPTIONS) throws std::runtime_error / std::logic_error; its paths
        // start inside our wrapper. Only schemas outside the meta-schema's reach (found through $ref) get here.
        message = e.what();
        const std::string wrapper = "/" + kRootKey;
        for (std::size_t at = message.find(wrapper); at != std::string::npos; at = message.find(wrapper, at))
            message.erase(at, wrapper.size());
    }
    if (error)
        *error = "invalid schema: " + message;
    return nullptr;
}

} // namespace structscope::schemadetail
