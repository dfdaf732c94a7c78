// SPDX-License-Identifier: Apache-2.0
#include "report/sidebyside.h"

#include <map>

namespace structscope {

Report goldSideBySide(const Report& measured, const Report& adjusted)
{
    using Key = std::vector<std::pair<std::string, std::string>>;
    Report both;
    both.groupBy = measured.groupBy;
    both.groupBy.emplace_back("gold");
    both.metrics = measured.metrics;
    both.gold = "both";

    std::map<Key, const ReportGroup*> adjustedByKey;
    for (const ReportGroup& group : adjusted.groups)
        adjustedByKey.emplace(group.key, &group);

    auto tagged = [](const ReportGroup& group, const char* basis) {
        ReportGroup copy = group;
        copy.key.emplace_back("gold", basis);
        return copy;
    };
    for (const ReportGroup& group : measured.groups) {
        both.groups.push_back(tagged(group, "measured"));
        const auto it = adjustedByKey.find(group.key);
        if (it != adjustedByKey.end()) {
            both.groups.push_back(tagged(*it->second, "adjusted"));
            adjustedByKey.erase(it);
        }
    }
    // Groups only the adjusted gold has (cannot happen for one store, but the function takes any two).
    for (const ReportGroup& group : adjusted.groups) {
        if (adjustedByKey.contains(group.key))
            both.groups.push_back(tagged(group, "adjusted"));
    }
    return both;
}

} // namespace structscope
