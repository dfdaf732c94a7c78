// SPDX-License-Identifier: Apache-2.0
#include "charts/smallmultipleslayout.h"

#include <algorithm>
#include <cmath>

namespace structscope {

int SmallMultiplesLayout::columns() const
{
    if (count <= 0)
        return 0;
    int fit = int(std::floor((width + spacing) / (minPanelWidth + spacing)));
    if (maxColumns > 0)
        fit = std::min(fit, maxColumns);
    return std::clamp(fit, 1, count);
}

int SmallMultiplesLayout::rows() const
{
    const int c = columns();
    return c == 0 ? 0 : (count + c - 1) / c;
}

qreal SmallMultiplesLayout::panelWidth() const
{
    const int c = columns();
    if (c == 0)
        return 0;
    return std::max(minPanelWidth, (width - (c - 1) * spacing) / c);
}

QRectF SmallMultiplesLayout::panelRect(int index) const
{
    const int c = columns();
    if (index < 0 || index >= count || c == 0)
        return {};
    const int row = index / c;
    const int column = index % c;
    return { column * (panelWidth() + spacing), top + row * (panelHeight + spacing), panelWidth(), panelHeight };
}

QRectF SmallMultiplesLayout::titleRect(int index, qreal height, qreal inset) const
{
    const QRectF panel = panelRect(index);
    if (panel.isNull())
        return {};
    return { panel.left() + inset, panel.top() + 2, std::max(panel.width() - 2 * inset, qreal(0)), height };
}

int SmallMultiplesLayout::titleAt(const QPointF& point, qreal height, qreal inset) const
{
    const int index = panelAt(point);
    return index >= 0 && titleRect(index, height, inset).contains(point) ? index : -1;
}

int SmallMultiplesLayout::panelAt(const QPointF& point) const
{
    for (int i = 0; i < count; ++i) {
        if (panelRect(i).contains(point))
            return i;
    }
    return -1;
}

qreal SmallMultiplesLayout::totalHeight() const
{
    const int r = rows();
    return r == 0 ? top : top + r * panelHeight + (r - 1) * spacing;
}

} // namespace structscope
