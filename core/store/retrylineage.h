// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/rows.h"

#include <QHash>
#include <QList>
#include <QSet>

namespace structscope {

// Runner::retryErrors asks errored slots again in new runs whose settings carry "retry_of": <run id>,
// because a run stores at most one response per (case, repeat). A report then sees several responses
// for one slot; it should count, per (first run of the family, case, repeat), the latest successful
// response, else the latest one. These helpers say which.

/// For every run, the first run of its retry family (itself when it has no valid "retry_of").
QHash<qint64, qint64> retryRoots(const QList<RunRow>& runs);

/// The ids of responses a report should leave out because a later response of the same retry family
/// and slot supersedes them. Responses of runs not in `runs` are their own family.
QSet<qint64> supersededResponses(const QList<RunRow>& runs, const QList<ResponseRow>& responses);

} // namespace structscope
