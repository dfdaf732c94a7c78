// SPDX-License-Identifier: Apache-2.0
#pragma once

// Shared helpers of the fault functions (simfaults*.cpp); not part of the public API.

#include "sim/simfaults.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace structscope::simdetail {

/// One value of a document with where it sits.
struct DocNode
{
    std::string pointer;
    std::vector<std::string> tokens;
    const nlohmann::json* value = nullptr;
    bool inObject = false; ///< a member of an object (not an array element, not the root)
};

/// Every value of `doc`, containers included, depth first in document order (the root first).
std::vector<DocNode> walkDocument(const nlohmann::json& doc);

/// The subschema that describes the value at `tokens` of `doc` (properties/items only; the suites
/// use nothing else), or nullptr when the schema does not say.
const nlohmann::json* schemaAt(
    const nlohmann::json* schema, const nlohmann::json& doc, const std::vector<std::string>& tokens);

/// The subschema of a member `key` of an object described by `objectSchema`, or nullptr.
const nlohmann::json* propertySchema(const nlohmann::json* objectSchema, const std::string& key);

/// The JSON types a subschema allows ("type", else the types of its enum values); empty when unknown.
std::vector<std::string> schemaTypes(const nlohmann::json* sub);

/// Whether the subschema has an enum.
bool hasEnum(const nlohmann::json* sub);

/// A plausible value a model might make up for a place described by `sub` (named `key`).
nlohmann::json inventValue(const nlohmann::json* sub, const std::string& key, Xoshiro256& rng, int depth = 0);

/// The value at `pointer`, or nullptr (never throws).
nlohmann::json* findValue(nlohmann::json& doc, const std::string& pointer);

/// The decoded reference tokens of an RFC 6901 pointer ("" → none).
std::vector<std::string> pointerTokens(const std::string& pointer);

/// The parent pointer and last token of `pointer` ("/a/b" → "/a", "b"); false for the root.
bool splitPointer(const std::string& pointer, std::string* parent, std::string* last);

std::vector<std::string> contractSites(FaultKind kind, const nlohmann::json& doc, const FaultContext& ctx);
bool applyContractFault(
    FaultKind kind, nlohmann::json& doc, const std::string& site, const FaultContext& ctx, Xoshiro256& rng);

} // namespace structscope::simdetail
