// SPDX-License-Identifier: Apache-2.0
#include "audit/goldeditor.h"

#include "audit/goldpatch.h"
#include "audit/storedschema.h"
#include "store/resultstore.h"

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

GoldEditOutcome refused(GoldEditOutcome::Status status, const QString& message)
{
    GoldEditOutcome out;
    out.status = status;
    out.message = message;
    return out;
}

GoldEditOutcome fromStore(GoldEditResult result)
{
    GoldEditOutcome out;
    switch (result.outcome) {
    case GoldEditResult::Outcome::Added:
        out.status = GoldEditOutcome::Status::Added;
        out.added = std::move(result.added);
        return out;
    case GoldEditResult::Outcome::Conflict:
        out.status = GoldEditOutcome::Status::Conflict;
        out.theirs = std::move(result.theirs);
        out.mine = std::move(result.mine);
        break;
    case GoldEditResult::Outcome::Failed:
        out.status = GoldEditOutcome::Status::Failed;
        break;
    }
    out.message = result.error.message;
    return out;
}

} // namespace

std::vector<SchemaError> validateStoredGold(
    const json& manifest, const CaseRow& c, const json& gold, bool* schemaBroken)
{
    if (schemaBroken)
        *schemaBroken = false;
    const StoredCaseSchema schema = storedCaseSchema(manifest, c);
    const auto broken = [schemaBroken](std::string message) {
        if (schemaBroken)
            *schemaBroken = true;
        return std::vector<SchemaError> { { std::string(), std::move(message) } };
    };
    if (!schema.missing.isEmpty())
        return broken(schema.missing.toStdString());
    if (!schema.document)
        return {};
    std::string error;
    const CompiledSchemaPtr compiled = SchemaCache::compile(*schema.document, schema.options, &error);
    if (!compiled)
        return broken(error);
    return compiled->validate(gold);
}

GoldEditOutcome applyGoldEdit(ResultStore& store, const GoldEdit& edit)
{
    using Status = GoldEditOutcome::Status;
    if (edit.reason.trimmed().isEmpty())
        return refused(Status::Invalid, u"a gold edit needs a reason"_s);
    if (edit.author.trimmed().isEmpty())
        return refused(Status::Invalid, u"a gold edit needs an author"_s);
    if (edit.gold.is_discarded())
        return refused(Status::Invalid, u"the new gold is not valid JSON"_s);
    const auto c = store.caseRecord(edit.caseRow);
    if (!c)
        return refused(Status::Failed, c.errorMessage());
    const auto suite = store.suite(c->suiteRow);
    if (!suite)
        return refused(Status::Failed, suite.errorMessage());

    bool schemaBroken = false;
    std::vector<SchemaError> errors = validateStoredGold(suite->manifest, c.value(), edit.gold, &schemaBroken);
    if (schemaBroken)
        return refused(Status::Failed,
            u"cannot check the new gold of case %1: %2"_s.arg(c->id, QString::fromStdString(errors.front().message)));
    if (!errors.empty()) {
        GoldEditOutcome out = refused(Status::Invalid,
            u"the new gold of case %1 does not match its schema (%2 error(s)); nothing was stored"_s.arg(
                c->id, QString::number(errors.size())));
        out.schemaErrors = std::move(errors);
        return out;
    }
    return fromStore(store.addGoldRevision(edit.caseRow, edit.gold, edit.author, edit.reason, edit.basedOnRevision));
}

GoldEditOutcome applyLeafEdit(ResultStore& store, const LeafEdit& edit)
{
    using Status = GoldEditOutcome::Status;
    const auto revisions = store.goldRevisions(edit.caseRow);
    if (!revisions)
        return refused(Status::Failed, revisions.errorMessage());
    if (revisions->isEmpty())
        return refused(Status::Failed, u"case %1 has no gold"_s.arg(edit.caseRow));
    // Patch the revision the editor saw; addGoldRevision reports a conflict if it is no longer the latest.
    const GoldRevision* base = &revisions->constLast();
    for (const GoldRevision& r : revisions.value()) {
        if (r.revision == edit.basedOnRevision)
            base = &r;
    }
    GoldPatch patch = edit.insert ? withElementInserted(base->gold, edit.pointer, edit.value.value_or(json()))
                                  : withValueAt(base->gold, edit.pointer, edit.value);
    if (!patch.document) {
        GoldEditOutcome out = refused(Status::Invalid, QString::fromStdString(patch.error));
        out.schemaErrors.push_back({ edit.pointer, patch.error });
        return out;
    }
    return applyGoldEdit(
        store, { edit.caseRow, std::move(*patch.document), edit.author, edit.reason, edit.basedOnRevision });
}

GoldEditOutcome undoGoldRevision(
    ResultStore& store, qint64 caseRow, const QString& author, int basedOnRevision, const QString& note)
{
    using Status = GoldEditOutcome::Status;
    if (basedOnRevision < 1)
        return refused(Status::Invalid, u"revision 0 is the gold the suite shipped with; there is nothing to undo"_s);
    const auto revisions = store.goldRevisions(caseRow);
    if (!revisions)
        return refused(Status::Failed, revisions.errorMessage());
    const GoldRevision* undone = nullptr;
    const GoldRevision* restored = nullptr;
    for (const GoldRevision& r : revisions.value()) {
        if (r.revision == basedOnRevision)
            undone = &r;
        else if (r.revision == basedOnRevision - 1)
            restored = &r;
    }
    if (!undone || !restored)
        return refused(Status::Invalid, u"case %1 has no revision %2 to undo"_s.arg(caseRow).arg(basedOnRevision));
    QString reason = u"undo: revision %1 (%2)"_s.arg(QString::number(undone->revision), undone->reason);
    if (!note.trimmed().isEmpty())
        reason += u"; "_s + note.trimmed();
    return applyGoldEdit(store, { caseRow, restored->gold, author, reason, basedOnRevision });
}

} // namespace structscope
