// SPDX-License-Identifier: Apache-2.0
#include "scoring/grounding.h"

#include "schema/schemapointer.h"
#include "scoring/pyformat.h"
#include "scoring/tokenf1.h"
#include "json/leafpaths.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace structscope {

using nlohmann::json;

namespace {

constexpr int kMaxSchemaDepth = 512; // deeper required-path recursion is cut off (Python's limit is ~1000)
constexpr int kMaxRefHops = 32;

// ---------------------------------------------------------------------------------------------
// Schema walking

bool isNullOnlyType(const json& type)
{
    if (type.is_string())
        return type.get_ref<const std::string&>() == "null";
    return type.is_array() && type.size() == 1 && type[0].is_string()
        && type[0].get_ref<const std::string&>() == "null";
}

// SOB's normalize_schema_type: a list with exactly one non-"null" entry collapses to it; the result
// must be one of the seven JSON Schema type names. (A list that does not collapse makes SOB's
// Python raise; here it describes no type.)
std::string_view normalizedType(const json& schemaNode)
{
    static constexpr std::array<std::string_view, 7> names { "string", "integer", "number", "boolean", "object",
        "array", "null" };
    const auto it = schemaNode.find("type");
    if (it == schemaNode.end())
        return {};
    const json* type = &*it;
    if (type->is_array()) {
        const json* only = nullptr;
        int nonNull = 0;
        for (const json& entry : *type) {
            if (entry.is_string() && entry.get_ref<const std::string&>() == "null")
                continue;
            only = &entry;
            ++nonNull;
        }
        if (nonNull != 1)
            return {};
        type = only;
    }
    if (!type->is_string())
        return {};
    const auto& name = type->get_ref<const std::string&>();
    for (const std::string_view known : names) {
        if (name == known)
            return known;
    }
    return {};
}

// Resolves a local "$ref" fragment ("/$defs/Address", %-escapes allowed) inside `root`; nullptr when
// it leads nowhere.
const json* resolveFragment(const json& root, std::string_view fragment)
{
    std::string decoded;
    schemadetail::PointerTokens tokens;
    if (!schemadetail::percentDecode(fragment, &decoded) || !schemadetail::parsePointer(decoded, &tokens))
        return nullptr;
    return schemadetail::resolveTokens(root, tokens);
}

class SchemaReader
{
public:
    SchemaReader(const json& root, SchemaWalk walk)
        : m_root(root)
        , m_resolving(walk == SchemaWalk::Resolving)
    { }

    // Resolving mode: follows local $ref and collapses a composition with one non-null branch
    // (Pydantic's Optional[Model] is {"anyOf": [{"$ref": ...}, {"type": "null"}]}). Sob mode: as is.
    const json* settle(const json* node) const
    {
        if (!m_resolving)
            return node;
        for (int hop = 0; hop < kMaxRefHops && node != nullptr && node->is_object(); ++hop) {
            const auto ref = node->find("$ref");
            if (ref != node->end()) {
                if (!ref->is_string())
                    return nullptr;
                const auto& target = ref->get_ref<const std::string&>();
                if (target.empty() || target[0] != '#')
                    return nullptr; // remote references are not followed
                node = resolveFragment(m_root, std::string_view(target).substr(1));
                continue;
            }
            if (node->contains("type"))
                return node;
            const json* branch = singleBranch(*node);
            if (branch == nullptr)
                return node;
            node = branch;
        }
        return node != nullptr && node->is_object() && !node->contains("$ref") ? node : nullptr;
    }

    // Whether an intermediate node is of `type`: SOB compares the "type" value with the literal
    // string; Resolving mode also accepts a collapsible type list.
    bool hasType(const json& node, std::string_view type) const
    {
        if (m_resolving)
            return normalizedType(node) == type;
        const auto it = node.find("type");
        return it != node.end() && it->is_string() && it->get_ref<const std::string&>() == type;
    }

    std::string_view typeAt(std::string_view path) const;
    /// Where typeAt() starts: the settled root, or nullptr when it describes nothing.
    const json* start() const;
    /// One step of typeAt(): the settled schema node below `node` for an object key (`isIndex` false) or an
    /// array item, or nullptr when the schema does not describe it.
    const json* below(const json& node, std::string_view key, bool isIndex) const;
    void collectRequired(const json* node, std::string& prefix, std::vector<std::string>& out, int depth,
        std::vector<const json*>& stack) const;

private:
    static const json* singleBranch(const json& node)
    {
        for (const char* keyword : { "anyOf", "oneOf", "allOf" }) {
            const auto it = node.find(keyword);
            if (it == node.end() || !it->is_array())
                continue;
            const json* only = nullptr;
            int count = 0;
            for (const json& branch : *it) {
                if (branch.is_object() && branch.size() == 1 && branch.contains("type")
                    && isNullOnlyType(branch.at("type")))
                    continue;
                only = &branch;
                ++count;
            }
            return count == 1 ? only : nullptr;
        }
        return nullptr;
    }

    const json& m_root;
    bool m_resolving;
};

// One step of a leaf path as SOB's split_path reads it: '.' separates keys (empty keys vanish),
// "[n]" is an array step. Keys containing '.' or '[' are therefore split, exactly as SOB does.
struct PathStep
{
    std::string_view key;
    bool isIndex = false;
};

// Reads the next step from path[pos]; false at the end. `bad` is set for a '[' without a numeric
// "]" (SOB's int() would raise; here the path is simply not described by the schema).
bool nextStep(std::string_view path, std::size_t& pos, PathStep& step, bool& bad)
{
    while (pos < path.size() && path[pos] == '.')
        ++pos;
    if (pos >= path.size())
        return false;
    if (path[pos] == '[') {
        const std::size_t end = path.find(']', pos);
        const std::string_view digits
            = end == std::string_view::npos ? std::string_view() : path.substr(pos + 1, end - pos - 1);
        if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
            bad = true;
            return false;
        }
        step = { digits, true };
        pos = end + 1;
        return true;
    }
    const std::size_t begin = pos;
    while (pos < path.size() && path[pos] != '.' && path[pos] != '[')
        ++pos;
    step = { path.substr(begin, pos - begin), false };
    return true;
}

const json* SchemaReader::start() const
{
    const json* node = settle(&m_root);
    return node != nullptr && node->is_object() ? node : nullptr;
}

const json* SchemaReader::below(const json& node, std::string_view key, bool isIndex) const
{
    const json* next = nullptr;
    if (isIndex) {
        if (!hasType(node, "array"))
            return nullptr;
        const auto items = node.find("items");
        if (items == node.end())
            return nullptr;
        next = &*items;
    } else {
        if (!hasType(node, "object"))
            return nullptr;
        const auto properties = node.find("properties");
        if (properties == node.end() || !properties->is_object())
            return nullptr;
        const auto child = properties->find(key);
        if (child == properties->end())
            return nullptr;
        next = &*child;
    }
    next = settle(next);
    return next != nullptr && next->is_object() ? next : nullptr;
}

std::string_view SchemaReader::typeAt(std::string_view path) const
{
    const json* node = start();
    std::size_t pos = 0;
    PathStep step;
    bool bad = false;
    while (node != nullptr && nextStep(path, pos, step, bad))
        node = below(*node, step.key, step.isIndex);
    if (node == nullptr || bad)
        return {};
    return normalizedType(*node);
}

void SchemaReader::collectRequired(const json* node, std::string& prefix, std::vector<std::string>& out, int depth,
    std::vector<const json*>& stack) const
{
    node = settle(node);
    if (node == nullptr || !node->is_object() || depth > kMaxSchemaDepth)
        return;
    if (std::find(stack.begin(), stack.end(), node) != stack.end())
        return; // a recursive definition (only reachable through $ref)
    stack.push_back(node);
    if (hasType(*node, "object")) {
        const auto required = node->find("required");
        const auto properties = node->find("properties");
        const bool haveProperties = properties != node->end() && properties->is_object();
        if (required != node->end() && required->is_array()) {
            for (const json& key : *required) {
                if (!key.is_string())
                    continue;
                const std::size_t size = prefix.size();
                appendPathKey(prefix, key.get_ref<const std::string&>());
                out.push_back(prefix);
                if (haveProperties) {
                    const auto child = properties->find(key.get_ref<const std::string&>());
                    if (child != properties->end())
                        collectRequired(&*child, prefix, out, depth + 1, stack);
                }
                prefix.resize(size);
            }
        }
    } else if (hasType(*node, "array")) {
        const auto items = node->find("items");
        if (items != node->end()) {
            const std::size_t size = prefix.size();
            prefix += "[]";
            collectRequired(&*items, prefix, out, depth + 1, stack);
            prefix.resize(size);
        }
    }
    stack.pop_back();
}

std::vector<std::string> computeRequiredPaths(const json& schema, SchemaWalk walk)
{
    std::vector<std::string> out;
    if (!schema.is_object())
        return out;
    SchemaReader walker(schema, walk);
    std::string prefix;
    std::vector<const json*> stack;
    walker.collectRequired(&schema, prefix, out, 0, stack);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Per-schema facts, computed once per compiled schema

/// A schema that compiled passed the draft-07 meta-schema check (SOB's check_schema) to compile: SchemaCache does not
/// compile a schema that fails it. So a schema with facts is a valid input.
struct GroundingSchemaFacts
{
    std::weak_ptr<const CompiledSchema> owner;
    std::vector<std::string> requiredSob;
    std::vector<std::string> requiredResolving;

    const std::vector<std::string>& required(SchemaWalk walk) const
    {
        return walk == SchemaWalk::Sob ? requiredSob : requiredResolving;
    }
};

namespace {

class SchemaFactsCache
{
public:
    std::shared_ptr<const GroundingSchemaFacts> get(const CompiledSchemaPtr& compiled)
    {
        {
            std::lock_guard lock(m_mutex);
            const auto it = m_facts.find(compiled.get());
            if (it != m_facts.end() && !it->second->owner.expired() && it->second->owner.lock() == compiled)
                return it->second;
        }
        // Computed outside the lock: two threads may both do it once, which is harmless.
        auto facts = std::make_shared<GroundingSchemaFacts>();
        facts->owner = compiled;
        const json& schema = compiled->document();
        facts->requiredSob = computeRequiredPaths(schema, SchemaWalk::Sob);
        facts->requiredResolving = computeRequiredPaths(schema, SchemaWalk::Resolving);

        std::lock_guard lock(m_mutex);
        if (m_facts.size() > std::max<std::size_t>(4096, m_sweepAt)) {
            // As the schema cache: the next sweep waits until the table has doubled, or thousands of live schemas
            // would be swept on every new one.
            for (auto it = m_facts.begin(); it != m_facts.end();)
                it = it->second->owner.expired() ? m_facts.erase(it) : std::next(it);
            m_sweepAt = 2 * m_facts.size();
        }
        m_facts[compiled.get()] = facts;
        return facts;
    }

private:
    std::mutex m_mutex;
    std::size_t m_sweepAt = 0;
    std::unordered_map<const CompiledSchema*, std::shared_ptr<const GroundingSchemaFacts>> m_facts;
};

SchemaFactsCache& factsCache()
{
    static SchemaFactsCache cache;
    return cache;
}

PreparedGroundingSchema resolveSchema(const json& schema, const SchemaOptions& options)
{
    PreparedGroundingSchema state;
    state.validation = options;
    if (!schema.is_object()) {
        state.problem = "the schema is not a JSON object";
        return state;
    }
    std::string error;
    try {
        state.compiled = SchemaCache::compile(schema, options, &error);
    } catch (const std::exception& e) {
        error = e.what();
    }
    if (state.compiled == nullptr) {
        // Compiling checks the meta-schema first; a schema can pass it and still not compile (a $ref to a
        // document that is not fetched): then it is a valid input that nothing validates against.
        state.metaSchemaValid = checkAgainstMetaSchema(schema).empty();
        state.problem = "the schema does not compile: " + error;
        return state;
    }
    state.metaSchemaValid = true;
    state.facts = factsCache().get(state.compiled);
    return state;
}

bool sameValidation(const SchemaOptions& a, const SchemaOptions& b)
{
    return a.validateFormats == b.validateFormats && a.integralFloatsAsIntegers == b.integralFloatsAsIntegers;
}

// Imported records each carry their own copy of a handful of schemas. SchemaCache keys by a
// structural hash of the document, which costs a walk of it; this per-thread memo
// recognises a recently compiled schema by a type-strict comparison with the compiled document
// instead (most recent first: an equal document costs one walk, a different one usually fails at
// its first keys). Schemas that do not compile are not memoised: they are rare, and keeping no
// copy means no deep copy of an arbitrarily deep document. Callers that score many records of one
// schema prepare it once instead (prepareGroundingSchema), which skips this.
class SchemaMemo
{
public:
    const PreparedGroundingSchema& lookup(const json& schema, const SchemaOptions& options)
    {
        for (std::size_t i = 0; i < m_used; ++i) {
            const PreparedGroundingSchema& state = m_entries[i];
            if (sameValidation(state.validation, options) && state.compiled->document().size() == schema.size()
                && canonicalJsonEquals(state.compiled->document(), schema)) {
                std::rotate(m_entries.begin(), m_entries.begin() + static_cast<std::ptrdiff_t>(i),
                    m_entries.begin() + static_cast<std::ptrdiff_t>(i) + 1);
                return m_entries.front();
            }
        }
        PreparedGroundingSchema state = resolveSchema(schema, options);
        if (state.compiled == nullptr) {
            m_uncached = std::move(state);
            return m_uncached;
        }
        if (m_used < m_entries.size())
            ++m_used;
        // The least recently used entry (the last) is recycled and moved to the front.
        std::rotate(m_entries.begin(), m_entries.begin() + static_cast<std::ptrdiff_t>(m_used) - 1,
            m_entries.begin() + static_cast<std::ptrdiff_t>(m_used));
        m_entries.front() = std::move(state);
        return m_entries.front();
    }

private:
    std::array<PreparedGroundingSchema, 16> m_entries;
    std::size_t m_used = 0;
    PreparedGroundingSchema m_uncached;
};

// ---------------------------------------------------------------------------------------------
// Leaves

struct LeafRef
{
    std::string_view path;
    const json* value;
    std::string_view type; ///< the schema's type at the path (with types only; "" when it describes none)
};

// SOB's flatten_leaf_paths as a path-sorted list: no leaf for the empty path, one leaf per path (of colliding
// paths the later leaf, as a Python dict update keeps). The paths are built in one reused buffer, not a string per
// leaf, and a thread keeps its lists warm between records. With a schema reader, each leaf also gets the
// schema's type at its path, found while walking the document down the schema alongside (the same steps
// typeAt() takes, once per node instead of once per leaf); a leaf below a key that SOB's split_path reads
// differently (empty, or holding '.' or '[') asks typeAt() with its path instead.
class LeafList
{
public:
    void build(const json* doc, const SchemaReader* types)
    {
        m_paths.clear();
        m_path.clear();
        m_pending.clear();
        m_leaves.clear();
        m_types = types;
        if (doc != nullptr)
            visit(*doc, types != nullptr ? types->start() : nullptr, true);
        m_leaves.reserve(m_pending.size());
        for (const Pending& p : m_pending)
            m_leaves.push_back({ std::string_view(m_paths).substr(p.begin, p.size), p.value, p.type });
        std::stable_sort(
            m_leaves.begin(), m_leaves.end(), [](const LeafRef& a, const LeafRef& b) { return a.path < b.path; });
        std::size_t kept = 0;
        for (std::size_t i = 0; i < m_leaves.size(); ++i) {
            if (i + 1 < m_leaves.size() && m_leaves[i + 1].path == m_leaves[i].path)
                continue;
            m_leaves[kept++] = m_leaves[i];
        }
        m_leaves.resize(kept);
    }

    const std::vector<LeafRef>& leaves() const { return m_leaves; }

private:
    struct Pending
    {
        std::size_t begin;
        std::size_t size;
        const json* value;
        std::string_view type;
    };

    static bool splitsAsOneKey(std::string_view key)
    {
        // A plain loop: find_first_of(".[") calls memchr once per character of the key.
        for (const char c : key) {
            if (c == '.' || c == '[')
                return false;
        }
        return !key.empty();
    }

    // `schema` is the node describing `value` (nullptr: none); `exact` while every key so far reads as one step.
    void visit(const json& value, const json* schema, bool exact)
    {
        if (value.is_object()) {
            for (const auto& [key, child] : value.get_ref<const json::object_t&>()) {
                const std::size_t size = m_path.size();
                appendPathKey(m_path, key);
                const bool childExact = exact && splitsAsOneKey(key);
                visit(
                    child, childExact && schema != nullptr ? m_types->below(*schema, key, false) : nullptr, childExact);
                m_path.resize(size);
            }
        } else if (value.is_array()) {
            const auto& items = value.get_ref<const json::array_t&>();
            const json* itemSchema = exact && schema != nullptr ? m_types->below(*schema, {}, true) : nullptr;
            for (std::size_t i = 0; i < items.size(); ++i) {
                const std::size_t size = m_path.size();
                appendPathIndex(m_path, i);
                visit(items[i], itemSchema, exact);
                m_path.resize(size);
            }
        } else if (!m_path.empty()) {
            std::string_view type;
            if (m_types != nullptr) {
                if (!exact)
                    type = m_types->typeAt(m_path);
                else if (schema != nullptr)
                    type = normalizedType(*schema);
            }
            m_pending.push_back({ m_paths.size(), m_path.size(), &value, type });
            m_paths += m_path;
        }
    }

    const SchemaReader* m_types = nullptr;
    std::string m_paths; ///< every leaf path, back to back
    std::string m_path; ///< the path being walked
    std::vector<Pending> m_pending;
    std::vector<LeafRef> m_leaves;
};

// SOB's "present paths" (every node below the root, wildcarded) tested against the sorted
// required paths; subtrees no required path starts with are skipped.
class PresenceWalker
{
public:
    PresenceWalker(const std::vector<std::string>& required, std::vector<char>& found)
        : m_required(required)
        , m_found(found)
    { }

    void visit(const json& node)
    {
        if (!m_path.empty()) {
            const auto it = std::lower_bound(m_required.begin(), m_required.end(), m_path);
            if (it == m_required.end() || std::string_view(*it).substr(0, m_path.size()) != m_path)
                return; // nothing required at or below this path
            if (*it == m_path)
                m_found[static_cast<std::size_t>(it - m_required.begin())] = 1;
        }
        const std::size_t size = m_path.size();
        if (node.is_object()) {
            for (const auto& [key, child] : node.get_ref<const json::object_t&>()) {
                if (key.find('[') == std::string::npos)
                    appendPathKey(m_path, key);
                else
                    appendPathKey(m_path, wildcardPath(key)); // SOB wildcards "[n]" inside keys too
                visit(child);
                m_path.resize(size);
            }
        } else if (node.is_array()) {
            m_path += "[]";
            for (const json& child : node.get_ref<const json::array_t&>())
                visit(child);
            m_path.resize(size);
        }
    }

private:
    const std::vector<std::string>& m_required;
    std::vector<char>& m_found;
    std::string m_path;
};

bool typeMatches(const json& value, std::string_view expected)
{
    if (expected.empty())
        return false;
    switch (value.type()) {
    case json::value_t::null:
        return expected == "null";
    case json::value_t::boolean:
        return expected == "boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
        return expected == "integer" || expected == "number";
    case json::value_t::number_float:
        return expected == "number";
    case json::value_t::string:
        return expected == "string";
    case json::value_t::object:
        return expected == "object";
    case json::value_t::array:
        return expected == "array";
    default:
        return false;
    }
}

double ratio(double numerator, double denominator)
{
    return denominator == 0 ? 0.0 : numerator / denominator;
}

double f1FromCounts(int overlap, int predicted, int gold)
{
    if (predicted == 0 || gold == 0)
        return 0.0;
    const double precision = static_cast<double>(overlap) / predicted;
    const double recall = static_cast<double>(overlap) / gold;
    if (precision + recall == 0)
        return 0.0;
    return (2 * precision * recall) / (precision + recall);
}

constexpr std::array<GroundingMetric, 11> kMetrics { {
    { "grounding.json_parse", &GroundingScores::jsonParse },
    { "grounding.json_root", &GroundingScores::jsonRoot },
    { "grounding.schema_valid_input", &GroundingScores::schemaValidInput },
    { "grounding.json_pass", &GroundingScores::jsonPass },
    { "grounding.value_accuracy", &GroundingScores::valueAccuracy },
    { "grounding.faithfulness", &GroundingScores::faithfulness },
    { "grounding.path_recall", &GroundingScores::pathRecall },
    { "grounding.structure_coverage", &GroundingScores::structureCoverage },
    { "grounding.type_safety", &GroundingScores::typeSafety },
    { "grounding.required_key_recall", &GroundingScores::requiredKeyRecall },
    { "grounding.perfect", &GroundingScores::perfect },
} };

} // namespace

const char* modalityId(Modality modality)
{
    switch (modality) {
    case Modality::Text:
        return "text";
    case Modality::Image:
        return "image";
    case Modality::Audio:
        return "audio";
    }
    return "text";
}

std::optional<Modality> modalityFromId(std::string_view id)
{
    if (id == "text")
        return Modality::Text;
    if (id == "image")
        return Modality::Image;
    if (id == "audio")
        return Modality::Audio;
    return std::nullopt;
}

Modality inferSobModality(std::string_view filePath)
{
    std::string path(filePath);
    for (char& c : path) {
        if (c == '\\')
            c = '/';
        else if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    }
    if (path.find("text_response") != std::string::npos)
        return Modality::Text;
    if (path.find("images_response") != std::string::npos || path.find("image_response") != std::string::npos)
        return Modality::Image;
    if (path.find("audio_response") != std::string::npos)
        return Modality::Audio;
    const std::size_t slash = path.rfind('/');
    const std::string_view name = std::string_view(path).substr(slash == std::string::npos ? 0 : slash + 1);
    if (name.find("_image") != std::string_view::npos)
        return Modality::Image;
    if (name.find("_audio") != std::string_view::npos)
        return Modality::Audio;
    return Modality::Text;
}

double coverageGate(Modality modality, double coverage)
{
    if (modality == Modality::Text)
        return coverage >= 0.95 ? 1.0 : 0.0;
    if (!(coverage > 0))
        return 0.0;
    return std::min(1.0, std::pow(coverage / 0.90, 2.0)); // Python's (c / 0.90) ** 2
}

double complexityWeight(std::string_view tier)
{
    if (tier == "easy")
        return 1.0;
    if (tier == "medium")
        return 2.0;
    if (tier == "hard")
        return 3.0;
    return 0.0;
}

std::string caseDifficulty(const json& extra)
{
    if (!extra.is_object())
        return {};
    const auto read = [](const json& object) -> std::string {
        const auto it = object.find("difficulty");
        return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    if (std::string own = read(extra); !own.empty())
        return own;
    const auto metadata = extra.find("metadata");
    return metadata != extra.end() && metadata->is_object() ? read(*metadata) : std::string();
}

RecordWeight sobRecordWeight(const json& metadata)
{
    RecordWeight result;
    if (!metadata.is_object())
        return result;
    for (const char* field : { "schema_complexity", "difficulty" }) {
        const auto it = metadata.find(field);
        if (it == metadata.end() || !it->is_string())
            continue;
        const auto& tier = it->get_ref<const std::string&>();
        const double weight = complexityWeight(tier);
        if (weight > 0) {
            result.weight = weight;
            result.tier = tier;
            result.basis = field;
            return result;
        }
    }
    return result;
}

const json* sobCandidate(const json& candidateResponse)
{
    return candidateResponse.is_structured() ? &candidateResponse : nullptr;
}

std::vector<std::string> requiredPaths(const json& schema, SchemaWalk walk)
{
    return computeRequiredPaths(schema, walk);
}

std::string schemaTypeAt(const json& schema, std::string_view path, SchemaWalk walk)
{
    if (!schema.is_object())
        return {};
    return std::string(SchemaReader(schema, walk).typeAt(path));
}

std::span<const GroundingMetric> groundingMetrics()
{
    return kMetrics;
}

PreparedGroundingSchemaPtr prepareGroundingSchema(const json& schema, const GroundingOptions& options)
{
    return std::make_shared<const PreparedGroundingSchema>(resolveSchema(schema, options.validation));
}

GroundingScores scoreGrounding(const GroundingInput& input, GroundingDetails* details)
{
    GroundingScores s;
    const json* candidate = input.candidate;
    const bool parsed = candidate != nullptr;
    const bool structuredRoot = parsed && candidate->is_structured();
    s.jsonParse = parsed ? 1.0 : 0.0;
    s.jsonRoot = structuredRoot ? 1.0 : 0.0;

    // Schema: an object that passes the draft-07 meta-schema (SOB's check_schema); json_pass needs it compiled.
    thread_local SchemaMemo memo;
    const PreparedGroundingSchema& schemaState
        = input.prepared != nullptr && sameValidation(input.prepared->validation, input.options.validation)
        ? *input.prepared
        : memo.lookup(input.schema, input.options.validation);
    const CompiledSchemaPtr& compiled = schemaState.compiled;
    const GroundingSchemaFacts* facts = schemaState.facts.get();
    const std::string& schemaProblem = schemaState.problem;
    const bool schemaCompiled = facts != nullptr; // so it passed the meta-schema check too
    s.schemaValidInput = schemaState.metaSchemaValid ? 1.0 : 0.0;

    bool passes = false;
    if (structuredRoot && schemaCompiled) {
        try {
            passes = input.candidateValid ? *input.candidateValid : compiled->isValid(*candidate);
            if (!passes && details != nullptr)
                details->validationErrors = compiled->validate(*candidate);
        } catch (const std::exception& e) {
            passes = false;
            if (details != nullptr)
                details->validationErrors.push_back(SchemaError { std::string(), e.what() });
        }
    }
    s.jsonPass = passes ? 1.0 : 0.0;
    s.hardening = passes ? 1.0 : 0.0;

    // Leaves of gold and prediction, path-sorted, merged once for every path-based metric. Type safety and
    // required keys read the schema; both need a structured root and a valid schema.
    const bool readSchema = structuredRoot && schemaState.metaSchemaValid;
    const SchemaReader walker(input.schema, input.options.schemaWalk);
    thread_local LeafList goldList;
    thread_local LeafList predictedList;
    goldList.build(&input.gold, nullptr);
    predictedList.build(structuredRoot ? candidate : nullptr, readSchema ? &walker : nullptr);
    const std::vector<LeafRef>& goldLeaves = goldList.leaves();
    const std::vector<LeafRef>& predictedLeaves = predictedList.leaves();

    int overlap = 0;
    int equal = 0;
    double f1Sum = 0;
    auto p = predictedLeaves.begin();
    for (const LeafRef& gold : goldLeaves) {
        while (p != predictedLeaves.end() && p->path < gold.path)
            ++p;
        const json* predicted = (p != predictedLeaves.end() && p->path == gold.path) ? p->value : nullptr;
        if (predicted != nullptr) {
            ++overlap;
            if (pyEquals(*gold.value, *predicted))
                ++equal;
        } else if (details != nullptr) {
            details->missingGoldPaths.emplace_back(gold.path);
        }
        f1Sum += tokenF1(gold.value, predicted);
    }
    const int goldCount = static_cast<int>(goldLeaves.size());
    const int predictedCount = static_cast<int>(predictedLeaves.size());
    s.goldLeaves = goldCount;
    s.predictedLeaves = predictedCount;
    s.matchedPaths = overlap;

    s.rawPathRecall = ratio(overlap, goldCount);
    s.rawCoverage = f1FromCounts(overlap, predictedCount, goldCount);
    s.gate = coverageGate(input.modality, s.rawCoverage);
    s.rawValueAccuracy = goldCount == 0 ? 1.0 : static_cast<double>(equal) / goldCount;
    s.rawFaithfulness = goldCount == 0 ? 1.0 : f1Sum / goldCount;

    if (readSchema) {
        int typeMatchCount = 0;
        for (const LeafRef& leaf : predictedLeaves) {
            if (typeMatches(*leaf.value, leaf.type))
                ++typeMatchCount;
            else if (details != nullptr)
                details->typeMismatchPaths.emplace_back(leaf.path);
        }
        s.rawTypeSafety = ratio(typeMatchCount, predictedCount);

        // A valid schema that does not compile has no facts: its required paths are read here.
        std::vector<std::string> unfactored;
        if (facts == nullptr)
            unfactored = computeRequiredPaths(input.schema, input.options.schemaWalk);
        const std::vector<std::string>& required
            = facts != nullptr ? facts->required(input.options.schemaWalk) : unfactored;
        s.requiredPaths = static_cast<int>(required.size());
        if (required.empty()) {
            s.requiredKeyRecall = 1.0;
        } else {
            std::vector<char> found(required.size(), 0);
            PresenceWalker(required, found).visit(*candidate);
            const auto present = std::count(found.begin(), found.end(), 1);
            s.requiredKeyRecall = static_cast<double>(present) / static_cast<double>(required.size());
            if (details != nullptr) {
                for (std::size_t i = 0; i < required.size(); ++i) {
                    if (!found[i])
                        details->missingRequiredPaths.push_back(required[i]);
                }
            }
        }
    } else if (details != nullptr) {
        details->missingRequiredPaths = facts != nullptr ? facts->required(input.options.schemaWalk)
                                                         : computeRequiredPaths(input.schema, input.options.schemaWalk);
    }

    // Same operation order as SOB: raw × h × g.
    s.valueAccuracy = s.rawValueAccuracy * s.hardening * s.gate;
    s.faithfulness = s.rawFaithfulness * s.hardening * s.gate;
    s.pathRecall = s.rawPathRecall * s.hardening;
    s.structureCoverage = s.rawCoverage * s.hardening;
    s.typeSafety = s.rawTypeSafety * s.hardening;

    static const json kNull;
    s.perfect = canonicalJsonEquals(parsed ? *candidate : kNull, input.gold) ? 1.0 : 0.0;

    if (details != nullptr) {
        details->schemaProblem = schemaProblem;
        std::sort(details->typeMismatchPaths.begin(), details->typeMismatchPaths.end());
    }
    return s;
}

} // namespace structscope
