// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/pairmatrix.h"
#include "report/reportwriter.h"

#include <string>
#include <string_view>

namespace structscope {

/// The pairs of a matrix as JSON (UTF-8, 2-space indent, trailing newline): {"metric", "test", "adjust" ("holm" or
/// "bh"), "alpha", "by", "bootstrap": {"resamples", "seed", "confidence"}, "tested", "configurations": [{"label",
/// "key": {...}, "simulated"}], "pairs": [{"a", "b" (indices into configurations), "a_label", "b_label", "n",
/// "only_a", "only_b", "mean_a", "mean_b", "delta_points", "ci95_points": [low, high], "a_better", "b_better", "p",
/// "p_adjusted", "significant"}]}. Δ is B − A in points; NaN is null.
std::string writePairMatrixJson(const PairMatrix& matrix);

/// A line naming the metric, test, correction and α, then a GitHub-flavoured Markdown table with one row per pair:
/// A, B, n, both means, Δ (B − A) in points with its 95% interval, the p value, the adjusted p and whether the pair
/// is significant after correction (its Δ in bold).
std::string writePairMatrixMarkdown(const PairMatrix& matrix);

/// RFC 4180 CSV (CRLF line ends, header row), one row per pair: metric, test, adjust, a, b, n, only_a, only_b,
/// mean_a, mean_b, delta_points, ci_low_points, ci_high_points, a_better, b_better, p, p_adjusted, significant
/// (true/false). Shortest round-trip numbers; an empty field for NaN.
std::string writePairMatrixCsv(const PairMatrix& matrix);

/// booktabs tabular, one row per pair (needs \usepackage{booktabs}); Δ of the pairs significant after correction
/// in bold. A non-empty caption wraps it in a table environment.
std::string writePairMatrixLatex(const PairMatrix& matrix, std::string_view caption = {});

/// The pairs in one of reportFormatNames(); an unknown name gives an error.
ReportText writePairMatrix(const PairMatrix& matrix, std::string_view format, const ReportWriteOptions& options = {});

} // namespace structscope
