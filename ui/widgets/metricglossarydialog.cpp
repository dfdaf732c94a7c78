// SPDX-License-Identifier: Apache-2.0
#include "widgets/metricglossarydialog.h"

#include "scoring/metricregistry.h"
#include "widgets/filterlineedit.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString kindText(MetricKind kind)
{
    switch (kind) {
    case MetricKind::Rate:
        return QObject::tr("share of responses · Wilson 95% interval");
    case MetricKind::Mean:
        return QObject::tr("mean per response · bootstrap 95% interval");
    case MetricKind::Micro:
        return QObject::tr("from summed counts · bootstrap 95% interval");
    case MetricKind::Value:
        return QObject::tr("statistic of the group · no interval");
    }
    return {};
}

QString familyTitle(const QString& family)
{
    if (family == u"ladder"_s)
        return QObject::tr("ladder — one label per response (SchemaBench)");
    if (family == u"extraction"_s)
        return QObject::tr("extraction — key/value error analysis (LLMStructBench)");
    if (family == u"grounding"_s)
        return QObject::tr("grounding — Structured Output Benchmark (SOB)");
    if (family == u"contract"_s)
        return QObject::tr("contract — domain verification (OrderBench)");
    if (family == u"field"_s)
        return QObject::tr("field — per field of the gold (reports and heatmaps by field)");
    return family;
}

} // namespace

MetricGlossaryDialog::MetricGlossaryDialog(QWidget* parent)
    : QDialog(parent)
    , m_tree(new QTreeWidget(this))
{
    setWindowTitle(tr("Metric Glossary"));
    setObjectName(u"metricGlossary"_s);
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Every number StructScope shows comes from one of these metrics. "
                                "Ids are stable: reports, the command line and exports use them."),
        this);
    intro->setWordWrap(true);
    auto* filter = new FilterLineEdit(this);
    filter->setPlaceholderText(tr("Search metrics…"));
    layout->addWidget(intro);
    layout->addWidget(filter);
    layout->addWidget(m_tree, 1);

    m_tree->setColumnCount(4);
    m_tree->setHeaderLabels({ tr("Metric"), tr("Id"), tr("Aggregation"), tr("Better") });
    m_tree->setWordWrap(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setUniformRowHeights(false);
    QTreeWidgetItem* familyItem = nullptr;
    QString currentFamily;
    for (const MetricInfo& metric : allMetrics()) {
        const QString family = text(metric.family);
        if (family != currentFamily) {
            currentFamily = family;
            familyItem = new QTreeWidgetItem(m_tree, { familyTitle(family) });
            familyItem->setFirstColumnSpanned(true);
            QFont bold = familyItem->font(0);
            bold.setBold(true);
            familyItem->setFont(0, bold);
        }
        auto* item = new QTreeWidgetItem(familyItem,
            { text(metric.label), text(metric.id), kindText(metric.kind),
                metric.higherIsBetter ? tr("higher") : tr("lower") });
        auto* definition = new QTreeWidgetItem(item, { text(metric.description) });
        definition->setFirstColumnSpanned(true);
        definition->setFlags(Qt::ItemIsEnabled);
        for (int c = 0; c < 4; ++c)
            item->setToolTip(c, text(metric.description));
    }
    m_tree->expandAll();
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(filter, &FilterLineEdit::filterChanged, this, &MetricGlossaryDialog::setFilter);
    resize(860, 640);
}

void MetricGlossaryDialog::setFilter(const QString& text)
{
    for (int f = 0; f < m_tree->topLevelItemCount(); ++f) {
        QTreeWidgetItem* family = m_tree->topLevelItem(f);
        bool anyShown = false;
        for (int m = 0; m < family->childCount(); ++m) {
            QTreeWidgetItem* metric = family->child(m);
            const QString haystack = metric->text(0) + u' ' + metric->text(1) + u' ' + metric->child(0)->text(0);
            const bool shown = text.isEmpty() || haystack.contains(text, Qt::CaseInsensitive);
            metric->setHidden(!shown);
            anyShown = anyShown || shown;
        }
        family->setHidden(!anyShown);
    }
}

int MetricGlossaryDialog::visibleMetricCount() const
{
    int count = 0;
    for (int f = 0; f < m_tree->topLevelItemCount(); ++f) {
        for (int m = 0; m < m_tree->topLevelItem(f)->childCount(); ++m)
            count += m_tree->topLevelItem(f)->child(m)->isHidden() ? 0 : 1;
    }
    return count;
}

} // namespace structscope
