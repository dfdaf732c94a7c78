// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/errorsets.h"
#include "models/failureoverlapsmodel.h"
#include "pages/recordspage.h"

#include <QList>

#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace structscope {

class ErrorSetsChart;
class GoldToggle;
class OverlapsChart;

/// Which errors go together, in two modes.
///
/// Error kinds: per model (or model × strategy) a Venn diagram of the responses with MK, MV and WV errors (or any
/// labels picked; more than three become UpSet plots), with every region's count written in.
///
/// Across models: which cases fail for which models (or model × strategy): the sets are the models, the elements the
/// cases, a case in a model's set when a majority of that model's answers to it fail a criterion (verdict not
/// correct, an error of a kind, a metric below a threshold; core/report/failureoverlaps.h). The sets are picked from
/// a checkable list; two or three give a Venn diagram, more an UpSet plot of the largest intersections. The cases
/// every chosen set fails go to the Audit page.
///
/// Clicking a region lists its responses on the Cases page.
class ErrorsPage : public RecordsPage
{
    Q_OBJECT
public:
    explicit ErrorsPage(Workspace* workspace, QWidget* parent = nullptr);

    QString title() const override { return tr("Errors"); }
    QString pageId() const override { return QStringLiteral("errors"); }
    QList<NamedChart> charts() override;

    ErrorSetsChart* chart() const { return m_chart; }
    /// The picked labels, in menu order.
    std::vector<ErrorLabel> labels() const;
    void setLabels(const std::vector<ErrorLabel>& labels);
    void setRowsByStrategy(bool byStrategy);

    // Across models
    bool isAcrossModels() const;
    void setAcrossModels(bool across);
    OverlapsChart* overlapsChart() const { return m_overlapsChart; }
    OverlapSetsModel* setsModel() const { return m_setsModel; }
    OverlapRegionsModel* regionsModel() const { return m_regionsModel; }
    FailureCriterion criterion() const;
    void setCriterion(const FailureCriterion& criterion);
    void setTopN(int n);
    /// The button that opens the cases every chosen set fails on the Audit page.
    QPushButton* auditButton() const { return m_auditButton; }
    /// The overlap shown (nullptr when none).
    std::shared_ptr<const FailureOverlaps> overlaps() const { return m_overlaps; }

Q_SIGNALS:
    /// The user asked to audit these cases (those every chosen set fails); the main window opens the Audit page on
    /// them.
    void auditRequested(const std::vector<structscope::CaseKey>& cases, const QString& caption);

protected:
    void reload() override;
    void recordsReady(const ScoredSetPtr& set, const QString& error) override;

private:
    QWidget* buildAcrossModels();
    void rebuild();
    void rebuildAcross();
    void updateOverlaps();
    void updateCriterionControls();
    std::vector<std::string> groupBy() const;
    void drillCases(const std::vector<CaseKey>& cases, const QString& caption);

    ErrorSetsChart* m_chart;
    GoldToggle* m_gold;
    QComboBox* m_mode;
    QLabel* m_rowsLabel;
    QComboBox* m_rows;
    QWidget* m_kindControls;
    QList<QToolButton*> m_labelButtons;
    QLabel* m_status;
    QString m_error;
    QStackedWidget* m_stack;
    QLabel* m_kindsHint;

    QWidget* m_acrossControls;
    QComboBox* m_criterion;
    QComboBox* m_errorKind;
    QComboBox* m_metric;
    QDoubleSpinBox* m_threshold;
    QSpinBox* m_topN;
    OverlapsChart* m_overlapsChart;
    OverlapSetsModel* m_setsModel;
    OverlapRegionsModel* m_regionsModel;
    QTableView* m_setsView;
    QTableView* m_regionsView;
    QLabel* m_rule;
    QPushButton* m_auditButton;
    std::shared_ptr<const FailureOverlaps> m_overlaps;
};

} // namespace structscope
