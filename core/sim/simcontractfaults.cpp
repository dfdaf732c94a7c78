// SPDX-License-Identifier: Apache-2.0
#include "scoring/contractrules.h"
#include "sim/simfaultsdetail.h"

#include <array>

using nlohmann::json;

// Faults of contract suites: the decision (status + items) goes wrong in the ways a domain check
// must catch. Everything is found through the suite's declared rules, nothing is hard-wired to a menu.

namespace structscope::simdetail {

namespace {

json* statusOf(json& doc, const ContractRules& rules)
{
    return findValue(doc, rules.status.text);
}

const json* catalogSkus(const FaultContext& ctx)
{
    if (!ctx.contract || !ctx.catalog || !ctx.contract->catalog)
        return nullptr;
    const json* skus = resolvePointer(*ctx.catalog, ctx.contract->catalog->skus);
    return skus && skus->is_object() ? skus : nullptr;
}

// What the customer asked for, as items: a flipped decision accepts the request as it was made.
json requestedItems(const FaultContext& ctx)
{
    json items = json::array();
    if (!ctx.caseExtra || !ctx.caseExtra->is_object())
        return items;
    const auto request = ctx.caseExtra->find("order_request");
    if (request == ctx.caseExtra->end() || !request->is_object() || !request->contains("lines")
        || !(*request)["lines"].is_array())
        return items;
    for (const json& line : (*request)["lines"]) {
        if (!line.is_object())
            continue;
        const std::string& key = ctx.contract->itemKey;
        if (!key.empty() && (!line.contains(key) || !line[key].is_string()))
            continue;
        json item = json::object();
        for (const ContractField& field : ctx.contract->itemFields) {
            if (line.contains(field.name))
                item[field.name] = line[field.name];
        }
        items.push_back(std::move(item));
    }
    return items;
}

// The non-accepting decision a cautious model falls back to: the schema's enum value that asks
// rather than refuses, else any other value.
json cautiousStatus(const json& doc, const FaultContext& ctx)
{
    const json* sub = schemaAt(ctx.schema, doc, pointerTokens(ctx.contract->status.text));
    json fallback;
    if (hasEnum(sub)) {
        for (const json& v : (*sub)["enum"]) {
            if (v == ctx.contract->accept)
                continue;
            if (v.is_string() && v.get<std::string>().find("clarif") != std::string::npos)
                return v;
            if (fallback.is_null())
                fallback = v;
        }
    }
    return fallback.is_null() ? json("needs_clarification") : fallback;
}

} // namespace

std::vector<std::string> contractSites(FaultKind kind, const json& doc, const FaultContext& ctx)
{
    std::vector<std::string> sites;
    if (!ctx.contract)
        return sites;
    const json* status = resolvePointer(doc, ctx.contract->status);
    const bool accepts = status && *status == ctx.contract->accept;
    if (kind == FaultKind::UnsafeFlip) {
        if (status && !accepts)
            sites.push_back(ctx.contract->status.text);
        return sites;
    }
    if (kind == FaultKind::OverRefusal) {
        if (accepts)
            sites.push_back(ctx.contract->status.text);
        return sites;
    }
    const json* items = resolvePointer(doc, ctx.contract->items);
    if (!items || !items->is_array())
        return sites;
    for (std::size_t i = 0; i < items->size(); ++i) {
        const json& item = (*items)[i];
        if (!item.is_object())
            continue;
        const bool fits = kind == FaultKind::CatalogInvention
            ? catalogSkus(ctx) && !ctx.contract->itemKey.empty() && item.contains(ctx.contract->itemKey)
            : item.contains("quantity") && item["quantity"].is_number_integer();
        if (fits)
            sites.push_back(ctx.contract->items.text + "/" + std::to_string(i));
    }
    return sites;
}

bool applyContractFault(FaultKind kind, json& doc, const std::string& site, const FaultContext& ctx, Xoshiro256& rng)
{
    if (!ctx.contract)
        return false;
    const ContractRules& rules = *ctx.contract;
    if (kind == FaultKind::UnsafeFlip || kind == FaultKind::OverRefusal) {
        json* status = statusOf(doc, rules);
        if (site != rules.status.text || !status || (*status == rules.accept) != (kind == FaultKind::OverRefusal))
            return false;
        json* items = findValue(doc, rules.items.text);
        if (kind == FaultKind::UnsafeFlip) {
            *status = rules.accept;
            if (items && items->is_array() && items->empty())
                *items = requestedItems(ctx);
        } else {
            *status = cautiousStatus(doc, ctx);
            if (items)
                *items = json::array();
            if (doc.is_object() && doc.contains("clarification_question"))
                doc["clarification_question"] = "Could you please confirm your order?";
        }
        return true;
    }
    json* item = findValue(doc, site);
    if (!item || !item->is_object())
        return false;
    if (kind == FaultKind::CatalogInvention) {
        const json* skus = catalogSkus(ctx);
        if (!skus || rules.itemKey.empty() || !item->contains(rules.itemKey))
            return false;
        static const std::array<const char*, 6> invented { "truffle_burger", "lobster_roll", "onion_rings",
            "chocolate_brownie", "pulled_pork_wrap", "mango_smoothie" };
        const std::size_t start = rng.bounded(invented.size());
        for (std::size_t i = 0; i < invented.size(); ++i) {
            const char* sku = invented[(start + i) % invented.size()];
            if (!skus->contains(sku)) {
                (*item)[rules.itemKey] = sku;
                return true;
            }
        }
        return false;
    }
    if (kind == FaultKind::WrongQuantity) {
        if (!item->contains("quantity") || !(*item)["quantity"].is_number_integer())
            return false;
        const auto q = (*item)["quantity"].get<std::int64_t>();
        (*item)["quantity"] = q <= 1 ? 2 : (rng.bounded(2) == 0 ? q - 1 : (q >= 10 ? q - 1 : q + 1));
        return true;
    }
    return false;
}

} // namespace structscope::simdetail
