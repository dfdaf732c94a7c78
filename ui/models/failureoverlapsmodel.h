// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/groupkey.h"
#include "report/failureoverlaps.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace structscope {

using FailureMatrixPtr = std::shared_ptr<const FailureMatrix>;

/// The sets of a failure matrix (models, or model × strategy, …), one row each, to choose from: a checkable name,
/// the cases the set fails, the cases it answered, and its ties. Checks survive a new matrix for the sets it still has
/// (by name); new sets come checked unless told otherwise.
class OverlapSetsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Set, Failed, Answered, Ties, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole, ///< the raw value
    };

    explicit OverlapSetsModel(QObject* parent = nullptr);

    void setMatrix(FailureMatrixPtr matrix);
    FailureMatrixPtr matrix() const { return m_matrix; }
    /// The checked sets, as indices into matrix()->sets, in row order.
    std::vector<int> checkedSets() const;
    bool isChecked(int row) const;
    void setChecked(int row, bool checked);
    /// Checks every set, or none.
    void setAllChecked(bool checked);
    /// Checks exactly the sets named (OverlapSet::label()).
    void setCheckedLabels(const QStringList& labels);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    /// The checked sets changed (by a click, setChecked() or a new matrix).
    void checkedChanged();

private:
    FailureMatrixPtr m_matrix;
    std::vector<bool> m_checked;
};

/// The regions of a failure overlap, one row each, largest first, then a row for the cases no chosen set fails: which
/// sets fail the cases (and every other chosen set passes them), how many sets that is, and how many cases.
class OverlapRegionsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Sets, Degree, Cases, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole, ///< the raw value
        MaskRole, ///< the region's mask (quint64; 0 for "none of these")
        GroupKeyRole, ///< the drill-down to the region's cases (overlapDrillKey)
    };

    explicit OverlapRegionsModel(QObject* parent = nullptr);

    void setOverlaps(std::shared_ptr<const FailureOverlaps> overlaps);
    std::shared_ptr<const FailureOverlaps> overlaps() const { return m_overlaps; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const FailureOverlaps> m_overlaps;
};

/// The drill-down key of some cases of an overlap: ("overlap", caption), ("overlap_cases", the cases) and
/// ("overlap_sets", the chosen sets), which CaseFilter::fromGroupKey() reads back: the chosen sets' answers to those
/// cases.
GroupKey overlapDrillKey(const FailureOverlaps& overlaps, const std::vector<CaseKey>& cases, const QString& caption);
/// The cases of region `mask` (0: those no chosen set fails).
std::vector<CaseKey> overlapRegionCases(const FailureOverlaps& overlaps, std::uint64_t mask);
/// The cases set i fails, whatever else fails them.
std::vector<CaseKey> overlapSetCases(const FailureOverlaps& overlaps, int set);

inline constexpr const char* kOverlapKey = "overlap";
inline constexpr const char* kOverlapCasesKey = "overlap_cases";
inline constexpr const char* kOverlapSetsKey = "overlap_sets";

} // namespace structscope
