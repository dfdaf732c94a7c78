// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QRectF>

namespace structscope {

/// Where every part of a heatmap goes inside `bounds`: title, column headers over the grid, row
/// headers to its left, the colour legend to its right. Pure geometry, shared by painting, hit
/// testing and export (so the exported picture is the one on screen).
struct HeatmapLayout
{
    // Inputs
    int rows = 0;
    int columns = 0;
    QRectF bounds;
    qreal margin = 8;
    qreal titleHeight = 0; ///< 0: no title
    qreal rowHeaderWidth = 120; ///< measured from the row labels by the caller
    qreal columnHeaderHeight = 40;
    qreal legendGap = 16; ///< between the grid and the legend bar
    qreal legendBarWidth = 16;
    qreal legendLabelWidth = 56; ///< room for the tick labels right of the bar
    qreal maxCellWidth = 160; ///< cells do not stretch without bound in a large window
    qreal maxCellHeight = 48;
    qreal minLegendHeight = 120;

    /// Width and height of one cell (0 when there is no room or no cell).
    qreal cellWidth() const;
    qreal cellHeight() const;
    /// The top-left corner of the grid.
    QPointF gridOrigin() const;
    /// The whole grid of cells.
    QRectF gridRect() const;
    QRectF cellRect(int row, int column) const;
    QRectF rowHeaderRect(int row) const;
    QRectF columnHeaderRect(int column) const;
    QRectF titleRect() const;
    /// The colour bar of the legend (maximum at the top).
    QRectF legendBarRect() const;
    /// The y coordinate of normalized value t in [0, 1] on the legend bar.
    qreal legendY(double t) const;

    struct Hit
    {
        enum class Kind { None, Cell, RowHeader, ColumnHeader };
        Kind kind = Kind::None;
        int row = -1;
        int column = -1;
        friend bool operator==(const Hit&, const Hit&) = default;
    };
    /// What lies under a point.
    Hit hitTest(const QPointF& point) const;
};

} // namespace structscope
