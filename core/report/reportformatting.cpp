// SPDX-License-Identifier: Apache-2.0
#include "report/reportformatting.h"

#include "scoring/metricregistry.h"
#include "json/textnorm.h"

#include <QString>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace structscope {

ReportColumns reportColumns(const Report& report)
{
    ReportColumns columns;
    const auto addKey = [&](const std::string& name) {
        if (std::find(columns.keys.begin(), columns.keys.end(), name) == columns.keys.end())
            columns.keys.push_back(name);
    };
    for (const std::string& name : report.groupBy)
        addKey(name);
    // A group keyed by something groupBy does not list would otherwise lose its identity in a table.
    for (const ReportGroup& group : report.groups)
        for (const auto& [name, value] : group.key)
            addKey(name);

    columns.errored
        = std::any_of(report.groups.begin(), report.groups.end(), [](const ReportGroup& g) { return g.errored > 0; });
    for (const std::string& id : report.metrics) {
        if (std::find(columns.metrics.begin(), columns.metrics.end(), id) != columns.metrics.end())
            continue;
        columns.metrics.push_back(id);
        columns.weighted.push_back(std::any_of(report.groups.begin(), report.groups.end(),
            [&](const ReportGroup& g) { return g.weightedMean.contains(id); }));
    }
    return columns;
}

const std::string* groupKeyValue(const ReportGroup& group, std::string_view name)
{
    const auto it = std::find_if(group.key.begin(), group.key.end(), [&](const auto& kv) { return kv.first == name; });
    return it == group.key.end() ? nullptr : &it->second;
}

bool isPlainValueMetric(std::string_view metricId)
{
    const MetricInfo* info = findMetric(metricId);
    return info && info->kind == MetricKind::Value;
}

namespace {

std::string toChars(double value, std::chars_format format, int precision)
{
    // Wide enough for any finite double in fixed notation with the decimals displayNumber asks for.
    std::array<char, 1024> buffer;
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, format, precision);
    if (result.ec != std::errc())
        return std::to_string(value);
    return std::string(buffer.data(), result.ptr);
}

} // namespace

std::string erroredCell(const ReportGroup& group)
{
    if (group.errored <= 0)
        return "0";
    return std::to_string(group.errored) + " (" + toChars(100.0 * group.erroredShare(), std::chars_format::fixed, 1)
        + "%)";
}

std::string shortestNumber(double value)
{
    if (std::isnan(value))
        return {};
    std::array<char, 64> buffer;
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return std::string(buffer.data(), result.ptr);
}

std::string displayNumber(double value, int digits, bool plainValue)
{
    if (std::isnan(value))
        return {};
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    if (value == 0)
        value = 0; // no "-0.0000"
    digits = std::clamp(digits, 1, 17);
    if (!plainValue && value >= 0 && value <= 1)
        return toChars(value, std::chars_format::fixed, digits);
    if (value == 0)
        return "0";
    // Significant digits without scientific notation: a latency of 1234.5 ms reads "1235", a cost
    // of 0.00041 USD "0.0004100" — fixed places would show it as 0.0004 or even 0.0000.
    const int integerDigits = static_cast<int>(std::floor(std::log10(std::fabs(value)))) + 1;
    return toChars(value, std::chars_format::fixed, std::max(0, digits - integerDigits));
}

namespace {

/// A plain decimal number ("-0.5", "+3", "1e-3"): a spreadsheet reads it as that number, never as a formula.
bool isPlainNumber(std::string_view text)
{
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '+' || text[i] == '-'))
        ++i;
    std::size_t digits = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9')
        ++i, ++digits;
    if (i < text.size() && text[i] == '.') {
        ++i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
            ++i, ++digits;
    }
    if (digits == 0)
        return false;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            ++i;
        std::size_t exponent = 0;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
            ++i, ++exponent;
        if (exponent == 0)
            return false;
    }
    return i == text.size();
}

} // namespace

std::string csvField(std::string_view text)
{
    std::string clean = replaceInvalidUtf8(text);
    // CSV injection (OWASP): a spreadsheet runs a cell that starts with = + - @ (or tab / CR before one) as a
    // formula. Such a cell gets a leading single quote, which spreadsheets show as text; plain numbers stay numbers.
    if (!clean.empty() && std::string_view("=+-@\t\r").find(clean.front()) != std::string_view::npos
        && !isPlainNumber(clean))
        clean.insert(clean.begin(), '\'');
    if (clean.find_first_of(",\"\r\n") == std::string::npos)
        return clean;
    std::string quoted = "\"";
    for (char c : clean) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    quoted += '"';
    return quoted;
}

std::string markdownCell(std::string_view text)
{
    const std::string clean = replaceInvalidUtf8(text);
    std::string out;
    out.reserve(clean.size());
    for (std::size_t i = 0; i < clean.size(); ++i) {
        const char c = clean[i];
        switch (c) {
        // GFM splits a row at every pipe not escaped by a backslash, so a literal backslash must be
        // escaped too, or "a\|b" would end its cell at the pipe.
        case '\\':
            out += "\\\\";
            break;
        case '|':
            out += "\\|";
            break;
        case '\r':
            if (i + 1 < clean.size() && clean[i + 1] == '\n')
                ++i;
            out += ' ';
            break;
        case '\n':
            out += ' ';
            break;
        // Markdown renderers pass raw HTML through: a cell is text, never markup.
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '&':
            out += "&amp;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string latexText(std::string_view text)
{
    const std::string clean = replaceInvalidUtf8(text);
    std::string out;
    out.reserve(clean.size());
    for (const char c : clean) {
        switch (c) {
        case '&':
        case '%':
        case '$':
        case '#':
        case '_':
        case '{':
        case '}':
            out += '\\';
            out += c;
            break;
        case '\\':
            out += "\\textbackslash{}";
            break;
        case '~':
            out += "\\textasciitilde{}";
            break;
        case '^':
            out += "\\textasciicircum{}";
            break;
        case '[':
            out += "{[}";
            break;
        case ']':
            out += "{]}";
            break;
        // In the default OT1 encoding these characters print as other glyphs (¡, ¿, —).
        case '<':
            out += "\\textless{}";
            break;
        case '>':
            out += "\\textgreater{}";
            break;
        case '|':
            out += "\\textbar{}";
            break;
        default:
            // A control character is an "invalid character" error in LaTeX; a line break inside a
            // cell would end the paragraph (and the table) — both become spaces.
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
                out += ' ';
            else
                out += c;
        }
    }
    return out;
}

} // namespace structscope
