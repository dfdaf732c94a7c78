// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "menu.h"
#include "oracle.h"
#include "rng.h"

#include <string>
#include <vector>

// Hand-written wording of orders: names and their plurals (a few with typos), quantity words,
// modifier phrases, allergy and diet statements, and message frames of varied politeness. Every
// choice is drawn from the generator's Rng, so the text is fixed by the seed.

namespace structscope::orderbench {

class Phrasing
{
public:
    explicit Phrasing(Rng& rng)
        : m_rng(rng)
    { }

    /// The item's name, singular or plural ("classic burger", "Classic Burgers", "chiken wrap").
    std::string itemName(const std::string& sku, int quantity, bool allowTypo = true);
    /// A name to point back at an item already mentioned ("the wrap", "the veggie one").
    std::string backReference(const std::string& sku);
    /// Quantity, size and name: "two large fries", "a classic burger", "1x Milkshake (medium)".
    std::string countedItem(const OrderLine& line);
    /// One noun phrase for an ingredient as a customer says it ("cheese" for cheddar).
    std::string ingredientWord(const std::string& ingredientId);
    /// "no onion", "without pickles or tomato", "hold the sauce".
    std::string removalPhrase(const std::vector<std::string>& removals);
    /// "with bacon", "add jalapeños and a fried egg".
    std::string additionPhrase(const std::vector<std::string>& additions);
    /// The removals and additions of a line together, or "" when it has none. Compact wording has no
    /// comma, so it cannot be read as belonging to the next item of a list.
    std::string modifierPhrase(const OrderLine& line, bool compact);
    /// A whole line: counted item, modifiers and kitchen note; compact for lines inside a list.
    std::string linePhrase(const OrderLine& line, bool compact = false);
    /// An off-menu item as the customer names it ("an order of onion rings").
    std::string offMenuPhrase(const std::string& name);
    /// Joins line phrases ("A and B", "A, B and C", "A + B").
    std::string list(const std::vector<std::string>& parts);
    /// "I'm allergic to milk.", "I have a sesame allergy." ...
    std::string allergyStatement(const std::vector<std::string>& allergens);
    /// "I'm vegan.", "I'm on a gluten-free diet." ...
    std::string dietStatement(const std::vector<std::string>& diets);
    /// A whole message around an order body, with an optional statement placed before or after it.
    std::string message(const std::string& body, const std::string& statement = {});
    /// A message whose lines are a bullet list.
    std::string bulletMessage(const std::vector<std::string>& lines, const std::string& statement = {});
    /// "two", "2", "three" ... for n ≥ 2.
    std::string number(int n);

    Rng& rng() { return m_rng; }

private:
    std::string allergenWord(const std::string& allergen, bool adjective);
    std::string joinWith(const std::vector<std::string>& parts, const std::string& last);

    Rng& m_rng;
};

} // namespace structscope::orderbench
