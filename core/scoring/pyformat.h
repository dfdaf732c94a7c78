// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <string>

// Python semantics for JSON values as Python's json.loads() would have produced them (dict, list,
// str, int, float, bool, None). SOB's reference scorer is Python; these make our numbers match its.
//
// Known gaps, all outside what a JSON parser hands us in practice:
// - integers beyond 64 bits: Python keeps them exact, nlohmann turns them into doubles;
// - str() of a container is compact JSON here, not Python's "{'a': 1}".

namespace structscope {

/// Python's repr()/str() of a float: shortest round-trip digits, positional for exponents -4..15
/// ("1.0", "0.0001", "1234567890123456.0"), otherwise "1e-05" / "1e+16"; "inf", "-inf", "nan".
std::string pyFloatRepr(double value);

/// Appends pyFloatRepr(value) to `out` without a temporary string.
void appendPyFloatRepr(std::string& out, double value);

/// Python's str() of a JSON scalar: "None", "True"/"False", integers as digits, floats as
/// pyFloatRepr(), strings unchanged. Containers fall back to compact JSON.
std::string pyStr(const nlohmann::json& value);

/// Appends pyStr(value) to `out`.
void appendPyStr(std::string& out, const nlohmann::json& value);

/// Python's `a == b`: numbers by exact value across int and float (True == 1 == 1.0,
/// 2**53 + 1 != 2.0**53), NaN unequal to itself, strings by content, lists and dicts element-wise.
bool pyEquals(const nlohmann::json& a, const nlohmann::json& b);

/// Equality of json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False) of two
/// values: type-strict numbers (1 != 1.0, 0.0 != -0.0, True != 1), NaN equal to NaN.
bool canonicalJsonEquals(const nlohmann::json& a, const nlohmann::json& b);

} // namespace structscope
