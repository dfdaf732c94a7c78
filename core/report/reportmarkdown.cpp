// SPDX-License-Identifier: Apache-2.0
#include "report/reportformatting.h"
#include "report/reportwriter.h"

#include <algorithm>
#include <cmath>

namespace structscope {

namespace {

constexpr int kDigits = 4;
constexpr std::string_view kUndefined = "n/a"; // computed but undefined (NaN); a missing metric is an empty cell

std::string shown(double value, bool plainValue)
{
    return std::isnan(value) ? std::string(kUndefined) : displayNumber(value, kDigits, plainValue);
}

std::string meanCell(const ReportGroup& group, const std::string& id, bool plainValue)
{
    const auto mean = group.mean.find(id);
    if (mean == group.mean.end())
        return {};
    std::string cell = shown(mean->second, plainValue);
    const auto ci = group.ci95.find(id);
    if (ci != group.ci95.end() && !(std::isnan(ci->second.low) && std::isnan(ci->second.high)))
        cell += " [" + shown(ci->second.low, plainValue) + ", " + shown(ci->second.high, plainValue) + ']';
    return cell;
}

// Characters as a reader counts them (code points), so that the raw table lines up in a terminal.
std::size_t displayWidth(std::string_view text)
{
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

} // namespace

std::string writeReportMarkdown(const Report& report)
{
    const ReportColumns columns = reportColumns(report);

    std::vector<std::vector<std::string>> rows; // header first
    std::vector<bool> rightAligned;
    std::vector<std::string> header;
    for (const std::string& name : columns.keys) {
        header.push_back(markdownCell(name));
        rightAligned.push_back(false);
    }
    header.emplace_back("n");
    rightAligned.push_back(true);
    if (columns.errored) {
        header.emplace_back("errored");
        rightAligned.push_back(true);
    }
    for (std::size_t m = 0; m < columns.metrics.size(); ++m) {
        header.push_back(markdownCell(columns.metrics[m]));
        rightAligned.push_back(true);
        if (columns.weighted[m]) {
            header.push_back(markdownCell(columns.metrics[m]) + " (weighted)");
            rightAligned.push_back(true);
        }
    }
    rows.push_back(std::move(header));

    for (const ReportGroup& group : report.groups) {
        std::vector<std::string> row;
        for (const std::string& name : columns.keys) {
            const std::string* value = groupKeyValue(group, name);
            row.push_back(value ? markdownCell(*value) : std::string());
        }
        row.push_back(std::to_string(group.n));
        if (columns.errored)
            row.push_back(erroredCell(group));
        for (std::size_t m = 0; m < columns.metrics.size(); ++m) {
            const std::string& id = columns.metrics[m];
            const bool plain = isPlainValueMetric(id);
            row.push_back(meanCell(group, id, plain));
            if (columns.weighted[m]) {
                const auto weighted = group.weightedMean.find(id);
                row.push_back(weighted == group.weightedMean.end() ? std::string() : shown(weighted->second, plain));
            }
        }
        rows.push_back(std::move(row));
    }

    std::vector<std::size_t> widths(rightAligned.size(), 3); // a separator cell needs at least "--:"
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], displayWidth(row[c]));

    std::string out;
    const auto appendRow = [&](const std::vector<std::string>& row) {
        out += '|';
        for (std::size_t c = 0; c < row.size(); ++c) {
            const std::string padding(widths[c] - displayWidth(row[c]), ' ');
            out += ' ';
            out += rightAligned[c] ? padding + row[c] : row[c] + padding;
            out += " |";
        }
        out += '\n';
    };
    appendRow(rows.front());
    out += '|';
    for (std::size_t c = 0; c < widths.size(); ++c)
        out += ' ' + (rightAligned[c] ? std::string(widths[c] - 1, '-') + ':' : std::string(widths[c], '-')) + " |";
    out += '\n';
    for (std::size_t r = 1; r < rows.size(); ++r)
        appendRow(rows[r]);
    return out;
}

} // namespace structscope
