// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>

class QTreeWidget;

namespace structscope {

/// Every metric StructScope computes, grouped by family: id, label, how it aggregates, which
/// direction is better, and its definition (from the metric registry, as docs/metrics.md states it).
class MetricGlossaryDialog : public QDialog
{
    Q_OBJECT
public:
    explicit MetricGlossaryDialog(QWidget* parent = nullptr);

    /// Shows only metrics whose id, label or definition contains `text`.
    void setFilter(const QString& text);
    /// Metric rows currently shown.
    int visibleMetricCount() const;

private:
    QTreeWidget* m_tree;
};

} // namespace structscope
