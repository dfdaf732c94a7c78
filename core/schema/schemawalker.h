// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "schema/schemapointer.h"
#include "schema/schemavalidator.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace structscope::schemadetail {

/// How a draft-07 keyword holds subschemas.
enum class SubschemaSlot {
    None, ///< not a subschema keyword (an assertion, an annotation or an unknown word)
    Single, ///< the value is a schema (`not`, `contains`, `additionalProperties`, ...)
    Map, ///< every member value is a schema (`properties`, `definitions`, ...)
    Array, ///< every element is a schema (`allOf`, `anyOf`, `oneOf`)
    SingleOrArray, ///< `items`: a schema or an array of schemas
    Dependencies, ///< `dependencies`: member values that are schemas (arrays are property lists)
};

/// The slot of `keyword` in a draft-07 schema object.
SubschemaSlot subschemaSlot(std::string_view keyword);

/// One schema (object or boolean) found in a document.
struct SchemaNode
{
    PointerTokens tokens;
    std::string pointer;
    const nlohmann::json* value = nullptr;
    /// Keyword that holds it in its parent schema ("" for the root or a node found only through $ref);
    /// for map slots it is the map keyword ("properties"), not the member name.
    std::string slotKeyword;
};

/// A $ref that resolved inside the document, and where it leads.
struct SchemaRef
{
    std::string ownerPointer; ///< the schema object holding "$ref"
    std::string ref; ///< as written
    PointerTokens target;
    std::string targetPointer;
};

/// Every schema reachable from the root through draft-07 subschema keywords and local $refs.
struct SchemaGraph
{
    std::vector<SchemaNode> nodes; ///< breadth-first; each location once
    std::vector<SchemaRef> refs; ///< refs that resolved to a schema
    /// Remote or unresolvable $refs (at the $ref), and cycles of schemas applying to the same value.
    std::vector<SchemaError> problems;
    std::unordered_set<std::string> schemaPointers;
};

/// Walks a schema document without recursion (safe on any input). A "$ref" resolves against the base URI where it
/// is written and reaches any schema of the document identified by a "$id", and the schema documents embedded at
/// `resources` (see SchemaIdIndex); nodes there are reached only through "$ref".
SchemaGraph walkSchema(const nlohmann::json& root, const std::vector<PointerTokens>& resources = {});

} // namespace structscope::schemadetail
