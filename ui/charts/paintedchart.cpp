// SPDX-License-Identifier: Apache-2.0
#include "charts/paintedchart.h"

#include "export/chartexport.h"

#include <QEvent>
#include <QPainter>

#include <algorithm>

namespace structscope {

PaintedChart::PaintedChart(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void PaintedChart::setTitle(const QString& title)
{
    m_title = title;
    setMinimumHeight(heightForWidth(width()));
    update();
}

void PaintedChart::setPlaceholderText(const QString& text)
{
    m_placeholder = text;
    update();
}

void PaintedChart::renderForExport(QPainter& painter, const QRectF& target)
{
    painter.save();
    painter.setFont(font());
    paintAll(painter, target, exportPalette(), false);
    painter.restore();
}

QSize PaintedChart::sizeHint() const
{
    const int width = std::max(800, this->width());
    return { width, heightForWidth(width) };
}

void PaintedChart::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paintAll(painter, rect(), palette(), true);
}

void PaintedChart::leaveEvent(QEvent* event)
{
    QWidget::leaveEvent(event);
    clearHover();
    update();
}

void PaintedChart::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        update();
}

void PaintedChart::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // In a scroll area the chart grows downwards as it wraps into more rows.
    setMinimumHeight(heightForWidth(width()));
}

} // namespace structscope
