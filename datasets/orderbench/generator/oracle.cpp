// SPDX-License-Identifier: Apache-2.0
#include "oracle.h"

#include <algorithm>
#include <set>

using nlohmann::json;

namespace structscope::orderbench {

namespace {

std::vector<std::string> sortedUnique(std::vector<std::string> values)
{
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

bool contains(const std::vector<std::string>& values, const std::string& value)
{
    return std::find(values.begin(), values.end(), value) != values.end();
}

json nullOr(const std::string& value)
{
    return value.empty() ? json(nullptr) : json(value);
}

std::string displayName(const MenuItem& item, const std::string& ingredientId)
{
    if (const Ingredient* c = item.component(ingredientId))
        return c->name;
    if (const Ingredient* a = item.addition(ingredientId))
        return a->name;
    // An addition this item does not offer: name it from any item that does.
    for (const MenuItem& other : menu().items) {
        if (const Ingredient* a = other.addition(ingredientId))
            return a->name;
        if (const Ingredient* c = other.component(ingredientId))
            return c->name;
    }
    return ingredientId;
}

std::string orList(const std::vector<std::string>& values)
{
    std::string out;
    for (std::size_t i = 0; i < values.size(); ++i)
        out += (i == 0 ? "" : i + 1 == values.size() ? " or " : ", ") + values[i];
    return out;
}

/// Why a line cannot be served as asked, in words for the clarification question; empty when it can.
std::vector<std::string> servingProblems(const OrderLine& line, const Menu& menu)
{
    std::vector<std::string> problems;
    const MenuItem* item = line.sku.empty() ? nullptr : menu.find(line.sku);
    if (item == nullptr)
        return { "we don't have " + (line.offMenu.empty() ? line.sku : line.offMenu) + " on our menu" };
    if (!item->available)
        return { "the " + item->name + " is sold out today" };
    if (item->sizes.empty() && !line.size.empty())
        problems.push_back("we only make the " + item->name + " in one size, not " + line.size);
    else if (!item->sizes.empty() && line.size.empty())
        problems.push_back("you didn't say which size of " + item->name + " you'd like (" + orList(item->sizes) + ")");
    else if (!item->sizes.empty() && !item->hasSize(line.size))
        problems.push_back("we only make the " + item->name + " in " + orList(item->sizes) + ", not " + line.size);
    for (const std::string& a : line.additions) {
        const Ingredient* addition = item->addition(a);
        if (addition == nullptr)
            problems.push_back("we can't add " + displayName(*item, a) + " to the " + item->name);
        else if (!addition->available)
            problems.push_back(addition->name + " is out of stock today");
    }
    for (const std::string& r : line.removals) {
        if (!item->canRemove(r))
            problems.push_back("the " + item->name + " can't be made without the " + displayName(*item, r));
    }
    return problems;
}

/// Conflict kinds ("allergen_conflict", "dietary_conflict") of one servable line.
std::set<std::string> safetyConflicts(const OrderLine& line, const OrderRequest& request, const Menu& menu)
{
    std::set<std::string> conflicts;
    const MenuItem* item = line.sku.empty() ? nullptr : menu.find(line.sku);
    if (item == nullptr || !item->available)
        return conflicts;
    for (const Ingredient& ingredient : platedIngredients(*item, line)) {
        for (const std::string& allergen : request.allergens) {
            if (contains(ingredient.allergens, allergen))
                conflicts.insert("allergen_conflict");
        }
        for (const std::string& diet : request.dietary) {
            if (!contains(ingredient.dietary, diet))
                conflicts.insert("dietary_conflict");
        }
    }
    return conflicts;
}

json itemJson(const OrderLine& line, const MenuItem& item)
{
    return {
        { "sku", item.sku },
        { "quantity", line.quantity },
        { "size", nullOr(line.size) },
        { "additions", sortedUnique(line.additions) },
        { "removals", sortedUnique(line.removals) },
        { "instructions", nullOr(line.instructions) },
    };
}

std::string capitalised(std::string text)
{
    if (!text.empty() && text.front() >= 'a' && text.front() <= 'z')
        text.front() = static_cast<char>(text.front() - 'a' + 'A');
    return text;
}

} // namespace

std::vector<Ingredient> platedIngredients(const MenuItem& item, const OrderLine& line)
{
    std::vector<Ingredient> plate;
    for (const Ingredient& c : item.components) {
        if (!(contains(line.removals, c.id) && item.canRemove(c.id)))
            plate.push_back(c);
    }
    for (const std::string& a : line.additions) {
        if (const Ingredient* addition = item.addition(a))
            plate.push_back(*addition);
    }
    return plate;
}

json decideOrder(const OrderRequest& request, const Menu& menu)
{
    json decision = {
        { "status", "accepted" },
        { "items", json::array() },
        { "constraints",
            { { "allergens", sortedUnique(request.allergens) }, { "dietary", sortedUnique(request.dietary) } } },
        { "clarification_question", nullptr },
        { "reasons", json::array() },
    };

    std::set<std::string> conflicts;
    std::vector<std::string> problems;
    for (const OrderLine& line : request.lines) {
        for (const std::string& c : safetyConflicts(line, request, menu))
            conflicts.insert(c);
        for (const std::string& p : servingProblems(line, menu))
            problems.push_back(p);
    }

    if (!conflicts.empty()) {
        decision["status"] = "rejected_safety";
        decision["reasons"] = std::vector<std::string>(conflicts.begin(), conflicts.end());
        return decision;
    }
    if (!problems.empty()) {
        std::string question = "Sorry, ";
        for (std::size_t i = 0; i < problems.size(); ++i)
            question += (i == 0 ? "" : i + 1 == problems.size() ? " and " : "; ") + problems[i];
        decision["status"] = "needs_clarification";
        decision["clarification_question"] = capitalised(question) + ". What would you like instead?";
        return decision;
    }

    // Identical lines are one item: the order's meaning does not depend on how it was phrased.
    json items = json::array();
    for (const OrderLine& line : request.lines) {
        json item = itemJson(line, *menu.find(line.sku));
        bool merged = false;
        for (json& existing : items) {
            json a = existing, b = item;
            a.erase("quantity");
            b.erase("quantity");
            if (a == b) {
                existing["quantity"] = existing["quantity"].get<int>() + line.quantity;
                merged = true;
                break;
            }
        }
        if (!merged)
            items.push_back(std::move(item));
    }
    decision["items"] = std::move(items);
    return decision;
}

json requestJson(const OrderRequest& request)
{
    json lines = json::array();
    for (const OrderLine& line : request.lines) {
        lines.push_back({
            { "sku", nullOr(line.sku) },
            { "off_menu", nullOr(line.offMenu) },
            { "quantity", line.quantity },
            { "size", nullOr(line.size) },
            { "additions", line.additions },
            { "removals", line.removals },
            { "instructions", nullOr(line.instructions) },
        });
    }
    return { { "lines", lines }, { "allergens", request.allergens }, { "dietary", request.dietary } };
}

} // namespace structscope::orderbench
