// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QSortFilterProxyModel>

namespace structscope {

/// Sorts a results model (LeaderboardModel, HeatmapModel) by its raw values in Qt::UserRole
/// (missing values, NaN, last in either order) and filters rows by a text matched against the
/// key columns (those whose raw value is text: model, strategy, ...), case-insensitively.
class ResultsProxyModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit ResultsProxyModel(QObject* parent = nullptr);

    /// Rows whose key text contains every whitespace-separated word of `text`.
    void setFilterText(const QString& text);
    QString filterText() const { return m_words.join(u' '); }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    QStringList m_words;
};

} // namespace structscope
