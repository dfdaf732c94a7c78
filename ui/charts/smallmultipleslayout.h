// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPointF>
#include <QRectF>

namespace structscope {

/// Panels of equal size in rows, as many per row as fit `width` (small multiples: one diagram per
/// model, compared at a glance). Pure geometry for painting, hit testing and export.
struct SmallMultiplesLayout
{
    int count = 0;
    qreal width = 0; ///< available width
    qreal top = 0; ///< y of the first row (room for a title above)
    qreal minPanelWidth = 240;
    qreal panelHeight = 260;
    qreal spacing = 8;
    int maxColumns = 0; ///< 0: no limit

    int columns() const;
    int rows() const;
    qreal panelWidth() const;
    QRectF panelRect(int index) const;
    /// The title line at the top of panel `index`, `height` tall and inset `inset` from its sides (a long
    /// title is elided in the middle to its width; its tooltip gives it whole).
    QRectF titleRect(int index, qreal height, qreal inset = 8) const;
    /// The panel whose title line (as titleRect()) lies under `point`, or -1.
    int titleAt(const QPointF& point, qreal height, qreal inset = 8) const;
    /// The panel under `point`, or -1.
    int panelAt(const QPointF& point) const;
    /// From y = 0 to the bottom of the last row.
    qreal totalHeight() const;
};

} // namespace structscope
