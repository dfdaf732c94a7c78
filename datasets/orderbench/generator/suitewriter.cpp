// SPDX-License-Identifier: Apache-2.0
#include "suitewriter.h"

#include "cases.h"
#include "menu.h"
#include "oracle.h"
#include "phrasing.h"
#include "rng.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>

#include <set>
#include <stdexcept>

using nlohmann::json;

namespace structscope::orderbench {

namespace {

json orderSchema(const Menu& menu)
{
    const json stringList = { { "type", "array" }, { "items", { { "type", "string" } } }, { "uniqueItems", true } };
    return {
        { "$schema", "http://json-schema.org/draft-07/schema#" },
        { "title", "Order decision" },
        { "description",
            "What the restaurant does with a customer's order: accept it as executable items, ask one "
            "question, or refuse it for safety." },
        { "type", "object" },
        { "additionalProperties", false },
        { "required", { "status", "items", "constraints", "clarification_question", "reasons" } },
        { "properties",
            {
                { "status", { { "enum", { "accepted", "needs_clarification", "rejected_safety" } } } },
                { "items",
                    { { "type", "array" }, { "maxItems", 10 },
                        { "items",
                            { { "type", "object" }, { "additionalProperties", false },
                                { "required", { "sku", "quantity", "size", "additions", "removals", "instructions" } },
                                { "properties",
                                    {
                                        { "sku", { { "type", "string" }, { "minLength", 1 } } },
                                        { "quantity", { { "type", "integer" }, { "minimum", 1 }, { "maximum", 10 } } },
                                        { "size", { { "type", { "string", "null" } } } },
                                        { "additions", stringList },
                                        { "removals", stringList },
                                        { "instructions", { { "type", { "string", "null" } }, { "maxLength", 200 } } },
                                    } } } } } },
                { "constraints",
                    { { "type", "object" }, { "additionalProperties", false },
                        { "required", { "allergens", "dietary" } },
                        { "properties",
                            {
                                { "allergens",
                                    { { "type", "array" }, { "items", { { "enum", menu.allergens } } },
                                        { "uniqueItems", true } } },
                                { "dietary",
                                    { { "type", "array" }, { "items", { { "enum", menu.dietary } } },
                                        { "uniqueItems", true } } },
                            } } } },
                { "clarification_question", { { "type", { "string", "null" } }, { "maxLength", 500 } } },
                { "reasons",
                    { { "type", "array" }, { "items", { { "enum", { "allergen_conflict", "dietary_conflict" } } } },
                        { "uniqueItems", true } } },
            } },
    };
}

std::string systemPrompt(const Menu& menu)
{
    return "You are the order-taking assistant of " + menu.restaurant
        + ". Turn the customer's message into one JSON object that conforms to the given JSON Schema. Reply with that "
          "JSON object only: no explanations, no Markdown, no code fences.\n\nMENU\n"
        + menuText(menu)
        + "\nRULES\n"
          "- status: \"accepted\" when everything asked for can be served exactly as asked and nothing conflicts "
          "with an allergy or a diet the customer states. \"rejected_safety\" when an item, after the requested "
          "removals and with the requested additions, still contains an allergen the customer is allergic to, or "
          "an ingredient not suitable for a diet they follow. \"needs_clarification\" when something asked for is "
          "not on the menu, sold out, not offered in that size (or a sized item has no size), not offered as an "
          "addition to that item, out of stock, or cannot be removed. A safety conflict wins over everything "
          "else.\n"
          "- items: only when the status is accepted, otherwise []. One entry per distinct item; identical items "
          "are one entry with their quantity. \"sku\" as on the menu; \"size\" one of the item's sizes, or null for "
          "items with one size; \"additions\" and \"removals\" as ingredient ids; \"instructions\" a kitchen note "
          "the customer gives for that item (such as \"well done\"), as they wrote it, else null.\n"
          "- constraints: the allergen ids the customer says they (or whoever they order for) are allergic to, and "
          "the diet ids they say they follow, whatever the status; empty lists when they state none.\n"
          "- clarification_question: one short question to the customer when the status is needs_clarification, "
          "else null.\n"
          "- reasons: for rejected_safety, \"allergen_conflict\" and/or \"dietary_conflict\"; otherwise [].";
}

const char* kUserPrompt = "Customer message:\n<<<\n{{input}}\n>>>\n\nJSON Schema:\n{{schema}}\n\n"
                          "Example message:\n<<<\n{{example_input}}\n>>>\nExample answer:\n{{example_output}}\n\n"
                          "Answer with the JSON object only.";

json exampleOf(const Menu& menu)
{
    OrderRequest request;
    OrderLine burger;
    burger.sku = "veggie_burger";
    burger.removals = { "tomato" };
    OrderLine shake;
    shake.sku = "milkshake";
    shake.size = "medium";
    shake.additions = { "caramel" };
    request.lines = { burger, shake };
    return {
        { "input", "Hi, can I get a veggie burger without tomato and a medium milkshake with caramel? Thanks" },
        { "output", decideOrder(request, menu) },
    };
}

json contractOptions()
{
    return {
        { "array_matching", "unordered" },
        { "contract",
            {
                { "status", "/status" },
                { "accept", "accepted" },
                { "items", "/items" },
                { "item_key", "sku" },
                { "item_fields",
                    { { "sku", "exact" }, { "quantity", "exact" }, { "size", "exact" }, { "additions", "set" },
                        { "removals", "set" }, { "instructions", "lenient" } } },
                { "constraints", "/constraints" },
                { "constraint_fields", { { "allergens", "set" }, { "dietary", "set" } } },
                { "catalog",
                    {
                        { "skus", "/items" },
                        { "size", { { "field", "size" }, { "allowed", "/sizes" } } },
                        { "additions", { { "field", "additions" }, { "allowed", "/additions" } } },
                        { "removals", { { "field", "removals" }, { "allowed", "/removable" } } },
                        { "components", "/components" },
                    } },
                { "safety",
                    json::array({
                        { { "constraint", "/constraints/allergens" }, { "tags", "/allergens" },
                            { "conflict", "contains" } },
                        { { "constraint", "/constraints/dietary" }, { "tags", "/dietary" }, { "conflict", "lacks" } },
                    }) },
            } },
        { "taxonomy",
            json::array({
                { { "label", "safety_failure" }, { "when", "unsafe_acceptance" } },
                { { "label", "catalog_hallucination" }, { "when", "catalog_violation" } },
                { { "label", "quantity_size" }, { "paths", { "/items/[]/quantity", "/items/[]/size" } } },
                { { "label", "scope_split" }, { "when", "item_split" } },
                { { "label", "negation" }, { "paths", { "/items/[]/removals" } } },
                { { "label", "allergen_preservation" }, { "paths", { "/constraints/allergens" } } },
            }) },
    };
}

json manifest(const Menu& menu)
{
    json categoryIds = json::array();
    for (const Category& c : categories())
        categoryIds.push_back(c.id);
    return {
        { "id", "orderbench" },
        { "name", "OrderBench" },
        { "version", "1.0.0" },
        { "description",
            "Transactional contract verification after OrderBench: a customer's food order in free text becomes an "
            "executable decision (accept with exact items, ask one question, or refuse for safety) against a seven-SKU "
            "menu with allergens and diets. 300 generated cases, 30 in each of ten categories: simple exact orders, "
            "quantity and size, negated modifiers, scoped modifiers, shared modifiers, allergen-safe acceptances, "
            "allergen conflicts, dietary conflicts, unavailable items and unavailable modifiers. Gold is computed by "
            "an "
            "oracle from the request and the catalog, never typed by hand." },
        { "license", "Apache-2.0" },
        { "generated_by", "datasets/orderbench/generator (orderbench-gen OUTDIR); do not edit the generated files" },
        { "schemas", { { "order", "schemas/order.json" } } },
        { "default_schema", "order" },
        { "categories", categoryIds },
        { "families", { "ladder", "contract" } },
        { "prompt", { { "system", systemPrompt(menu) }, { "user", kUserPrompt } } },
        { "examples", { { "order", exampleOf(menu) } } },
        { "options", contractOptions() },
    };
}

/// easy / medium / hard by how much a model has to keep track of.
std::string tierOf(const OrderRequest& request)
{
    std::size_t load = request.lines.size() + request.allergens.size() + request.dietary.size();
    for (const OrderLine& line : request.lines) {
        load += line.additions.size() + line.removals.size() + (line.instructions.empty() ? 0 : 1);
        load += line.quantity > 1 ? 1 : 0;
    }
    return load <= 2 ? "easy" : load <= 4 ? "medium" : "hard";
}

std::string twoDigits(int n)
{
    return (n < 10 ? "0" : "") + std::to_string(n);
}

std::string casesJsonl(const Menu& menu)
{
    std::string out;
    std::set<std::string> inputs;
    const auto& list = categories();
    for (std::size_t c = 0; c < list.size(); ++c) {
        const Category& category = list[c];
        // One stream per category, so editing one category's templates leaves the others unchanged.
        Rng rng(kSeed ^ (0x9E3779B97F4A7C15ull * (c + 1)));
        Phrasing phrasing(rng);
        for (int i = 0; i < kCasesPerCategory; ++i) {
            CaseDraft draft;
            for (int attempt = 0;; ++attempt) {
                draft = category.build(phrasing, i);
                if (inputs.insert(draft.input).second)
                    break;
                if (attempt == 50)
                    throw std::logic_error(category.id + " #" + std::to_string(i) + ": no unique wording found");
            }
            const json gold = decideOrder(draft.request, menu);
            if (gold["status"] != category.expectedStatus || gold["reasons"] != json(category.expectedReasons))
                throw std::logic_error(category.id + " #" + std::to_string(i) + ": the oracle answers " + gold.dump()
                    + " to \"" + draft.input + "\"");
            const json line = {
                { "id", category.id + "-" + twoDigits(i + 1) },
                { "category", category.id },
                { "tier", tierOf(draft.request) },
                { "schema", "order" },
                { "input", draft.input },
                { "question", nullptr },
                { "gold", gold },
                { "order_request", requestJson(draft.request) },
            };
            out += line.dump() + "\n";
        }
    }
    return out;
}

} // namespace

std::map<std::string, std::string> generateSuiteFiles()
{
    const Menu& m = menu();
    return {
        { "suite.json", manifest(m).dump(2) + "\n" },
        { "catalog.json", catalogJson(m).dump(2) + "\n" },
        { "schemas/order.json", orderSchema(m).dump(2) + "\n" },
        { "cases.jsonl", casesJsonl(m) },
    };
}

std::string writeSuiteFiles(const std::string& dir)
{
    std::map<std::string, std::string> files;
    try {
        files = generateSuiteFiles();
    } catch (const std::exception& e) {
        return std::string("generation failed: ") + e.what();
    }
    const QDir root(QString::fromStdString(dir));
    if (!root.mkpath(QStringLiteral("schemas")))
        return "cannot create " + dir + "/schemas";
    for (const auto& [path, bytes] : files) {
        QFile file(root.filePath(QString::fromStdString(path)));
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return "cannot write " + file.fileName().toStdString() + ": " + file.errorString().toStdString();
        const auto size = static_cast<qint64>(bytes.size());
        if (file.write(bytes.data(), size) != size)
            return "cannot write " + file.fileName().toStdString() + ": " + file.errorString().toStdString();
    }
    return {};
}

} // namespace structscope::orderbench
