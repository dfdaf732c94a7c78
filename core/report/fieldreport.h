// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/aggregator.h"
#include "scoring/fieldtally.h"

#include <string>
#include <string_view>
#include <vector>

namespace structscope {

/// The grouping key of the field dimension (docs/metrics.md, "Fields"): a report grouped by it has a group per
/// field of the gold (and per value of the other keys), with the field family's metrics only.
inline constexpr std::string_view kFieldGroupKey = "field";
/// The field dimension one level up: a group per top-level key of the gold (`items` for `items[].sku`), its fields'
/// tallies summed per response.
inline constexpr std::string_view kFieldRootGroupKey = "field_root";

/// The top-level key of a field path: up to its first '.' or "[]" (the whole path when it has neither).
std::string fieldRoot(std::string_view path);

/// Whether `groupBy` names the field dimension (field or field_root).
bool groupsByField(const std::vector<std::string>& groupBy);

/// The tallies of one field summed over responses.
struct FieldCounts
{
    qint64 responses = 0; ///< responses whose gold has the field
    qint64 elements = 0, correct = 0, lenient = 0, missing = 0, wrong = 0, invented = 0, typeError = 0;

    /// Adds `times` responses with this tally.
    void add(const FieldTally& t, std::uint64_t times = 1);
    /// The value of a field metric (field.accuracy, …, field.elements) of these counts; NaN with no element, or for
    /// an id that is none of them.
    double value(std::string_view metricId) const;
};

/// The field family's metric ids, in report order (the registry's).
const std::vector<std::string>& fieldMetricIds();

/// aggregate() for a grouping that names the field dimension: records are grouped by the other keys, and each
/// group's answers' field tallies (Verdict::fields) summed per field into a group of its own, keyed by every key of
/// `options.groupBy` in its order ("field" holding the path; "field_root" the top-level key, each response's tallies
/// of the fields under it summed into one first). n is the group's responses that have the field; each
/// metric is a share of the field's elements. Intervals (options.intervals): Wilson when each response has one
/// element of the field, else a percentile bootstrap resampling responses (options.bootstrap; the counts method over
/// responses' distinct tallies). Groups come sorted by their key; records without field tallies count in none.
/// `options.families` is not read: the metrics are the field family's.
Report aggregateFields(RecordsView records, const AggregateOptions& options);

/// Whether the verdict's response got some element of the field other than lenient-correct (missing, wrong or
/// invented). False for a field its gold does not have.
bool fieldWrong(const Verdict& verdict, FieldKey field);

} // namespace structscope
