// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/rows.h"

namespace structscope {

struct Suite;

/// The stored form of a suite: suite.json plus what re-scoring needs without the folder — every
/// named schema document under "schema_documents" and catalog.json under "catalog". Inline case
/// schemas go to the case's extra["schema"].
SuiteImport makeSuiteImport(const Suite& suite);

} // namespace structscope
