// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/storeresult.h"

#include <nlohmann/json.hpp>

#include <QDateTime>
#include <QMetaType>
#include <QString>

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace structscope {

class ResultStore;

/// Where an annotator left a suspicious (case, path).
enum class TriageState { Open, GoldConfirmed, Fixed, Dismissed };

/// "open", "gold_confirmed", "fixed", "dismissed" (as stored in the audit log).
QString triageStateName(TriageState state);
/// Parses triageStateName(); nullopt for anything else.
std::optional<TriageState> triageStateFromName(const QString& name);

/// The triage state of one queue item, with who set it, when, and why.
struct TriageMark
{
    TriageState state = TriageState::Open;
    QString author; ///< empty while nobody has triaged the item
    QDateTime at;
    QString note; ///< the annotator's note, or the reason of the gold revision that fixed it
    qint64 auditId = 0; ///< the audit entry the state comes from (0: none)
    int goldRevision = -1; ///< the case's gold revision the mark was made on (-1: unknown)
    bool byGoldRevision = false; ///< Fixed because a gold revision changed the value at the path
};

/// A triage decision to record.
struct TriageRequest
{
    qint64 caseRow = 0;
    std::string path; ///< the item's dotted leaf path, as the queue reports it
    std::string pointer; ///< its exact JSON pointer (empty: derived from the path)
    TriageState state = TriageState::Open;
    QString author;
    QString note;
};

/// Appends an "audit.triage" entry (entity "case", entityId the case row, details {path, pointer, state,
/// note, gold_revision, gold}) recording the case's current gold revision and the gold value at the path,
/// so that a later change of that value can be told apart. Fails on an unknown case or an empty author.
StoreResult<TriageMark> setTriageState(ResultStore& store, const TriageRequest& request);

/// Every triage decision and gold change of a store, read once from the audit log; a value, so it can be
/// handed to another thread.
class TriageLog
{
public:
    /// Reads every audit entry of entity "case" (triage entries and gold revisions).
    static StoreResult<TriageLog> read(ResultStore& store);

    /// The state of an item. The latest triage entry for (case, path) counts while the gold value at the
    /// path is still the one it was made on; when the value has changed since (or, with no entry, differs
    /// from the original gold), the item is Fixed by the latest gold revision that changed it.
    TriageMark resolve(qint64 caseRow, const std::string& path, const std::string& pointer,
        const nlohmann::json& originalGold, const nlohmann::json& currentGold) const;

    /// The latest triage entry for (case, path) as recorded, if any.
    std::optional<TriageMark> recorded(qint64 caseRow, const std::string& path) const;

private:
    struct Recorded
    {
        TriageMark mark;
        bool goldKnown = false;
        std::optional<nlohmann::json> gold; ///< the value at the path when the mark was made
    };
    struct GoldChange
    {
        qint64 auditId = 0;
        QString author;
        QDateTime at;
        QString reason;
        int revision = -1;
        nlohmann::json before;
        nlohmann::json after;
    };
    std::map<std::pair<qint64, std::string>, Recorded> m_marks;
    std::unordered_map<qint64, std::vector<GoldChange>> m_goldChanges; ///< per case, oldest first
};

} // namespace structscope

Q_DECLARE_METATYPE(structscope::TriageMark)
