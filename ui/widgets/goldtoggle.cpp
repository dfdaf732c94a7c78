// SPDX-License-Identifier: Apache-2.0
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
    , m_both(new QToolButton(this))
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
    m_both->setText(tr("Side by side"));
    m_both->setToolTip(tr("Each row twice: scored against the shipped gold and against the current gold"));
    m_both->setObjectName(u"goldBoth"_s);
    m_both->hide();
    auto* group = new QButtonGroup(this);
    for (QToolButton* button : { m_measured, m_adjusted, m_both }) {
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

void GoldToggle::setSideBySideOffered(bool offered)
{
    if (!offered && m_both->isChecked())
        m_measured->setChecked(true);
    m_both->setVisible(offered);
}

bool GoldToggle::sideBySide() const
{
    return m_both->isChecked();
}

void GoldToggle::setSideBySide(bool on)
{
    if (on && m_both->isVisible())
        m_both->setChecked(true);
    else if (!on && m_both->isChecked())
        m_measured->setChecked(true);
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
