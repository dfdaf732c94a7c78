// SPDX-License-Identifier: Apache-2.0
#include "pages/casespage.h"

#include "analysis/metricformat.h"
#include "store/resultstore.h"
#include "widgets/diffview.h"
#include "widgets/filterlineedit.h"
#include "widgets/goldtoggle.h"
#include "workspace/workspace.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <set>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

QComboBox* filterCombo(QWidget* parent, const QString& name, const QString& tip)
{
    auto* combo = new QComboBox(parent);
    combo->setObjectName(name);
    combo->setToolTip(tip);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    combo->addItem(QObject::tr("any"), QString());
    return combo;
}

/// Selects `value` in a combo of (text, data) items, adding it when it is not offered.
void selectData(QComboBox* combo, const QString& value, const QString& text = {})
{
    int index = combo->findData(value);
    if (index < 0) {
        combo->addItem(text.isEmpty() ? value : text, value);
        index = combo->count() - 1;
    }
    combo->setCurrentIndex(index);
}

const std::vector<LadderLabel>& ladderLabels()
{
    static const std::vector<LadderLabel> labels = { LadderLabel::Correct, LadderLabel::ValueIncorrect,
        LadderLabel::HallucinatedOnMissing, LadderLabel::SchemaViolation, LadderLabel::InvalidJson };
    return labels;
}

} // namespace

CasesPage::CasesPage(Workspace* workspace, QWidget* parent)
    : RecordsPage(workspace, parent)
    , m_model(new CasesModel(this))
    , m_proxy(new CasesProxyModel(this))
    , m_view(new QTableView(this))
    , m_diff(new DiffView(workspace, this))
    , m_gold(new GoldToggle(this))
    , m_search(new FilterLineEdit(this))
    , m_modelBox(filterCombo(this, u"casesModelFilter"_s, tr("Model")))
    , m_strategyBox(filterCombo(this, u"casesStrategyFilter"_s, tr("Strategy")))
    , m_verdictBox(filterCombo(this, u"casesVerdictFilter"_s, tr("Verdict (ladder label)")))
    , m_errorBox(filterCombo(this, u"casesErrorFilter"_s, tr("Responses with this error kind")))
    , m_categoryBox(filterCombo(this, u"casesCategoryFilter"_s, tr("Category")))
    , m_tierBox(filterCombo(this, u"casesTierFilter"_s, tr("Tier")))
    , m_pinned(new QLabel(this))
    , m_clearPinned(new QToolButton(this))
    , m_count(new QLabel(this))
{
    setObjectName(u"casesPage"_s);
    m_pool.setMaxThreadCount(1);
    m_gold->setGold(GoldBasis::Adjusted); // the gold an annotator edits
    for (LadderLabel label : ladderLabels())
        m_verdictBox->addItem(
            QString::fromLatin1(ladderLabelId(label)).replace(u'_', u' '), QString::fromLatin1(ladderLabelId(label)));
    // Slots the transport or provider failed: no ladder label, listed with their error kind.
    m_verdictBox->addItem(tr("errored (no answer)"), QString::fromLatin1(kErroredVerdict));
    for (ErrorLabel label : errorLabels())
        m_errorBox->addItem(errorLabelName(label), QString::fromLatin1(errorLabelId(label)));
    m_search->setObjectName(u"casesSearch"_s);
    m_search->setPlaceholderText(tr("Search the inputs…"));
    m_search->setMinimumWidth(200);
    m_pinned->setObjectName(u"casesPinned"_s);
    m_pinned->setTextFormat(Qt::PlainText); // case ids and model names from the store
    m_clearPinned->setText(tr("Clear"));
    m_clearPinned->setToolTip(tr("Show every response again"));
    m_count->setObjectName(u"casesCount"_s);

    m_proxy->setSourceModel(m_model);
    m_view->setObjectName(u"casesTable"_s);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    // Fixed row heights and no per-row measuring: the table stays fast with 10^5 responses.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setDefaultSectionSize(110);

    auto* filters = new QHBoxLayout;
    const auto add = [this, filters](const QString& label, QWidget* widget) {
        filters->addWidget(new QLabel(label, this));
        filters->addWidget(widget);
        filters->addSpacing(6);
    };
    add(tr("Model:"), m_modelBox);
    add(tr("Strategy:"), m_strategyBox);
    add(tr("Verdict:"), m_verdictBox);
    add(tr("Error:"), m_errorBox);
    add(tr("Category:"), m_categoryBox);
    add(tr("Tier:"), m_tierBox);
    filters->addStretch(1);
    auto* second = new QHBoxLayout;
    second->addWidget(m_search, 2);
    second->addSpacing(12);
    second->addWidget(m_pinned);
    second->addWidget(m_clearPinned);
    second->addStretch(1);
    second->addWidget(new QLabel(tr("Gold:"), this));
    second->addWidget(m_gold);
    second->addSpacing(12);
    second->addWidget(m_count);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(m_diff);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addLayout(second);
    layout->addWidget(split, 1);

    // F8, Ctrl+Z and the other diff actions also work while the table has the focus.
    addActions(m_diff->diffActions());
    for (QComboBox* combo : { m_modelBox, m_strategyBox, m_verdictBox, m_errorBox, m_categoryBox, m_tierBox })
        connect(combo, &QComboBox::currentIndexChanged, this, &CasesPage::applyFilter);
    connect(m_search, &FilterLineEdit::filterChanged, this, [this](const QString& text) {
        m_proxy->setSearchText(text);
        updateCount();
    });
    connect(m_clearPinned, &QToolButton::clicked, this, [this] {
        m_pinnedFilter = {};
        m_diff->setFocusField({});
        applyFilter();
    });
    connect(m_gold, &GoldToggle::goldChanged, this, &CasesPage::reload);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &CasesPage::showCurrent);
    connect(m_diff, &DiffView::answerChosen, this, [this](const CaseRef& ref) { selectResponse(ref); });
    connect(this, &RecordsPage::busyChanged, this, [this] { updateCount(); });
    applyFilter();
}

CasesPage::~CasesPage()
{
    m_pool.waitForDone();
}

void CasesPage::reload()
{
    if (const ScoredRecord* current = m_model->recordAt(m_proxy->mapToSource(m_view->currentIndex()).row()))
        m_wanted = caseRefOf(*current);
    requestRecords(m_gold->gold());
    // A gold edit leaves the cases' texts as they are: reading them again (2,000 cases, ~25 ms) would only take a
    // core from the edit's re-scoring.
    if (m_inputsContent != workspace()->contentGeneration())
        loadInputs();
}

void CasesPage::loadInputs()
{
    if (!workspace()->isOpen())
        return;
    const quint64 generation = ++m_inputsGeneration;
    m_inputsContent = workspace()->contentGeneration();
    const QString location = workspace()->location();
    m_inputsPending = true;
    beginWork();
    QtConcurrent::run(&m_pool, [location] {
        ResultStore::OpenOptions options;
        options.readOnly = true;
        options.createIfMissing = false;
        options.integrityCheck = false;
        auto store = ResultStore::open(location, options);
        return std::make_shared<const QHash<QString, QString>>(
            store ? loadCaseTexts(*store) : QHash<QString, QString>());
    }).then(this, [this, generation](const CaseTexts& texts) {
        endWork();
        if (generation != m_inputsGeneration)
            return;
        m_inputsPending = false;
        // Unchanged texts (the page reloads after a gold edit too) leave the rows alone: telling a million rows
        // that their input changed costs the proxy a pass over all of them.
        const CaseTexts& shown = m_model->inputs();
        if (shown && texts && *shown == *texts) {
            updateCount();
            return;
        }
        m_model->setInputs(texts);
        if (!m_proxy->filter().words.isEmpty())
            m_proxy->invalidate(); // the search could not look into the inputs before
        updateCount();
    });
}

void CasesPage::recordsReady(const ScoredSetPtr& set, const QString& error)
{
    if (set && m_model->records() && set->basedOn.lock() == m_model->records()) {
        // A gold edit re-scored a few responses: those rows change; the filters' choices (models, strategies,
        // categories, tiers) cannot, and the selection and scroll position stay.
        m_wanted.reset();
        m_model->updateRecords(set, set->rescored);
        updateCount();
        return;
    }
    m_model->setRecords(set);
    refillCombos();
    applyFilter();
    if (!set) {
        m_diff->clear(error.isEmpty() ? tr("No workspace open.") : error);
        return;
    }
    if (m_wanted && selectResponse(*m_wanted)) {
        m_wanted.reset();
        m_selectFirst = false;
        return;
    }
    m_wanted.reset();
    if (m_proxy->rowCount() > 0 && (m_selectFirst || !m_view->currentIndex().isValid())) {
        m_view->setCurrentIndex(m_proxy->index(0, 0));
        m_view->scrollToTop();
    } else if (m_proxy->rowCount() == 0) {
        m_diff->clear(tr("No response matches the filter."));
    }
    m_selectFirst = false;
}

void CasesPage::refillCombos()
{
    std::set<QString> models, strategies, categories, tiers;
    if (const ScoredSetPtr set = m_model->records()) {
        for (const ScoredRecord& r : set->records) {
            models.insert(r.model);
            strategies.insert(r.strategy);
            categories.insert(r.category);
            if (!r.tier.isEmpty())
                tiers.insert(r.tier);
        }
    }
    const auto refill = [](QComboBox* combo, const std::set<QString>& values) {
        const QSignalBlocker blocker(combo);
        const QString current = combo->currentData().toString();
        while (combo->count() > 1)
            combo->removeItem(1);
        for (const QString& value : values)
            combo->addItem(value, value);
        selectData(combo, current);
    };
    refill(m_modelBox, models);
    refill(m_strategyBox, strategies);
    refill(m_categoryBox, categories);
    refill(m_tierBox, tiers);
}

void CasesPage::applyFilter()
{
    CaseFilter filter = m_pinnedFilter;
    filter.setKey("model", m_modelBox->currentData().toString());
    filter.setKey("strategy", m_strategyBox->currentData().toString());
    filter.setKey("category", m_categoryBox->currentData().toString());
    filter.setKey("tier", m_tierBox->currentData().toString());
    filter.verdict = m_verdictBox->currentData().toString();
    filter.errorLabel = errorLabelFromId(m_errorBox->currentData().toString().toStdString());
    filter.words = m_proxy->filter().words;
    m_proxy->setFilter(filter);

    QStringList pinned;
    for (const auto& [key, value] : m_pinnedFilter.keys)
        pinned << QString::fromStdString(key) + u'=' + QString::fromStdString(value);
    if (m_pinnedFilter.repeat)
        pinned << u"repeat=%1"_s.arg(*m_pinnedFilter.repeat);
    if (m_pinnedFilter.region)
        pinned << tr("errors %1").arg(m_pinnedFilter.region->toString());
    if (m_pinnedFilter.cases)
        pinned << tr("%1 cases %2").arg(m_pinnedFilter.cases->size()).arg(m_pinnedFilter.caption);
    if (!m_pinnedFilter.anyOfSets.empty())
        pinned << tr("answers of the %1 chosen sets").arg(m_pinnedFilter.anyOfSets.size());
    if (m_pinnedFilter.wrongField)
        pinned << tr("%1 wrong").arg(QString::fromStdString(*m_pinnedFilter.wrongField));
    m_pinned->setText(pinned.isEmpty() ? QString() : tr("Only: %1").arg(pinned.join(u", "_s)));
    m_pinned->setVisible(!pinned.isEmpty());
    m_clearPinned->setVisible(!pinned.isEmpty());
    updateCount();
}

void CasesPage::updateCount()
{
    QString text = tr("%L1 of %L2 responses").arg(m_proxy->rowCount()).arg(m_model->rowCount());
    if (isBusy())
        text = tr("Scoring… ") + text;
    m_count->setText(text);
}

void CasesPage::showCases(const GroupKey& key)
{
    const CaseFilter wanted = CaseFilter::fromGroupKey(key);
    m_pinnedFilter = {};
    m_pinnedFilter.repeat = wanted.repeat;
    m_pinnedFilter.region = wanted.region;
    m_pinnedFilter.cases = wanted.cases;
    m_pinnedFilter.anyOfSets = wanted.anyOfSets;
    m_pinnedFilter.caption = wanted.caption;
    m_pinnedFilter.wrongField = wanted.wrongField;
    m_diff->setFocusField(wanted.wrongField ? QString::fromStdString(*wanted.wrongField) : QString());
    const std::map<std::string, QComboBox*> boxes = { { "model", m_modelBox }, { "strategy", m_strategyBox },
        { "category", m_categoryBox }, { "tier", m_tierBox } };
    for (auto& [name, box] : boxes) {
        const QSignalBlocker blocker(box);
        selectData(box, wanted.key(name), wanted.key(name).isEmpty() ? tr("any") : QString());
    }
    for (const auto& [name, value] : wanted.keys) {
        if (!boxes.count(name))
            m_pinnedFilter.keys.emplace_back(name, value);
    }
    {
        const QSignalBlocker verdictBlocker(m_verdictBox);
        const QSignalBlocker errorBlocker(m_errorBox);
        selectData(m_verdictBox, wanted.verdict);
        selectData(m_errorBox, wanted.errorLabel ? QString::fromLatin1(errorLabelId(*wanted.errorLabel)) : QString());
    }
    m_search->clear();
    m_proxy->setSearchText({});
    applyFilter();
    m_selectFirst = true;
    if (m_model->records() && m_proxy->rowCount() > 0) {
        m_view->setCurrentIndex(m_proxy->index(0, 0));
        m_view->scrollToTop();
        m_selectFirst = false;
    } else if (m_model->records()) {
        m_diff->clear(tr("No response matches the filter."));
    }
}

bool CasesPage::selectResponse(const CaseRef& ref)
{
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const ScoredRecord* r = m_model->recordAt(row);
        if (!(caseRefOf(*r) == ref))
            continue;
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
        if (!index.isValid())
            return false;
        m_view->setCurrentIndex(index);
        m_view->scrollTo(index);
        return true;
    }
    return false;
}

QList<CaseRef> CasesPage::answersTo(const ScoredRecord& record) const
{
    QList<CaseRef> answers;
    for (const ScoredRecord& r : m_model->records()->records) {
        if (r.caseId == record.caseId && r.suite == record.suite)
            answers << caseRefOf(r);
    }
    return answers;
}

void CasesPage::showCurrent()
{
    const QModelIndex current = m_view->currentIndex();
    const ScoredRecord* record = current.isValid() ? m_model->recordAt(m_proxy->mapToSource(current).row()) : nullptr;
    if (!record) {
        m_diff->clear();
        return;
    }
    const CaseRef ref = caseRefOf(*record);
    if (ref == m_diff->currentRef() && m_diff->detail() && m_diff->detail()->basis == m_gold->gold())
        return; // the same response: the diff view reloads by itself when the data change
    m_diff->showResponse(ref, m_gold->gold(), answersTo(*record));
}

} // namespace structscope
