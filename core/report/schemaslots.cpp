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
    if (!out.document)
        return out;
    if (named) {
        if (const auto known = m_byAddress.find(out.document); known != m_byAddress.end()) {
            out.slot = known->second;
            return out;
        }
    }
    const std::size_t key = std::hash<json> {}(*out.document);
    for (auto [at, end] = m_byValue.equal_range(key); at != end && !out.slot; ++at) {
        if (canonicalJsonEquals(*at->second->document, *out.document))
            out.slot = at->second;
    }
    if (!out.slot) {
        out.slot = &m_slots.emplace_back();
        out.slot->document = out.document;
        m_byValue.emplace(key, out.slot);
    }
    if (named)
        m_byAddress.emplace(out.document, out.slot);
    return out;
}

} // namespace structscope
