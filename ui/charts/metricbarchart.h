// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/groupkey.h"
#include "analysis/reportdata.h"
#include "charts/chartview.h"

#include <string>
#include <vector>

class QBarCategoryAxis;
class QBarSeries;
class QBarSet;
class QLineSeries;
class QValueAxis;

namespace structscope {

/// A bar per report group for one metric, best first, with its 95% interval drawn as an error bar
/// (QtCharts has none: each is a small line series on the bar's category). Up to
/// BarChartGeometry::kMaxUprightBars groups stand as upright bars; more lie as horizontal bars, best on
/// top, one row each with the group's name elided in the middle (its tooltip gives it whole); the
/// chart then asks for the height its rows need (in a scroll area it grows with them) and exports at
/// a size where every name is written whole.
class MetricBarChart : public ChartView
{
    Q_OBJECT
public:
    explicit MetricBarChart(QWidget* parent = nullptr);

    /// Shows `metricId` of `data`. When the chart shows that metric already, with as many bars and error bars in
    /// the same places (a gold edit's new values, say), the bars and error bars are updated where they are instead
    /// of made anew — at a hundred groups making them anew cost ~30 ms of the next paint.
    void setReport(ReportDataPtr data, const std::string& metricId);
    /// How often setReport() updated the shown series in place (tests).
    int updatesInPlace() const { return m_updatesInPlace; }
    /// The groups in bar order (left to right; top to bottom when horizontal).
    const std::vector<GroupKey>& bars() const { return m_bars; }
    /// The categories (bar labels, whole) in bar order.
    QStringList categories() const { return m_categories; }
    /// True when the bars lie horizontally (more than BarChartGeometry::kMaxUprightBars groups, or always
    /// with setAlwaysHorizontal()).
    bool isHorizontal() const { return m_horizontal; }
    /// Lays the bars horizontally whatever their number (exports: every name written whole, on its row).
    void setAlwaysHorizontal(bool always);
    /// The labels written on the category axis, in bar order, elided in the middle: to the label column's width
    /// when horizontal, to about a bar's width when upright.
    QStringList shownLabels() const { return m_shown; }
    /// The whole name of the group whose label or bar lies at `pos` (viewport coordinates), or "".
    QString labelToolTipAt(const QPoint& pos) const;
    /// The height the horizontal bars need (0 when upright).
    int neededHeight() const;

    QSize exportSize() const override;
    void renderForExport(QPainter& painter, const QRectF& target) override;
    QSize minimumSizeHint() const override;
    /// Intervals drawn as error bars, in bar order (invalid where a group has none).
    const std::vector<Interval>& errorBars() const { return m_intervals; }

Q_SIGNALS:
    void groupClicked(const structscope::GroupKey& group);

protected:
    void applyPalette(const QPalette& palette) override;
    void resizeEvent(QResizeEvent* event) override;
    /// Tooltips over the category labels: the whole name.
    bool viewportEvent(QEvent* event) override;

private:
    /// Removes every series and axis: the chart shows nothing.
    void clearSeries();
    /// The category axis' labels for a chart `width` wide (horizontal: elided in the middle; whole when `whole`).
    QStringList axisLabels(qreal width, bool whole) const;
    /// Writes axisLabels() on the category axis when they differ from what it shows.
    void updateAxisLabels(qreal width, bool whole);

    std::vector<GroupKey> m_bars;
    QStringList m_categories;
    QStringList m_shown;
    bool m_horizontal = false;
    bool m_alwaysHorizontal = false;
    std::vector<Interval> m_intervals;
    QBarSet* m_set = nullptr;
    // What an update in place changes: the metric shown, its axes, the error bars by bar (null where none).
    std::string m_metricId;
    QBarCategoryAxis* m_axisCategories = nullptr;
    QValueAxis* m_axisValues = nullptr;
    std::vector<QLineSeries*> m_errorBars;
    int m_updatesInPlace = 0;
};

} // namespace structscope
