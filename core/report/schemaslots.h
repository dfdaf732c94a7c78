// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "scoring/scorer.h"

#include <nlohmann/json.hpp>

#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace structscope {

/// A distinct schema document of a scoring pass, compiled by the first job that scores an answer against it (on the
/// pool); never when no answer needs it (every one has a kept verdict).
struct SchemaSlot
{
    const nlohmann::json* document = nullptr; ///< in a suite's manifest or a case's extra
    std::once_flag once;
    CompiledForScoring compiled;

    /// The document compiled with `options`, the first call (from any thread) compiling it.
    const CompiledForScoring& compile(const ScoringOptions& options)
    {
        std::call_once(once, [this, &options] { compiled = compileForScoring(*document, options); });
        return compiled;
    }
};

/// The schema documents of a pass's cases, one slot per distinct document: a named document (a suite's, or one an
/// import stored once for the cases that carry it) by its address, a document inline in a case (SOB imports of
/// earlier versions carry a copy per case) by its value. Filled on one thread before the jobs run; the slots stay
/// put.
class SchemaSlots
{
public:
    struct CaseSchema
    {
        const nlohmann::json* document = nullptr; ///< nullptr: the case has none that validates
        SchemaSlot* slot = nullptr;
    };

    /// A case's schema: an object or boolean inline in its extra["schema"], else the document `name` of `documents`
    /// (a manifest's schema_documents, or null), with its slot. The documents must outlive the slots.
    CaseSchema forCase(const nlohmann::json& extra, const std::string& name, const nlohmann::json* documents);
    /// A schema held apart from the cases (one a response was asked with): its slot, shared with every equal document
    /// (a case's included). Only an object or boolean validates; for anything else, no document and no slot, as for
    /// a case with no schema. The document must outlive the slots.
    CaseSchema forDocument(const nlohmann::json& document);

private:
    /// The slot of `document`, by address when `byAddress`, else (and the first time) by value.
    SchemaSlot* slotOf(const nlohmann::json* document, bool byAddress);

    std::deque<SchemaSlot> m_slots;
    std::unordered_map<const nlohmann::json*, SchemaSlot*> m_byAddress;
    std::unordered_multimap<std::size_t, SchemaSlot*> m_byValue;
};

} // namespace structscope
