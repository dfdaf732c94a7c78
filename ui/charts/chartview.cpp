// SPDX-License-Identifier: Apache-2.0
#include "charts/chartview.h"

#include "export/chartexport.h"

#include <QAbstractAxis>
#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QPainter>

#include <array>

namespace structscope {

ChartView::ChartView(QWidget* parent)
    : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing);
    chart()->setAnimationOptions(QChart::NoAnimation);
    chart()->setBackgroundRoundness(0);
    chart()->setMargins(QMargins(6, 6, 6, 6));
    m_note = new QGraphicsSimpleTextItem(chart());
    m_note->setVisible(false);
    connect(chart(), &QChart::plotAreaChanged, this, [this] { placeNote(); });
}

QColor ChartView::categoricalColor(int index)
{
    static constexpr std::array<QRgb, 8> kOkabeIto
        = { 0x0072b2, 0xe69f00, 0x009e73, 0xcc79a7, 0x56b4e9, 0xd55e00, 0xf0e442, 0x000000 };
    return QColor::fromRgb(kOkabeIto[std::size_t(index) % kOkabeIto.size()]);
}

QString ChartView::exportTitle() const
{
    return chart()->title().isEmpty() ? tr("Chart") : chart()->title();
}

QSize ChartView::exportSize() const
{
    return isVisible() && width() >= 200 && height() >= 150 ? size() : QSize(900, 540);
}

void ChartView::renderForExport(QPainter& painter, const QRectF& target)
{
    QChart* c = chart();
    const QRectF onScreen = c->geometry();
    applyPalette(exportPalette());
    c->setGeometry(QRectF(QPointF(0, 0), target.size()));
    if (c->layout())
        c->layout()->activate();
    placeNote();
    scene()->render(&painter, target, QRectF(QPointF(0, 0), target.size()));
    c->setGeometry(onScreen);
    applyPalette(palette());
    placeNote();
}

void ChartView::applyPalette(const QPalette& palette)
{
    QChart* c = chart();
    const QColor text = palette.color(QPalette::Text);
    QColor grid = palette.color(QPalette::Mid);
    grid.setAlpha(110);
    c->setBackgroundBrush(palette.color(QPalette::Base));
    c->setBackgroundPen(Qt::NoPen);
    c->setTitleBrush(text);
    c->legend()->setLabelColor(text);
    for (QAbstractAxis* axis : c->axes()) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setLinePenColor(palette.color(QPalette::Mid));
        axis->setGridLineColor(grid);
    }
    m_note->setBrush(palette.color(QPalette::PlaceholderText));
}

void ChartView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        applyPalette(palette());
    QChartView::changeEvent(event);
}

void ChartView::removeSeriesAndAxes()
{
    QChart* c = chart();
    c->removeAllSeries();
    for (QAbstractAxis* axis : c->axes()) {
        c->removeAxis(axis);
        delete axis;
    }
}

void ChartView::setNote(const QString& text, bool centered)
{
    m_noteCentered = centered;
    m_note->setText(text);
    m_note->setVisible(!text.isEmpty());
    placeNote();
}

void ChartView::placeNote()
{
    const QRectF area = chart()->plotArea();
    const QRectF box = m_note->boundingRect();
    m_note->setPos(
        m_noteCentered ? area.center() - QPointF(box.width() / 2, box.height() / 2) : area.topLeft() + QPointF(8, 6));
}

} // namespace structscope
