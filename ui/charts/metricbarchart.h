#pragma once

#include "charts/chartview.h"
#include "models/groupkey.h"
#include "models/reportdata.h"

#include <string>
#include <vector>

class QBarCategoryAxis;
class QBarSeries;
class QBarSet;
class QLineSeries;
class QValueAxis;

namespace structscope {

/// A bar per report group for one metric, best first, with its 95% interval drawn as an error bar
/// (QtCharts has none: each is a small line series on the bar's category).
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
    /// The groups in bar order (left to right).
    const std::vector<GroupKey>& bars() const { return m_bars; }
    /// The categories (bar labels) in bar order.
    QStringList categories() const { return m_categories; }
    /// Intervals drawn as error bars, in bar order (invalid where a group has none).
    const std::vector<Interval>& errorBars() const { return m_intervals; }

Q_SIGNALS:
    void groupClicked(const structscope::GroupKey& group);

protected:
    void applyPalette(const QPalette& palette) override;

private:
    /// Removes every series and axis: the chart shows nothing.
    void clearSeries();

    std::vector<GroupKey> m_bars;
    QStringList m_categories;
    std::vector<Interval> m_intervals;
    QBarSet* m_set = nullptr;
    // What an update in place changes: the metric shown, its axes, the error bars by bar (null where none).
    std::string m_metricId;
    QBarCategoryAxis* m_axisX = nullptr;
    QValueAxis* m_axisY = nullptr;
    std::vector<QLineSeries*> m_errorBars;
    int m_updatesInPlace = 0;
};

} // namespace structscope
