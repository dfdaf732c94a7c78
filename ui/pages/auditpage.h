// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "models/auditqueuemodel.h"
#include "pages/recordspage.h"
#include "report/failureoverlaps.h"

#include <QThreadPool>

#include <atomic>
#include <memory>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QTreeWidget;

namespace structscope {

class DiffView;
class FilterLineEdit;
class GoldEditService;

/// Gold auditing: the suspicious-gold queue (cross-model consensus against gold after aligning arrays,
/// docs/metrics.md §5; findings gathered by case and array, format disagreements last) with triage (gold confirmed,
/// fixed, dismissed — who and when), the categories where every model fails alike, and the pre-flight problems of the
/// current gold. The selected item's case shows below in a diff view (an agreeing model's answer, the suspect place
/// selected), where the gold can be fixed at once; activating an item opens all the case's answers on the Cases page.
/// Above the diff, the finding in words with the source text around the gold and the consensus; Accept stores the
/// finding's suggestion (the value, the missing element inserted, the extra element removed) as a new gold revision.
class AuditPage : public RecordsPage
{
    Q_OBJECT
public:
    explicit AuditPage(Workspace* workspace, QWidget* parent = nullptr);
    ~AuditPage() override;

    QString title() const override { return tr("Audit"); }
    QString pageId() const override { return QStringLiteral("audit"); }

    AuditQueueModel* model() const { return m_model; }
    DiffView* diffView() const { return m_diff; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* view() const { return m_view; }
    QTreeWidget* uniformFailures() const { return m_uniform; }
    QTreeWidget* preflight() const { return m_preflight; }
    QTabWidget* tabs() const { return m_tabs; }
    QPlainTextEdit* detail() const { return m_detail; }
    QPushButton* acceptButton() const { return m_accept; }

    /// Records a triage decision for the queue row `row` (a source row) with the note typed in.
    void triageRow(int row, TriageState state);
    /// Stores the suggestion of queue row `row` (a source row) as a gold revision; false when it offers none.
    bool acceptRow(int row);

    /// Shows only the queue items of these cases (e.g. those every chosen model fails, from the Errors page), with
    /// `caption` saying which cases they are and a button that shows the whole queue again.
    void focusCases(const std::vector<CaseKey>& cases, const QString& caption);
    /// Shows the whole queue again.
    void clearFocus();
    /// The cases focused on (empty when the whole queue shows).
    std::vector<CaseKey> focusedCases() const;

Q_SIGNALS:
    /// A queue was built and shown (or failed).
    void queueApplied();
    /// A triage decision was stored or refused.
    void triageApplied(bool ok);

protected:
    void reload() override;
    void recordsReady(const ScoredSetPtr& set, const QString& error) override;

private:
    void apply(const AuditQueuePtr& queue);
    int currentSourceRow() const;
    /// Shows the case of a queue row in the diff view.
    void showItem(int row);
    void updateFocusText();

    AuditQueueModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QTreeWidget* m_uniform;
    QTreeWidget* m_preflight;
    QTabWidget* m_tabs;
    FilterLineEdit* m_filter;
    QLineEdit* m_author;
    QLineEdit* m_note;
    QLabel* m_status;
    QWidget* m_focusBar;
    QLabel* m_focusText;
    QString m_focusCaption;
    QPlainTextEdit* m_detail;
    QPushButton* m_accept;
    DiffView* m_diff;
    GoldEditService* m_service;
    std::string m_pendingPointer; ///< the place to select once the diff has loaded
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic_bool> m_cancel;
    QThreadPool m_pool;
};

} // namespace structscope
