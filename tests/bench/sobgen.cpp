// SPDX-License-Identifier: Apache-2.0
#include "sobgen.h"

#include "stats/prng.h"

#include <nlohmann/json.hpp>

#include <array>
#include <string_view>

using nlohmann::json;

namespace structscope::bench {

namespace {

constexpr std::array<std::string_view, 48> kWords = { "invoice", "total", "customer", "shipment", "delayed", "Berlin",
    "Lisbon", "order", "payment", "refund", "warranty", "contract", "signed", "quarterly", "revenue", "patient",
    "dosage", "daily", "meeting", "agenda", "budget", "approved", "rejected", "pending", "supplier", "Acme", "Globex",
    "Initech", "vendor", "account", "balance", "credit", "debit", "transfer", "March", "April", "policy", "claim",
    "vehicle", "engine", "station", "platform", "ticket", "seat", "window", "aisle", "return", "station" };

enum class Kind { String, Number, Integer, Boolean, NullableString, Enum, Object, ArrayOfObjects };

std::string words(Xoshiro256& rng, int count)
{
    std::string text;
    for (int i = 0; i < count; ++i) {
        if (i)
            text += ' ';
        text += kWords[rng.bounded(kWords.size())];
    }
    return text;
}

double chance(Xoshiro256& rng)
{
    return double(rng.next() >> 11) * 0x1.0p-53;
}

json scalarSchema(Kind kind)
{
    switch (kind) {
    case Kind::String:
        return { { "type", "string" } };
    case Kind::Number:
        return { { "type", "number" } };
    case Kind::Integer:
        return { { "type", "integer" } };
    case Kind::Boolean:
        return { { "type", "boolean" } };
    case Kind::NullableString:
        return { { "type", json::array({ "string", "null" }) } };
    case Kind::Enum:
        return { { "type", "string" }, { "enum", json::array({ "low", "medium", "high" }) } };
    default:
        return json::object();
    }
}

Kind scalarKind(Xoshiro256& rng)
{
    return Kind(rng.bounded(6));
}

json objectSchema(Xoshiro256& rng, int minProps, int maxProps, bool allowNesting)
{
    json properties = json::object();
    json required = json::array();
    const int count = minProps + int(rng.bounded(std::uint64_t(maxProps - minProps + 1)));
    for (int i = 0; i < count; ++i) {
        const std::string name = std::string(kWords[rng.bounded(kWords.size())]) + '_' + std::to_string(i);
        const std::uint64_t pick = rng.bounded(10);
        if (allowNesting && pick == 0)
            properties[name] = objectSchema(rng, 2, 4, false);
        else if (allowNesting && pick == 1)
            properties[name] = { { "type", "array" }, { "items", objectSchema(rng, 2, 4, false) } };
        else
            properties[name] = scalarSchema(scalarKind(rng));
        if (rng.bounded(3) != 0)
            required.push_back(name);
    }
    return { { "type", "object" }, { "properties", properties }, { "required", required } };
}

json instance(const json& schema, Xoshiro256& rng)
{
    const json& type = schema.at("type");
    if (type == "object") {
        json object = json::object();
        for (const auto& [name, sub] : schema.at("properties").items())
            object[name] = instance(sub, rng);
        return object;
    }
    if (type == "array") {
        json array = json::array();
        const int n = 1 + int(rng.bounded(6));
        for (int i = 0; i < n; ++i)
            array.push_back(instance(schema.at("items"), rng));
        return array;
    }
    if (schema.contains("enum"))
        return schema.at("enum").at(rng.bounded(3));
    if (type == "string")
        return words(rng, 1 + int(rng.bounded(5)));
    if (type == "number")
        return double(rng.bounded(100000)) / 100.0;
    if (type == "integer")
        return rng.bounded(1000);
    if (type == "boolean")
        return rng.bounded(2) == 1;
    // ["string", "null"]: absent in the text half of the time, as SOB's "nothing to extract" cases.
    return rng.bounded(2) ? json(words(rng, 2)) : json(nullptr);
}

// Applies the faults a mid-range model makes: changed words, dropped keys, numbers as strings, extra keys.
void perturb(json& value, Xoshiro256& rng)
{
    if (value.is_object()) {
        std::vector<std::string> drop;
        for (auto& [key, sub] : value.items()) {
            const double p = chance(rng);
            if (p < 0.03)
                drop.push_back(key);
            else if (p < 0.10 && sub.is_string())
                sub = sub.get<std::string>() + " " + std::string(kWords[rng.bounded(kWords.size())]);
            else if (p < 0.13 && sub.is_number())
                sub = sub.dump();
            else
                perturb(sub, rng);
        }
        for (const std::string& key : drop)
            value.erase(key);
        if (chance(rng) < 0.03)
            value["note"] = words(rng, 3);
    } else if (value.is_array()) {
        for (json& item : value)
            perturb(item, rng);
    }
}

const char* complexity(const json& schema)
{
    int nested = 0;
    for (const auto& [name, sub] : schema.at("properties").items())
        nested += sub.at("type") == "object" || sub.at("type") == "array";
    return nested == 0 ? "easy" : nested == 1 ? "medium" : "hard";
}

} // namespace

std::vector<std::string> generateSobLines(const SobGenOptions& options)
{
    std::vector<json> schemas;
    schemas.reserve(std::size_t(options.schemas));
    for (int k = 0; k < options.schemas; ++k) {
        Xoshiro256 rng(options.seed * 1000003u + std::uint64_t(k));
        schemas.push_back(objectSchema(rng, 4, 9, true));
    }
    std::vector<std::string> lines;
    lines.reserve(std::size_t(options.records));
    const int perModel = options.records / std::max(1, options.models);
    for (int i = 0; i < options.records; ++i) {
        const int model = std::min(options.models - 1, i / std::max(1, perModel));
        const int recordIndex = i - model * perModel;
        Xoshiro256 rng(options.seed ^ (std::uint64_t(recordIndex) * 0x9E3779B97F4A7C15ull));
        const json& schema = schemas[std::size_t(recordIndex % options.schemas)];
        const json gold = instance(schema, rng);
        std::string context;
        for (int s = 0; s < options.contextSentences; ++s)
            context += words(rng, 8) + ". ";
        context += "Record: " + gold.dump() + '.';
        // The candidate differs per model; the record (context, schema, gold) does not.
        Xoshiro256 modelRng(options.seed + std::uint64_t(i) * 7919u);
        json candidate = gold;
        const double p = chance(modelRng);
        if (p < 0.04)
            candidate = "Sorry, here is the data: " + gold.dump(); // arrived as a string: not parsed
        else if (p < 0.70)
            perturb(candidate, modelRng);
        const json line = { { "metadata",
                                { { "record_id", "rec-" + std::to_string(recordIndex) },
                                    { "model_id", "model-" + std::to_string(model) },
                                    { "schema_complexity", complexity(schema) }, { "difficulty", "medium" } } },
            { "input",
                { { "context", context }, { "question", "Extract the fields defined by the schema." },
                    { "json_schema", schema } } },
            { "output", { { "candidate_response", candidate }, { "ground_truth", gold } } },
            { "eval_info", { { "latency_ms", 200 + int(modelRng.bounded(3000)) } } } };
        lines.push_back(line.dump());
    }
    return lines;
}

} // namespace structscope::bench
