// SPDX-License-Identifier: Apache-2.0
#pragma once

// The hand-computed verdicts of tst_sim's fault-detection rows: one injected fault per row on a case
// of a built-in suite, and what each metric family must (and must not) say about it.

#include "scoring/ladder.h"
#include "sim/simfaults.h"
#include "json/jsondiff.h"
#include "json/parseladder.h"

#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace structscope::simtest {

using namespace Qt::StringLiterals;

struct Counts
{
    int mk = 0, mv = 0, dev = 0, val = 0, coe = 0, type = 0, extra = 0, invented = 0;
    bool operator==(const Counts&) const = default;
};

inline Counts countsOf(const DiffCounts& d)
{
    return { d.mk, d.mv, d.wvDeviation, d.wvValue, d.wvCoercible, d.wvType, d.extra, d.invented };
}

inline QString describe(const Counts& c)
{
    return u"mk=%1 mv=%2 dev=%3 val=%4 coe=%5 type=%6 extra=%7 invented=%8"_s.arg(c.mk)
        .arg(c.mv)
        .arg(c.dev)
        .arg(c.val)
        .arg(c.coe)
        .arg(c.type)
        .arg(c.extra)
        .arg(c.invented);
}

/// One injected fault and every verdict it must (and must not) produce, computed by hand.
struct FaultRow
{
    const char* name;
    QString suiteId;
    QString caseId;
    FaultKind kind;
    std::string site; ///< pointer for document faults; ignored for text faults
    bool withSchema;
    ParseRung rung;
    LadderLabel ladder;
    Counts lenient; ///< lenient diff counts (not checked when the response fails to parse)
    QStringList contractLabels; ///< taxonomy labels that must fire, and no other (contract suites)
    bool unsafe = false;
    double valueAccuracy = -1; ///< grounding.value_accuracy (grounded rows), -1: not a grounding row
};

inline const std::vector<FaultRow>& faultRows()
{
    const QString email = u"email-extraction"_s;
    const QString tiers = u"schema-tiers"_s;
    const QString grounded = u"grounded"_s;
    const QString order = u"orderbench"_s;
    using P = ParseRung;
    using L = LadderLabel;
    static const std::vector<FaultRow> rows {
        { "code_fence", email, u"st-001"_s, FaultKind::CodeFence, "", true, P::Fenced, L::Correct, {}, {} },
        { "prose", email, u"st-001"_s, FaultKind::Prose, "", true, P::Extracted, L::Correct, {}, {} },
        { "truncate", email, u"st-001"_s, FaultKind::Truncate, "", true, P::Failed, L::InvalidJson, {}, {} },
        // Every key of the built-in schemas is required: a dropped key is caught by the schema first.
        { "drop_key required", email, u"st-001"_s, FaultKind::DropKey, "/priority", true, P::Clean, L::SchemaViolation,
            { 1, 1, 0, 0, 0, 0, 0, 0 }, {} },
        { "drop_key no schema", email, u"st-001"_s, FaultKind::DropKey, "/priority", false, P::Clean, L::ValueIncorrect,
            { 1, 1, 0, 0, 0, 0, 0, 0 }, {} },
        { "omit_value", email, u"st-001"_s, FaultKind::OmitValue, "/asset_tag", true, P::Clean, L::ValueIncorrect,
            { 0, 1, 0, 0, 0, 0, 0, 0 }, {} },
        { "wrong_value enum", email, u"st-001"_s, FaultKind::WrongValue, "/category", true, P::Clean, L::ValueIncorrect,
            { 0, 0, 1, 0, 0, 0, 0, 0 }, {} },
        { "wrong_value number", tiers, u"st-001"_s, FaultKind::WrongValue, "/total_amount", true, P::Clean,
            L::ValueIncorrect, { 0, 0, 0, 1, 0, 0, 0, 0 }, {} },
        { "near_miss", email, u"st-001"_s, FaultKind::NearMiss, "/requester/name", true, P::Clean, L::ValueIncorrect,
            { 0, 0, 1, 0, 0, 0, 0, 0 }, {} },
        { "coercion", tiers, u"st-001"_s, FaultKind::Coercion, "/total_amount", true, P::Clean, L::SchemaViolation,
            { 0, 0, 0, 0, 1, 0, 0, 0 }, {} },
        { "coercion no schema", tiers, u"st-001"_s, FaultKind::Coercion, "/total_amount", false, P::Clean,
            L::ValueIncorrect, { 0, 0, 0, 0, 1, 0, 0, 0 }, {} },
        { "invent_value", email, u"st-002"_s, FaultKind::InventValue, "/asset_tag", true, P::Clean,
            L::HallucinatedOnMissing, { 0, 0, 0, 0, 0, 1, 0, 1 }, {} },
        { "extra_key", email, u"st-001"_s, FaultKind::ExtraKey, "", true, P::Clean, L::SchemaViolation,
            { 0, 0, 0, 0, 0, 0, 1, 1 }, {} },
        { "extra_key no schema", email, u"st-001"_s, FaultKind::ExtraKey, "", false, P::Clean, L::HallucinatedOnMissing,
            { 0, 0, 0, 0, 0, 0, 1, 1 }, {} },
        // "medium" → "Medium": leniently the same value, so only the schema sees it.
        { "wrong_enum", email, u"st-001"_s, FaultKind::WrongEnum, "/priority", true, P::Clean, L::SchemaViolation, {},
            {} },
        { "wrong_type", email, u"st-001"_s, FaultKind::WrongType, "/requester/name", true, P::Clean, L::SchemaViolation,
            { 0, 0, 0, 0, 0, 1, 0, 0 }, {} },
        // Accepting the order the customer asked for (a milkshake and two burgers) despite the allergy.
        { "unsafe_flip", order, u"allergen_conflict-01"_s, FaultKind::UnsafeFlip, "/status", true, P::Clean,
            L::HallucinatedOnMissing, { 0, 0, 1, 0, 0, 0, 12, 5 }, { u"safety_failure"_s }, true },
        // Asking back is safe but wrong; the question itself stands where gold has null.
        { "over_refusal", order, u"simple_exact-01"_s, FaultKind::OverRefusal, "/status", true, P::Clean,
            L::HallucinatedOnMissing, { 6, 3, 1, 0, 0, 1, 0, 1 }, {} },
        { "catalog_invention", order, u"simple_exact-01"_s, FaultKind::CatalogInvention, "/items/0", true, P::Clean,
            L::ValueIncorrect, { 0, 0, 1, 0, 0, 0, 0, 0 }, { u"catalog_hallucination"_s } },
        { "wrong_quantity", order, u"simple_exact-01"_s, FaultKind::WrongQuantity, "/items/0", true, P::Clean,
            L::ValueIncorrect, { 0, 0, 0, 1, 0, 0, 0, 0 }, { u"quantity_size"_s } },
        { "code_fence grounded", grounded, u"gr-001"_s, FaultKind::CodeFence, "", true, P::Fenced, L::Correct, {}, {},
            false, 1.0 },
        { "near_miss grounded", grounded, u"gr-001"_s, FaultKind::NearMiss, "/acquiring_company", true, P::Clean,
            L::ValueIncorrect, { 0, 0, 1, 0, 0, 0, 0, 0 }, {}, false, 0.8 },
        { "invent_value grounded", grounded, u"gr-001"_s, FaultKind::InventValue, "/purchase_price", true, P::Clean,
            L::HallucinatedOnMissing, { 0, 0, 0, 0, 0, 1, 0, 1 }, {}, false, 0.8 },
    };
    return rows;
}

} // namespace structscope::simtest
