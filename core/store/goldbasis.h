// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace structscope {

/// Which gold a case is measured against (docs/metrics.md §0, docs/architecture.md "Data flow"): a report, a read of
/// a suite's gold, an export.
enum class GoldBasis {
    Measured, ///< the gold the suite shipped with (revision 0): "as measured"
    Adjusted ///< the latest revision after audits: "adjusted"
};

} // namespace structscope
