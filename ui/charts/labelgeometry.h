// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QFontMetricsF>
#include <QRectF>
#include <QStringList>

#include <algorithm>
#include <optional>
#include <vector>

namespace structscope {

// Pure geometry for charts that name many groups (thirty models with names like
// "Qwen/Qwen3-235B-A22B-Instruct-2507"): middle elision that keeps labels apart, the orientation and
// height of a bar chart, and a greedy placement of point labels that drops the ones that would collide.

/// Each label elided in the middle (Qt::ElideMiddle) to at most `maxWidth`, so that the distinguishing
/// end of a name ("…-Instruct-2507") stays. Labels that would read the same once elided although they
/// differ get more room, a few pixels at a time, until they read apart (or are whole).
QStringList elideLabelsMiddle(const QStringList& labels, const QFontMetricsF& metrics, qreal maxWidth);

/// How a bar chart of `bars` groups is laid out: upright bars up to kMaxUprightBars groups with short
/// names, else horizontal bars, a row per group with its whole (or middle-elided) name on the left.
struct BarChartGeometry
{
    static constexpr int kMaxUprightBars = 8;
    /// The longest name, in average characters, an upright bar's label shows whole.
    static constexpr int kMaxUprightLabelChars = 18;
    static bool isHorizontal(int bars) { return bars > kMaxUprightBars; }
    /// Horizontal also when the widest label is longer than kMaxUprightLabelChars characters of `averageCharWidth`.
    static bool isHorizontal(int bars, qreal widestLabel, qreal averageCharWidth)
    {
        return isHorizontal(bars) || widestLabel > kMaxUprightLabelChars * averageCharWidth;
    }
    /// Height of one horizontal bar's row for a font of this height.
    static qreal rowHeight(qreal fontHeight) { return std::max(qreal(18), fontHeight * 1.55); }
    /// The height a horizontal bar chart needs for `bars` rows: the rows plus `chrome` (title, value
    /// axis, margins).
    static int heightFor(int bars, qreal rowHeight, qreal chrome);
    /// Width of the label column: the widest label, at most `share` of `chartWidth` (never below
    /// `minimum`, nor wider than the widest label).
    static qreal labelWidth(const QStringList& labels, const QFontMetricsF& metrics, qreal chartWidth,
        qreal share = 0.3, qreal minimum = 90);
    /// The horizontal bar (0 = top row, best first) at `y` of a plot area, or -1.
    static int rowAt(qreal y, const QRectF& plotArea, int bars);
};

/// A label that wants a place next to its point.
struct PointLabel
{
    QPointF anchor; ///< the point, in the coordinates of `bounds`
    QSizeF size; ///< the label's text size
};

/// Places labels greedily, in the given order (most important first): each tries right of its point,
/// then left, above and below, `gap` away from the marker of radius `markerRadius`, and takes the first
/// place that lies inside `bounds` and overlaps neither a label placed before nor any point's marker.
/// A label without such a place is left out (nullopt): its point keeps its tooltip.
std::vector<std::optional<QRectF>> placePointLabels(
    const std::vector<PointLabel>& labels, const QRectF& bounds, qreal markerRadius, qreal gap = 3);

} // namespace structscope
