// SPDX-License-Identifier: Apache-2.0
#include "menu.h"

#include <algorithm>
#include <set>

using nlohmann::json;

namespace structscope::orderbench {

namespace {

const std::vector<std::string> kAllDiets = { "gluten_free", "vegan", "vegetarian" };
const std::vector<std::string> kVegetarianGf = { "gluten_free", "vegetarian" };
const std::vector<std::string> kVegan = { "vegan", "vegetarian" };
const std::vector<std::string> kGlutenFree = { "gluten_free" };

Ingredient ingredient(std::string id, std::string name, std::vector<std::string> allergens,
    std::vector<std::string> dietary, bool available = true)
{
    return Ingredient { std::move(id), std::move(name), std::move(allergens), std::move(dietary), available };
}

// Shared ingredients, defined once so the same id always means the same allergens.
Ingredient sesameBun()
{
    return ingredient("sesame_bun", "sesame bun", { "gluten", "sesame" }, kVegan);
}
Ingredient lettuce()
{
    return ingredient("lettuce", "lettuce", {}, kAllDiets);
}
Ingredient tomato()
{
    return ingredient("tomato", "tomato", {}, kAllDiets);
}
Ingredient onion()
{
    return ingredient("onion", "onion", {}, kAllDiets);
}
Ingredient bacon()
{
    return ingredient("bacon", "bacon", {}, kGlutenFree);
}
Ingredient extraCheese()
{
    return ingredient("extra_cheese", "extra cheese", { "milk" }, kVegetarianGf);
}
Ingredient friedEgg()
{
    return ingredient("fried_egg", "fried egg", { "egg" }, kVegetarianGf);
}
Ingredient jalapenos()
{
    return ingredient("jalapenos", "jalapeños", {}, kAllDiets);
}
Ingredient avocado()
{
    return ingredient("avocado", "avocado", {}, kAllDiets, false);
}
Ingredient hummus()
{
    return ingredient("hummus", "hummus", { "sesame" }, kAllDiets);
}
Ingredient grilledChicken()
{
    return ingredient("grilled_chicken", "grilled chicken", {}, kGlutenFree);
}

Menu buildMenu()
{
    Menu m;
    m.restaurant = "Juniper Grill";
    m.allergens = { "egg", "fish", "gluten", "milk", "mustard", "peanut", "sesame", "soy", "tree_nuts" };
    m.dietary = { "gluten_free", "vegan", "vegetarian" };

    m.items.push_back(MenuItem {
        "classic_burger",
        "Classic Burger",
        true,
        {},
        { ingredient("beef_patty", "beef patty", {}, kGlutenFree), sesameBun(),
            ingredient("cheddar", "cheddar cheese", { "milk" }, kVegetarianGf), lettuce(), tomato(), onion(),
            ingredient("pickles", "pickles", {}, kAllDiets),
            ingredient("burger_sauce", "burger sauce", { "egg", "mustard" }, kVegetarianGf) },
        { "burger_sauce", "cheddar", "lettuce", "onion", "pickles", "tomato" },
        { bacon(), extraCheese(), friedEgg(), jalapenos(), avocado() },
        { "well done", "cut in half" },
    });
    m.items.push_back(MenuItem {
        "veggie_burger",
        "Veggie Burger",
        true,
        {},
        { ingredient("bean_patty", "black bean patty", { "soy" }, kAllDiets), sesameBun(),
            ingredient("swiss_cheese", "swiss cheese", { "milk" }, kVegetarianGf), lettuce(), tomato(), onion() },
        { "lettuce", "onion", "swiss_cheese", "tomato" },
        { extraCheese(), friedEgg(), jalapenos(), avocado(), hummus() },
        { "cut in half" },
    });
    m.items.push_back(MenuItem {
        "chicken_wrap",
        "Chicken Wrap",
        true,
        {},
        { grilledChicken(), ingredient("flour_tortilla", "flour tortilla", { "gluten" }, kVegan), lettuce(), tomato(),
            ingredient("jack_cheese", "monterey jack cheese", { "milk" }, kVegetarianGf),
            ingredient("garlic_sauce", "garlic sauce", { "egg" }, kVegetarianGf) },
        { "garlic_sauce", "jack_cheese", "lettuce", "tomato" },
        { bacon(), jalapenos(), avocado(), hummus() },
        { "cut in half", "toasted" },
    });
    m.items.push_back(MenuItem {
        "garden_salad",
        "Garden Salad",
        true,
        { "small", "large" },
        { ingredient("mixed_greens", "mixed greens", {}, kAllDiets), ingredient("cucumber", "cucumber", {}, kAllDiets),
            ingredient("cherry_tomatoes", "cherry tomatoes", {}, kAllDiets),
            ingredient("croutons", "croutons", { "gluten" }, kVegan),
            ingredient("feta", "feta cheese", { "milk" }, kVegetarianGf),
            ingredient("walnuts", "walnuts", { "tree_nuts" }, kAllDiets),
            ingredient("vinaigrette", "mustard vinaigrette", { "mustard" }, kAllDiets) },
        { "cherry_tomatoes", "croutons", "cucumber", "feta", "vinaigrette", "walnuts" },
        { grilledChicken(), ingredient("boiled_egg", "boiled egg", { "egg" }, kVegetarianGf), avocado(), bacon() },
        { "dressing on the side" },
    });
    m.items.push_back(MenuItem {
        "fries",
        "Fries",
        true,
        { "small", "medium", "large" },
        { ingredient("potatoes", "potatoes", {}, kAllDiets), ingredient("sea_salt", "sea salt", {}, kAllDiets) },
        { "sea_salt" },
        { ingredient("cheese_sauce", "cheese sauce", { "milk" }, kVegetarianGf),
            ingredient("truffle_mayo", "truffle mayo", { "egg" }, kVegetarianGf) },
        { "extra crispy" },
    });
    m.items.push_back(MenuItem {
        "milkshake",
        "Milkshake",
        true,
        { "small", "medium", "large" },
        { ingredient("vanilla_ice_cream", "vanilla ice cream", { "milk" }, kVegetarianGf),
            ingredient("whole_milk", "whole milk", { "milk" }, kVegetarianGf),
            ingredient("whipped_cream", "whipped cream", { "milk" }, kVegetarianGf) },
        { "whipped_cream" },
        { ingredient("chocolate_syrup", "chocolate syrup", { "soy" }, kAllDiets),
            ingredient("peanut_butter", "peanut butter", { "peanut" }, kAllDiets),
            ingredient("caramel", "caramel sauce", { "milk" }, kVegetarianGf),
            ingredient("cookie_crumbs", "cookie crumbs", { "gluten", "soy" }, kVegan) },
        { "extra thick" },
    });
    m.items.push_back(MenuItem {
        "fish_sandwich",
        "Fish Sandwich",
        false,
        {},
        { ingredient("battered_cod", "battered cod", { "fish", "gluten" }, {}),
            ingredient("plain_bun", "plain bun", { "gluten" }, kVegan), lettuce(),
            ingredient("tartar_sauce", "tartar sauce", { "egg", "mustard" }, kVegetarianGf) },
        { "lettuce", "tartar_sauce" },
        { extraCheese() },
        {},
    });
    return m;
}

json ingredientJson(const Ingredient& i, bool withAvailability)
{
    json out = { { "name", i.name }, { "allergens", i.allergens }, { "dietary", i.dietary } };
    if (withAvailability)
        out["available"] = i.available;
    return out;
}

std::string joined(const std::vector<std::string>& values, const std::string& empty)
{
    if (values.empty())
        return empty;
    std::string out;
    for (const std::string& v : values)
        out += (out.empty() ? "" : ", ") + v;
    return out;
}

std::string ingredientLine(const Ingredient& i)
{
    return i.id + " (" + i.name + "; allergens: " + joined(i.allergens, "none")
        + "; suitable for: " + joined(i.dietary, "no special diet") + ")";
}

} // namespace

const Ingredient* MenuItem::component(const std::string& id) const
{
    const auto it = std::find_if(components.begin(), components.end(), [&](const Ingredient& i) { return i.id == id; });
    return it == components.end() ? nullptr : &*it;
}

const Ingredient* MenuItem::addition(const std::string& id) const
{
    const auto it = std::find_if(additions.begin(), additions.end(), [&](const Ingredient& i) { return i.id == id; });
    return it == additions.end() ? nullptr : &*it;
}

bool MenuItem::canRemove(const std::string& id) const
{
    return std::find(removable.begin(), removable.end(), id) != removable.end();
}

bool MenuItem::hasSize(const std::string& size) const
{
    return std::find(sizes.begin(), sizes.end(), size) != sizes.end();
}

std::vector<std::string> MenuItem::defaultAllergens() const
{
    std::set<std::string> all;
    for (const Ingredient& c : components)
        all.insert(c.allergens.begin(), c.allergens.end());
    return { all.begin(), all.end() };
}

std::vector<std::string> MenuItem::defaultDietary() const
{
    std::vector<std::string> suits = { "gluten_free", "vegan", "vegetarian" };
    for (const Ingredient& c : components) {
        std::erase_if(suits,
            [&](const std::string& d) { return std::find(c.dietary.begin(), c.dietary.end(), d) == c.dietary.end(); });
    }
    return suits;
}

const MenuItem* Menu::find(const std::string& sku) const
{
    const auto it = std::find_if(items.begin(), items.end(), [&](const MenuItem& i) { return i.sku == sku; });
    return it == items.end() ? nullptr : &*it;
}

const Menu& menu()
{
    static const Menu m = buildMenu();
    return m;
}

json catalogJson(const Menu& menu)
{
    json items = json::object();
    for (const MenuItem& item : menu.items) {
        json components = json::object();
        for (const Ingredient& c : item.components)
            components[c.id] = ingredientJson(c, false);
        json additions = json::object();
        for (const Ingredient& a : item.additions)
            additions[a.id] = ingredientJson(a, true);
        items[item.sku] = {
            { "name", item.name },
            { "available", item.available },
            { "sizes", item.sizes },
            { "components", components },
            { "removable", item.removable },
            { "additions", additions },
            { "allergens", item.defaultAllergens() },
            { "dietary", item.defaultDietary() },
        };
    }
    return {
        { "restaurant", menu.restaurant },
        { "allergens", menu.allergens },
        { "dietary", menu.dietary },
        { "items", items },
    };
}

std::string menuText(const Menu& menu)
{
    std::string text = "Allergen ids: " + joined(menu.allergens, "")
        + " (milk includes all dairy).\nDiet ids: " + joined(menu.dietary, "") + ".\n";
    for (const MenuItem& item : menu.items) {
        text += "\n" + item.name + " (sku " + item.sku + ")";
        if (!item.available)
            text += " - SOLD OUT TODAY";
        text += "\n  sizes: " + joined(item.sizes, "one size only (size null)") + "\n  comes with:";
        for (const Ingredient& c : item.components)
            text += "\n    " + ingredientLine(c) + (item.canRemove(c.id) ? ", removable" : ", cannot be removed");
        text += "\n  additions:";
        for (const Ingredient& a : item.additions)
            text += "\n    " + ingredientLine(a) + (a.available ? "" : ", OUT OF STOCK TODAY");
        text += "\n";
    }
    return text;
}

} // namespace structscope::orderbench
