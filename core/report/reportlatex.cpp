// SPDX-License-Identifier: Apache-2.0
#include "report/reportformatting.h"
#include "report/reportwriter.h"

#include "scoring/metricregistry.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

namespace structscope {

namespace {

constexpr int kDigits = 3;

std::string shown(double value, bool plainValue)
{
    if (std::isnan(value))
        return "--";
    if (std::isinf(value))
        return value > 0 ? "$\\infty$" : "$-\\infty$";
    return displayNumber(value, kDigits, plainValue);
}

// The value a reader sees: two means that print alike are a tie, and both are bold.
double asDisplayed(double value, bool plainValue)
{
    if (!std::isfinite(value))
        return value;
    const std::string text = displayNumber(value, kDigits, plainValue);
    double parsed = value;
    std::from_chars(text.data(), text.data() + text.size(), parsed);
    return parsed;
}

// One metric (or weighted-mean) column: the per-group value, where the group has one, and which is best.
struct ValueColumn
{
    std::vector<std::optional<double>> values;
    std::optional<double> best;
};

ValueColumn valueColumn(const Report& report, const std::map<std::string, double> ReportGroup::*member,
    const std::string& id, bool plainValue)
{
    const MetricInfo* info = findMetric(id);
    const bool higherIsBetter = info ? info->higherIsBetter : true;
    ValueColumn column;
    for (const ReportGroup& group : report.groups) {
        const auto& values = group.*member;
        const auto it = values.find(id);
        if (it == values.end()) {
            column.values.emplace_back();
            continue;
        }
        column.values.emplace_back(it->second);
        if (std::isnan(it->second))
            continue;
        const double v = asDisplayed(it->second, plainValue);
        if (!column.best || (higherIsBetter ? v > *column.best : v < *column.best))
            column.best = v;
    }
    return column;
}

std::string valueCell(const ValueColumn& column, std::size_t row, bool plainValue)
{
    const std::optional<double>& value = column.values[row];
    if (!value)
        return {};
    const std::string text = shown(*value, plainValue);
    const bool best = !std::isnan(*value) && column.best && asDisplayed(*value, plainValue) == *column.best;
    return best ? "\\textbf{" + text + '}' : text;
}

} // namespace

std::string writeReportLatex(const Report& report, std::string_view caption)
{
    const ReportColumns columns = reportColumns(report);

    std::vector<std::string> header;
    std::string spec;
    for (const std::string& name : columns.keys) {
        header.push_back(latexText(name));
        spec += 'l';
    }
    header.emplace_back("n");
    spec += 'r';
    if (columns.errored) {
        header.emplace_back("errored");
        spec += 'r';
    }

    std::vector<std::vector<std::string>> rows(report.groups.size());
    for (std::size_t r = 0; r < report.groups.size(); ++r) {
        for (const std::string& name : columns.keys) {
            const std::string* value = groupKeyValue(report.groups[r], name);
            rows[r].push_back(value ? latexText(*value) : std::string());
        }
        rows[r].push_back(std::to_string(report.groups[r].n));
        if (columns.errored)
            rows[r].push_back(latexText(erroredCell(report.groups[r])));
    }

    for (std::size_t m = 0; m < columns.metrics.size(); ++m) {
        const std::string& id = columns.metrics[m];
        const bool plain = isPlainValueMetric(id);
        header.push_back(latexText(id));
        spec += 'r';
        const ValueColumn means = valueColumn(report, &ReportGroup::mean, id, plain);
        for (std::size_t r = 0; r < rows.size(); ++r) {
            std::string cell = valueCell(means, r, plain);
            const ReportGroup& group = report.groups[r];
            const auto ci = group.ci95.find(id);
            if (means.values[r] && ci != group.ci95.end()
                && !(std::isnan(ci->second.low) && std::isnan(ci->second.high)))
                cell += " {\\scriptsize[" + shown(ci->second.low, plain) + ", " + shown(ci->second.high, plain) + "]}";
            rows[r].push_back(std::move(cell));
        }
        if (columns.weighted[m]) {
            header.push_back(latexText(id) + " (weighted)");
            spec += 'r';
            const ValueColumn weighted = valueColumn(report, &ReportGroup::weightedMean, id, plain);
            for (std::size_t r = 0; r < rows.size(); ++r)
                rows[r].push_back(valueCell(weighted, r, plain));
        }
    }

    std::string out;
    const auto appendRow = [&](const std::vector<std::string>& row) {
        for (std::size_t c = 0; c < row.size(); ++c) {
            if (c > 0)
                out += " & ";
            out += row[c];
        }
        out += " \\\\\n";
    };
    const bool inTable = !caption.empty();
    out += "% needs \\usepackage{booktabs}\n";
    if (inTable)
        out += "\\begin{table}\n\\centering\n\\caption{" + latexText(caption) + "}\n";
    out += "\\begin{tabular}{" + spec + "}\n\\toprule\n";
    appendRow(header);
    out += "\\midrule\n";
    for (const auto& row : rows)
        appendRow(row);
    out += "\\bottomrule\n\\end{tabular}\n";
    if (inTable)
        out += "\\end{table}\n";
    return out;
}

} // namespace structscope
