// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "schema/schemavalidator.h"

#include <nlohmann/json.hpp>

#include <QRegularExpression>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/constraint_builder.hpp>
#include <valijson/constraints/concrete_constraints.hpp>
#include <valijson/schema.hpp>
#include <valijson/validation_results.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

// Keyword checks that StructScope performs itself, plugged into valijson as custom constraints. They replace
// valijson's own handling where it is wrong or unhelpful: `format` on non-strings throws, `multipleOf` truncates,
// `pattern` and `patternProperties` run std::regex (byte-wise, and recursive: a long string overflows the stack),
// `patternProperties` stops at the first failure and then blames `additionalProperties`, `propertyNames` reports
// nothing, `anyOf`/`oneOf` report the errors of every alternative, `false` subschemas report nothing, and the
// messages of `type`/`enum`/`minimum`... do not say what was expected or found.
namespace structscope::schemadetail {

using Adapter = valijson::adapters::Adapter;
using Context = std::vector<std::string>;
using HelperSchemas = std::vector<std::unique_ptr<valijson::Schema>>;

/// One keyword check; immutable once built, so it may run on several threads at once.
class Rule
{
public:
    virtual ~Rule() = default;
    /// True if `target` passes; with `results`, each failure is recorded at `context` (valijson's path).
    virtual bool check(const Adapter& target, const Context& context, valijson::ValidationResults* results) const = 0;
};

/// Bits of the JSON Schema type names.
enum TypeBit : unsigned {
    NullType = 1,
    BooleanType = 2,
    IntegerType = 4,
    NumberType = 8,
    StringType = 16,
    ArrayType = 32,
    ObjectType = 64,
};

/// The bit of a type name, or 0 if the name is not a JSON Schema type.
unsigned typeBit(const std::string& name);

/// Why a `false` subschema is there; it only changes the message.
enum class FalseReason { Schema, AdditionalProperties, AdditionalItems, Property, Item };

enum class FormatKind { Date, Time, DateTime, Regex };
/// The checked format called `name`, if StructScope checks it.
std::optional<FormatKind> formatKind(const std::string& name);

/// Compiles a JSON Schema pattern the way StructScope matches it (PCRE2 with Unicode properties, `\uXXXX`
/// accepted); an invalid pattern leaves `error` set.
QRegularExpression compilePattern(const std::string& pattern, std::string* error);

std::unique_ptr<Rule> makeTypeRule(unsigned mask, bool integralFloatsAsIntegers);
std::unique_ptr<Rule> makeEnumRule(std::vector<nlohmann::json> values, bool isConst);
/// Bounds are JSON numbers or null (absent).
std::unique_ptr<Rule> makeRangeRule(
    nlohmann::json minimum, nlohmann::json maximum, nlohmann::json exclusiveMinimum, nlohmann::json exclusiveMaximum);
std::unique_ptr<Rule> makeLengthRule(std::optional<std::uint64_t> minLength, std::optional<std::uint64_t> maxLength);
std::unique_ptr<Rule> makeMultipleOfRule(const nlohmann::json& divisor);
std::unique_ptr<Rule> makePatternRule(const std::string& pattern, QRegularExpression compiled);
std::unique_ptr<Rule> makeFormatRule(FormatKind kind);
std::unique_ptr<Rule> makeFalseRule(FalseReason reason);
/// One alternative of an anyOf/oneOf.
struct Alternative
{
    std::size_t index = 0; ///< position in the schema's array, for messages
    bool typeOnly = false; ///< the alternative asserts nothing but `type` (or is `true`): checked inline
    unsigned typeMask = 0;
    std::size_t helper = 0; ///< otherwise: index into the helper schemas
};

/// Every type bit: the mask of a `true` schema.
inline constexpr unsigned kAnyType = 127;

/// `anyOf`/`oneOf` (`helpers` is filled after the rule is made).
std::unique_ptr<Rule> makeCombinatorRule(
    bool oneOf, std::vector<Alternative> alternatives, bool integralFloats, const HelperSchemas* helpers);
std::unique_ptr<Rule> makePropertyNamesRule(std::size_t helper, const HelperSchemas* helpers);

/// A subschema that the members rule applies to some property values.
struct MemberSchema
{
    enum Kind { Any, Never, Helper } kind = Any; ///< `true`, `false`, or a helper schema
    std::size_t helper = 0;
};

/// One patternProperties entry.
struct PatternMember
{
    std::string pattern;
    QRegularExpression compiled;
    MemberSchema schema;
};

/// `patternProperties` and `additionalProperties` together (`properties` stays with valijson): every property
/// matching a pattern is checked against it, every property neither declared nor matched against
/// additionalProperties. `declared` must be sorted.
std::unique_ptr<Rule> makeMembersRule(std::vector<std::string> declared, std::vector<PatternMember> patterns,
    std::optional<MemberSchema> additional, const HelperSchemas* helpers);

/// Hands a rule to valijson (the keyword's value in the compiled document is the rule's index).
class RuleBuilder final : public valijson::ConstraintBuilder
{
public:
    explicit RuleBuilder(const std::vector<std::unique_ptr<Rule>>* rules)
        : m_rules(rules)
    { }
    valijson::constraints::Constraint* make(const Adapter& node) const override;

private:
    const std::vector<std::unique_ptr<Rule>>* m_rules;
};

/// Runs a compiled valijson schema on a target (a JSON value, or a property name for `propertyNames`).
bool runSchema(const valijson::Subschema& schema, const Adapter& target, valijson::ValidationResults* results);

/// One error as found, before it becomes a SchemaError.
struct FoundError
{
    Context context; ///< valijson's path, "<root>" first
    std::string description; ///< as recorded (may carry a type tag)
    std::string message; ///< readable
    unsigned typeMask = 0; ///< for a type mismatch: the types that were expected
    std::string found; ///< for a type mismatch: what was found ("integer 5")
};

/// The errors valijson recorded, with its wrapper errors ("Failed to validate item #0 ...") dropped (every failure
/// also records a specific error) and its messages made readable.
std::vector<FoundError> collectErrors(const valijson::ValidationResults& results);

/// RFC 6901 pointer for a valijson context (["<root>", "[items]", "[0]"] → "/items/0").
std::string contextToPointer(const Context& context);

} // namespace structscope::schemadetail
