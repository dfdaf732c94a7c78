// SPDX-License-Identifier: Apache-2.0
#include "report/reportwriter.h"

#include <array>

namespace structscope {

using namespace Qt::StringLiterals;

namespace {

constexpr std::array<std::string_view, 4> kFormats = { "json", "md", "csv", "latex" };

} // namespace

std::span<const std::string_view> reportFormatNames()
{
    return kFormats;
}

ReportText writeReport(const Report& report, std::string_view format, const ReportWriteOptions& options)
{
    if (format == "json")
        return { writeReportJson(report), {} };
    if (format == "md")
        return { writeReportMarkdown(report), {} };
    if (format == "csv")
        return { writeReportCsv(report), {} };
    if (format == "latex")
        return { writeReportLatex(report, options.latexCaption), {} };

    QString names;
    for (const std::string_view name : kFormats)
        names += (names.isEmpty() ? u""_s : u", "_s)
            + QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    return { {},
        u"unknown report format \"%1\"; expected one of: %2"_s.arg(
            QString::fromUtf8(format.data(), static_cast<qsizetype>(format.size())), names) };
}

} // namespace structscope
