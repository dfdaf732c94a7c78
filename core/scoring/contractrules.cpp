// SPDX-License-Identifier: Apache-2.0
#include "scoring/contractrules.h"

#include "schema/schemapointer.h"
#include "json/leafpaths.h"

#include <algorithm>
#include <set>

using nlohmann::json;

namespace structscope {

namespace {

const std::string kOptions = "/options";
const std::string kContract = "/options/contract";
const std::string kTaxonomy = "/options/taxonomy";

bool isArrayIndex(std::string_view token)
{
    std::size_t index = 0;
    return schemadetail::parseArrayIndex(token, &index);
}

std::string typeName(const json& value)
{
    return value.type_name();
}

/// Reads one rule document and collects located problems.
class RuleParser
{
public:
    explicit RuleParser(ContractRuleProblems& problems)
        : m_problems(problems)
    { }

    void add(std::string pointer, std::string message)
    {
        m_problems.emplace_back(std::move(pointer), std::move(message));
    }

    std::optional<ContractPointer> pointerValue(const json& value, const std::string& at)
    {
        if (!value.is_string()) {
            add(at, "must be a JSON pointer string such as \"/status\", found " + typeName(value));
            return std::nullopt;
        }
        auto parsed = parseContractPointer(value.get_ref<const std::string&>());
        if (!parsed)
            add(at,
                "\"" + value.get<std::string>()
                    + "\" is not a JSON pointer (RFC 6901: empty, or \"/\" tokens with ~0 and ~1 escapes)");
        return parsed;
    }

    std::optional<ContractPointer> pointerMember(
        const json& object, const char* key, const std::string& base, bool required)
    {
        const auto it = object.find(key);
        if (it == object.end()) {
            if (required)
                add(base + "/" + key, "required key is missing");
            return std::nullopt;
        }
        return pointerValue(*it, base + "/" + key);
    }

    std::optional<std::string> stringMember(const json& object, const char* key, const std::string& base, bool required)
    {
        const auto it = object.find(key);
        if (it == object.end()) {
            if (required)
                add(base + "/" + key, "required key is missing");
            return std::nullopt;
        }
        if (!it->is_string() || it->get_ref<const std::string&>().empty()) {
            add(base + "/" + key, "must be a non-empty string, found " + typeName(*it));
            return std::nullopt;
        }
        return it->get<std::string>();
    }

    void unknownKeys(const json& object, const std::set<std::string>& known, const std::string& base)
    {
        for (const auto& [key, value] : object.items()) {
            if (!known.contains(key)) {
                std::string list;
                for (const std::string& k : known)
                    list += (list.empty() ? "" : ", ") + k;
                add(base + "/" + escapePointerToken(key), "unknown key (known: " + list + ")");
            }
        }
    }

    std::vector<ContractField> fieldModes(const json& value, const std::string& at, bool requireNonEmpty)
    {
        std::vector<ContractField> fields;
        if (!value.is_object()) {
            add(at,
                "must be an object mapping field names to \"exact\", \"set\" or \"lenient\", found " + typeName(value));
            return fields;
        }
        if (requireNonEmpty && value.empty())
            add(at, "must name at least one field");
        for (const auto& [name, mode] : value.items()) {
            const std::string where = at + "/" + escapePointerToken(name);
            if (name.empty()) {
                add(where, "a field name must not be empty");
                continue;
            }
            if (mode == "exact")
                fields.push_back({ name, FieldCompare::Exact });
            else if (mode == "set")
                fields.push_back({ name, FieldCompare::Set });
            else if (mode == "lenient")
                fields.push_back({ name, FieldCompare::Lenient });
            else
                add(where, "must be \"exact\", \"set\" or \"lenient\", found " + mode.dump());
        }
        return fields;
    }

private:
    ContractRuleProblems& m_problems;
};

std::optional<CatalogFieldRule> catalogField(RuleParser& p, const json& catalog, const char* key,
    const std::string& base, const std::vector<ContractField>& itemFields)
{
    const auto it = catalog.find(key);
    if (it == catalog.end())
        return std::nullopt;
    const std::string at = base + "/" + key;
    if (!it->is_object()) {
        p.add(at, "must be an object {\"field\": item field, \"allowed\": pointer inside a catalog entry}");
        return std::nullopt;
    }
    p.unknownKeys(*it, { "field", "allowed" }, at);
    const auto field = p.stringMember(*it, "field", at, true);
    const auto allowed = p.pointerMember(*it, "allowed", at, true);
    if (field
        && std::none_of(itemFields.begin(), itemFields.end(), [&](const ContractField& f) { return f.name == *field; }))
        p.add(at + "/field", "\"" + *field + "\" is not one of the declared \"item_fields\"");
    if (!field || !allowed)
        return std::nullopt;
    return CatalogFieldRule { *field, *allowed };
}

std::optional<CatalogRules> parseCatalog(RuleParser& p, const json& value, const std::vector<ContractField>& itemFields)
{
    const std::string at = kContract + "/catalog";
    if (!value.is_object()) {
        p.add(at, "must be an object, found " + typeName(value));
        return std::nullopt;
    }
    p.unknownKeys(value, { "skus", "size", "additions", "removals", "components" }, at);
    CatalogRules rules;
    const auto skus = p.pointerMember(value, "skus", at, true);
    rules.size = catalogField(p, value, "size", at, itemFields);
    rules.additions = catalogField(p, value, "additions", at, itemFields);
    rules.removals = catalogField(p, value, "removals", at, itemFields);
    rules.components = p.pointerMember(value, "components", at, false);
    if (!skus)
        return std::nullopt;
    rules.skus = *skus;
    return rules;
}

std::vector<SafetyRule> parseSafety(RuleParser& p, const json& value)
{
    const std::string at = kContract + "/safety";
    std::vector<SafetyRule> rules;
    if (!value.is_array()) {
        p.add(at, "must be an array of {\"constraint\", \"tags\", \"conflict\"} rules, found " + typeName(value));
        return rules;
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
        const json& rule = value[i];
        const std::string where = at + "/" + std::to_string(i);
        if (!rule.is_object()) {
            p.add(where, "must be an object, found " + typeName(rule));
            continue;
        }
        p.unknownKeys(rule, { "constraint", "tags", "conflict" }, where);
        const auto constraint = p.pointerMember(rule, "constraint", where, true);
        const auto tags = p.pointerMember(rule, "tags", where, true);
        const auto conflict = p.stringMember(rule, "conflict", where, true);
        std::optional<SafetyConflict> kind;
        if (conflict == "contains")
            kind = SafetyConflict::Contains;
        else if (conflict == "lacks")
            kind = SafetyConflict::Lacks;
        else if (conflict)
            p.add(where + "/conflict", "must be \"contains\" or \"lacks\", found \"" + *conflict + "\"");
        if (constraint && tags && kind)
            rules.push_back(SafetyRule { *constraint, *tags, *kind });
    }
    return rules;
}

std::optional<ContractCondition> conditionFromId(std::string_view id)
{
    for (ContractCondition c : { ContractCondition::UnsafeAcceptance, ContractCondition::CatalogViolation,
             ContractCondition::ItemSplit, ContractCondition::StatusMismatch }) {
        if (id == contractConditionId(c))
            return c;
    }
    return std::nullopt;
}

bool validLabel(const std::string& label)
{
    if (label.empty() || label.size() > 64 || !(label.front() >= 'a' && label.front() <= 'z'))
        return false;
    return std::all_of(label.begin(), label.end(),
        [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

std::vector<TaxonomyRule> parseTaxonomy(RuleParser& p, const json& value)
{
    std::vector<TaxonomyRule> rules;
    if (!value.is_array()) {
        p.add(kTaxonomy, "must be an array of {\"label\", \"paths\", \"when\"} rules, found " + typeName(value));
        return rules;
    }
    std::set<std::string> labels;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const json& rule = value[i];
        const std::string where = kTaxonomy + "/" + std::to_string(i);
        if (!rule.is_object()) {
            p.add(where, "must be an object, found " + typeName(rule));
            continue;
        }
        p.unknownKeys(rule, { "label", "paths", "when" }, where);
        TaxonomyRule parsed;
        bool ok = true;
        if (const auto label = p.stringMember(rule, "label", where, true)) {
            if (!validLabel(*label)) {
                p.add(where + "/label",
                    "\"" + *label
                        + "\" must be lower-case letters, digits and '_', starting with a letter "
                          "(it becomes the metric id contract.taxonomy."
                        + *label + ")");
                ok = false;
            } else if (!labels.insert(*label).second) {
                p.add(where + "/label", "the label \"" + *label + "\" is used by an earlier rule");
                ok = false;
            }
            parsed.label = *label;
        } else {
            ok = false;
        }
        if (const auto paths = rule.find("paths"); paths != rule.end()) {
            if (!paths->is_array()) {
                p.add(where + "/paths", "must be an array of JSON pointers (\"[]\" matches any index)");
                ok = false;
            } else {
                for (std::size_t j = 0; j < paths->size(); ++j) {
                    const std::string at = where + "/paths/" + std::to_string(j);
                    auto pointer = p.pointerValue((*paths)[j], at);
                    if (pointer && pointer->tokens.empty()) {
                        p.add(at, "the whole document is not a useful path: every difference would fire the label");
                        ok = false;
                    } else if (pointer) {
                        parsed.paths.push_back(std::move(*pointer));
                    } else {
                        ok = false;
                    }
                }
            }
        }
        if (const auto when = rule.find("when"); when != rule.end()) {
            const json list = when->is_string() ? json::array({ *when }) : *when;
            if (!list.is_array()) {
                p.add(where + "/when", "must be a condition name or an array of them");
                ok = false;
            } else {
                for (std::size_t j = 0; j < list.size(); ++j) {
                    const std::string at = when->is_string() ? where + "/when" : where + "/when/" + std::to_string(j);
                    const auto condition
                        = list[j].is_string() ? conditionFromId(list[j].get_ref<const std::string&>()) : std::nullopt;
                    if (!condition) {
                        p.add(at,
                            "unknown condition " + list[j].dump()
                                + " (known: unsafe_acceptance, catalog_violation, item_split, status_mismatch)");
                        ok = false;
                    } else {
                        parsed.when.push_back(*condition);
                    }
                }
            }
        }
        if (ok && parsed.paths.empty() && parsed.when.empty()) {
            p.add(where, "the rule can never fire: give it \"paths\" or \"when\"");
            ok = false;
        }
        if (ok)
            rules.push_back(std::move(parsed));
    }
    return rules;
}

/// Values a catalog entry allows at `allowed`: an array's string elements or an object's keys.
bool allowedShapeOk(const json* value)
{
    if (value == nullptr || value->is_object())
        return true;
    if (!value->is_array())
        return false;
    return std::all_of(value->begin(), value->end(), [](const json& v) { return v.is_string(); });
}

void checkAgainstCatalog(RuleParser& p, const ContractRules& rules, const json& catalog)
{
    if (!rules.catalog)
        return;
    const std::string at = kContract + "/catalog";
    if (catalog.is_null()) {
        p.add(at, "catalog rules need a catalog.json next to suite.json, and the suite has none");
        return;
    }
    const CatalogRules& c = *rules.catalog;
    const json* skus = resolvePointer(catalog, c.skus);
    if (skus == nullptr || !skus->is_object() || skus->empty()) {
        p.add(at + "/skus",
            "\"" + c.skus.text + "\" must point to a non-empty object of catalog entries in catalog.json"
                + (skus ? ", found " + typeName(*skus) : std::string(", found nothing")));
        return;
    }
    for (const auto& item : skus->items()) {
        // Named copies, not structured bindings: clang 14 cannot capture bindings in the lambda below.
        const std::string& sku = item.key();
        const nlohmann::json& entry = item.value();
        const std::string where = "catalog.json " + c.skus.text + "/" + escapePointerToken(sku);
        if (!entry.is_object()) {
            p.add(at + "/skus", where + ": a catalog entry must be an object, found " + typeName(entry));
            continue;
        }
        const auto checkAllowed = [&](const std::optional<CatalogFieldRule>& rule, const char* key) {
            if (rule && !allowedShapeOk(resolvePointer(entry, rule->allowed)))
                p.add(at + "/" + key + "/allowed",
                    where + rule->allowed.text + ": must be an array of strings or an object whose keys are allowed");
        };
        checkAllowed(c.size, "size");
        checkAllowed(c.additions, "additions");
        checkAllowed(c.removals, "removals");

        // Ingredients: the default components and the additions given as objects.
        std::vector<std::pair<std::string, const json*>> ingredients;
        if (c.components) {
            const json* components = resolvePointer(entry, *c.components);
            if (components != nullptr && !components->is_object()) {
                p.add(at + "/components",
                    where + c.components->text + ": must be an object of ingredients, found " + typeName(*components));
            } else if (components != nullptr) {
                for (const auto& [name, ingredient] : components->items())
                    ingredients.emplace_back(c.components->text + "/" + escapePointerToken(name), &ingredient);
            }
        }
        if (c.additions) {
            const json* additions = resolvePointer(entry, c.additions->allowed);
            if (additions != nullptr && additions->is_object()) {
                for (const auto& [name, ingredient] : additions->items())
                    ingredients.emplace_back(c.additions->allowed.text + "/" + escapePointerToken(name), &ingredient);
            }
        }
        for (const auto& [path, ingredient] : ingredients) {
            if (!ingredient->is_object()) {
                p.add(at, where + path + ": an ingredient must be an object, found " + typeName(*ingredient));
                continue;
            }
            for (std::size_t i = 0; i < rules.safety.size(); ++i) {
                const json* tags = resolvePointer(*ingredient, rules.safety[i].tags);
                const bool ok = tags == nullptr
                    || (tags->is_array()
                        && std::all_of(tags->begin(), tags->end(), [](const json& t) { return t.is_string(); }));
                if (!ok)
                    p.add(kContract + "/safety/" + std::to_string(i) + "/tags",
                        where + path + rules.safety[i].tags.text + ": must be an array of strings");
            }
        }
    }
}

} // namespace

const char* contractConditionId(ContractCondition condition)
{
    switch (condition) {
    case ContractCondition::UnsafeAcceptance:
        return "unsafe_acceptance";
    case ContractCondition::CatalogViolation:
        return "catalog_violation";
    case ContractCondition::ItemSplit:
        return "item_split";
    case ContractCondition::StatusMismatch:
        return "status_mismatch";
    }
    return "";
}

std::vector<std::string> ContractRules::modifierFields() const
{
    std::vector<std::string> fields;
    if (catalog) {
        if (catalog->additions)
            fields.push_back(catalog->additions->field);
        if (catalog->removals && std::find(fields.begin(), fields.end(), catalog->removals->field) == fields.end())
            fields.push_back(catalog->removals->field);
    }
    return fields;
}

std::optional<ContractPointer> parseContractPointer(std::string_view text)
{
    ContractPointer pointer;
    pointer.text = std::string(text);
    if (text.empty())
        return pointer;
    if (text.front() != '/')
        return std::nullopt;
    std::string token;
    for (std::size_t i = 1; i <= text.size(); ++i) {
        if (i == text.size() || text[i] == '/') {
            pointer.tokens.push_back(token);
            token.clear();
            continue;
        }
        if (text[i] == '~') {
            if (i + 1 >= text.size() || (text[i + 1] != '0' && text[i + 1] != '1'))
                return std::nullopt;
            token += text[i + 1] == '0' ? '~' : '/';
            ++i;
            continue;
        }
        token += text[i];
    }
    return pointer;
}

const json* resolvePointer(const json& doc, const ContractPointer& pointer)
{
    const json* current = &doc;
    for (const std::string& token : pointer.tokens) {
        if (current->is_object()) {
            const auto it = current->find(token);
            if (it == current->end())
                return nullptr;
            current = &*it;
        } else if (current->is_array()) {
            if (!isArrayIndex(token))
                return nullptr;
            const std::size_t index = std::stoull(token);
            if (index >= current->size())
                return nullptr;
            current = &(*current)[index];
        } else {
            return nullptr;
        }
    }
    return current;
}

std::string contractTaxonomyMetricId(std::string_view label)
{
    return "contract.taxonomy." + std::string(label);
}

std::optional<ContractRules> parseContractRules(const json& options, ContractRuleProblems* problems)
{
    ContractRuleProblems local;
    ContractRuleProblems& out = problems ? *problems : local;
    const std::size_t before = out.size();
    RuleParser p(out);

    if (!options.is_object()) {
        p.add(kOptions, "must be an object holding \"contract\" (and \"taxonomy\"), found " + typeName(options));
        return std::nullopt;
    }
    const auto contract = options.find("contract");
    if (contract == options.end()) {
        p.add(kContract, "required for the contract family: the status, items and catalog rules");
        return std::nullopt;
    }
    if (!contract->is_object()) {
        p.add(kContract, "must be an object, found " + typeName(*contract));
        return std::nullopt;
    }
    const json& c = *contract;
    p.unknownKeys(c,
        { "status", "accept", "items", "item_key", "item_fields", "constraints", "constraint_fields", "catalog",
            "safety" },
        kContract);

    ContractRules rules;
    if (auto status = p.pointerMember(c, "status", kContract, true))
        rules.status = std::move(*status);
    if (const auto accept = c.find("accept"); accept == c.end())
        p.add(kContract + "/accept", "required key is missing (the status value that accepts, e.g. \"accepted\")");
    else if (!accept->is_primitive() || accept->is_null())
        p.add(kContract + "/accept", "must be a string, number or boolean, found " + typeName(*accept));
    else
        rules.accept = *accept;
    if (auto items = p.pointerMember(c, "items", kContract, true))
        rules.items = std::move(*items);
    if (const auto fields = c.find("item_fields"); fields == c.end())
        p.add(kContract + "/item_fields", "required key is missing (item field → \"exact\", \"set\" or \"lenient\")");
    else
        rules.itemFields = p.fieldModes(*fields, kContract + "/item_fields", true);
    const auto declared = [&](const std::string& name) {
        return std::any_of(
            rules.itemFields.begin(), rules.itemFields.end(), [&](const ContractField& f) { return f.name == name; });
    };
    if (const auto key = p.stringMember(c, "item_key", kContract, false)) {
        if (!declared(*key))
            p.add(kContract + "/item_key", "\"" + *key + "\" is not one of the declared \"item_fields\"");
        rules.itemKey = *key;
    }
    rules.constraints = p.pointerMember(c, "constraints", kContract, false);
    if (const auto fields = c.find("constraint_fields"); fields != c.end()) {
        if (!c.contains("constraints"))
            p.add(kContract + "/constraint_fields", "needs \"constraints\" (the pointer of the constraints object)");
        rules.constraintFields = p.fieldModes(*fields, kContract + "/constraint_fields", false);
    }
    if (const auto catalog = c.find("catalog"); catalog != c.end()) {
        rules.catalog = parseCatalog(p, *catalog, rules.itemFields);
        if (!c.contains("item_key"))
            p.add(kContract + "/item_key", "required with \"catalog\": the item field that holds the SKU");
    }
    if (const auto safety = c.find("safety"); safety != c.end()) {
        if (!c.contains("catalog"))
            p.add(kContract + "/safety", "safety rules look ingredients up in the catalog: declare \"catalog\"");
        rules.safety = parseSafety(p, *safety);
    }
    if (const auto taxonomy = options.find("taxonomy"); taxonomy != options.end())
        rules.taxonomy = parseTaxonomy(p, *taxonomy);

    if (out.size() != before)
        return std::nullopt;
    return rules;
}

ContractRuleProblems checkContractRules(const json& options, const json& catalog)
{
    ContractRuleProblems problems;
    const auto rules = parseContractRules(options, &problems);
    if (rules) {
        RuleParser p(problems);
        checkAgainstCatalog(p, *rules, catalog);
    }
    return problems;
}

} // namespace structscope
