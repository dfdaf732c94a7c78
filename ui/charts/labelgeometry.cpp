// SPDX-License-Identifier: Apache-2.0
#include "charts/labelgeometry.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace structscope {

QStringList elideLabelsMiddle(const QStringList& labels, const QFontMetricsF& metrics, qreal maxWidth)
{
    QStringList out;
    std::vector<qreal> widths(std::size_t(labels.size()), std::max(maxWidth, qreal(1)));
    out.reserve(labels.size());
    for (const QString& label : labels)
        out << metrics.elidedText(label, Qt::ElideMiddle, widths.front());
    // Widen the colliding ones until every distinct label reads apart; a whole label cannot grow further.
    for (int round = 0; round < 400; ++round) {
        std::map<QString, std::vector<qsizetype>> byText;
        for (qsizetype i = 0; i < out.size(); ++i)
            byText[out[i]].push_back(i);
        bool changed = false;
        for (const auto& [text, indices] : byText) {
            if (indices.size() < 2)
                continue;
            bool distinct = false;
            for (qsizetype i : indices)
                distinct = distinct || labels[i] != labels[indices.front()];
            if (!distinct)
                continue;
            for (qsizetype i : indices) {
                if (out[i] == labels[i])
                    continue;
                widths[std::size_t(i)] += 4;
                out[i] = metrics.elidedText(labels[i], Qt::ElideMiddle, widths[std::size_t(i)]);
                changed = true;
            }
        }
        if (!changed)
            break;
    }
    return out;
}

int BarChartGeometry::heightFor(int bars, qreal rowHeight, qreal chrome)
{
    return int(std::ceil(std::max(bars, 0) * rowHeight + chrome));
}

qreal BarChartGeometry::labelWidth(
    const QStringList& labels, const QFontMetricsF& metrics, qreal chartWidth, qreal share, qreal minimum)
{
    qreal widest = 0;
    for (const QString& label : labels)
        widest = std::max(widest, metrics.horizontalAdvance(label));
    const qreal cap = std::max(minimum, chartWidth * share);
    return std::min(widest, cap);
}

int BarChartGeometry::rowAt(qreal y, const QRectF& plotArea, int bars)
{
    if (bars <= 0 || plotArea.height() <= 0 || y < plotArea.top() || y >= plotArea.bottom())
        return -1;
    return std::clamp(int((y - plotArea.top()) / (plotArea.height() / bars)), 0, bars - 1);
}

std::vector<std::optional<QRectF>> placePointLabels(
    const std::vector<PointLabel>& labels, const QRectF& bounds, qreal markerRadius, qreal gap)
{
    std::vector<QRectF> markers;
    markers.reserve(labels.size());
    for (const PointLabel& label : labels)
        markers.emplace_back(
            label.anchor - QPointF(markerRadius, markerRadius), QSizeF(2 * markerRadius, 2 * markerRadius));
    std::vector<std::optional<QRectF>> placed(labels.size());
    std::vector<QRectF> taken;
    const qreal off = markerRadius + gap;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const QPointF p = labels[i].anchor;
        const qreal w = labels[i].size.width();
        const qreal h = labels[i].size.height();
        const QRectF candidates[] = {
            QRectF(p.x() + off, p.y() - h / 2, w, h), // right
            QRectF(p.x() - off - w, p.y() - h / 2, w, h), // left
            QRectF(p.x() - w / 2, p.y() - off - h, w, h), // above
            QRectF(p.x() - w / 2, p.y() + off, w, h), // below
        };
        for (const QRectF& rect : candidates) {
            if (!bounds.contains(rect))
                continue;
            const auto hits = [&rect](const QRectF& other) { return rect.intersects(other); };
            if (std::any_of(taken.begin(), taken.end(), hits) || std::any_of(markers.begin(), markers.end(), hits))
                continue;
            placed[i] = rect;
            taken.push_back(rect);
            break;
        }
    }
    return placed;
}

} // namespace structscope
