// SPDX-License-Identifier: Apache-2.0
#include "pages/comparepage.h"

#include "analysis/metricformat.h"
#include "models/discordantmodel.h"
#include "models/pairmatrixmodel.h"
#include "scoring/metricregistry.h"
#include "settings/settings.h"
#include "widgets/elidingcombobox.h"
#include "widgets/goldtoggle.h"
#include "workspace/workspace.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

/// The Settings table under which the all-pairs view remembers the configurations left out.
const QString kPairsTable = u"compare.pairs"_s;

QVariant configData(const Configuration& c)
{
    return QStringList { c.model, c.strategy };
}

QString pointsText(double points)
{
    return std::isnan(points) ? u"—"_s : QLocale().toString(points, 'f', 1);
}

QString pValueText(double p)
{
    if (std::isnan(p))
        return u"= —"_s;
    return p < 0.001 ? u"< 0.001"_s : u"= "_s + QLocale().toString(p, 'f', 3);
}

} // namespace

ComparePage::ComparePage(Workspace* workspace, QWidget* parent)
    : RecordsPage(workspace, parent)
    , m_model(new DiscordantModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_a(new ElidingComboBox(this))
    , m_b(new ElidingComboBox(this))
    , m_metric(new QComboBox(this))
    , m_gold(new GoldToggle(this))
    , m_summary(new QLabel(this))
    , m_discordantTitle(new QLabel(this))
{
    setObjectName(u"comparePage"_s);
    m_pool.setMaxThreadCount(1);
    m_a->setObjectName(u"compareA"_s);
    m_b->setObjectName(u"compareB"_s);
    m_metric->setObjectName(u"compareMetric"_s);
    m_metric->setSizeAdjustPolicy(QComboBox::AdjustToContents); // A and B elide long model names
    m_summary->setObjectName(u"compareSummary"_s);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(DiscordantModel::SortRole);
    m_view->setObjectName(u"discordantTable"_s);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(true);

    auto* swap = new QToolButton(this);
    swap->setText(tr("Swap"));
    swap->setToolTip(tr("Swap A and B"));
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("A:"), this));
    controls->addWidget(m_a);
    controls->addWidget(swap);
    controls->addWidget(new QLabel(tr("B:"), this));
    controls->addWidget(m_b);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Metric:"), this));
    controls->addWidget(m_metric);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Gold:"), this));
    controls->addWidget(m_gold);
    controls->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    auto* twoConfigurations = new QWidget(this);
    auto* twoLayout = new QVBoxLayout(twoConfigurations);
    twoLayout->setContentsMargins(0, 0, 0, 0);
    twoLayout->addWidget(m_summary);
    twoLayout->addWidget(m_discordantTitle);
    twoLayout->addWidget(m_view, 1);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(twoConfigurations);
    layout->addWidget(m_stack, 1);

    for (QComboBox* combo : { m_a, m_b, m_metric })
        connect(combo, &QComboBox::currentIndexChanged, this, &ComparePage::compare);
    connect(swap, &QToolButton::clicked, this, [this] {
        const int a = m_a->currentIndex();
        {
            const QSignalBlocker blocker(m_a);
            m_a->setCurrentIndex(m_b->currentIndex());
        }
        m_b->setCurrentIndex(a);
    });
    connect(m_gold, &GoldToggle::goldChanged, this, &ComparePage::reload);
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex& index) {
        Q_EMIT drillDown(index.data(DiscordantModel::GroupKeyRole).value<GroupKey>());
    });

    // The all-pairs view: its own row of choices above the pickers, its own page of the stack.
    m_pairsPool.setMaxThreadCount(1);
    m_viewChooser = new QComboBox(this);
    m_viewChooser->setObjectName(u"compareView"_s);
    m_viewChooser->addItem(tr("Two configurations"));
    m_viewChooser->addItem(tr("All pairs"));
    m_viewChooser->setToolTip(tr("Two configurations side by side, or every pair of configurations at once"));
    m_adjust = new QComboBox(this);
    m_adjust->setObjectName(u"compareAdjust"_s);
    m_adjust->addItem(tr("Holm (family-wise error)"), u"holm"_s);
    m_adjust->addItem(tr("Benjamini–Hochberg (false discovery rate)"), u"bh"_s);
    m_adjust->setItemData(0,
        tr("Holm's step-down correction: the chance of calling any pair significant by accident stays at most 5%."),
        Qt::ToolTipRole);
    m_adjust->setItemData(1,
        tr("Benjamini–Hochberg: of the pairs called significant, at most 5% are expected to be accidents."),
        Qt::ToolTipRole);
    m_adjust->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* adjustLabel = new QLabel(tr("Adjust p:"), this);
    auto* viewRow = new QHBoxLayout;
    viewRow->addWidget(new QLabel(tr("View:"), this));
    viewRow->addWidget(m_viewChooser);
    viewRow->addSpacing(12);
    viewRow->addWidget(adjustLabel);
    viewRow->addWidget(m_adjust);
    viewRow->addStretch(1);
    layout->insertLayout(0, viewRow);

    m_pairModel = new PairMatrixModel(this);
    m_pairModel->setPalette(palette());
    m_pairView = new QTableView(this);
    m_pairView->setObjectName(u"pairMatrixTable"_s);
    m_pairView->setModel(m_pairModel);
    m_pairView->setWordWrap(true);
    m_pairView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_pairView->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_pairView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_pairView->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_pairsSummary = new QLabel(this);
    m_pairsSummary->setObjectName(u"pairsSummary"_s);
    m_pairsSummary->setTextFormat(Qt::RichText);
    m_pairsSummary->setWordWrap(true);
    m_pairsSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Which configurations the matrix compares: a checkable list beside it, All/None above.
    m_pairConfigs = new QListWidget(this);
    m_pairConfigs->setObjectName(u"pairConfigurations"_s);
    m_pairConfigs->setToolTip(tr("The configurations compared. Leaving one out also leaves its pairs out of the "
                                 "p-value adjustment, which then corrects over fewer pairs."));
    m_pairConfigs->setTextElideMode(Qt::ElideMiddle);
    auto* allConfigs = new QPushButton(tr("All"), this);
    auto* noConfigs = new QPushButton(tr("None"), this);
    allConfigs->setObjectName(u"pairConfigurationsAll"_s);
    noConfigs->setObjectName(u"pairConfigurationsNone"_s);
    const auto checkAll = [this](Qt::CheckState state) {
        {
            const QSignalBlocker blocker(m_pairConfigs);
            for (int i = 0; i < m_pairConfigs->count(); ++i)
                m_pairConfigs->item(i)->setCheckState(state);
        }
        pairConfigurationsChosen();
    };
    connect(allConfigs, &QPushButton::clicked, this, [checkAll] { checkAll(Qt::Checked); });
    connect(noConfigs, &QPushButton::clicked, this, [checkAll] { checkAll(Qt::Unchecked); });
    connect(m_pairConfigs, &QListWidget::itemChanged, this, &ComparePage::pairConfigurationsChosen);
    auto* configsPane = new QWidget(this);
    auto* configsLayout = new QVBoxLayout(configsPane);
    configsLayout->setContentsMargins(0, 0, 0, 0);
    auto* configsBar = new QHBoxLayout;
    configsBar->addWidget(new QLabel(tr("Compared:"), configsPane), 1);
    configsBar->addWidget(allConfigs);
    configsBar->addWidget(noConfigs);
    configsLayout->addLayout(configsBar);
    configsLayout->addWidget(m_pairConfigs, 1);
    auto* matrixPane = new QWidget(this);
    auto* pairsLayout = new QVBoxLayout(matrixPane);
    pairsLayout->setContentsMargins(0, 0, 0, 0);
    pairsLayout->addWidget(m_pairsSummary);
    pairsLayout->addWidget(m_pairView, 1);
    auto* allPairs = new QSplitter(Qt::Horizontal, this);
    allPairs->addWidget(configsPane);
    allPairs->addWidget(matrixPane);
    allPairs->setStretchFactor(0, 1);
    allPairs->setStretchFactor(1, 4);
    allPairs->setSizes({ 220, 900 });
    allPairs->setChildrenCollapsible(false);
    m_stack->addWidget(allPairs);

    const auto showView = [this, swap, adjustLabel](int view) {
        const bool pairs = view == int(View::AllPairs);
        m_stack->setCurrentIndex(pairs ? 1 : 0);
        for (QWidget* w : std::initializer_list<QWidget*> { m_a, m_b, swap })
            w->setEnabled(!pairs);
        adjustLabel->setEnabled(pairs);
        m_adjust->setEnabled(pairs);
        // The metric may have been chosen with signals blocked (setComparison()).
        const PairMatrixPtr shown = m_pairModel->matrix();
        if (pairs && (m_pairsStale || !shown || shown->metric != m_metric->currentData().toString().toStdString()))
            computePairs();
    };
    showView(0);
    connect(m_viewChooser, &QComboBox::currentIndexChanged, this, showView);
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] {
        m_pairsStale = true;
        if (view() == View::AllPairs)
            computePairs();
    });
    connect(m_adjust, &QComboBox::currentIndexChanged, this, [this] {
        m_pairModel->setAdjustment(adjustment());
        describePairs();
    });
    connect(m_pairView, &QTableView::activated, this, &ComparePage::openPair);
}

void ComparePage::setView(View view)
{
    m_viewChooser->setCurrentIndex(int(view));
}

ComparePage::View ComparePage::view() const
{
    return m_viewChooser->currentIndex() == int(View::AllPairs) ? View::AllPairs : View::TwoConfigurations;
}

void ComparePage::setAdjustment(PAdjustMethod method)
{
    m_adjust->setCurrentIndex(method == PAdjustMethod::Holm ? 0 : 1);
}

PAdjustMethod ComparePage::adjustment() const
{
    return m_adjust->currentIndex() == 1 ? PAdjustMethod::BenjaminiHochberg : PAdjustMethod::Holm;
}

void ComparePage::changeEvent(QEvent* event)
{
    RecordsPage::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_pairModel)
        m_pairModel->setPalette(palette());
}

void ComparePage::computePairs()
{
    const ScoredSetPtr set = scoredSet();
    m_pairsStale = true;
    if (view() != View::AllPairs)
        return;
    if (!set || m_metric->currentIndex() < 0) {
        ++m_pairsGeneration;
        showPairs(nullptr);
        return;
    }
    PairMatrixOptions options;
    options.metric = m_metric->currentData().toString().toStdString();
    options.by = { "model", "strategy" };
    options.adjust = adjustment();
    options.configurations = chosenPairConfigurations();
    if (options.configurations.size() < 2) {
        ++m_pairsGeneration;
        showPairs(nullptr);
        return;
    }
    const quint64 generation = ++m_pairsGeneration;
    m_computingPairs = true;
    m_pairsStale = false;
    m_pairsSummary->setText(tr("Comparing every pair of configurations…"));
    beginWork();
    QtConcurrent::run(&m_pairsPool, [set, options] {
        return std::shared_ptr<const PairMatrix>(
            std::make_shared<const PairMatrix>(computePairMatrix(set->records, options)));
    }).then(this, [this, generation](const std::shared_ptr<const PairMatrix>& matrix) {
        endWork();
        if (generation != m_pairsGeneration)
            return;
        showPairs(matrix);
    });
}

void ComparePage::showPairs(const std::shared_ptr<const PairMatrix>& matrix)
{
    m_computingPairs = false;
    m_pairModel->setMatrix(matrix);
    describePairs();
    Q_EMIT pairsApplied();
}

void ComparePage::describePairs()
{
    const PairMatrixPtr matrix = m_pairModel->matrix();
    if (!matrix) {
        if (!scoredSet())
            m_pairsSummary->setText(tr("No workspace open."));
        else if (m_pairConfigs->count() < 2)
            m_pairsSummary->setText(tr("Fewer than two configurations in this workspace: nothing to compare."));
        else if (chosenPairConfigurations().size() < 2)
            m_pairsSummary->setText(tr("Check at least two configurations to compare."));
        else
            m_pairsSummary->clear();
        return;
    }
    if (!matrix->ok()) {
        m_pairsSummary->setText(matrix->error.toHtmlEscaped());
        return;
    }
    int significant = 0;
    for (const PairCell& cell : matrix->pairs)
        significant += cell.significant ? 1 : 0;
    const QString method = matrix->adjust == PAdjustMethod::Holm ? tr("Holm") : tr("Benjamini–Hochberg");
    m_pairsSummary->setText(
        tr("<b>%1</b>: each cell is <b>row − column</b> in points, with its 95% paired bootstrap interval, the %2 p "
           "and that p adjusted by %3 over the %4 pairs compared. <b>%5</b> pair(s) differ significantly after "
           "adjustment (adjusted p ≤ %6; bold, tinted). Activate a cell to compare that pair in detail.")
            .arg(metricLabel(matrix->metric).toHtmlEscaped(), matrix->testName(), method)
            .arg(matrix->tested)
            .arg(significant)
            .arg(matrix->alpha));
}

void ComparePage::openPair(const QModelIndex& index)
{
    const PairMatrixPtr matrix = m_pairModel->matrix();
    if (!matrix || !index.isValid() || index.row() == index.column())
        return;
    // The cell is row − column: the two-configuration view's B − A with A the column.
    const Configuration a = m_pairModel->configuration(index.column());
    const Configuration b = m_pairModel->configuration(index.row());
    if (setComparison(a, b, matrix->metric))
        setView(View::TwoConfigurations);
}

ComparePage::~ComparePage()
{
    m_pairsPool.waitForDone();
    m_pool.waitForDone();
}

void ComparePage::reload()
{
    requestRecords(m_gold->gold());
}

void ComparePage::fillPairConfigurations(const std::vector<Configuration>& configurations)
{
    m_pairConfigurations.clear();
    for (const Configuration& c : configurations)
        m_pairConfigurations.push_back(pairConfigurationOf(c));
    const QString location = workspace() ? workspace()->location() : QString();
    m_pairConfigsOf = location;
    const QStringList leftOut = location.isEmpty() ? QStringList() : Settings().hiddenColumns(location, kPairsTable);
    const QSignalBlocker blocker(m_pairConfigs);
    m_pairConfigs->clear();
    for (const PairConfiguration& c : m_pairConfigurations) {
        const QString label = QString::fromStdString(c.label());
        auto* item = new QListWidgetItem(label, m_pairConfigs);
        item->setToolTip(label);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(leftOut.contains(label) ? Qt::Unchecked : Qt::Checked);
    }
}

std::vector<PairConfiguration> ComparePage::chosenPairConfigurations() const
{
    std::vector<PairConfiguration> chosen;
    for (int i = 0; i < m_pairConfigs->count() && std::size_t(i) < m_pairConfigurations.size(); ++i) {
        if (m_pairConfigs->item(i)->checkState() == Qt::Checked)
            chosen.push_back(m_pairConfigurations[std::size_t(i)]);
    }
    return chosen;
}

void ComparePage::pairConfigurationsChosen()
{
    if (!m_pairConfigsOf.isEmpty()) {
        QStringList leftOut;
        for (int i = 0; i < m_pairConfigs->count(); ++i) {
            if (m_pairConfigs->item(i)->checkState() != Qt::Checked)
                leftOut << m_pairConfigs->item(i)->text();
        }
        Settings().setHiddenColumns(m_pairConfigsOf, kPairsTable, leftOut);
    }
    m_pairsStale = true;
    if (view() == View::AllPairs)
        computePairs();
}

void ComparePage::recordsReady(const ScoredSetPtr& set, const QString& error)
{
    refill();
    computePairs();
    if (!set) {
        m_summary->setText(error.isEmpty() ? tr("No workspace open.") : error.toHtmlEscaped());
        showComparison(nullptr);
        return;
    }
    compare();
}

void ComparePage::refill()
{
    const ScoredSetPtr set = scoredSet();
    const std::vector<Configuration> configurations
        = set ? configurationsOf(set->records) : std::vector<Configuration>();
    const std::vector<std::string> metrics = set ? comparableMetrics(set->records) : std::vector<std::string>();
    const QSignalBlocker blockA(m_a), blockB(m_b), blockMetric(m_metric);
    const QVariant a = m_a->currentData(), b = m_b->currentData(), metric = m_metric->currentData();
    m_a->clear();
    m_b->clear();
    m_metric->clear();
    for (const Configuration& c : configurations) {
        m_a->addItem(c.label(), configData(c));
        m_b->addItem(c.label(), configData(c));
    }
    for (const std::string& id : metrics) {
        m_metric->addItem(metricLabel(id) + u"  ("_s + QString::fromStdString(id) + u')', QString::fromStdString(id));
        m_metric->setItemData(m_metric->count() - 1, metricToolTip(id), Qt::ToolTipRole);
    }
    const auto restore = [](QComboBox* combo, const QVariant& value, int fallback) {
        const int index = value.isValid() ? combo->findData(value) : -1;
        combo->setCurrentIndex(index >= 0 ? index : std::min(fallback, combo->count() - 1));
    };
    // Configurations sort by model, then strategy: the first two are one model under two strategies
    // when it has them, else the first two models.
    const int secondDefault = configurations.size() > 1 ? 1 : 0;
    restore(m_a, a, 0);
    restore(m_b, b, secondDefault);
    const int correct = m_metric->findData(u"ladder.correct"_s);
    restore(m_metric, metric, std::max(0, correct));
    fillPairConfigurations(configurations);
}

bool ComparePage::setComparison(const Configuration& a, const Configuration& b, const std::string& metric)
{
    const int ia = m_a->findData(configData(a));
    const int ib = m_b->findData(configData(b));
    const int im = m_metric->findData(QString::fromStdString(metric));
    if (ia < 0 || ib < 0 || im < 0)
        return false;
    {
        const QSignalBlocker blockA(m_a), blockB(m_b), blockMetric(m_metric);
        m_a->setCurrentIndex(ia);
        m_b->setCurrentIndex(ib);
        m_metric->setCurrentIndex(im);
    }
    compare();
    return true;
}

void ComparePage::compare()
{
    const ScoredSetPtr set = scoredSet();
    if (!set || m_a->currentIndex() < 0 || m_b->currentIndex() < 0 || m_metric->currentIndex() < 0) {
        showComparison(nullptr);
        return;
    }
    const QStringList a = m_a->currentData().toStringList();
    const QStringList b = m_b->currentData().toStringList();
    const Configuration configA { a.value(0), a.value(1) };
    const Configuration configB { b.value(0), b.value(1) };
    const std::string metric = m_metric->currentData().toString().toStdString();
    const quint64 generation = ++m_generation;
    m_comparing = true;
    beginWork();
    QtConcurrent::run(&m_pool, [set, configA, configB, metric] {
        return ConfigComparisonPtr(
            std::make_shared<const ConfigComparison>(compareConfigurations(set->records, configA, configB, metric)));
    }).then(this, [this, generation](const ConfigComparisonPtr& comparison) {
        endWork();
        if (generation != m_generation)
            return;
        m_comparing = false;
        showComparison(comparison);
    });
}

void ComparePage::showComparison(const ConfigComparisonPtr& comparison)
{
    m_comparing = false;
    m_comparison = comparison;
    m_model->setComparison(comparison);
    if (!comparison) {
        m_discordantTitle->clear();
        Q_EMIT comparisonApplied();
        return;
    }
    if (!comparison->ok()) {
        m_summary->setText((comparison->error.isEmpty() ? comparison->stats.error : comparison->error).toHtmlEscaped());
        m_discordantTitle->clear();
        Q_EMIT comparisonApplied();
        return;
    }
    const PairedComparison& s = comparison->stats;
    const std::string& metric = comparison->metric;
    const auto rateCell = [&](double mean) {
        QString text = formatMetricValue(metric, mean);
        if (comparison->rate && s.n > 0) {
            const Interval ci = wilsonInterval(qint64(std::llround(mean * double(s.n))), s.n);
            text += u" "_s + formatInterval(metric, ci);
        }
        return text;
    };
    const QString aLabel = m_a->currentText().toHtmlEscaped();
    const QString bLabel = m_b->currentText().toHtmlEscaped();
    QString html = u"<table cellspacing='0' cellpadding='4'>"_s;
    html += tr("<tr><td></td><td><b>%1</b></td></tr>").arg(metricLabel(metric).toHtmlEscaped());
    html += tr("<tr><td>A: %1</td><td>%2</td></tr>").arg(aLabel, rateCell(s.meanA));
    html += tr("<tr><td>B: %1</td><td>%2</td></tr>").arg(bLabel, rateCell(s.meanB));
    html += tr("<tr><td><b>Δ (B − A)</b></td><td><b>%1 points</b>, 95% CI [%2, %3] (paired bootstrap)</td></tr>")
                .arg(pointsText(s.deltaPoints), pointsText(s.deltaCiPoints.low), pointsText(s.deltaCiPoints.high));
    html += tr("<tr><td>%1</td><td>p %2 (b = %3 where A is better, c = %4 where B is)</td></tr>")
                .arg(comparison->rate ? tr("McNemar (exact)") : tr("Sign test (exact)"),
                    pValueText(s.pValue).toHtmlEscaped())
                .arg(s.b)
                .arg(s.c);
    html += tr("<tr><td>Pairs</td><td>%1 cases answered by both").arg(s.n);
    if (comparison->onlyA + comparison->onlyB > 0)
        html += tr("; left out: %1 only A, %2 only B").arg(comparison->onlyA).arg(comparison->onlyB);
    html += u"</td></tr></table>"_s;
    m_summary->setText(html);
    m_discordantTitle->setText(
        tr("<b>Discordant cases (%1)</b> — activate one to open its diff (the side that did worse).")
            .arg(comparison->discordant.size()));
    Q_EMIT comparisonApplied();
}

} // namespace structscope
