// SPDX-License-Identifier: Apache-2.0
#include "widgets/frozencolumntableview.h"

#include <QHeaderView>
#include <QMenu>
#include <QScrollBar>

using namespace Qt::StringLiterals;

namespace structscope {

FrozenColumnTableView::FrozenColumnTableView(QWidget* parent)
    : QTableView(parent)
    , m_frozen(new QTableView(this))
{
    m_frozen->setObjectName(u"frozenColumn"_s);
    m_frozen->setFocusPolicy(Qt::NoFocus);
    m_frozen->verticalHeader()->hide();
    m_frozen->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_frozen->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setFrameShape(QFrame::NoFrame);
    m_frozen->setVerticalScrollMode(ScrollPerPixel);
    viewport()->stackUnder(m_frozen);
    setHorizontalScrollMode(ScrollPerPixel);
    setVerticalScrollMode(ScrollPerPixel);

    connect(horizontalHeader(), &QHeaderView::sectionResized, this, [this](int section, int, int size) {
        if (section == 0) {
            m_frozen->setColumnWidth(0, size);
            updateFrozenGeometry();
        }
    });
    connect(verticalHeader(), &QHeaderView::sectionResized, this,
        [this](int section, int, int size) { m_frozen->setRowHeight(section, size); });
    connect(
        m_frozen->verticalScrollBar(), &QAbstractSlider::valueChanged, verticalScrollBar(), &QAbstractSlider::setValue);
    connect(
        verticalScrollBar(), &QAbstractSlider::valueChanged, m_frozen->verticalScrollBar(), &QAbstractSlider::setValue);
    // The frozen column behaves as the table's own: activation, sorting by clicking its header.
    connect(m_frozen, &QTableView::activated, this, &QTableView::activated);
    connect(m_frozen, &QTableView::clicked, this, &QTableView::clicked);
    connect(m_frozen->horizontalHeader(), &QHeaderView::sectionClicked, this, [this](int section) {
        if (!isSortingEnabled())
            return;
        const QHeaderView* header = horizontalHeader();
        const bool ascending
            = header->sortIndicatorSection() == section && header->sortIndicatorOrder() == Qt::AscendingOrder;
        sortByColumn(section, ascending ? Qt::DescendingOrder : Qt::AscendingOrder);
    });
    connect(horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, [this](int section, Qt::SortOrder order) {
        m_frozen->horizontalHeader()->setSortIndicatorShown(isSortingEnabled());
        m_frozen->horizontalHeader()->setSortIndicator(section, order);
    });
    for (QHeaderView* header : { horizontalHeader(), m_frozen->horizontalHeader() }) {
        header->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(header, &QWidget::customContextMenuRequested, this,
            [this, header](const QPoint& pos) { showColumnMenu(header->mapToGlobal(pos)); });
    }
}

void FrozenColumnTableView::setModel(QAbstractItemModel* model)
{
    if (QAbstractItemModel* old = this->model())
        disconnect(old, nullptr, this, nullptr);
    QTableView::setModel(model);
    m_frozen->setModel(model);
    m_frozen->setSelectionModel(selectionModel());
    if (model) {
        connect(model, &QAbstractItemModel::modelReset, this, &FrozenColumnTableView::applyColumns);
        connect(model, &QAbstractItemModel::columnsInserted, this, &FrozenColumnTableView::applyColumns);
        connect(model, &QAbstractItemModel::columnsRemoved, this, &FrozenColumnTableView::applyColumns);
        connect(model, &QAbstractItemModel::headerDataChanged, this, &FrozenColumnTableView::applyColumns);
    }
    syncLook();
    applyColumns();
}

void FrozenColumnTableView::setSelectionModel(QItemSelectionModel* selectionModel)
{
    QTableView::setSelectionModel(selectionModel);
    // setModel() sets the frozen view's model, then this selection model, in that order.
    if (selectionModel && m_frozen->model() == selectionModel->model())
        m_frozen->setSelectionModel(selectionModel);
}

void FrozenColumnTableView::setColumnIdRole(int role)
{
    m_idRole = role;
    applyColumns();
}

QString FrozenColumnTableView::columnId(int column) const
{
    if (!model())
        return {};
    const QString id = model()->headerData(column, Qt::Horizontal, m_idRole).toString();
    return id.isEmpty() ? model()->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString() : id;
}

void FrozenColumnTableView::setHiddenColumnIds(const QStringList& ids)
{
    m_hidden = ids;
    applyColumns();
}

void FrozenColumnTableView::setColumnIdHidden(const QString& id, bool hidden)
{
    if (hidden == m_hidden.contains(id))
        return;
    if (hidden)
        m_hidden << id;
    else
        m_hidden.removeAll(id);
    applyColumns();
    Q_EMIT hiddenColumnsChanged(m_hidden);
}

QMenu* FrozenColumnTableView::makeColumnMenu(QWidget* parent)
{
    auto* menu = new QMenu(parent);
    menu->setObjectName(u"columnMenu"_s);
    const int columns = model() ? model()->columnCount() : 0;
    for (int column = 1; column < columns; ++column) {
        const QString id = columnId(column);
        QAction* action = menu->addAction(model()->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString());
        action->setCheckable(true);
        action->setChecked(!m_hidden.contains(id));
        action->setData(id);
        connect(action, &QAction::toggled, this, [this, id](bool shown) { setColumnIdHidden(id, !shown); });
    }
    menu->addSeparator();
    QAction* all = menu->addAction(tr("Show All Columns"));
    all->setEnabled(!m_hidden.isEmpty());
    connect(all, &QAction::triggered, this, [this] {
        m_hidden.clear();
        applyColumns();
        Q_EMIT hiddenColumnsChanged(m_hidden);
    });
    return menu;
}

void FrozenColumnTableView::showColumnMenu(const QPoint& globalPos)
{
    QMenu* menu = makeColumnMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(globalPos);
}

void FrozenColumnTableView::applyColumns()
{
    const int columns = model() ? model()->columnCount() : 0;
    for (int column = 0; column < columns; ++column) {
        m_frozen->setColumnHidden(column, column != 0);
        setColumnHidden(column, column != 0 && m_hidden.contains(columnId(column)));
    }
    if (columns > 0)
        m_frozen->setColumnWidth(0, columnWidth(0));
    updateFrozenGeometry();
}

void FrozenColumnTableView::syncLook()
{
    m_frozen->setSelectionBehavior(selectionBehavior());
    m_frozen->setSelectionMode(selectionMode());
    m_frozen->setAlternatingRowColors(alternatingRowColors());
    m_frozen->setWordWrap(wordWrap());
    m_frozen->setShowGrid(showGrid());
    m_frozen->horizontalHeader()->setSortIndicatorShown(isSortingEnabled());
    m_frozen->horizontalHeader()->setSectionsClickable(isSortingEnabled());
}

void FrozenColumnTableView::updateFrozenGeometry()
{
    const int header = verticalHeader()->isVisible() ? verticalHeader()->width() : 0;
    const bool any = model() && model()->columnCount() > 0;
    m_frozen->setVisible(any);
    m_frozen->setGeometry(header + frameWidth(), frameWidth(), any ? columnWidth(0) : 0,
        viewport()->height() + horizontalHeader()->height());
}

void FrozenColumnTableView::resizeEvent(QResizeEvent* event)
{
    QTableView::resizeEvent(event);
    updateFrozenGeometry();
}

void FrozenColumnTableView::showEvent(QShowEvent* event)
{
    syncLook();
    QTableView::showEvent(event);
    updateFrozenGeometry();
}

void FrozenColumnTableView::updateGeometries()
{
    QTableView::updateGeometries();
    updateFrozenGeometry();
}

QModelIndex FrozenColumnTableView::moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers)
{
    const QModelIndex current = QTableView::moveCursor(cursorAction, modifiers);
    // Moving left onto a column hidden under the frozen one scrolls it into sight.
    if (cursorAction == MoveLeft && current.column() > 0
        && visualRect(current).topLeft().x() < m_frozen->columnWidth(0)) {
        const int value = horizontalScrollBar()->value() + visualRect(current).topLeft().x() - m_frozen->columnWidth(0);
        horizontalScrollBar()->setValue(value);
    }
    return current;
}

void FrozenColumnTableView::scrollTo(const QModelIndex& index, ScrollHint hint)
{
    if (index.column() > 0)
        QTableView::scrollTo(index, hint);
}

} // namespace structscope
