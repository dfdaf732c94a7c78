#pragma once

#include "models/reportdata.h"

#include <QWidget>

#include <string>

class QComboBox;

namespace structscope {

/// A family selector and a metric selector over the metrics a report holds, with each metric's
/// definition as its tooltip. Keeps the choice when a new report carries the same metric.
class MetricPicker : public QWidget
{
    Q_OBJECT
public:
    /// `includeValues`: also offer latency and cost per success (not only scores).
    explicit MetricPicker(bool includeValues, QWidget* parent = nullptr);

    /// Offers the families and metrics of `data` (nothing for nullptr).
    void setReport(const ReportDataPtr& data);
    QString family() const;
    std::string metric() const;
    /// Selects this metric (and its family) if offered.
    bool setMetric(const std::string& metricId);

Q_SIGNALS:
    void familyChanged(const QString& family);
    void metricChanged(const std::string& metricId);

private:
    void fillMetrics();

    bool m_includeValues;
    ReportDataPtr m_data;
    QComboBox* m_family;
    QComboBox* m_metric;
    std::string m_wanted; ///< the user's last choice, restored when it comes back
};

} // namespace structscope
