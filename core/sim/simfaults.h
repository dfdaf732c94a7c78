// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "stats/prng.h"

#include <nlohmann/json.hpp>

#include <QList>
#include <QString>

#include <optional>
#include <string>

namespace structscope {

struct ContractRules;

/// One kind of fault a simulated model makes. Text faults change the response text; the others
/// change the answer document before it is written.
enum class FaultKind {
    CodeFence, ///< "code_fence": the JSON inside a ``` block
    Prose, ///< "prose": sentences before/after the JSON
    Truncate, ///< "truncate": the text stops early (invalid JSON)
    DropKey, ///< "drop_key": a key with a value is left out
    OmitValue, ///< "omit_value": a stated value becomes null
    WrongValue, ///< "wrong_value": another value of the same type
    NearMiss, ///< "near_miss": a string with a one-character edit
    Coercion, ///< "coercion": a number or boolean written as a string ("42" for 42)
    InventValue, ///< "invent_value": a value where gold has null or no key
    ExtraKey, ///< "extra_key": a key the schema does not declare
    WrongEnum, ///< "wrong_enum": an enum value outside the enum
    WrongType, ///< "wrong_type": a string wrapped in an array (a type error)
    UnsafeFlip, ///< "unsafe_flip": contract suites: accept what gold does not
    OverRefusal, ///< "over_refusal": contract suites: ask instead of accepting a clean order
    CatalogInvention, ///< "catalog_invention": contract suites: an item key the catalog lacks
    WrongQuantity, ///< "wrong_quantity": contract suites: an item quantity off by one
};

/// The stable id of a fault kind ("code_fence", "drop_key", ...).
QString faultId(FaultKind kind);
/// Every fault kind, in declaration order.
const QList<FaultKind>& allFaultKinds();
/// CodeFence, Prose and Truncate work on the text; all other kinds on the document.
bool isTextFault(FaultKind kind);

/// What the document faults may look at besides the answer itself.
struct FaultContext
{
    const nlohmann::json* schema = nullptr; ///< the case's schema (types, enums, required keys)
    const ContractRules* contract = nullptr; ///< contract suites only
    const nlohmann::json* catalog = nullptr; ///< the suite's catalog (contract suites)
    const nlohmann::json* caseExtra = nullptr; ///< the case's further keys (e.g. an "order_request")
};

/// The places (RFC 6901 pointers into `doc`) where `kind` can be applied, in document order.
/// Contract kinds name the document root or an item; text kinds have none.
std::vector<std::string> faultSites(FaultKind kind, const nlohmann::json& doc, const FaultContext& ctx);

/// Applies a document fault at `site` (one of faultSites()); `rng` picks among variants. Returns false,
/// leaving `doc` untouched, when the fault does not apply there.
bool applyFaultAt(
    FaultKind kind, nlohmann::json& doc, const std::string& site, const FaultContext& ctx, Xoshiro256& rng);

/// Applies a document fault at a site chosen by `rng`; returns the site, or nullopt when none applies.
std::optional<std::string> applyFault(FaultKind kind, nlohmann::json& doc, const FaultContext& ctx, Xoshiro256& rng);

/// Applies a text fault to a response text (CodeFence, Prose or Truncate; others return it unchanged).
/// Truncation always leaves text that the parse ladder cannot read.
QString applyTextFault(FaultKind kind, const QString& text, Xoshiro256& rng);

} // namespace structscope
