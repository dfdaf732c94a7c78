// SPDX-License-Identifier: Apache-2.0
#include "widgets/metricpicker.h"

#include "analysis/metricformat.h"
#include "scoring/metricregistry.h"
#include "settings/settings.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>

using namespace Qt::StringLiterals;

namespace structscope {

MetricPicker::MetricPicker(bool includeValues, QWidget* parent)
    : QWidget(parent)
    , m_includeValues(includeValues)
    , m_family(new QComboBox(this))
    , m_metric(new QComboBox(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* familyLabel = new QLabel(tr("&Family:"), this);
    familyLabel->setBuddy(m_family);
    auto* metricLabel = new QLabel(tr("&Metric:"), this);
    metricLabel->setBuddy(m_metric);
    layout->addWidget(familyLabel);
    layout->addWidget(m_family);
    layout->addSpacing(8);
    layout->addWidget(metricLabel);
    layout->addWidget(m_metric);
    m_family->setObjectName(u"familyCombo"_s);
    m_metric->setObjectName(u"metricCombo"_s);
    m_family->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_metric->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_family, &QComboBox::currentIndexChanged, this, [this] {
        m_preferredFamily = family();
        if (!m_workspace.isEmpty() && !m_scope.isEmpty())
            Settings().setMetricFamily(m_workspace, m_scope, m_preferredFamily);
        fillMetrics();
        Q_EMIT familyChanged(family());
        Q_EMIT metricChanged(metricId());
    });
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] {
        m_wanted = metricId();
        m_metric->setToolTip(metricToolTip(m_wanted));
        Q_EMIT metricChanged(metricId());
    });
}

void MetricPicker::setReport(const ReportDataPtr& data)
{
    m_data = data;
    const std::string wanted = m_wanted;
    {
        const QSignalBlocker blocker(m_family);
        m_family->clear();
        if (data) {
            for (const QString& f : data->families())
                m_family->addItem(f, f);
        }
        int index = m_family->findData(m_preferredFamily);
        if (index < 0 && data)
            index = m_family->findData(data->defaultFamily());
        m_family->setCurrentIndex(index >= 0 ? index : 0);
        fillMetrics(); // the wanted metric when this family offers it
    }
    m_wanted = wanted;
    Q_EMIT familyChanged(family());
    Q_EMIT metricChanged(metricId());
}

void MetricPicker::rememberIn(const QString& workspace, const QString& scope)
{
    if (workspace == m_workspace && scope == m_scope)
        return;
    m_workspace = workspace;
    m_scope = scope;
    m_preferredFamily = workspace.isEmpty() || scope.isEmpty() ? QString() : Settings().metricFamily(workspace, scope);
}

void MetricPicker::fillMetrics()
{
    const QSignalBlocker blocker(m_metric);
    m_metric->clear();
    if (!m_data)
        return;
    std::vector<std::string> ids = m_data->scoreMetrics(family());
    if (m_includeValues && family() == u"ladder"_s) {
        for (const MetricInfo& m : familyMetrics("ladder")) {
            const std::string id(m.id);
            if (m.kind == MetricKind::Value
                && std::find(m_data->report.metrics.begin(), m_data->report.metrics.end(), id)
                    != m_data->report.metrics.end())
                ids.push_back(id);
        }
    }
    for (const std::string& id : ids) {
        m_metric->addItem(metricLabel(id), QString::fromStdString(id));
        m_metric->setItemData(m_metric->count() - 1, metricToolTip(id), Qt::ToolTipRole);
    }
    const int index = m_metric->findData(QString::fromStdString(m_wanted));
    m_metric->setCurrentIndex(index >= 0 ? index : 0);
    m_metric->setToolTip(metricToolTip(metricId()));
}

QString MetricPicker::family() const
{
    return m_family->currentData().toString();
}

std::string MetricPicker::metricId() const
{
    return m_metric->currentData().toString().toStdString();
}

bool MetricPicker::setMetric(const std::string& metricId)
{
    const MetricInfo* info = findMetric(metricId);
    if (!info)
        return false;
    const int familyIndex = m_family->findData(QString::fromUtf8(info->family.data(), qsizetype(info->family.size())));
    if (familyIndex < 0)
        return false;
    m_wanted = metricId;
    m_family->setCurrentIndex(familyIndex); // refills the metrics when the family changes
    const int index = m_metric->findData(QString::fromStdString(metricId));
    if (index < 0)
        return false;
    m_metric->setCurrentIndex(index);
    return true;
}

} // namespace structscope
