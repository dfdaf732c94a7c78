// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "stats/intervals.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace structscope {

/// One group of a report: its key (e.g. model=gpt-x, strategy=P), size and metric values.
struct ReportGroup
{
    /// Of the group's slots, the share that errored: errored / (n + errored); 0 for a group of none.
    double erroredShare() const { return n + errored > 0 ? double(errored) / double(n + errored) : 0.0; }

    std::vector<std::pair<std::string, std::string>> key; ///< in the order of Report::groupBy
    int n = 0; ///< answers in the group: the denominator of its quality metrics
    int errored = 0; ///< errored slots of the group (docs/metrics.md, "Errored slots"), not in n nor in any metric
    std::map<std::string, double> mean; ///< metric id → unweighted mean (or micro value)
    std::map<std::string, double> weightedMean; ///< metric id → complexity-weighted mean, where defined
    std::map<std::string, Interval> ci95; ///< metric id → 95% interval, where defined
};

/// An aggregated report: what the `report` command prints and the GUI tables show.
struct Report
{
    std::vector<std::string> groupBy; ///< e.g. {"model"} or {"model", "category"}
    std::vector<std::string> metrics; ///< metric ids, in column order
    std::string gold = "measured"; ///< "measured" (original gold) or "adjusted" (current revision)
    std::vector<ReportGroup> groups;
};

} // namespace structscope
