// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPainterPath>
#include <QPointF>
#include <QRectF>

#include <cstdint>

namespace structscope {

/// Geometry of a symmetric one-, two- or three-set Venn diagram (region counts are written in, so
/// the circles are equal): circle centres and radius, where each region's count goes, where each set's
/// name goes, and which region a point lies in. Pure; shared by painting, hit testing and export.
///
/// Regions are masks: bit i set means "inside circle i". With three sets the centres form an
/// equilateral triangle whose side equals the radius (0 top left, 1 top right, 2 bottom), centred in
/// the diagram area; with two they sit side by side one radius apart.
struct VennLayout
{
    // Inputs
    int sets = 3; ///< 1, 2 or 3
    QRectF bounds;
    qreal titleHeight = 0; ///< a title strip at the top of `bounds`
    qreal footerHeight = 0; ///< a strip at the bottom (N_err, the "none of these" count)
    qreal labelMargin = 18; ///< room around the circles for the set names

    /// The part of `bounds` the circles are fitted into.
    QRectF diagramRect() const;
    qreal radius() const;
    QPointF center(int set) const;
    /// The centroid of the centres (the middle of the diagram area).
    QPointF middle() const;
    /// Where the count of region `mask` is written (mask 1 … 2^sets − 1).
    QPointF regionAnchor(unsigned mask) const;
    /// Where the name of set i is written: just outside its circle, away from the others.
    QPointF setLabelAnchor(int set) const;
    /// The footer strip (below the diagram).
    QRectF footerRect() const;
    QRectF titleRect() const;
    /// The mask of the circles containing `point` (0: inside the diagram area but in no circle),
    /// or -1 outside `bounds`.
    int regionAt(const QPointF& point) const;
    /// Whether `point` lies strictly inside exactly the circles of `mask`.
    bool inRegion(const QPointF& point, unsigned mask) const;
};

/// The area of exactly the circles of `mask` (bit i: set i): inside each of them and outside every other.
QPainterPath vennRegionPath(const VennLayout& layout, std::uint64_t mask);

} // namespace structscope
