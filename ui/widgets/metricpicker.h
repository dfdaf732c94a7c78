// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/reportdata.h"

#include <QWidget>

#include <string>

class QComboBox;

namespace structscope {

/// A family selector and a metric selector over the metrics a report holds, with each metric's
/// definition as its tooltip. A report opens on the family last picked (remembered per workspace and
/// page with rememberIn()), else on the report's defaultFamily(); the metric picked last is kept when
/// the family offers it.
class MetricPicker : public QWidget
{
    Q_OBJECT
public:
    /// `includeValues`: also offer latency and cost per success (not only scores).
    explicit MetricPicker(bool includeValues, QWidget* parent = nullptr);

    /// Offers the families and metrics of `data` (nothing for nullptr).
    void setReport(const ReportDataPtr& data);
    QString family() const;
    std::string metricId() const;
    /// Selects this metric (and its family) if offered.
    bool setMetric(const std::string& metricId);
    /// Remembers the picked family in the settings of `workspace` under `scope` (a page id), and opens the next
    /// report on the family remembered there. An empty `workspace` remembers nothing beyond this picker.
    void rememberIn(const QString& workspace, const QString& scope);

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
    QString m_preferredFamily; ///< the family last picked, opened when offered
    QString m_workspace;
    QString m_scope;
};

} // namespace structscope
