// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/errorsets.h"
#include "charts/paintedchart.h"
#include "charts/smallmultipleslayout.h"
#include "charts/upsetlayout.h"
#include "charts/vennlayout.h"

#include <QWidget>

namespace structscope {

/// Small multiples of error-set diagrams, one panel per group (model or model × strategy): a Venn
/// diagram of up to three labels with every region's count written in (they add up to N_err with the
/// "none of these" count in the footer), or an UpSet plot when more labels are picked. Clicking a
/// region or an UpSet bar asks for those cases. Geometry comes from VennLayout, UpSetLayout and
/// SmallMultiplesLayout; colours from the palette, so dark mode and export follow.
class ErrorSetsChart : public PaintedChart
{
    Q_OBJECT
public:
    explicit ErrorSetsChart(QWidget* parent = nullptr);

    void setData(std::vector<ErrorSetCounts> groups);
    const std::vector<ErrorSetCounts>& groups() const { return m_groups; }
    /// More than three labels: UpSet plots instead of Venn diagrams.
    bool isUpSet() const;

    SmallMultiplesLayout gridFor(qreal width) const;
    VennLayout vennFor(const QRectF& panel) const;
    UpSetLayout upSetFor(const QRectF& panel, const ErrorSetCounts& group) const;
    /// The intersections of an UpSet panel, in column order (largest first, "none" last).
    static std::vector<quint32> upSetColumns(const ErrorSetCounts& group);

    struct Hit
    {
        int group = -1;
        int mask = -1; ///< region (Venn) or intersection mask (UpSet); -1: none
        friend bool operator==(const Hit&, const Hit&) = default;
    };
    /// What lies under a point of the widget.
    Hit hitAt(const QPointF& point) const;
    /// The whole title of the panel whose title line lies under `point` (it is elided in the middle), or "".
    QString panelTitleAt(const QPointF& point) const;
    /// A point inside the region `mask` of group `group` (tests click there); (-1, -1) when absent.
    QPointF regionPoint(int group, quint32 mask) const;

    QString exportTitle() const override;
    QSize exportSize() const override;
    int heightForWidth(int width) const override;

    /// The hue of set i of a diagram.
    static QColor setColor(int set);

Q_SIGNALS:
    /// The cases of one region: the group's key plus ("errors", region).
    void regionClicked(const structscope::GroupKey& key);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void paintAll(QPainter& painter, const QRectF& bounds, const QPalette& palette, bool interactive) const override;
    void clearHover() override { m_hover = {}; }

private:
    void paintVenn(QPainter& painter, const QRectF& panel, int index, const QPalette& palette, bool interactive) const;
    void paintUpSet(QPainter& painter, const QRectF& panel, int index, const QPalette& palette, bool interactive) const;
    void paintPanelFrame(
        QPainter& painter, const QRectF& panel, const ErrorSetCounts& group, const QPalette& palette) const;
    QString footerText(const ErrorSetCounts& group) const;
    qreal titleHeight() const;

    std::vector<ErrorSetCounts> m_groups;
    Hit m_hover;
    // The panels' titles as painted, for this width and font (elided in the middle, kept apart).
    mutable QStringList m_shownTitles;
    mutable qreal m_shownTitlesWidth = 0;
    mutable QFont m_shownTitlesFont;
};

} // namespace structscope
