// SPDX-License-Identifier: Apache-2.0
#include "pages/leaderboardpage.h"

#include "analysis/metricformat.h"
#include "charts/costaccuracychart.h"
#include "charts/metricbarchart.h"
#include "models/leaderboardmodel.h"
#include "models/resultsproxymodel.h"
#include "report/fieldreport.h"
#include "scoring/metricregistry.h"
#include "settings/settings.h"
#include "widgets/fieldbreakdowndialog.h"
#include "widgets/filterlineedit.h"
#include "widgets/frozencolumntableview.h"
#include "widgets/goldtoggle.h"
#include "widgets/metricpicker.h"
#include "widgets/simulateddatanote.h"
#include "workspace/workspace.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace structscope {

LeaderboardPage::LeaderboardPage(Workspace* workspace, QWidget* parent)
    : Page(workspace, parent)
    , m_model(new LeaderboardModel(this))
    , m_proxy(new ResultsProxyModel(this))
    , m_view(new FrozenColumnTableView(this))
    , m_picker(new MetricPicker(false, this))
    , m_gold(new GoldToggle(this))
    , m_groupBy(new QComboBox(this))
    , m_filter(new FilterLineEdit(this))
    , m_status(new QLabel(this))
    , m_simulatedNote(new SimulatedDataNote(this))
    , m_bars(new MetricBarChart(this))
    , m_barScroll(new QScrollArea(this))
    , m_scatter(new CostAccuracyChart(this))
{
    setObjectName(u"leaderboardPage"_s);
    m_proxy->setSourceModel(m_model);
    m_view->setObjectName(u"leaderboardTable"_s);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setColumnIdRole(LeaderboardModel::ColumnIdRole);
    m_groupBy->addItem(tr("Model"), u"model"_s);
    m_groupBy->addItem(tr("Model × strategy"), u"model,strategy"_s);
    m_groupBy->setObjectName(u"groupByCombo"_s);
    m_filter->setObjectName(u"leaderboardFilter"_s);
    m_filter->setPlaceholderText(tr("Filter models…"));
    m_filter->setMaximumWidth(240);
    m_status->setObjectName(u"leaderboardStatus"_s);
    m_status->setTextFormat(Qt::PlainText); // store errors quote stored values
    m_status->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Preferred);
    m_gold->setSideBySideOffered(true);

    auto* controls = new QHBoxLayout;
    controls->addWidget(m_picker);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Rows:"), this));
    controls->addWidget(m_groupBy);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Gold:"), this));
    controls->addWidget(m_gold);
    controls->addStretch(1);
    controls->addWidget(m_status);
    controls->addWidget(m_filter);

    // Horizontal bars ask for the height their rows need: the chart scrolls when the page has less.
    m_barScroll->setObjectName(u"barChartScroll"_s);
    m_barScroll->setWidget(m_bars);
    m_barScroll->setWidgetResizable(true);
    m_barScroll->setFrameShape(QFrame::NoFrame);
    m_barScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* charts = new QSplitter(Qt::Horizontal, this);
    charts->addWidget(m_barScroll);
    charts->addWidget(m_scatter);
    charts->setStretchFactor(0, 3);
    charts->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(charts);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_simulatedNote);
    layout->addWidget(split, 1);

    connect(m_picker, &MetricPicker::familyChanged, m_model, &LeaderboardModel::setFamily);
    connect(m_picker, &MetricPicker::metricChanged, this, &LeaderboardPage::showMetric);
    connect(m_gold, &GoldToggle::goldChanged, this, &LeaderboardPage::reload);
    connect(m_groupBy, &QComboBox::currentIndexChanged, this, &LeaderboardPage::reload);
    connect(m_filter, &FilterLineEdit::filterChanged, m_proxy, &ResultsProxyModel::setFilterText);
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex& index) {
        drillDownWithoutGold(index.data(LeaderboardModel::GroupKeyRole).value<GroupKey>());
    });
    // Clicking a metric's column header also charts that metric.
    connect(m_view->horizontalHeader(), &QHeaderView::sectionClicked, this, [this](int section) {
        const QString id = m_proxy->headerData(section, Qt::Horizontal, LeaderboardModel::MetricIdRole).toString();
        const MetricInfo* info = findMetric(id.toStdString());
        if (info && info->kind != MetricKind::Value)
            m_picker->setMetric(id.toStdString());
    });
    connect(m_view, &FrozenColumnTableView::hiddenColumnsChanged, this, [this](const QStringList& ids) {
        if (!m_columnsOf.isEmpty())
            Settings().setHiddenColumns(m_columnsOf, pageId(), ids);
    });
    // A row's accuracy by field, from its context menu, on the frozen model column too.
    for (QTableView* view : { static_cast<QTableView*>(m_view), m_view->frozenView() }) {
        view->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(view, &QWidget::customContextMenuRequested, this, [this, view](const QPoint& at) {
            const QModelIndex index = view->indexAt(at);
            if (!index.isValid())
                return;
            const GroupKey key = index.data(LeaderboardModel::GroupKeyRole).value<GroupKey>();
            QMenu menu(this);
            QAction* fields = menu.addAction(tr("Accuracy by field of %1…").arg(key.label()));
            fields->setEnabled(this->workspace() && this->workspace()->scoring()->cached(m_gold->gold()) != nullptr);
            if (menu.exec(view->viewport()->mapToGlobal(at)) == fields)
                showFieldBreakdown(key);
        });
    }
    connect(m_bars, &MetricBarChart::groupClicked, this, &LeaderboardPage::drillDownWithoutGold);
    connect(m_scatter, &CostAccuracyChart::groupClicked, this, &LeaderboardPage::drillDownWithoutGold);
    showLoadingIn(m_status);
}

void LeaderboardPage::setGroupByStrategy(bool byStrategy)
{
    m_groupBy->setCurrentIndex(byStrategy ? 1 : 0);
}

FieldBreakdownDialog* LeaderboardPage::showFieldBreakdown(const GroupKey& key)
{
    const ScoredSetPtr set = workspace() ? workspace()->scoring()->cached(m_gold->gold()) : nullptr;
    if (!set || !set->ok())
        return nullptr;
    GroupKey group;
    AggregateOptions options;
    options.groupBy.clear();
    for (const auto& part : key.parts) {
        if (part.first == "gold")
            continue;
        group.parts.push_back(part);
        options.groupBy.push_back(part.first);
    }
    options.groupBy.push_back(std::string(kFieldGroupKey));
    auto* dialog = new FieldBreakdownDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setBreakdown(group, aggregateFields(set->records, options));
    connect(dialog, &FieldBreakdownDialog::fieldActivated, this, &Page::drillDown);
    dialog->show();
    return dialog;
}

void LeaderboardPage::reload()
{
    AggregateOptions options;
    options.groupBy.clear();
    for (const QString& key : m_groupBy->currentData().toString().split(u','))
        options.groupBy.push_back(key.toStdString());
    requestReport(m_gold->gold(), options, m_gold->sideBySide());
}

void LeaderboardPage::drillDownWithoutGold(const GroupKey& key)
{
    // Side by side, a row also names its gold basis; the cases behind it are the same either way.
    GroupKey cases;
    for (const auto& part : key.parts) {
        if (part.first != "gold")
            cases.parts.push_back(part);
    }
    Q_EMIT drillDown(cases);
}

void LeaderboardPage::reportReady(const ReportDataPtr& data, const QString& error)
{
    const QString location = workspace() ? workspace()->location() : QString();
    if (location != m_columnsOf) {
        m_columnsOf = location;
        m_view->setHiddenColumnIds(location.isEmpty() ? QStringList() : Settings().hiddenColumns(location, pageId()));
    }
    m_picker->rememberIn(location, pageId());
    m_model->setReport(data);
    m_picker->setReport(data);
    m_model->setFamily(m_picker->family());
    m_simulatedNote->setSimulatedModels(
        data ? QStringList(data->simulatedModels.begin(), data->simulatedModels.end()) : QStringList());
    if (!error.isEmpty())
        m_status->setText(error);
    showMetric(m_picker->metricId());
}

void LeaderboardPage::showMetric(const std::string& metricId)
{
    const ReportDataPtr data = m_model->report();
    m_bars->setReport(data, metricId);
    m_scatter->setReport(data, metricId);
    // Nothing to plot against cost (no costs recorded): the bar chart takes the room.
    m_scatter->setVisible(!m_scatter->plottedLabels().isEmpty());
    const int column = m_model->columnOf(metricId);
    if (column >= 0) {
        const MetricInfo* info = findMetric(metricId);
        m_view->sortByColumn(column, info && !info->higherIsBetter ? Qt::AscendingOrder : Qt::DescendingOrder);
    }
}

QList<Page::NamedChart> LeaderboardPage::charts()
{
    return { { tr("Bar chart"), m_bars }, { tr("Cost vs. accuracy"), m_scatter } };
}

std::optional<Report> LeaderboardPage::table() const
{
    if (!m_model->report())
        return std::nullopt;
    // As shown: the proxy's rows, in its order, and the metric columns the user has not hidden.
    const Report all = m_model->shownReport();
    Report shown = all;
    shown.groups.clear();
    for (int row = 0; row < m_proxy->rowCount(); ++row)
        shown.groups.push_back(all.groups[std::size_t(m_proxy->mapToSource(m_proxy->index(row, 0)).row())]);
    const QStringList hidden = m_view->hiddenColumnIds();
    std::erase_if(
        shown.metrics, [&hidden](const std::string& id) { return hidden.contains(QString::fromStdString(id)); });
    return shown;
}

QString LeaderboardPage::tableCaption() const
{
    return tr("Leaderboard: %1 metrics").arg(m_picker->family());
}

} // namespace structscope
