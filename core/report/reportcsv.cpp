// SPDX-License-Identifier: Apache-2.0
#include "report/reportformatting.h"
#include "report/reportwriter.h"

namespace structscope {

namespace {

void appendRow(std::string& out, const std::vector<std::string>& fields)
{
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i > 0)
            out += ',';
        out += fields[i];
    }
    out += "\r\n"; // RFC 4180 line end
}

} // namespace

std::string writeReportCsv(const Report& report)
{
    const ReportColumns columns = reportColumns(report);
    std::string out;

    std::vector<std::string> header;
    for (const std::string& name : columns.keys)
        header.push_back(csvField(name));
    header.emplace_back("n");
    if (columns.errored) {
        header.emplace_back("errored");
        header.emplace_back("errored_share");
    }
    for (std::size_t m = 0; m < columns.metrics.size(); ++m) {
        const std::string& id = columns.metrics[m];
        header.push_back(csvField(id));
        if (columns.weighted[m])
            header.push_back(csvField(id + ".weighted"));
        header.push_back(csvField(id + ".ci_low"));
        header.push_back(csvField(id + ".ci_high"));
    }
    appendRow(out, header);

    for (const ReportGroup& group : report.groups) {
        std::vector<std::string> row;
        for (const std::string& name : columns.keys) {
            const std::string* value = groupKeyValue(group, name);
            row.push_back(value ? csvField(*value) : std::string());
        }
        row.push_back(std::to_string(group.n));
        if (columns.errored) {
            row.push_back(std::to_string(group.errored));
            row.push_back(shortestNumber(group.erroredShare()));
        }
        for (std::size_t m = 0; m < columns.metrics.size(); ++m) {
            const std::string& id = columns.metrics[m];
            const auto mean = group.mean.find(id);
            row.push_back(mean == group.mean.end() ? std::string() : shortestNumber(mean->second));
            if (columns.weighted[m]) {
                const auto weighted = group.weightedMean.find(id);
                row.push_back(weighted == group.weightedMean.end() ? std::string() : shortestNumber(weighted->second));
            }
            const auto ci = group.ci95.find(id);
            row.push_back(ci == group.ci95.end() ? std::string() : shortestNumber(ci->second.low));
            row.push_back(ci == group.ci95.end() ? std::string() : shortestNumber(ci->second.high));
        }
        appendRow(out, row);
    }
    return out;
}

} // namespace structscope
