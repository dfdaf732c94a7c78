// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "schema/schemavalidator.h"
#include "store/rows.h"

#include <nlohmann/json.hpp>

#include <QString>

namespace structscope {

/// The schema a stored case's gold must match, found the way the scorer finds it: an inline schema in
/// the case's extra["schema"], else the named one (or the suite's "default_schema") in the stored
/// manifest's "schema_documents".
struct StoredCaseSchema
{
    const nlohmann::json* document = nullptr; ///< points into the case or the manifest; nullptr: none declared
    QString name; ///< the schema's name ("" for an inline schema)
    SchemaOptions options; ///< as the suite's options say (validate_formats)
    QString missing; ///< why there is no document, when a named schema is not stored ("" otherwise)
};

/// Resolves the schema of `c` in `manifest` (the stored suite.json). The result points into both arguments.
StoredCaseSchema storedCaseSchema(const nlohmann::json& manifest, const CaseRow& c);

} // namespace structscope
