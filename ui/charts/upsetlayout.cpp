// SPDX-License-Identifier: Apache-2.0
#include "charts/upsetlayout.h"

#include <QColor>
#include <QPainter>
#include <QPen>

#include <algorithm>

namespace structscope {

qreal UpSetLayout::columnWidth() const
{
    if (intersections <= 0)
        return 0;
    return std::clamp((bounds.width() - setBarWidth - labelWidth) / intersections, 0.0, maxColumnWidth);
}

qreal UpSetLayout::matrixLeft() const
{
    return bounds.left() + setBarWidth + labelWidth;
}

QRectF UpSetLayout::setBarRect(int set, int size) const
{
    const qreal room = std::max<qreal>(0, setBarWidth - 8 - setCountWidth);
    const qreal w = setMaximum > 0 ? room * qreal(std::max(0, size)) / qreal(setMaximum) : 0;
    const qreal right = bounds.left() + setBarWidth - 4;
    return { right - w, baseline() + 6 + set * rowHeight + rowHeight * 0.2, w, rowHeight * 0.6 };
}

int UpSetLayout::setAt(const QPointF& point) const
{
    if (point.x() < bounds.left() || point.x() >= matrixLeft())
        return -1;
    const qreal top = baseline() + 6;
    if (point.y() < top)
        return -1;
    const int s = int((point.y() - top) / rowHeight);
    return s < sets ? s : -1;
}

qreal UpSetLayout::baseline() const
{
    return bounds.top() + titleHeight + barAreaHeight;
}

QRectF UpSetLayout::barRect(int intersection, int count) const
{
    const qreal w = columnWidth();
    const qreal height = maximum > 0 ? (barAreaHeight - 16) * qreal(std::max(0, count)) / qreal(maximum) : 0;
    const qreal x = matrixLeft() + intersection * w + w * 0.15;
    return { x, baseline() - height, w * 0.7, height };
}

QRectF UpSetLayout::barLabelRect(int intersection, int count) const
{
    const QRectF bar = barRect(intersection, count);
    const qreal w = columnWidth();
    return { matrixLeft() + intersection * w, bar.top() - 16, w, 16 };
}

QPointF UpSetLayout::dotCenter(int intersection, int set) const
{
    const qreal w = columnWidth();
    return { matrixLeft() + (intersection + 0.5) * w, baseline() + 6 + (set + 0.5) * rowHeight };
}

qreal UpSetLayout::dotRadius() const
{
    return std::min(rowHeight, columnWidth()) * 0.3;
}

QRectF UpSetLayout::setLabelRect(int set) const
{
    return { bounds.left() + setBarWidth, baseline() + 6 + set * rowHeight, labelWidth - 6, rowHeight };
}

int UpSetLayout::intersectionAt(const QPointF& point) const
{
    const qreal w = columnWidth();
    const qreal left = matrixLeft();
    if (w <= 0 || point.x() < left || point.y() < bounds.top() + titleHeight
        || point.y() > bounds.top() + naturalHeight())
        return -1;
    const int i = int((point.x() - left) / w);
    return i < intersections ? i : -1;
}

qreal UpSetLayout::naturalHeight() const
{
    return titleHeight + barAreaHeight + 6 + sets * rowHeight + 6;
}

void paintUpSetDots(
    QPainter& painter, const UpSetLayout& layout, int column, std::uint64_t mask, const QColor& on, const QColor& off)
{
    // The line joining the sets of the intersection goes under its dots.
    QPointF top(-1, -1), bottom(-1, -1);
    for (int s = 0; s < layout.sets; ++s) {
        if ((mask >> s) & 1u) {
            if (top.y() < 0)
                top = layout.dotCenter(column, s);
            bottom = layout.dotCenter(column, s);
        }
    }
    if (top.y() >= 0 && bottom != top) {
        painter.setPen(QPen(on, 2));
        painter.drawLine(top, bottom);
    }
    painter.setPen(Qt::NoPen);
    for (int s = 0; s < layout.sets; ++s) {
        painter.setBrush((mask >> s) & 1u ? on : off);
        painter.drawEllipse(layout.dotCenter(column, s), layout.dotRadius(), layout.dotRadius());
    }
}

} // namespace structscope
