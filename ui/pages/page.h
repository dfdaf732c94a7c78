// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/groupkey.h"
#include "analysis/reportdata.h"
#include "report/evaluation.h"
#include "workspace/scoringservice.h"

#include <QList>
#include <QThreadPool>
#include <QWidget>

#include <memory>
#include <optional>

class QLabel;

namespace structscope {

class ExportableChart;
struct KeptEstimates;
class Workspace;

/// A main view of the workbench (Leaderboard, Heatmap, and the pages of later issues). The main
/// window only knows this interface: it lists pages in its navigation, exports their charts and
/// tables, and routes their drill-down requests.
///
/// The base class also holds the common data path: a page asks for a report with
/// requestReport(); the workspace's scoring service scores the store off the GUI thread (once per
/// gold basis, shared by all pages), the aggregation runs off the GUI thread too, and the newest
/// request's result arrives in reportReady(). Superseded results are dropped.
class Page : public QWidget
{
    Q_OBJECT
public:
    explicit Page(Workspace* workspace, QWidget* parent = nullptr);
    ~Page() override;

    /// The name in the navigation and the window title.
    virtual QString title() const = 0;
    /// A stable id ("leaderboard"): settings keys, screenshots, tests.
    virtual QString pageId() const = 0;

    struct NamedChart
    {
        QString name;
        ExportableChart* chart = nullptr;
    };
    /// The charts this page can export; the first is the default.
    virtual QList<NamedChart> charts() { return {}; }
    /// The page's table as a report, for export; nullopt when the page has none.
    virtual std::optional<Report> table() const { return std::nullopt; }
    /// Caption of the exported table (LaTeX \caption, suggested file name).
    virtual QString tableCaption() const { return title(); }

    /// True while the page waits for scoring or aggregation.
    bool isLoading() const { return m_loading; }
    /// The report shown, or nullptr.
    ReportDataPtr currentReport() const { return m_report; }

    /// Scored sets of at least this many records are aggregated twice: point estimates first (shown at once), then
    /// with their bootstrap intervals, which take seconds at a million records.
    static constexpr std::size_t kPointEstimatesFirstFrom = 100000;
    /// Changes that threshold for this page (tests use small sets).
    void setPointEstimatesFirstFrom(std::size_t records) { m_pointEstimatesFirstFrom = records; }
    /// How often the point estimates followed a gold edit from the sums kept of the earlier set's (PointEstimates)
    /// instead of being aggregated anew, since the workspace's store was opened (tests, diagnostics).
    int pointEstimatesUpdated() const;

Q_SIGNALS:
    /// The user asked for the cases behind a row or cell (model, strategy, category...).
    void drillDown(const structscope::GroupKey& key);
    void loadingChanged(bool loading);
    /// A result was applied (tests and screenshots wait for it).
    void reportApplied();
    /// A report saved at the last scoring of an unchanged store was applied while the store is scored again
    /// (the page stays loading; reportApplied() follows with the computed report).
    void savedReportApplied();
    /// The point estimates of a large set were applied while its bootstrap intervals are computed (the page stays
    /// loading; reportApplied() follows with the complete report).
    void pointEstimatesApplied();

protected:
    Workspace* workspace() const { return m_workspace; }
    /// (Re)loads the page's data; called when it is shown after the data changed, or at once
    /// while it is visible. Implementations call requestReport().
    virtual void reload() = 0;
    /// The newest requested report (nullptr when no workspace is open, or on failure with `error`).
    virtual void reportReady(const ReportDataPtr& data, const QString& error) = 0;
    /// Scores (if needed) and aggregates in the background; reportReady() follows. With `sideBySide`,
    /// both gold bases are scored and the report holds each group twice, measured then adjusted, told
    /// apart by a last key "gold" (goldSideBySide()); `gold` is then ignored.
    void requestReport(GoldBasis gold, const AggregateOptions& options, bool sideBySide = false);
    /// As requestReport(), for a page that shows the scored set itself (RecordsPage): nothing is aggregated and no
    /// saved report stands in; reportReady() gets an empty report once the set is scored.
    void requestScoredSet(GoldBasis gold);
    /// Makes `status` say what the page waits for: "Scoring…" while loading, that saved results are shown while a
    /// saved report stands in, and that intervals are computed while point estimates are shown (the tooltip says
    /// what is shown).
    void showLoadingIn(QLabel* status);

    void showEvent(QShowEvent* event) override;

private:
    void request(GoldBasis gold, const AggregateOptions& options, bool sideBySide, bool setOnly);
    void markStale();
    void aggregate(const ScoredSetPtr& set);
    void aggregateBoth(const ScoredSetPtr& measured, const ScoredSetPtr& adjusted);
    void applyReport(quint64 generation, const ReportDataPtr& data);
    /// Shows the point estimates, unless the request changed or the complete report came first.
    void applyPointEstimates(quint64 generation, const ReportDataPtr& data);
    /// Loads the report saved for the request in the background and shows it, unless the computed one came first.
    void loadSavedReport();
    void failScoring(const ScoredSetPtr& set);
    /// With both bases wanted: aggregates once both sets are scored; false while one is missing.
    bool tryBoth();
    void setLoading(bool loading);

    Workspace* m_workspace;
    bool m_stale = true;
    bool m_loading = false;
    bool m_waitingForScores = false;
    quint64 m_generation = 0;
    GoldBasis m_gold = GoldBasis::Measured;
    bool m_sideBySide = false;
    bool m_setOnly = false;
    AggregateOptions m_options;
    ReportDataPtr m_report;
    bool m_computedApplied = false; ///< the computed report of the current request was applied
    std::size_t m_pointEstimatesFirstFrom = kPointEstimatesFirstFrom;
    bool m_savedApplied = false; ///< a saved (complete) report of the current request is shown
    /// The point estimates last computed for a large set, with their sums, shared with the page's jobs.
    std::shared_ptr<KeptEstimates> m_kept;
    // Qt 6.4's then(context, …) must find its context alive when the job ends: the page waits for
    // its own jobs before it goes away.
    QThreadPool m_pool;
};

} // namespace structscope
