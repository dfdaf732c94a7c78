// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/report.h"

#include <QString>

#include <span>
#include <string>
#include <string_view>

namespace structscope {

/// JSON report (UTF-8, 2-space indent, trailing newline). The contract other tools read:
/// {"gold", "group_by", "metrics", "groups": [{"key": {...}, "n", "mean": {...}, "weighted_mean": {...},
/// "ci95": {id: [low, high]}}]}. Members may be added in later versions; none will be renamed.
/// Key members follow the group-by order, metric members Report::metrics; doubles keep full
/// precision; NaN and infinities are null; a metric missing from a group's map is omitted there.
std::string writeReportJson(const Report& report);

/// GitHub-flavoured Markdown pipe table: key columns, n, then "mean [low, high]" per metric id
/// (plus "<id> (weighted)" where any group has a weighted mean). 4 decimals for values in [0, 1].
std::string writeReportMarkdown(const Report& report);

/// RFC 4180 CSV (CRLF line ends, header row): key columns, n, then per metric <id>,
/// <id>.weighted (where any group has one), <id>.ci_low, <id>.ci_high. Shortest round-trip numbers;
/// an empty field for a missing or NaN value.
std::string writeReportCsv(const Report& report);

/// booktabs tabular (needs \usepackage{booktabs}); the best value of each metric column in bold
/// (ties all bold). A non-empty caption wraps it in a table environment with \caption{caption},
/// the caption escaped like every other text.
std::string writeReportLatex(const Report& report, std::string_view caption = {});

/// Options for writeReport that only some formats use.
struct ReportWriteOptions
{
    std::string latexCaption; ///< empty: a bare tabular without a table environment
};

/// Output of writeReport: the text, or an error a person can act on.
struct ReportText
{
    std::string text;
    QString error;

    bool ok() const { return error.isEmpty(); }
};

/// The format names writeReport accepts: "json", "md", "csv", "latex".
std::span<const std::string_view> reportFormatNames();

/// The report in the named format (see reportFormatNames); an unknown name gives an error.
ReportText writeReport(const Report& report, std::string_view format, const ReportWriteOptions& options = {});

} // namespace structscope
