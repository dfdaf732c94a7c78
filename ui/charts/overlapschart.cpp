// SPDX-License-Identifier: Apache-2.0
#include "charts/overlapschart.h"

#include "analysis/metricformat.h"
#include "charts/errorsetschart.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

constexpr qreal kVennHeight = 380;
constexpr qreal kVennWidth = 620;
constexpr qreal kUpSetBars = 190;
constexpr qreal kSetBarWidth = 130;
constexpr qreal kMaxLabelWidth = 300;

} // namespace

OverlapsChart::OverlapsChart(QWidget* parent)
    : PaintedChart(parent)
{ }

void OverlapsChart::setData(FailureOverlaps overlaps)
{
    m_overlaps = std::move(overlaps);
    m_hover = {};
    setMinimumHeight(heightForWidth(width()));
    updateGeometry();
    update();
}

void OverlapsChart::setTopN(int n)
{
    m_topN = std::max(0, n);
    m_hover = {};
    update();
}

void OverlapsChart::setUpSetAlways(bool always)
{
    m_upSetAlways = always;
    setMinimumHeight(heightForWidth(width()));
    update();
}

qreal OverlapsChart::titleHeight() const
{
    return title().isEmpty() ? 0 : fontMetrics().height() * 1.8;
}

qreal OverlapsChart::footerHeight() const
{
    return fontMetrics().height() * (isUpSet() ? 3.8 : 2.6) + 8;
}

QString OverlapsChart::setName(int set) const
{
    const OverlapSet& s = m_overlaps.sets[std::size_t(set)];
    QStringList values;
    for (const auto& [key, value] : s.parts) {
        const QString v = QString::fromStdString(value);
        values << (key == "model" ? displayModelName(v, s.simulated) : v);
    }
    return values.join(u" · "_s);
}

std::vector<std::uint64_t> OverlapsChart::upSetColumns() const
{
    std::vector<std::uint64_t> columns;
    for (const OverlapRegion& region : m_overlaps.regions) {
        if (m_topN > 0 && int(columns.size()) >= m_topN)
            break;
        columns.push_back(region.mask);
    }
    return columns;
}

VennLayout OverlapsChart::vennLayout(qreal width) const
{
    VennLayout layout;
    layout.sets = std::clamp(int(m_overlaps.sets.size()), 1, 3);
    layout.bounds = QRectF(0, titleHeight(), std::min(width, kVennWidth), kVennHeight);
    layout.footerHeight = 0;
    layout.labelMargin = fontMetrics().height() + 6;
    return layout;
}

UpSetLayout OverlapsChart::upSetLayout(qreal width) const
{
    UpSetLayout layout;
    const std::vector<std::uint64_t> columns = upSetColumns();
    layout.intersections = int(columns.size());
    layout.sets = int(m_overlaps.sets.size());
    layout.bounds = QRectF(6, 0, std::max<qreal>(width - 12, 200), 0);
    layout.titleHeight = titleHeight();
    layout.barAreaHeight = kUpSetBars;
    layout.rowHeight = std::max<qreal>(18, fontMetrics().height() + 4);
    layout.maxColumnWidth = 40;
    int widest = 0;
    for (int s = 0; s < layout.sets; ++s)
        widest = std::max(widest, fontMetrics().horizontalAdvance(setName(s)));
    layout.labelWidth = std::min<qreal>(widest + 16, kMaxLabelWidth);
    layout.setBarWidth = kSetBarWidth;
    layout.maximum = 1;
    for (std::uint64_t mask : columns)
        layout.maximum = std::max(layout.maximum, m_overlaps.region(mask));
    layout.setMaximum = 1;
    for (int s = 0; s < layout.sets; ++s)
        layout.setMaximum = std::max(layout.setMaximum, m_overlaps.setSize(s));
    layout.setCountWidth = fontMetrics().horizontalAdvance(QString::number(layout.setMaximum)) + 6;
    return layout;
}

OverlapsChart::Hit OverlapsChart::hitAt(const QPointF& point) const
{
    if (!hasData())
        return {};
    if (isUpSet()) {
        const UpSetLayout layout = upSetLayout(width());
        const int column = layout.intersectionAt(point);
        if (column >= 0)
            return { Hit::Region, upSetColumns()[std::size_t(column)], -1 };
        const int set = layout.setAt(point);
        if (set >= 0)
            return { Hit::Set, 0, set };
        return {};
    }
    const VennLayout venn = vennLayout(width());
    const QRectF footer(0, venn.bounds.bottom(), venn.bounds.width(), footerHeight());
    if (footer.contains(point))
        return { Hit::Region, 0, -1 };
    const int mask = venn.regionAt(point);
    if (mask > 0)
        return { Hit::Region, std::uint64_t(mask), -1 };
    return {};
}

QPointF OverlapsChart::regionPoint(std::uint64_t mask) const
{
    if (!hasData())
        return { -1, -1 };
    if (isUpSet()) {
        const std::vector<std::uint64_t> columns = upSetColumns();
        const auto it = std::find(columns.begin(), columns.end(), mask);
        if (it == columns.end())
            return { -1, -1 };
        return upSetLayout(width()).dotCenter(int(it - columns.begin()), 0);
    }
    const VennLayout venn = vennLayout(width());
    if (mask == 0)
        return QPointF(venn.bounds.center().x(), venn.bounds.bottom() + footerHeight() / 2);
    if (mask >= (std::uint64_t(1) << venn.sets))
        return { -1, -1 };
    return venn.regionAnchor(unsigned(mask));
}

QPointF OverlapsChart::setPoint(int set) const
{
    if (!isUpSet() || set < 0 || set >= int(m_overlaps.sets.size()))
        return { -1, -1 };
    return upSetLayout(width()).setLabelRect(set).center();
}

QString OverlapsChart::footerText() const
{
    QString text = tr("%L1 cases answered by every chosen set · failed by at least one %L2 · by none %L3 · by all %L4")
                       .arg(m_overlaps.cases)
                       .arg(m_overlaps.unionSize())
                       .arg(m_overlaps.none.size())
                       .arg(m_overlaps.region(m_overlaps.fullMask()));
    QStringList second;
    if (m_overlaps.leftOut > 0)
        second << tr("%L1 cases left out (a chosen set has no answer to them)").arg(m_overlaps.leftOut);
    if (isUpSet()) {
        const std::size_t shown = upSetColumns().size();
        int casesShown = 0;
        for (std::size_t i = 0; i < shown; ++i)
            casesShown += m_overlaps.regions[i].count();
        second << tr("showing the %1 largest of %2 intersections (%L3 of %L4 failed cases)")
                      .arg(shown)
                      .arg(m_overlaps.regions.size())
                      .arg(casesShown)
                      .arg(m_overlaps.unionSize());
    }
    if (!second.isEmpty())
        text += u'\n' + second.join(u" · "_s);
    if (isUpSet())
        text += u'\n' + tr("Grey bars: the cases each set fails. Orange bar: the cases every chosen set fails.");
    return text;
}

void OverlapsChart::paintVenn(QPainter& painter, qreal width, const QPalette& palette, bool interactive) const
{
    const VennLayout layout = vennLayout(width);
    const QColor text = palette.color(QPalette::Text);
    for (int i = 0; i < layout.sets; ++i) {
        QColor fill = ErrorSetsChart::setColor(i);
        fill.setAlpha(70);
        painter.setPen(QPen(ErrorSetsChart::setColor(i), 2));
        painter.setBrush(fill);
        painter.drawEllipse(layout.center(i), layout.radius(), layout.radius());
    }
    if (interactive && m_hover.kind == Hit::Region && m_hover.mask > 0) {
        QColor highlight = palette.color(QPalette::Highlight);
        highlight.setAlpha(110);
        painter.setPen(Qt::NoPen);
        painter.setBrush(highlight);
        painter.drawPath(vennRegionPath(layout, m_hover.mask));
    }
    QFont countFont = painter.font();
    countFont.setBold(true);
    for (unsigned mask = 1; mask < (1u << layout.sets); ++mask) {
        const int count = m_overlaps.region(mask);
        painter.save();
        painter.setFont(countFont);
        painter.setPen(count > 0 ? text : palette.color(QPalette::PlaceholderText));
        const QPointF anchor = layout.regionAnchor(mask);
        painter.drawText(QRectF(anchor.x() - 30, anchor.y() - 10, 60, 20), Qt::AlignCenter, QString::number(count));
        painter.restore();
    }
    painter.setPen(text);
    const QFontMetricsF metrics(painter.font());
    for (int i = 0; i < layout.sets; ++i) {
        const QPointF anchor = layout.setLabelAnchor(i);
        const QString label
            = metrics.elidedText(setName(i), Qt::ElideMiddle, 200) + u" (%1)"_s.arg(m_overlaps.setSize(i));
        painter.drawText(QRectF(anchor.x() - 130, anchor.y() - 10, 260, 20), Qt::AlignCenter, label);
    }
    const QRectF footer(0, layout.bounds.bottom(), std::max(layout.bounds.width(), width), footerHeight());
    if (interactive && m_hover.kind == Hit::Region && m_hover.mask == 0) {
        QColor highlight = palette.color(QPalette::Highlight);
        highlight.setAlpha(60);
        painter.fillRect(QRectF(0, footer.top(), layout.bounds.width(), footer.height()), highlight);
    }
    painter.setPen(text);
    painter.drawText(footer.adjusted(8, 0, -8, 0), Qt::AlignLeft | Qt::AlignVCenter, footerText());
}

void OverlapsChart::paintUpSet(QPainter& painter, qreal width, const QPalette& palette, bool interactive) const
{
    const UpSetLayout layout = upSetLayout(width);
    const std::vector<std::uint64_t> columns = upSetColumns();
    const QColor text = palette.color(QPalette::Text);
    const QColor faint = palette.color(QPalette::Mid);
    const QFontMetricsF metrics(painter.font());
    // Set sizes: a bar per set, growing leftwards from its name, with the count written at its left end.
    for (int s = 0; s < layout.sets; ++s) {
        const int size = m_overlaps.setSize(s);
        const bool hovered = interactive && m_hover.kind == Hit::Set && m_hover.set == s;
        const QRectF bar = layout.setBarRect(s, size);
        painter.setPen(Qt::NoPen);
        QColor fill = text;
        fill.setAlphaF(0.45);
        painter.setBrush(hovered ? palette.color(QPalette::Highlight) : fill);
        painter.drawRect(bar);
        painter.setPen(text);
        painter.drawText(QRectF(layout.bounds.left(), bar.top() - 4,
                             std::max<qreal>(bar.left() - layout.bounds.left() - 3, 0), bar.height() + 8),
            Qt::AlignRight | Qt::AlignVCenter, QString::number(size));
        painter.drawText(layout.setLabelRect(s), Qt::AlignRight | Qt::AlignVCenter,
            metrics.elidedText(setName(s), Qt::ElideMiddle, layout.labelWidth - 8));
    }
    // Zebra rows make a row of dots easy to follow across many columns.
    if (!columns.empty()) {
        QColor zebra = palette.color(QPalette::AlternateBase);
        for (int s = 0; s < layout.sets; s += 2) {
            const QPointF first = layout.dotCenter(0, s);
            const QPointF last = layout.dotCenter(int(columns.size()) - 1, s);
            const qreal w = layout.columnWidth();
            painter.fillRect(
                QRectF(first.x() - w / 2, first.y() - layout.rowHeight / 2, last.x() - first.x() + w, layout.rowHeight),
                zebra);
        }
    }
    for (int c = 0; c < int(columns.size()); ++c) {
        const std::uint64_t mask = columns[std::size_t(c)];
        const int count = m_overlaps.region(mask);
        const bool hovered = interactive && m_hover.kind == Hit::Region && m_hover.mask == mask;
        const bool all = mask == m_overlaps.fullMask();
        painter.setPen(Qt::NoPen);
        painter.setBrush(hovered ? palette.color(QPalette::Highlight)
                                 : (all ? ErrorSetsChart::setColor(1) : ErrorSetsChart::setColor(0)));
        painter.drawRect(layout.barRect(c, count));
        painter.setPen(text);
        painter.drawText(layout.barLabelRect(c, count), Qt::AlignHCenter | Qt::AlignBottom, QString::number(count));
        paintUpSetDots(painter, layout, c, mask, text, faint);
    }
    const qreal matrixBottom = layout.bounds.top() + layout.naturalHeight();
    if (columns.empty()) {
        painter.setPen(palette.color(QPalette::PlaceholderText));
        painter.drawText(
            QRectF(layout.matrixLeft(), layout.titleHeight, width - layout.matrixLeft() - 12, layout.barAreaHeight),
            Qt::AlignCenter, tr("No chosen set fails any of these cases."));
    }
    painter.setPen(text);
    painter.drawText(
        QRectF(8, matrixBottom, width - 16, footerHeight()), Qt::AlignLeft | Qt::AlignVCenter, footerText());
}

void OverlapsChart::paintAll(QPainter& painter, const QRectF& bounds, const QPalette& palette, bool interactive) const
{
    painter.fillRect(bounds, palette.color(QPalette::Base));
    painter.setRenderHint(QPainter::Antialiasing);
    painter.translate(bounds.topLeft());
    if (!title().isEmpty()) {
        QFont bold = painter.font();
        bold.setBold(true);
        bold.setPointSizeF(bold.pointSizeF() * 1.1);
        painter.save();
        painter.setFont(bold);
        painter.setPen(palette.color(QPalette::Text));
        painter.drawText(QRectF(4, 0, bounds.width() - 8, titleHeight()), Qt::AlignLeft | Qt::AlignVCenter,
            QFontMetricsF(bold).elidedText(title(), Qt::ElideRight, bounds.width() - 8));
        painter.restore();
    }
    if (!hasData()) {
        painter.setPen(palette.color(QPalette::PlaceholderText));
        painter.drawText(
            QRectF(0, 0, bounds.width(), bounds.height()), Qt::AlignCenter | Qt::TextWordWrap, placeholderText());
        return;
    }
    isUpSet() ? paintUpSet(painter, bounds.width(), palette, interactive)
              : paintVenn(painter, bounds.width(), palette, interactive);
}

void OverlapsChart::mouseMoveEvent(QMouseEvent* event)
{
    const Hit hit = hitAt(event->position());
    if (hit == m_hover)
        return;
    m_hover = hit;
    setCursor(hit.kind != Hit::None ? Qt::PointingHandCursor : Qt::ArrowCursor);
    if (hit.kind == Hit::Region) {
        setToolTip(tr("Failed by %1%2: %3 cases — click to list them")
                       .arg(m_overlaps.regionLabel(hit.mask), hit.mask != 0 ? tr(" only") : QString())
                       .arg(m_overlaps.region(hit.mask)));
    } else if (hit.kind == Hit::Set) {
        setToolTip(tr("%1 fails %2 of %3 cases — click to list them")
                       .arg(setName(hit.set))
                       .arg(m_overlaps.setSize(hit.set))
                       .arg(m_overlaps.cases));
    } else {
        setToolTip({});
    }
    update();
}

void OverlapsChart::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const Hit hit = hitAt(event->position());
    if (hit.kind == Hit::Region)
        Q_EMIT regionClicked(hit.mask);
    else if (hit.kind == Hit::Set)
        Q_EMIT setClicked(hit.set);
}

int OverlapsChart::heightForWidth(int width) const
{
    if (!hasData())
        return 160;
    const qreal height = isUpSet() ? upSetLayout(width).naturalHeight() + footerHeight()
                                   : titleHeight() + kVennHeight + footerHeight();
    return int(std::ceil(height));
}

QString OverlapsChart::exportTitle() const
{
    return title().isEmpty() ? tr("Failure overlaps") : title();
}

QSize OverlapsChart::exportSize() const
{
    int width = isVisible() && this->width() >= 300 ? this->width() : 900;
    if (isUpSet()) {
        // Every column drawn at full width, however many there are.
        const UpSetLayout layout = upSetLayout(width);
        width = std::max(width,
            int(std::ceil(layout.setBarWidth + layout.labelWidth + layout.intersections * layout.maxColumnWidth + 24)));
    }
    return { width, heightForWidth(width) };
}

} // namespace structscope
