// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/configcomparison.h"
#include "pages/recordspage.h"
#include "report/pairmatrix.h"

#include <QThreadPool>

class QComboBox;
class QLabel;
class QListWidget;
class QStackedWidget;
class QSortFilterProxyModel;
class QTableView;

namespace structscope {

class DiscordantModel;
class GoldToggle;
class PairMatrixModel;

/// Two configurations (a model under two strategies, or two models) on the same cases: their rates,
/// the difference in points with a paired bootstrap 95% interval, the exact McNemar p, and the
/// discordant cases; activating one opens its diff on the Cases page. The "All pairs" view compares every
/// configuration with every other on the metric at once (PairMatrix), p values adjusted over all pairs by Holm or
/// Benjamini–Hochberg; activating a cell opens that pair in the two-configuration view.
class ComparePage : public RecordsPage
{
    Q_OBJECT
public:
    explicit ComparePage(Workspace* workspace, QWidget* parent = nullptr);
    ~ComparePage() override;

    QString title() const override { return tr("Compare"); }
    QString pageId() const override { return QStringLiteral("compare"); }

    /// Picks the configurations and metric; false for one that is not offered.
    bool setComparison(const Configuration& a, const Configuration& b, const std::string& metric);
    ConfigComparisonPtr comparison() const { return m_comparison; }
    DiscordantModel* discordantModel() const { return m_model; }
    QTableView* discordantView() const { return m_view; }
    QLabel* summary() const { return m_summary; }
    /// True while the comparison is computed.
    bool isComparing() const { return m_comparing; }

    /// The views of the page.
    enum class View { TwoConfigurations, AllPairs };
    void setView(View view);
    View view() const;
    /// The adjustment of the all-pairs view.
    void setAdjustment(PAdjustMethod method);
    PAdjustMethod adjustment() const;
    PairMatrixModel* pairMatrixModel() const { return m_pairModel; }
    QTableView* pairMatrixView() const { return m_pairView; }
    QLabel* pairsSummary() const { return m_pairsSummary; }
    /// True while the all-pairs matrix is computed.
    bool isComputingPairs() const { return m_computingPairs; }
    /// The configurations the all-pairs view can compare, each checkable; the unchecked ones are left out of the
    /// matrix and of its correction, and remembered per workspace.
    QListWidget* pairConfigurationList() const { return m_pairConfigs; }

Q_SIGNALS:
    void comparisonApplied();
    /// The all-pairs matrix was computed (or cleared) and shown.
    void pairsApplied();

protected:
    void reload() override;
    void recordsReady(const ScoredSetPtr& set, const QString& error) override;
    void changeEvent(QEvent* event) override;

private:
    void refill();
    void compare();
    void showComparison(const ConfigComparisonPtr& comparison);
    void computePairs();
    void showPairs(const std::shared_ptr<const PairMatrix>& matrix);
    void describePairs();
    void openPair(const QModelIndex& index);
    /// Lists `configurations` (the pickers', read once from the records) for the all-pairs view.
    void fillPairConfigurations(const std::vector<Configuration>& configurations);
    void pairConfigurationsChosen();
    std::vector<PairConfiguration> chosenPairConfigurations() const;

    DiscordantModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QComboBox* m_a;
    QComboBox* m_b;
    QComboBox* m_metric;
    GoldToggle* m_gold;
    QLabel* m_summary;
    QLabel* m_discordantTitle;
    ConfigComparisonPtr m_comparison;
    bool m_comparing = false;
    quint64 m_generation = 0;
    QThreadPool m_pool;
    // The all-pairs view.
    QComboBox* m_viewChooser = nullptr;
    QComboBox* m_adjust = nullptr;
    QStackedWidget* m_stack = nullptr;
    PairMatrixModel* m_pairModel = nullptr;
    QTableView* m_pairView = nullptr;
    QLabel* m_pairsSummary = nullptr;
    QListWidget* m_pairConfigs = nullptr;
    std::vector<PairConfiguration> m_pairConfigurations; ///< the list's items, in its order
    QString m_pairConfigsOf; ///< the workspace whose left-out configurations the list shows
    bool m_computingPairs = false;
    bool m_pairsStale = true; ///< the records or metric changed since the matrix was computed
    quint64 m_pairsGeneration = 0;
    QThreadPool m_pairsPool;
};

} // namespace structscope
