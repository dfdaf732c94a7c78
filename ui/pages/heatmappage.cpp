// SPDX-License-Identifier: Apache-2.0
#include "pages/heatmappage.h"

#include "analysis/metricformat.h"
#include "charts/heatmapwidget.h"
#include "models/heatmapmodel.h"
#include "models/resultsproxymodel.h"
#include "report/fieldreport.h"
#include "widgets/goldtoggle.h"
#include "widgets/metricpicker.h"
#include "workspace/workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

QString columnTitle(const QString& key)
{
    if (key == u"category"_s)
        return QObject::tr("Category");
    if (key == u"tier"_s)
        return QObject::tr("Tier / schema complexity");
    if (key == u"difficulty"_s)
        return QObject::tr("Difficulty");
    if (key == u"source_kind"_s)
        return QObject::tr("Source kind");
    if (key == u"modality"_s)
        return QObject::tr("Modality");
    if (key == u"suite"_s)
        return QObject::tr("Suite");
    if (key == u"strategy"_s)
        return QObject::tr("Strategy");
    if (key == u"field"_s)
        return QObject::tr("Field");
    return key;
}

// The sort combos: by name, by mean (best first, worst first), and, after a header click, by that line.
enum SortChoice { ByName = 0, ByMean = 1, ByMeanWorst = 2, ByLine = 3 };

/// By mean, best or worst first, for a metric where higher is (not) better.
HeatmapSort meanSort(bool bestFirst, bool higherIsBetter)
{
    return { HeatmapSort::By::Mean, {}, bestFirst == higherIsBetter ? Qt::DescendingOrder : Qt::AscendingOrder };
}

} // namespace

QStringList HeatmapPage::columnKeys()
{
    return { u"category"_s, u"tier"_s, u"difficulty"_s, u"source_kind"_s, u"modality"_s, u"suite"_s, u"strategy"_s,
        u"field"_s };
}

HeatmapPage::HeatmapPage(Workspace* workspace, QWidget* parent)
    : Page(workspace, parent)
    , m_heatmap(new HeatmapWidget(this))
    , m_model(new HeatmapModel(this))
    , m_table(new QTableView(this))
    , m_picker(new MetricPicker(true, this))
    , m_gold(new GoldToggle(this))
    , m_rows(new QComboBox(this))
    , m_columns(new QComboBox(this))
    , m_rowSort(new QComboBox(this))
    , m_columnSort(new QComboBox(this))
    , m_fieldBar(new QWidget(this))
    , m_fieldLevel(new QComboBox(this))
    , m_fieldRows(new QCheckBox(tr("Fields as rows"), this))
    , m_fieldFilter(new QLineEdit(this))
    , m_status(new QLabel(this))
{
    setObjectName(u"heatmapPage"_s);
    m_heatmap->setObjectName(u"heatmap"_s);
    m_rows->addItem(tr("Model"), u"model"_s);
    m_rows->addItem(tr("Model × strategy"), u"model,strategy"_s);
    for (const QString& key : columnKeys())
        m_columns->addItem(columnTitle(key), key);
    for (QComboBox* sort : { m_rowSort, m_columnSort }) {
        sort->addItem(tr("by name"));
        sort->addItem(tr("by mean, best first"));
        sort->addItem(tr("by mean, worst first"));
    }
    m_fieldLevel->setObjectName(u"heatmapFieldLevel"_s);
    m_fieldLevel->addItem(tr("each field"), QString::fromLatin1(kFieldGroupKey.data(), kFieldGroupKey.size()));
    m_fieldLevel->addItem(
        tr("by top-level key"), QString::fromLatin1(kFieldRootGroupKey.data(), kFieldRootGroupKey.size()));
    m_fieldRows->setObjectName(u"heatmapFieldRows"_s);
    m_fieldRows->setChecked(true); // schemas have more fields than there are models
    m_fieldFilter->setObjectName(u"heatmapFieldFilter"_s);
    m_fieldFilter->setPlaceholderText(tr("Filter fields…"));
    m_fieldFilter->setClearButtonEnabled(true);
    {
        auto* fieldLayout = new QHBoxLayout(m_fieldBar);
        fieldLayout->setContentsMargins(0, 0, 0, 0);
        fieldLayout->addWidget(new QLabel(tr("Fields:"), m_fieldBar));
        fieldLayout->addWidget(m_fieldLevel);
        fieldLayout->addWidget(m_fieldRows);
        fieldLayout->addWidget(m_fieldFilter, 1);
        auto* fieldHint = new QLabel(
            tr("Worst first. A field cell opens the responses that got it wrong; a top-level key shows its fields."),
            m_fieldBar);
        fieldHint->setForegroundRole(QPalette::PlaceholderText);
        fieldLayout->addWidget(fieldHint);
        m_fieldBar->setVisible(false);
    }
    m_rows->setObjectName(u"heatmapRows"_s);
    m_status->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Preferred);
    m_columns->setObjectName(u"heatmapColumns"_s);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Rows:"), this));
    top->addWidget(m_rows);
    top->addSpacing(12);
    top->addWidget(new QLabel(tr("Columns:"), this));
    top->addWidget(m_columns);
    top->addSpacing(12);
    top->addWidget(m_picker);
    top->addSpacing(12);
    top->addWidget(new QLabel(tr("Gold:"), this));
    top->addWidget(m_gold);
    top->addStretch(1);
    auto* second = new QHBoxLayout;
    second->addWidget(new QLabel(tr("Sort rows:"), this));
    second->addWidget(m_rowSort);
    second->addSpacing(12);
    second->addWidget(new QLabel(tr("Sort columns:"), this));
    second->addWidget(m_columnSort);
    second->addSpacing(12);
    auto* hint = new QLabel(tr("Click a header to sort by it, a cell to open its cases."), this);
    hint->setForegroundRole(QPalette::PlaceholderText);
    second->addWidget(hint);
    second->addStretch(1);
    second->addWidget(m_status);

    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_heatmap);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* proxy = new ResultsProxyModel(this);
    proxy->setSourceModel(m_model);
    m_table->setObjectName(u"heatmapTable"_s);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(scroll);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(second);
    layout->addWidget(m_fieldBar);
    layout->addWidget(split, 1);

    connect(m_picker, &MetricPicker::metricChanged, this, &HeatmapPage::rebuild);
    connect(m_gold, &GoldToggle::goldChanged, this, &HeatmapPage::reload);
    connect(m_rows, &QComboBox::currentIndexChanged, this, &HeatmapPage::reload);
    connect(m_columns, &QComboBox::currentIndexChanged, this, [this] {
        m_fieldBar->setVisible(byField());
        m_rows->setEnabled(!byField() || !m_fieldRows->isChecked());
        reload();
    });
    connect(m_fieldLevel, &QComboBox::currentIndexChanged, this, &HeatmapPage::reload);
    connect(m_fieldRows, &QCheckBox::toggled, this, [this] {
        m_rows->setEnabled(!byField() || !m_fieldRows->isChecked());
        reload();
    });
    connect(m_fieldFilter, &QLineEdit::textChanged, this, &HeatmapPage::rebuild);
    auto applySort = [this](QComboBox* combo, bool rows) {
        const int choice = combo->currentIndex();
        if (choice == ByLine)
            return;
        const HeatmapSort sort
            = choice == ByName ? HeatmapSort {} : meanSort(choice == ByMean, m_heatmap->data().higherIsBetter);
        rows ? m_heatmap->setRowSort(sort) : m_heatmap->setColumnSort(sort);
    };
    connect(m_rowSort, &QComboBox::currentIndexChanged, this, [this, applySort] { applySort(m_rowSort, true); });
    connect(m_columnSort, &QComboBox::currentIndexChanged, this, [this, applySort] { applySort(m_columnSort, false); });
    connect(m_heatmap, &HeatmapWidget::rowSortChanged, this, &HeatmapPage::updateSortCombos);
    connect(m_heatmap, &HeatmapWidget::columnSortChanged, this, &HeatmapPage::updateSortCombos);
    const auto openCell = [this](const GroupKey& cell) {
        if (const std::optional<QString> root = cell.value(kFieldRootGroupKey)) {
            // A top-level key: its fields, one level down.
            const QSignalBlocker blocker(m_fieldFilter);
            m_fieldFilter->setText(*root);
            m_fieldLevel->setCurrentIndex(0);
            return;
        }
        Q_EMIT drillDown(cell);
    };
    connect(m_heatmap, &HeatmapWidget::cellClicked, this, [this, openCell](const GroupKey& row, const QString& column) {
        openCell(row.with(shownColumnKey(), column.toStdString()));
    });
    connect(m_table, &QTableView::activated, this, [openCell](const QModelIndex& index) {
        if (index.column() > 0)
            openCell(index.data(HeatmapModel::GroupKeyRole).value<GroupKey>());
    });
    showLoadingIn(m_status);
}

bool HeatmapPage::setColumnKey(const QString& key)
{
    const int index = m_columns->findData(key);
    if (index < 0)
        return false;
    m_columns->setCurrentIndex(index);
    return true;
}

void HeatmapPage::setRowsByStrategy(bool byStrategy)
{
    m_rows->setCurrentIndex(byStrategy ? 1 : 0);
}

void HeatmapPage::setFieldsAsRows(bool rows)
{
    m_fieldRows->setChecked(rows);
}

void HeatmapPage::setFieldsByTopLevelKey(bool byRoot)
{
    m_fieldLevel->setCurrentIndex(byRoot ? 1 : 0);
}

void HeatmapPage::setFieldFilter(const QString& text)
{
    m_fieldFilter->setText(text);
}

bool HeatmapPage::byField() const
{
    return m_columns->currentData().toString() == u"field"_s;
}

std::string HeatmapPage::fieldAxisKey() const
{
    return m_fieldLevel->currentData().toString().toStdString();
}

std::vector<std::string> HeatmapPage::shownRowKeys() const
{
    if (byField() && m_fieldRows->isChecked())
        return { fieldAxisKey() };
    return rowKeys();
}

std::string HeatmapPage::shownColumnKey() const
{
    if (byField())
        return m_fieldRows->isChecked() ? std::string("model") : fieldAxisKey();
    return m_columns->currentData().toString().toStdString();
}

std::vector<std::string> HeatmapPage::rowKeys() const
{
    std::vector<std::string> keys;
    for (const QString& key : m_rows->currentData().toString().split(u','))
        keys.push_back(key.toStdString());
    return keys;
}

void HeatmapPage::reload()
{
    AggregateOptions options;
    options.groupBy = shownRowKeys();
    options.groupBy.push_back(shownColumnKey());
    requestReport(m_gold->gold(), options);
}

void HeatmapPage::reportReady(const ReportDataPtr& data, const QString& error)
{
    m_picker->rememberIn(workspace() ? workspace()->location() : QString(), pageId());
    m_picker->setReport(data);
    m_heatmap->setPlaceholderText(!error.isEmpty() ? error
            : !workspace() || !data                ? tr("No workspace open.")
                                    : tr("No responses yet.\nImport results (Ctrl+I) or drop .jsonl files here."));
    rebuild();
}

void HeatmapPage::rebuild()
{
    const ReportDataPtr data = currentReport();
    const std::string metric = m_picker->metricId();
    if (!data || metric.empty()) {
        m_heatmap->setTitle({});
        m_heatmap->setData({});
        m_model->setHeatmap({});
        return;
    }
    HeatmapData heatmap = buildHeatmap(*data, shownRowKeys(), shownColumnKey(), metric);
    if (byField()) {
        // Hundreds of fields: the filter narrows them, and the worst come first.
        const bool rows = m_fieldRows->isChecked();
        const QString filter = m_fieldFilter->text().trimmed();
        rows ? heatmap.filterRows(filter) : heatmap.filterColumns(filter);
        const HeatmapSort worst = meanSort(false, heatmap.higherIsBetter);
        rows ? heatmap.sortRows(worst) : heatmap.sortColumns(worst);
    }
    m_model->setHeatmap(heatmap);
    const bool fieldRows = byField() && m_fieldRows->isChecked();
    m_heatmap->setData(std::move(heatmap));
    if (byField() && (fieldRows ? m_heatmap->rowSort() : m_heatmap->columnSort()).by == HeatmapSort::By::Label) {
        // The field axis comes worst first unless another order was chosen (the widget keeps its sorts).
        const HeatmapSort worst = meanSort(false, m_heatmap->data().higherIsBetter);
        fieldRows ? m_heatmap->setRowSort(worst) : m_heatmap->setColumnSort(worst);
    }
    const QString fields = m_fieldLevel->currentIndex() == 1 ? tr("top-level key") : tr("field");
    m_heatmap->setTitle(byField()
            ? (fieldRows ? tr("%1 by %2 and model").arg(metricLabel(metric), fields)
                         : tr("%1 by %2 and %3").arg(metricLabel(metric), m_rows->currentText().toLower(), fields))
            : tr("%1 by %2 and %3")
                  .arg(metricLabel(metric), m_rows->currentText().toLower(), m_columns->currentText().toLower()));
}

void HeatmapPage::updateSortCombos()
{
    const auto sync = [this](QComboBox* combo, const HeatmapSort& sort, const QString& lineText) {
        const QSignalBlocker blocker(combo);
        while (combo->count() > ByLine)
            combo->removeItem(ByLine);
        if (sort.by == HeatmapSort::By::Line) {
            combo->addItem(lineText.arg(sort.line));
            combo->setCurrentIndex(ByLine);
        } else {
            const bool bestFirst = meanSort(true, m_heatmap->data().higherIsBetter).order == sort.order;
            combo->setCurrentIndex(sort.by != HeatmapSort::By::Mean ? ByName : bestFirst ? ByMean : ByMeanWorst);
        }
    };
    sync(m_rowSort, m_heatmap->rowSort(), tr("by column “%1”"));
    sync(m_columnSort, m_heatmap->columnSort(), tr("by row “%1”"));
}

QList<Page::NamedChart> HeatmapPage::charts()
{
    return { { tr("Heatmap"), m_heatmap } };
}

std::optional<Report> HeatmapPage::table() const
{
    const ReportDataPtr data = currentReport();
    if (!data)
        return std::nullopt;
    Report report = data->report;
    report.metrics = { m_picker->metricId() };
    return report;
}

QString HeatmapPage::tableCaption() const
{
    return m_heatmap->title();
}

} // namespace structscope
