// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/auditqueue.h"

#include <nlohmann/json.hpp>

namespace structscope {

/// The audit queue as one JSON document (what `structscope audit` prints):
/// {"options": {min_models, min_support, absent_equals_null},
///  "summary": {suites, cases, items, open},
///  "items": [{suite, suite_row, case, case_row, category, path, pointer, gold_revision, gold (absent when a
///             revision removed the path), original_gold, gold_changed, consensus, consensus_absent, support,
///             agreeing, answered, models (agreeing, sorted), answers: [{model, value (absent: no such path)}],
///             triage: {state, author, at (ISO 8601 UTC), note, gold_revision, by_gold_revision}}],
///  "uniform_failures": [{suite, category, models, min_rate, max_rate, rates: {model: rate}}],
///  "preflight": [{suite, problems: [{file, line, pointer, message, warning}]}]}
/// Never-triaged items have triage {"state": "open"} only.
nlohmann::json auditQueueToJson(const AuditQueue& queue, const AuditOptions& options);

} // namespace structscope
