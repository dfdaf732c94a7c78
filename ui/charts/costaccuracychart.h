// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/groupkey.h"
#include "analysis/reportdata.h"
#include "charts/chartview.h"

#include <string>
#include <vector>

class QGraphicsSimpleTextItem;
class QScatterSeries;

namespace structscope {

/// Cost per success (x) against one metric (y), a point per report group: which models buy accuracy
/// cheaply. Points are named (elided in the middle) where a name has room (placePointLabels(), the best
/// groups first); every point's tooltip names it. Groups without a recorded cost are named in a note, not plotted.
class CostAccuracyChart : public ChartView
{
    Q_OBJECT
public:
    explicit CostAccuracyChart(QWidget* parent = nullptr);

    void setReport(ReportDataPtr data, const std::string& metricId);
    /// The plotted groups' labels, in plotting order.
    QStringList plottedLabels() const { return m_plotted; }
    /// Groups left out for want of a finite cost per success.
    QStringList unplottedLabels() const { return m_unplotted; }
    /// The groups whose name is written next to their point, as placed for the chart's current size.
    QStringList labelledPoints() const;
    /// The rectangles of the written names (chart coordinates), in the order of labelledPoints().
    QList<QRectF> labelRects() const;

Q_SIGNALS:
    void groupClicked(const structscope::GroupKey& group);

protected:
    void applyPalette(const QPalette& palette) override;

private:
    /// Writes the names that have room next to their points (again after every change of the plot area).
    void placeLabels();

    struct Point
    {
        QString label;
        QPointF value; ///< (cost, metric)
        QScatterSeries* series = nullptr;
        QGraphicsSimpleTextItem* text = nullptr;
    };
    std::vector<Point> m_points; ///< in labelling order: the best value first
    QStringList m_plotted;
    QStringList m_unplotted;
};

} // namespace structscope
