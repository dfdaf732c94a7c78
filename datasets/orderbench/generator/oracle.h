// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "menu.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

// The oracle of orderbench: what the restaurant should answer to an order, computed from the
// customer's request and the menu alone. The templates (cases.cpp) only say what the customer
// asked for; nothing here knows about categories or wording.

namespace structscope::orderbench {

/// One thing the customer asked for, as they asked for it.
struct OrderLine
{
    std::string sku; ///< a catalog SKU; empty when the customer named something off the menu
    std::string offMenu; ///< what they named when it is not on the menu ("onion rings")
    int quantity = 1;
    std::string size; ///< as asked; empty when they named none
    std::vector<std::string> additions; ///< ingredient ids asked to be added
    std::vector<std::string> removals; ///< ingredient ids asked to be left off
    std::string instructions; ///< a kitchen note, verbatim; empty when none
};

/// A customer's whole message, in meaning.
struct OrderRequest
{
    std::vector<OrderLine> lines;
    std::vector<std::string> allergens; ///< allergen ids they said they are allergic to
    std::vector<std::string> dietary; ///< diet ids they said they follow
};

/// What is on the plate of an available item once the line's allowed removals and offered additions
/// are applied (an impossible removal leaves its component on the plate).
std::vector<Ingredient> platedIngredients(const MenuItem& item, const OrderLine& line);

/// The gold decision of a request: status, items, constraints, clarification_question, reasons.
///  1. any allergen or diet conflict on a servable line → "rejected_safety", reasons say which kind;
///  2. else anything not servable (off the menu, sold out, size not offered or missing, addition not
///     offered or out of stock, removal not possible) → "needs_clarification" with one question;
///  3. else "accepted", identical lines merged into one item with the summed quantity.
/// Non-accepted decisions carry no items. Constraints are always what the customer stated.
nlohmann::json decideOrder(const OrderRequest& request, const Menu& menu);

/// The request as JSON (kept in cases.jsonl as "order_request", so tests can re-derive gold).
nlohmann::json requestJson(const OrderRequest& request);

} // namespace structscope::orderbench
