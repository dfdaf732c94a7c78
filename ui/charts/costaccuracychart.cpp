// SPDX-License-Identifier: Apache-2.0
#include "charts/costaccuracychart.h"

#include "analysis/metricformat.h"
#include "charts/labelgeometry.h"
#include "report/reportformatting.h"
#include "scoring/metricregistry.h"

#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

constexpr const char* kCostId = "ladder.cost_per_success";
constexpr int kMarkerSize = 12;
constexpr qreal kLabelWidth = 170; ///< a point's name is elided in the middle to this width

} // namespace

CostAccuracyChart::CostAccuracyChart(QWidget* parent)
    : ChartView(parent)
{
    chart()->legend()->hide();
    connect(chart(), &QChart::plotAreaChanged, this, [this] { placeLabels(); });
    setReport(nullptr, {});
}

void CostAccuracyChart::setReport(ReportDataPtr data, const std::string& metricId)
{
    QChart* c = chart();
    for (Point& point : m_points)
        delete point.text;
    m_points.clear();
    removeSeriesAndAxes();
    m_plotted.clear();
    m_unplotted.clear();
    const MetricInfo* info = findMetric(metricId);
    c->setTitle(info ? tr("Cost per success vs. %1").arg(metricLabel(metricId)) : QString());
    if (!data || !info || data->report.groups.empty()) {
        setNote(!data ? tr("No workspace open.")
                : data->report.groups.empty()
                ? tr("No responses yet.\nImport results (Ctrl+I) or drop .jsonl files here.")
                : tr("No values for this metric."));
        applyPalette(palette());
        return;
    }

    struct Plotted
    {
        QString label;
        GroupKey key;
        double cost;
        double value;
    };
    std::vector<Plotted> points;
    for (const ReportGroup& group : data->report.groups) {
        const QString label = data->groupLabel(group);
        const double cost = metricValue(group, kCostId);
        const double value = metricValue(group, metricId);
        if (std::isfinite(cost) && std::isfinite(value))
            points.push_back({ label, GroupKey { group.key }, cost, value });
        else
            m_unplotted << label;
    }
    double minCost = std::numeric_limits<double>::infinity();
    double maxCost = 0;
    double maxValue = 0;
    for (const Plotted& p : points) {
        minCost = std::min(minCost, p.cost);
        maxCost = std::max(maxCost, p.cost);
        maxValue = std::max(maxValue, p.value);
    }

    // Costs of models differ by orders of magnitude: a log axis keeps cheap ones apart, unless a
    // group spent nothing (a free model has no place on it).
    QAbstractAxis* axisX = nullptr;
    if (!points.empty() && minCost > 0) {
        auto* log = new QLogValueAxis;
        log->setBase(10);
        log->setRange(minCost / 2, maxCost * 2);
        log->setLabelFormat(u"%.2g"_s);
        log->setMinorTickCount(-1);
        axisX = log;
    } else {
        auto* linear = new QValueAxis;
        linear->setRange(0, maxCost > 0 ? maxCost * 1.25 : 1.0);
        linear->setLabelFormat(u"%.3g"_s);
        linear->applyNiceNumbers();
        axisX = linear;
    }
    axisX->setTitleText(tr("Cost per success (USD)"));
    auto* axisY = new QValueAxis;
    axisY->setTitleText(metricLabel(metricId));
    const bool plain = isPlainValueMetric(metricId);
    if (plain) {
        axisY->setRange(0, std::max(maxValue * 1.15, 1e-9));
        axisY->setLabelFormat(u"%.3g"_s);
        axisY->applyNiceNumbers();
    } else {
        // Room above 1.0 for the labels of perfect groups; ticks stay on the round values.
        axisY->setRange(0, 1.1);
        axisY->setTickType(QValueAxis::TicksDynamic);
        axisY->setTickAnchor(0);
        axisY->setTickInterval(0.2);
        axisY->setLabelFormat(u"%.1f"_s);
    }
    c->addAxis(axisX, Qt::AlignBottom);
    c->addAxis(axisY, Qt::AlignLeft);

    // Names written beside points are elided in the middle (kept apart) so that more of them find room.
    QStringList names;
    for (const Plotted& p : points)
        names << p.label;
    const QStringList shortNames
        = elideLabelsMiddle(names, QFontMetricsF(QGraphicsSimpleTextItem().font()), kLabelWidth);
    int index = 0;
    for (const Plotted& p : points) {
        auto* series = new QScatterSeries;
        series->setName(p.label);
        series->setMarkerSize(kMarkerSize);
        series->append(p.cost, p.value);
        series->setColor(categoricalColor(index++));
        series->setBorderColor(Qt::transparent);
        c->addSeries(series);
        series->attachAxis(axisX);
        series->attachAxis(axisY);
        const GroupKey key = p.key;
        const QString label = p.label;
        const double cost = p.cost;
        const double value = p.value;
        const std::string id = metricId;
        connect(series, &QScatterSeries::clicked, this, [this, key] { Q_EMIT groupClicked(key); });
        connect(series, &QScatterSeries::hovered, this, [this, label, cost, value, id](const QPointF&, bool state) {
            if (!state)
                return QToolTip::hideText();
            QToolTip::showText(QCursor::pos(),
                u"<b>%1</b><br>%2: %3<br>%4: %5"_s.arg(label.toHtmlEscaped(), tr("Cost per success"),
                    formatMetricValue(kCostId, cost), metricLabel(id), formatMetricValue(id, value)),
                this);
        });
        m_plotted << label;
        auto* text = new QGraphicsSimpleTextItem(shortNames.value(m_plotted.size() - 1, p.label), c);
        text->setZValue(10);
        text->setVisible(false);
        m_points.push_back({ p.label, QPointF(p.cost, p.value), series, text });
    }
    // The best groups are named first: they are the ones a reader looks for.
    std::stable_sort(m_points.begin(), m_points.end(), [higher = info->higherIsBetter](const Point& a, const Point& b) {
        return higher ? a.value.y() > b.value.y() : a.value.y() < b.value.y();
    });

    QString note;
    if (m_plotted.isEmpty())
        note = tr("No costs recorded in this workspace.");
    else if (!m_unplotted.isEmpty())
        note = tr("Without cost: %1").arg(m_unplotted.join(u", "_s));
    setNote(note, m_plotted.isEmpty());
    applyPalette(palette());
    placeLabels();
}

void CostAccuracyChart::placeLabels()
{
    if (m_points.empty())
        return;
    std::vector<PointLabel> wanted;
    wanted.reserve(m_points.size());
    for (const Point& point : m_points)
        wanted.push_back({ chart()->mapToPosition(point.value, point.series), point.text->boundingRect().size() });
    const QRectF bounds = chart()->plotArea().adjusted(0, -4, 0, 0);
    const std::vector<std::optional<QRectF>> placed = placePointLabels(wanted, bounds, kMarkerSize / 2.0);
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        m_points[i].text->setVisible(placed[i].has_value());
        if (placed[i])
            m_points[i].text->setPos(placed[i]->topLeft());
    }
}

QStringList CostAccuracyChart::labelledPoints() const
{
    QStringList out;
    for (const Point& point : m_points) {
        if (point.text->isVisible())
            out << point.label;
    }
    return out;
}

QList<QRectF> CostAccuracyChart::labelRects() const
{
    QList<QRectF> out;
    for (const Point& point : m_points) {
        if (point.text->isVisible())
            out << QRectF(point.text->pos(), point.text->boundingRect().size());
    }
    return out;
}

void CostAccuracyChart::applyPalette(const QPalette& palette)
{
    ChartView::applyPalette(palette);
    for (QAbstractSeries* series : chart()->series()) {
        if (auto* scatter = qobject_cast<QScatterSeries*>(series))
            scatter->setPointLabelsColor(palette.color(QPalette::Text));
    }
    for (const Point& point : m_points)
        point.text->setBrush(palette.color(QPalette::Text));
}

} // namespace structscope
