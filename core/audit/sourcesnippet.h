// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <QString>

namespace structscope {

/// Where a value shows in a case's source text (its input), with the text around it.
struct SourceSnippet
{
    bool found = false;
    qsizetype offset = -1; ///< where the match starts in the source (UTF-16 units), -1 when not found
    qsizetype length = 0;
    QString text; ///< the source around the match, the match in «»; empty when not found
};

/// Looks for `value` in `source`: a string case-insensitively with any run of spaces, punctuation or line
/// breaks between its words (only its first 12 words when it is longer); a number as a whole number, with or
/// without thousands separators and with any trailing zeros of its fraction (294 is not found in 2945, 472.8 is
/// in 472.80); an object or array by the longest of its leaves
/// that is found (numbers and strings of at least three characters). Null and booleans are never found.
/// `context` characters are kept on each side of the match (line breaks shown as spaces).
SourceSnippet findInSource(const QString& source, const nlohmann::json& value, int context = 70);

/// Share of the value's words (SOB's token F1 tokens: lower-cased word runs, articles dropped; every leaf of an
/// object or array) that occur anywhere in `source`; 1 for a value without words (null, "").
double sourceCoverage(const QString& source, const nlohmann::json& value);

/// Share of the value's words (as sourceCoverage counts them) that occur among the words of `within`'s leaves;
/// 1 for a value without words.
double valueCoverage(const nlohmann::json& within, const nlohmann::json& value);

/// How the source backs a value: 2 when findInSource() finds it; 1 when it has at least four words and 90% of
/// them occur in the source (text put together from the source's words); else 0.
int sourceSupport(const QString& source, const nlohmann::json& value);

} // namespace structscope
