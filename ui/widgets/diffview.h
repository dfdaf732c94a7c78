// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/casedetail.h"
#include "audit/goldeditor.h"
#include "json/jsonalignment.h"

#include <QList>
#include <QThreadPool>
#include <QWidget>

#include <functional>
#include <optional>
#include <utility>

class QAction;
class QComboBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QTabWidget;
class QTableView;

namespace structscope {

class DiffLegend;
class DiffRowsModel;
class GoldEditService;
class Workspace;

/// One response against its gold: the source text (gold and predicted values highlighted where they
/// occur) | gold | prediction, aligned place by place and tinted by difference kind, with a legend,
/// the schema errors with their pointers, a raw tab with exactly what the model sent and the parse
/// rung, and the other answers to the same case one click away. F8 / Shift+F8 walk the differences.
///
/// Gold editing goes through the workspace's GoldEditService: a value typed into the gold column,
/// "accept this value" from the prediction, or the whole object; each asks for a reason, is
/// validated before it is stored, and shows a conflict or the schema errors when refused.
class DiffView : public QWidget
{
    Q_OBJECT
public:
    explicit DiffView(Workspace* workspace, QWidget* parent = nullptr);
    ~DiffView() override;

    /// Loads and shows a response; `answers` lists every answer to the same case for the combo.
    void showResponse(const CaseRef& ref, GoldBasis basis, const QList<CaseRef>& answers = {});
    /// Shows nothing, with `placeholder` as the hint.
    void clear(const QString& placeholder = {});
    CaseRef currentRef() const { return m_ref; }
    CaseDetailPtr detail() const { return m_detail; }
    bool isLoading() const { return m_loading; }

    DiffRowsModel* rowsModel() const { return m_rows; }
    QTableView* table() const { return m_table; }
    QPlainTextEdit* sourceView() const { return m_source; }
    QPlainTextEdit* rawView() const { return m_raw; }
    QComboBox* answersCombo() const { return m_answers; }
    QListWidget* schemaErrorList() const { return m_schemaErrors; }
    QTabWidget* tabs() const { return m_tabs; }
    /// The actions (F8, Shift+F8, accept, edit gold, undo) for menus and the page's shortcuts.
    QList<QAction*> diffActions() const;
    QAction* undoAction() const { return m_undo; }

    int currentRow() const;
    void selectRow(int row);
    /// A field (a wildcarded leaf path, `items[].sku`; docs/metrics.md "Fields") to select in every response shown
    /// from now on: its first row that differs from gold, else its first row (the Cases page opened from a field
    /// heatmap cell). Empty: none.
    void setFocusField(const QString& field);
    QString focusField() const { return m_focusField; }
    /// The row of `rows` setFocusField() selects for `field`, or -1.
    static int rowOfField(const std::vector<AlignedRow>& rows, const QString& field);
    void nextDifference();
    void previousDifference();

    /// "Accept this value": the selected place of the gold takes the predicted value (or loses the
    /// key, when the prediction has none). Asks for a reason.
    void acceptSelectedValue();
    /// Edits the whole gold object in a dialog.
    void editWholeGold();
    /// Submits a change of one place (value nullopt: remove it) after asking for a reason.
    void requestLeafEdit(const std::string& pointer, const std::optional<nlohmann::json>& value);

    /// How the view asks for a reason (default: a dialog); tests answer without one.
    using ReasonProvider = std::function<std::optional<QString>(const QString& summary)>;
    void setReasonProvider(ReasonProvider provider) { m_askReason = std::move(provider); }
    /// How the view asks for a whole new gold and its reason (default: GoldObjectDialog).
    using GoldProvider = std::function<std::optional<std::pair<nlohmann::json, QString>>(const CaseDetail&)>;
    void setGoldProvider(GoldProvider provider) { m_askGold = std::move(provider); }

Q_SIGNALS:
    /// A detail was loaded and shown (or failed: see detail()->error).
    void detailLoaded();
    /// An edit this view submitted has finished (stored, refused, or in conflict).
    void editFinished(const structscope::GoldEditOutcome& outcome);
    /// The user picked another answer in the combo.
    void answerChosen(const structscope::CaseRef& ref);

protected:
    void changeEvent(QEvent* event) override;

private:
    void reload();
    void apply(const CaseDetailPtr& detail);
    void updateHighlights();
    void updateActions();
    void editOutcome(const GoldEditOutcome& outcome);
    QString caseLabel() const;

    Workspace* m_workspace;
    GoldEditService* m_service;
    CaseRef m_ref;
    GoldBasis m_basis = GoldBasis::Adjusted;
    CaseDetailPtr m_detail;
    std::vector<int> m_differenceRows;
    bool m_loading = false;
    int m_pendingEdits = 0;
    quint64 m_generation = 0;
    QString m_focusField;
    ReasonProvider m_askReason;
    GoldProvider m_askGold;

    QLabel* m_header;
    QComboBox* m_answers;
    QTabWidget* m_tabs;
    QPlainTextEdit* m_source;
    QPlainTextEdit* m_raw;
    QLabel* m_rawInfo;
    DiffRowsModel* m_rows;
    QTableView* m_table;
    DiffLegend* m_legend;
    QListWidget* m_schemaErrors;
    QLabel* m_hint;
    QAction* m_next;
    QAction* m_previous;
    QAction* m_accept;
    QAction* m_editValue;
    QAction* m_editGold;
    QAction* m_undo;
    QThreadPool m_pool; ///< loads run here; waited for before the view goes away
};

} // namespace structscope
