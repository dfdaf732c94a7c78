// SPDX-License-Identifier: Apache-2.0
#include "demo/demoworkspace.h"

#include "demo/demogoldmistakes.h"
#include "providers/modelspec.h"
#include "run/runner.h"
#include "sim/simprofile.h"
#include "store/resultstore.h"
#include "store/suiteimport.h"
#include "suite/suiteloader.h"
#include "suite/suitelocator.h"

#include <QElapsedTimer>
#include <QEventLoop>

#include <optional>
#include <vector>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

struct LoadedPlan
{
    std::vector<SuitePtr> suites;
    std::vector<std::optional<SuiteImport>> planted; ///< parallel to suites: the suite with its planted gold, if any
    std::vector<int> plantedMistakes; ///< parallel to suites
    QList<ModelSpec> models;
    qint64 total = 0;
};

bool loadPlan(const DemoPlan& plan, LoadedPlan& loaded, QString* error)
{
    if (plan.strategies.isEmpty() || plan.repeats < 1) {
        *error = u"the demo needs at least one strategy and one repeat"_s;
        return false;
    }
    const QStringList names = plan.suites.isEmpty() ? builtInSuiteNames() : plan.suites;
    if (names.isEmpty()) {
        *error
            = u"no built-in suites were found (looked in: %1; set STRUCTSCOPE_DATASETS to the datasets folder)"_s.arg(
                builtInSuiteRoots().isEmpty() ? u"nothing that exists"_s : builtInSuiteRoots().join(u", "_s));
        return false;
    }
    QStringList profiles = plan.profiles;
    if (profiles.isEmpty()) {
        for (const SimProfile& p : simProfiles())
            profiles << p.name;
    }
    for (const QString& profile : std::as_const(profiles)) {
        if (!findSimProfile(profile)) {
            *error = u"unknown simulated profile '%1'"_s.arg(profile);
            return false;
        }
        loaded.models << ModelSpec { ProviderKind::Sim, profile, {}, {}, {}, 0, std::nullopt, std::nullopt, false };
    }
    for (const QString& name : names) {
        QString problem;
        const QString dir = resolveSuitePath(name, &problem);
        if (dir.isEmpty()) {
            *error = problem;
            return false;
        }
        const SuiteLoadResult result = loadSuiteDir(dir);
        if (!result.ok()) {
            *error = u"the built-in suite in %1 does not load: %2"_s.arg(
                dir, result.problems.isEmpty() ? u"unknown problem"_s : result.problems.constFirst().toString());
            return false;
        }
        loaded.suites.push_back(result.suite);
        std::optional<SuiteImport> planted;
        if (plan.plantGoldMistakes && !demoGoldMistakesOf(result.suite->id).empty()) {
            planted = makeSuiteImport(*result.suite);
            planted->author = u"structscope demo"_s;
            int count = 0;
            if (!plantDemoGoldMistakes(*planted, error, &count))
                return false;
            loaded.plantedMistakes.push_back(count);
        } else {
            loaded.plantedMistakes.push_back(0);
        }
        loaded.planted.push_back(std::move(planted));
        loaded.total
            += qint64(result.suite->cases.size()) * loaded.models.size() * plan.strategies.size() * plan.repeats;
    }
    return true;
}

RunnerOptions demoOptions()
{
    RunnerOptions options;
    // Simulated answers come from the event loop, never from a server: no limit is needed to be polite,
    // nothing is cached (a new store holds nothing to reuse), and fewer, larger transactions are faster.
    options.perModelConcurrency = 64;
    options.globalConcurrency = 512;
    options.maxAttempts = 1;
    options.useCache = false;
    options.writerBatch = 512;
    options.writerDelay = std::chrono::milliseconds(200);
    return options;
}

} // namespace

DemoPlan defaultDemoPlan()
{
    DemoPlan plan;
    plan.strategies = { Strategy::P, Strategy::JPlus };
    return plan;
}

DemoOutcome runDemo(ResultStore& store, const DemoPlan& plan, const DemoProgress& progress)
{
    DemoOutcome outcome;
    QElapsedTimer clock;
    clock.start();
    const auto existing = store.runs();
    if (!existing) {
        outcome.error = existing.errorMessage();
        return outcome;
    }
    if (!existing->isEmpty()) {
        outcome.error = u"%1 already holds %2 run(s); the demo fills a new, empty store"_s.arg(
            store.displayName(), QString::number(existing->size()));
        return outcome;
    }
    if (store.isReadOnly()) {
        outcome.error = u"%1 is read-only: %2"_s.arg(store.displayName(), store.readOnlyReason());
        return outcome;
    }
    LoadedPlan loaded;
    if (!loadPlan(plan, loaded, &outcome.error))
        return outcome;
    outcome.total = loaded.total;
    if (progress && !progress(0, outcome.total)) {
        outcome.cancelled = true;
        return outcome;
    }

    for (std::size_t i = 0; i < loaded.suites.size(); ++i) {
        const SuitePtr& suite = loaded.suites[i];
        // Stored first with its planted gold: the runner then finds this (id, content hash) stored and keeps it.
        if (const std::optional<SuiteImport>& planted = loaded.planted[i]) {
            const auto imported = store.importSuite(*planted);
            if (!imported) {
                outcome.error = u"%1: %2"_s.arg(suite->id, imported.errorMessage());
                break;
            }
            // A store that held this suite already (with no runs) keeps its gold as it is.
            if (imported->created)
                outcome.plantedMistakes += loaded.plantedMistakes[i];
        }
        Runner runner(store);
        // The built-in table prices simulated tokens (so cost per success has values), and keeps the
        // demo the same whatever the user's prices.json says.
        runner.setPriceTable(PriceTable::builtIn());
        QEventLoop loop;
        RunStatus status = RunStatus::Finished;
        const qint64 before = outcome.stored;
        QObject::connect(&runner, &Runner::progressChanged, &loop, [&](const RunnerProgress& p) {
            outcome.stored = before + p.doneThisSession;
            if (progress && !progress(outcome.stored, outcome.total) && runner.isActive()) {
                outcome.cancelled = true;
                runner.cancel();
            }
        });
        QObject::connect(&runner, &Runner::warning, &loop, [&outcome](const QString& message) {
            // A batch the store refused is lost for the demo: say so rather than show a partial leaderboard.
            if (outcome.error.isEmpty())
                outcome.error = message;
        });
        QObject::connect(&runner, &Runner::finished, &loop, [&](RunStatus s) {
            status = s;
            loop.quit();
        });
        RunPlan runPlan;
        runPlan.suite = suite;
        runPlan.models = loaded.models;
        runPlan.strategies = plan.strategies;
        runPlan.repeats = plan.repeats;
        runPlan.options = demoOptions();
        QString error;
        if (!runner.start(runPlan, &error)) {
            outcome.error = u"%1: %2"_s.arg(suite->id, error);
            break;
        }
        outcome.suites << suite->id;
        outcome.runs << runner.runs();
        if (runner.isActive())
            loop.exec();
        if (outcome.cancelled || status != RunStatus::Finished) {
            outcome.cancelled = true;
            break;
        }
        if (!outcome.error.isEmpty())
            break;
    }
    outcome.elapsedMs = clock.elapsed();
    return outcome;
}

DemoOutcome runDemo(const QString& location, const DemoPlan& plan, const DemoProgress& progress)
{
    ResultStore::OpenOptions options;
    options.createIfMissing = true;
    options.integrityCheck = false;
    StoreError error;
    auto store = ResultStore::open(location, options, &error);
    if (!store) {
        DemoOutcome outcome;
        outcome.error = error.message;
        return outcome;
    }
    return runDemo(*store, plan, progress);
}

} // namespace structscope
