// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPointF>
#include <QRectF>

#include <cstdint>

class QColor;
class QPainter;

namespace structscope {

/// Geometry of one UpSet plot (more than three sets): a bar per intersection, its height the count,
/// over a dot matrix whose filled dots name the sets of that intersection. Columns are the
/// intersections in the caller's order; matrix rows are the sets. Pure geometry.
struct UpSetLayout
{
    // Inputs
    int intersections = 0;
    int sets = 0;
    QRectF bounds;
    qreal titleHeight = 0;
    qreal labelWidth = 110; ///< set names left of the matrix
    qreal rowHeight = 18;
    qreal maxColumnWidth = 36;
    qreal barAreaHeight = 120;
    int maximum = 1; ///< the largest count (bars scale to it)
    qreal setBarWidth = 0; ///< room left of the set names for set-size bars (0: none)
    int setMaximum = 1; ///< the largest set size (set-size bars scale to it)
    qreal setCountWidth = 0; ///< room at the left of the set-size bars for their counts

    qreal columnWidth() const;
    /// The left edge of the first column (after the set-size bars and the set names).
    qreal matrixLeft() const;
    /// The set-size bar of set s for `size`: it grows leftwards from the set names.
    QRectF setBarRect(int set, int size) const;
    /// The set whose row (set-size bar or name) contains `point`, or -1.
    int setAt(const QPointF& point) const;
    /// The bar of intersection i for `count`.
    QRectF barRect(int intersection, int count) const;
    /// Where the count is written (above the bar).
    QRectF barLabelRect(int intersection, int count) const;
    /// The centre of the dot of (intersection, set).
    QPointF dotCenter(int intersection, int set) const;
    qreal dotRadius() const;
    /// The name of set s, left of its matrix row.
    QRectF setLabelRect(int set) const;
    /// The baseline of the bars.
    qreal baseline() const;
    /// The intersection whose column (bar or dots) contains `point`, or -1.
    int intersectionAt(const QPointF& point) const;
    /// Height the plot needs.
    qreal naturalHeight() const;
};

/// Paints intersection `column`'s dots: a dot per set, filled with `on` for the sets of `mask` and `off` for the
/// others, over the line that joins the sets of the intersection. Leaves the painter's pen empty.
void paintUpSetDots(
    QPainter& painter, const UpSetLayout& layout, int column, std::uint64_t mask, const QColor& on, const QColor& off);

} // namespace structscope
