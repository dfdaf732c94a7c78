// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// Declarative rules of the `contract` family (docs/metrics.md §4), read from a suite's
// "options": {"contract": {...}, "taxonomy": [...]}. Nothing domain-specific lives in code:
//
//   "contract": {
//     "status": "/status", "accept": "accepted",          pointer of the decision, accepting value
//     "items": "/items", "item_key": "sku",                executable items; field that names an item
//     "item_fields": {"sku": "exact", "additions": "set", "instructions": "lenient", ...},
//     "constraints": "/constraints",                       compared field by field
//     "constraint_fields": {"allergens": "set"},           (unlisted constraint keys compare "exact")
//     "catalog": {                                         checks against catalog.json
//       "skus": "/items",                                  the map SKU → catalog entry
//       "size": {"field": "size", "allowed": "/sizes"},    allowed values, relative to an entry
//       "additions": {"field": "additions", "allowed": "/additions"},
//       "removals": {"field": "removals", "allowed": "/removable"},
//       "components": "/components"                        ingredients an entry has by default
//     },
//     "safety": [                                          conflicts of an accepted item
//       {"constraint": "/constraints/allergens", "tags": "/allergens", "conflict": "contains"},
//       {"constraint": "/constraints/dietary", "tags": "/dietary", "conflict": "lacks"}
//     ]
//   },
//   "taxonomy": [{"label": "negation", "paths": ["/items/[]/removals"]},
//                {"label": "safety_failure", "when": "unsafe_acceptance"}]
//
// Compare modes: "exact" (JSON equality, numbers by value), "set" (arrays compared as multisets,
// order ignored), "lenient" (strings trimmed, case- and whitespace-folded, one trailing full stop
// dropped). "allowed" may point to an array of values or an object whose keys are the values; an
// ingredient is an object (component or addition) whose "tags" array is checked by the safety rules:
// "contains" conflicts when a stated value is among the tags (an allergen), "lacks" when it is not
// (a diet the ingredient is not suitable for). In taxonomy paths "[]" matches any array index.

namespace structscope {

/// A located problem in the rules: RFC 6901 pointer into suite.json (e.g. "/options/contract/items") and a message.
using ContractRuleProblems = std::vector<std::pair<std::string, std::string>>;

/// A JSON pointer split into unescaped reference tokens.
struct ContractPointer
{
    std::string text;
    std::vector<std::string> tokens;
};

/// How a field is compared (see the header comment).
enum class FieldCompare { Exact, Set, Lenient };

struct ContractField
{
    std::string name;
    FieldCompare compare = FieldCompare::Exact;
};

/// An item field checked against the values a catalog entry allows.
struct CatalogFieldRule
{
    std::string field; ///< item field ("size", "additions", ...); a single value or an array of values
    ContractPointer allowed; ///< relative to a catalog entry; absent in an entry = nothing but null allowed
};

struct CatalogRules
{
    ContractPointer skus; ///< into catalog.json: object mapping each SKU to its entry
    std::optional<CatalogFieldRule> size;
    std::optional<CatalogFieldRule> additions;
    std::optional<CatalogFieldRule> removals;
    std::optional<ContractPointer> components; ///< relative to an entry: object of default ingredients
};

enum class SafetyConflict {
    Contains, ///< a stated value listed in an ingredient's tags conflicts (allergens)
    Lacks ///< a stated value missing from an ingredient's tags conflicts (diets)
};

struct SafetyRule
{
    ContractPointer constraint; ///< in gold and prediction: array of stated values
    ContractPointer tags; ///< relative to an ingredient object: array of tags
    SafetyConflict conflict = SafetyConflict::Contains;
};

/// Named conditions a taxonomy rule can use in "when".
enum class ContractCondition {
    UnsafeAcceptance, ///< "unsafe_acceptance"
    CatalogViolation, ///< "catalog_violation": a predicted SKU, size or modifier the catalog does not allow
    ItemSplit, ///< "item_split": item objects split or merged, or a modifier moved to another item
    StatusMismatch ///< "status_mismatch"
};

/// The id of a condition as written in the manifest.
const char* contractConditionId(ContractCondition condition);

struct TaxonomyRule
{
    std::string label; ///< metric id suffix: contract.taxonomy.<label>
    std::vector<ContractPointer> paths; ///< a difference at or below one of these fires the label
    std::vector<ContractCondition> when; ///< any of these holding fires the label
};

/// Parsed contract rules of a suite.
struct ContractRules
{
    ContractPointer status;
    nlohmann::json accept; ///< the accepting status value
    ContractPointer items;
    std::string itemKey; ///< items pair up only when this field is equal; empty: any pairing
    std::vector<ContractField> itemFields;
    std::optional<ContractPointer> constraints;
    std::vector<ContractField> constraintFields; ///< fields with a non-default compare mode
    std::optional<CatalogRules> catalog;
    std::vector<SafetyRule> safety;
    std::vector<TaxonomyRule> taxonomy;

    /// Item fields holding modifiers (the catalog's additions and removals fields).
    std::vector<std::string> modifierFields() const;
};

/// Parses options.contract and options.taxonomy. Every problem is appended to `problems` (pointers
/// into suite.json); returns nullopt when there is any.
std::optional<ContractRules> parseContractRules(
    const nlohmann::json& options, ContractRuleProblems* problems = nullptr);

/// Parses the rules and checks them against the catalog (catalog.json, null when the suite has none):
/// the SKU map exists, and every entry's allowed values, components and ingredient tags have the
/// declared shape. Returns every problem; empty means the rules are usable.
ContractRuleProblems checkContractRules(const nlohmann::json& options, const nlohmann::json& catalog);

/// Parses an RFC 6901 pointer; nullopt when malformed ("a/b", "/~2").
std::optional<ContractPointer> parseContractPointer(std::string_view text);

/// The value at `pointer` in `doc`, or nullptr when the path does not exist. Never throws.
const nlohmann::json* resolvePointer(const nlohmann::json& doc, const ContractPointer& pointer);

/// The metric id of a taxonomy label: "contract.taxonomy." + label.
std::string contractTaxonomyMetricId(std::string_view label);

} // namespace structscope
