// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/report.h"

namespace structscope {

/// Both gold bases in one table: every group of `measured` followed by the same group of `adjusted`,
/// told apart by a last key column "gold" ("measured", "adjusted"). Groups present in only one report
/// keep their place; both reports must share groupBy and metrics (the columns of `measured` are kept).
/// The result's `gold` is "both".
Report goldSideBySide(const Report& measured, const Report& adjusted);

} // namespace structscope
