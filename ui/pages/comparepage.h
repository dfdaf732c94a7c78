#pragma once

#include "models/configcomparison.h"
#include "pages/recordspage.h"

#include <QThreadPool>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace structscope {

class DiscordantModel;
class GoldToggle;

/// Two configurations (a model under two strategies, or two models) on the same cases: their rates,
/// the difference in points with a paired bootstrap 95% interval, the exact McNemar p, and the
/// discordant cases; activating one opens its diff on the Cases page.
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

Q_SIGNALS:
    void comparisonApplied();

protected:
    void reload() override;
    void recordsReady(const ScoredSetPtr& set, const QString& error) override;

private:
    void refill();
    void compare();
    void showComparison(const ConfigComparisonPtr& comparison);

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
};

} // namespace structscope
