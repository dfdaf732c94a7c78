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
    bool validateFormats = true; ///< `format` keywords checked (off for SOB-compatible validation)
    bool integralFloatsAsIntegers = false; ///< accept 1.0 as an integer, as Python's jsonschema does
};

class CompiledSchemaPrivate;

/// A schema compiled once; validate() is const and safe to call from several threads.
class CompiledSchema
{
public:
    ~CompiledSchema();
    CompiledSchema(const CompiledSchema&) = delete;
    CompiledSchema& operator=(const CompiledSchema&) = delete;

    /// Every error, each with a JSON pointer into the instance. Empty means valid.
    std::vector<SchemaError> validate(const nlohmann::json& instance) const;
    bool isValid(const nlohmann::json& instance) const;

    const nlohmann::json& document() const;
    const SchemaOptions& options() const;
    /// Keywords in the document that the validator does not implement ("prefixItems at /properties/x").
    const std::vector<SchemaError>& unsupportedKeywords() const;

private:
    friend class SchemaCache;
    explicit CompiledSchema(std::unique_ptr<CompiledSchemaPrivate> d);
    std::unique_ptr<CompiledSchemaPrivate> d;
};

using CompiledSchemaPtr = std::shared_ptr<const CompiledSchema>;

/// Compiles schemas and caches them by content hash + options. Thread-safe.
class SchemaCache
{
public:
    /// Returns the compiled schema, or nullptr with a clear message in `error`.
    static CompiledSchemaPtr compile(const nlohmann::json& schema, const SchemaOptions& options,
                                     std::string* error);
    static void clear();
    static std::size_t size();
};

/// Validates a schema document against the draft-07 meta-schema (Python's check_schema).
std::vector<SchemaError> checkAgainstMetaSchema(const nlohmann::json& schema);

/// Walks a schema and lists keywords outside draft-07 / unsupported by valijson, with pointers.
std::vector<SchemaError> findUnsupportedKeywords(const nlohmann::json& schema);

} // namespace structscope
