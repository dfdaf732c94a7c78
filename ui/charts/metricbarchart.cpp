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
    QChart* c = chart();
    c->removeAllSeries();
    for (QAbstractAxis* axis : c->axes()) {
        c->removeAxis(axis);
        delete axis;
    }
    m_bars.clear();
    m_categories.clear();
    m_intervals.clear();
    m_set = nullptr;

    const MetricInfo* info = findMetric(metricId);
    c->setTitle(info ? tr("%1 by group, with 95% intervals").arg(metricLabel(metricId)) : QString());
    if (!data || !info || data->report.groups.empty()) {
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

    auto* series = new QBarSeries;
    m_set = new QBarSet(metricLabel(metricId));
    double top = 0;
    for (std::size_t i : order) {
        const ReportGroup& group = groups[i];
        const double value = metricValue(group, metricId);
        m_bars.push_back(GroupKey { group.key });
        m_categories << data->groupLabel(group);
        m_intervals.push_back(metricInterval(group, metricId));
        *m_set << (std::isfinite(value) ? value : 0.0);
        if (std::isfinite(value))
            top = std::max(top, value);
        if (m_intervals.back().isValid())
            top = std::max(top, m_intervals.back().high);
    }
    series->append(m_set);
    series->setBarWidth(0.6);
    c->addSeries(series);

    auto* axisX = new QBarCategoryAxis;
    axisX->append(m_categories);
    if (m_categories.size() > 4)
        axisX->setLabelsAngle(-30);
    auto* axisY = new QValueAxis;
    const bool plain = isPlainValueMetric(metricId);
    axisY->setRange(0, plain ? std::max(top * 1.1, 1e-9) : 1.0);
    axisY->setLabelFormat(plain ? u"%.3g"_s : u"%.2f"_s);
    axisY->setTitleText(metricLabel(metricId));
    axisY->setTickCount(6);
    c->addAxis(axisX, Qt::AlignBottom);
    c->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisX);
    series->attachAxis(axisY);

    // Each error bar is one "I" shape: bottom cap, stem, top cap.
    for (std::size_t i = 0; i < m_intervals.size(); ++i) {
        const Interval& ci = m_intervals[i];
        if (!ci.isValid())
            continue;
        const double x = double(i);
        auto* line = new QLineSeries;
        line->setName(u"ci"_s);
        *line << QPointF(x - kCapHalfWidth, ci.low) << QPointF(x + kCapHalfWidth, ci.low) << QPointF(x, ci.low)
              << QPointF(x, ci.high) << QPointF(x - kCapHalfWidth, ci.high) << QPointF(x + kCapHalfWidth, ci.high);
        c->addSeries(line);
        line->attachAxis(axisX);
        line->attachAxis(axisY);
    }

    connect(series, &QBarSeries::clicked, this, [this](int index, QBarSet*) {
        if (index >= 0 && std::size_t(index) < m_bars.size())
            Q_EMIT groupClicked(m_bars[std::size_t(index)]);
    });
    const std::string id = metricId;
    connect(series, &QBarSeries::hovered, this, [this, id](bool status, int index, QBarSet* set) {
        if (!status || index < 0 || index >= m_categories.size()) {
            QToolTip::hideText();
            return;
        }
        QString tip = u"<b>%1</b><br>%2: %3"_s.arg(
            m_categories[index].toHtmlEscaped(), metricLabel(id), formatMetricValue(id, set->at(index)));
        if (m_intervals[std::size_t(index)].isValid())
            tip += u"<br>95% CI "_s + formatInterval(id, m_intervals[std::size_t(index)]);
        QToolTip::showText(QCursor::pos(), tip, this);
    });
    setNote({});
    applyPalette(palette());
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
