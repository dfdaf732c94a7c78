// SPDX-License-Identifier: Apache-2.0
#include "report/schemaslots.h"

#include "scoring/pyformat.h"

namespace structscope {

using nlohmann::json;

SchemaSlots::CaseSchema SchemaSlots::forCase(const json& extra, const std::string& name, const json* documents)
{
    CaseSchema out;
    bool named = false;
    if (const auto inlineSchema = extra.find("schema");
        inlineSchema != extra.end() && (inlineSchema->is_object() || inlineSchema->is_boolean())) {
        out.document = &*inlineSchema;
    } else if (documents) {
        if (const auto document = documents->find(name); document != documents->end()) {
            out.document = &*document;
            named = true;
        }
    }
    if (out.document)
        out.slot = slotOf(out.document, named);
    return out;
}

SchemaSlots::CaseSchema SchemaSlots::forDocument(const json& document)
{
    if (!document.is_object() && !document.is_boolean())
        return {};
    return { &document, slotOf(&document, true) };
}

SchemaSlot* SchemaSlots::slotOf(const json* document, bool byAddress)
{
    if (byAddress) {
        if (const auto known = m_byAddress.find(document); known != m_byAddress.end())
            return known->second;
    }
    SchemaSlot* slot = nullptr;
    const std::size_t key = std::hash<json> {}(*document);
    for (auto [at, end] = m_byValue.equal_range(key); at != end && !slot; ++at) {
        if (canonicalJsonEquals(*at->second->document, *document))
            slot = at->second;
    }
    if (!slot) {
        slot = &m_slots.emplace_back();
        slot->document = document;
        m_byValue.emplace(key, slot);
    }
    if (byAddress)
        m_byAddress.emplace(document, slot);
    return slot;
}

} // namespace structscope
