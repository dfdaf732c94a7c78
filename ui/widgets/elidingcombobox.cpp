// SPDX-License-Identifier: Apache-2.0
#include "widgets/elidingcombobox.h"

#include <QAbstractItemView>
#include <QStyleOptionComboBox>
#include <QStylePainter>

#include <algorithm>

namespace structscope {

ElidingComboBox::ElidingComboBox(QWidget* parent, int minimumContentsLength)
    : QComboBox(parent)
{
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setMinimumContentsLength(minimumContentsLength);
    view()->setTextElideMode(Qt::ElideMiddle);
    // Every item's tooltip is its whole text, unless it brings one of its own.
    connect(model(), &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex& parent, int first, int last) {
        if (parent.isValid())
            return;
        for (int row = first; row <= last; ++row) {
            if (itemData(row, Qt::ToolTipRole).toString().isEmpty())
                setItemData(row, itemText(row), Qt::ToolTipRole);
        }
    });
    connect(this, &QComboBox::currentIndexChanged, this, [this] {
        const QString tip = itemData(currentIndex(), Qt::ToolTipRole).toString();
        setToolTip(tip.isEmpty() ? currentText() : tip);
    });
}

QString ElidingComboBox::shownText(int width) const
{
    return fontMetrics().elidedText(currentText(), Qt::ElideMiddle, std::max(width, 1));
}

void ElidingComboBox::showPopup()
{
    int widest = width();
    const QFontMetrics metrics = view()->fontMetrics();
    for (int i = 0; i < count(); ++i)
        widest = std::max(widest, metrics.horizontalAdvance(itemText(i)) + 40);
    view()->setMinimumWidth(std::min(widest, std::max(width(), kMaxPopupWidth)));
    QComboBox::showPopup();
}

void ElidingComboBox::paintEvent(QPaintEvent*)
{
    QStylePainter painter(this);
    painter.setPen(palette().color(QPalette::Text));
    QStyleOptionComboBox option;
    initStyleOption(&option);
    painter.drawComplexControl(QStyle::CC_ComboBox, option);
    const QRect field = style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this);
    const int iconRoom = option.currentIcon.isNull() ? 0 : option.iconSize.width() + 4;
    option.currentText = shownText(field.width() - iconRoom - 4);
    painter.drawControl(QStyle::CE_ComboBoxLabel, option);
}

} // namespace structscope
