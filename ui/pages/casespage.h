// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/casedetail.h"
#include "models/casesmodel.h"
#include "models/casesproxymodel.h"
#include "pages/recordspage.h"

#include <QThreadPool>

#include <optional>

class QComboBox;
class QLabel;
class QTableView;
class QToolButton;

namespace structscope {

class DiffView;
class FilterLineEdit;
class GoldToggle;

/// The failure explorer: every scored response (case × model × strategy × repeat) in a filterable,
/// sortable table with its verdict, error kinds, category, tier, latency and cost; a debounced search
/// over the case inputs; and the selected response's diff against its gold below. Other pages arrive
/// here pre-filtered through showCases() (the main window routes their drill-downs).
class CasesPage : public RecordsPage
{
    Q_OBJECT
public:
    explicit CasesPage(Workspace* workspace, QWidget* parent = nullptr);
    ~CasesPage() override;

    QString title() const override { return tr("Cases"); }
    QString pageId() const override { return QStringLiteral("cases"); }

    /// Shows the cases of a drill-down key (model, strategy, category, case, a Venn region, …) and
    /// selects the first; keys without a filter box of their own show as a removable "pinned" filter.
    void showCases(const GroupKey& key);
    /// Selects the row of this response, if shown; false otherwise.
    bool selectResponse(const CaseRef& ref);
    /// The filter in force.
    CaseFilter filter() const { return m_proxy->filter(); }

    CasesModel* model() const { return m_model; }
    CasesProxyModel* proxy() const { return m_proxy; }
    QTableView* view() const { return m_view; }
    DiffView* diffView() const { return m_diff; }
    GoldToggle* goldToggle() const { return m_gold; }
    FilterLineEdit* searchField() const { return m_search; }
    /// True until the case inputs for search have been read.
    bool inputsPending() const { return m_inputsPending; }

protected:
    void reload() override;
    void recordsReady(const ScoredSetPtr& set, const QString& error) override;

private:
    void loadInputs();
    void refillCombos();
    void applyFilter();
    void updateCount();
    void showCurrent();
    QList<CaseRef> answersTo(const ScoredRecord& record) const;

    CasesModel* m_model;
    CasesProxyModel* m_proxy;
    QTableView* m_view;
    DiffView* m_diff;
    GoldToggle* m_gold;
    FilterLineEdit* m_search;
    QComboBox* m_modelBox;
    QComboBox* m_strategyBox;
    QComboBox* m_verdictBox;
    QComboBox* m_errorBox;
    QComboBox* m_categoryBox;
    QComboBox* m_tierBox;
    QLabel* m_pinned;
    QToolButton* m_clearPinned;
    QLabel* m_count;
    CaseFilter m_pinnedFilter; ///< drill-down parts without a combo (suite, case, region, …)
    std::optional<CaseRef> m_wanted; ///< the response to select when the data arrives
    bool m_selectFirst = false;
    bool m_inputsPending = false;
    quint64 m_inputsGeneration = 0;
    /// The workspace's content generation the inputs shown (or being read) are of.
    std::optional<quint64> m_inputsContent;
    QThreadPool m_pool;
};

} // namespace structscope
