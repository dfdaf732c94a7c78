// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "scoring/contractrules.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The `contract` metric family (docs/metrics.md §4): domain verification of an executable decision
// (status + items), with rules read from the suite (contractrules.h). Choices where docs/metrics.md is
// silent:
//
// - An unparsable prediction (nullptr) scores false on everything and fires no taxonomy label:
//   the failure belongs to the parse ladder, not to the domain.
// - A missing status, item field or constraint differs from every present value, null included.
// - "No executable items" means the items pointer is absent, null or an empty array.
// - Items pair up for the differences only when their `item_key` (the SKU) is equal: most equal
//   fields first, ties to the lowest gold then predicted index. Unpaired items are differences at
//   "/items/<i>" (gold index for a missing item, predicted index for an extra one), so a wrong SKU
//   never reads as a wrong quantity or size.
// - Unsafe acceptance: the prediction accepts and gold does not; or an accepted item, looked up in
//   the catalog (default components minus its allowed removals, plus its additions), conflicts with a
//   value stated in gold or in the prediction itself. A removal the catalog does not allow does not
//   make an item safe; an unknown SKU or addition cannot be looked up (catalog_violation reports it).
// - item_split: both sides have items and either their counts differ, or the items differ only in
//   where their modifiers sit (same items without modifiers, same pooled modifiers).
// - Constraint objects are compared key by key; a constraint that is not an object on the gold
//   side is one difference at the constraints pointer.

namespace structscope {

/// One difference the taxonomy rules look at.
struct ContractDifference
{
    std::string pointer; ///< RFC 6901: into gold, or into the prediction for an extra item
    std::string message; ///< what differs, for drill-down
};

/// Per-record scores of the contract family.
struct ContractScores
{
    bool parsed = false;
    bool semanticSuccess = false;
    bool unsafeAcceptance = false;
    bool schemaValid = false;
    bool statusCorrect = false;
    bool predictedAccepts = false;
    bool goldAccepts = false;
    bool catalogViolation = false;
    bool itemSplit = false;
    std::vector<std::string> labels; ///< taxonomy labels that fired, in manifest order
    std::vector<ContractDifference> differences; ///< status, item and constraint differences
    std::vector<std::string> unsafeReasons; ///< why unsafeAcceptance holds
    std::vector<std::string> catalogViolations; ///< what the catalog does not allow
};

/// Scores one record. `prediction` is nullptr when the response did not parse; `schemaValid` says
/// whether it validated. Pure and thread-safe.
ContractScores scoreContract(const nlohmann::json* prediction, bool schemaValid, const nlohmann::json& gold,
    const ContractRules& rules, const nlohmann::json& catalog);

/// The four per-record metric ids of the family, then one "contract.taxonomy.<label>" per taxonomy rule.
std::vector<std::string> contractMetricIds(const ContractRules& rules);

/// The value of a metric id for a record (1.0 or 0.0); nullopt for an id the family does not know.
std::optional<double> contractMetricValue(const ContractScores& scores, std::string_view metricId);

} // namespace structscope
