// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/configcomparison.h"
#include "charts/chartview.h"

#include <QStringList>

#include <vector>

class QBarSet;

namespace structscope {

/// Paired comparisons as a forest plot: one horizontal bar per comparison (e.g. a model under J+
/// against itself under P) from zero to the difference B − A in percentage points, with its paired
/// bootstrap 95% interval as an error bar and the McNemar (or sign test) p in the label. Bars where B
/// is ahead and where A is ahead get different colours.
class ComparisonChart : public ChartView
{
    Q_OBJECT
public:
    explicit ComparisonChart(QWidget* parent = nullptr);

    /// Draws the comparisons that succeeded (ok()), in the order given, top to bottom.
    void setComparisons(const std::vector<ConfigComparison>& comparisons);
    /// The bar labels, top to bottom: "A → B", with simulated models marked, and p.
    QStringList categories() const { return m_categories; }
    /// The differences drawn, in points, top to bottom.
    const std::vector<double>& deltas() const { return m_deltas; }
    const std::vector<Interval>& intervals() const { return m_intervals; }

    /// The text of a comparison's bar: "sim:careful (simulated): P → J+ (p < 0.001)".
    static QString barLabel(const ConfigComparison& comparison);

protected:
    void applyPalette(const QPalette& palette) override;

private:
    QStringList m_categories;
    std::vector<double> m_deltas;
    std::vector<Interval> m_intervals;
    QBarSet* m_ahead = nullptr; ///< B better than A
    QBarSet* m_behind = nullptr;
};

} // namespace structscope
