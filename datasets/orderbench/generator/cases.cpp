// SPDX-License-Identifier: Apache-2.0
#include "cases.h"

#include <algorithm>
#include <set>

namespace structscope::orderbench {

// Draw order. Every draw from the Rng is its own statement, or the only draw of its statement: two draws in one
// expression (two arguments of a call, two operands of +) come in an order each compiler chooses, and the cases would
// change with the compiler. Where one expression drew twice, the later draw is taken first: the order gcc followed
// when the checked-in cases were generated. tst_orderbench regeneratesByteForByte runs under gcc and clang.

namespace {

using Strings = std::vector<std::string>;

Strings availableSkus()
{
    Strings skus;
    for (const MenuItem& item : menu().items) {
        if (item.available)
            skus.push_back(item.sku);
    }
    return skus;
}

const MenuItem& item(const std::string& sku)
{
    return *menu().find(sku);
}

/// `count` distinct values drawn from `pool` (a partial Fisher-Yates shuffle).
Strings pickDistinct(Rng& rng, Strings pool, std::size_t count)
{
    count = std::min(count, pool.size());
    for (std::size_t i = 0; i < count; ++i)
        std::swap(pool[i], pool[i + rng.below(pool.size() - i)]);
    pool.resize(count);
    return pool;
}

Strings without(Strings pool, const Strings& drop)
{
    std::erase_if(pool, [&](const std::string& s) { return std::find(drop.begin(), drop.end(), s) != drop.end(); });
    return pool;
}

/// A plain line; sized items get a random size.
OrderLine plainLine(Rng& rng, const std::string& sku, int quantity = 1)
{
    OrderLine line;
    line.sku = sku;
    line.quantity = quantity;
    if (!item(sku).sizes.empty())
        line.size = rng.pick(item(sku).sizes);
    return line;
}

Strings availableAdditions(const MenuItem& m)
{
    Strings ids;
    for (const Ingredient& a : m.additions) {
        if (a.available)
            ids.push_back(a.id);
    }
    return ids;
}

std::string render(Phrasing& p, const std::vector<OrderLine>& lines, const std::string& statement = {})
{
    const bool bullets = lines.size() > 1 && p.rng().chance(20);
    Strings phrases;
    for (const OrderLine& line : lines)
        phrases.push_back(p.linePhrase(line, lines.size() > 1 && !bullets));
    return bullets ? p.bulletMessage(phrases, statement) : p.message(p.list(phrases), statement);
}

/// A modifier two different items both allow: a removable component or an available addition.
struct SharedModifier
{
    std::string first;
    std::string second;
    bool removal;
    std::string id;
};

std::vector<SharedModifier> sharedModifiers()
{
    std::vector<SharedModifier> shared;
    const Strings skus = availableSkus();
    for (std::size_t i = 0; i < skus.size(); ++i) {
        for (std::size_t j = i + 1; j < skus.size(); ++j) {
            const MenuItem& a = item(skus[i]);
            const MenuItem& b = item(skus[j]);
            for (const std::string& r : a.removable) {
                if (b.canRemove(r))
                    shared.push_back({ a.sku, b.sku, true, r });
            }
            for (const std::string& add : availableAdditions(a)) {
                const Strings other = availableAdditions(b);
                if (std::find(other.begin(), other.end(), add) != other.end())
                    shared.push_back({ a.sku, b.sku, false, add });
            }
        }
    }
    return shared;
}

/// The modifier said right after an item: "without onion", "with bacon".
std::string compactModifier(Phrasing& p, bool removal, const Strings& ids)
{
    Strings words;
    for (const std::string& id : ids)
        words.push_back(p.ingredientWord(id));
    std::string joined;
    for (std::size_t i = 0; i < words.size(); ++i)
        joined += (i == 0 ? "" : i + 1 == words.size() ? (removal ? " or " : " and ") : ", ") + words[i];
    if (!removal)
        return "with " + joined;
    static const Strings forms = { "without ", "with no ", "no " };
    return p.rng().pick(forms) + joined;
}

/// The modifier said about a named item: "no onion on the veggie one", "add bacon to the wrap".
std::string modifierOn(Phrasing& p, bool removal, const std::string& id, const std::string& reference)
{
    const std::string word = p.ingredientWord(id);
    if (removal) {
        static const Strings forms = { "no {w} on {r}", "hold the {w} on {r}", "leave the {w} off {r}" };
        std::string text = p.rng().pick(forms);
        text.replace(text.find("{w}"), 3, word);
        text.replace(text.find("{r}"), 3, reference);
        return text;
    }
    static const Strings forms = { "add {w} to {r}", "put {w} on {r}" };
    std::string text = p.rng().pick(forms);
    text.replace(text.find("{w}"), 3, word);
    text.replace(text.find("{r}"), 3, reference);
    return text;
}

void addModifier(OrderLine& line, bool removal, const std::string& id)
{
    (removal ? line.removals : line.additions).push_back(id);
}

// ---- 1. simple exact orders ----------------------------------------------------------------
CaseDraft simpleExact(Phrasing& p, int index)
{
    Rng& rng = p.rng();
    const int slot = index % 10;
    const std::size_t count = slot < 6 ? 1 : slot < 9 ? 2 : 3;
    CaseDraft draft;
    for (const std::string& sku : pickDistinct(rng, availableSkus(), count))
        draft.request.lines.push_back(plainLine(rng, sku));
    if (rng.chance(25)) {
        OrderLine& line = draft.request.lines[rng.below(draft.request.lines.size())];
        if (!item(line.sku).instructions.empty())
            line.instructions = rng.pick(item(line.sku).instructions);
    }
    draft.input = render(p, draft.request.lines);
    return draft;
}

// ---- 2. quantity and size ---------------------------------------------------------------------
CaseDraft quantitySize(Phrasing& p, int index)
{
    Rng& rng = p.rng();
    const Strings sized = { "garden_salad", "fries", "milkshake" };
    CaseDraft draft;
    auto& lines = draft.request.lines;
    if (index % 3 == 1) {
        // The same item in two sizes: two lines that must not be merged.
        const std::string sku = sized[(static_cast<std::size_t>(index) / 3) % sized.size()];
        const Strings sizes = pickDistinct(rng, item(sku).sizes, 2);
        for (const std::string& size : sizes) {
            OrderLine line = plainLine(rng, sku, 1 + static_cast<int>(rng.below(3)));
            line.size = size;
            lines.push_back(line);
        }
        if (rng.chance(50)) {
            const int quantity = 1 + static_cast<int>(rng.below(3));
            lines.push_back(plainLine(rng, rng.pick(without(availableSkus(), sized)), quantity));
        }
    } else {
        const std::string first = rng.pick(sized);
        const std::size_t extra = index % 3 == 0 ? 1 : 2;
        lines.push_back(plainLine(rng, first, 1 + static_cast<int>(rng.below(4))));
        for (const std::string& sku : pickDistinct(rng, without(availableSkus(), { first }), extra))
            lines.push_back(plainLine(rng, sku, 1 + static_cast<int>(rng.below(4))));
        std::swap(lines[0], lines[rng.below(lines.size())]);
    }
    if (std::all_of(lines.begin(), lines.end(), [](const OrderLine& l) { return l.quantity == 1; }))
        lines[rng.below(lines.size())].quantity = 2 + static_cast<int>(rng.below(3));
    if (rng.chance(15)) {
        OrderLine& line = lines[rng.below(lines.size())];
        if (!item(line.sku).instructions.empty())
            line.instructions = rng.pick(item(line.sku).instructions);
    }
    draft.input = render(p, lines);
    return draft;
}

// ---- 3. negated modifiers ---------------------------------------------------------------------
CaseDraft negatedModifier(Phrasing& p, int index)
{
    Rng& rng = p.rng();
    const Strings skus = availableSkus();
    const std::string sku = skus[static_cast<std::size_t>(index) % skus.size()];
    const MenuItem& m = item(sku);
    CaseDraft draft;
    OrderLine line = plainLine(rng, sku, rng.chance(20) ? 2 : 1);
    line.removals = pickDistinct(rng, m.removable, m.removable.size() >= 2 && rng.chance(35) ? 2 : 1);
    draft.request.lines.push_back(line);
    if (rng.chance(40)) {
        OrderLine other = plainLine(rng, rng.pick(without(skus, { sku })));
        if (rng.chance(35))
            other.removals = pickDistinct(rng, item(other.sku).removable, 1);
        draft.request.lines.push_back(other);
        if (rng.chance(50))
            std::swap(draft.request.lines[0], draft.request.lines[1]);
    }
    draft.input = render(p, draft.request.lines);
    return draft;
}

// ---- 4. scoped modifiers: one of two items modified -------------------------------------------
CaseDraft scopedModifier(Phrasing& p, int index)
{
    Rng& rng = p.rng();
    CaseDraft draft;
    auto& lines = draft.request.lines;
    const int pattern = index % 3;
    if (pattern == 1) {
        // Two of the same item, only one of them modified.
        const Strings skus = availableSkus();
        const std::string sku = skus[(static_cast<std::size_t>(index) / 3) % skus.size()];
        const MenuItem& m = item(sku);
        const Strings additions = availableAdditions(m);
        const bool removal = additions.empty() || rng.chance(65);
        const std::string id = removal ? rng.pick(m.removable) : rng.pick(additions);
        OrderLine modified = plainLine(rng, sku);
        OrderLine plain = modified;
        addModifier(modified, removal, id);
        const std::string mod = compactModifier(p, removal, { id });
        OrderLine both = modified;
        both.quantity = 2;
        const std::string size = modified.size.empty() ? "" : modified.size + " ";
        lines = { modified, plain };
        switch (rng.below(4)) {
        case 0:
            draft.input = p.message(p.countedItem(both) + ", one of them " + mod);
            break;
        case 1:
            draft.input = p.message(p.countedItem(both) + ": one " + mod + ", one normal");
            break;
        case 2:
            draft.input = p.message(p.countedItem(both) + ", but only one " + mod);
            break;
        default: {
            const std::string plainName = p.itemName(sku, 1, false);
            draft.input
                = p.message("one " + size + p.itemName(sku, 1) + " " + mod + " and one plain " + size + plainName);
            break;
        }
        }
        return draft;
    }

    const std::vector<SharedModifier> shared = sharedModifiers();
    const SharedModifier& s = shared[(static_cast<std::size_t>(index) * 7 + 3) % shared.size()];
    const bool secondGetsIt = rng.chance(50);
    const std::string target = secondGetsIt ? s.second : s.first;
    const std::string other = secondGetsIt ? s.first : s.second;
    OrderLine x = plainLine(rng, other);
    OrderLine y = plainLine(rng, target);
    addModifier(y, s.removal, s.id);
    const std::string cx = p.countedItem(x);
    const std::string cy = p.countedItem(y);

    if (pattern == 2) {
        // Three items, the modifier on one of them named at the end.
        OrderLine z = plainLine(rng, rng.pick(without(availableSkus(), { s.first, s.second })));
        lines = { x, y, z };
        std::swap(lines[0], lines[1 + rng.below(2)]);
        Strings counted;
        for (const OrderLine& l : lines)
            counted.push_back(l.sku == y.sku ? cy : l.sku == x.sku ? cx : p.countedItem(l));
        const std::string modifier = modifierOn(p, s.removal, s.id, p.backReference(target));
        draft.input = p.message(p.list(counted) + ", " + modifier + " only");
        return draft;
    }

    switch (rng.below(4)) {
    case 0: {
        lines = { x, y };
        const std::string otherReference = p.backReference(other);
        const std::string modifier = modifierOn(p, s.removal, s.id, p.backReference(target));
        draft.input = p.message(cx + " and " + cy + ", " + modifier + ", not on " + otherReference);
        break;
    }
    case 1:
        lines = { y, x };
        draft.input = p.message(cy + " " + compactModifier(p, s.removal, { s.id }) + " and " + cx + " as it comes");
        break;
    case 2:
        lines = { x, y };
        draft.input
            = p.message(cx + " and " + cy + " - " + modifierOn(p, s.removal, s.id, p.backReference(target)) + " only");
        break;
    default:
        lines = { x, y };
        draft.input = p.message(cx + " (regular) and " + cy + " " + compactModifier(p, s.removal, { s.id }));
        break;
    }
    return draft;
}

// ---- 5. shared modifiers: one modifier for several items ----------------------------------------
CaseDraft sharedModifier(Phrasing& p, int index)
{
    Rng& rng = p.rng();
    CaseDraft draft;
    auto& lines = draft.request.lines;
    const int pattern = index % 3;
    if (pattern == 0) {
        // Several of one item, all modified alike: one line with a quantity.
        const Strings skus = availableSkus();
        const std::string sku = skus[(static_cast<std::size_t>(index) / 3) % skus.size()];
        const MenuItem& m = item(sku);
        const Strings additions = availableAdditions(m);
        const bool removal = additions.empty() || rng.chance(70);
        OrderLine line = plainLine(rng, sku, 2 + static_cast<int>(rng.below(3)));
        const Strings ids = removal ? pickDistinct(rng, m.removable, m.removable.size() > 1 && rng.chance(25) ? 2 : 1)
                                    : pickDistinct(rng, additions, 1);
        for (const std::string& id : ids)
            addModifier(line, removal, id);
        lines = { line };
        const std::string counted = p.countedItem(line);
        const std::string all = line.quantity == 2 ? "both" : "all";
        switch (rng.below(3)) {
        case 0:
            draft.input = p.message(counted + ", " + all + " " + compactModifier(p, removal, ids));
            break;
        case 1:
            if (ids.size() == 1) {
                draft.input = p.message(counted + ", " + modifierOn(p, removal, ids[0], "all of them"));
                break;
            }
            [[fallthrough]];
        default:
            draft.input = p.message(counted + " " + compactModifier(p, removal, ids));
            break;
        }
        return draft;
    }

    const std::vector<SharedModifier> shared = sharedModifiers();
    const SharedModifier& s = shared[(static_cast<std::size_t>(index) * 5 + 1) % shared.size()];
    OrderLine x = plainLine(rng, s.first, pattern == 2 ? 2 : 1);
    OrderLine y = plainLine(rng, s.second);
    addModifier(x, s.removal, s.id);
    addModifier(y, s.removal, s.id);
    if (rng.chance(50))
        std::swap(x, y);
    lines = { x, y };
    const std::string second = p.countedItem(y);
    const std::string items = p.countedItem(x) + " and " + second;
    const std::string word = p.ingredientWord(s.id);
    switch (rng.below(3)) {
    case 0:
        draft.input = p.message(items + ", " + modifierOn(p, s.removal, s.id, pattern == 2 ? "all of them" : "both"));
        break;
    case 1:
        draft.input
            = p.message(items + ", " + (pattern == 2 ? "all " : "both ") + compactModifier(p, s.removal, { s.id }));
        break;
    default:
        draft.input = s.removal ? p.message(items + ", no " + word + " on " + (pattern == 2 ? "any of them" : "either"))
                                : p.message(items + ", " + word + " on " + (pattern == 2 ? "all of them" : "both"));
        break;
    }
    return draft;
}

// ---- 6. allergen-safe acceptances: safe only once a component is removed ------------------------
struct SafeCombo
{
    std::string sku;
    Strings allergens;
    Strings carriers; ///< the removable components that hold the allergens
};

std::vector<SafeCombo> safeCombos(bool pairs)
{
    std::vector<SafeCombo> combos;
    for (const std::string& sku : availableSkus()) {
        const MenuItem& m = item(sku);
        std::vector<SafeCombo> singles;
        for (const std::string& allergen : m.defaultAllergens()) {
            SafeCombo combo { sku, { allergen }, {} };
            bool removable = true;
            for (const Ingredient& c : m.components) {
                if (std::find(c.allergens.begin(), c.allergens.end(), allergen) != c.allergens.end()) {
                    combo.carriers.push_back(c.id);
                    removable = removable && m.canRemove(c.id);
                }
            }
            if (removable)
                singles.push_back(combo);
        }
        if (!pairs) {
            combos.insert(combos.end(), singles.begin(), singles.end());
            continue;
        }
        for (std::size_t i = 0; i < singles.size(); ++i) {
            for (std::size_t j = i + 1; j < singles.size(); ++j) {
                std::set<std::string> carriers(singles[i].carriers.begin(), singles[i].carriers.end());
                carriers.insert(singles[j].carriers.begin(), singles[j].carriers.end());
                if (carriers.size() > singles[i].carriers.size() && carriers.size() > singles[j].carriers.size())
                    combos.push_back({ sku, { singles[i].allergens[0], singles[j].allergens[0] },
                        Strings(carriers.begin(), carriers.end()) });
            }
        }
    }
    return combos;
}

/// Available items whose default recipe holds none of `allergens` and suits every diet in `diets`.
Strings harmlessSkus(const Strings& allergens, const Strings& diets, const std::string& except)
{
    Strings skus;
    for (const std::string& sku : availableSkus()) {
        if (sku == except)
            continue;
        const Strings has = item(sku).defaultAllergens();
        const Strings suits = item(sku).defaultDietary();
        const bool clean = std::none_of(allergens.begin(), allergens.end(),
            [&](const std::string& a) { return std::find(has.begin(), has.end(), a) != has.end(); });
        const bool fits = std::all_of(diets.begin(), diets.end(),
            [&](const std::string& d) { return std::find(suits.begin(), suits.end(), d) != suits.end(); });
        if (clean && fits)
            skus.push_back(sku);
    }
    return skus;
}

CaseDraft allergenSafe(Phrasing& p, int index)
{
    Rng& rng = p.rng();
    const std::vector<SafeCombo> singles = safeCombos(false);
    const std::vector<SafeCombo> pairs = safeCombos(true);
    const SafeCombo& combo = index < 22 || pairs.empty() ? singles[static_cast<std::size_t>(index) % singles.size()]
                                                         : pairs[static_cast<std::size_t>(index - 22) % pairs.size()];
    CaseDraft draft;
    draft.request.allergens = combo.allergens;
    OrderLine line = plainLine(rng, combo.sku, rng.chance(20) ? 2 : 1);
    line.removals = combo.carriers;
    draft.request.lines.push_back(line);
    const Strings extra = harmlessSkus(combo.allergens, {}, combo.sku);
    if (!extra.empty() && rng.chance(40)) {
        draft.request.lines.push_back(plainLine(rng, rng.pick(extra)));
        if (rng.chance(40))
            std::swap(draft.request.lines[0], draft.request.lines[1]);
    }
    draft.input = render(p, draft.request.lines, p.allergyStatement(combo.allergens));
    return draft;
}

// ---- 7. allergen conflicts: the allergen stays on the plate --------------------------------------
struct ConflictCombo
{
    std::string sku;
    std::string constraint; ///< the allergen or diet stated
    Strings removals; ///< what the customer removes (never enough)
    Strings additions; ///< what the customer adds (sometimes the culprit)
};

CaseDraft conflictCase(Phrasing& p, const ConflictCombo& combo, bool diet)
{
    Rng& rng = p.rng();
    CaseDraft draft;
    (diet ? draft.request.dietary : draft.request.allergens).push_back(combo.constraint);
    OrderLine line = plainLine(rng, combo.sku, rng.chance(20) ? 2 : 1);
    line.removals = combo.removals;
    line.additions = combo.additions;
    draft.request.lines.push_back(line);
    const Strings extra
        = diet ? harmlessSkus({}, { combo.constraint }, combo.sku) : harmlessSkus({ combo.constraint }, {}, combo.sku);
    if (!extra.empty() && rng.chance(35)) {
        draft.request.lines.push_back(plainLine(rng, rng.pick(extra)));
        if (rng.chance(50))
            std::swap(draft.request.lines[0], draft.request.lines[1]);
    }
    const std::string statement
        = diet ? p.dietStatement(draft.request.dietary) : p.allergyStatement(draft.request.allergens);
    draft.input = render(p, draft.request.lines, statement);
    return draft;
}

CaseDraft allergenConflict(Phrasing& p, int index)
{
    static const std::vector<ConflictCombo> combos = {
        { "classic_burger", "gluten", {}, {} },
        { "classic_burger", "sesame", { "onion" }, {} },
        { "veggie_burger", "soy", {}, {} },
        { "veggie_burger", "sesame", {}, {} },
        { "veggie_burger", "gluten", { "tomato" }, {} },
        { "chicken_wrap", "gluten", { "garlic_sauce" }, {} },
        { "milkshake", "milk", {}, {} },
        { "milkshake", "milk", { "whipped_cream" }, {} },
        { "milkshake", "peanut", {}, { "peanut_butter" } },
        { "milkshake", "gluten", {}, { "cookie_crumbs" } },
        { "milkshake", "soy", {}, { "chocolate_syrup" } },
        { "fries", "milk", {}, { "cheese_sauce" } },
        { "fries", "egg", {}, { "truffle_mayo" } },
        { "classic_burger", "egg", { "burger_sauce" }, { "fried_egg" } },
        { "chicken_wrap", "sesame", {}, { "hummus" } },
        { "garden_salad", "egg", {}, { "boiled_egg" } },
        { "veggie_burger", "egg", {}, { "fried_egg" } },
    };
    return conflictCase(p, combos[static_cast<std::size_t>(index) % combos.size()], false);
}

// ---- 8. dietary conflicts ----------------------------------------------------------------------
CaseDraft dietaryConflict(Phrasing& p, int index)
{
    static const std::vector<ConflictCombo> combos = {
        { "classic_burger", "vegetarian", {}, {} },
        { "classic_burger", "vegetarian", { "cheddar" }, {} },
        { "chicken_wrap", "vegetarian", {}, {} },
        { "chicken_wrap", "vegetarian", { "jack_cheese" }, {} },
        { "garden_salad", "vegetarian", {}, { "bacon" } },
        { "garden_salad", "vegetarian", { "feta" }, { "grilled_chicken" } },
        { "milkshake", "vegan", {}, {} },
        { "milkshake", "vegan", { "whipped_cream" }, {} },
        { "fries", "vegan", {}, { "cheese_sauce" } },
        { "fries", "vegan", {}, { "truffle_mayo" } },
        { "veggie_burger", "vegan", { "swiss_cheese" }, { "fried_egg" } },
        { "garden_salad", "vegan", { "feta" }, { "boiled_egg" } },
        { "classic_burger", "gluten_free", {}, {} },
        { "veggie_burger", "gluten_free", { "onion" }, {} },
        { "chicken_wrap", "gluten_free", {}, {} },
        { "milkshake", "gluten_free", {}, { "cookie_crumbs" } },
    };
    return conflictCase(p, combos[static_cast<std::size_t>(index) % combos.size()], true);
}

// ---- 9. unavailable items ----------------------------------------------------------------------
CaseDraft unavailableItem(Phrasing& p, int index)
{
    Rng& rng = p.rng();
    static const Strings offMenu
        = { "onion rings", "pepperoni pizza", "hot dogs", "chicken nuggets", "iced coffee", "nachos", "apple pie",
              "lemonade", "fish tacos", "mozzarella sticks", "sweet potato fries", "chocolate brownies" };
    CaseDraft draft;
    OrderLine missing;
    std::string missingPhrase;
    if (index % 3 == 0) {
        missing = plainLine(rng, "fish_sandwich", rng.chance(25) ? 2 : 1);
        if (rng.chance(25))
            missing.removals = { "tartar_sauce" };
        missingPhrase = p.linePhrase(missing, true);
    } else {
        missing.offMenu = offMenu[static_cast<std::size_t>(index) % offMenu.size()];
        missingPhrase = p.offMenuPhrase(missing.offMenu);
    }
    draft.request.lines.push_back(missing);
    Strings phrases = { missingPhrase };
    if (rng.chance(50)) {
        const OrderLine other = plainLine(rng, rng.pick(availableSkus()));
        draft.request.lines.push_back(other);
        phrases.push_back(p.linePhrase(other, true));
        if (rng.chance(50)) {
            std::swap(draft.request.lines[0], draft.request.lines[1]);
            std::swap(phrases[0], phrases[1]);
        }
    }
    draft.input = p.message(p.list(phrases));
    return draft;
}

// ---- 10. unavailable modifiers -----------------------------------------------------------------
CaseDraft unavailableModifier(Phrasing& p, int index)
{
    Rng& rng = p.rng();
    static const std::vector<std::pair<std::string, std::string>> notOffered = { { "veggie_burger", "bacon" },
        { "classic_burger", "cheese_sauce" }, { "classic_burger", "hummus" }, { "chicken_wrap", "fried_egg" },
        { "garden_salad", "jalapenos" }, { "fries", "bacon" }, { "chicken_wrap", "extra_cheese" } };
    static const std::vector<std::pair<std::string, std::string>> fixedComponents
        = { { "classic_burger", "sesame_bun" }, { "veggie_burger", "sesame_bun" },
              { "chicken_wrap", "grilled_chicken" }, { "garden_salad", "mixed_greens" },
              { "veggie_burger", "bean_patty" }, { "classic_burger", "beef_patty" } };
    static const std::vector<std::pair<std::string, std::string>> wrongSizes
        = { { "garden_salad", "medium" }, { "classic_burger", "large" }, { "chicken_wrap", "large" },
              { "fries", "extra large" }, { "veggie_burger", "small" }, { "milkshake", "extra large" } };
    static const Strings avocadoSkus = { "classic_burger", "veggie_burger", "chicken_wrap", "garden_salad" };

    const auto slot = static_cast<std::size_t>(index) / 4;
    OrderLine line;
    switch (index % 4) {
    case 0:
        line = plainLine(rng, avocadoSkus[slot % avocadoSkus.size()]);
        line.additions = { "avocado" };
        if (rng.chance(30))
            line.removals = pickDistinct(rng, item(line.sku).removable, 1);
        break;
    case 1:
        line = plainLine(rng, notOffered[slot % notOffered.size()].first);
        line.additions = { notOffered[slot % notOffered.size()].second };
        break;
    case 2:
        line = plainLine(rng, fixedComponents[slot % fixedComponents.size()].first);
        line.removals = { fixedComponents[slot % fixedComponents.size()].second };
        break;
    default:
        line = plainLine(rng, wrongSizes[slot % wrongSizes.size()].first);
        line.size = wrongSizes[slot % wrongSizes.size()].second;
        break;
    }
    CaseDraft draft;
    draft.request.lines.push_back(line);
    if (rng.chance(35)) {
        draft.request.lines.push_back(plainLine(rng, rng.pick(without(availableSkus(), { line.sku }))));
        if (rng.chance(50))
            std::swap(draft.request.lines[0], draft.request.lines[1]);
    }
    draft.input = render(p, draft.request.lines);
    return draft;
}

} // namespace

const std::vector<Category>& categories()
{
    static const std::vector<Category> list = {
        { "simple_exact", "accepted", {}, simpleExact },
        { "quantity_size", "accepted", {}, quantitySize },
        { "negated_modifier", "accepted", {}, negatedModifier },
        { "scoped_modifier", "accepted", {}, scopedModifier },
        { "shared_modifier", "accepted", {}, sharedModifier },
        { "allergen_safe", "accepted", {}, allergenSafe },
        { "allergen_conflict", "rejected_safety", { "allergen_conflict" }, allergenConflict },
        { "dietary_conflict", "rejected_safety", { "dietary_conflict" }, dietaryConflict },
        { "unavailable_item", "needs_clarification", {}, unavailableItem },
        { "unavailable_modifier", "needs_clarification", {}, unavailableModifier },
    };
    return list;
}

} // namespace structscope::orderbench
