// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/groupkey.h"
#include "audit/auditqueue.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace structscope {

using AuditQueuePtr = std::shared_ptr<const AuditQueue>;

/// The suspicious-gold queue, one row per finding (case, place): its kind, the gold there, the value (or element)
/// a consensus of models gives instead, its support and the models behind it, and the triage state with who set
/// it and when. Rows come in the queue's order, gathered by case and array (the Group column names the group). Holds
/// the queue (a shared value); triage decisions made since it was built are patched in with setTriage() so the list
/// need not be rebuilt after each click.
class AuditQueueModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Suite,
        Case,
        Kind,
        Group,
        Category,
        Path,
        Gold,
        Consensus,
        Support,
        Agreement,
        Models,
        Triage,
        By,
        When,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole, ///< the raw value
        GroupKeyRole, ///< {suite, case}: the drill-down to the case's answers
        TriageStateRole, ///< the item's TriageState (int)
        KindRole, ///< the item's FindingKind (int)
        GroupRole, ///< the item's group index (int; AuditQueue::groups)
        DetailRole, ///< the finding for a person: its description and the source text around both values
    };

    explicit AuditQueueModel(QObject* parent = nullptr);

    void setQueue(AuditQueuePtr queue);
    AuditQueuePtr queue() const { return m_queue; }
    const AuditItem* itemAt(int row) const;
    TriageMark markAt(int row) const;
    /// Records a triage decision stored for (case, path); false when no row has it.
    bool setTriage(qint64 caseRow, const std::string& path, const TriageMark& mark);
    /// "gold confirmed", …
    static QString triageText(TriageState state);
    /// "value", "gold lacks element", …
    static QString kindText(FindingKind kind);
    /// "case 7eb2 · historical_collections", "case 7eb2 · format"
    static QString groupText(const AuditGroup& group);
    static QString batchText(AuditBatch batch);
    static QString batchToolTip(AuditBatch batch);
    /// The description of an item with the source text around its gold and its consensus.
    static QString detailText(const AuditItem& item);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    AuditQueuePtr m_queue;
    std::vector<TriageMark> m_marks; ///< per row: the queue's marks, updated by setTriage()
};

} // namespace structscope
