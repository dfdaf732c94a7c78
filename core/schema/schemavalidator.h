// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace structscope {

/// One validation problem: where (RFC 6901 pointer into the instance or schema) and what.
struct SchemaError
{
    std::string pointer;
    std::string message;
};

/// Options that change what "valid" means; part of the compile-cache key.
struct SchemaOptions
{
    /// `format` checked (date, time, date-time, regex; other formats are annotations). Off for SOB-compatible
    /// validation: the keyword is then ignored wherever it is a keyword (a property named "format" still counts).
    bool validateFormats = true;
    /// 1.0 is an integer, as draft-07 says ("a number with a zero fractional part") and Python's jsonschema agrees.
    /// False is a stricter reading outside draft-07: an integer must be written without a fraction or exponent.
    bool integralFloatsAsIntegers = true;
};

class CompiledSchemaPrivate;

/// A schema compiled once; validate() is const and safe to call from several threads.
class CompiledSchema
{
public:
    ~CompiledSchema();
    CompiledSchema(const CompiledSchema&) = delete;
    CompiledSchema& operator=(const CompiledSchema&) = delete;

    /// Every error, each with a JSON pointer into the instance, in schema order. Empty means valid. An anyOf/oneOf
    /// that fails gives one error (or the errors of the one alternative of the value's type). An instance nested
    /// deeper than 512 levels is one error, not validated.
    std::vector<SchemaError> validate(const nlohmann::json& instance) const;
    /// Same verdict as validate().empty(), but stops at the first failure.
    bool isValid(const nlohmann::json& instance) const;
    /// Whether `instance` necessarily gets the same verdict from the same document compiled with `other`, so that one
    /// validation serves both: the options differ in nothing this schema and this instance exercise (formats differ
    /// only where the document has a checked `format`; integral floats such as 1.0 only where a type allows integers
    /// but not numbers).
    bool sameVerdictUnder(const SchemaOptions& other, const nlohmann::json& instance) const;

    /// The schema document as given to SchemaCache::compile().
    const nlohmann::json& document() const;
    /// The options it was compiled with.
    const SchemaOptions& options() const;
    /// Keywords in the document that the validator does not implement, found at compile time; each pointer
    /// points at the keyword itself ("/properties/x/prefixItems").
    const std::vector<SchemaError>& unsupportedKeywords() const;

private:
    friend class CompiledSchemaPrivate;
    explicit CompiledSchema(std::unique_ptr<CompiledSchemaPrivate> d);
    std::unique_ptr<CompiledSchemaPrivate> d;
};

using CompiledSchemaPtr = std::shared_ptr<const CompiledSchema>;

/// Compiles schemas and caches them by content hash + options. Thread-safe.
class SchemaCache
{
public:
    /// Returns the compiled schema, or nullptr with a message starting "invalid schema: " in `error` (may be null).
    /// The schema must be an object or boolean that passes the draft-07 meta-schema, nested at most 256 levels
    /// deep, whose $refs resolve (against the base URI where each is written) to a schema of the same document or
    /// to the draft-07 meta-schema: nothing is fetched. Failures are remembered too.
    static CompiledSchemaPtr compile(const nlohmann::json& schema, const SchemaOptions& options, std::string* error);
    /// Forgets every compiled schema (holders keep theirs) and every remembered failure.
    static void clear();
    /// Number of compiled schemas held.
    static std::size_t size();
};

/// Validates a schema document against the draft-07 meta-schema, as Python's Draft7Validator.check_schema does
/// (5.0 counts as an integer; `pattern` and patternProperties keys must be regular expressions). Pointers are
/// into the schema document. Empty means valid.
std::vector<SchemaError> checkAgainstMetaSchema(const nlohmann::json& schema);

/// Walks a schema and lists keywords outside draft-07 / unsupported by valijson, with pointers.
std::vector<SchemaError> findUnsupportedKeywords(const nlohmann::json& schema);

} // namespace structscope
