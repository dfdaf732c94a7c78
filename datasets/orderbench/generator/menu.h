// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace structscope::orderbench {

/// Something on the plate: a default component of an item, or an addition a customer may ask for.
struct Ingredient
{
    std::string id;
    std::string name;
    std::vector<std::string> allergens; ///< allergen ids it contains
    std::vector<std::string> dietary; ///< diets it is suitable for
    bool available = true; ///< false: out of stock today (additions only)
};

/// One SKU of the menu.
struct MenuItem
{
    std::string sku;
    std::string name;
    bool available = true; ///< false: sold out today
    std::vector<std::string> sizes; ///< empty: one size, the order carries size null
    std::vector<Ingredient> components; ///< what it comes with
    std::vector<std::string> removable; ///< component ids a customer may leave off
    std::vector<Ingredient> additions; ///< what may be added
    std::vector<std::string> instructions; ///< kitchen notes the generator may use for it

    const Ingredient* component(const std::string& id) const;
    const Ingredient* addition(const std::string& id) const;
    bool canRemove(const std::string& id) const;
    bool hasSize(const std::string& size) const;
    /// Allergens of the default recipe (union over components), sorted.
    std::vector<std::string> defaultAllergens() const;
    /// Diets the default recipe suits (intersection over components), sorted.
    std::vector<std::string> defaultDietary() const;
};

/// The whole menu of the suite's restaurant.
struct Menu
{
    std::string restaurant;
    std::vector<std::string> allergens; ///< the allergen vocabulary, sorted
    std::vector<std::string> dietary; ///< the diet vocabulary, sorted
    std::vector<MenuItem> items; ///< in menu order

    const MenuItem* find(const std::string& sku) const;
};

/// The menu of orderbench: seven SKUs, one of them sold out, one addition out of stock.
const Menu& menu();

/// catalog.json: vocabularies and the SKU map the contract rules point into.
nlohmann::json catalogJson(const Menu& menu);

/// The menu as text for the system prompt: every id, allergen and diet a model needs.
std::string menuText(const Menu& menu);

} // namespace structscope::orderbench
