// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>
#include <QThreadPool>

class QTabWidget;
class QTreeWidget;

namespace structscope {

/// Help ▸ About the Data: what the simulated models are and what their numbers mean. Everything
/// it lists is read from the code and the data it describes: the built-in profiles (simProfiles()),
/// how each output strategy scales their fault rates (strategyEffect()), the built-in suites, loaded
/// from their folders off the GUI thread, and the gold mistakes the demo workspace plants
/// (demoGoldMistakes()).
class SimulatedDataDialog : public QDialog
{
    Q_OBJECT
public:
    explicit SimulatedDataDialog(QWidget* parent = nullptr);
    ~SimulatedDataDialog() override;

    /// Shows the dialog of `parent`'s window, creating it on first use (one per window).
    static SimulatedDataDialog* showFor(QWidget* parent);

    /// Data role of a fault-rate cell and a strategy-factor cell: the number as a double.
    static constexpr int ValueRole = Qt::UserRole;

    QTabWidget* tabs() const { return m_tabs; }
    /// One row per profile: name, output layout, description, latency.
    QTreeWidget* profileTable() const { return m_profiles; }
    /// Fault rows (grouped) × one column per profile.
    QTreeWidget* rateTable() const { return m_rates; }
    /// One row per strategy: what it asks for, then the factor of each fault group.
    QTreeWidget* strategyTable() const { return m_strategies; }
    /// One row per built-in suite (once loaded): name, version, cases, licence, folder.
    QTreeWidget* suiteTable() const { return m_suites; }
    /// One row per gold mistake the demo workspace plants (demoGoldMistakes()): suite, case, field, stored
    /// gold, true value, what the mistake is.
    QTreeWidget* goldMistakeTable() const { return m_mistakes; }
    /// True once the built-in suites were read (suitesLoaded() was emitted).
    bool hasLoadedSuites() const { return m_suitesLoaded; }

Q_SIGNALS:
    void suitesLoaded();

private:
    QWidget* makeProfilesTab();
    QWidget* makeRatesTab();
    QWidget* makeStrategiesTab();
    QWidget* makeSuitesTab();
    QWidget* makeGoldMistakesTab();
    void loadSuites();

    QTabWidget* m_tabs;
    QTreeWidget* m_profiles;
    QTreeWidget* m_rates;
    QTreeWidget* m_strategies;
    QTreeWidget* m_suites;
    QTreeWidget* m_mistakes;
    bool m_suitesLoaded = false;
    // Qt 6.4's then(context, …) must find its context alive when the job ends: the dialog waits
    // for its loader before it goes away.
    QThreadPool m_pool;
};

} // namespace structscope
