// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/configcomparison.h"
#include "analysis/groupkey.h"

#include <QAbstractTableModel>

namespace structscope {

/// The cases two configurations disagree on (ConfigComparison::discordant): case, category, repeat,
/// each side's value of the metric and ladder label. Activating a row opens the case with the
/// answer of the side that did worse.
class DiscordantModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Suite, Case, Category, Repeat, ValueA, ValueB, VerdictA, VerdictB, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole, ///< the raw value
        GroupKeyRole, ///< {suite, case, model, strategy, repeat} of the worse side
    };

    explicit DiscordantModel(QObject* parent = nullptr);

    void setComparison(ConfigComparisonPtr comparison);
    ConfigComparisonPtr comparison() const { return m_comparison; }
    /// The side that did worse on a row (higher value is better unless the metric says otherwise).
    CaseRef worseSide(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ConfigComparisonPtr m_comparison;
};

} // namespace structscope
