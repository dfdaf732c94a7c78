// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace structscope {

/// The value at an RFC 6901 pointer ("" is the whole document), or nullopt when the document has no such
/// place (or the pointer is malformed).
std::optional<nlohmann::json> valueAtPointer(const nlohmann::json& doc, std::string_view pointer);

/// Whether two places hold the same thing: both absent, or both present and equal (numbers by value).
bool samePlaceValue(const std::optional<nlohmann::json>& a, const std::optional<nlohmann::json>& b);

/// The outcome of withValueAt().
struct GoldPatch
{
    std::optional<nlohmann::json> document; ///< the patched copy; nullopt on error
    std::string error; ///< why the pointer cannot be patched
};

/// A copy of `doc` with the value at `pointer` replaced (value set) or removed (value nullopt). The parent
/// of the place must exist; an object gains or loses the key, an array's element is replaced or removed
/// (the index one past the end appends). The pointer "" replaces the whole document (removing it is an error).
GoldPatch withValueAt(const nlohmann::json& doc, std::string_view pointer, const std::optional<nlohmann::json>& value);

/// A copy of `doc` with `value` inserted into the array that holds the place `pointer` names, before the
/// element there (the index one past the end appends). The parent must be an array.
GoldPatch withElementInserted(const nlohmann::json& doc, std::string_view pointer, const nlohmann::json& value);

} // namespace structscope
