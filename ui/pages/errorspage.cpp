#include "pages/errorspage.h"

#include "charts/errorsetschart.h"
#include "widgets/goldtoggle.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace structscope {

ErrorsPage::ErrorsPage(Workspace* workspace, QWidget* parent)
    : RecordsPage(workspace, parent)
    , m_chart(new ErrorSetsChart(this))
    , m_gold(new GoldToggle(this))
    , m_rows(new QComboBox(this))
    , m_status(new QLabel(this))
{
    setObjectName(u"errorsPage"_s);
    m_chart->setObjectName(u"errorSetsChart"_s);
    m_rows->setObjectName(u"errorsRows"_s);
    m_rows->addItem(tr("Model × strategy"), u"model,strategy"_s);
    m_rows->addItem(tr("Model"), u"model"_s);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Panels:"), this));
    controls->addWidget(m_rows);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Sets:"), this));
    for (ErrorLabel label : errorLabels()) {
        auto* button = new QToolButton(this);
        button->setText(errorLabelName(label));
        button->setObjectName(u"errorLabel_"_s + QLatin1String(errorLabelId(label)));
        button->setCheckable(true);
        button->setChecked(
            label == ErrorLabel::MissingKey || label == ErrorLabel::MissingValue || label == ErrorLabel::WrongValue);
        button->setProperty("label", int(label));
        controls->addWidget(button);
        m_labelButtons << button;
        connect(button, &QToolButton::toggled, this, &ErrorsPage::rebuild);
    }
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Gold:"), this));
    controls->addWidget(m_gold);
    controls->addStretch(1);
    controls->addWidget(m_status);
    auto* hint = new QLabel(tr("Responses with at least one error of each kind, among N_err (neither perfect nor "
                               "failed). Up to three sets: Venn diagrams; more: UpSet bars. Click a region to list "
                               "its responses."),
        this);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);

    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_chart);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(hint);
    layout->addWidget(scroll, 1);

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
    return { { tr("Error sets"), m_chart } };
}

} // namespace structscope
