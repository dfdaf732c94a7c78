// SPDX-License-Identifier: Apache-2.0
#include "report/pairmatrixwriter.h"

#include "report/reportformatting.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

using ojson = nlohmann::ordered_json;

ojson number(double value)
{
    return std::isfinite(value) ? ojson(value) : ojson(nullptr);
}

std::string adjustLabel(PAdjustMethod method)
{
    return method == PAdjustMethod::Holm ? "Holm" : "Benjamini-Hochberg";
}

/// Points with one decimal and a sign ("+3.2", "-0.5", "0.0"); "" for NaN.
std::string pointsText(double points)
{
    if (std::isnan(points))
        return {};
    char buffer[32];
    const double rounded = std::round(points * 10.0) / 10.0;
    std::snprintf(buffer, sizeof buffer, rounded == 0.0 ? "%.1f" : "%+.1f", rounded == 0.0 ? 0.0 : rounded);
    return buffer;
}

/// A p value with 3 decimals, "< 0.001" below that; "" for NaN.
std::string pText(double p, std::string_view less = "< 0.001")
{
    if (std::isnan(p))
        return {};
    if (p < 0.001)
        return std::string(less);
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f", p);
    return buffer;
}

std::string meanText(double mean)
{
    return std::isnan(mean) ? std::string() : displayNumber(mean, 3, false);
}

std::string summaryLine(const PairMatrix& matrix)
{
    char alpha[32];
    std::snprintf(alpha, sizeof alpha, "%g", matrix.alpha);
    return "Metric " + matrix.metric + "; Δ = B − A in points with a paired bootstrap "
        + std::to_string(int(std::lround(matrix.bootstrap.confidence * 100))) + "% interval ("
        + std::to_string(matrix.bootstrap.resamples) + " resamples, seed " + std::to_string(matrix.bootstrap.seed)
        + "); p from the " + (matrix.rate ? "exact McNemar test" : "exact sign test (ties dropped)") + ", adjusted by "
        + adjustLabel(matrix.adjust) + " over " + std::to_string(matrix.tested)
        + " tested pair(s); significant: adjusted p ≤ " + alpha + ".";
}

} // namespace

std::string writePairMatrixJson(const PairMatrix& matrix)
{
    ojson root = ojson::object();
    root["metric"] = matrix.metric;
    root["test"] = matrix.rate ? "mcnemar-exact" : "sign-test-exact";
    root["adjust"] = std::string(pAdjustMethodName(matrix.adjust));
    root["alpha"] = matrix.alpha;
    root["by"] = matrix.by;
    root["bootstrap"] = ojson { { "resamples", matrix.bootstrap.resamples }, { "seed", matrix.bootstrap.seed },
        { "confidence", matrix.bootstrap.confidence } };
    root["tested"] = matrix.tested;
    ojson configurations = ojson::array();
    for (const PairConfiguration& c : matrix.configurations) {
        ojson key = ojson::object();
        for (const auto& [name, value] : c.key)
            key[name] = value;
        configurations.push_back(
            ojson { { "label", c.label() }, { "key", std::move(key) }, { "simulated", c.simulated } });
    }
    root["configurations"] = std::move(configurations);
    ojson pairs = ojson::array();
    for (const PairCell& cell : matrix.pairs) {
        const PairedComparison& s = cell.stats;
        ojson entry = ojson::object();
        entry["a"] = cell.a;
        entry["b"] = cell.b;
        entry["a_label"] = matrix.configurations[cell.a].label();
        entry["b_label"] = matrix.configurations[cell.b].label();
        entry["n"] = s.n;
        entry["only_a"] = cell.onlyA;
        entry["only_b"] = cell.onlyB;
        entry["mean_a"] = number(s.meanA);
        entry["mean_b"] = number(s.meanB);
        entry["delta_points"] = number(s.deltaPoints);
        entry["ci95_points"] = ojson::array({ number(s.deltaCiPoints.low), number(s.deltaCiPoints.high) });
        entry["a_better"] = s.b;
        entry["b_better"] = s.c;
        entry["p"] = number(cell.tested() ? s.pValue : std::nan(""));
        entry["p_adjusted"] = number(cell.adjustedP);
        entry["significant"] = cell.significant;
        pairs.push_back(std::move(entry));
    }
    root["pairs"] = std::move(pairs);
    return root.dump(2, ' ', false, ojson::error_handler_t::replace) + '\n';
}

std::string writePairMatrixMarkdown(const PairMatrix& matrix)
{
    const std::string adjusted = "p (" + adjustLabel(matrix.adjust) + ")";
    std::string text = markdownCell(summaryLine(matrix)) + "\n\n";
    text += "| A | B | n | A mean | B mean | Δ (B − A) | 95% CI | p | " + markdownCell(adjusted) + " | significant |\n";
    text += "|---|---|---:|---:|---:|---:|---|---:|---:|---|\n";
    for (const PairCell& cell : matrix.pairs) {
        const PairedComparison& s = cell.stats;
        const std::string delta = pointsText(s.deltaPoints);
        const std::string ci = std::isnan(s.deltaCiPoints.low)
            ? std::string()
            : "[" + pointsText(s.deltaCiPoints.low) + ", " + pointsText(s.deltaCiPoints.high) + "]";
        text += "| " + markdownCell(matrix.configurations[cell.a].label()) + " | "
            + markdownCell(matrix.configurations[cell.b].label()) + " | " + std::to_string(s.n) + " | "
            + meanText(s.meanA) + " | " + meanText(s.meanB) + " | "
            + (cell.significant && !delta.empty() ? "**" + delta + "**" : delta) + " | " + ci + " | "
            + markdownCell(pText(cell.tested() ? s.pValue : std::nan(""))) + " | " + markdownCell(pText(cell.adjustedP))
            + " | " + (cell.significant ? "yes" : (cell.tested() ? "no" : "not tested")) + " |\n";
    }
    return text;
}

std::string writePairMatrixCsv(const PairMatrix& matrix)
{
    std::string text = "metric,test,adjust,a,b,n,only_a,only_b,mean_a,mean_b,delta_points,ci_low_points,"
                       "ci_high_points,a_better,b_better,p,p_adjusted,significant\r\n";
    const std::string test = matrix.rate ? "mcnemar-exact" : "sign-test-exact";
    for (const PairCell& cell : matrix.pairs) {
        const PairedComparison& s = cell.stats;
        const std::vector<std::string> fields { matrix.metric, test, std::string(pAdjustMethodName(matrix.adjust)),
            matrix.configurations[cell.a].label(), matrix.configurations[cell.b].label(), std::to_string(s.n),
            std::to_string(cell.onlyA), std::to_string(cell.onlyB), shortestNumber(s.meanA), shortestNumber(s.meanB),
            shortestNumber(s.deltaPoints), shortestNumber(s.deltaCiPoints.low), shortestNumber(s.deltaCiPoints.high),
            std::to_string(s.b), std::to_string(s.c), shortestNumber(cell.tested() ? s.pValue : std::nan("")),
            shortestNumber(cell.adjustedP), cell.significant ? "true" : "false" };
        for (std::size_t i = 0; i < fields.size(); ++i)
            text += (i ? "," : "") + csvField(fields[i]);
        text += "\r\n";
    }
    return text;
}

std::string writePairMatrixLatex(const PairMatrix& matrix, std::string_view caption)
{
    std::string text = "% needs \\usepackage{booktabs}\n";
    if (!caption.empty())
        text += "\\begin{table}\n\\centering\n\\caption{" + latexText(caption) + "}\n";
    text += "\\begin{tabular}{llrrrrlrr}\n\\toprule\n";
    text += "A & B & $n$ & A mean & B mean & $\\Delta$ (B $-$ A) & 95\\% CI & $p$ & $p$ ("
        + latexText(adjustLabel(matrix.adjust)) + ") \\\\\n\\midrule\n";
    const auto dash = [](const std::string& s) { return s.empty() ? std::string("--") : s; };
    const auto math = [](const std::string& s) { return s.empty() ? std::string("--") : "$" + s + "$"; };
    for (const PairCell& cell : matrix.pairs) {
        const PairedComparison& s = cell.stats;
        std::string delta = math(pointsText(s.deltaPoints));
        if (cell.significant && !std::isnan(s.deltaPoints))
            delta = "\\textbf{" + delta + "}";
        const std::string ci = std::isnan(s.deltaCiPoints.low)
            ? std::string("--")
            : "$[" + pointsText(s.deltaCiPoints.low) + ", " + pointsText(s.deltaCiPoints.high) + "]$";
        text += latexText(matrix.configurations[cell.a].label()) + " & "
            + latexText(matrix.configurations[cell.b].label()) + " & " + std::to_string(s.n) + " & "
            + dash(meanText(s.meanA)) + " & " + dash(meanText(s.meanB)) + " & " + delta + " & " + ci + " & "
            + math(pText(cell.tested() ? s.pValue : std::nan(""), "< 0.001")) + " & "
            + math(pText(cell.adjustedP, "< 0.001")) + " \\\\\n";
    }
    text += "\\bottomrule\n\\end{tabular}\n";
    if (!caption.empty())
        text += "\\end{table}\n";
    return text;
}

ReportText writePairMatrix(const PairMatrix& matrix, std::string_view format, const ReportWriteOptions& options)
{
    if (format == "json")
        return { writePairMatrixJson(matrix), {} };
    if (format == "md")
        return { writePairMatrixMarkdown(matrix), {} };
    if (format == "csv")
        return { writePairMatrixCsv(matrix), {} };
    if (format == "latex")
        return { writePairMatrixLatex(matrix, options.latexCaption), {} };
    return writeReport(Report {}, format, options); // the same error for an unknown format
}

} // namespace structscope
