// SPDX-License-Identifier: Apache-2.0
#include "audit/storedschema.h"

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

StoredCaseSchema storedCaseSchema(const json& manifest, const CaseRow& c)
{
    StoredCaseSchema out;
    // As ScoringOptions::forManifest reads it (without parsing the contract rules for every case).
    if (const auto options = manifest.find("options"); options != manifest.end() && options->is_object()) {
        if (const auto formats = options->find("validate_formats"); formats != options->end() && formats->is_boolean())
            out.options.validateFormats = formats->get<bool>();
    }
    if (c.extra.is_object()) {
        if (const auto inlineSchema = c.extra.find("schema");
            inlineSchema != c.extra.end() && (inlineSchema->is_object() || inlineSchema->is_boolean())) {
            out.document = &*inlineSchema;
            return out;
        }
    }
    out.name = c.schemaName;
    if (out.name.isEmpty()) {
        if (const auto it = manifest.find("default_schema"); it != manifest.end() && it->is_string())
            out.name = QString::fromStdString(it->get<std::string>());
    }
    if (out.name.isEmpty())
        return out;
    const auto documents = manifest.find("schema_documents");
    if (documents != manifest.end() && documents->is_object()) {
        if (const auto doc = documents->find(out.name.toStdString()); doc != documents->end()) {
            out.document = &*doc;
            return out;
        }
    }
    out.missing = u"schema \"%1\" of case %2 is not stored with its suite"_s.arg(out.name, c.id);
    return out;
}

} // namespace structscope
