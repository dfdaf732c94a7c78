// SPDX-License-Identifier: Apache-2.0
#include "charts/metricbarchart.h"

#include "analysis/metricformat.h"
#include "charts/labelgeometry.h"
#include "report/reportformatting.h"
#include "scoring/metricregistry.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QHelpEvent>
#include <QHorizontalBarSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

// Half the width of an error bar's caps, in category units (a bar is 0.6 wide, 0.7 when horizontal).
constexpr double kCapHalfWidth = 0.12;

} // namespace

MetricBarChart::MetricBarChart(QWidget* parent)
    : ChartView(parent)
{
    chart()->legend()->hide();
    setReport(nullptr, {});
}

void MetricBarChart::setReport(ReportDataPtr data, const std::string& metricId)
{
    const MetricInfo* info = findMetric(metricId);
    if (!data || !info || data->report.groups.empty()) {
        clearSeries();
        chart()->setTitle(info ? tr("%1 by group, with 95% intervals").arg(metricLabel(metricId)) : QString());
        setNote(!data ? tr("No workspace open.")
                : data->report.groups.empty()
                ? tr("No responses yet.\nImport results (Ctrl+I) or drop .jsonl files here.")
                : tr("No values for this metric."));
        applyPalette(palette());
        return;
    }

    // Best first, so the bar chart reads as a ranking; groups without a value go last.
    const auto& groups = data->report.groups;
    std::vector<std::size_t> order(groups.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const double x = metricValue(groups[a], metricId);
        const double y = metricValue(groups[b], metricId);
        if (std::isnan(x) || std::isnan(y))
            return !std::isnan(x) && std::isnan(y);
        return info->higherIsBetter ? x > y : x < y;
    });
    std::vector<GroupKey> bars;
    QStringList categories;
    std::vector<Interval> intervals;
    QList<qreal> values;
    double top = 0;
    for (std::size_t i : order) {
        const ReportGroup& group = groups[i];
        const double value = metricValue(group, metricId);
        bars.push_back(GroupKey { group.key });
        categories << data->groupLabel(group);
        intervals.push_back(metricInterval(group, metricId));
        values << (std::isfinite(value) ? value : 0.0);
        if (std::isfinite(value))
            top = std::max(top, value);
        if (intervals.back().isValid())
            top = std::max(top, intervals.back().high);
    }
    qreal widest = 0;
    const QFontMetricsF labelMetrics(m_axisCategories ? m_axisCategories->labelsFont() : font());
    for (const QString& label : categories)
        widest = std::max(widest, labelMetrics.horizontalAdvance(label));
    const bool horizontal = m_alwaysHorizontal
        || BarChartGeometry::isHorizontal(int(bars.size()), widest, labelMetrics.averageCharWidth());
    const qsizetype count = values.size();
    // A vertical category axis counts from the bottom: horizontal bars are added last first, so the best is on top.
    const auto place = [horizontal, count](qsizetype i) { return horizontal ? double(count - 1 - i) : double(i); };
    QList<qreal> axisValues;
    for (qsizetype i = 0; i < count; ++i)
        axisValues << values[horizontal ? count - 1 - i : i];
    const bool plain = isPlainValueMetric(metricId);
    const double axisTop = plain ? std::max(top * 1.1, 1e-9) : 1.0;
    const auto errorBarPoints = [horizontal](double at, const Interval& ci) {
        if (horizontal)
            return QList<QPointF> { QPointF(ci.low, at - kCapHalfWidth), QPointF(ci.low, at + kCapHalfWidth),
                QPointF(ci.low, at), QPointF(ci.high, at), QPointF(ci.high, at - kCapHalfWidth),
                QPointF(ci.high, at + kCapHalfWidth) };
        return QList<QPointF> { QPointF(at - kCapHalfWidth, ci.low), QPointF(at + kCapHalfWidth, ci.low),
            QPointF(at, ci.low), QPointF(at, ci.high), QPointF(at - kCapHalfWidth, ci.high),
            QPointF(at + kCapHalfWidth, ci.high) };
    };

    bool inPlace = m_set && m_metricId == metricId && m_set->count() == axisValues.size()
        && m_errorBars.size() == intervals.size() && m_horizontal == horizontal;
    for (std::size_t i = 0; inPlace && i < intervals.size(); ++i)
        inPlace = (m_errorBars[i] != nullptr) == intervals[i].isValid();
    if (inPlace) {
        for (int i = 0; i < axisValues.size(); ++i) {
            if (m_set->at(i) != axisValues[i])
                m_set->replace(i, axisValues[i]);
        }
        m_axisValues->setRange(0, axisTop);
        for (std::size_t i = 0; i < intervals.size(); ++i) {
            if (m_errorBars[i] && (intervals[i].low != m_intervals[i].low || intervals[i].high != m_intervals[i].high))
                m_errorBars[i]->replace(errorBarPoints(place(qsizetype(i)), intervals[i]));
        }
        m_bars = std::move(bars);
        m_categories = std::move(categories);
        m_intervals = std::move(intervals);
        updateAxisLabels(width(), false);
        ++m_updatesInPlace;
        return;
    }

    clearSeries();
    QChart* c = chart();
    c->setTitle(tr("%1 by group, with 95% intervals").arg(metricLabel(metricId)));
    m_metricId = metricId;
    m_horizontal = horizontal;
    m_bars = std::move(bars);
    m_categories = std::move(categories);
    m_intervals = std::move(intervals);
    QAbstractBarSeries* series = horizontal ? static_cast<QAbstractBarSeries*>(new QHorizontalBarSeries)
                                            : static_cast<QAbstractBarSeries*>(new QBarSeries);
    m_set = new QBarSet(metricLabel(metricId));
    m_set->append(axisValues);
    series->append(m_set);
    series->setBarWidth(horizontal ? 0.7 : 0.6);
    c->addSeries(series);

    m_axisCategories = new QBarCategoryAxis;
    m_axisValues = new QValueAxis;
    m_axisValues->setRange(0, axisTop);
    m_axisValues->setLabelFormat(plain ? u"%.3g"_s : u"%.2f"_s);
    m_axisValues->setTitleText(metricLabel(metricId));
    m_axisValues->setTickCount(horizontal ? 11 : 6);
    if (horizontal) {
        // The names are elided in the middle to the label column here; QtCharts would cut them at the end.
        m_axisCategories->setTruncateLabels(false);
        c->addAxis(m_axisCategories, Qt::AlignLeft);
        c->addAxis(m_axisValues, Qt::AlignBottom);
    } else {
        if (m_categories.size() > 4)
            m_axisCategories->setLabelsAngle(-30);
        c->addAxis(m_axisCategories, Qt::AlignBottom);
        c->addAxis(m_axisValues, Qt::AlignLeft);
    }
    m_shown.clear();
    updateAxisLabels(width(), false);
    series->attachAxis(m_axisCategories);
    series->attachAxis(m_axisValues);

    // Each error bar is one "I" shape: cap, stem, cap.
    m_errorBars.assign(m_intervals.size(), nullptr);
    for (std::size_t i = 0; i < m_intervals.size(); ++i) {
        if (!m_intervals[i].isValid())
            continue;
        auto* line = new QLineSeries;
        line->setName(u"ci"_s);
        line->append(errorBarPoints(place(qsizetype(i)), m_intervals[i]));
        c->addSeries(line);
        line->attachAxis(m_axisCategories);
        line->attachAxis(m_axisValues);
        m_errorBars[i] = line;
    }

    // The series' index counts along the category axis; bars() counts best first.
    const auto rank = [this](int index) { return m_horizontal ? int(m_bars.size()) - 1 - index : index; };
    connect(series, &QAbstractBarSeries::clicked, this, [this, rank](int index, QBarSet*) {
        index = rank(index);
        if (index >= 0 && std::size_t(index) < m_bars.size())
            Q_EMIT groupClicked(m_bars[std::size_t(index)]);
    });
    connect(series, &QAbstractBarSeries::hovered, this, [this, rank](bool status, int index, QBarSet* set) {
        const int at = rank(index);
        if (!status || at < 0 || at >= m_categories.size()) {
            QToolTip::hideText();
            return;
        }
        QString tip = u"<b>%1</b><br>%2: %3"_s.arg(
            m_categories[at].toHtmlEscaped(), metricLabel(m_metricId), formatMetricValue(m_metricId, set->at(index)));
        if (m_intervals[std::size_t(at)].isValid())
            tip += u"<br>95% CI "_s + formatInterval(m_metricId, m_intervals[std::size_t(at)]);
        QToolTip::showText(QCursor::pos(), tip, this);
    });
    setNote({});
    applyPalette(palette());
    // Horizontal bars need their rows: in a scroll area the chart grows with them.
    setMinimumHeight(neededHeight());
    updateGeometry();
}

void MetricBarChart::setAlwaysHorizontal(bool always)
{
    m_alwaysHorizontal = always;
}

QStringList MetricBarChart::axisLabels(qreal width, bool whole) const
{
    if (whole || !m_axisCategories || m_categories.isEmpty())
        return m_categories;
    const QFontMetricsF metrics(m_axisCategories->labelsFont());
    // Horizontal: a label column of up to 38% of the width. Upright: about a bar's width (QtCharts hides a slanted
    // label that runs past the chart's edge, and cuts one that is still too long at its end).
    const qreal room = m_horizontal ? BarChartGeometry::labelWidth(m_categories, metrics, width)
                                    : std::clamp(width * 0.85 / qreal(m_categories.size()), qreal(50), qreal(180));
    return elideLabelsMiddle(m_categories, metrics, room);
}

void MetricBarChart::updateAxisLabels(qreal width, bool whole)
{
    if (!m_axisCategories)
        return;
    const QStringList labels = axisLabels(width, whole);
    if (labels == m_shown && m_axisCategories->count() == labels.size())
        return;
    m_shown = labels;
    // Axis labels are rich text; upright they read left to right, horizontal ones bottom up.
    QStringList onAxis;
    for (qsizetype i = 0; i < labels.size(); ++i)
        onAxis << labels[m_horizontal ? labels.size() - 1 - i : i].toHtmlEscaped();
    m_axisCategories->setCategories(onAxis);
}

int MetricBarChart::neededHeight() const
{
    if (!m_horizontal)
        return 0;
    const QFontMetricsF metrics(m_axisCategories ? m_axisCategories->labelsFont() : font());
    const qreal chrome = metrics.height() * 6 + 44; // title, value axis with its title, margins
    return BarChartGeometry::heightFor(int(m_categories.size()), BarChartGeometry::rowHeight(metrics.height()), chrome);
}

QSize MetricBarChart::minimumSizeHint() const
{
    const QSize base = ChartView::minimumSizeHint();
    return m_horizontal ? QSize(base.width(), std::max(base.height(), neededHeight())) : base;
}

QSize MetricBarChart::exportSize() const
{
    QSize size = ChartView::exportSize();
    if (m_horizontal) {
        const QFontMetricsF metrics(m_axisCategories->labelsFont());
        qreal widest = 0;
        for (const QString& label : m_categories)
            widest = std::max(widest, metrics.horizontalAdvance(label));
        size = size.expandedTo(QSize(int(std::ceil(widest)) + 480, neededHeight()));
    }
    return size;
}

void MetricBarChart::renderForExport(QPainter& painter, const QRectF& target)
{
    // A picture has no tooltips: horizontal bars write every name whole (exportSize() leaves room for them).
    updateAxisLabels(target.width(), m_horizontal);
    ChartView::renderForExport(painter, target);
    updateAxisLabels(width(), false);
}

QString MetricBarChart::labelToolTipAt(const QPoint& pos) const
{
    const int bars = int(m_categories.size());
    if (bars == 0)
        return {};
    const QPointF at = chart()->mapFromScene(mapToScene(pos));
    const QRectF plot = chart()->plotArea();
    if (m_horizontal) {
        if (at.x() > plot.right())
            return {};
        const int row = BarChartGeometry::rowAt(at.y(), plot, bars);
        return row < 0 ? QString() : m_categories[row];
    }
    if (at.y() < plot.bottom() || at.x() < plot.left() || at.x() >= plot.right())
        return {};
    const int column = std::clamp(int((at.x() - plot.left()) / (plot.width() / bars)), 0, bars - 1);
    return m_categories[column];
}

bool MetricBarChart::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString name = labelToolTipAt(help->pos());
        if (!name.isEmpty()) {
            QToolTip::showText(help->globalPos(), name, this);
            return true;
        }
    }
    return ChartView::viewportEvent(event);
}

void MetricBarChart::resizeEvent(QResizeEvent* event)
{
    ChartView::resizeEvent(event);
    updateAxisLabels(width(), false);
}

void MetricBarChart::clearSeries()
{
    removeSeriesAndAxes();
    m_bars.clear();
    m_categories.clear();
    m_shown.clear();
    m_horizontal = false;
    m_intervals.clear();
    m_set = nullptr;
    m_metricId.clear();
    m_axisCategories = nullptr;
    m_axisValues = nullptr;
    m_errorBars.clear();
    setMinimumHeight(0);
    updateGeometry();
}

void MetricBarChart::applyPalette(const QPalette& palette)
{
    ChartView::applyPalette(palette);
    if (m_set) {
        m_set->setColor(palette.color(QPalette::Highlight));
        m_set->setBorderColor(palette.color(QPalette::Highlight).darker(130));
    }
    for (QAbstractSeries* series : chart()->series()) {
        if (auto* line = qobject_cast<QLineSeries*>(series))
            line->setPen(QPen(palette.color(QPalette::Text), 1.6));
    }
}

} // namespace structscope
