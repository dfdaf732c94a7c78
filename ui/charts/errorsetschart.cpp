// SPDX-License-Identifier: Apache-2.0
#include "charts/errorsetschart.h"

#include "analysis/metricformat.h"
#include "charts/labelgeometry.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

constexpr qreal kPanelTitle = 22;
constexpr qreal kVennFooter = 36;

QString groupTitle(const ErrorSetCounts& group)
{
    QStringList values;
    for (const auto& [key, value] : group.key.parts) {
        const QString v = QString::fromStdString(value);
        values << (key == "model" ? displayModelName(v, group.simulated) : v);
    }
    return values.join(u" · "_s);
}

QString upSetColumnLabel(const ErrorSetCounts& group, quint32 mask)
{
    if (mask == 0)
        return QObject::tr("none of these");
    QStringList names;
    for (std::size_t i = 0; i < group.labels.size(); ++i) {
        if ((mask >> i) & 1u)
            names << errorLabelName(group.labels[i]);
    }
    return names.join(u" ∩ "_s);
}

} // namespace

ErrorSetsChart::ErrorSetsChart(QWidget* parent)
    : PaintedChart(parent)
{ }

QColor ErrorSetsChart::setColor(int set)
{
    static const QColor colors[] = { QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00), QColor(0x00, 0x9e, 0x73),
        QColor(0xcc, 0x79, 0xa7), QColor(0xe6, 0x9f, 0x00), QColor(0x56, 0xb4, 0xe9) };
    return colors[std::size_t(set) % std::size(colors)];
}

void ErrorSetsChart::setData(std::vector<ErrorSetCounts> groups)
{
    m_groups = std::move(groups);
    m_shownTitles.clear();
    m_hover = {};
    setMinimumHeight(heightForWidth(width()));
    updateGeometry();
    update();
}

bool ErrorSetsChart::isUpSet() const
{
    return !m_groups.empty() && m_groups.front().labels.size() > 3;
}

qreal ErrorSetsChart::titleHeight() const
{
    return title().isEmpty() ? 0 : fontMetrics().height() * 1.6;
}

SmallMultiplesLayout ErrorSetsChart::gridFor(qreal width) const
{
    SmallMultiplesLayout grid;
    grid.count = int(m_groups.size());
    grid.width = width;
    grid.top = titleHeight();
    if (isUpSet()) {
        const int sets = int(m_groups.front().labels.size());
        grid.minPanelWidth = 460;
        grid.panelHeight = kPanelTitle + 130 + 6 + sets * 18 + 6 + 24;
    } else {
        grid.minPanelWidth = 250;
        grid.panelHeight = 270;
    }
    return grid;
}

VennLayout ErrorSetsChart::vennFor(const QRectF& panel) const
{
    VennLayout layout;
    layout.sets = m_groups.empty() ? 3 : std::clamp(int(m_groups.front().labels.size()), 1, 3);
    layout.bounds = panel;
    layout.titleHeight = kPanelTitle;
    layout.footerHeight = kVennFooter;
    layout.labelMargin = fontMetrics().height() + 4;
    return layout;
}

UpSetLayout ErrorSetsChart::upSetFor(const QRectF& panel, const ErrorSetCounts& group) const
{
    UpSetLayout layout;
    const std::vector<quint32> columns = upSetColumns(group);
    layout.intersections = int(columns.size());
    layout.sets = int(group.labels.size());
    layout.bounds = panel.adjusted(6, 0, -6, 0);
    layout.titleHeight = kPanelTitle;
    layout.barAreaHeight = 130;
    int widest = 0;
    for (ErrorLabel label : group.labels)
        widest = std::max(widest, fontMetrics().horizontalAdvance(errorLabelName(label)));
    layout.labelWidth = widest + 16;
    layout.maximum = 1;
    for (quint32 mask : columns)
        layout.maximum = std::max(layout.maximum, group.region(mask));
    return layout;
}

std::vector<quint32> ErrorSetsChart::upSetColumns(const ErrorSetCounts& group)
{
    std::vector<quint32> masks;
    for (const auto& [mask, count] : group.regions) {
        if (count > 0 && mask != 0)
            masks.push_back(mask);
    }
    std::stable_sort(
        masks.begin(), masks.end(), [&group](quint32 a, quint32 b) { return group.region(a) > group.region(b); });
    if (group.region(0) > 0)
        masks.push_back(0);
    return masks;
}

ErrorSetsChart::Hit ErrorSetsChart::hitAt(const QPointF& point) const
{
    const SmallMultiplesLayout grid = gridFor(width());
    const int index = grid.panelAt(point);
    if (index < 0)
        return {};
    const QRectF panel = grid.panelRect(index);
    const ErrorSetCounts& group = m_groups[std::size_t(index)];
    if (isUpSet()) {
        const int column = upSetFor(panel, group).intersectionAt(point);
        const std::vector<quint32> columns = upSetColumns(group);
        return column < 0 ? Hit {} : Hit { index, int(columns[std::size_t(column)]) };
    }
    const VennLayout venn = vennFor(panel);
    if (venn.footerRect().contains(point))
        return { index, 0 }; // the "none of these" count
    const int mask = venn.regionAt(point);
    return { index, mask > 0 ? mask : -1 };
}

QPointF ErrorSetsChart::regionPoint(int group, quint32 mask) const
{
    const SmallMultiplesLayout grid = gridFor(width());
    if (group < 0 || group >= int(m_groups.size()))
        return { -1, -1 };
    const QRectF panel = grid.panelRect(group);
    if (isUpSet()) {
        const std::vector<quint32> columns = upSetColumns(m_groups[std::size_t(group)]);
        const auto it = std::find(columns.begin(), columns.end(), mask);
        if (it == columns.end())
            return { -1, -1 };
        return upSetFor(panel, m_groups[std::size_t(group)]).dotCenter(int(it - columns.begin()), 0);
    }
    const VennLayout venn = vennFor(panel);
    return mask == 0 ? venn.footerRect().center() : venn.regionAnchor(mask);
}

QString ErrorSetsChart::footerText(const ErrorSetCounts& group) const
{
    QString text = tr("N_err %1 of %2 · none of these %3\nperfect %4 · failed %5")
                       .arg(group.nErr())
                       .arg(group.n)
                       .arg(group.region(0))
                       .arg(group.perfect)
                       .arg(group.failed);
    if (group.errored > 0)
        text += u" · "_s + formatErrored(group.n, group.errored);
    return text;
}

QString ErrorSetsChart::panelTitleAt(const QPointF& point) const
{
    const int index = gridFor(width()).titleAt(point, kPanelTitle);
    return index < 0 ? QString() : groupTitle(m_groups[std::size_t(index)]);
}

void ErrorSetsChart::paintPanelFrame(
    QPainter& painter, const QRectF& panel, const ErrorSetCounts& group, const QPalette& palette) const
{
    painter.setPen(QPen(palette.color(QPalette::Mid), 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRoundedRect(panel.adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
    QFont bold = painter.font();
    bold.setBold(true);
    painter.save();
    painter.setFont(bold);
    painter.setPen(palette.color(QPalette::Text));
    const QRectF title(panel.left() + 8, panel.top() + 2, panel.width() - 16, kPanelTitle);
    // Long titles (models) are elided in the middle, kept apart from the other panels' (all are as wide).
    if (m_shownTitles.size() != qsizetype(m_groups.size()) || m_shownTitlesWidth != title.width()
        || m_shownTitlesFont != bold) {
        QStringList titles;
        for (const ErrorSetCounts& g : m_groups)
            titles << groupTitle(g);
        m_shownTitles = elideLabelsMiddle(titles, QFontMetricsF(bold), title.width());
        m_shownTitlesWidth = title.width();
        m_shownTitlesFont = bold;
    }
    const auto index = std::size_t(&group - m_groups.data());
    painter.drawText(title, Qt::AlignLeft | Qt::AlignVCenter,
        index < m_groups.size() ? m_shownTitles[qsizetype(index)]
                                : QFontMetricsF(bold).elidedText(groupTitle(group), Qt::ElideMiddle, title.width()));
    painter.restore();
}

void ErrorSetsChart::paintVenn(
    QPainter& painter, const QRectF& panel, int index, const QPalette& palette, bool interactive) const
{
    const ErrorSetCounts& group = m_groups[std::size_t(index)];
    const VennLayout layout = vennFor(panel);
    const QColor text = palette.color(QPalette::Text);
    paintPanelFrame(painter, panel, group, palette);
    for (int i = 0; i < layout.sets; ++i) {
        QColor fill = setColor(i);
        fill.setAlpha(70);
        painter.setPen(QPen(setColor(i), 2));
        painter.setBrush(fill);
        painter.drawEllipse(layout.center(i), layout.radius(), layout.radius());
    }
    if (interactive && m_hover.group == index && m_hover.mask > 0) {
        QColor highlight = palette.color(QPalette::Highlight);
        highlight.setAlpha(110);
        painter.setPen(Qt::NoPen);
        painter.setBrush(highlight);
        painter.drawPath(vennRegionPath(layout, quint32(m_hover.mask)));
    }
    QFont countFont = painter.font();
    countFont.setBold(true);
    for (quint32 mask = 1; mask < (1u << layout.sets); ++mask) {
        const int count = group.region(mask);
        painter.save();
        painter.setFont(countFont);
        painter.setPen(count > 0 ? text : palette.color(QPalette::PlaceholderText));
        const QPointF anchor = layout.regionAnchor(mask);
        painter.drawText(QRectF(anchor.x() - 30, anchor.y() - 10, 60, 20), Qt::AlignCenter, QString::number(count));
        painter.restore();
    }
    painter.setPen(text);
    for (int i = 0; i < layout.sets; ++i) {
        const QPointF anchor = layout.setLabelAnchor(i);
        const QString label = u"%1 (%2)"_s.arg(errorLabelName(group.labels[std::size_t(i)])).arg(group.setSize(i));
        painter.drawText(QRectF(anchor.x() - 70, anchor.y() - 10, 140, 20), Qt::AlignCenter, label);
    }
    const QRectF footer = layout.footerRect().adjusted(8, 0, -8, -2);
    if (interactive && m_hover.group == index && m_hover.mask == 0) {
        QColor highlight = palette.color(QPalette::Highlight);
        highlight.setAlpha(60);
        painter.fillRect(footer, highlight);
    }
    painter.setPen(palette.color(QPalette::Text));
    painter.drawText(footer, Qt::AlignCenter, footerText(group));
}

void ErrorSetsChart::paintUpSet(
    QPainter& painter, const QRectF& panel, int index, const QPalette& palette, bool interactive) const
{
    const ErrorSetCounts& group = m_groups[std::size_t(index)];
    const UpSetLayout layout = upSetFor(panel, group);
    const std::vector<quint32> columns = upSetColumns(group);
    const QColor text = palette.color(QPalette::Text);
    const QColor faint = palette.color(QPalette::Mid);
    paintPanelFrame(painter, panel, group, palette);
    painter.setPen(text);
    for (int s = 0; s < layout.sets; ++s)
        painter.drawText(
            layout.setLabelRect(s), Qt::AlignRight | Qt::AlignVCenter, errorLabelName(group.labels[std::size_t(s)]));
    for (int c = 0; c < int(columns.size()); ++c) {
        const quint32 mask = columns[std::size_t(c)];
        const int count = group.region(mask);
        const bool hovered = interactive && m_hover.group == index && m_hover.mask == int(mask);
        painter.setPen(Qt::NoPen);
        painter.setBrush(hovered ? palette.color(QPalette::Highlight) : (mask == 0 ? faint : setColor(0)));
        painter.drawRect(layout.barRect(c, count));
        painter.setPen(text);
        painter.drawText(layout.barLabelRect(c, count), Qt::AlignHCenter | Qt::AlignBottom, QString::number(count));
        paintUpSetDots(painter, layout, c, mask, text, faint);
    }
    if (columns.empty()) {
        painter.setPen(palette.color(QPalette::PlaceholderText));
        painter.drawText(QRectF(layout.bounds.left() + layout.labelWidth, layout.bounds.top() + kPanelTitle,
                             panel.width() - layout.labelWidth - 12, layout.barAreaHeight),
            Qt::AlignCenter, tr("No errors among these responses."));
    }
    const QRectF footer(panel.left() + 8, panel.bottom() - 24, panel.width() - 16, 22);
    painter.setPen(text);
    painter.drawText(footer, Qt::AlignLeft | Qt::AlignVCenter, footerText(group).replace(u'\n', u"  ·  "_s));
}

void ErrorSetsChart::paintAll(QPainter& painter, const QRectF& bounds, const QPalette& palette, bool interactive) const
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
        painter.drawText(QRectF(4, 0, bounds.width() - 8, titleHeight()), Qt::AlignLeft | Qt::AlignVCenter, title());
        painter.restore();
    }
    if (m_groups.empty()) {
        painter.setPen(palette.color(QPalette::PlaceholderText));
        painter.drawText(
            QRectF(0, 0, bounds.width(), bounds.height()), Qt::AlignCenter | Qt::TextWordWrap, placeholderText());
        return;
    }
    const SmallMultiplesLayout grid = gridFor(bounds.width());
    for (int i = 0; i < grid.count; ++i) {
        const QRectF panel = grid.panelRect(i);
        isUpSet() ? paintUpSet(painter, panel, i, palette, interactive)
                  : paintVenn(painter, panel, i, palette, interactive);
    }
}

void ErrorSetsChart::mouseMoveEvent(QMouseEvent* event)
{
    const Hit hit = hitAt(event->position());
    // Over a panel's title: its whole name (long ones are elided in the middle).
    const QString title = hit.mask < 0 ? panelTitleAt(event->position()) : QString();
    if (hit == m_hover) {
        if (hit.mask < 0)
            setToolTip(title);
        return;
    }
    m_hover = hit;
    setCursor(hit.mask >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    if (hit.mask >= 0) {
        const ErrorSetCounts& group = m_groups[std::size_t(hit.group)];
        setToolTip(tr("%1: %2 responses — click to list them")
                       .arg(hit.mask == 0 ? tr("none of these") : upSetColumnLabel(group, quint32(hit.mask)))
                       .arg(group.region(quint32(hit.mask))));
    } else {
        setToolTip(title);
    }
    update();
}

void ErrorSetsChart::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const Hit hit = hitAt(event->position());
    if (hit.mask >= 0)
        Q_EMIT regionClicked(m_groups[std::size_t(hit.group)].regionKey(quint32(hit.mask)));
}

int ErrorSetsChart::heightForWidth(int width) const
{
    return int(std::ceil(std::max<qreal>(gridFor(width).totalHeight(), 120)));
}

QString ErrorSetsChart::exportTitle() const
{
    return title().isEmpty() ? tr("Error sets") : title();
}

QSize ErrorSetsChart::exportSize() const
{
    const int width = isVisible() && this->width() >= 300 ? this->width() : 820;
    return { width, heightForWidth(width) };
}

} // namespace structscope
