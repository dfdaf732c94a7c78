// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "providers/modelspec.h"
#include "providers/strategy.h"
#include "run/runplan.h"
#include "store/rows.h"
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

/// The settings stored with a run: request parameters, the key's variable name, the extra headers' names
/// and `$VAR` references (never a literal value; not for names that look secret), concurrency, cache use.
/// Never a secret (see secretkeys.h).
nlohmann::json runSettings(const ModelSpec& spec, const RunnerOptions& options);

/// The run record for one model × strategy of a suite.
RunRow makeRunRow(const StoredSuite& stored, const Suite& suite, const ModelSpec& spec, Strategy strategy, int repeats,
    const nlohmann::json& settings);

/// What a spec rebuilt from a store would read from the user's environment, and where it would send it.
struct StoredEndpoint
{
    qint64 runId = 0;
    QString spec; ///< formatModelSpec(): what to give again to name this endpoint oneself
    QString origin; ///< urlOrigin() of its base URL
    QStringList variables; ///< ModelSpec::environmentVariables()
};

/// The spec a stored run was made with: the spec in `overrides` with the same endpoint (provider, model,
/// base URL) when there is one — the user named it — else its model spec text plus the `$VAR` headers in
/// its settings. A store can come from anyone, so a stored spec that reads environment variables (a key
/// variable, `$VAR` headers) is used only when `trustStore` says so; otherwise nullopt, and `error` names
/// the origin, the variables and how to confirm them.
std::optional<ModelSpec> specForRun(
    const RunRow& run, const QList<ModelSpec>& overrides, bool trustStore, QString* error);

/// The runs among `runs` whose stored spec would read environment variables with no spec in `overrides`
/// for its endpoint: what specForRun() refuses without `trustStore`, for a person to confirm.
QList<StoredEndpoint> untrustedStoredEndpoints(const QList<RunRow>& runs, const QList<ModelSpec>& overrides);

/// The latest stored run of one (model, strategy) of a plan, and how far it got.
struct PlanRunMatch
{
    int model = 0; ///< index into RunPlan::models
    int strategy = 0; ///< index into RunPlan::strategies
    std::optional<RunRow> latest; ///< none: the plan was never run for this pair
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
StoreResult<QSet<ResponseKey>> keysRetriedSuccessfully(ResultStore& store, const RunRow& run);

} // namespace structscope
