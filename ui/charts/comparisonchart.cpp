// SPDX-License-Identifier: Apache-2.0
#include "charts/comparisonchart.h"

#include "analysis/metricformat.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

constexpr double kCapHalfHeight = 0.12; // in category units, like MetricBarChart's caps

QString pText(double p)
{
    if (std::isnan(p))
        return u"p = —"_s;
    return p < 0.001 ? u"p < 0.001"_s : u"p = "_s + QLocale().toString(p, 'f', 3);
}

} // namespace

ComparisonChart::ComparisonChart(QWidget* parent)
    : ChartView(parent)
{
    setComparisons({});
}

QString ComparisonChart::barLabel(const ConfigComparison& comparison)
{
    const Configuration& a = comparison.a;
    const Configuration& b = comparison.b;
    const QString pair = a.model == b.model
        ? u"%1: %2 → %3"_s.arg(displayModelName(a.model, a.simulated || b.simulated), a.strategy, b.strategy)
        : u"%1 → %2"_s.arg(a.label(), b.label());
    return u"%1 (%2)"_s.arg(pair, pText(comparison.stats.pValue));
}

void ComparisonChart::setComparisons(const std::vector<ConfigComparison>& comparisons)
{
    QChart* c = chart();
    removeSeriesAndAxes();
    m_categories.clear();
    m_deltas.clear();
    m_intervals.clear();
    m_ahead = m_behind = nullptr;

    std::vector<const ConfigComparison*> shown;
    for (const ConfigComparison& comparison : comparisons) {
        if (comparison.ok() && std::isfinite(comparison.stats.deltaPoints))
            shown.push_back(&comparison);
    }
    if (shown.empty()) {
        c->setTitle({});
        c->legend()->hide();
        setNote(tr("No paired comparison: the configurations share no answered cases."));
        applyPalette(palette());
        return;
    }
    const ConfigComparison& first = *shown.front();
    const bool sameStrategies = std::all_of(shown.begin(), shown.end(), [&first](const ConfigComparison* x) {
        return x->a.strategy == first.a.strategy && x->b.strategy == first.b.strategy;
    });
    c->setTitle(
        tr("%1: difference B − A in points, with paired bootstrap 95% intervals").arg(metricLabel(first.metric)));

    // A vertical category axis counts from the bottom: add the last comparison first so the list
    // reads top to bottom in the given order.
    m_ahead = new QBarSet(sameStrategies ? tr("%1 ahead").arg(first.b.strategy) : tr("B ahead"));
    m_behind = new QBarSet(sameStrategies ? tr("%1 ahead").arg(first.a.strategy) : tr("A ahead"));
    QStringList axisCategories;
    double extent = 5;
    for (const ConfigComparison* comparison : shown) {
        m_categories << barLabel(*comparison);
        m_deltas.push_back(comparison->stats.deltaPoints);
        m_intervals.push_back(comparison->stats.deltaCiPoints);
        extent = std::max(extent, std::abs(comparison->stats.deltaPoints));
        if (comparison->stats.deltaCiPoints.isValid())
            extent = std::max({ extent, std::abs(comparison->stats.deltaCiPoints.low),
                std::abs(comparison->stats.deltaCiPoints.high) });
    }
    for (qsizetype i = m_categories.size() - 1; i >= 0; --i) {
        const double delta = m_deltas[std::size_t(i)];
        *m_ahead << std::max(delta, 0.0);
        *m_behind << std::min(delta, 0.0);
        axisCategories << m_categories[i].toHtmlEscaped(); // axis labels are rich text: "p < 0.001"
    }
    auto* series = new QHorizontalStackedBarSeries;
    series->append(m_ahead);
    series->append(m_behind);
    series->setBarWidth(0.55);
    c->addSeries(series);

    auto* axisY = new QBarCategoryAxis;
    axisY->append(axisCategories);
    auto* axisX = new QValueAxis;
    // Symmetric around zero, with at most ten ticks a round number of points apart.
    double step = 5;
    for (const double candidate : { 5.0, 10.0, 20.0, 25.0, 50.0 }) {
        step = candidate;
        if (2 * std::ceil(extent * 1.05 / candidate) <= 10)
            break;
    }
    const double limit = std::ceil(extent * 1.05 / step) * step;
    axisX->setRange(-limit, limit);
    axisX->setTickCount(int(std::lround(2 * limit / step)) + 1);
    axisX->setLabelFormat(u"%.0f"_s);
    axisX->setTitleText(tr("points (B − A)"));
    c->addAxis(axisY, Qt::AlignLeft);
    c->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisY);
    series->attachAxis(axisX);

    const qsizetype count = m_categories.size();
    for (qsizetype i = 0; i < count; ++i) {
        const Interval& ci = m_intervals[std::size_t(i)];
        if (!ci.isValid())
            continue;
        const double y = double(count - 1 - i);
        auto* line = new QLineSeries;
        line->setName(u"ci"_s);
        *line << QPointF(ci.low, y - kCapHalfHeight) << QPointF(ci.low, y + kCapHalfHeight) << QPointF(ci.low, y)
              << QPointF(ci.high, y) << QPointF(ci.high, y - kCapHalfHeight) << QPointF(ci.high, y + kCapHalfHeight);
        c->addSeries(line);
        line->attachAxis(axisX);
        line->attachAxis(axisY);
    }
    c->legend()->show();
    c->legend()->setAlignment(Qt::AlignBottom);
    // Only the two bar sets belong in the legend, not every error bar.
    for (QLegendMarker* marker : c->legend()->markers()) {
        if (qobject_cast<QLineSeries*>(marker->series()))
            marker->setVisible(false);
    }
    setNote({});
    applyPalette(palette());
}

void ComparisonChart::applyPalette(const QPalette& palette)
{
    ChartView::applyPalette(palette);
    if (m_ahead) {
        m_ahead->setColor(categoricalColor(2));
        m_ahead->setBorderColor(categoricalColor(2).darker(130));
        m_behind->setColor(categoricalColor(5));
        m_behind->setBorderColor(categoricalColor(5).darker(130));
    }
    for (QAbstractSeries* series : chart()->series()) {
        if (auto* line = qobject_cast<QLineSeries*>(series))
            line->setPen(QPen(palette.color(QPalette::Text), 1.6));
    }
}

} // namespace structscope
