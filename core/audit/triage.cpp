// SPDX-License-Identifier: Apache-2.0
#include "audit/triage.h"

#include "audit/goldpatch.h"
#include "store/resultstore.h"
#include "json/leafpaths.h"

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

const QString kTriageAction = u"audit.triage"_s;
const QString kGoldAction = u"gold.revise"_s;

std::string stringMember(const json& object, const char* key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

int intMember(const json& object, const char* key, int fallback)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_number_integer() ? it->get<int>() : fallback;
}

} // namespace

QString triageStateName(TriageState state)
{
    switch (state) {
    case TriageState::Open:
        return u"open"_s;
    case TriageState::GoldConfirmed:
        return u"gold_confirmed"_s;
    case TriageState::Fixed:
        return u"fixed"_s;
    case TriageState::Dismissed:
        return u"dismissed"_s;
    }
    return u"open"_s;
}

std::optional<TriageState> triageStateFromName(const QString& name)
{
    for (const TriageState state :
        { TriageState::Open, TriageState::GoldConfirmed, TriageState::Fixed, TriageState::Dismissed }) {
        if (name == triageStateName(state))
            return state;
    }
    return std::nullopt;
}

StoreResult<TriageMark> setTriageState(ResultStore& store, const TriageRequest& request)
{
    if (request.author.trimmed().isEmpty())
        return StoreError { StoreErrorKind::InvalidArgument, u"a triage decision needs an author"_s };
    const auto gold = store.currentGold(request.caseRow);
    if (!gold)
        return gold.error();
    const std::string pointer = request.pointer.empty() ? leafPathToPointer(request.path) : request.pointer;
    const std::optional<json> value = valueAtPointer(gold->gold, pointer);

    AuditEntry entry;
    entry.at = QDateTime::currentDateTimeUtc();
    entry.author = request.author;
    entry.action = kTriageAction;
    entry.entity = u"case"_s;
    entry.entityId = QString::number(request.caseRow);
    entry.details
        = { { "path", request.path }, { "pointer", pointer }, { "state", triageStateName(request.state).toStdString() },
              { "note", request.note.toStdString() }, { "gold_revision", gold->revision } };
    // "gold" absent means the path had no value; the key "gold_known" tells that apart from old entries.
    if (value)
        entry.details["gold"] = *value;
    entry.details["gold_known"] = true;
    const auto id = store.appendAudit(entry);
    if (!id)
        return id.error();

    TriageMark mark;
    mark.state = request.state;
    mark.author = request.author;
    mark.at = entry.at;
    mark.note = request.note;
    mark.auditId = id.value();
    mark.goldRevision = gold->revision;
    return mark;
}

StoreResult<TriageLog> TriageLog::read(ResultStore& store)
{
    AuditQuery query;
    query.entity = u"case"_s;
    const auto entries = store.auditLog(query);
    if (!entries)
        return entries.error();
    TriageLog log;
    for (const AuditEntry& entry : entries.value()) {
        bool isRow = false;
        const qint64 caseRow = entry.entityId.toLongLong(&isRow);
        if (!isRow || !entry.details.is_object())
            continue;
        const json& details = entry.details;
        if (entry.action == kTriageAction) {
            const auto state = triageStateFromName(QString::fromStdString(stringMember(details, "state")));
            if (!state)
                continue; // written by a newer or foreign client: not ours to interpret
            Recorded r;
            r.mark.state = *state;
            r.mark.author = entry.author;
            r.mark.at = entry.at;
            r.mark.note = QString::fromStdString(stringMember(details, "note"));
            r.mark.auditId = entry.id;
            r.mark.goldRevision = intMember(details, "gold_revision", -1);
            const auto known = details.find("gold_known");
            r.goldKnown = known != details.end() && *known == true;
            if (const auto gold = details.find("gold"); gold != details.end())
                r.gold = *gold;
            // Entries come oldest first, so the latest one stays.
            log.m_marks[{ caseRow, stringMember(details, "path") }] = std::move(r);
        } else if (entry.action == kGoldAction) {
            GoldChange change;
            change.auditId = entry.id;
            change.author = entry.author;
            change.at = entry.at;
            change.reason = QString::fromStdString(stringMember(details, "reason"));
            change.revision = intMember(details, "revision", -1);
            change.before = details.value("before", json());
            change.after = details.value("after", json());
            log.m_goldChanges[caseRow].push_back(std::move(change));
        }
    }
    return log;
}

std::optional<TriageMark> TriageLog::recorded(qint64 caseRow, const std::string& path) const
{
    const auto it = m_marks.find({ caseRow, path });
    if (it == m_marks.end())
        return std::nullopt;
    return it->second.mark;
}

TriageMark TriageLog::resolve(qint64 caseRow, const std::string& path, const std::string& pointer,
    const json& originalGold, const json& currentGold) const
{
    const auto markIt = m_marks.find({ caseRow, path });
    const Recorded* recordedMark = markIt != m_marks.end() ? &markIt->second : nullptr;
    if (recordedMark && !recordedMark->goldKnown)
        return recordedMark->mark;
    const std::optional<json> reference = recordedMark ? recordedMark->gold : valueAtPointer(originalGold, pointer);
    if (samePlaceValue(reference, valueAtPointer(currentGold, pointer)))
        return recordedMark ? recordedMark->mark : TriageMark {};

    TriageMark fixed;
    fixed.state = TriageState::Fixed;
    fixed.byGoldRevision = true;
    const auto changes = m_goldChanges.find(caseRow);
    if (changes == m_goldChanges.end())
        return fixed;
    const qint64 after = recordedMark ? recordedMark->mark.auditId : 0;
    for (auto it = changes->second.rbegin(); it != changes->second.rend() && it->auditId > after; ++it) {
        if (samePlaceValue(valueAtPointer(it->before, pointer), valueAtPointer(it->after, pointer)))
            continue;
        fixed.author = it->author;
        fixed.at = it->at;
        fixed.note = it->reason;
        fixed.auditId = it->auditId;
        fixed.goldRevision = it->revision;
        break;
    }
    return fixed;
}

} // namespace structscope
