// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "schema/schemavalidator.h"
#include "schema/schemawalker.h"

#include <vector>

namespace structscope::schemadetail {

/// Keywords of every schema in the graph that draft-07 (and therefore the validator) silently ignores, though a
/// schema author expects them to act: later-draft and draft-03 keywords, OpenAPI's `nullable`, a foreign `$schema`.
/// Each error points at the keyword itself; the list is sorted by pointer.
std::vector<SchemaError> auditKeywords(const SchemaGraph& graph);

} // namespace structscope::schemadetail
