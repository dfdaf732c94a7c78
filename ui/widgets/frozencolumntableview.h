// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QTableView>

class QMenu;

namespace structscope {

/// A table whose first column stays in place while the others scroll sideways (a leaderboard of thirty
/// models and twenty metrics is wider than a laptop screen, and the model's name must stay in sight). A
/// second QTableView showing only column 0 lies over the first column, sharing the model, the selection,
/// row heights and vertical scrolling. The header's context menu lets the user hide and show the other
/// columns; columns are named by a header role (setColumnIdRole()) so that the choice outlives a model
/// reset and a family switch.
class FrozenColumnTableView : public QTableView
{
    Q_OBJECT
public:
    explicit FrozenColumnTableView(QWidget* parent = nullptr);

    void setModel(QAbstractItemModel* model) override;
    void setSelectionModel(QItemSelectionModel* selectionModel) override;
    /// The view over column 0.
    QTableView* frozenView() const { return m_frozen; }

    /// The horizontal header role that names a column stably (default: its display text).
    void setColumnIdRole(int role);
    QString columnId(int column) const;
    /// The ids of the columns the user hid (column 0 cannot be hidden).
    QStringList hiddenColumnIds() const { return m_hidden; }
    /// Hides the columns with these ids, now and whenever the model's columns change (no signal).
    void setHiddenColumnIds(const QStringList& ids);
    /// Hides or shows one column by id; hiddenColumnsChanged() follows.
    void setColumnIdHidden(const QString& id, bool hidden);
    /// A menu of the columns but the first, each checkable (checked: shown), and "Show All Columns".
    QMenu* makeColumnMenu(QWidget* parent);

Q_SIGNALS:
    /// The user hid or showed a column.
    void hiddenColumnsChanged(const QStringList& ids);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    QModelIndex moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) override;
    void scrollTo(const QModelIndex& index, ScrollHint hint = EnsureVisible) override;
    void updateGeometries() override;

private:
    /// Column 0 alone in the frozen view; the hidden ids hidden in this one.
    void applyColumns();
    void updateFrozenGeometry();
    void syncLook();
    void showColumnMenu(const QPoint& globalPos);

    QTableView* m_frozen;
    int m_idRole = Qt::DisplayRole;
    QStringList m_hidden;
};

} // namespace structscope
