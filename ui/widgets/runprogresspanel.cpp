// SPDX-License-Identifier: Apache-2.0
#include "widgets/runprogresspanel.h"

#include "analysis/metricformat.h"
#include "models/runsmodel.h"
#include "widgets/activityindicator.h"

#include <QGridLayout>
#include <QLabel>
#include <QProgressBar>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace structscope {

RunProgressPanel::RunProgressPanel(QWidget* parent)
    : QGroupBox(tr("Current session"), parent)
    , m_title(new QLabel(this))
    , m_totalBar(new QProgressBar(this))
    , m_totalDetail(new QLabel(this))
    , m_errorDetail(new QLabel(this))
{
    setObjectName(u"sessionBox"_s);
    m_title->setObjectName(u"sessionTitle"_s);
    m_title->setWordWrap(true);
    // Model names, strategies and errors come from runs others may have started: text, never markup.
    for (QLabel* label : { m_title, m_totalDetail, m_errorDetail })
        label->setTextFormat(Qt::PlainText);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_totalBar->setObjectName(u"totalProgress"_s);
    m_totalBar->setFormat(u"%v/%m (%p%)"_s);
    m_totalDetail->setObjectName(u"totalDetail"_s);
    m_totalDetail->setWordWrap(true);
    m_errorDetail->setObjectName(u"errorDetail"_s);
    m_errorDetail->setWordWrap(true);

    auto* rows = new QWidget;
    m_rowsLayout = new QGridLayout(rows);
    m_rowsLayout->setContentsMargins(0, 0, 0, 0);
    m_rowsLayout->setColumnStretch(1, 1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(rows);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_totalBar);
    layout->addWidget(m_totalDetail);
    layout->addWidget(m_errorDetail);
    layout->addWidget(scroll, 1);
    showProgress({});
}

QString RunProgressPanel::durationText(double seconds)
{
    const qint64 s = std::llround(std::max(0.0, seconds));
    if (s < 60)
        return tr("%1 s").arg(s);
    if (s < 3600)
        return tr("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    return tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
}

void RunProgressPanel::beginSession(const QString& label)
{
    m_label = label;
    m_doneAtStart.clear();
}

void RunProgressPanel::rebuildRows(const QStringList& models)
{
    for (const Row& row : std::as_const(m_rows)) {
        delete row.name;
        delete row.bar;
        delete row.detail;
    }
    m_rows.clear();
    m_rowModels = models;
    QWidget* parent = m_rowsLayout->parentWidget();
    for (int i = 0; i < models.size(); ++i) {
        Row row;
        row.name = new QLabel(parent);
        row.bar = new QProgressBar(parent);
        row.bar->setObjectName(u"progress:"_s + models[i]);
        row.bar->setFormat(u"%v/%m"_s);
        row.detail = new QLabel(parent);
        row.detail->setObjectName(u"detail:"_s + models[i]);
        row.name->setTextFormat(Qt::PlainText);
        row.detail->setTextFormat(Qt::PlainText);
        m_rowsLayout->addWidget(row.name, i, 0);
        m_rowsLayout->addWidget(row.bar, i, 1);
        m_rowsLayout->addWidget(row.detail, i, 2);
        m_rows << row;
    }
    m_rowsLayout->setRowStretch(int(models.size()), 1);
}

void RunProgressPanel::showProgress(const RunnerProgress& p)
{
    for (const RunProgress& run : p.runs) {
        // The first report of a session tells what was answered before it.
        if (!m_doneAtStart.contains(run.runId))
            m_doneAtStart.insert(run.runId, run.done);
    }
    struct PerModel
    {
        bool simulated = false;
        QStringList strategies;
        qint64 total = 0;
        qint64 done = 0;
        qint64 doneNow = 0;
        qint64 errors = 0;
        qint64 retries = 0;
        double cost = 0;
    };
    QStringList models;
    QHash<QString, PerModel> byModel;
    for (const RunProgress& run : p.runs) {
        if (!byModel.contains(run.model))
            models << run.model;
        PerModel& m = byModel[run.model];
        m.simulated = run.simulated;
        m.strategies << run.strategy;
        m.total += run.total;
        m.done += run.done;
        m.doneNow += run.done - m_doneAtStart.value(run.runId);
        m.errors += run.errors;
        m.retries += run.retries;
        m.cost += run.cost;
    }
    if (models != m_rowModels)
        rebuildRows(models);
    const qint64 elapsedMs = qint64(p.elapsedSeconds * 1000);
    for (int i = 0; i < models.size(); ++i) {
        const PerModel& m = byModel[models[i]];
        Row& row = m_rows[i];
        row.name->setText(displayModelName(models[i], m.simulated) + u" · "_s + m.strategies.join(u", "_s));
        row.bar->setRange(0, int(std::max<qint64>(1, m.total)));
        row.bar->setValue(int(m.done));
        QStringList detail;
        detail << u"%1/%2"_s.arg(QString::number(m.done), QString::number(m.total));
        detail << (m.errors == 1 ? tr("1 error") : tr("%1 errors").arg(m.errors));
        detail << (m.retries == 1 ? tr("1 retry") : tr("%1 retries").arg(m.retries));
        if (p.active) {
            if (const QString eta = ActivityIndicator::etaText(m.doneNow, m.doneNow + m.total - m.done, elapsedMs);
                !eta.isEmpty())
                detail << tr("ETA %1").arg(eta);
        }
        if (m.cost > 0)
            detail << RunsModel::costText(m.cost);
        row.detail->setText(detail.join(u" · "_s));
    }

    if (p.runs.isEmpty() && !p.active) {
        m_title->setText(m_label.isEmpty()
                ? tr("No run in this session yet: start one with New Run… (Ctrl+R), or resume a past run below.")
                : m_label);
        m_totalBar->setRange(0, 1);
        m_totalBar->setValue(0);
        m_totalBar->setEnabled(false);
        m_totalBar->setTextVisible(false);
        m_totalDetail->clear();
        m_errorDetail->clear();
        return;
    }
    const QString state = !p.active ? tr("Ended") : p.paused ? tr("Paused") : tr("Running");
    m_title->setText(state + u": "_s + m_label);
    m_totalBar->setEnabled(true);
    m_totalBar->setTextVisible(true);
    m_totalBar->setRange(0, int(std::max<qint64>(1, p.total)));
    m_totalBar->setValue(int(p.done));
    QStringList detail;
    detail << tr("%1 of %2 slots answered").arg(p.done).arg(p.total);
    detail << tr("elapsed %1").arg(durationText(p.elapsedSeconds));
    if (p.active && p.etaSeconds && !p.paused)
        detail << tr("ETA %1").arg(durationText(*p.etaSeconds));
    if (p.cached > 0)
        detail << tr("%1 from the cache").arg(p.cached);
    detail << tr("cost %1").arg(RunsModel::costText(p.cost));
    m_totalDetail->setText(detail.join(u" · "_s));
    QStringList errors;
    errors << (p.errorsByKind.isEmpty() ? tr("No errors")
                                        : tr("Errors: %1").arg(RunsModel::errorKindsText(p.errorsByKind)));
    errors << (p.retriesByKind.isEmpty() ? tr("no retries")
                                         : tr("retries: %1").arg(RunsModel::errorKindsText(p.retriesByKind)));
    m_errorDetail->setText(errors.join(u" · "_s));
}

} // namespace structscope
