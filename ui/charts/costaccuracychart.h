#pragma once

#include "charts/chartview.h"
#include "models/groupkey.h"
#include "models/reportdata.h"

#include <string>
#include <vector>

namespace structscope {

/// Cost per success (x) against one metric (y), a labelled point per report group: which models
/// buy accuracy cheaply. Groups without a recorded cost are named in a note, not plotted.
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

Q_SIGNALS:
    void groupClicked(const structscope::GroupKey& group);

protected:
    void applyPalette(const QPalette& palette) override;

private:
    QStringList m_plotted;
    QStringList m_unplotted;
};

} // namespace structscope
