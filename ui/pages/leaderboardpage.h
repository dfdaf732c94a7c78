// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pages/page.h"
#include "widgets/frozencolumntableview.h" // view() is one: callers use it as the QTableView it is

class QComboBox;
class QLabel;
class QScrollArea;

namespace structscope {

class CostAccuracyChart;
class FieldBreakdownDialog;
class FilterLineEdit;
class GoldToggle;
class LeaderboardModel;
class ResultsProxyModel;
class MetricBarChart;
class MetricPicker;
class SimulatedDataNote;

/// The leaderboard: one row per model (or model × strategy) with the scores of a metric family
/// and their intervals, n, cost per success and latency; a bar chart of the chosen metric with
/// error bars and a cost-vs-accuracy scatter. Activating a row asks for that group's cases.
/// The model column stays in place while the others scroll sideways, the header's context menu hides
/// and shows columns, and the family picked and the hidden columns are remembered per workspace. With
/// many groups the bar chart lies horizontally and scrolls; without recorded costs the scatter gives
/// its room to the bar chart.
class LeaderboardPage : public Page
{
    Q_OBJECT
public:
    explicit LeaderboardPage(Workspace* workspace, QWidget* parent = nullptr);

    QString title() const override { return tr("Leaderboard"); }
    QString pageId() const override { return QStringLiteral("leaderboard"); }
    QList<NamedChart> charts() override;
    std::optional<Report> table() const override;
    QString tableCaption() const override;

    LeaderboardModel* model() const { return m_model; }
    ResultsProxyModel* proxy() const { return m_proxy; }
    FrozenColumnTableView* view() const { return m_view; }
    MetricPicker* metricPicker() const { return m_picker; }
    GoldToggle* goldToggle() const { return m_gold; }
    MetricBarChart* barChart() const { return m_bars; }
    CostAccuracyChart* scatter() const { return m_scatter; }
    /// The scroll area the bar chart lives in (it grows with its bars).
    QScrollArea* barScroll() const { return m_barScroll; }
    /// The note shown while the report includes simulated models.
    SimulatedDataNote* simulatedNote() const { return m_simulatedNote; }
    /// Groups rows by model alone or by model × strategy.
    void setGroupByStrategy(bool byStrategy);
    /// Opens the "by field" breakdown of a row's group (its key without the gold basis), computed from the scored
    /// responses on the page's gold basis: nullptr (and nothing opened) while they are not scored yet.
    FieldBreakdownDialog* showFieldBreakdown(const GroupKey& key);

protected:
    void reload() override;
    void reportReady(const ReportDataPtr& data, const QString& error) override;

private:
    void showMetric(const std::string& metricId);
    void drillDownWithoutGold(const GroupKey& key);

    LeaderboardModel* m_model;
    ResultsProxyModel* m_proxy;
    FrozenColumnTableView* m_view;
    MetricPicker* m_picker;
    GoldToggle* m_gold;
    QComboBox* m_groupBy;
    FilterLineEdit* m_filter;
    QLabel* m_status;
    SimulatedDataNote* m_simulatedNote;
    MetricBarChart* m_bars;
    QScrollArea* m_barScroll;
    QString m_columnsOf; ///< the workspace whose hidden columns the table shows
    CostAccuracyChart* m_scatter;
};

} // namespace structscope
