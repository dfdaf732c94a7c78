#pragma once

#include "suite/problem.h"
#include "suite/suite.h"

namespace structscope {

/// Pre-flight gold check (SchemaBench found 17 wrong gold values this way): every schema
/// compiles and is a valid draft-07 schema; every gold object validates against its case's
/// schema; the example pairs validate. Unsupported schema keywords are reported as well.
/// Returns every failure at once; empty means the suite is clean.
Problems preflightSuite(const Suite& suite);

} // namespace structscope
