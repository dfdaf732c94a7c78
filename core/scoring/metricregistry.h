// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include <span>
#include <string_view>

namespace structscope {

/// How a metric aggregates over records, which decides its interval.
enum class MetricKind {
    Rate, ///< share of records (0/1 per record): Wilson interval
    Mean, ///< mean of a per-record value in [0, 1]: bootstrap interval
    Micro, ///< computed from summed counts over a group (e.g. F1 micro): bootstrap over records
    Value ///< a plain statistic of the group (latency percentile, cost per success): no interval
};

/// One metric of docs/metrics.md: stable id, family, what it means (shown as a tooltip) and its direction.
struct MetricInfo
{
    std::string_view id; ///< "family.name", as in reports and the CLI's JSON
    std::string_view family;
    std::string_view label; ///< short column title
    std::string_view
        description; ///< one or two sentences: the definition and the choice made where the source is silent
    MetricKind kind;
    bool higherIsBetter;
};

/// Every metric StructScope computes, in report order.
std::span<const MetricInfo> allMetrics();

/// The metric with this id, or nullptr.
const MetricInfo* findMetric(std::string_view id);

/// Metrics of one family ("ladder", "extraction", "grounding", "contract"), in report order.
std::span<const MetricInfo> familyMetrics(std::string_view family);

} // namespace structscope
