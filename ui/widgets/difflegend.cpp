// SPDX-License-Identifier: Apache-2.0
#include "widgets/difflegend.h"

#include "charts/diffpalette.h"

#include <QEvent>
#include <QPainter>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

constexpr int kSwatch = 12;
constexpr int kGap = 6;
constexpr int kRowGap = 4;

} // namespace

DiffLegend::DiffLegend(QWidget* parent)
    : QWidget(parent)
{
    // As tall as its rows, never more: the diff table above takes the rest.
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    QString tip;
    for (DiffMark mark : diffMarks())
        tip += u"<b>"_s + DiffPalette::label(mark) + u"</b>: "_s + DiffPalette::description(mark) + u"<br>"_s;
    setToolTip(tip);
}

int DiffLegend::itemWidth() const
{
    int widest = 0;
    for (DiffMark mark : diffMarks())
        widest = std::max(widest, fontMetrics().horizontalAdvance(DiffPalette::label(mark)));
    return kSwatch + kGap + widest + 2 * kGap;
}

int DiffLegend::columnsFor(int width) const
{
    return std::max(1, width / std::max(1, itemWidth()));
}

int DiffLegend::heightForWidth(int width) const
{
    const int count = int(diffMarks().size());
    const int columns = columnsFor(width);
    const int rows = (count + columns - 1) / columns;
    const int line = std::max(kSwatch, fontMetrics().height());
    return rows * line + (rows - 1) * kRowGap + 4;
}

QSize DiffLegend::sizeHint() const
{
    const int width = itemWidth() * 4;
    return { width, heightForWidth(width) };
}

QSize DiffLegend::minimumSizeHint() const
{
    return { itemWidth(), heightForWidth(itemWidth()) };
}

void DiffLegend::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const int columns = columnsFor(width());
    const int line = std::max(kSwatch, fontMetrics().height());
    const int step = std::max(itemWidth(), width() / columns);
    int i = 0;
    for (DiffMark mark : diffMarks()) {
        const int x = (i % columns) * step;
        const int y = 2 + (i / columns) * (line + kRowGap);
        const QRect swatch(x, y + (line - kSwatch) / 2, kSwatch, kSwatch);
        painter.setPen(QPen(DiffPalette::hue(mark), 1.5));
        painter.setBrush(DiffPalette::background(mark, palette()));
        painter.drawRoundedRect(swatch, 2, 2);
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(QRect(x + kSwatch + kGap, y, step - kSwatch - kGap, line), Qt::AlignVCenter | Qt::AlignLeft,
            DiffPalette::label(mark));
        ++i;
    }
}

void DiffLegend::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        update();
}

} // namespace structscope
