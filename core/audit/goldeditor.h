// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "schema/schemavalidator.h"
#include "store/rows.h"

#include <nlohmann/json.hpp>

#include <QMetaType>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace structscope {

class ResultStore;

/// A whole-gold edit of one case.
struct GoldEdit
{
    qint64 caseRow = 0;
    nlohmann::json gold;
    QString author;
    QString reason; ///< required, non-empty
    int basedOnRevision = 0; ///< the revision the editor started from (optimistic check)
};

/// Replaces (or, with value nullopt, removes) one place of a case's gold: "accept this value"; with insert, puts
/// value into an array before the element at pointer (or at its end): "accept this element".
struct LeafEdit
{
    qint64 caseRow = 0;
    std::string pointer; ///< RFC 6901 pointer into the gold (AuditItem::pointer)
    std::optional<nlohmann::json> value;
    QString author;
    QString reason;
    int basedOnRevision = 0;
    bool insert = false;
};

/// The outcome of a gold edit.
struct GoldEditOutcome
{
    enum class Status {
        Added, ///< stored as a new revision (which the audit log records)
        Conflict, ///< someone else wrote a revision after basedOnRevision; nothing was stored
        Invalid, ///< the edit is refused as it stands (schema errors, no reason, ...); nothing was stored
        Failed ///< the store could not be read or written
    };
    Status status = Status::Failed;
    GoldRevision added; ///< Added: the stored revision
    GoldRevision theirs; ///< Conflict: the latest stored revision
    GoldRevision mine; ///< Conflict: the refused edit (row 0)
    std::vector<SchemaError> schemaErrors; ///< Invalid: each with a pointer into the new gold
    QString message; ///< what happened, for a person (empty when Added)

    bool ok() const { return status == Status::Added; }
};

/// Checks a gold document against the schema of a stored case (see storedCaseSchema); empty means valid
/// or no schema declared. A schema that is missing or does not compile is reported with pointer "".
std::vector<SchemaError> validateStoredGold(
    const nlohmann::json& manifest, const CaseRow& c, const nlohmann::json& gold, bool* schemaBroken = nullptr);

/// Validates the new gold against the case's schema, then stores it with ResultStore::addGoldRevision.
GoldEditOutcome applyGoldEdit(ResultStore& store, const GoldEdit& edit);

/// Applies a LeafEdit on top of revision basedOnRevision (Conflict if that is no longer the latest).
GoldEditOutcome applyLeafEdit(ResultStore& store, const LeafEdit& edit);

/// Undoes the latest revision of a case with a new revision that restores the gold before it, with reason
/// "undo: revision N (<its reason>)" plus the optional note. basedOnRevision is the revision the caller
/// sees as latest (the one to undo); revision 0 cannot be undone.
GoldEditOutcome undoGoldRevision(
    ResultStore& store, qint64 caseRow, const QString& author, int basedOnRevision, const QString& note = {});

} // namespace structscope

Q_DECLARE_METATYPE(structscope::GoldEdit)
Q_DECLARE_METATYPE(structscope::GoldEditOutcome)
