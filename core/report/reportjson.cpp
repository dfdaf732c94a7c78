// SPDX-License-Identifier: Apache-2.0
#include "report/reportformatting.h"
#include "report/reportwriter.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace structscope {

namespace {

using ojson = nlohmann::ordered_json;

ojson number(double value)
{
    return std::isfinite(value) ? ojson(value) : ojson(nullptr);
}

} // namespace

std::string writeReportJson(const Report& report)
{
    const ReportColumns columns = reportColumns(report);

    // ordered_json keeps insertion order: key members in group-by order, metrics in column order.
    ojson root = ojson::object();
    root["gold"] = report.gold;
    root["group_by"] = columns.keys;
    root["metrics"] = columns.metrics;
    ojson groups = ojson::array();
    for (const ReportGroup& group : report.groups) {
        ojson key = ojson::object();
        for (const std::string& name : columns.keys)
            if (const std::string* value = groupKeyValue(group, name))
                key[name] = *value;

        ojson mean = ojson::object();
        ojson weighted = ojson::object();
        ojson ci = ojson::object();
        for (const std::string& id : columns.metrics) {
            if (const auto it = group.mean.find(id); it != group.mean.end())
                mean[id] = number(it->second);
            if (const auto it = group.weightedMean.find(id); it != group.weightedMean.end())
                weighted[id] = number(it->second);
            if (const auto it = group.ci95.find(id); it != group.ci95.end())
                ci[id] = ojson::array({ number(it->second.low), number(it->second.high) });
        }

        ojson entry = ojson::object();
        entry["key"] = std::move(key);
        entry["n"] = group.n;
        entry["errored"] = group.errored;
        entry["errored_share"] = group.erroredShare();
        entry["mean"] = std::move(mean);
        entry["weighted_mean"] = std::move(weighted);
        entry["ci95"] = std::move(ci);
        groups.push_back(std::move(entry));
    }
    root["groups"] = std::move(groups);

    // A key read from an imported file may hold invalid UTF-8; dump() would throw on it.
    return root.dump(2, ' ', false, ojson::error_handler_t::replace) + '\n';
}

} // namespace structscope
