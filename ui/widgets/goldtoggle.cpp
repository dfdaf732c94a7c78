#include "widgets/goldtoggle.h"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QToolButton>

using namespace Qt::StringLiterals;

namespace structscope {

GoldToggle::GoldToggle(QWidget* parent)
    : QWidget(parent)
    , m_measured(new QToolButton(this))
    , m_adjusted(new QToolButton(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_measured->setText(tr("As measured"));
    m_measured->setToolTip(tr("Score against the gold the suite shipped with (revision 0)"));
    m_measured->setObjectName(u"goldMeasured"_s);
    m_adjusted->setText(tr("Adjusted"));
    m_adjusted->setToolTip(tr("Score against the current gold, after audits"));
    m_adjusted->setObjectName(u"goldAdjusted"_s);
    auto* group = new QButtonGroup(this);
    for (QToolButton* button : { m_measured, m_adjusted }) {
        button->setCheckable(true);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        group->addButton(button);
        layout->addWidget(button);
    }
    group->setExclusive(true);
    m_measured->setChecked(true);
    connect(group, &QButtonGroup::buttonToggled, this, [this](QAbstractButton*, bool checked) {
        if (checked)
            Q_EMIT goldChanged(gold());
    });
}

GoldBasis GoldToggle::gold() const
{
    return m_adjusted->isChecked() ? GoldBasis::Adjusted : GoldBasis::Measured;
}

void GoldToggle::setGold(GoldBasis gold)
{
    (gold == GoldBasis::Adjusted ? m_adjusted : m_measured)->setChecked(true);
}

} // namespace structscope
