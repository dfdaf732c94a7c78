// SPDX-License-Identifier: Apache-2.0
#include "schema/schemarules.h"

#include "schema/schemapointer.h"

#include <valijson/adapters/std_string_adapter.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <cmath>
#include <new>
#include <string_view>

namespace structscope::schemadetail {

using json = nlohmann::json;

namespace {

// Type mismatches carry their expected types and the found value in front of the message, so that an
// anyOf/oneOf over them can merge "expected string" and "expected null" into "expected string or null".
constexpr char kTagMark = '\x1e';
constexpr char kTagSplit = '\x1f';

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

std::string typeList(unsigned mask)
{
    static const std::pair<unsigned, const char*> order[] = {
        { ObjectType, "object" },
        { ArrayType, "array" },
        { StringType, "string" },
        { IntegerType, "integer" },
        { NumberType, "number" },
        { BooleanType, "boolean" },
        { NullType, "null" },
    };
    std::vector<std::string> names;
    for (const auto& [bit, name] : order)
        if (mask & bit)
            names.emplace_back(name);
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0)
            out += i + 1 == names.size() ? " or " : ", ";
        out += names[i];
    }
    return out;
}

std::string formatDouble(double value)
{
    return json(value).dump();
}

std::string quote(std::string_view text, std::size_t maxBytes = 60)
{
    return quoteText(text, maxBytes);
}

/// "integer 5", "string \"abc\"", "object", ... for "got ..." parts of messages.
std::string describe(const Adapter& value)
{
    if (value.isNull())
        return "null";
    if (value.isBool())
        return value.getBool() ? "boolean true" : "boolean false";
    if (value.isInteger())
        return "integer " + std::to_string(value.getInteger());
    if (value.isDouble())
        return "number " + formatDouble(value.getDouble());
    if (value.isString())
        return "string " + quote(value.getString());
    if (value.isArray())
        return "array";
    if (value.isObject())
        return "object";
    return "value";
}

/// The value as it would appear in JSON, shortened: "\"abc\"", "5", "an object".
std::string preview(const Adapter& value)
{
    if (value.isNull())
        return "null";
    if (value.isBool())
        return value.getBool() ? "true" : "false";
    if (value.isInteger())
        return std::to_string(value.getInteger());
    if (value.isDouble())
        return formatDouble(value.getDouble());
    if (value.isString())
        return quote(value.getString());
    if (value.isArray())
        return "an array";
    return "an object";
}

std::string lastToken(const Context& context)
{
    if (context.size() < 2)
        return {};
    const std::string& last = context.back();
    if (last.size() >= 2 && last.front() == '[' && last.back() == ']')
        return last.substr(1, last.size() - 2);
    return last;
}

/// Records a failure; the message is only built when someone collects them (not on the isValid() path).
template <typename MakeMessage>
void record(valijson::ValidationResults* results, const Context& context, MakeMessage&& makeMessage)
{
    if (results)
        results->pushError(context, makeMessage());
}

std::string typeTag(unsigned mask, const std::string& found)
{
    return std::string(1, kTagMark) + std::to_string(mask) + kTagSplit + found + kTagMark;
}

// --- type -----------------------------------------------------------------------------------------------------

bool typeMatches(const Adapter& t, unsigned mask, bool integralFloats)
{
    if ((mask & NullType) && t.isNull())
        return true;
    if ((mask & BooleanType) && t.isBool())
        return true;
    if ((mask & NumberType) && t.isNumber())
        return true;
    if ((mask & IntegerType) && t.isInteger())
        return true;
    if ((mask & IntegerType) && t.isDouble()) {
        // Integers above INT64_MAX reach the rules as doubles (valijson would wrap them), so a double that large
        // counts as the integer it was.
        const double d = t.getDouble();
        if (std::isfinite(d) && std::trunc(d) == d && (integralFloats || std::fabs(d) >= 9.2233720368547758e18))
            return true;
    }
    if ((mask & StringType) && t.isString())
        return true;
    if ((mask & ArrayType) && t.isArray())
        return true;
    return (mask & ObjectType) && t.isObject();
}

std::string typeMismatch(unsigned mask, const std::string& found)
{
    return typeTag(mask, found) + "expected " + typeList(mask) + ", got " + found;
}

class TypeRule final : public Rule
{
public:
    TypeRule(unsigned mask, bool integralFloats)
        : m_mask(mask)
        , m_integralFloats(integralFloats)
    { }

    bool check(const Adapter& target, const Context& context, valijson::ValidationResults* results) const override
    {
        if (typeMatches(target, m_mask, m_integralFloats))
            return true;
        record(results, context, [&] { return typeMismatch(m_mask, describe(target)); });
        return false;
    }

private:
    unsigned m_mask;
    bool m_integralFloats;
};

// --- enum / const ----------------------------------------------------------------------------------------------

class EnumRule final : public Rule
{
public:
    EnumRule(std::vector<json> values, bool isConst)
        : m_values(std::move(values))
        , m_isConst(isConst)
    {
        for (const json& v : m_values) {
            if (v.is_string())
                m_strings.push_back(v.get<std::string>());
            else
                m_others.push_back(&v);
        }
    }

    bool check(const Adapter& target, const Context& context, valijson::ValidationResults* results) const override
    {
        if (matches(target))
            return true;
        record(results, context, [&] { return message(target); });
        return false;
    }

private:
    bool matches(const Adapter& target) const
    {
        // A string only ever equals a string: compare those directly instead of through valijson's equalTo(),
        // which copies both strings.
        if (target.isString()) {
            const std::string s = target.getString();
            return std::find(m_strings.begin(), m_strings.end(), s) != m_strings.end();
        }
        // valijson's strict equality: numbers by value (1 == 1.0), booleans are not numbers, deep for containers.
        return std::ranges::any_of(m_others,
            [&target](const json* v) { return valijson::adapters::NlohmannJsonAdapter(*v).equalTo(target, true); });
    }

    std::string message(const Adapter& target) const
    {
        if (m_isConst)
            return "expected " + previewJson(m_values.front()) + " (const), got " + preview(target);
        if (m_values.empty())
            return "no value is allowed (enum is empty), got " + preview(target);
        std::string list;
        std::size_t shown = 0;
        for (const json& v : m_values) {
            if (list.size() > 160) {
                list += ", ... (" + std::to_string(m_values.size()) + " values)";
                break;
            }
            list += (shown++ ? ", " : "") + previewJson(v, 40);
        }
        return "expected one of " + list + ", got " + preview(target);
    }

    std::vector<json> m_values;
    std::vector<std::string> m_strings;
    std::vector<const json*> m_others;
    bool m_isConst;
};

// --- minimum / maximum -----------------------------------------------------------------------------------------

struct Number
{
    bool integral = false;
    std::int64_t i = 0;
    long double v = 0;
};

Number numberOf(const json& j)
{
    if (j.is_number_integer() && !j.is_number_unsigned())
        return { true, j.get<std::int64_t>(), static_cast<long double>(j.get<std::int64_t>()) };
    if (j.is_number_unsigned()) {
        const auto u = j.get<std::uint64_t>();
        if (u <= static_cast<std::uint64_t>(INT64_MAX))
            return { true, static_cast<std::int64_t>(u), static_cast<long double>(u) };
        return { false, 0, static_cast<long double>(u) };
    }
    return { false, 0, static_cast<long double>(j.get<double>()) };
}

Number numberOf(const Adapter& a)
{
    if (a.isInteger())
        return { true, a.getInteger(), static_cast<long double>(a.getInteger()) };
    return { false, 0, static_cast<long double>(a.getDouble()) };
}

int compareNumbers(const Number& a, const Number& b)
{
    if (a.integral && b.integral)
        return a.i < b.i ? -1 : (a.i > b.i ? 1 : 0);
    // long double holds every int64 exactly on x86-64, so mixed comparisons stay exact there.
    return a.v < b.v ? -1 : (a.v > b.v ? 1 : 0);
}

class RangeRule final : public Rule
{
public:
    RangeRule(json minimum, json maximum, json exclusiveMinimum, json exclusiveMaximum)
        : m_min(std::move(minimum))
        , m_max(std::move(maximum))
        , m_exMin(std::move(exclusiveMinimum))
        , m_exMax(std::move(exclusiveMaximum))
    { }

    bool check(const Adapter& target, const Context& context, valijson::ValidationResults* results) const override
    {
        if (!target.isNumber())
            return true;
        const Number n = numberOf(target);
        bool ok = true;
        // Returns whether to go on: the fast path (no results) stops at the first failure.
        auto fail = [&](const char* what, const json& bound) {
            ok = false;
            record(results, context, [&] { return "value " + preview(target) + what + bound.dump(); });
            return results != nullptr;
        };
        if (m_min.is_number() && compareNumbers(n, numberOf(m_min)) < 0 && !fail(" is less than the minimum ", m_min))
            return false;
        if (m_exMin.is_number() && compareNumbers(n, numberOf(m_exMin)) <= 0
            && !fail(" is not greater than the exclusive minimum ", m_exMin))
            return false;
        if (m_max.is_number() && compareNumbers(n, numberOf(m_max)) > 0
            && !fail(" is greater than the maximum ", m_max))
            return false;
        if (m_exMax.is_number() && compareNumbers(n, numberOf(m_exMax)) >= 0
            && !fail(" is not less than the exclusive maximum ", m_exMax))
            return false;
        return ok;
    }

private:
    json m_min, m_max, m_exMin, m_exMax;
};

// --- minLength / maxLength -------------------------------------------------------------------------------------

class LengthRule final : public Rule
{
public:
    LengthRule(std::optional<std::uint64_t> minLength, std::optional<std::uint64_t> maxLength)
        : m_min(minLength)
        , m_max(maxLength)
    { }

    bool check(const Adapter& target, const Context& context, valijson::ValidationResults* results) const override
    {
        if (!target.isString())
            return true;
        const std::string s = target.getString();
        // Code points, as Python's len() counts them: every byte that does not continue a UTF-8 sequence.
        std::uint64_t length = 0;
        for (const char c : s)
            length += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        auto what = [length] {
            return "string is " + std::to_string(length) + (length == 1 ? " character long" : " characters long");
        };
        bool ok = true;
        if (m_min && length < *m_min) {
            ok = false;
            record(results, context, [&] { return what() + ", fewer than minLength " + std::to_string(*m_min); });
        }
        if (m_max && length > *m_max) {
            ok = false;
            record(results, context, [&] { return what() + ", more than maxLength " + std::to_string(*m_max); });
        }
        return ok;
    }

private:
    std::optional<std::uint64_t> m_min, m_max;
};

// --- multipleOf ------------------------------------------------------------------------------------------------

// Python's jsonschema (draft 7): a float divisor compares instance/divisor with its integer part, an integer
// divisor takes the remainder. valijson instead truncates floats against integer divisors (4.5 passes
// multipleOf 2).
class MultipleOfRule final : public Rule
{
public:
    explicit MultipleOfRule(const json& divisor)
        : m_text(divisor.dump())
        , m_integral(divisor.is_number_integer() && !divisor.is_number_unsigned())
        , m_int(m_integral ? divisor.get<std::int64_t>() : 0)
        , m_double(divisor.get<double>())
    { }

    bool check(const Adapter& target, const Context& context, valijson::ValidationResults* results) const override
    {
        if (!target.isNumber())
            return true;
        bool failed = false;
        if (m_integral && m_int > 0) {
            if (target.isInteger())
                failed = target.getInteger() % m_int != 0;
            else
                failed = std::fmod(target.getDouble(), static_cast<double>(m_int)) != 0.0;
        } else {
            const double x = target.isInteger() ? static_cast<double>(target.getInteger()) : target.getDouble();
            const double q = x / m_double;
            failed = std::isfinite(q) ? std::trunc(q) != q : std::fmod(x, m_double) != 0.0;
        }
        if (failed)
            record(results, context, [&] { return "value " + preview(target) + " is not a multiple of " + m_text; });
        return !failed;
    }

private:
    std::string m_text;
    bool m_integral;
    std::int64_t m_int;
    double m_double;
};

// --- pattern / format ------------------------------------------------------------------------------------------

bool matchesPattern(const QRegularExpression& re, const std::string& s, bool* engineFailed)
{
    const QRegularExpressionMatch m = re.match(QString::fromStdString(s));
    *engineFailed = !m.isValid();
    return m.hasMatch();
}

class PatternRule final : public Rule
{
public:
    PatternRule(std::string pattern, QRegularExpression compiled)
        : m_pattern(std::move(pattern))
        , m_re(std::move(compiled))
    { }

    bool check(const Adapter& target, const Context& context, valijson::ValidationResults* results) const override
    {
        if (!target.isString())
            return true;
        bool engineFailed = false;
        if (matchesPattern(m_re, target.getString(), &engineFailed))
            return true;
        record(results, context, [&] {
            if (engineFailed)
                return "string could not be matched against pattern " + quote(m_pattern, 80)
                    + " (the regular expression engine hit its backtracking limit)";
            return "string " + quote(target.getString()) + " does not match pattern " + quote(m_pattern, 80);
        });
        return false;
    }

private:
    std::string m_pattern;
    QRegularExpression m_re;
};

bool readDigits(std::string_view s, std::size_t pos, std::size_t count, int* value)
{
    if (pos + count > s.size())
        return false;
    int v = 0;
    for (std::size_t i = pos; i < pos + count; ++i) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *value = v;
    return true;
}

bool isValidDate(std::string_view s)
{
    int year = 0;
    int month = 0;
    int day = 0;
    if (s.size() != 10 || s[4] != '-' || s[7] != '-' || !readDigits(s, 0, 4, &year) || !readDigits(s, 5, 2, &month)
        || !readDigits(s, 8, 2, &day))
        return false;
    if (month < 1 || month > 12 || day < 1)
        return false;
    static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return day <= days[month - 1] + (month == 2 && leap ? 1 : 0);
}

bool isValidTime(std::string_view s)
{
    int hour = 0;
    int minute = 0;
    int second = 0;
    if (s.size() < 9 || s[2] != ':' || s[5] != ':' || !readDigits(s, 0, 2, &hour) || !readDigits(s, 3, 2, &minute)
        || !readDigits(s, 6, 2, &second) || hour > 23 || minute > 59 || second > 60)
        return false;
    std::size_t pos = 8;
    if (s[pos] == '.') {
        const std::size_t start = ++pos;
        while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9')
            ++pos;
        if (pos == start)
            return false;
    }
    if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z'))
        return pos + 1 == s.size();
    int offsetHour = 0;
    int offsetMinute = 0;
    return pos + 6 == s.size() && (s[pos] == '+' || s[pos] == '-') && s[pos + 3] == ':'
        && readDigits(s, pos + 1, 2, &offsetHour) && readDigits(s, pos + 4, 2, &offsetMinute) && offsetHour <= 23
        && offsetMinute <= 59;
}

bool isValidDateTime(std::string_view s)
{
    return s.size() > 11 && isValidDate(s.substr(0, 10)) && (s[10] == 'T' || s[10] == 't') && isValidTime(s.substr(11));
}

class FormatRule final : public Rule
{
public:
    explicit FormatRule(FormatKind kind)
        : m_kind(kind)
    { }

    bool check(const Adapter& target, const Context& context, valijson::ValidationResults* results) const override
    {
        // Formats only constrain strings (valijson instead throws on objects and rejects numbers).
        if (!target.isString())
            return true;
        const std::string s = target.getString();
        std::string regexError;
        bool ok = false;
        switch (m_kind) {
        case FormatKind::Date:
            ok = isValidDate(s);
            break;
        case FormatKind::Time:
            ok = isValidTime(s);
            break;
        case FormatKind::DateTime:
            ok = isValidDateTime(s);
            break;
        case FormatKind::Regex:
            compilePattern(s, &regexError);
            ok = regexError.empty();
            break;
        }
        if (!ok)
            record(results, context, [&] { return "string " + quote(s) + " is not " + expected(regexError); });
        return ok;
    }

private:
    std::string expected(const std::string& regexError) const
    {
        switch (m_kind) {
        case FormatKind::Date:
            return "a date (YYYY-MM-DD)";
        case FormatKind::Time:
            return "a time (HH:MM:SS with a time zone)";
        case FormatKind::DateTime:
            return "a date-time (RFC 3339)";
        case FormatKind::Regex:
            break;
        }
        return "a regular expression (" + regexError + ")";
    }

    FormatKind m_kind;
};

// --- false subschemas --------------------------------------------------------------------------------------------

class FalseRule final : public Rule
{
public:
    explicit FalseRule(FalseReason reason)
        : m_reason(reason)
    { }

    bool check(const Adapter& /*target*/, const Context& context, valijson::ValidationResults* results) const override
    {
        if (!results)
            return false;
        const std::string name = lastToken(context);
        switch (m_reason) {
        case FalseReason::AdditionalProperties:
            results->pushError(context, "property " + quote(name) + " is not allowed (additionalProperties is false)");
            break;
        case FalseReason::AdditionalItems:
            results->pushError(context, "item " + name + " is not allowed (additionalItems is false)");
            break;
        case FalseReason::Property:
            results->pushError(context, "property " + quote(name) + " is not allowed (its schema is false)");
            break;
        case FalseReason::Item:
            results->pushError(context, "item " + name + " is not allowed (its schema is false)");
            break;
        case FalseReason::Schema:
            results->pushError(context, "no value is allowed here (the schema is false)");
            break;
        }
        return false;
    }

private:
    FalseReason m_reason;
};

// --- anyOf / oneOf -------------------------------------------------------------------------------------------------

class CombinatorRule final : public Rule
{
public:
    CombinatorRule(bool oneOf, std::vector<Alternative> alternatives, bool integralFloats, const HelperSchemas* helpers)
        : m_oneOf(oneOf)
        , m_alternatives(std::move(alternatives))
        , m_integralFloats(integralFloats)
        , m_helpers(helpers)
    { }

    bool check(const Adapter& target, const Context& context, valijson::ValidationResults* results) const override
    {
        if (!results) {
            int passed = 0;
            for (const Alternative& alt : m_alternatives) {
                if (passes(alt, target, nullptr)) {
                    if (!m_oneOf)
                        return true;
                    if (++passed > 1)
                        return false;
                }
            }
            return passed == 1;
        }

        std::vector<std::vector<FoundError>> failures(m_alternatives.size());
        std::vector<std::size_t> passed;
        for (std::size_t i = 0; i < m_alternatives.size(); ++i) {
            if (passes(m_alternatives[i], target, &failures[i])) {
                if (!m_oneOf)
                    return true;
                passed.push_back(i);
            }
        }
        if (passed.size() == 1)
            return true;
        if (passed.size() > 1) {
            std::string list;
            for (std::size_t i = 0; i < passed.size(); ++i)
                list += (i ? ", " : "") + std::to_string(m_alternatives[passed[i]].index);
            results->pushError(context,
                "value matches more than one of the oneOf alternatives (" + list + "); exactly one must match");
            return false;
        }
        reportNoMatch(failures, context, *results);
        return false;
    }

private:
    bool passes(const Alternative& alt, const Adapter& target, std::vector<FoundError>* errors) const
    {
        // Pydantic's Optional[str] is anyOf [{"type": "string"}, {"type": "null"}]: no need for a whole
        // validation run per alternative.
        if (alt.typeOnly) {
            if (typeMatches(target, alt.typeMask, m_integralFloats))
                return true;
            if (errors) {
                const std::string found = describe(target);
                errors->push_back(FoundError { Context { "<root>" }, typeMismatch(alt.typeMask, found),
                    "expected " + typeList(alt.typeMask) + ", got " + found, alt.typeMask, found });
            }
            return false;
        }
        const valijson::Schema& schema = *(*m_helpers)[alt.helper];
        if (!errors)
            return runSchema(schema, target, nullptr);
        valijson::ValidationResults sub;
        if (runSchema(schema, target, &sub))
            return true;
        *errors = collectErrors(sub);
        return false;
    }

    /// The alternative wants another type of value altogether (whatever else it also says about this one).
    static const FoundError* rootTypeMismatch(const std::vector<FoundError>& errors)
    {
        for (const FoundError& e : errors)
            if (e.typeMask != 0 && e.context.size() == 1)
                return &e;
        return nullptr;
    }

    void reportNoMatch(const std::vector<std::vector<FoundError>>& failures, const Context& context,
        valijson::ValidationResults& results) const
    {
        std::size_t typeMismatches = 0;
        std::size_t other = 0;
        unsigned mask = 0;
        std::string found;
        for (std::size_t i = 0; i < failures.size(); ++i) {
            if (const FoundError* mismatch = rootTypeMismatch(failures[i])) {
                ++typeMismatches;
                mask |= mismatch->typeMask;
                found = mismatch->found;
            } else {
                other = i;
            }
        }
        const std::string keyword = m_oneOf ? "oneOf" : "anyOf";

        // Every alternative wants another type: one merged type error ("expected string or null").
        if (typeMismatches == failures.size() && !failures.empty()) {
            results.pushError(context, typeMismatch(mask, found));
            return;
        }
        // Only one alternative accepts this type (Optional[Model] with a broken model): its errors are the story.
        if (typeMismatches + 1 == failures.size() && !failures[other].empty()) {
            for (const FoundError& e : failures[other]) {
                Context full = context;
                full.insert(full.end(), e.context.begin() + 1, e.context.end());
                results.pushError(full, e.description);
            }
            return;
        }
        std::string message = "value does not match any of the " + keyword + " alternatives:";
        for (std::size_t i = 0; i < failures.size(); ++i) {
            message += (i ? "; (" : " (") + std::to_string(m_alternatives[i].index) + ") ";
            if (failures[i].empty()) {
                message += "does not match";
                continue;
            }
            const FoundError& first = failures[i].front();
            const std::string where = contextToPointer(first.context);
            if (!where.empty())
                message += "at " + where + ": ";
            message += first.message;
            if (failures[i].size() > 1)
                message += " (+" + std::to_string(failures[i].size() - 1) + " more)";
        }
        results.pushError(context, message);
    }

    bool m_oneOf;
    std::vector<Alternative> m_alternatives;
    bool m_integralFloats;
    const HelperSchemas* m_helpers;
};

// --- propertyNames -------------------------------------------------------------------------------------------------

class PropertyNamesRule final : public Rule
{
public:
    PropertyNamesRule(std::size_t helper, const HelperSchemas* helpers)
        : m_helper(helper)
        , m_helpers(helpers)
    { }

    bool check(const Adapter& target, const Context& context, valijson::ValidationResults* results) const override
    {
        if (!target.isObject())
            return true;
        const valijson::Schema& schema = *(*m_helpers)[m_helper];
        bool ok = true;
        target.applyToObject([&](const std::string& name, const Adapter&) {
            const valijson::adapters::StdStringAdapter nameAdapter(name);
            if (!results) {
                ok = runSchema(schema, nameAdapter, nullptr);
                return ok;
            }
            valijson::ValidationResults sub;
            if (!runSchema(schema, nameAdapter, &sub)) {
                ok = false;
                const std::vector<FoundError> errors = collectErrors(sub);
                results->pushError(context,
                    "property name " + quote(name) + " is invalid: "
                        + (errors.empty() ? std::string("it does not match propertyNames") : errors.front().message));
            }
            return true;
        });
        return ok;
    }

private:
    std::size_t m_helper;
    const HelperSchemas* m_helpers;
};

// --- patternProperties / additionalProperties -----------------------------------------------------------------

// valijson stops at the first property that fails a pattern, never looks at the later patterns, and then reports
// the properties those would have matched as not allowed by additionalProperties. It also matches with std::regex;
// this matches with the same engine as `pattern`.
class MembersRule final : public Rule
{
public:
    MembersRule(std::vector<std::string> declared, std::vector<PatternMember> patterns,
        std::optional<MemberSchema> additional, const HelperSchemas* helpers)
        : m_declared(std::move(declared))
        , m_patterns(std::move(patterns))
        , m_additional(additional)
        , m_helpers(helpers)
    { }

    bool check(const Adapter& target, const Context& context, valijson::ValidationResults* results) const override
    {
        if (!target.isObject())
            return true;
        bool ok = true;
        target.applyToObject([&](const std::string& name, const Adapter& value) {
            bool matched = std::binary_search(m_declared.begin(), m_declared.end(), name);
            for (const PatternMember& p : m_patterns) {
                bool engineFailed = false;
                if (!matchesPattern(p.compiled, name, &engineFailed))
                    continue;
                matched = true;
                if (!checkMember(p.schema, value, name, context, results, "its patternProperties schema is false")) {
                    ok = false;
                    if (!results)
                        return false;
                }
            }
            if (!matched && m_additional
                && !checkMember(*m_additional, value, name, context, results, "additionalProperties is false")) {
                ok = false;
                if (!results)
                    return false;
            }
            return true;
        });
        return ok;
    }

private:
    bool checkMember(const MemberSchema& schema, const Adapter& value, const std::string& name, const Context& context,
        valijson::ValidationResults* results, const char* whyNot) const
    {
        if (schema.kind == MemberSchema::Any)
            return true;
        if (schema.kind == MemberSchema::Never) {
            if (results) {
                Context member = context;
                member.push_back('[' + name + ']');
                results->pushError(member, "property " + quote(name) + " is not allowed (" + whyNot + ")");
            }
            return false;
        }
        valijson::ValidationResults sub;
        if (runSchema(*(*m_helpers)[schema.helper], value, results ? &sub : nullptr))
            return true;
        if (results) {
            for (const valijson::ValidationResults::Error& e : sub) {
                Context full = context;
                full.push_back('[' + name + ']');
                full.insert(full.end(), e.context.begin() + 1, e.context.end());
                results->pushError(full, e.description);
            }
        }
        return false;
    }

    std::vector<std::string> m_declared;
    std::vector<PatternMember> m_patterns;
    std::optional<MemberSchema> m_additional;
    const HelperSchemas* m_helpers;
};

// --- glue --------------------------------------------------------------------------------------------------------

class RuleConstraint final : public valijson::constraints::PolyConstraint
{
public:
    explicit RuleConstraint(const Rule* rule)
        : m_rule(rule)
    { }

    bool validate(const Adapter& target, const Context& context, valijson::ValidationResults* results) const override
    {
        return m_rule->check(target, context, results);
    }

private:
    valijson::constraints::Constraint* cloneInto(void* memory) const override
    {
        return new (memory) RuleConstraint(*this);
    }
    std::size_t sizeOf() const override { return sizeof(RuleConstraint); }

    const Rule* m_rule;
};

std::optional<std::string> between(std::string_view text, std::string_view prefix, std::string_view suffix)
{
    if (!startsWith(text, prefix) || text.size() < prefix.size() + suffix.size()
        || text.substr(text.size() - suffix.size()) != suffix)
        return std::nullopt;
    return std::string(text.substr(prefix.size(), text.size() - prefix.size() - suffix.size()));
}

/// A readable message for one of valijson's own errors, or nothing for its "Failed to validate ..." wrappers.
std::optional<std::string> translate(const std::string& d)
{
    static const std::string_view wrappers[] = {
        "Failed to validate item #",
        "Failed to validate against schema associated with",
        "Failed to validate against additional properties schema",
        "Failed to validate against child schema #",
        "Failed to validate against dependent schema",
        "Failed to validate against a conditional schema",
        "Failed to validate against any schemas allowed by anyOf",
        "Failed to validate against any child schemas allowed by oneOf",
        "Cannot validate item #",
    };
    for (const std::string_view w : wrappers)
        if (startsWith(d, w))
            return std::nullopt;

    if (auto name = between(d, "Missing required property '", "'."))
        return "required property " + quote(*name) + " is missing";
    if (auto name = between(d, "Missing dependency '", "'."))
        return "property " + quote(*name) + " is missing (required by \"dependencies\")";
    auto items = [](const std::string& n) { return n + (n == "1" ? " item" : " items"); };
    auto properties = [](const std::string& n) { return n + (n == "1" ? " property" : " properties"); };
    if (auto n = between(d, "Array should contain no fewer than ", " elements."))
        return "array must have at least " + items(*n);
    if (auto n = between(d, "Array should contain no more than ", " elements."))
        return "array must have at most " + items(*n);
    if (auto n = between(d, "Object should have no fewer than ", " properties."))
        return "object must have at least " + properties(*n);
    if (auto n = between(d, "Object should have no more than ", " properties."))
        return "object must have at most " + properties(*n);
    if (auto pair = between(d, "Elements at indexes #", " violate uniqueness constraint.")) {
        const std::size_t sep = pair->find(" and #");
        if (sep != std::string::npos)
            return "items " + pair->substr(0, sep) + " and " + pair->substr(sep + 6)
                + " are equal (uniqueItems is true)";
    }
    if (startsWith(d, "Failed to any values against subschema in 'contains'"))
        return std::string("no item matches the \"contains\" schema");
    if (startsWith(d, "Target should not validate against schema specified in 'not'"))
        return std::string("value must not match the \"not\" schema");
    if (startsWith(d, "Array contains more items than allowed by items constraint"))
        return std::string("array has more items than \"items\" allows");
    if (auto name = between(d,
            "Object contains a property that could not be validated using 'properties' or "
            "'additionalProperties' constraints: '",
            "'."))
        return "property " + quote(*name) + " is not allowed (additionalProperties is false)";
    return d;
}

} // namespace

unsigned typeBit(const std::string& name)
{
    if (name == "null")
        return NullType;
    if (name == "boolean")
        return BooleanType;
    if (name == "integer")
        return IntegerType;
    if (name == "number")
        return NumberType;
    if (name == "string")
        return StringType;
    if (name == "array")
        return ArrayType;
    if (name == "object")
        return ObjectType;
    return 0;
}

std::optional<FormatKind> formatKind(const std::string& name)
{
    if (name == "date")
        return FormatKind::Date;
    if (name == "time")
        return FormatKind::Time;
    if (name == "date-time")
        return FormatKind::DateTime;
    if (name == "regex")
        return FormatKind::Regex;
    return std::nullopt;
}

namespace {

int hex4(std::string_view s, std::size_t pos)
{
    if (pos + 4 > s.size())
        return -1;
    int v = 0;
    for (std::size_t i = pos; i < pos + 4; ++i) {
        const char c = s[i];
        int d = -1;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

// ECMA-262 (what JSON Schema specifies) and Python's re both know \uXXXX; PCRE2 spells it \x{XXXX}.
std::string toPcreSyntax(std::string_view pattern)
{
    std::string out;
    out.reserve(pattern.size());
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '\\' || i + 1 >= pattern.size()) {
            out += pattern[i];
            continue;
        }
        if (pattern[i + 1] == 'u') {
            int cp = hex4(pattern, i + 2);
            if (cp >= 0) {
                std::size_t used = 6;
                if (cp >= 0xD800 && cp <= 0xDBFF && i + 12 <= pattern.size() && pattern[i + 6] == '\\'
                    && pattern[i + 7] == 'u') {
                    const int low = hex4(pattern, i + 8);
                    if (low >= 0xDC00 && low <= 0xDFFF) {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                        used = 12;
                    }
                }
                char buffer[16];
                std::snprintf(buffer, sizeof buffer, "\\x{%X}", static_cast<unsigned>(cp));
                out += buffer;
                i += used - 1;
                continue;
            }
        }
        out += pattern[i];
        out += pattern[i + 1];
        ++i;
    }
    return out;
}

} // namespace

QRegularExpression compilePattern(const std::string& pattern, std::string* error)
{
    QRegularExpression re(
        QString::fromStdString(toPcreSyntax(pattern)), QRegularExpression::UseUnicodePropertiesOption);
    error->clear();
    if (!re.isValid())
        *error = re.errorString().toStdString() + " at offset " + std::to_string(re.patternErrorOffset());
    return re;
}

std::unique_ptr<Rule> makeTypeRule(unsigned mask, bool integralFloatsAsIntegers)
{
    return std::make_unique<TypeRule>(mask, integralFloatsAsIntegers);
}

std::unique_ptr<Rule> makeEnumRule(std::vector<json> values, bool isConst)
{
    return std::make_unique<EnumRule>(std::move(values), isConst);
}

std::unique_ptr<Rule> makeRangeRule(json minimum, json maximum, json exclusiveMinimum, json exclusiveMaximum)
{
    return std::make_unique<RangeRule>(
        std::move(minimum), std::move(maximum), std::move(exclusiveMinimum), std::move(exclusiveMaximum));
}

std::unique_ptr<Rule> makeLengthRule(std::optional<std::uint64_t> minLength, std::optional<std::uint64_t> maxLength)
{
    return std::make_unique<LengthRule>(minLength, maxLength);
}

std::unique_ptr<Rule> makeMultipleOfRule(const json& divisor)
{
    return std::make_unique<MultipleOfRule>(divisor);
}

std::unique_ptr<Rule> makePatternRule(const std::string& pattern, QRegularExpression compiled)
{
    return std::make_unique<PatternRule>(pattern, std::move(compiled));
}

std::unique_ptr<Rule> makeFormatRule(FormatKind kind)
{
    return std::make_unique<FormatRule>(kind);
}

std::unique_ptr<Rule> makeFalseRule(FalseReason reason)
{
    return std::make_unique<FalseRule>(reason);
}

std::unique_ptr<Rule> makeCombinatorRule(
    bool oneOf, std::vector<Alternative> alternatives, bool integralFloats, const HelperSchemas* helpers)
{
    return std::make_unique<CombinatorRule>(oneOf, std::move(alternatives), integralFloats, helpers);
}

std::unique_ptr<Rule> makePropertyNamesRule(std::size_t helper, const HelperSchemas* helpers)
{
    return std::make_unique<PropertyNamesRule>(helper, helpers);
}

std::unique_ptr<Rule> makeMembersRule(std::vector<std::string> declared, std::vector<PatternMember> patterns,
    std::optional<MemberSchema> additional, const HelperSchemas* helpers)
{
    return std::make_unique<MembersRule>(std::move(declared), std::move(patterns), additional, helpers);
}

valijson::constraints::Constraint* RuleBuilder::make(const Adapter& node) const
{
    std::int64_t index = -1;
    if (!node.getInteger(index) || index < 0 || static_cast<std::size_t>(index) >= m_rules->size())
        valijson::throwRuntimeError("internal error: bad StructScope rule reference");
    return new RuleConstraint((*m_rules)[static_cast<std::size_t>(index)].get());
}

bool runSchema(const valijson::Subschema& schema, const Adapter& target, valijson::ValidationResults* results)
{
    // valijson's Validator is a template over the adapter type; a rule only sees the abstract Adapter.
    valijson::Validator validator;
    if (const auto* value = dynamic_cast<const valijson::adapters::NlohmannJsonAdapter*>(&target))
        return validator.validate(schema, *value, results);
    if (const auto* name = dynamic_cast<const valijson::adapters::StdStringAdapter*>(&target))
        return validator.validate(schema, *name, results);
    valijson::throwLogicError("internal error: unexpected adapter type");
}

std::string contextToPointer(const Context& context)
{
    std::string pointer;
    for (std::size_t i = 1; i < context.size(); ++i) {
        const std::string& element = context[i];
        if (element.size() >= 2 && element.front() == '[' && element.back() == ']')
            pointer = appendToken(pointer, std::string_view(element).substr(1, element.size() - 2));
        else
            pointer = appendToken(pointer, element);
    }
    return pointer;
}

std::vector<FoundError> collectErrors(const valijson::ValidationResults& results)
{
    std::vector<FoundError> out;
    for (const valijson::ValidationResults::Error& e : results) {
        const std::string& d = e.description;
        if (!d.empty() && d.front() == kTagMark) {
            const std::size_t end = d.find(kTagMark, 1);
            const std::size_t split = d.find(kTagSplit, 1);
            if (end != std::string::npos && split != std::string::npos && split < end) {
                FoundError f { e.context, d, d.substr(end + 1), 0, d.substr(split + 1, end - split - 1) };
                f.typeMask = static_cast<unsigned>(std::stoul(d.substr(1, split - 1)));
                out.push_back(std::move(f));
                continue;
            }
        }
        if (std::optional<std::string> message = translate(d))
            out.push_back(FoundError { e.context, d, std::move(*message), 0, {} });
    }
    return out;
}

} // namespace structscope::schemadetail
