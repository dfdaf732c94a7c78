// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "workspace/scoringservice.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QString>

#include <memory>

namespace structscope {

/// Input texts of the cases of a store, by caseTextKey(suite, case id). Shared read-only.
using CaseTexts = std::shared_ptr<const QHash<QString, QString>>;
inline QString caseTextKey(const QString& suite, const QString& caseId)
{
    return suite + QChar(0x1f) + caseId;
}

/// The verdict id of an errored slot (ScoredRecord::errored()): it is listed, with its error kind, but has no
/// ladder label.
inline constexpr const char* kErroredVerdict = "errored";

/// One row per scored response (case × model × strategy × repeat) of a scored set: verdict label (or
/// "errored" with its error kind), error kinds, category, tier, latency and cost. Holds the set (a shared value) and
/// the case inputs for full-text search; never touches a widget.
class CasesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Suite, Case, Model, Strategy, Repeat, Verdict, Errors, Category, Tier, Latency, Cost, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole, ///< the raw value (text, int or double; invalid when missing)
        RecordIndexRole, ///< index of the row's record in the set (int)
        ErrorFlagsRole, ///< errorFlags() of the record (uint)
        InputRole, ///< the case's input text ("" until the inputs are loaded)
    };

    explicit CasesModel(QObject* parent = nullptr);

    void setRecords(ScoredSetPtr set);
    const CaseTexts& inputs() const { return m_inputs; }
    /// Shows `set`, which holds the shown records in the same places with those at `rows` (ascending) scored
    /// again (ScoredSet::rescored): only those rows change, so views keep their selection, scroll position and
    /// filtered order instead of being reset. Falls back to setRecords() when the sizes differ.
    void updateRecords(ScoredSetPtr set, const std::vector<std::size_t>& rows);
    ScoredSetPtr records() const { return m_set; }
    /// Case inputs for search and tooltips; rows keep their order.
    void setInputs(CaseTexts inputs);
    /// The record of a row (nullptr out of range).
    const ScoredRecord* recordAt(int row) const;
    QString inputAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "MK 2 · WV 1 · extra 1", "failed", "schema 3", or "" for a perfect answer; an errored slot's error kind
    /// ("malformed_body", "timeout", …).
    static QString errorSummary(const ScoredRecord& record);
    /// "correct", "value incorrect", …: a ladder label for people; "errored" for an errored slot.
    static QString verdictText(const ScoredRecord& record);
    /// The ladder label id ("value_incorrect"), or kErroredVerdict for an errored slot.
    static QString verdictId(const ScoredRecord& record);

private:
    ScoredSetPtr m_set;
    CaseTexts m_inputs;
};

} // namespace structscope
