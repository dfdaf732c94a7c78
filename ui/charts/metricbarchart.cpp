#include "charts/metricbarchart.h"

#include "models/metricformat.h"
#include "report/reportformatting.h"
#include "scoring/metricregistry.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
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

// Half the width of an error bar's caps, in category units (a bar is 0.5 wide at the default 50%).
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
    const bool plain = isPlainValueMetric(metricId);
    const double axisTop = plain ? std::max(top * 1.1, 1e-9) : 1.0;
    const auto errorBarPoints = [](double x, const Interval& ci) {
        return QList<QPointF> { QPointF(x - kCapHalfWidth, ci.low), QPointF(x + kCapHalfWidth, ci.low),
            QPointF(x, ci.low), QPointF(x, ci.high), QPointF(x - kCapHalfWidth, ci.high),
            QPointF(x + kCapHalfWidth, ci.high) };
    };

    bool inPlace = m_set && m_metricId == metricId && m_set->count() == values.size()
        && m_errorBars.size() == intervals.size();
    for (std::size_t i = 0; inPlace && i < intervals.size(); ++i)
        inPlace = (m_errorBars[i] != nullptr) == intervals[i].isValid();
    if (inPlace) {
        for (int i = 0; i < values.size(); ++i) {
            if (m_set->at(i) != values[i])
                m_set->replace(i, values[i]);
        }
        if (categories != m_categories)
            m_axisX->setCategories(categories);
        m_axisY->setRange(0, axisTop);
        for (std::size_t i = 0; i < intervals.size(); ++i) {
            if (m_errorBars[i] && (intervals[i].low != m_intervals[i].low || intervals[i].high != m_intervals[i].high))
                m_errorBars[i]->replace(errorBarPoints(double(i), intervals[i]));
        }
        m_bars = std::move(bars);
        m_categories = std::move(categories);
        m_intervals = std::move(intervals);
        ++m_updatesInPlace;
        return;
    }

    clearSeries();
    QChart* c = chart();
    c->setTitle(tr("%1 by group, with 95% intervals").arg(metricLabel(metricId)));
    m_metricId = metricId;
    m_bars = std::move(bars);
    m_categories = std::move(categories);
    m_intervals = std::move(intervals);
    auto* series = new QBarSeries;
    m_set = new QBarSet(metricLabel(metricId));
    m_set->append(values);
    series->append(m_set);
    series->setBarWidth(0.6);
    c->addSeries(series);

    m_axisX = new QBarCategoryAxis;
    m_axisX->append(m_categories);
    if (m_categories.size() > 4)
        m_axisX->setLabelsAngle(-30);
    m_axisY = new QValueAxis;
    m_axisY->setRange(0, axisTop);
    m_axisY->setLabelFormat(plain ? u"%.3g"_s : u"%.2f"_s);
    m_axisY->setTitleText(metricLabel(metricId));
    m_axisY->setTickCount(6);
    c->addAxis(m_axisX, Qt::AlignBottom);
    c->addAxis(m_axisY, Qt::AlignLeft);
    series->attachAxis(m_axisX);
    series->attachAxis(m_axisY);

    // Each error bar is one "I" shape: bottom cap, stem, top cap.
    m_errorBars.assign(m_intervals.size(), nullptr);
    for (std::size_t i = 0; i < m_intervals.size(); ++i) {
        if (!m_intervals[i].isValid())
            continue;
        auto* line = new QLineSeries;
        line->setName(u"ci"_s);
        line->append(errorBarPoints(double(i), m_intervals[i]));
        c->addSeries(line);
        line->attachAxis(m_axisX);
        line->attachAxis(m_axisY);
        m_errorBars[i] = line;
    }

    connect(series, &QBarSeries::clicked, this, [this](int index, QBarSet*) {
        if (index >= 0 && std::size_t(index) < m_bars.size())
            Q_EMIT groupClicked(m_bars[std::size_t(index)]);
    });
    connect(series, &QBarSeries::hovered, this, [this](bool status, int index, QBarSet* set) {
        if (!status || index < 0 || index >= m_categories.size()) {
            QToolTip::hideText();
            return;
        }
        QString tip = u"<b>%1</b><br>%2: %3"_s.arg(m_categories[index].toHtmlEscaped(), metricLabel(m_metricId),
            formatMetricValue(m_metricId, set->at(index)));
        if (m_intervals[std::size_t(index)].isValid())
            tip += u"<br>95% CI "_s + formatInterval(m_metricId, m_intervals[std::size_t(index)]);
        QToolTip::showText(QCursor::pos(), tip, this);
    });
    setNote({});
    applyPalette(palette());
}

void MetricBarChart::clearSeries()
{
    removeSeriesAndAxes();
    m_bars.clear();
    m_categories.clear();
    m_intervals.clear();
    m_set = nullptr;
    m_metricId.clear();
    m_axisX = nullptr;
    m_axisY = nullptr;
    m_errorBars.clear();
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
