#pragma once

#include "providers/modelspec.h"
#include "providers/strategy.h"
#include "run/runplan.h"
#include "store/records.h"
#include "store/storeresult.h"

#include <nlohmann/json.hpp>

#include <QHash>
#include <QSet>
#include <QString>

#include <optional>

namespace structscope {

class ResultStore;
struct Suite;

/// A suite as stored: its row and the row of each case id.
struct StoredSuite
{
    qint64 suiteRow = 0;
    QHash<QString, qint64> caseRows; ///< case id → case row
};

/// Imports the suite (a no-op when this exact content is stored) and maps its case ids to rows.
StoreResult<StoredSuite> storeSuiteForRun(ResultStore& store, const Suite& suite);

/// The settings stored with a run: request parameters, the key's variable name, non-secret extra headers,
/// concurrency, cache use. Never a secret (see secretkeys.h).
nlohmann::json runSettings(const ModelSpec& spec, const RunnerOptions& options);

/// The run record for one model × strategy of a suite.
RunRecord makeRunRecord(const StoredSuite& stored, const Suite& suite, const ModelSpec& spec, Strategy strategy,
    int repeats, const nlohmann::json& settings);

/// The spec a stored run was made with: its model spec text plus the headers in its settings, or the
/// spec in `overrides` with the same endpoint (which brings back headers that were not stored).
std::optional<ModelSpec> specForRun(const RunRecord& run, const QList<ModelSpec>& overrides, QString* error);

/// The latest stored run of one (model, strategy) of a plan, and how far it got.
struct PlanRunMatch
{
    int model = 0; ///< index into RunPlan::models
    int strategy = 0; ///< index into RunPlan::strategies
    std::optional<RunRecord> latest; ///< none: the plan was never run for this pair
    qint64 answered = 0; ///< (case, repeat) slots of `latest` with a stored answer, errors included
    qint64 total = 0; ///< slots of `latest`: cases × repeats

    /// A run stopped before every slot had an answer (killed, interrupted, cancelled): giving the plan again
    /// continues it.
    bool unfinished() const { return latest && latest->status != RunStatus::Finished && answered < total; }
};

/// For every (model, strategy) of `plan`, the latest stored run made with the same suite content, model spec
/// (as stored, without headers), strategy and repeats; a run that retries another one's errors is not one.
/// In the order the runner creates runs: models, then strategies.
StoreResult<QList<PlanRunMatch>> matchPlanRuns(ResultStore& store, const StoredSuite& stored, const RunPlan& plan);

/// The slots of a run that another run retried successfully (following settings.retry_of), so a
/// second retry of the same run does not ask them again.
StoreResult<QSet<ResponseKey>> keysRetriedSuccessfully(ResultStore& store, const RunRecord& run);

} // namespace structscope
