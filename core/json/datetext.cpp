// SPDX-License-Identifier: Apache-2.0
#include "json/datetext.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace structscope {

namespace {

constexpr int kMaxNumber = 100000; // larger numbers are no part of a date

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isLetter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

/// The most days a month can have: 29 February is taken in any year.
int daysIn(int month)
{
    static constexpr std::array<int, 12> days { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    return days[std::size_t(month - 1)];
}

/// 1–12 for a month's name or its abbreviation, else 0.
int monthOf(const std::string& word)
{
    static constexpr std::array<std::string_view, 12> names { "january", "february", "march", "april", "may", "june",
        "july", "august", "september", "october", "november", "december" };
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (word == names[i] || (word.size() == 3 && names[i].substr(0, 3) == word))
            return int(i) + 1;
    }
    return word == "sept" ? 9 : 0;
}

bool isWeekday(const std::string& word)
{
    static constexpr std::array<std::string_view, 18> names { "monday", "tuesday", "wednesday", "thursday", "friday",
        "saturday", "sunday", "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun", "weds" };
    return std::find(names.begin(), names.end(), word) != names.end();
}

enum class Kind { None, Unit, Teen, Tens, Hundred, Thousand };

struct NumberWord
{
    Kind kind = Kind::None;
    int value = 0;
    bool ordinal = false;
};

/// One English number word ("twenty", "second", "hundredth"); kind None for any other word, "zero" included: no
/// date is written with it.
NumberWord numberWord(std::string_view word)
{
    struct Entry
    {
        std::string_view cardinal;
        std::string_view ordinal;
        int value;
    };
    static constexpr std::array<Entry, 29> table { {
        { "one", "first", 1 },
        { "two", "second", 2 },
        { "three", "third", 3 },
        { "four", "fourth", 4 },
        { "five", "fifth", 5 },
        { "six", "sixth", 6 },
        { "seven", "seventh", 7 },
        { "eight", "eighth", 8 },
        { "nine", "ninth", 9 },
        { "ten", "tenth", 10 },
        { "eleven", "eleventh", 11 },
        { "twelve", "twelfth", 12 },
        { "thirteen", "thirteenth", 13 },
        { "fourteen", "fourteenth", 14 },
        { "fifteen", "fifteenth", 15 },
        { "sixteen", "sixteenth", 16 },
        { "seventeen", "seventeenth", 17 },
        { "eighteen", "eighteenth", 18 },
        { "nineteen", "nineteenth", 19 },
        { "twenty", "twentieth", 20 },
        { "thirty", "thirtieth", 30 },
        { "forty", "fortieth", 40 },
        { "fifty", "fiftieth", 50 },
        { "sixty", "sixtieth", 60 },
        { "seventy", "seventieth", 70 },
        { "eighty", "eightieth", 80 },
        { "ninety", "ninetieth", 90 },
        { "hundred", "hundredth", 100 },
        { "thousand", "thousandth", 1000 },
    } };
    for (const Entry& e : table) {
        if (word != e.cardinal && word != e.ordinal)
            continue;
        NumberWord out;
        out.value = e.value;
        out.ordinal = word == e.ordinal;
        out.kind = e.value == 1000 ? Kind::Thousand
            : e.value == 100       ? Kind::Hundred
            : e.value >= 20        ? Kind::Tens
            : e.value >= 10        ? Kind::Teen
                                   : Kind::Unit;
        return out;
    }
    return {};
}

/// A word of one or two number words: "twenty", "twentysecond" (twenty + second). Empty when it is none.
std::vector<NumberWord> numberWords(std::string_view word)
{
    if (const NumberWord w = numberWord(word); w.kind != Kind::None)
        return { w };
    for (std::size_t cut = 5; cut + 3 <= word.size(); ++cut) {
        const NumberWord tens = numberWord(word.substr(0, cut));
        const NumberWord unit = numberWord(word.substr(cut));
        if (tens.kind == Kind::Tens && !tens.ordinal && unit.kind == Kind::Unit)
            return { tens, unit };
    }
    return {};
}

/// A number said in words, fed one word at a time: "nineteen hundred and fourteen", "twenty-two", and the way
/// years are said, "nineteen fourteen" and "twenty twenty-four" (two numbers below 100 in a row).
class WordNumber
{
public:
    bool empty() const { return m_last == Kind::None; }
    int value() const { return m_total + m_current; }

    bool feed(const NumberWord& w)
    {
        const bool afterMultiplier = m_last == Kind::None || m_last == Kind::Hundred || m_last == Kind::Thousand;
        switch (w.kind) {
        case Kind::Unit:
            if (afterMultiplier || m_last == Kind::Tens)
                m_current += w.value;
            else
                m_current = m_current * 100 + w.value;
            break;
        case Kind::Teen:
        case Kind::Tens:
            m_current = afterMultiplier ? m_current + w.value : m_current * 100 + w.value;
            break;
        case Kind::Hundred:
            if (m_last == Kind::Hundred)
                return false;
            m_current = (m_current == 0 ? 1 : m_current) * 100;
            break;
        case Kind::Thousand:
            if (m_last == Kind::Thousand)
                return false;
            m_total += (m_current == 0 ? 1 : m_current) * 1000;
            m_current = 0;
            break;
        case Kind::None:
            return false;
        }
        m_last = w.kind;
        return value() < kMaxNumber;
    }

private:
    int m_total = 0;
    int m_current = 0;
    Kind m_last = Kind::None;
};

struct Group
{
    int value = 0;
    bool ordinal = false; ///< "22nd", "second": a day
};

/// "1914-05-22": the whole text.
std::optional<TextDate> isoDate(std::string_view text)
{
    if (text.size() < 8 || text.size() > 10)
        return std::nullopt;
    int parts[3] = { 0, 0, 0 };
    int digits[3] = { 0, 0, 0 };
    int part = 0;
    for (char c : text) {
        if (c == '-') {
            if (++part > 2)
                return std::nullopt;
        } else if (isDigit(c)) {
            parts[part] = parts[part] * 10 + (c - '0');
            ++digits[part];
        } else {
            return std::nullopt;
        }
    }
    if (part != 2 || digits[0] != 4 || digits[1] < 1 || digits[1] > 2 || digits[2] < 1 || digits[2] > 2)
        return std::nullopt;
    TextDate date { parts[0], parts[1], parts[2] };
    if (date.month < 1 || date.month > 12 || date.day < 1 || date.day > daysIn(date.month))
        return std::nullopt;
    return date;
}

std::string_view trimmed(std::string_view text)
{
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && space(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && space(text.back()))
        text.remove_suffix(1);
    return text;
}

} // namespace

std::optional<TextDate> parseDateText(std::string_view text)
{
    text = trimmed(text);
    if (text.empty() || text.size() > 120)
        return std::nullopt;
    if (isDigit(text.front()) && text.find('-') != std::string_view::npos)
        return isoDate(text);

    int month = 0;
    std::vector<Group> groups;
    WordNumber run;
    bool runOrdinal = false;
    const auto endRun = [&] {
        if (!run.empty())
            groups.push_back({ run.value(), runOrdinal });
        run = {};
        runOrdinal = false;
    };

    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (isDigit(c)) {
            endRun();
            std::size_t end = i;
            int value = 0;
            while (end < text.size() && isDigit(text[end])) {
                value = value * 10 + (text[end] - '0');
                if (value >= kMaxNumber)
                    return std::nullopt;
                ++end;
            }
            std::string suffix;
            while (end < text.size() && isLetter(text[end]))
                suffix += lower(text[end++]);
            const bool ordinal = suffix == "st" || suffix == "nd" || suffix == "rd" || suffix == "th";
            if (!suffix.empty() && !ordinal)
                return std::nullopt;
            groups.push_back({ value, ordinal });
            i = end;
        } else if (isLetter(c)) {
            std::size_t end = i;
            std::string word;
            while (end < text.size() && isLetter(text[end]))
                word += lower(text[end++]);
            i = end;
            if (const int m = monthOf(word)) {
                endRun();
                if (month != 0)
                    return std::nullopt;
                month = m;
            } else if (isWeekday(word) || word == "the" || word == "of" || word == "on" || word == "day") {
                endRun();
            } else if (word == "and") {
                // inside a number ("hundred and fourteen") or between a day and a year: nothing to do
            } else {
                const std::vector<NumberWord> parts = numberWords(word);
                if (parts.empty())
                    return std::nullopt;
                for (const NumberWord& part : parts) {
                    if (!run.feed(part))
                        return std::nullopt;
                    if (part.ordinal) {
                        runOrdinal = true;
                        endRun();
                    }
                }
            }
        } else if (c == '-') {
            // Joins number words ("twenty-second"); anything else with a hyphen is a range or a numeric date.
            if (i == 0 || i + 1 >= text.size() || !isLetter(text[i - 1]) || !isLetter(text[i + 1]))
                return std::nullopt;
            ++i;
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            ++i;
        } else if (c == ',' || c == '.' || c == '(' || c == ')' || c == ';') {
            endRun();
            ++i;
        } else {
            return std::nullopt;
        }
    }
    endRun();

    if (month == 0 || groups.empty() || groups.size() > 2)
        return std::nullopt;
    TextDate date;
    date.month = month;
    for (const Group& g : groups) {
        if (g.value >= 1 && g.value <= 31) {
            if (date.day != 0)
                return std::nullopt;
            date.day = g.value;
        } else if (g.value >= 32 && !g.ordinal) {
            if (date.year != 0)
                return std::nullopt;
            date.year = g.value;
        } else {
            return std::nullopt;
        }
    }
    if (date.day > daysIn(date.month))
        return std::nullopt;
    return date;
}

bool isNumberWord(std::string_view word)
{
    return !numberWords(word).empty() || word == "zero" || word == "zeroth" || word == "million" || word == "millionth"
        || word == "billion" || word == "billionth";
}

} // namespace structscope
