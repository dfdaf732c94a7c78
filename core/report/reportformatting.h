// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/report.h"

#include <string>
#include <string_view>
#include <vector>

namespace structscope {

/// The columns every tabular report writer lays out, in order.
struct ReportColumns
{
    std::vector<std::string> keys; ///< groupBy, then key names some group has that groupBy lacks
    std::vector<std::string> metrics; ///< Report::metrics without repeats
    std::vector<bool> weighted; ///< per metric: some group has a weighted mean for it
    /// Some group has errored slots (ReportGroup::errored): the tables show them after n. JSON always does.
    bool errored = false;
};

/// A group's errored slots as a table shows them: count and share of its slots, "5 (6.3%)"; "0" for none.
std::string erroredCell(const ReportGroup& group);

/// The columns of a report (see ReportColumns).
ReportColumns reportColumns(const Report& report);

/// The value of the key named `name` in a group, or nullptr when the group has no such key.
const std::string* groupKeyValue(const ReportGroup& group, std::string_view name);

/// True when the metric is a plain statistic (latency, cost) rather than a share or mean in [0, 1].
bool isPlainValueMetric(std::string_view metricId);

/// Shortest text that reads back as the same double (std::to_chars); "" for NaN, "inf"/"-inf".
std::string shortestNumber(double value);

/// For display: `digits` fixed decimals for a value in [0, 1] unless `plainValue`, otherwise
/// `digits` significant digits in positional notation. "" for NaN, "inf"/"-inf".
std::string displayNumber(double value, int digits, bool plainValue);

/// One RFC 4180 field: quoted (quotes doubled) when it holds a comma, quote, CR or LF. A text that starts with
/// `=`, `+`, `-`, `@`, tab or CR gets a leading `'` so that a spreadsheet does not run it as a formula (OWASP's
/// advice on CSV injection), unless it is a plain decimal number such as "-0.5", which stays a number.
std::string csvField(std::string_view text);

/// Text for a Markdown table cell: backslash and pipe escaped, line breaks as spaces, and `<`, `>`, `&` as
/// HTML entities, so that no cell is taken for HTML.
std::string markdownCell(std::string_view text);

/// Text that LaTeX typesets literally: specials escaped, brackets braced (so a cell cannot be
/// taken for an optional argument of \\ or \midrule), control characters as spaces.
std::string latexText(std::string_view text);

} // namespace structscope
