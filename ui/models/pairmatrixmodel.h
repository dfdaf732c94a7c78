// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/configcomparison.h"
#include "report/pairmatrix.h"

#include <QAbstractTableModel>
#include <QPalette>

#include <memory>

namespace structscope {

using PairMatrixPtr = std::shared_ptr<const PairMatrix>;

/// Every pair of configurations on one metric (PairMatrix) as a square table: row r, column c holds the difference
/// row − column in points with its 95% interval, the test's p and the p adjusted over all pairs; the diagonal is
/// empty. A cell significant after adjustment is bold on a tint of the palette's highlight and says so in its tooltip.
/// Choosing another adjustment changes the adjusted p values in place, without computing the pairs again.
class PairMatrixModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Role {
        DeltaRole = Qt::UserRole, ///< double: row − column, points (NaN on the diagonal or without paired cases)
        PValueRole, ///< double: the test's p, unadjusted
        AdjustedPRole, ///< double: p adjusted over all tested pairs
        SignificantRole, ///< bool: adjusted p ≤ α
        PairedCasesRole, ///< qint64: cases both answered
    };

    explicit PairMatrixModel(QObject* parent = nullptr);

    void setMatrix(PairMatrixPtr matrix);
    PairMatrixPtr matrix() const { return m_matrix; }
    /// Adjusts the p values of the current matrix (and of every later one) with `method`.
    void setAdjustment(PAdjustMethod method);
    PAdjustMethod adjustment() const { return m_adjust; }
    /// The colours significant cells are tinted with (the view's palette, so that a dark theme gets dark tints).
    void setPalette(const QPalette& palette);
    /// The configuration of a row or column (model and strategy); empty when out of range.
    Configuration configuration(int section) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

private:
    const PairCell* cellAt(const QModelIndex& index) const;
    QString toolTip(const QModelIndex& index, const PairCell& cell) const;

    PairMatrixPtr m_matrix;
    PAdjustMethod m_adjust = PAdjustMethod::Holm;
    QPalette m_palette;
};

} // namespace structscope

Q_DECLARE_METATYPE(structscope::PairMatrixPtr)
