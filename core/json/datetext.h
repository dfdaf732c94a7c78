// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string_view>

namespace structscope {

/// A calendar date read from text; a part the text does not give is 0.
struct TextDate
{
    int year = 0;
    int month = 0; ///< 1–12
    int day = 0; ///< 1–31, checked against the month (29 February in any year)
    bool operator==(const TextDate&) const = default;
};

/// Reads a text that is nothing but an English calendar date, the way letters, forms and models write one:
/// "1914-05-22" (ISO), or a month's name (or its three-letter abbreviation) with a day, a year or both, each in
/// digits ("22", "22nd", "1914") or in words ("twenty-second", "twentysecond", "Nineteen hundred and fourteen",
/// "nineteen fourteen"), in any order, with a weekday, "the", "of", "on", "day" and punctuation between them:
/// "May 22, 1914", "22 May 1914", "Friday, the 22nd of May 1914", "May twentysecond, Nineteen hundred and fourteen",
/// "May 1914". A day is 1–31 and a year 32 or more, so "May 5, 14" (which is which?) is no date.
/// Nullopt for anything else: other words, two months, a range, a day without a month, numeric forms other than ISO
/// ("05/06/2014" is ambiguous), an impossible day (April 31).
std::optional<TextDate> parseDateText(std::string_view text);

/// Whether a lower-case word is an English number word, cardinal or ordinal, or two run together: "three",
/// "twentieth", "hundred", "twentytwo" ("zero" and "million" too).
bool isNumberWord(std::string_view word);

} // namespace structscope
