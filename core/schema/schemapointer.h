// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

// RFC 6901 pointer helpers shared by the schema compiler, the walker and the keyword audit.
namespace structscope::schemadetail {

using PointerTokens = std::vector<std::string>;

/// Appends one token to a pointer string.
std::string appendToken(const std::string& pointer, std::string_view token);

/// Builds a pointer string from tokens ("" for the whole document).
std::string pointerFromTokens(const PointerTokens& tokens);

/// Splits an RFC 6901 pointer into decoded tokens; false if it is malformed (no leading "/", bad "~" escape).
bool parsePointer(std::string_view pointer, PointerTokens* tokens);

/// Decodes %XX escapes of a URI fragment; false if an escape is malformed.
bool percentDecode(std::string_view text, std::string* out);

/// Escapes "%" so that a pointer survives the %-decoding valijson applies to $ref fragments.
std::string percentEncodeForRef(std::string_view pointer);

/// A canonical array index token: "0", or decimal digits without a leading zero, small enough for size_t (at most
/// 18 digits). False for anything else ("01", "-1", "1e2", "").
bool parseArrayIndex(std::string_view token, std::size_t* index);

/// The value at `tokens`, or nullptr (array indices must be canonical decimal numbers).
const nlohmann::json* resolveTokens(
    const nlohmann::json& root, const PointerTokens& tokens, std::size_t* failedAt = nullptr);

/// "integer", "number", "string", ... as JSON Schema names the value's type.
std::string jsonTypeName(const nlohmann::json& value);

/// A short, single-line rendering of a value for messages ("\"abc\"", "5", "an object").
std::string previewJson(const nlohmann::json& value, std::size_t maxChars = 60);

/// Text as a JSON string literal (escaped, so messages stay on one line), shortened to about `maxBytes` first.
std::string quoteText(std::string_view text, std::size_t maxBytes = 60);

/// Cuts UTF-8 text to at most `maxBytes` without splitting a character, adding "…" when cut.
std::string truncateUtf8(std::string_view text, std::size_t maxBytes);

} // namespace structscope::schemadetail
