#include "pages/page.h"

#include "workspace/workspace.h"

#include <QtConcurrent/QtConcurrentRun>

namespace structscope {

Page::Page(Workspace* workspace, QWidget* parent)
    : QWidget(parent)
    , m_workspace(workspace)
{
    connect(workspace, &Workspace::dataChanged, this, &Page::markStale);
    connect(workspace->scoring(), &ScoringService::scored, this, [this](GoldBasis gold, const ScoredSetPtr& set) {
        if (!m_waitingForScores || gold != m_gold)
            return;
        m_waitingForScores = false;
        if (set->ok()) {
            aggregate(set);
        } else {
            setLoading(false);
            m_report = nullptr;
            reportReady(nullptr, set->cancelled ? tr("Scoring was cancelled.") : set->error);
            Q_EMIT reportApplied();
        }
    });
}

Page::~Page()
{
    m_pool.waitForDone();
}

void Page::markStale()
{
    m_stale = true;
    if (isVisible()) {
        m_stale = false;
        reload();
    }
}

void Page::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale) {
        m_stale = false;
        reload();
    }
}

void Page::requestReport(GoldBasis gold, const AggregateOptions& options)
{
    ++m_generation;
    m_gold = gold;
    m_options = options;
    if (!m_workspace->isOpen()) {
        m_waitingForScores = false;
        setLoading(false);
        m_report = nullptr;
        reportReady(nullptr, {});
        Q_EMIT reportApplied();
        return;
    }
    setLoading(true);
    if (ScoredSetPtr set = m_workspace->scoring()->request(gold)) {
        m_waitingForScores = false;
        aggregate(set);
    } else {
        m_waitingForScores = true;
    }
}

void Page::aggregate(const ScoredSetPtr& set)
{
    const quint64 generation = m_generation;
    const AggregateOptions options = m_options;
    const std::string gold = m_gold == GoldBasis::Adjusted ? "adjusted" : "measured";
    QtConcurrent::run(&m_pool, [set, options, gold] {
        return makeReportData(set->records, options, gold);
    }).then(this, [this, generation](const ReportDataPtr& data) {
        if (generation != m_generation)
            return; // the user changed the grouping or gold meanwhile
        setLoading(false);
        m_report = data;
        reportReady(data, {});
        Q_EMIT reportApplied();
    });
}

void Page::setLoading(bool loading)
{
    if (loading == m_loading)
        return;
    m_loading = loading;
    Q_EMIT loadingChanged(loading);
}

} // namespace structscope
