// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/groupkey.h"
#include "report/report.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace structscope {

class FieldBreakdownModel;

/// One leaderboard row's accuracy by field (docs/metrics.md "Fields"): a table of the fields of its responses' gold,
/// worst first, with a filter. Activating a field asks for the responses that got it wrong.
class FieldBreakdownDialog : public QDialog
{
    Q_OBJECT
public:
    explicit FieldBreakdownDialog(QWidget* parent = nullptr);

    /// Shows the fields of the group `key` (e.g. model=gpt-x) from `report`, a report grouped by key's keys and
    /// "field" (aggregateFields()).
    void setBreakdown(const GroupKey& key, const Report& report);

    FieldBreakdownModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* view() const { return m_view; }
    QLineEdit* filter() const { return m_filter; }

Q_SIGNALS:
    /// A field was activated: the group's key with ("field", path).
    void fieldActivated(const structscope::GroupKey& cases);

private:
    GroupKey m_key;
    FieldBreakdownModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLineEdit* m_filter;
    QLabel* m_summary;
};

} // namespace structscope
