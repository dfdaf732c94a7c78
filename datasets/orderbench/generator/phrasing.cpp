// SPDX-License-Identifier: Apache-2.0
#include "phrasing.h"

#include <map>

namespace structscope::orderbench {

namespace {

using Strings = std::vector<std::string>;

struct Name
{
    std::string singular;
    std::string plural;
};

const std::map<std::string, std::vector<Name>>& names()
{
    static const std::map<std::string, std::vector<Name>> table = {
        { "classic_burger", { { "classic burger", "classic burgers" }, { "Classic Burger", "Classic Burgers" } } },
        { "veggie_burger", { { "veggie burger", "veggie burgers" }, { "Veggie Burger", "Veggie Burgers" } } },
        { "chicken_wrap", { { "chicken wrap", "chicken wraps" }, { "Chicken Wrap", "Chicken Wraps" } } },
        { "garden_salad",
            { { "garden salad", "garden salads" }, { "Garden Salad", "Garden Salads" }, { "salad", "salads" } } },
        { "fries", { { "fries", "fries" }, { "french fries", "french fries" }, { "Fries", "Fries" } } },
        { "milkshake",
            { { "milkshake", "milkshakes" }, { "Milkshake", "Milkshakes" }, { "shake", "shakes" },
                { "milk shake", "milk shakes" } } },
        { "fish_sandwich", { { "fish sandwich", "fish sandwiches" }, { "Fish Sandwich", "Fish Sandwiches" } } },
    };
    return table;
}

const std::map<std::string, std::vector<Name>>& typos()
{
    static const std::map<std::string, std::vector<Name>> table = {
        { "classic_burger", { { "clasic burger", "clasic burgers" }, { "classic burgr", "classic burgrs" } } },
        { "veggie_burger", { { "vegie burger", "vegie burgers" }, { "veggie burguer", "veggie burguers" } } },
        { "chicken_wrap", { { "chiken wrap", "chiken wraps" }, { "chicken wrapp", "chicken wrapps" } } },
        { "garden_salad", { { "garden salat", "garden salats" }, { "gardn salad", "gardn salads" } } },
        { "fries", { { "frys", "frys" }, { "french frise", "french frise" } } },
        { "milkshake", { { "milkshak", "milkshaks" }, { "milkshke", "milkshkes" } } },
        { "fish_sandwich", { { "fish sandwhich", "fish sandwhiches" } } },
    };
    return table;
}

const std::map<std::string, std::vector<std::string>>& backReferences()
{
    static const std::map<std::string, std::vector<std::string>> table = {
        { "classic_burger", { "the classic burger", "the classic", "the beef burger" } },
        { "veggie_burger", { "the veggie burger", "the veggie one", "the veggie" } },
        { "chicken_wrap", { "the wrap", "the chicken wrap" } },
        { "garden_salad", { "the salad", "the garden salad" } },
        { "fries", { "the fries" } },
        { "milkshake", { "the shake", "the milkshake" } },
        { "fish_sandwich", { "the fish sandwich" } },
    };
    return table;
}

// How customers name ingredients; a word may depend on the item ("cheese" is cheddar on the classic).
const std::map<std::string, std::vector<std::string>>& ingredientWords()
{
    static const std::map<std::string, std::vector<std::string>> table = {
        { "onion", { "onion", "onions" } },
        { "pickles", { "pickles", "pickle" } },
        { "tomato", { "tomato", "tomatoes" } },
        { "lettuce", { "lettuce" } },
        { "cheddar", { "cheese", "cheddar" } },
        { "burger_sauce", { "burger sauce", "sauce" } },
        { "swiss_cheese", { "cheese", "swiss cheese" } },
        { "jack_cheese", { "cheese", "jack cheese" } },
        { "garlic_sauce", { "garlic sauce", "sauce" } },
        { "cucumber", { "cucumber", "cucumbers" } },
        { "cherry_tomatoes", { "tomatoes", "cherry tomatoes" } },
        { "croutons", { "croutons" } },
        { "feta", { "feta", "cheese" } },
        { "walnuts", { "walnuts" } },
        { "vinaigrette", { "dressing", "vinaigrette" } },
        { "sea_salt", { "salt" } },
        { "whipped_cream", { "whipped cream" } },
        { "sesame_bun", { "bun" } },
        { "plain_bun", { "bun" } },
        { "bean_patty", { "patty", "bean patty" } },
        { "beef_patty", { "patty" } },
        { "grilled_chicken", { "grilled chicken", "chicken" } },
        { "mixed_greens", { "greens", "mixed greens" } },
        { "vanilla_ice_cream", { "ice cream" } },
        { "whole_milk", { "milk" } },
        { "potatoes", { "potatoes" } },
        { "tartar_sauce", { "tartar sauce" } },
        { "bacon", { "bacon" } },
        { "extra_cheese", { "extra cheese" } },
        { "fried_egg", { "a fried egg", "fried egg" } },
        { "jalapenos", { "jalapeños", "jalapenos" } },
        { "avocado", { "avocado" } },
        { "hummus", { "hummus" } },
        { "boiled_egg", { "a boiled egg", "boiled egg" } },
        { "cheese_sauce", { "cheese sauce" } },
        { "truffle_mayo", { "truffle mayo" } },
        { "chocolate_syrup", { "chocolate syrup" } },
        { "peanut_butter", { "peanut butter" } },
        { "caramel", { "caramel sauce", "caramel" } },
        { "cookie_crumbs", { "cookie crumbs" } },
    };
    return table;
}

const std::map<std::string, std::vector<std::string>>& offMenuWords()
{
    static const std::map<std::string, std::vector<std::string>> table = {
        { "onion rings", { "an order of onion rings", "onion rings", "some onion rings" } },
        { "pepperoni pizza", { "a pepperoni pizza", "a slice of pepperoni pizza" } },
        { "hot dogs", { "a hot dog", "one hot dog" } },
        { "chicken nuggets", { "chicken nuggets", "a box of chicken nuggets" } },
        { "iced coffee", { "an iced coffee", "one iced coffee" } },
        { "nachos", { "nachos", "a plate of nachos" } },
        { "apple pie", { "an apple pie", "a slice of apple pie" } },
        { "lemonade", { "a lemonade", "one lemonade" } },
        { "fish tacos", { "fish tacos", "an order of fish tacos" } },
        { "mozzarella sticks", { "mozzarella sticks", "some mozzarella sticks" } },
        { "sweet potato fries", { "sweet potato fries", "a side of sweet potato fries" } },
        { "chocolate brownies", { "a chocolate brownie", "one chocolate brownie" } },
    };
    return table;
}

// Message frames; "{}" is the order. Politeness, punctuation and spelling vary on purpose.
const std::vector<std::string>& frames()
{
    static const std::vector<std::string> table = {
        "Hi, can I get {}?",
        "Hi! Could I please have {}? Thanks",
        "{}, please.",
        "{} pls",
        "hey can i get {} thx",
        "I'd like to order {}.",
        "Good evening, we'd like {}. Thank you!",
        "Order for pickup: {}.",
        "Let me get {}, please.",
        "Can we do {}?",
        "hello, {} for delivery please",
        "Yeah hi, um, {}. That's all.",
        "I'll have {}.",
        "Could you put in an order for {}? Cheers.",
        "{} \u2014 thanks!",
        "Hiya, {}, ta",
        "cna I get {}",
        "Id like {} plese",
        "Hello there. For me {}, thank you very much.",
        "quick order: {}",
    };
    return table;
}

std::string fill(const std::string& frame, const std::string& body)
{
    const auto at = frame.find("{}");
    return frame.substr(0, at) + body + frame.substr(at + 2);
}

bool startsWithAny(const std::string& text, const std::vector<std::string>& prefixes)
{
    for (const std::string& p : prefixes) {
        if (text.rfind(p, 0) == 0)
            return true;
    }
    return false;
}

} // namespace

std::string Phrasing::number(int n)
{
    static const std::vector<std::string> words
        = { "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten" };
    if (n >= 2 && n <= 10 && m_rng.chance(60))
        return words[static_cast<std::size_t>(n)];
    return std::to_string(n);
}

std::string Phrasing::itemName(const std::string& sku, int quantity, bool allowTypo)
{
    const auto& pool = allowTypo && m_rng.chance(12) && typos().count(sku) ? typos().at(sku) : names().at(sku);
    const Name& name = m_rng.pick(pool);
    return quantity == 1 ? name.singular : name.plural;
}

std::string Phrasing::backReference(const std::string& sku)
{
    return m_rng.pick(backReferences().at(sku));
}

std::string Phrasing::countedItem(const OrderLine& line)
{
    const std::string name = itemName(line.sku, line.quantity);
    std::string count;
    const std::size_t style = m_rng.below(4);
    if (line.quantity == 1)
        count = style == 0 ? "one" : style == 1 ? "1x" : "a";
    else
        count = style == 1 ? std::to_string(line.quantity) + "x" : number(line.quantity);
    if (line.size.empty())
        return count + " " + name;
    if (m_rng.chance(65))
        return count + " " + line.size + " " + name;
    return count + " " + name + " (" + line.size + ")";
}

std::string Phrasing::ingredientWord(const std::string& ingredientId)
{
    const auto it = ingredientWords().find(ingredientId);
    return it == ingredientWords().end() ? ingredientId : m_rng.pick(it->second);
}

std::string Phrasing::joinWith(const std::vector<std::string>& parts, const std::string& last)
{
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i == 0 ? "" : i + 1 == parts.size() ? last : ", ") + parts[i];
    return out;
}

std::string Phrasing::removalPhrase(const std::vector<std::string>& removals)
{
    std::vector<std::string> words;
    for (const std::string& r : removals)
        words.push_back(ingredientWord(r));
    if (words.size() == 1) {
        static const Strings forms
            = { "no {}", "without {}", "hold the {}", "with no {}", "minus the {}", "skip the {}", "but no {}" };
        return fill(m_rng.pick(forms), words[0]);
    }
    switch (m_rng.below(5)) {
    case 0: {
        std::string out;
        for (std::size_t i = 0; i < words.size(); ++i)
            out += (i == 0 ? "no " : i + 1 == words.size() ? " and no " : ", no ") + words[i];
        return out;
    }
    case 1:
        return "no " + joinWith(words, " or ");
    case 2:
        return "without " + joinWith(words, " or ");
    case 3:
        return "without " + joinWith(words, " and ");
    default: {
        std::string out;
        for (std::size_t i = 0; i < words.size(); ++i)
            out += (i == 0 ? "hold the " : i + 1 == words.size() ? " and the " : ", the ") + words[i];
        return out;
    }
    }
}

std::string Phrasing::additionPhrase(const std::vector<std::string>& additions)
{
    std::vector<std::string> words;
    for (const std::string& a : additions)
        words.push_back(ingredientWord(a));
    static const std::vector<std::string> forms = { "with {}", "add {}", "plus {}", "with {} added", "+ {}" };
    return fill(m_rng.pick(forms), joinWith(words, " and "));
}

std::string Phrasing::modifierPhrase(const OrderLine& line, bool compact)
{
    const bool adds = !line.additions.empty();
    const bool removes = !line.removals.empty();
    Strings added, removed;
    for (const std::string& a : line.additions)
        added.push_back(ingredientWord(a));
    for (const std::string& r : line.removals)
        removed.push_back(ingredientWord(r));
    if (adds && removes) {
        if (m_rng.chance(50))
            return "with " + joinWith(added, " and ") + " but no " + joinWith(removed, " or ");
        if (compact || m_rng.chance(50))
            return "without " + joinWith(removed, " or ") + " but with " + joinWith(added, " and ");
        return removalPhrase(line.removals) + ", with " + joinWith(added, " and ");
    }
    if (compact && adds)
        return (m_rng.chance(70) ? "with " : "plus ") + joinWith(added, " and ");
    if (compact && removes) {
        static const Strings forms = { "no ", "without ", "with no " };
        return m_rng.pick(forms) + joinWith(removed, " or ");
    }
    if (adds)
        return additionPhrase(line.additions);
    if (removes)
        return removalPhrase(line.removals);
    return {};
}

std::string Phrasing::linePhrase(const OrderLine& line, bool compact)
{
    std::string text = countedItem(line);
    const std::string modifiers = modifierPhrase(line, compact);
    if (!modifiers.empty()) {
        const bool needsComma = startsWithAny(modifiers, { "hold", "minus", "skip", "add", "+", "but" });
        text += (!compact && (needsComma || m_rng.chance(30)) ? ", " : " ") + modifiers;
    }
    if (!line.instructions.empty()) {
        static const Strings forms = { " ({})", ", {}", " - {} please" };
        text += fill(compact ? forms[0] : m_rng.pick(forms), line.instructions);
    }
    return text;
}

std::string Phrasing::offMenuPhrase(const std::string& name)
{
    return m_rng.pick(offMenuWords().at(name));
}

std::string Phrasing::list(const std::vector<std::string>& parts)
{
    if (parts.size() == 1)
        return parts[0];
    // Lines may carry commas of their own, so the separators between lines never are bare commas.
    switch (m_rng.below(4)) {
    case 0: {
        std::string out;
        for (std::size_t i = 0; i < parts.size(); ++i)
            out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : "; ") + parts[i];
        return out;
    }
    case 1: {
        std::string out;
        for (std::size_t i = 0; i < parts.size(); ++i)
            out += (i == 0 ? "" : " + ") + parts[i];
        return out;
    }
    case 2: {
        std::string out;
        for (std::size_t i = 0; i < parts.size(); ++i)
            out += (i == 0 ? "" : "; ") + parts[i];
        return out;
    }
    default: {
        std::string out;
        for (std::size_t i = 0; i < parts.size(); ++i)
            out += (i == 0 ? "" : i + 1 == parts.size() ? " and also " : "; ") + parts[i];
        return out;
    }
    }
}

std::string Phrasing::allergenWord(const std::string& allergen, bool adjective)
{
    static const std::map<std::string, std::vector<std::string>> nouns = {
        { "milk", { "milk", "dairy" } },
        { "egg", { "eggs", "egg" } },
        { "peanut", { "peanuts" } },
        { "tree_nuts", { "tree nuts" } },
        { "soy", { "soy" } },
        { "sesame", { "sesame" } },
        { "gluten", { "gluten" } },
        { "mustard", { "mustard" } },
        { "fish", { "fish" } },
    };
    static const std::map<std::string, std::vector<std::string>> adjectives = {
        { "milk", { "milk", "dairy" } },
        { "egg", { "egg" } },
        { "peanut", { "peanut" } },
        { "tree_nuts", { "tree nut" } },
        { "soy", { "soy" } },
        { "sesame", { "sesame" } },
        { "gluten", { "gluten" } },
        { "mustard", { "mustard" } },
        { "fish", { "fish" } },
    };
    return m_rng.pick((adjective ? adjectives : nouns).at(allergen));
}

std::string Phrasing::allergyStatement(const std::vector<std::string>& allergens)
{
    if (allergens.size() == 1) {
        static const std::vector<std::string> nounForms
            = { "I'm allergic to {}.", "Allergy: {}.", "Please note I'm allergic to {}!",
                  "The order is for my daughter, she's allergic to {}.", "(allergic to {})" };
        static const std::vector<std::string> adjectiveForms
            = { "I have {} allergy.", "fyi I have a severe {} allergy", "Heads up: {} allergy here." };
        if (m_rng.chance(55)) {
            const std::string word = allergenWord(allergens[0], false); // drawn first: "Draw order", cases.cpp
            return fill(m_rng.pick(nounForms), word);
        }
        const std::string form = m_rng.pick(adjectiveForms);
        const std::string word = allergenWord(allergens[0], true);
        if (form.rfind("I have {}", 0) == 0)
            return fill(form, (word[0] == 'e' ? "an " : "a ") + word);
        return fill(form, word);
    }
    std::vector<std::string> words;
    const bool adjective = m_rng.chance(40);
    for (const std::string& a : allergens)
        words.push_back(allergenWord(a, adjective));
    if (adjective)
        return "I have " + joinWith(words, " and ") + " allergies.";
    return m_rng.chance(50) ? "I'm allergic to " + joinWith(words, " and ") + "."
                            : "Allergies: " + joinWith(words, ", ") + ".";
}

std::string Phrasing::dietStatement(const std::vector<std::string>& diets)
{
    static const std::map<std::string, std::vector<std::string>> forms = {
        { "vegetarian",
            { "I'm vegetarian.", "I am a vegetarian.", "vegetarian here", "I don't eat meat, I'm vegetarian." } },
        { "vegan", { "I'm vegan.", "I follow a vegan diet.", "vegan here, fyi", "Strictly vegan please." } },
        { "gluten_free",
            { "I eat gluten-free.", "I'm on a gluten-free diet.", "I need my food gluten-free.",
                "gluten-free diet here" } },
    };
    std::string out;
    for (const std::string& d : diets)
        out += (out.empty() ? "" : " ") + m_rng.pick(forms.at(d));
    return out;
}

std::string Phrasing::message(const std::string& body, const std::string& statement)
{
    const std::string text = fill(m_rng.pick(frames()), body);
    if (statement.empty())
        return text;
    // Without punctuation in between, the two would read as one run-on sentence; a chat line break doesn't.
    const auto separator = [](const std::string& first) {
        const char last = first.empty() ? ' ' : first.back();
        return last == '.' || last == '!' || last == '?' || last == ')' ? " " : "\n";
    };
    return m_rng.chance(50) ? statement + separator(statement) + text : text + separator(text) + statement;
}

std::string Phrasing::bulletMessage(const std::vector<std::string>& lines, const std::string& statement)
{
    static const std::vector<std::string> heads
        = { "Hi, my order:", "Order:", "hey! can I get", "We'd like:", "pickup order pls" };
    static const std::vector<std::string> bullets = { "- ", "* ", "#" };
    static const std::vector<std::string> tails = { "", "Thanks!", "thx", "That's all, thank you." };
    const std::string bullet = m_rng.pick(bullets);
    std::string text = m_rng.pick(heads);
    for (std::size_t i = 0; i < lines.size(); ++i)
        text += "\n" + (bullet == "#" ? std::to_string(i + 1) + ". " : bullet) + lines[i];
    const std::string tail = m_rng.pick(tails);
    if (!tail.empty())
        text += "\n" + tail;
    if (statement.empty())
        return text;
    return m_rng.chance(50) ? statement + "\n" + text : text + "\n" + statement;
}

} // namespace structscope::orderbench
