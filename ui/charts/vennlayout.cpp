// SPDX-License-Identifier: Apache-2.0
#include "charts/vennlayout.h"

#include <QLineF>

#include <algorithm>
#include <cmath>

namespace structscope {

namespace {

const qreal kSqrt3 = std::sqrt(3.0);
// Three sets, centres one radius apart, distances in radii from the centroid. A single region lies
// along its centre's direction between 1/√3 (leaving the other two) and 1 + 1/√3 (leaving its own):
// middle 1/√3 + 1/2. A pair's lens lies opposite the third centre between 1 − 1/√3 (leaving the
// third) and 2/√3 (leaving the pair): middle (1 + 1/√3) / 2.
constexpr qreal kSingleOffset = 1.0773502691896257;
constexpr qreal kPairOffset = 0.7886751345948129;

QPointF unit(const QPointF& v)
{
    const qreal length = std::hypot(v.x(), v.y());
    return length > 0 ? v / length : QPointF();
}

} // namespace

QRectF VennLayout::diagramRect() const
{
    QRectF r = bounds.adjusted(labelMargin, titleHeight + labelMargin, -labelMargin, -footerHeight - labelMargin);
    if (r.width() < 0)
        r.setWidth(0);
    if (r.height() < 0)
        r.setHeight(0);
    return r;
}

qreal VennLayout::radius() const
{
    const QRectF r = diagramRect();
    switch (sets) {
    case 1:
        return std::min(r.width(), r.height()) / 2;
    case 2:
        return std::min(r.width() / 3, r.height() / 2);
    default:
        return std::min(r.width() / 3, r.height() / (2 + kSqrt3 / 2));
    }
}

QPointF VennLayout::middle() const
{
    const QRectF r = diagramRect();
    if (sets != 3)
        return r.center();
    // The figure reaches r + h/3 above the centroid and r + 2h/3 below it (h: the triangle's height).
    const qreal rad = radius();
    const qreal h = rad * kSqrt3 / 2;
    const qreal figure = 2 * rad + h;
    return { r.center().x(), r.top() + (r.height() - figure) / 2 + rad + h / 3 };
}

QPointF VennLayout::center(int set) const
{
    const QPointF m = middle();
    const qreal rad = radius();
    if (sets == 1)
        return m;
    if (sets == 2)
        return { m.x() + (set == 0 ? -rad / 2 : rad / 2), m.y() };
    const qreal h = rad * kSqrt3 / 2;
    switch (set) {
    case 0:
        return { m.x() - rad / 2, m.y() - h / 3 };
    case 1:
        return { m.x() + rad / 2, m.y() - h / 3 };
    default:
        return { m.x(), m.y() + 2 * h / 3 };
    }
}

QPointF VennLayout::regionAnchor(unsigned mask) const
{
    const QPointF m = middle();
    const qreal rad = radius();
    if (sets == 1)
        return m;
    if (sets == 2) {
        if (mask == 1u)
            return { m.x() - rad, m.y() };
        if (mask == 2u)
            return { m.x() + rad, m.y() };
        return m;
    }
    switch (mask) {
    case 1u:
    case 2u:
    case 4u: {
        const int set = mask == 1u ? 0 : mask == 2u ? 1 : 2;
        return m + unit(center(set) - m) * (kSingleOffset * rad);
    }
    case 3u:
    case 5u:
    case 6u: {
        // The lens of two circles, outside the third, lies opposite the third's centre.
        const int third = mask == 3u ? 2 : mask == 5u ? 1 : 0;
        return m - unit(center(third) - m) * (kPairOffset * rad);
    }
    default:
        return m;
    }
}

QPointF VennLayout::setLabelAnchor(int set) const
{
    const QPointF c = center(set);
    const qreal rad = radius();
    const qreal gap = labelMargin / 2;
    if (sets != 3)
        return { c.x(), c.y() - rad - gap };
    return c + unit(c - middle()) * (rad + gap);
}

QRectF VennLayout::footerRect() const
{
    return { bounds.left(), bounds.bottom() - footerHeight, bounds.width(), footerHeight };
}

QRectF VennLayout::titleRect() const
{
    return { bounds.left(), bounds.top(), bounds.width(), titleHeight };
}

int VennLayout::regionAt(const QPointF& point) const
{
    if (!bounds.contains(point))
        return -1;
    int mask = 0;
    const qreal rad = radius();
    for (int i = 0; i < sets; ++i) {
        if (QLineF(point, center(i)).length() < rad)
            mask |= 1 << i;
    }
    return mask;
}

bool VennLayout::inRegion(const QPointF& point, unsigned mask) const
{
    return regionAt(point) == int(mask);
}

namespace {

QPainterPath circlePath(const VennLayout& layout, int set)
{
    QPainterPath path;
    const qreal r = layout.radius();
    path.addEllipse(layout.center(set), r, r);
    return path;
}

} // namespace

QPainterPath vennRegionPath(const VennLayout& layout, std::uint64_t mask)
{
    QPainterPath path;
    bool first = true;
    for (int i = 0; i < layout.sets; ++i) {
        if (!((mask >> i) & 1u))
            continue;
        path = first ? circlePath(layout, i) : path.intersected(circlePath(layout, i));
        first = false;
    }
    for (int i = 0; i < layout.sets; ++i) {
        if (!((mask >> i) & 1u))
            path = path.subtracted(circlePath(layout, i));
    }
    return path;
}

} // namespace structscope
