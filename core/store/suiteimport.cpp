// SPDX-License-Identifier: Apache-2.0
#include "store/suiteimport.h"

#include "suite/suite.h"

namespace structscope {

SuiteImport makeSuiteImport(const Suite& suite)
{
    SuiteImport out;
    out.id = suite.id;
    out.name = suite.name;
    out.version = suite.version;
    out.contentHash = QString::fromLatin1(suite.contentHash);
    out.manifest = suite.manifest.is_object() ? suite.manifest : nlohmann::json::object();
    nlohmann::json documents = nlohmann::json::object();
    for (const auto& [name, document] : suite.schemas)
        documents[name.toStdString()] = document;
    out.manifest["schema_documents"] = std::move(documents);
    if (!suite.catalog.is_null())
        out.manifest["catalog"] = suite.catalog;

    out.cases.reserve(suite.cases.size());
    for (const SuiteCase& c : suite.cases) {
        CaseImport ci;
        ci.id = c.id;
        ci.category = c.category;
        ci.tier = c.tier;
        ci.schemaName = c.schemaName;
        ci.input = c.input;
        ci.question = c.question;
        ci.extra = c.extra.is_object() ? c.extra : nlohmann::json::object();
        if (!c.inlineSchema.is_null())
            ci.extra["schema"] = c.inlineSchema;
        ci.gold = c.gold;
        out.cases.append(std::move(ci));
    }
    return out;
}

} // namespace structscope
