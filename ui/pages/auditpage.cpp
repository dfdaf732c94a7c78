// SPDX-License-Identifier: Apache-2.0
#include "pages/auditpage.h"

#include "models/diffrowsmodel.h"
#include "store/resultstore.h"
#include "widgets/diffview.h"
#include "widgets/filterlineedit.h"
#include "workspace/goldeditservice.h"
#include "workspace/workspace.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextDocument>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <map>
#include <optional>
#include <set>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

/// The queue's own filter, and optionally only the items of some cases.
class CaseFocusProxy : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setCases(std::optional<std::set<CaseKey>> cases)
    {
        m_cases = std::move(cases);
        invalidateFilter();
    }
    const std::optional<std::set<CaseKey>>& cases() const { return m_cases; }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override
    {
        if (m_cases) {
            const AuditItem* item = static_cast<const AuditQueueModel*>(sourceModel())->itemAt(row);
            if (!item || !m_cases->count(CaseKey { item->suiteId, item->caseId }))
                return false;
        }
        return QSortFilterProxyModel::filterAcceptsRow(row, parent);
    }

private:
    std::optional<std::set<CaseKey>> m_cases;
};

} // namespace

AuditPage::AuditPage(Workspace* workspace, QWidget* parent)
    : RecordsPage(workspace, parent)
    , m_model(new AuditQueueModel(this))
    , m_proxy(new CaseFocusProxy(this))
    , m_view(new QTableView(this))
    , m_uniform(new QTreeWidget(this))
    , m_preflight(new QTreeWidget(this))
    , m_tabs(new QTabWidget(this))
    , m_filter(new FilterLineEdit(this))
    , m_author(new QLineEdit(this))
    , m_note(new QLineEdit(this))
    , m_status(new QLabel(this))
    , m_focusBar(new QWidget(this))
    , m_focusText(new QLabel(this))
    , m_detail(new QPlainTextEdit(this))
    , m_accept(new QPushButton(tr("Accept suggestion"), this))
    , m_diff(new DiffView(workspace, this))
    , m_service(GoldEditService::of(workspace))
{
    setObjectName(u"auditPage"_s);
    m_status->setTextFormat(Qt::PlainText); // store errors quote stored values
    m_pool.setMaxThreadCount(1);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(AuditQueueModel::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_view->setObjectName(u"auditTable"_s);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // the queue's own ranking
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_uniform->setObjectName(u"uniformFailures"_s);
    m_uniform->setHeaderLabels({ tr("Suite / category"), tr("Models"), tr("Lowest rate"), tr("Highest rate") });
    m_preflight->setObjectName(u"preflightProblems"_s);
    m_preflight->setHeaderLabels({ tr("Suite / location"), tr("Pointer"), tr("Problem") });
    m_preflight->setRootIsDecorated(true);
    m_filter->setPlaceholderText(tr("Filter the queue…"));
    m_filter->setObjectName(u"auditFilter"_s);
    m_status->setObjectName(u"auditStatus"_s);
    m_author->setObjectName(u"auditAuthor"_s);
    m_author->setText(m_service->author());
    m_author->setMaximumWidth(180);
    m_author->setToolTip(tr("Who signs triage decisions and gold edits"));
    m_detail->setObjectName(u"auditDetail"_s);
    m_detail->setReadOnly(true);
    // Four lines: the finding, the gold and the consensus in the source, and a note; the rest goes to the queue.
    m_detail->setMaximumHeight(m_detail->fontMetrics().lineSpacing() * 4
        + 2 * (m_detail->frameWidth() + int(m_detail->document()->documentMargin())));
    m_detail->setPlaceholderText(tr("The selected finding, with the source text around the gold and the consensus."));
    m_accept->setObjectName(u"auditAccept"_s);
    m_accept->setEnabled(false);
    m_accept->setToolTip(tr("Store the finding's suggestion as a new gold revision (the note is its reason)"));
    m_note->setObjectName(u"triageNote"_s);
    m_note->setPlaceholderText(tr("Note for the triage decision (optional)"));

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Annotator:"), this));
    top->addWidget(m_author);
    top->addSpacing(12);
    auto* refresh = new QPushButton(tr("Rebuild queue"), this);
    top->addWidget(refresh);
    top->addSpacing(12);
    top->addWidget(m_status, 1);
    top->addWidget(m_filter);

    auto* triageBar = new QHBoxLayout;
    triageBar->addWidget(m_note, 1);
    const auto triageButton = [this, triageBar](const QString& text, TriageState state, const QString& name) {
        auto* button = new QPushButton(text, this);
        button->setObjectName(name);
        triageBar->addWidget(button);
        connect(button, &QPushButton::clicked, this, [this, state] { triageRow(currentSourceRow(), state); });
    };
    triageButton(tr("Gold confirmed"), TriageState::GoldConfirmed, u"triageConfirmed"_s);
    triageButton(tr("Fixed"), TriageState::Fixed, u"triageFixed"_s);
    triageButton(tr("Dismissed"), TriageState::Dismissed, u"triageDismissed"_s);
    triageButton(tr("Reopen"), TriageState::Open, u"triageOpen"_s);
    triageBar->addWidget(m_accept);
    auto* open = new QPushButton(tr("Open case"), this);
    triageBar->addWidget(open);

    auto* queueTop = new QWidget(this);
    auto* queueLayout = new QVBoxLayout(queueTop);
    queueLayout->setContentsMargins(0, 0, 0, 0);
    queueLayout->addWidget(m_view, 1);
    queueLayout->addWidget(m_detail);
    queueLayout->addLayout(triageBar);
    auto* queuePage = new QSplitter(Qt::Vertical, this);
    queuePage->addWidget(queueTop);
    queuePage->addWidget(m_diff);
    queuePage->setStretchFactor(0, 2);
    queuePage->setStretchFactor(1, 3);
    queuePage->setChildrenCollapsible(false);
    m_tabs->addTab(queuePage, tr("Suspicious gold"));
    m_tabs->addTab(m_uniform, tr("Uniform failures"));
    m_tabs->addTab(m_preflight, tr("Pre-flight"));
    m_focusBar->setObjectName(u"auditFocus"_s);
    m_focusText->setTextFormat(Qt::PlainText);
    m_focusText->setWordWrap(true);
    auto* showAll = new QPushButton(tr("Show the whole queue"), m_focusBar);
    showAll->setObjectName(u"auditShowAll"_s);
    auto* focusLayout = new QHBoxLayout(m_focusBar);
    focusLayout->setContentsMargins(0, 0, 0, 0);
    focusLayout->addWidget(m_focusText, 1);
    focusLayout->addWidget(showAll);
    m_focusBar->hide();
    connect(showAll, &QPushButton::clicked, this, &AuditPage::clearFocus);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_focusBar);
    layout->addWidget(m_tabs, 1);

    connect(refresh, &QPushButton::clicked, this, &AuditPage::reload);
    connect(m_accept, &QPushButton::clicked, this, [this] { acceptRow(currentSourceRow()); });
    connect(m_service, &GoldEditService::editFinished, this,
        [this](GoldEditService::Action, const GoldEditOutcome& outcome) {
            if (!outcome.ok())
                m_status->setText(tr("Gold not changed: %1").arg(outcome.message));
        });
    connect(m_filter, &FilterLineEdit::filterChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_author, &QLineEdit::editingFinished, this, [this] { m_service->setAuthor(m_author->text()); });
    const auto openCase = [this] {
        const QModelIndex index = m_view->currentIndex();
        if (index.isValid())
            Q_EMIT drillDown(index.data(AuditQueueModel::GroupKeyRole).value<GroupKey>());
    };
    connect(open, &QPushButton::clicked, this, openCase);
    connect(m_view, &QTableView::activated, this, openCase);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this] { showItem(currentSourceRow()); });
    connect(m_diff, &DiffView::detailLoaded, this, [this] {
        if (m_pendingPointer.empty())
            return;
        const int row = m_diff->rowsModel()->rowOfPointer(m_pendingPointer);
        m_pendingPointer.clear();
        if (row >= 0)
            m_diff->selectRow(row);
    });
    addActions(m_diff->diffActions());
    connect(m_uniform, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const QString suite = item->data(0, Qt::UserRole).toString();
        const QString category = item->data(0, Qt::UserRole + 1).toString();
        if (!category.isEmpty())
            Q_EMIT drillDown(GroupKey { { { "suite", suite.toStdString() }, { "category", category.toStdString() } } });
    });
    connect(m_service, &GoldEditService::triageFinished, this,
        [this](const TriageRequest& request, const TriageMark& mark, const QString& error) {
            if (error.isEmpty())
                m_model->setTriage(request.caseRow, request.path, mark);
            m_status->setText(error.isEmpty()
                    ? tr("Marked %1 by %2.").arg(AuditQueueModel::triageText(mark.state), mark.author)
                    : tr("Triage not saved: %1").arg(error));
            Q_EMIT triageApplied(error.isEmpty());
        });
}

AuditPage::~AuditPage()
{
    if (m_cancel)
        m_cancel->store(true);
    m_pool.waitForDone();
}

int AuditPage::currentSourceRow() const
{
    const QModelIndex index = m_view->currentIndex();
    return index.isValid() ? m_proxy->mapToSource(index).row() : -1;
}

void AuditPage::triageRow(int row, TriageState state)
{
    const AuditItem* item = m_model->itemAt(row);
    if (!item)
        return;
    m_service->setAuthor(m_author->text());
    TriageRequest request;
    request.caseRow = item->caseRow;
    request.path = item->path;
    request.pointer = item->pointer;
    request.state = state;
    request.note = m_note->text().trimmed();
    m_service->triage(request);
    m_note->clear();
}

void AuditPage::focusCases(const std::vector<CaseKey>& cases, const QString& caption)
{
    static_cast<CaseFocusProxy*>(m_proxy)->setCases(std::set<CaseKey>(cases.begin(), cases.end()));
    m_focusCaption = caption;
    m_tabs->setCurrentIndex(0);
    updateFocusText();
    if (m_proxy->rowCount() > 0)
        m_view->setCurrentIndex(m_proxy->index(0, 0));
}

void AuditPage::clearFocus()
{
    static_cast<CaseFocusProxy*>(m_proxy)->setCases(std::nullopt);
    m_focusCaption.clear();
    updateFocusText();
}

std::vector<CaseKey> AuditPage::focusedCases() const
{
    const auto& cases = static_cast<const CaseFocusProxy*>(m_proxy)->cases();
    return cases ? std::vector<CaseKey>(cases->begin(), cases->end()) : std::vector<CaseKey> {};
}

void AuditPage::updateFocusText()
{
    const auto& cases = static_cast<const CaseFocusProxy*>(m_proxy)->cases();
    m_focusBar->setVisible(cases.has_value());
    if (!cases)
        return;
    std::set<CaseKey> queued;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (const AuditItem* item = m_model->itemAt(row); item && cases->count(CaseKey { item->suiteId, item->caseId }))
            queued.insert(CaseKey { item->suiteId, item->caseId });
    }
    QStringList ids;
    for (const CaseKey& c : *cases) {
        if (ids.size() == 12) {
            ids << u"…"_s;
            break;
        }
        ids << c.caseId;
    }
    m_focusText->setText(tr("Only the %1 cases %2 (%3). %4 of them have suspicious-gold items: when every model "
                            "fails a case, check its gold first.")
                             .arg(cases->size())
                             .arg(m_focusCaption, ids.join(u", "_s))
                             .arg(queued.size()));
}

bool AuditPage::acceptRow(int row)
{
    const AuditItem* item = m_model->itemAt(row);
    if (!item)
        return false;
    m_service->setAuthor(m_author->text());
    const QString note = m_note->text().trimmed();
    const QString reason = u"audit: "_s + describeAuditItem(*item) + (note.isEmpty() ? QString() : u"; "_s + note);
    std::optional<LeafEdit> edit = acceptEditOf(*item, m_service->author(), reason);
    if (!edit)
        return false;
    m_service->submitLeaf(std::move(*edit));
    m_note->clear();
    return true;
}

void AuditPage::reload()
{
    // The gold audited is the current one: the diff below shows the adjusted gold.
    requestRecords(GoldBasis::Adjusted);
    if (m_cancel)
        m_cancel->store(true);
    const quint64 generation = ++m_generation;
    if (!workspace()->isOpen()) {
        apply(nullptr);
        return;
    }
    m_status->setText(tr("Building the audit queue…"));
    m_cancel = std::make_shared<std::atomic_bool>(false);
    const auto cancel = m_cancel;
    const QString location = workspace()->location();
    beginWork();
    QtConcurrent::run(&m_pool, [location, cancel] {
        auto queue = std::make_shared<AuditQueue>();
        ResultStore::OpenOptions options;
        options.readOnly = true;
        options.createIfMissing = false;
        options.integrityCheck = false;
        StoreError error;
        auto store = ResultStore::open(location, options, &error);
        if (!store) {
            queue->error = error.message;
            return AuditQueuePtr(queue);
        }
        AuditOptions auditOptions;
        auditOptions.cancel = cancel.get();
        *queue = buildAuditQueue(*store, auditOptions);
        return AuditQueuePtr(queue);
    }).then(this, [this, generation](const AuditQueuePtr& queue) {
        endWork();
        if (generation != m_generation)
            return; // the data changed again meanwhile
        apply(queue);
    });
}

void AuditPage::recordsReady(const ScoredSetPtr&, const QString&)
{
    showItem(currentSourceRow());
}

void AuditPage::showItem(int row)
{
    const AuditItem* item = m_model->itemAt(row);
    m_detail->setPlainText(item ? AuditQueueModel::detailText(*item) : QString());
    m_accept->setEnabled(item && acceptEditOf(*item, QString(), QString()).has_value());
    const ScoredSetPtr set = scoredSet();
    if (!item || !set) {
        m_diff->clear(item ? tr("Scoring…") : tr("Select an item to see its case."));
        return;
    }
    QList<CaseRef> answers;
    CaseRef shown;
    for (const ScoredRecord& r : set->records) {
        if (r.suite != item->suiteId || r.caseId != item->caseId)
            continue;
        answers << caseRefOf(r);
        // An answer of the consensus shows what the models say instead of the gold.
        if (!shown.isValid() || (!item->agreeingModels.contains(shown.model) && item->agreeingModels.contains(r.model)))
            shown = caseRefOf(r);
    }
    if (!shown.isValid()) {
        m_diff->clear(tr("No scored answer to %1.").arg(item->caseId));
        return;
    }
    m_pendingPointer = item->pointer;
    if (shown == m_diff->currentRef() && m_diff->detail()) {
        const int place = m_diff->rowsModel()->rowOfPointer(item->pointer);
        m_pendingPointer.clear();
        if (place >= 0)
            m_diff->selectRow(place);
        return;
    }
    m_diff->showResponse(shown, GoldBasis::Adjusted, answers);
}

void AuditPage::apply(const AuditQueuePtr& queue)
{
    m_model->setQueue(queue && !queue->cancelled ? queue : nullptr);
    m_uniform->clear();
    m_preflight->clear();
    if (!queue) {
        m_status->setText(tr("No workspace open."));
        Q_EMIT queueApplied();
        return;
    }
    for (const CategoryFlag& flag : queue->uniformFailures) {
        auto* item = new QTreeWidgetItem(m_uniform,
            { flag.suiteId + u" / "_s + flag.flag.category, QString::number(flag.flag.models),
                QLocale().toString(100 * flag.flag.minRate, 'f', 0) + u'%',
                QLocale().toString(100 * flag.flag.maxRate, 'f', 0) + u'%' });
        item->setData(0, Qt::UserRole, flag.suiteId);
        item->setData(0, Qt::UserRole + 1, flag.flag.category);
        for (const CategoryFailureRate& rate : flag.rates)
            new QTreeWidgetItem(item, { rate.model, QString(), QLocale().toString(100 * rate.rate, 'f', 0) + u'%' });
    }
    int problems = 0;
    for (const SuitePreflight& suite : queue->preflight) {
        auto* item = new QTreeWidgetItem(m_preflight,
            { suite.suiteId, QString(),
                suite.problems.size() == 1 ? tr("1 problem") : tr("%1 problems").arg(suite.problems.size()) });
        for (const Problem& p : suite.problems) {
            new QTreeWidgetItem(item,
                { u"%1:%2"_s.arg(p.file).arg(p.line), p.pointer,
                    (p.warning ? tr("warning: ") : QString()) + p.message });
            ++problems;
        }
        item->setExpanded(true);
    }
    m_uniform->expandAll();
    updateFocusText();
    m_tabs->setTabText(0, tr("Suspicious gold (%1)").arg(queue->items.size()));
    m_tabs->setTabText(1, tr("Uniform failures (%1)").arg(queue->uniformFailures.size()));
    m_tabs->setTabText(2, tr("Pre-flight (%1)").arg(problems));
    if (m_model->rowCount() > 0) {
        // A rebuilt queue may keep the current row (no currentRowChanged), while its item is another one.
        const QModelIndex first = m_proxy->index(0, 0);
        const bool unchanged = m_view->currentIndex() == first;
        m_view->setCurrentIndex(first);
        if (unchanged)
            showItem(currentSourceRow());
    } else {
        m_diff->clear(tr("Nothing suspicious: no consensus of models disagrees with the gold."));
    }
    // How many findings each batch holds: the first is where the likeliest gold errors are.
    std::map<AuditBatch, int> batches;
    for (const AuditItem& item : queue->items)
        ++batches[item.batch];
    QStringList counts;
    for (const auto& [batch, count] : batches)
        counts << u"%1 %2"_s.arg(count).arg(AuditQueueModel::batchText(batch));
    m_status->setText(!queue->error.isEmpty()
            ? queue->error
            : (queue->suites == 1 ? tr("1 suite") : tr("%1 suites").arg(queue->suites))
                + tr(", %1 cases examined.").arg(queue->cases)
                + (counts.isEmpty() ? QString() : u" "_s + counts.join(u" · "_s)));
    Q_EMIT queueApplied();
}

} // namespace structscope
