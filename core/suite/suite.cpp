// SPDX-License-Identifier: Apache-2.0
#include "suite/suite.h"

namespace structscope {

const nlohmann::json* Suite::schemaFor(const SuiteCase& c) const
{
    if (!c.inlineSchema.is_null())
        return &c.inlineSchema;
    const auto it = schemas.find(schemaNameFor(c));
    return it == schemas.end() ? nullptr : &it->second;
}

QString Suite::schemaNameFor(const SuiteCase& c) const
{
    if (!c.inlineSchema.is_null())
        return {};
    return c.schemaName.isEmpty() ? defaultSchema : c.schemaName;
}

const SuiteCase* Suite::findCase(const QString& caseId) const
{
    for (const SuiteCase& c : cases) {
        if (c.id == caseId)
            return &c;
    }
    return nullptr;
}

} // namespace structscope
