// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "stats/intervals.h"

#include <QString>

#include <string_view>

namespace structscope {

// How the GUI writes metric values: the same digits everywhere (tables, tooltips, charts).

/// A metric value for display: 3 decimals for shares and means, significant digits with a unit for
/// latencies (ms) and costs (USD); "—" for a missing value.
QString formatMetricValue(std::string_view metricId, double value);
/// "[0.713, 0.901]", or "" for an invalid interval.
QString formatInterval(std::string_view metricId, const Interval& ci);
/// The metric's short label from the registry, or its id when unknown.
QString metricLabel(std::string_view metricId);
/// The metric's description for tooltips: label, id, definition and direction.
QString metricToolTip(std::string_view metricId);
/// A model name as every view shows it: simulated models are labelled as such.
QString displayModelName(const QString& model, bool simulated);
/// Errored slots beside `answers` answers, count and share: "errored = 0", "errored = 5 (6.3%)".
QString formatErrored(int answers, int errored);

} // namespace structscope
