// SPDX-License-Identifier: Apache-2.0
#include "charts/heatmaplayout.h"

#include <algorithm>
#include <cmath>

namespace structscope {

qreal HeatmapLayout::cellWidth() const
{
    if (columns <= 0)
        return 0;
    const qreal available
        = bounds.width() - 2 * margin - rowHeaderWidth - legendGap - legendBarWidth - legendLabelWidth;
    return std::clamp(available / columns, qreal(0), maxCellWidth);
}

qreal HeatmapLayout::cellHeight() const
{
    if (rows <= 0)
        return 0;
    const qreal available = bounds.height() - 2 * margin - titleHeight - columnHeaderHeight;
    return std::clamp(available / rows, qreal(0), maxCellHeight);
}

QPointF HeatmapLayout::gridOrigin() const
{
    return { bounds.left() + margin + rowHeaderWidth, bounds.top() + margin + titleHeight + columnHeaderHeight };
}

QRectF HeatmapLayout::gridRect() const
{
    return { gridOrigin(), QSizeF(cellWidth() * std::max(columns, 0), cellHeight() * std::max(rows, 0)) };
}

QRectF HeatmapLayout::cellRect(int row, int column) const
{
    if (row < 0 || row >= rows || column < 0 || column >= columns)
        return {};
    const QPointF origin = gridOrigin();
    return { origin.x() + column * cellWidth(), origin.y() + row * cellHeight(), cellWidth(), cellHeight() };
}

QRectF HeatmapLayout::rowHeaderRect(int row) const
{
    if (row < 0 || row >= rows)
        return {};
    return { bounds.left() + margin, gridOrigin().y() + row * cellHeight(), rowHeaderWidth, cellHeight() };
}

QRectF HeatmapLayout::columnHeaderRect(int column) const
{
    if (column < 0 || column >= columns)
        return {};
    return { gridOrigin().x() + column * cellWidth(), gridOrigin().y() - columnHeaderHeight, cellWidth(),
        columnHeaderHeight };
}

QRectF HeatmapLayout::titleRect() const
{
    return { bounds.left() + margin, bounds.top() + margin, bounds.width() - 2 * margin, titleHeight };
}

QRectF HeatmapLayout::legendBarRect() const
{
    const QRectF grid = gridRect();
    const qreal room = bounds.bottom() - margin - grid.top();
    const qreal height = std::min(std::max(grid.height(), minLegendHeight), room);
    return { grid.right() + legendGap, grid.top(), legendBarWidth, std::max(height, qreal(0)) };
}

qreal HeatmapLayout::legendY(double t) const
{
    const QRectF bar = legendBarRect();
    return bar.bottom() - std::clamp(t, 0.0, 1.0) * bar.height();
}

HeatmapLayout::Hit HeatmapLayout::hitTest(const QPointF& point) const
{
    const qreal w = cellWidth();
    const qreal h = cellHeight();
    if (w <= 0 || h <= 0)
        return {};
    const QPointF origin = gridOrigin();
    const int column = int(std::floor((point.x() - origin.x()) / w));
    const int row = int(std::floor((point.y() - origin.y()) / h));
    const bool inColumns = point.x() >= origin.x() && column < columns;
    const bool inRows = point.y() >= origin.y() && row < rows;
    if (inColumns && inRows)
        return { Hit::Kind::Cell, row, column };
    if (inColumns && columnHeaderRect(column).contains(point))
        return { Hit::Kind::ColumnHeader, -1, column };
    if (inRows && rowHeaderRect(row).contains(point))
        return { Hit::Kind::RowHeader, row, -1 };
    return {};
}

} // namespace structscope
