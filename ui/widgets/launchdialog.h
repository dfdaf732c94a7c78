// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "net/connectiontest.h"
#include "providers/costestimate.h"
#include "providers/modelspec.h"
#include "providers/pricetable.h"
#include "providers/strategy.h"
#include "run/runplan.h"

#include <QDialog>
#include <QHash>
#include <QThreadPool>
#include <QTimer>

#include <functional>
#include <optional>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace structscope {

class ModelProfileEditor;

/// The run launcher: suites (the built-in ones and folders the user adds), models (provider profiles:
/// kind, base URL, model name and the *name* of the environment variable holding the API key — never the
/// key; the simulated profiles are always listed, labelled "simulated"), strategies, repeats and
/// concurrency, with a "test connection" for the profile being edited and a cost estimate that follows
/// every change. Suites load and the estimate is computed off the GUI thread.
///
/// The dialog builds the plans (one RunPlan per suite) and hands them to its starter on "Start run"; it
/// stays open, showing why, when the starter refuses them.
class LaunchDialog : public QDialog
{
    Q_OBJECT
public:
    /// Starts the plans; false with a message when they cannot start.
    using Starter = std::function<bool(const QList<RunPlan>& plans, QString* error)>;

    explicit LaunchDialog(QWidget* parent = nullptr);
    ~LaunchDialog() override;

    void setStarter(Starter starter) { m_starter = std::move(starter); }
    /// Used for the estimate instead of the user's (or the built-in) price table.
    void setPriceTable(const PriceTable& prices);

    // ---- suites ---------------------------------------------------------------------------------
    /// Lists these folders after the built-in suites (folders already listed are skipped).
    void addSuiteFolders(const QStringList& dirs);
    /// Adds a suite folder the user chose; false (and why) when it holds no suite.json.
    bool addSuiteFolder(const QString& dir, QString* error = nullptr);
    /// Folders added with addSuiteFolder() (for the workspace's list of suite folders).
    QStringList addedSuiteFolders() const { return m_addedFolders; }
    QStringList listedSuiteFolders() const;
    void setSelectedSuites(const QStringList& dirs);
    QStringList selectedSuites() const;
    /// The loaded suites (folder → suite), for the caller's cache.
    QHash<QString, SuitePtr> loadedSuites() const { return m_suites; }
    /// Folders that failed to load, with the first problems.
    QHash<QString, QString> suiteProblems() const { return m_suiteProblems; }

    // ---- models ---------------------------------------------------------------------------------
    /// The user's profiles (not simulated), listed after the simulated ones.
    void setModelProfiles(const QList<ModelSpec>& profiles);
    QList<ModelSpec> modelProfiles() const;
    /// Adds a profile (or finds the equal one) and checks it; false when it does not validate.
    bool addModelProfile(const ModelSpec& spec, QString* error = nullptr);
    void setSelectedModels(const QList<ModelSpec>& specs);
    QList<ModelSpec> selectedModels() const;

    ModelProfileEditor* profileEditor() const { return m_editor; }
    /// Fills the profile editor.
    void editProfile(const ModelSpec& spec);
    /// Tests the edited profile (one small request; simulated models need none). See connectionText().
    void testConnection();
    QString connectionText() const;
    bool isTestingConnection() const;

    // ---- strategies, repeats, concurrency ------------------------------------------------------
    void setSelectedStrategies(const QList<Strategy>& strategies);
    QList<Strategy> selectedStrategies() const;
    void setRepeats(int repeats);
    int repeats() const;
    /// Requests in flight per model endpoint.
    void setConcurrency(int perModel);
    int concurrency() const;

    // ---- estimate and plans --------------------------------------------------------------------
    /// True while suites load or the estimate is being computed.
    bool isBusy() const;
    /// The estimate line shown ("24 requests · ~12,345 tokens in · ~1,234 out · ~$0.0123"), or why not.
    QString estimateText() const;
    /// The estimate of the current choices over every selected suite; nullopt until computed.
    std::optional<CostEstimate> estimate() const { return m_estimate; }
    /// One plan per selected suite; empty, with what is missing, when the choices do not make a run.
    QList<RunPlan> plans(QString* error = nullptr) const;
    /// The message above the buttons (why Start is disabled, or why the starter refused).
    QString problemText() const;

    void accept() override;

Q_SIGNALS:
    /// The estimate (or the suite list) was updated.
    void estimateUpdated();
    void connectionTested(const structscope::ConnectionTestResult& result);

private:
    struct JobResult;

    QWidget* makeSuitesBox();
    QWidget* makeModelsBox();
    QWidget* makeSettingsBox();
    QWidget* makeEstimateBox();
    QListWidgetItem* addSuiteItem(const QString& dir, bool builtIn);
    QListWidgetItem* addModelItem(const ModelSpec& spec);
    QListWidgetItem* findModelItem(const ModelSpec& spec) const;
    void chooseSuiteFolder();
    void removeSelectedProfile();
    void scheduleRefresh();
    void refresh();
    void applyJob(const JobResult& result);
    void updateSuiteItem(QListWidgetItem* item);
    void showEstimate();
    void updateState();

    Starter m_starter;
    PriceTable m_prices;
    QString m_priceWarning;
    QListWidget* m_suiteList;
    QListWidget* m_modelList;
    ModelProfileEditor* m_editor;
    QPushButton* m_removeProfile;
    QList<QCheckBox*> m_strategyBoxes;
    QSpinBox* m_repeats;
    QSpinBox* m_concurrency;
    QCheckBox* m_insecureKey;
    QLabel* m_estimateLabel;
    QTreeWidget* m_estimateTable;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
    QPushButton* m_start;
    QString m_startError; ///< the starter's last refusal, shown until the choices change
    QStringList m_addedFolders;
    QHash<QString, SuitePtr> m_suites; ///< folder → loaded suite
    QHash<QString, QString> m_suiteProblems; ///< folder → why it does not load
    std::optional<CostEstimate> m_estimate;
    QTimer m_refreshTimer;
    quint64 m_generation = 0;
    int m_jobsRunning = 0;
    QThreadPool m_pool; ///< last member: waits for the jobs before the rest goes away
};

} // namespace structscope
