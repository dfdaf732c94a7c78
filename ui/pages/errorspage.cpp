// SPDX-License-Identifier: Apache-2.0
#include "pages/errorspage.h"

#include "charts/errorsetschart.h"
#include "charts/overlapschart.h"
#include "scoring/metricregistry.h"
#include "widgets/goldtoggle.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace structscope {

ErrorsPage::ErrorsPage(Workspace* workspace, QWidget* parent)
    : RecordsPage(workspace, parent)
    , m_chart(new ErrorSetsChart(this))
    , m_gold(new GoldToggle(this))
    , m_mode(new QComboBox(this))
    , m_rowsLabel(new QLabel(tr("Panels:"), this))
    , m_rows(new QComboBox(this))
    , m_kindControls(new QWidget(this))
    , m_status(new QLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_kindsHint(nullptr)
    , m_acrossControls(new QWidget(this))
    , m_criterion(new QComboBox(this))
    , m_errorKind(new QComboBox(this))
    , m_metric(new QComboBox(this))
    , m_threshold(new QDoubleSpinBox(this))
    , m_topN(new QSpinBox(this))
    , m_overlapsChart(new OverlapsChart(this))
    , m_setsModel(new OverlapSetsModel(this))
    , m_regionsModel(new OverlapRegionsModel(this))
    , m_setsView(new QTableView(this))
    , m_regionsView(new QTableView(this))
    , m_rule(new QLabel(this))
    , m_auditButton(new QPushButton(this))
{
    setObjectName(u"errorsPage"_s);
    m_mode->setObjectName(u"errorsMode"_s);
    m_mode->addItem(tr("Error kinds"), u"kinds"_s);
    m_mode->addItem(tr("Across models"), u"models"_s);
    m_mode->setToolTip(tr("Error kinds: which kinds of error go together in each model's answers. Across models: "
                          "which cases fail for which models."));
    m_chart->setObjectName(u"errorSetsChart"_s);
    m_rows->setObjectName(u"errorsRows"_s);
    m_rows->addItem(tr("Model × strategy"), u"model,strategy"_s);
    m_rows->addItem(tr("Model"), u"model"_s);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Mode:"), this));
    controls->addWidget(m_mode);
    controls->addSpacing(12);
    controls->addWidget(m_rowsLabel);
    controls->addWidget(m_rows);
    controls->addSpacing(12);
    auto* kindControls = new QHBoxLayout(m_kindControls);
    kindControls->setContentsMargins(0, 0, 0, 0);
    kindControls->addWidget(new QLabel(tr("Sets:"), m_kindControls));
    for (ErrorLabel label : errorLabels()) {
        auto* button = new QToolButton(m_kindControls);
        button->setText(errorLabelName(label));
        button->setObjectName(u"errorLabel_"_s + QLatin1String(errorLabelId(label)));
        button->setCheckable(true);
        button->setChecked(
            label == ErrorLabel::MissingKey || label == ErrorLabel::MissingValue || label == ErrorLabel::WrongValue);
        button->setProperty("label", int(label));
        kindControls->addWidget(button);
        m_labelButtons << button;
        connect(button, &QToolButton::toggled, this, &ErrorsPage::rebuild);
    }
    controls->addWidget(new QLabel(tr("Gold:"), this));
    controls->addWidget(m_gold);
    controls->addStretch(1);
    controls->addWidget(m_status);
    // The mode's own controls get a row of their own: with the ones above they would not fit a 1366-pixel screen.
    auto* modeControls = new QHBoxLayout;
    modeControls->addWidget(m_kindControls);
    modeControls->addWidget(m_acrossControls);
    modeControls->addStretch(1);
    // A long status is cut rather than widening the page.
    m_status->setMinimumWidth(1);
    auto* hint = new QLabel(tr("Responses with at least one error of each kind, among N_err (neither perfect nor "
                               "failed). Up to three sets: Venn diagrams; more: UpSet bars. Click a region to list "
                               "its responses."),
        this);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);

    m_kindsHint = hint;

    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_chart);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_stack->addWidget(scroll);
    m_stack->addWidget(buildAcrossModels());
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addLayout(modeControls);
    layout->addWidget(hint);
    layout->addWidget(m_rule);
    layout->addWidget(m_stack, 1);
    m_acrossControls->hide();
    m_rule->hide();

    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] {
        const bool across = isAcrossModels();
        m_stack->setCurrentIndex(across ? 1 : 0);
        m_kindControls->setVisible(!across);
        m_acrossControls->setVisible(across);
        m_kindsHint->setVisible(!across);
        m_rule->setVisible(across);
        m_rowsLabel->setText(across ? tr("Sets:") : tr("Panels:"));
        rebuild();
    });
    connect(m_rows, &QComboBox::currentIndexChanged, this, &ErrorsPage::rebuild);
    connect(m_gold, &GoldToggle::goldChanged, this, &ErrorsPage::reload);
    connect(m_chart, &ErrorSetsChart::regionClicked, this, &Page::drillDown);
    connect(this, &RecordsPage::busyChanged, this,
        [this](bool busy) { m_status->setText(busy ? tr("Scoring…") : QString()); });
}

std::vector<ErrorLabel> ErrorsPage::labels() const
{
    std::vector<ErrorLabel> picked;
    for (QToolButton* button : m_labelButtons) {
        if (button->isChecked())
            picked.push_back(ErrorLabel(button->property("label").toInt()));
    }
    return picked;
}

void ErrorsPage::setLabels(const std::vector<ErrorLabel>& labels)
{
    for (QToolButton* button : m_labelButtons) {
        const QSignalBlocker blocker(button);
        const ErrorLabel label = ErrorLabel(button->property("label").toInt());
        button->setChecked(std::find(labels.begin(), labels.end(), label) != labels.end());
    }
    rebuild();
}

void ErrorsPage::setRowsByStrategy(bool byStrategy)
{
    m_rows->setCurrentIndex(byStrategy ? 0 : 1);
}

void ErrorsPage::reload()
{
    requestRecords(m_gold->gold());
}

void ErrorsPage::recordsReady(const ScoredSetPtr&, const QString& error)
{
    m_error = error;
    rebuild();
}

void ErrorsPage::rebuild()
{
    if (isAcrossModels()) {
        rebuildAcross();
        return;
    }
    const ScoredSetPtr set = scoredSet();
    const std::vector<ErrorLabel> picked = labels();
    if (!set || set->records.empty() || picked.empty()) {
        m_chart->setTitle({});
        m_chart->setPlaceholderText(!m_error.isEmpty() ? m_error
                : picked.empty()                       ? tr("Pick at least one error kind.")
                : set                                  ? tr("No responses in this workspace yet.")
                                                       : tr("No workspace open."));
        m_chart->setData({});
        return;
    }
    std::vector<std::string> groupBy;
    for (const QString& key : m_rows->currentData().toString().split(u','))
        groupBy.push_back(key.toStdString());
    QStringList names;
    for (ErrorLabel label : picked)
        names << errorLabelName(label);
    m_chart->setTitle(tr("Responses with %1 errors, by %2 (%3 gold)")
                          .arg(names.join(u", "_s), m_rows->currentText().toLower(),
                              m_gold->gold() == GoldBasis::Adjusted ? tr("adjusted") : tr("measured")));
    m_chart->setData(countErrorSets(set->records, groupBy, picked));
}

QList<Page::NamedChart> ErrorsPage::charts()
{
    if (isAcrossModels())
        return { { tr("Failure overlaps"), m_overlapsChart } };
    return { { tr("Error sets"), m_chart } };
}

QWidget* ErrorsPage::buildAcrossModels()
{
    m_criterion->setObjectName(u"overlapCriterion"_s);
    m_criterion->addItem(tr("Verdict not correct"), int(FailureCriterion::Kind::NotCorrect));
    m_criterion->addItem(tr("Error of kind"), int(FailureCriterion::Kind::ErrorOfKind));
    m_criterion->addItem(tr("Metric below"), int(FailureCriterion::Kind::MetricBelow));
    m_criterion->setToolTip(tr("When an answer fails"));
    m_errorKind->setObjectName(u"overlapErrorKind"_s);
    for (ErrorLabel label : errorLabels())
        m_errorKind->addItem(errorLabelName(label), QString::fromLatin1(errorLabelId(label)));
    m_metric->setObjectName(u"overlapMetric"_s);
    for (const MetricInfo& info : allMetrics()) {
        if ((info.kind == MetricKind::Rate || info.kind == MetricKind::Mean) && info.higherIsBetter)
            m_metric->addItem(QString::fromUtf8(info.id.data(), qsizetype(info.id.size())),
                QString::fromUtf8(info.id.data(), qsizetype(info.id.size())));
    }
    m_threshold->setObjectName(u"overlapThreshold"_s);
    m_threshold->setRange(-1e9, 1e9);
    m_threshold->setDecimals(3);
    m_threshold->setSingleStep(0.05);
    m_threshold->setValue(0.8);
    m_threshold->setToolTip(tr("An answer fails when the metric's value is below this"));
    m_topN->setObjectName(u"overlapTopN"_s);
    m_topN->setRange(1, 500);
    m_topN->setValue(20);
    m_topN->setToolTip(tr("How many of the largest intersections an UpSet plot shows"));

    auto* controls = new QHBoxLayout(m_acrossControls);
    controls->setContentsMargins(0, 0, 0, 0);
    controls->addWidget(new QLabel(tr("Fails when:"), m_acrossControls));
    controls->addWidget(m_criterion);
    controls->addWidget(m_errorKind);
    controls->addWidget(m_metric);
    controls->addWidget(m_threshold);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Top:"), m_acrossControls));
    controls->addWidget(m_topN);

    m_overlapsChart->setObjectName(u"overlapsChart"_s);
    m_setsView->setObjectName(u"overlapSets"_s);
    m_setsView->setModel(m_setsModel);
    m_setsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_setsView->setAlternatingRowColors(true);
    m_setsView->verticalHeader()->hide();
    m_setsView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_setsView->horizontalHeader()->setSectionResizeMode(OverlapSetsModel::Set, QHeaderView::Stretch);
    m_regionsView->setObjectName(u"overlapRegions"_s);
    m_regionsView->setModel(m_regionsModel);
    m_regionsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_regionsView->setAlternatingRowColors(true);
    m_regionsView->verticalHeader()->hide();
    m_regionsView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_regionsView->horizontalHeader()->setSectionResizeMode(OverlapRegionsModel::Sets, QHeaderView::Stretch);
    m_regionsView->setToolTip(tr("Activate a row to list its cases"));
    auto* all = new QPushButton(tr("All"), this);
    auto* none = new QPushButton(tr("None"), this);
    all->setObjectName(u"overlapSetsAll"_s);
    none->setObjectName(u"overlapSetsNone"_s);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    auto* setsBar = new QHBoxLayout;
    setsBar->addWidget(new QLabel(tr("Chosen sets:"), left), 1);
    setsBar->addWidget(all);
    setsBar->addWidget(none);
    leftLayout->addLayout(setsBar);
    leftLayout->addWidget(m_setsView, 3);
    leftLayout->addWidget(new QLabel(tr("Regions (exclusive, largest first):"), left));
    leftLayout->addWidget(m_regionsView, 2);

    m_rule->setObjectName(u"overlapRule"_s);
    m_rule->setWordWrap(true);
    m_rule->setForegroundRole(QPalette::PlaceholderText);
    m_auditButton->setObjectName(u"overlapAudit"_s);
    m_auditButton->setEnabled(false);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_overlapsChart);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto* auditBar = new QHBoxLayout;
    auditBar->addWidget(m_auditButton);
    auditBar->addStretch(1);
    rightLayout->addLayout(auditBar);
    rightLayout->addWidget(scroll, 1);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({ 300, 900 });
    splitter->setChildrenCollapsible(false);

    connect(m_criterion, &QComboBox::currentIndexChanged, this, [this] {
        updateCriterionControls();
        rebuild();
    });
    connect(m_errorKind, &QComboBox::currentIndexChanged, this, &ErrorsPage::rebuild);
    connect(m_metric, &QComboBox::currentIndexChanged, this, &ErrorsPage::rebuild);
    connect(m_threshold, &QDoubleSpinBox::valueChanged, this, &ErrorsPage::rebuild);
    connect(m_topN, &QSpinBox::valueChanged, this, [this](int n) { m_overlapsChart->setTopN(n); });
    connect(m_setsModel, &OverlapSetsModel::checkedChanged, this, &ErrorsPage::updateOverlaps);
    connect(all, &QPushButton::clicked, this, [this] { m_setsModel->setAllChecked(true); });
    connect(none, &QPushButton::clicked, this, [this] { m_setsModel->setAllChecked(false); });
    connect(m_overlapsChart, &OverlapsChart::regionClicked, this, [this](quint64 mask) {
        if (!m_overlaps)
            return;
        drillCases(overlapRegionCases(*m_overlaps, mask),
            mask == 0 ? tr("failed by none of the chosen sets")
                      : tr("failed by %1 only").arg(m_overlaps->regionLabel(mask)));
    });
    connect(m_overlapsChart, &OverlapsChart::setClicked, this, [this](int set) {
        if (m_overlaps)
            drillCases(
                overlapSetCases(*m_overlaps, set), tr("failed by %1").arg(m_overlaps->sets[std::size_t(set)].label()));
    });
    connect(m_regionsView, &QTableView::activated, this, [this](const QModelIndex& index) {
        Q_EMIT drillDown(index.data(OverlapRegionsModel::GroupKeyRole).value<GroupKey>());
    });
    connect(m_auditButton, &QPushButton::clicked, this, [this] {
        if (m_overlaps)
            Q_EMIT auditRequested(
                m_overlaps->failedByAll(), tr("every chosen set fails (%1)").arg(m_overlaps->criterion.describe()));
    });
    updateCriterionControls();
    return splitter;
}

bool ErrorsPage::isAcrossModels() const
{
    return m_mode->currentData().toString() == u"models"_s;
}

void ErrorsPage::setAcrossModels(bool across)
{
    m_mode->setCurrentIndex(across ? 1 : 0);
}

FailureCriterion ErrorsPage::criterion() const
{
    FailureCriterion criterion;
    criterion.kind = FailureCriterion::Kind(m_criterion->currentData().toInt());
    if (const auto label = errorLabelFromId(m_errorKind->currentData().toString().toStdString()))
        criterion.label = *label;
    if (criterion.kind == FailureCriterion::Kind::MetricBelow) {
        criterion.metric = m_metric->currentData().toString().toStdString();
        criterion.threshold = m_threshold->value();
    }
    return criterion;
}

void ErrorsPage::setCriterion(const FailureCriterion& criterion)
{
    {
        const QSignalBlocker b1(m_criterion);
        const QSignalBlocker b2(m_errorKind);
        const QSignalBlocker b3(m_metric);
        const QSignalBlocker b4(m_threshold);
        m_criterion->setCurrentIndex(m_criterion->findData(int(criterion.kind)));
        m_errorKind->setCurrentIndex(m_errorKind->findData(QString::fromLatin1(errorLabelId(criterion.label))));
        if (criterion.kind == FailureCriterion::Kind::MetricBelow) {
            m_metric->setCurrentIndex(m_metric->findData(QString::fromStdString(criterion.metric)));
            m_threshold->setValue(criterion.threshold);
        }
    }
    updateCriterionControls();
    rebuild();
}

void ErrorsPage::setTopN(int n)
{
    m_topN->setValue(n);
}

void ErrorsPage::updateCriterionControls()
{
    const auto kind = FailureCriterion::Kind(m_criterion->currentData().toInt());
    m_errorKind->setVisible(kind == FailureCriterion::Kind::ErrorOfKind);
    m_metric->setVisible(kind == FailureCriterion::Kind::MetricBelow);
    m_threshold->setVisible(kind == FailureCriterion::Kind::MetricBelow);
}

std::vector<std::string> ErrorsPage::groupBy() const
{
    std::vector<std::string> keys;
    for (const QString& key : m_rows->currentData().toString().split(u','))
        keys.push_back(key.toStdString());
    return keys;
}

void ErrorsPage::rebuildAcross()
{
    const ScoredSetPtr set = scoredSet();
    if (!set || set->records.empty()) {
        m_setsModel->setMatrix(nullptr);
        return;
    }
    m_setsModel->setMatrix(std::make_shared<const FailureMatrix>(failureMatrix(set->records, groupBy(), criterion())));
}

void ErrorsPage::updateOverlaps()
{
    const FailureMatrixPtr matrix = m_setsModel->matrix();
    const ScoredSetPtr set = scoredSet();
    const std::vector<int> chosen = m_setsModel->checkedSets();
    m_overlaps.reset();
    m_rule->setText(failureOverlapRule(criterion()));
    QString placeholder;
    if (!matrix || matrix->sets.empty())
        placeholder = !m_error.isEmpty() ? m_error
            : set                        ? tr("No responses in this workspace yet.")
                                         : tr("No workspace open.");
    else if (chosen.empty())
        placeholder = tr("Pick at least one set in the list.");
    std::shared_ptr<FailureOverlaps> overlaps;
    if (placeholder.isEmpty()) {
        overlaps = std::make_shared<FailureOverlaps>(countFailureOverlaps(*matrix, chosen));
        if (!overlaps->ok())
            placeholder = overlaps->error + u". "_s + tr("Pick fewer sets.");
        else if (overlaps->cases == 0)
            placeholder = criterion().kind == FailureCriterion::Kind::MetricBelow
                ? tr("No case has an answer with a value of %1 from every chosen set.")
                      .arg(QString::fromStdString(criterion().metric))
                : tr("No case was answered by every chosen set.");
    }
    if (!placeholder.isEmpty()) {
        m_overlapsChart->setTitle({});
        m_overlapsChart->setPlaceholderText(placeholder);
        m_overlapsChart->setData({});
        m_regionsModel->setOverlaps(nullptr);
        m_auditButton->setEnabled(false);
        m_auditButton->setText(tr("Audit the cases every chosen set fails"));
        return;
    }
    m_overlaps = overlaps;
    m_overlapsChart->setTitle(tr("Cases failed (%1), by %2: %3 sets (%4 gold)")
                                  .arg(overlaps->criterion.describe(), m_rows->currentText().toLower())
                                  .arg(overlaps->sets.size())
                                  .arg(gold() == GoldBasis::Adjusted ? tr("adjusted") : tr("measured")));
    m_overlapsChart->setTopN(m_topN->value());
    m_overlapsChart->setData(*overlaps);
    m_regionsModel->setOverlaps(overlaps);
    const int all = overlaps->region(overlaps->fullMask());
    m_auditButton->setEnabled(all > 0);
    m_auditButton->setText(overlaps->sets.size() == 1 ? tr("Audit the %1 cases this set fails").arg(all)
                                                      : tr("Audit the %1 cases every chosen set fails").arg(all));
}

void ErrorsPage::drillCases(const std::vector<CaseKey>& cases, const QString& caption)
{
    if (m_overlaps)
        Q_EMIT drillDown(overlapDrillKey(*m_overlaps, cases, caption));
}

} // namespace structscope
