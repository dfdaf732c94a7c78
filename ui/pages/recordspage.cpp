// SPDX-License-Identifier: Apache-2.0
#include "pages/recordspage.h"

#include "workspace/workspace.h"

namespace structscope {

RecordsPage::RecordsPage(Workspace* workspace, QWidget* parent)
    : Page(workspace, parent)
{
    connect(this, &Page::loadingChanged, this, [this] {
        if (m_busyJobs == 0)
            Q_EMIT busyChanged(isBusy());
    });
}

void RecordsPage::requestRecords(GoldBasis gold)
{
    m_gold = gold;
    requestScoredSet(gold);
}

void RecordsPage::reportReady(const ReportDataPtr& data, const QString& error)
{
    ScoredSetPtr set;
    if (data) {
        // The report was aggregated from the cached set of this basis.
        set = workspace()->scoring()->cached(m_gold);
        if (!set)
            return; // the store changed meanwhile: the page is stale and reloads when shown
    }
    m_set = set;
    recordsReady(set, error);
    Q_EMIT recordsApplied();
}

void RecordsPage::beginWork()
{
    const bool wasBusy = isBusy();
    ++m_busyJobs;
    if (!wasBusy)
        Q_EMIT busyChanged(true);
}

void RecordsPage::endWork()
{
    m_busyJobs = std::max(0, m_busyJobs - 1);
    if (!isBusy())
        Q_EMIT busyChanged(false);
}

} // namespace structscope
