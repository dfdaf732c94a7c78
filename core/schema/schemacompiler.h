// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "schema/schemarules.h"
#include "schema/schemavalidator.h"

#include <nlohmann/json.hpp>

#include <valijson/schema.hpp>

#include <memory>
#include <string>
#include <vector>

namespace structscope {

/// Everything a compiled schema owns. The valijson schemas hold raw pointers to the rules, and the rules to the
/// helper schemas; all of it is immutable after compilation.
class CompiledSchemaPrivate
{
public:
    nlohmann::json document;
    SchemaOptions options;
    std::vector<SchemaError> unsupported;
    std::vector<std::unique_ptr<schemadetail::Rule>> rules;
    /// One per anyOf/oneOf alternative and per propertyNames schema.
    schemadetail::HelperSchemas helpers;
    std::unique_ptr<valijson::Schema> schema;
    /// The document has a `format` keyword that StructScope checks (whether or not `options` check formats).
    bool checkableFormats = false;
    /// Some `type` (or type-only anyOf/oneOf alternative) allows integers but not numbers: only there does
    /// SchemaOptions::integralFloatsAsIntegers change a verdict.
    bool integerOnlyTypes = false;

    /// The public handle (CompiledSchema's constructor is private to this class).
    static std::shared_ptr<const CompiledSchema> wrap(std::unique_ptr<CompiledSchemaPrivate> d);
};

namespace schemadetail {

/// Deepest nesting of arrays/objects accepted in a schema document (valijson recurses along it).
inline constexpr std::size_t kMaxSchemaDepth = 256;
/// Most JSON values accepted in a schema document.
inline constexpr std::size_t kMaxSchemaNodes = 500000;
/// Deepest nesting of arrays/objects validated in an instance (a recursive schema recurses along it); the same
/// as the parse ladder's default limit.
inline constexpr std::size_t kMaxInstanceDepth = 512;

/// What a non-recursive look at a JSON value found.
struct DocumentShape
{
    bool ok = true;
    std::string pointer; ///< where the limit was hit
    std::string message;
    bool hugeUnsigned = false; ///< holds an integer above INT64_MAX (valijson would wrap it)
};

/// Checks nesting depth and size without recursion (stops at the first limit hit).
DocumentShape inspectDocument(const nlohmann::json& document, std::size_t maxDepth, std::size_t maxNodes);

/// The draft-07 meta-schema as shipped in the resources, or nullptr if it is missing or unreadable.
const nlohmann::json* draft07MetaSchemaDocument();

/// Compiles an object or boolean schema document (already vetted against the meta-schema where that is wanted).
/// Returns nullptr with a message starting "invalid schema: " on failure; never throws.
std::unique_ptr<CompiledSchemaPrivate> compileDocument(
    const nlohmann::json& document, const SchemaOptions& options, std::string* error);

} // namespace schemadetail
} // namespace structscope
