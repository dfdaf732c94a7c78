// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "charts/paintedchart.h"
#include "charts/upsetlayout.h"
#include "charts/vennlayout.h"
#include "report/failureoverlaps.h"

#include <QWidget>

namespace structscope {

/// Which cases fail for which models: one diagram of the chosen sets of a FailureOverlaps. Two or three sets give a
/// Venn diagram with every exclusive region's count written in; one set a single circle; four or more an UpSet plot
/// (the largest `topN` intersections as bars, largest first, over a dot matrix, with each set's size as a bar left of
/// its name). Clicking a region, a bar or a set asks for those cases. Geometry comes from VennLayout and UpSetLayout;
/// colours from the palette, so dark mode and export follow.
class OverlapsChart : public PaintedChart
{
    Q_OBJECT
public:
    explicit OverlapsChart(QWidget* parent = nullptr);

    void setData(FailureOverlaps overlaps);
    const FailureOverlaps& overlaps() const { return m_overlaps; }
    /// At most this many intersections are drawn in an UpSet plot (0: all).
    void setTopN(int n);
    int topN() const { return m_topN; }
    /// Four or more sets (or any number, once asked for): an UpSet plot instead of a Venn diagram.
    bool isUpSet() const { return m_upSetAlways || m_overlaps.sets.size() > 3; }
    /// Draws an UpSet plot however few sets there are.
    void setUpSetAlways(bool always);
    /// Whether there is a diagram at all.
    bool hasData() const { return !m_overlaps.sets.empty(); }

    /// The UpSet columns: the masks of the largest regions, at most topN(), largest first.
    std::vector<std::uint64_t> upSetColumns() const;
    VennLayout vennLayout(qreal width) const;
    UpSetLayout upSetLayout(qreal width) const;

    struct Hit
    {
        enum Kind { None, Region, Set } kind = None;
        std::uint64_t mask = 0; ///< Region: the exclusive region (0: the cases no chosen set fails)
        int set = -1; ///< Set: the chosen set's index
        friend bool operator==(const Hit&, const Hit&) = default;
    };
    Hit hitAt(const QPointF& point) const;
    /// A point inside region `mask` (a Venn region, the Venn footer for 0, an UpSet column); (-1, -1) when absent.
    QPointF regionPoint(std::uint64_t mask) const;
    /// A point on set i's row of an UpSet plot (its name); (-1, -1) in a Venn diagram.
    QPointF setPoint(int set) const;

    QString exportTitle() const override;
    QSize exportSize() const override;
    int heightForWidth(int width) const override;

Q_SIGNALS:
    /// The cases of exactly the sets of `mask` (0: of none of them) were clicked.
    void regionClicked(quint64 mask);
    /// The cases set i fails were clicked (an UpSet set row).
    void setClicked(int set);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void paintAll(QPainter& painter, const QRectF& bounds, const QPalette& palette, bool interactive) const override;
    void clearHover() override { m_hover = {}; }

private:
    void paintVenn(QPainter& painter, qreal width, const QPalette& palette, bool interactive) const;
    void paintUpSet(QPainter& painter, qreal width, const QPalette& palette, bool interactive) const;
    QString footerText() const;
    QString setName(int set) const;
    qreal titleHeight() const;
    qreal footerHeight() const;

    FailureOverlaps m_overlaps;
    int m_topN = 20;
    bool m_upSetAlways = false;
    Hit m_hover;
};

} // namespace structscope
