// SPDX-License-Identifier: Apache-2.0
#include "scoring/pyformat.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <system_error>
#include <utility>
#include <vector>

namespace structscope {

using nlohmann::json;

namespace {

// A Python int held by nlohmann as int64 or uint64, as sign + magnitude so both kinds compare.
struct PyInt
{
    bool negative = false;
    std::uint64_t magnitude = 0;
};

bool isIntegral(const json& v)
{
    return v.is_number_integer() || v.is_boolean(); // is_number_integer() covers unsigned too
}

PyInt toPyInt(const json& v)
{
    if (v.is_boolean())
        return { false, v.get<bool>() ? 1u : 0u };
    if (v.is_number_unsigned())
        return { false, v.get<std::uint64_t>() };
    const std::int64_t i = v.get<std::int64_t>();
    if (i >= 0)
        return { false, static_cast<std::uint64_t>(i) };
    // -(i + 1) cannot overflow, even for INT64_MIN.
    return { true, static_cast<std::uint64_t>(-(i + 1)) + 1u };
}

bool intEquals(PyInt a, PyInt b)
{
    return a.negative == b.negative && a.magnitude == b.magnitude;
}

// Python compares int and float exactly, never by rounding the int to a double.
bool intEqualsFloat(PyInt a, double f)
{
    if (!std::isfinite(f) || std::trunc(f) != f)
        return false;
    constexpr double twoTo64 = 18446744073709551616.0;
    if (f < 0) {
        if (-f >= twoTo64)
            return false;
        return a.negative && a.magnitude == static_cast<std::uint64_t>(-f);
    }
    if (f >= twoTo64)
        return false;
    return !a.negative && a.magnitude == static_cast<std::uint64_t>(f);
}

void appendInteger(std::string& out, const json& v)
{
    char buf[24];
    std::to_chars_result r;
    if (v.is_number_unsigned())
        r = std::to_chars(buf, buf + sizeof buf, v.get<std::uint64_t>());
    else
        r = std::to_chars(buf, buf + sizeof buf, v.get<std::int64_t>());
    out.append(buf, r.ptr);
}

} // namespace

void appendPyFloatRepr(std::string& out, double value)
{
    if (std::isnan(value)) {
        out += "nan";
        return;
    }
    if (std::isinf(value)) {
        out += value < 0 ? "-inf" : "inf";
        return;
    }
    // Shortest round-trip digits in scientific form, e.g. "-1.2345e-05"; then laid out as Python's
    // float_repr_style 'short' does.
    char buf[40];
    const auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    const char* p = buf;
    if (*p == '-') {
        out.push_back('-');
        ++p;
    }
    char digits[20] {};
    int ndigits = 0;
    for (; p < r.ptr && *p != 'e'; ++p) {
        if (*p != '.')
            digits[ndigits++] = *p;
    }
    int exponent = 0;
    std::from_chars(p + 1 + (p[1] == '+' ? 1 : 0), r.ptr, exponent);

    if (exponent < -4 || exponent >= 16) {
        out.push_back(digits[0]);
        if (ndigits > 1) {
            out.push_back('.');
            out.append(digits + 1, digits + ndigits);
        }
        out.push_back('e');
        out.push_back(exponent < 0 ? '-' : '+');
        const int absExp = exponent < 0 ? -exponent : exponent;
        if (absExp < 10)
            out.push_back('0');
        char expBuf[8];
        const auto er = std::to_chars(expBuf, expBuf + sizeof expBuf, absExp);
        out.append(expBuf, er.ptr);
        return;
    }
    const int pointPos = exponent + 1; // digits before the decimal point
    if (pointPos <= 0) {
        out += "0.";
        out.append(static_cast<std::size_t>(-pointPos), '0');
        out.append(digits, digits + ndigits);
    } else if (pointPos >= ndigits) {
        out.append(digits, digits + ndigits);
        out.append(static_cast<std::size_t>(pointPos - ndigits), '0');
        out += ".0";
    } else {
        out.append(digits, digits + pointPos);
        out.push_back('.');
        out.append(digits + pointPos, digits + ndigits);
    }
}

std::string pyFloatRepr(double value)
{
    std::string out;
    appendPyFloatRepr(out, value);
    return out;
}

void appendPyStr(std::string& out, const json& value)
{
    switch (value.type()) {
    case json::value_t::null:
        out += "None";
        return;
    case json::value_t::boolean:
        out += value.get<bool>() ? "True" : "False";
        return;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
        appendInteger(out, value);
        return;
    case json::value_t::number_float:
        appendPyFloatRepr(out, value.get<double>());
        return;
    case json::value_t::string:
        out += value.get_ref<const std::string&>();
        return;
    default:
        // Not reached by scoring (leaves only); replace keeps dump() from throwing on bad UTF-8.
        out += value.dump(-1, ' ', false, json::error_handler_t::replace);
        return;
    }
}

std::string pyStr(const json& value)
{
    std::string out;
    appendPyStr(out, value);
    return out;
}

namespace {

// Scalar part of Python's ==; containers are compared by the caller.
bool pyScalarEquals(const json& a, const json& b)
{
    if (isIntegral(a) && isIntegral(b))
        return intEquals(toPyInt(a), toPyInt(b));
    if (a.is_number_float() && b.is_number_float())
        return a.get<double>() == b.get<double>();
    if (a.is_number_float() && isIntegral(b))
        return intEqualsFloat(toPyInt(b), a.get<double>());
    if (isIntegral(a) && b.is_number_float())
        return intEqualsFloat(toPyInt(a), b.get<double>());
    if (a.type() != b.type())
        return false;
    if (a.is_null())
        return true;
    if (a.is_string())
        return a.get_ref<const std::string&>() == b.get_ref<const std::string&>();
    return a == b;
}

// Scalar part of canonical-JSON equality (type-strict numbers).
bool canonicalScalarEquals(const json& a, const json& b)
{
    const bool aInt = a.is_number_integer();
    const bool bInt = b.is_number_integer();
    if (aInt || bInt)
        return aInt && bInt && intEquals(toPyInt(a), toPyInt(b));
    if (a.type() != b.type())
        return false;
    switch (a.type()) {
    case json::value_t::null:
        return true;
    case json::value_t::boolean:
        return a.get<bool>() == b.get<bool>();
    case json::value_t::number_float: {
        const double x = a.get<double>();
        const double y = b.get<double>();
        if (std::isnan(x) || std::isnan(y))
            return std::isnan(x) && std::isnan(y); // both dump as NaN
        return x == y && std::signbit(x) == std::signbit(y);
    }
    case json::value_t::string:
        return a.get_ref<const std::string&>() == b.get_ref<const std::string&>();
    default:
        return a == b;
    }
}

// Walks two documents side by side with an explicit stack (no recursion, so any depth is safe);
// containers must match in kind, size and keys, everything else is left to `scalarEquals`.
template <typename ScalarEquals> bool deepEquals(const json& a, const json& b, ScalarEquals scalarEquals)
{
    // Reused between calls: deepEquals never re-enters itself, and each thread has its own.
    thread_local std::vector<std::pair<const json*, const json*>> pending;
    pending.clear();
    pending.emplace_back(&a, &b);
    while (!pending.empty()) {
        const auto [x, y] = pending.back();
        pending.pop_back();
        if (x->is_array() || y->is_array()) {
            if (!x->is_array() || !y->is_array() || x->size() != y->size())
                return false;
            const auto& xs = x->get_ref<const json::array_t&>();
            const auto& ys = y->get_ref<const json::array_t&>();
            for (std::size_t i = 0; i < xs.size(); ++i)
                pending.emplace_back(&xs[i], &ys[i]);
        } else if (x->is_object() || y->is_object()) {
            if (!x->is_object() || !y->is_object() || x->size() != y->size())
                return false;
            // object_t is a std::map: both sides iterate in sorted key order, as sort_keys does.
            const auto& xs = x->get_ref<const json::object_t&>();
            const auto& ys = y->get_ref<const json::object_t&>();
            for (auto i = xs.begin(), j = ys.begin(); i != xs.end(); ++i, ++j) {
                if (i->first != j->first)
                    return false;
                pending.emplace_back(&i->second, &j->second);
            }
        } else if (!scalarEquals(*x, *y)) {
            return false;
        }
    }
    return true;
}

} // namespace

bool pyEquals(const json& a, const json& b)
{
    if (!a.is_structured() && !b.is_structured())
        return pyScalarEquals(a, b); // the common case: two leaves, no allocation
    return deepEquals(a, b, pyScalarEquals);
}

bool canonicalJsonEquals(const json& a, const json& b)
{
    if (!a.is_structured() && !b.is_structured())
        return canonicalScalarEquals(a, b);
    return deepEquals(a, b, canonicalScalarEquals);
}

} // namespace structscope
