// SPDX-License-Identifier: Apache-2.0
#include "schema/schemavalidator.h"

#include "schema/keywordaudit.h"
#include "schema/schemacompiler.h"
#include "schema/schemapointer.h"
#include "schema/schemarules.h"
#include "schema/schemawalker.h"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
#include <set>
#include <unordered_map>

namespace structscope {

using json = nlohmann::json;
using namespace schemadetail;

namespace {

std::string where(const std::string& pointer)
{
    return pointer.empty() ? std::string("(root)") : pointer;
}

/// A copy in which integers above INT64_MAX are doubles: valijson reads every integer as int64 and would wrap.
json withHugeIntegersAsDoubles(const json& instance)
{
    json copy = instance;
    std::vector<json*> pending { &copy };
    while (!pending.empty()) {
        json* node = pending.back();
        pending.pop_back();
        if (node->is_number_unsigned() && node->get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
            *node = static_cast<double>(node->get<std::uint64_t>());
        else if (node->is_structured())
            for (json& child : *node)
                pending.push_back(&child);
    }
    return copy;
}

DocumentShape inspectInstance(const json& instance)
{
    return inspectDocument(instance, kMaxInstanceDepth, SIZE_MAX);
}

/// Whether the value holds a float with an integral value (1.0, -3e2); nesting beyond the instance limit counts as
/// yes, so the caller stays on the safe side without recursing further.
bool holdsIntegralFloat(const json& value, std::size_t depth = 0)
{
    switch (value.type()) {
    case json::value_t::number_float: {
        const double d = value.get<double>();
        return std::isfinite(d) && std::trunc(d) == d;
    }
    case json::value_t::object:
        if (depth >= kMaxInstanceDepth)
            return true;
        return std::ranges::any_of(value.get_ref<const json::object_t&>(),
            [depth](const auto& member) { return holdsIntegralFloat(member.second, depth + 1); });
    case json::value_t::array:
        if (depth >= kMaxInstanceDepth)
            return true;
        return std::ranges::any_of(value.get_ref<const json::array_t&>(),
            [depth](const json& item) { return holdsIntegralFloat(item, depth + 1); });
    default:
        return false;
    }
}

} // namespace

CompiledSchema::CompiledSchema(std::unique_ptr<CompiledSchemaPrivate> d)
    : d(std::move(d))
{ }

CompiledSchema::~CompiledSchema() = default;

const json& CompiledSchema::document() const
{
    return d->document;
}

const SchemaOptions& CompiledSchema::options() const
{
    return d->options;
}

const std::vector<SchemaError>& CompiledSchema::unsupportedKeywords() const
{
    return d->unsupported;
}

std::vector<SchemaError> CompiledSchema::validate(const json& instance) const
{
    const DocumentShape shape = inspectInstance(instance);
    if (!shape.ok)
        return { SchemaError { shape.pointer, "value " + shape.message + "; not validated" } };
    json converted;
    const json* target = &instance;
    if (shape.hugeUnsigned) {
        converted = withHugeIntegersAsDoubles(instance);
        target = &converted;
    }
    try {
        // A Validator per call: its only state is a regex cache for the `pattern` keyword, which StructScope's
        // own pattern rule replaces, so nothing is shared between threads but the immutable compiled schema.
        valijson::Validator validator;
        valijson::ValidationResults results;
        if (validator.validate(*d->schema, valijson::adapters::NlohmannJsonAdapter(*target), &results))
            return {};
        std::vector<SchemaError> errors;
        std::set<std::pair<std::string, std::string>> seen;
        for (FoundError& e : collectErrors(results)) {
            std::string pointer = contextToPointer(e.context);
            // Overlapping subschemas (two allOf branches, say) can report the same problem: say it once.
            if (seen.emplace(pointer, e.message).second)
                errors.push_back(SchemaError { std::move(pointer), std::move(e.message) });
        }
        if (errors.empty())
            errors.push_back(SchemaError { {}, "value does not match the schema" });
        return errors;
    } catch (const std::exception& e) {
        return { SchemaError { {}, std::string("validation failed: ") + e.what() } };
    }
}

bool CompiledSchema::isValid(const json& instance) const
{
    const DocumentShape shape = inspectInstance(instance);
    if (!shape.ok)
        return false;
    try {
        valijson::Validator validator;
        if (shape.hugeUnsigned) {
            const json converted = withHugeIntegersAsDoubles(instance);
            return validator.validate(*d->schema, valijson::adapters::NlohmannJsonAdapter(converted), nullptr);
        }
        return validator.validate(*d->schema, valijson::adapters::NlohmannJsonAdapter(instance), nullptr);
    } catch (const std::exception&) {
        return false;
    }
}

bool CompiledSchema::sameVerdictUnder(const SchemaOptions& other, const json& instance) const
{
    // Compiling with other options changes nothing but the `format` rules and the integral-float reading of the
    // `type` rules (schemacompiler.cpp); every other rule, and valijson's own constraints, ignore the options.
    if (other.validateFormats != d->options.validateFormats && d->checkableFormats)
        return false;
    if (other.integralFloatsAsIntegers != d->options.integralFloatsAsIntegers && d->integerOnlyTypes)
        return !holdsIntegralFloat(instance);
    return true;
}

// --- the draft-07 meta-schema ------------------------------------------------------------------------------------

namespace {

struct MetaSchema
{
    CompiledSchemaPtr compiled;
    std::string error;
};

const MetaSchema& metaSchema()
{
    static const MetaSchema meta = [] {
        MetaSchema m;
        const json* document = draft07MetaSchemaDocument();
        if (document == nullptr) {
            m.error = "resource :/structscope/schemas/draft-07.json is missing or not valid JSON";
            return m;
        }
        // Python's Draft7Validator.check_schema: 5.0 is an integer and "format": "regex" is checked.
        std::unique_ptr<CompiledSchemaPrivate> d = compileDocument(*document, SchemaOptions { true, true }, &m.error);
        if (d)
            m.compiled = CompiledSchemaPrivate::wrap(std::move(d));
        return m;
    }();
    return meta;
}

} // namespace

std::vector<SchemaError> checkAgainstMetaSchema(const json& schema)
{
    const MetaSchema& meta = metaSchema();
    if (!meta.compiled)
        return { SchemaError { {}, "the draft-07 meta-schema is unavailable: " + meta.error } };
    const DocumentShape shape = inspectDocument(schema, kMaxSchemaDepth, kMaxSchemaNodes);
    if (!shape.ok)
        return { SchemaError { shape.pointer, "schema " + shape.message } };
    return meta.compiled->validate(schema);
}

std::vector<SchemaError> findUnsupportedKeywords(const json& schema)
{
    if (!schema.is_object())
        return {};
    return auditKeywords(walkSchema(schema));
}

// --- the cache -----------------------------------------------------------------------------------------------------

namespace {

// The cache is keyed by a structural hash of the document (a walk, no text): dumping and hashing the text
// cost more than scoring a small record, and callers look a schema up once per response. Equal hashes are
// confirmed by a type-strict comparison with the stored document (1 and 1.0 are different documents).
std::uint64_t mix(std::uint64_t h, std::uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xFF51AFD7ED558CCDull;
}

std::uint64_t hashBytes(std::uint64_t h, std::string_view bytes)
{
    std::uint64_t f = 0xCBF29CE484222325ull; // FNV-1a
    for (const char c : bytes) {
        f ^= static_cast<unsigned char>(c);
        f *= 0x100000001B3ull;
    }
    return mix(h, f ^ bytes.size());
}

// Recursion is bounded: compile() measures the depth before it hashes.
std::uint64_t structuralHash(const json& value, std::uint64_t h = 0)
{
    h = mix(h, static_cast<std::uint64_t>(value.type()));
    switch (value.type()) {
    case json::value_t::object:
        for (const auto& [key, member] : value.items())
            h = structuralHash(member, hashBytes(h, key));
        return mix(h, value.size());
    case json::value_t::array:
        for (const json& item : value)
            h = structuralHash(item, h);
        return mix(h, value.size());
    case json::value_t::string:
        return hashBytes(h, value.get_ref<const std::string&>());
    case json::value_t::boolean:
        return mix(h, value.get<bool>() ? 1 : 2);
    case json::value_t::number_integer:
        return mix(h, static_cast<std::uint64_t>(value.get<std::int64_t>()));
    case json::value_t::number_unsigned:
        return mix(h, value.get<std::uint64_t>());
    case json::value_t::number_float: {
        const double d = value.get<double>();
        std::uint64_t bits = 0;
        std::memcpy(&bits, &d, sizeof bits);
        return mix(h, bits);
    }
    default:
        return h;
    }
}

bool strictlyEqual(const json& a, const json& b)
{
    if (a.type() != b.type() || a.size() != b.size())
        return false;
    if (a.is_object()) {
        for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
            if (ia.key() != ib.key() || !strictlyEqual(ia.value(), ib.value()))
                return false;
        }
        return true;
    }
    if (a.is_array()) {
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (!strictlyEqual(a[i], b[i]))
                return false;
        }
        return true;
    }
    return a == b;
}

/// Of the document alone: its compiled forms under other options are found with it (see SchemaCache::compile).
std::uint64_t cacheKey(const json& schema)
{
    return structuralHash(schema);
}

class SchemaCacheState
{
public:
    static SchemaCacheState& instance()
    {
        static SchemaCacheState state;
        return state;
    }

    struct Failure
    {
        json document;
        SchemaOptions options;
        std::string message;
    };

    std::mutex mutex;
    std::unordered_multimap<std::uint64_t, CompiledSchemaPtr> compiled;
    std::unordered_multimap<std::uint64_t, Failure> failed;
    std::size_t sweepAt = 0; ///< the size of `compiled` at which the next sweep runs (kCacheSoftLimit at first)
};

constexpr std::size_t kCacheSoftLimit = 4096;

bool sameOptions(const SchemaOptions& a, const SchemaOptions& b)
{
    return a.validateFormats == b.validateFormats && a.integralFloatsAsIntegers == b.integralFloatsAsIntegers;
}

/// `checked`: the document is known to pass what does not depend on the options (it compiled under others), so only
/// valijson's compilation is left.
CompiledSchemaPtr compileUncached(const json& schema, const SchemaOptions& options, bool checked, std::string* error)
{
    if (checked) {
        std::unique_ptr<CompiledSchemaPrivate> d = compileDocument(schema, options, error);
        return d ? CompiledSchemaPrivate::wrap(std::move(d)) : nullptr;
    }
    if (!schema.is_object() && !schema.is_boolean()) {
        *error = "invalid schema: a schema must be a JSON object or boolean, not " + jsonTypeName(schema);
        return nullptr;
    }
    const DocumentShape shape = inspectDocument(schema, kMaxSchemaDepth, kMaxSchemaNodes);
    if (!shape.ok) {
        *error = "invalid schema: the schema " + shape.message
            + (shape.pointer.empty() ? std::string() : " (at " + shape.pointer + ")");
        return nullptr;
    }
    try {
        (void)schema.dump(); // throws on text that is not valid UTF-8, which valijson would mangle
    } catch (const json::exception&) {
        *error = "invalid schema: it contains text that is not valid UTF-8";
        return nullptr;
    }
    const std::vector<SchemaError> metaErrors = checkAgainstMetaSchema(schema);
    if (!metaErrors.empty()) {
        *error = "invalid schema: not a valid draft-07 schema: ";
        for (std::size_t i = 0; i < metaErrors.size() && i < 3; ++i)
            *error += (i ? "; " : "") + where(metaErrors[i].pointer) + ": " + metaErrors[i].message;
        if (metaErrors.size() > 3)
            *error += " (and " + std::to_string(metaErrors.size() - 3) + " more)";
        return nullptr;
    }
    std::unique_ptr<CompiledSchemaPrivate> d = compileDocument(schema, options, error);
    return d ? CompiledSchemaPrivate::wrap(std::move(d)) : nullptr;
}

} // namespace

CompiledSchemaPtr CompiledSchemaPrivate::wrap(std::unique_ptr<CompiledSchemaPrivate> d)
{
    return CompiledSchemaPtr(new CompiledSchema(std::move(d)));
}

CompiledSchemaPtr SchemaCache::compile(const json& schema, const SchemaOptions& options, std::string* error)
{
    std::string ignored;
    std::string& message = error ? *error : ignored;
    message.clear();

    // The key walks the document recursively: measure the shape first (iteratively).
    if (const DocumentShape shape = inspectDocument(schema, kMaxSchemaDepth, kMaxSchemaNodes); !shape.ok) {
        message = "invalid schema: the schema " + shape.message
            + (shape.pointer.empty() ? std::string() : " (at " + shape.pointer + ")");
        return nullptr;
    }

    const std::uint64_t key = cacheKey(schema);
    SchemaCacheState& state = SchemaCacheState::instance();
    bool checked = false; // compiled under other options: its shape, its text and the meta-schema check passed
    {
        const std::lock_guard lock(state.mutex);
        for (auto [it, end] = state.compiled.equal_range(key); it != end; ++it) {
            if (sameOptions(it->second->options(), options) && strictlyEqual(it->second->document(), schema))
                return it->second;
        }
        for (auto [it, end] = state.compiled.equal_range(key); it != end && !checked; ++it)
            checked = strictlyEqual(it->second->document(), schema);
        for (auto [it, end] = state.failed.equal_range(key); it != end; ++it) {
            if (sameOptions(it->second.options, options) && strictlyEqual(it->second.document, schema)) {
                message = it->second.message;
                return nullptr;
            }
        }
    }

    // Compiled outside the lock: a big schema must not stall every other thread's lookups. Two threads may
    // compile the same schema at once; the first to store it wins and both return that one.
    CompiledSchemaPtr compiled = compileUncached(schema, options, checked, &message);

    const std::lock_guard lock(state.mutex);
    if (!compiled) {
        if (state.failed.size() >= kCacheSoftLimit)
            state.failed.clear();
        state.failed.emplace(key, SchemaCacheState::Failure { schema, options, message });
        return nullptr;
    }
    for (auto [it, end] = state.compiled.equal_range(key); it != end; ++it) {
        if (sameOptions(it->second->options(), options) && strictlyEqual(it->second->document(), schema))
            return it->second;
    }
    if (state.compiled.size() >= std::max(kCacheSoftLimit, state.sweepAt)) {
        // Forget schemas nobody else holds any more; those in use stay (and the cache may exceed the limit). The next
        // sweep waits until the cache has doubled: a pass holding thousands of schemas in use would otherwise sweep
        // all of them on every compilation, a cost quadratic in the schemas in use.
        for (auto it = state.compiled.begin(); it != state.compiled.end();)
            it = it->second.use_count() == 1 ? state.compiled.erase(it) : std::next(it);
        state.sweepAt = 2 * state.compiled.size();
    }
    return state.compiled.emplace(key, std::move(compiled))->second;
}

void SchemaCache::clear()
{
    SchemaCacheState& state = SchemaCacheState::instance();
    const std::lock_guard lock(state.mutex);
    state.compiled.clear();
    state.failed.clear();
}

std::size_t SchemaCache::size()
{
    SchemaCacheState& state = SchemaCacheState::instance();
    const std::lock_guard lock(state.mutex);
    return state.compiled.size();
}

} // namespace structscope
