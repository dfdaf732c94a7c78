// SPDX-License-Identifier: Apache-2.0
#include "widgets/activityindicator.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QToolButton>

#include <cmath>

using namespace Qt::StringLiterals;

namespace structscope {

ActivityIndicator::ActivityIndicator(QWidget* parent)
    : QWidget(parent)
    , m_label(new QLabel(this))
    , m_bar(new QProgressBar(this))
    , m_cancel(new QToolButton(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    m_bar->setMaximumWidth(180);
    m_bar->setTextVisible(false);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setAutoRaise(true);
    m_cancel->setToolTip(tr("Stop this work"));
    connect(m_cancel, &QToolButton::clicked, this, &ActivityIndicator::cancelRequested);
    setVisible(false);
}

void ActivityIndicator::begin(const QString& label)
{
    m_what = label;
    m_active = true;
    m_timer.start();
    m_bar->setRange(0, 0);
    m_label->setText(label);
    setVisible(true);
}

void ActivityIndicator::setProgress(qint64 done, qint64 total)
{
    if (!m_active || total <= 0)
        return;
    m_bar->setRange(0, 1000);
    m_bar->setValue(int(std::llround(1000.0 * double(done) / double(total))));
    const QLocale locale;
    QString text = u"%1 %2 / %3"_s.arg(m_what, locale.toString(done), locale.toString(total));
    const QString eta = etaText(done, total, m_timer.elapsed());
    if (!eta.isEmpty())
        text += u" · "_s + tr("%1 left").arg(eta);
    m_label->setText(text);
}

void ActivityIndicator::end()
{
    m_active = false;
    setVisible(false);
}

QString ActivityIndicator::text() const
{
    return m_label->text();
}

QString ActivityIndicator::etaText(qint64 done, qint64 total, qint64 elapsedMs)
{
    // Too little done (or too early) to extrapolate honestly.
    if (done <= 0 || total <= done || elapsedMs < 500)
        return {};
    const double seconds = double(elapsedMs) / 1000.0 * double(total - done) / double(done);
    if (seconds < 90)
        return tr("%1 s").arg(std::max(1LL, std::llround(seconds)));
    if (seconds < 90 * 60)
        return tr("%1 min").arg(std::llround(seconds / 60));
    return tr("%1 h").arg(QString::number(seconds / 3600, 'f', 1));
}

} // namespace structscope
