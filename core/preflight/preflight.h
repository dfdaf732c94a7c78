// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "suite/problem.h"
#include "suite/suite.h"
#include "suite/suiteloader.h"

namespace structscope {

/// Pre-flight gold check (SchemaBench found 17 wrong gold values this way): every schema
/// compiles and is a valid draft-07 schema; every gold object validates against its case's
/// schema; the example pairs validate. Unsupported schema keywords are reported as well.
/// Returns every failure at once; empty means the suite is clean.
Problems preflightSuite(const Suite& suite);

/// Everything wrong with a suite, as `structscope check` lists it: the problems of loading it, then the
/// pre-flight of all that did load (SuiteLoadResult::partial). A broken line of cases.jsonl or a broken file
/// hides nothing: every case that parsed is still checked in full — gold against its schema, unique ids,
/// declared categories and schemas — and so are the examples. When suite.json itself cannot be read, what
/// depends on it (declared categories and schemas) is not checked. Empty means the suite is clean.
Problems checkLoadedSuite(const SuiteLoadResult& loaded);

} // namespace structscope
