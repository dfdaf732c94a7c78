// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pages/page.h"

namespace structscope {

/// A page that shows scored responses themselves rather than an aggregated report (Cases, Errors,
/// Compare, Audit). It goes through the base class's data path, so loading, superseded requests and
/// stale data behave as on every page: requestRecords() asks for the scored set of the gold basis
/// (requestScoredSet(): nothing is aggregated), and when it is scored the set — shared with every
/// other page through the workspace's scoring service — is handed to recordsReady().
class RecordsPage : public Page
{
    Q_OBJECT
public:
    explicit RecordsPage(Workspace* workspace, QWidget* parent = nullptr);

    /// True while the page waits for the scoring pass or its own background work.
    bool isBusy() const { return isLoading() || m_busyJobs > 0; }
    /// The set shown (nullptr before the first, when no workspace is open, or on failure).
    ScoredSetPtr scoredSet() const { return m_set; }
    GoldBasis gold() const { return m_gold; }

Q_SIGNALS:
    /// A scored set (or its failure) was applied; tests and screenshots wait for it.
    void recordsApplied();
    void busyChanged(bool busy);

protected:
    /// Shows the scored set of `gold`, after the scoring pass if it has not run yet.
    void requestRecords(GoldBasis gold);
    /// The set arrived (nullptr with `error` on failure, nullptr without one when no workspace is open).
    virtual void recordsReady(const ScoredSetPtr& set, const QString& error) = 0;
    /// Background work of the page itself counts as busy too.
    void beginWork();
    void endWork();

    void reportReady(const ReportDataPtr& data, const QString& error) override;

private:
    int m_busyJobs = 0;
    GoldBasis m_gold = GoldBasis::Measured;
    ScoredSetPtr m_set;
};

} // namespace structscope
