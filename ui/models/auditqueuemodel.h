#pragma once

#include "audit/auditqueue.h"
#include "models/groupkey.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace structscope {

using AuditQueuePtr = std::shared_ptr<const AuditQueue>;

/// The suspicious-gold queue, one row per (case, path): the gold there, the value a consensus of
/// models gives instead, its support and the models behind it, and the triage state with who set it
/// and when. Holds the queue (a shared value); triage decisions made since it was built are patched in
/// with setTriage() so the list need not be rebuilt after each click.
class AuditQueueModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Suite,
        Case,
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

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    AuditQueuePtr m_queue;
    std::vector<TriageMark> m_marks; ///< per row: the queue's marks, updated by setTriage()
};

} // namespace structscope
