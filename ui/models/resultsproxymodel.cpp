// SPDX-License-Identifier: Apache-2.0
#include "models/resultsproxymodel.h"

#include <cmath>

namespace structscope {

ResultsProxyModel::ResultsProxyModel(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(Qt::UserRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    setSortLocaleAware(true);
}

void ResultsProxyModel::setFilterText(const QString& text)
{
    const QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words == m_words)
        return;
    m_words = words;
    invalidateFilter();
}

bool ResultsProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (m_words.isEmpty() || !sourceModel())
        return true;
    QString haystack;
    for (int c = 0; c < sourceModel()->columnCount(sourceParent); ++c) {
        const QModelIndex index = sourceModel()->index(sourceRow, c, sourceParent);
        if (index.data(sortRole()).typeId() == QMetaType::QString)
            haystack += index.data(Qt::DisplayRole).toString() + QLatin1Char(' ');
    }
    for (const QString& word : m_words) {
        if (!haystack.contains(word, Qt::CaseInsensitive))
            return false;
    }
    return true;
}

bool ResultsProxyModel::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const QVariant a = left.data(sortRole());
    const QVariant b = right.data(sortRole());
    if (a.typeId() == QMetaType::Double && b.typeId() == QMetaType::Double) {
        const double x = a.toDouble();
        const double y = b.toDouble();
        // Missing values (NaN) go to the bottom whichever way the column is sorted.
        if (std::isnan(x) || std::isnan(y)) {
            if (std::isnan(x) == std::isnan(y))
                return false;
            return std::isnan(x) == (sortOrder() == Qt::DescendingOrder);
        }
        return x < y;
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace structscope
