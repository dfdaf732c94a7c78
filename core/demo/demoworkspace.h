// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "providers/strategy.h"
#include "store/rows.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace structscope {

class ResultStore;

/// What the demo workspace holds: built-in suites answered by simulated models (docs/user-guide.md
/// "About the data"), one stored run per (suite, profile, strategy).
struct DemoPlan
{
    QStringList suites; ///< built-in suite names; empty: every built-in suite found (builtInSuiteNames())
    QStringList profiles; ///< simulated profiles; empty: every built-in profile (simProfiles())
    QList<Strategy> strategies; ///< at least one
    int repeats = 1;
    /// Store each suite's gold with the mistakes of demoGoldMistakes() (demo/demogoldmistakes.h) in revision 0,
    /// while the simulated models answer from the suite's own, correct gold: the Audit page then has them to
    /// find. False: the gold is stored as the suite ships it.
    bool plantGoldMistakes = true;
};

/// The demo as shipped: every built-in suite and profile under P and J+ (prompt only vs. the response
/// schema as output format), one repeat — the Compare page gets a within-model pair per profile.
DemoPlan defaultDemoPlan();

/// Called with (done, total) answers while the demo runs; return false to cancel.
using DemoProgress = std::function<bool(qint64 done, qint64 total)>;

/// How a demo went.
struct DemoOutcome
{
    QList<RunRow> runs; ///< as stored when they started, in the order they ran
    QStringList suites; ///< the suite ids that ran
    qint64 total = 0; ///< answers the plan asks for
    qint64 stored = 0; ///< answers stored (errors included)
    int plantedMistakes = 0; ///< gold mistakes planted in the stored suites (DemoPlan::plantGoldMistakes)
    qint64 elapsedMs = 0;
    QString error; ///< set when the demo could not start or a runner stopped early
    bool cancelled = false;

    bool ok() const { return error.isEmpty() && !cancelled; }
};

/// Runs the plan into `store`, which must hold no runs yet (the demo's leaderboard would otherwise mix
/// with earlier results), through the asynchronous Runner: one suite after the other, each in a local
/// event loop on the calling thread (any thread with no other use of `store`). Returns when every
/// answer is stored, on cancellation, or on the first error. Simulated runs carry provider kind "sim"
/// and model labels "sim:<profile>", so every view and export marks them as simulated.
/// With DemoPlan::plantGoldMistakes, each suite is stored first with its planted gold under the built-in
/// suite's own id and content hash (its runs were made from those files, and a resume or retry finds the
/// suite by that hash); the runner then finds it stored and adds only the runs.
DemoOutcome runDemo(ResultStore& store, const DemoPlan& plan = defaultDemoPlan(), const DemoProgress& progress = {});

/// Opens (creating it when missing) the store at `location` and runs the demo into it.
DemoOutcome runDemo(
    const QString& location, const DemoPlan& plan = defaultDemoPlan(), const DemoProgress& progress = {});

} // namespace structscope
