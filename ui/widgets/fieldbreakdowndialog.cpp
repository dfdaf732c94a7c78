// SPDX-License-Identifier: Apache-2.0
#include "widgets/fieldbreakdowndialog.h"

#include "models/fieldbreakdownmodel.h"
#include "report/fieldreport.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace structscope {

FieldBreakdownDialog::FieldBreakdownDialog(QWidget* parent)
    : QDialog(parent)
    , m_model(new FieldBreakdownModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_filter(new QLineEdit(this))
    , m_summary(new QLabel(this))
{
    setObjectName(u"fieldBreakdown"_s);
    resize(820, 520);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(FieldBreakdownModel::SortRole);
    m_proxy->setFilterKeyColumn(FieldBreakdownModel::Field);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_view->setObjectName(u"fieldBreakdownTable"_s);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // the model's order: worst accuracy first
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_filter->setObjectName(u"fieldBreakdownFilter"_s);
    m_filter->setPlaceholderText(tr("Filter fields…"));
    m_filter->setClearButtonEnabled(true);
    m_summary->setTextFormat(Qt::PlainText);
    auto* hint = new QLabel(tr("Worst first. Activate a field (double-click, Return) for the responses that got it "
                               "wrong."),
        this);
    hint->setForegroundRole(QPalette::PlaceholderText);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    layout->addWidget(hint);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex& index) {
        const QString field = index.data(FieldBreakdownModel::FieldRole).toString();
        if (!field.isEmpty())
            Q_EMIT fieldActivated(m_key.with(std::string(kFieldGroupKey), field.toStdString()));
    });
}

void FieldBreakdownDialog::setBreakdown(const GroupKey& key, const Report& report)
{
    m_key = key;
    m_model->setReport(report, key.parts);
    setWindowTitle(tr("Fields of %1").arg(key.label()));
    m_summary->setText(
        tr("%1: %n field(s) of the gold, by accuracy (lenient).", nullptr, m_model->rowCount()).arg(key.label()));
}

} // namespace structscope
