// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "oracle.h"
#include "phrasing.h"

#include <string>
#include <vector>

// The hand-written templates of the ten categories. Each builds what a customer asks for (an
// OrderRequest) and says it in words; the gold answer is left to the oracle.

namespace structscope::orderbench {

/// A customer's request and the message that expresses it.
struct CaseDraft
{
    OrderRequest request;
    std::string input;
};

/// One category of the suite.
struct Category
{
    std::string id;
    std::string expectedStatus; ///< what the oracle must answer for every case of it
    std::vector<std::string> expectedReasons; ///< exact gold reasons of every case
    CaseDraft (*build)(Phrasing& phrasing, int index);
};

/// The ten categories, in suite order.
const std::vector<Category>& categories();

} // namespace structscope::orderbench
