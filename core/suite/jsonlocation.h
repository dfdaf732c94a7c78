// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <QString>

#include <string_view>

namespace structscope {

/// 1-based line and column (in bytes) of a place in a text document.
struct JsonLocation
{
    int line = 0;
    int column = 0;
};

/// Parses one JSON document of a hand-written file (suite.json, a cases.jsonl line, a schema) and,
/// on failure, says where: line, column and a readable message. Nesting deeper than `maxDepth`
/// is refused without recursion.
bool parseLocated(std::string_view text, nlohmann::json& out, QString& error, JsonLocation& where, int maxDepth = 256);

/// Escapes one JSON pointer reference token (RFC 6901: "~" → "~0", "/" → "~1").
QString pointerToken(const QString& token);

} // namespace structscope
