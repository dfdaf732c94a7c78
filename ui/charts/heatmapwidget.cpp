// SPDX-License-Identifier: Apache-2.0
#include "charts/heatmapwidget.h"

#include "analysis/metricformat.h"
#include "charts/labelgeometry.h"
#include "export/chartexport.h"

#include <QHelpEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

QFont titleFont(const QFont& base)
{
    QFont font = base;
    font.setBold(true);
    font.setPointSizeF(base.pointSizeF() * 1.15);
    return font;
}

} // namespace

HeatmapWidget::HeatmapWidget(QWidget* parent)
    : QWidget(parent)
    , m_placeholder(tr("No data to show."))
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void HeatmapWidget::setData(HeatmapData data)
{
    m_data = std::move(data);
    m_data.sortRows(m_rowSort);
    m_data.sortColumns(m_columnSort);
    m_hover = {};
    updateGeometry();
    update();
}

void HeatmapWidget::setTitle(const QString& title)
{
    m_title = title;
    update();
}

void HeatmapWidget::setPlaceholderText(const QString& text)
{
    m_placeholder = text;
    update();
}

void HeatmapWidget::setRowSort(const HeatmapSort& sort)
{
    if (sort == m_rowSort)
        return;
    m_rowSort = sort;
    m_data.sortRows(sort);
    update();
    Q_EMIT rowSortChanged(sort);
}

void HeatmapWidget::setColumnSort(const HeatmapSort& sort)
{
    if (sort == m_columnSort)
        return;
    m_columnSort = sort;
    m_data.sortColumns(sort);
    update();
    Q_EMIT columnSortChanged(sort);
}

HeatmapLayout HeatmapWidget::layoutFor(const QRectF& bounds, const QFont& font) const
{
    const QFontMetricsF metrics(font);
    HeatmapLayout layout;
    layout.rows = m_data.rowCount();
    layout.columns = m_data.columnCount();
    layout.bounds = bounds;
    layout.titleHeight = m_title.isEmpty() ? 0 : QFontMetricsF(titleFont(font)).height() * 1.8;
    qreal widest = 0;
    for (const QString& label : m_data.rowLabels)
        widest = std::max(widest, metrics.horizontalAdvance(label));
    layout.rowHeaderWidth = std::clamp(widest + 16, qreal(60), std::max(qreal(60), bounds.width() * 0.4));
    layout.columnHeaderHeight = metrics.lineSpacing() * 2 + 10;
    layout.legendLabelWidth = metrics.horizontalAdvance(u"0.000 ms"_s) + 12;
    layout.maxCellWidth = 180;
    layout.maxCellHeight = std::max(qreal(40), metrics.height() * 2.8);
    return layout;
}

QString HeatmapWidget::toolTipFor(int row, int column) const
{
    if (row < 0 || row >= m_data.rowCount() || column < 0 || column >= m_data.columnCount())
        return {};
    const HeatmapCell& cell = m_data.cell(row, column);
    QString tip = u"<b>%1</b> × <b>%2</b><br>"_s.arg(
        m_data.rowLabels[row].toHtmlEscaped(), m_data.columnLabels[column].toHtmlEscaped());
    if (std::isnan(cell.value))
        return tip
            + (cell.errored > 0 ? tr("no answers") + u"<br>"_s + formatErrored(cell.n, cell.errored)
                                : tr("no responses"));
    tip += metricLabel(m_data.metricId).toHtmlEscaped() + u": "_s + formatMetricValue(m_data.metricId, cell.value);
    if (cell.ci.isValid())
        tip += u"<br>"_s + tr("95% CI %1").arg(formatInterval(m_data.metricId, cell.ci));
    if (!cell.detail.isEmpty())
        tip += u"<br>"_s + cell.detail.toHtmlEscaped();
    return tip + u"<br>n = %1<br>"_s.arg(cell.n) + formatErrored(cell.n, cell.errored);
}

QString HeatmapWidget::exportTitle() const
{
    return m_title.isEmpty() ? tr("Heatmap") : m_title;
}

QSize HeatmapWidget::naturalSize() const
{
    const HeatmapLayout layout = layoutFor(QRectF(0, 0, 2000, 2000), font());
    const qreal width = 2 * layout.margin + layout.rowHeaderWidth + m_data.columnCount() * 110 + layout.legendGap
        + layout.legendBarWidth + layout.legendLabelWidth;
    const qreal height = 2 * layout.margin + layout.titleHeight + layout.columnHeaderHeight
        + std::max(m_data.rowCount() * 40.0, layout.minLegendHeight + 24);
    // Wide enough that the row names are not elided: layoutFor() gives them at most 40% of the width.
    const qreal forNames = (layout.rowHeaderWidth + 1) / 0.4;
    return QSize(std::max({ 420, int(width), int(std::ceil(forNames)) }), std::max(260, int(height)));
}

QSize HeatmapWidget::exportSize() const
{
    return isVisible() && width() >= 200 && height() >= 150 ? size() : naturalSize();
}

void HeatmapWidget::renderForExport(QPainter& painter, const QRectF& target)
{
    painter.save();
    painter.setFont(font());
    paintHeatmap(painter, target, exportPalette(), false);
    painter.restore();
}

QSize HeatmapWidget::sizeHint() const
{
    return naturalSize().boundedTo(QSize(1200, 900));
}

QSize HeatmapWidget::minimumSizeHint() const
{
    // Below about 22 px a row cannot show its value; scroll instead (the page puts it in a scroll area).
    const HeatmapLayout layout = layoutFor(QRectF(0, 0, 2000, 2000), font());
    const qreal width = 2 * layout.margin + std::min(layout.rowHeaderWidth, qreal(160)) + m_data.columnCount() * 44.0
        + layout.legendGap + layout.legendBarWidth + layout.legendLabelWidth;
    const qreal height = 2 * layout.margin + layout.titleHeight + layout.columnHeaderHeight + m_data.rowCount() * 22.0;
    return QSize(std::max(240, int(width)), std::max(160, int(height)));
}

void HeatmapWidget::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    paintHeatmap(painter, rect(), palette(), true);
}

void HeatmapWidget::paintHeatmap(
    QPainter& painter, const QRectF& bounds, const QPalette& palette, bool interactive) const
{
    painter.fillRect(bounds, palette.color(QPalette::Base));
    const QFont font = painter.font();
    const HeatmapLayout layout = layoutFor(bounds, font);
    const QColor text = palette.color(QPalette::Text);
    if (!m_title.isEmpty()) {
        painter.setFont(titleFont(font));
        painter.setPen(text);
        painter.drawText(layout.titleRect(), Qt::AlignLeft | Qt::AlignVCenter, m_title);
        painter.setFont(font);
    }
    if (m_data.isEmpty() || layout.cellWidth() <= 0 || layout.cellHeight() <= 0) {
        painter.setPen(palette.color(QPalette::PlaceholderText));
        painter.drawText(bounds, Qt::AlignCenter | Qt::TextWordWrap, m_placeholder);
        return;
    }
    const QFontMetricsF metrics(font);
    const ColorScale scale = colorScale();
    const QColor noData = ColorScale::noDataColor(palette);

    for (int c = 0; c < m_data.columnCount(); ++c) {
        const QRectF header = layout.columnHeaderRect(c).adjusted(2, 0, -2, -4);
        QString label = m_data.columnLabels[c];
        if (m_rowSort.by == HeatmapSort::By::Line && m_rowSort.line == label)
            label += m_rowSort.order == Qt::DescendingOrder ? u" ▼"_s : u" ▲"_s;
        const bool hovered
            = interactive && m_hover.kind == HeatmapLayout::Hit::Kind::ColumnHeader && m_hover.column == c;
        painter.setPen(hovered ? palette.color(QPalette::Highlight) : text);
        const bool fits = metrics.horizontalAdvance(label) <= header.width();
        painter.drawText(header, Qt::AlignHCenter | Qt::AlignBottom | (fits ? 0 : Qt::TextWordWrap),
            fits ? label : metrics.elidedText(label, Qt::ElideMiddle, header.width() * 2 - 8));
    }
    // Long row names (models) are elided in the middle, kept apart from each other; the tooltip gives them whole.
    QStringList rowTexts;
    for (int r = 0; r < m_data.rowCount(); ++r) {
        QString label = m_data.rowLabels[r];
        if (m_columnSort.by == HeatmapSort::By::Line && m_columnSort.line == label)
            label = (m_columnSort.order == Qt::DescendingOrder ? u"◀ "_s : u"▶ "_s) + label;
        rowTexts << label;
    }
    rowTexts = elideLabelsMiddle(rowTexts, metrics, std::max(layout.rowHeaderWidth - 8, qreal(1)));
    for (int r = 0; r < m_data.rowCount(); ++r) {
        const QRectF header = layout.rowHeaderRect(r).adjusted(0, 0, -8, 0);
        const bool hovered = interactive && m_hover.kind == HeatmapLayout::Hit::Kind::RowHeader && m_hover.row == r;
        painter.setPen(hovered ? palette.color(QPalette::Highlight) : text);
        painter.drawText(header, Qt::AlignRight | Qt::AlignVCenter, rowTexts[r]);
    }

    for (int r = 0; r < m_data.rowCount(); ++r) {
        for (int c = 0; c < m_data.columnCount(); ++c) {
            const QRectF cell = layout.cellRect(r, c).adjusted(1, 1, -1, -1);
            const double value = m_data.cell(r, c).value;
            const QColor fill = std::isnan(value) ? noData : scale.color(value);
            painter.fillRect(cell, fill);
            const QString label = std::isnan(value) ? u"—"_s : formatMetricValue(m_data.metricId, value);
            if (metrics.horizontalAdvance(label) + 4 <= cell.width() && metrics.height() <= cell.height()) {
                painter.setPen(ColorScale::textColorOn(fill, palette));
                painter.drawText(cell, Qt::AlignCenter, label);
            }
        }
    }
    if (interactive && m_hover.kind == HeatmapLayout::Hit::Kind::Cell) {
        painter.setPen(QPen(palette.color(QPalette::Highlight), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(layout.cellRect(m_hover.row, m_hover.column).adjusted(1, 1, -1, -1));
    }
    paintLegend(painter, layout, palette);
}

void HeatmapWidget::paintLegend(QPainter& painter, const HeatmapLayout& layout, const QPalette& palette) const
{
    const QRectF bar = layout.legendBarRect();
    if (bar.height() < 40)
        return;
    QLinearGradient gradient(bar.bottomLeft(), bar.topLeft());
    for (int i = 0; i <= 16; ++i)
        gradient.setColorAt(i / 16.0, ColorScale::viridis(i / 16.0));
    painter.fillRect(bar, gradient);
    painter.setPen(palette.color(QPalette::Mid));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(bar);

    const QFontMetricsF metrics(painter.font());
    painter.setPen(palette.color(QPalette::Text));
    for (int i = 0; i <= 4; ++i) {
        const double t = i / 4.0;
        const qreal y = layout.legendY(t);
        painter.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 4, y));
        const double value = m_data.minimum + t * (m_data.maximum - m_data.minimum);
        const QRectF label(bar.right() + 6, y - metrics.height() / 2, layout.legendLabelWidth - 6, metrics.height());
        painter.drawText(label, Qt::AlignLeft | Qt::AlignVCenter, formatMetricValue(m_data.metricId, value));
    }
    const bool anyMissing = std::any_of(
        m_data.cells.begin(), m_data.cells.end(), [](const HeatmapCell& c) { return std::isnan(c.value); });
    if (anyMissing) {
        const QRectF swatch(bar.left(), bar.bottom() + 10, bar.width(), metrics.height());
        if (swatch.bottom() <= layout.bounds.bottom()) {
            painter.fillRect(swatch, ColorScale::noDataColor(palette));
            painter.drawText(QRectF(swatch.right() + 6, swatch.top(), layout.legendLabelWidth, swatch.height()),
                Qt::AlignLeft | Qt::AlignVCenter, tr("no data"));
        }
    }
}

HeatmapSort HeatmapWidget::toggledSort(const HeatmapSort& current, const QString& line) const
{
    if (current.by == HeatmapSort::By::Line && current.line == line)
        return { HeatmapSort::By::Line, line,
            current.order == Qt::DescendingOrder ? Qt::AscendingOrder : Qt::DescendingOrder };
    // Best first: the first click puts the strongest rows (or columns) at the top (left).
    return { HeatmapSort::By::Line, line, m_data.higherIsBetter ? Qt::DescendingOrder : Qt::AscendingOrder };
}

void HeatmapWidget::mouseMoveEvent(QMouseEvent* event)
{
    const HeatmapLayout::Hit hit = layoutFor(rect(), font()).hitTest(event->position());
    if (hit != m_hover) {
        m_hover = hit;
        setCursor(hit.kind == HeatmapLayout::Hit::Kind::None ? Qt::ArrowCursor : Qt::PointingHandCursor);
        update();
    }
    QWidget::mouseMoveEvent(event);
}

void HeatmapWidget::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || m_data.isEmpty())
        return QWidget::mouseReleaseEvent(event);
    const HeatmapLayout::Hit hit = layoutFor(rect(), font()).hitTest(event->position());
    switch (hit.kind) {
    case HeatmapLayout::Hit::Kind::Cell:
        Q_EMIT cellClicked(m_data.rows[std::size_t(hit.row)], m_data.columnValues[hit.column]);
        break;
    case HeatmapLayout::Hit::Kind::ColumnHeader:
        setRowSort(toggledSort(m_rowSort, m_data.columnLabels[hit.column]));
        break;
    case HeatmapLayout::Hit::Kind::RowHeader:
        setColumnSort(toggledSort(m_columnSort, m_data.rowLabels[hit.row]));
        break;
    case HeatmapLayout::Hit::Kind::None:
        break;
    }
}

void HeatmapWidget::leaveEvent(QEvent* event)
{
    m_hover = {};
    update();
    QWidget::leaveEvent(event);
}

bool HeatmapWidget::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const HeatmapLayout::Hit hit = layoutFor(rect(), font()).hitTest(help->pos());
        if (hit.kind == HeatmapLayout::Hit::Kind::Cell)
            QToolTip::showText(help->globalPos(), toolTipFor(hit.row, hit.column), this);
        else if (hit.kind == HeatmapLayout::Hit::Kind::ColumnHeader)
            QToolTip::showText(help->globalPos(),
                tr("%1 — click to sort the rows by this column").arg(m_data.columnLabels[hit.column].toHtmlEscaped()),
                this);
        else if (hit.kind == HeatmapLayout::Hit::Kind::RowHeader)
            QToolTip::showText(help->globalPos(),
                tr("%1 — click to sort the columns by this row").arg(m_data.rowLabels[hit.row].toHtmlEscaped()), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void HeatmapWidget::changeEvent(QEvent* event)
{
    // Colours are read from the palette at paint time; a theme switch only needs a repaint.
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        updateGeometry();
        update();
    }
    QWidget::changeEvent(event);
}

} // namespace structscope
