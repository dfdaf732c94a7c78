#pragma once

#include "charts/chartview.h"
#include "models/groupkey.h"
#include "models/reportdata.h"

#include <string>
#include <vector>

class QBarSeries;
class QBarSet;

namespace structscope {

/// A bar per report group for one metric, best first, with its 95% interval drawn as an error bar
/// (QtCharts has none: each is a small line series on the bar's category).
class MetricBarChart : public ChartView
{
    Q_OBJECT
public:
    explicit MetricBarChart(QWidget* parent = nullptr);

    void setReport(ReportDataPtr data, const std::string& metricId);
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
    std::vector<GroupKey> m_bars;
    QStringList m_categories;
    std::vector<Interval> m_intervals;
    QBarSet* m_set = nullptr;
};

} // namespace structscope
