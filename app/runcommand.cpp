// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "runconsole.h"

#include "providers/costestimate.h"
#include "providers/errorkind.h"
#include "providers/modelspec.h"
#include "providers/pricetable.h"
#include "providers/strategy.h"
#include "run/runner.h"
#include "store/resultstore.h"
#include "suite/suiteloader.h"
#include "suite/suitelocator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTimer>

#include <atomic>
#include <csignal>
#include <cstdio>

#include <unistd.h>

using namespace Qt::StringLiterals;

namespace structscope::cli {

namespace {

std::atomic_int g_interrupts = 0;
std::atomic_bool g_stop = false; ///< set by Ctrl-C: keeping verdicts stops between chunks

extern "C" void onInterrupt(int)
{
    g_stop = true;
    // A second Ctrl-C while the first is being handled ends the process the hard way.
    if (g_interrupts.fetch_add(1) >= 1) {
        std::signal(SIGINT, SIG_DFL);
        std::raise(SIGINT);
    }
}

int usage(const QString& message)
{
    return usageError(u"run"_s, message);
}

QStringList splitValues(const QStringList& values)
{
    QStringList out;
    for (const QString& v : values) {
        for (const QString& part : v.split(u',', Qt::SkipEmptyParts))
            out << part.trimmed();
    }
    return out;
}

bool readPositive(const QCommandLineParser& parser, const QString& name, int& out)
{
    if (!parser.isSet(name))
        return true;
    bool ok = false;
    out = parser.value(name).toInt(&ok);
    return ok && out >= 1;
}

SuitePtr loadSuiteOrReport(const QString& nameOrDir)
{
    QString error;
    const QString dir = resolveSuitePath(nameOrDir, &error);
    if (dir.isEmpty()) {
        err(u"structscope run: %1\n"_s.arg(error));
        return nullptr;
    }
    const SuiteLoadResult loaded = loadSuiteDir(dir);
    if (!loaded.ok()) {
        for (const Problem& p : loaded.problems)
            err(p.toString() + u'\n');
        err(u"structscope run: the suite in %1 has %2 problem(s); run 'structscope check --suite %1'\n"_s.arg(
            dir, QString::number(loaded.problems.size())));
        return nullptr;
    }
    return loaded.suite;
}

QList<qint64> runIds(const QStringList& values, bool* ok)
{
    QList<qint64> ids;
    *ok = true;
    for (const QString& v : splitValues(values)) {
        bool isNumber = false;
        const qint64 id = v.toLongLong(&isNumber);
        if (!isNumber || id < 1) {
            *ok = false;
            return {};
        }
        ids << id;
    }
    return ids;
}

/// The runs among `runs` that hold no model answer: every slot stored so far failed at the transport or the
/// provider (docs/metrics.md, "Errored slots"). A run with nothing stored at all holds none either.
QStringList runsWithoutAnswer(ResultStore& store, const QList<RunRow>& runs)
{
    QStringList ids;
    for (const RunRow& run : runs) {
        bool answered = false;
        const auto visited = store.forEachResponse(
            run.id,
            [&answered](const ResponseRow& r) {
                const auto kind = errorKindFromName(r.errorKind);
                answered = !kind || !isTransportError(*kind);
                return !answered;
            },
            ResponseFields::ForScoring);
        if (visited.ok() && !answered)
            ids << QString::number(run.id);
    }
    return ids;
}

/// What `structscope run` was asked to do, read from its command line.
struct RunArguments
{
    bool resuming = false; ///< --resume: continue stored runs
    bool retrying = false; ///< --retry-errors: ask stored runs' errored slots again
    bool trustStore = false; ///< --trust-store-origin
    QList<ModelSpec> models;
    QList<Strategy> strategies;
    int repeats = 1;
    RunnerOptions options;
    PriceTable prices;
    QList<qint64> storedRuns; ///< the runs to resume or retry
};

/// Declares every option of `structscope run`.
void addRunOptions(QCommandLineParser& parser)
{
    parser.setApplicationDescription(u"Run a suite against models and store every response as it arrives."_s);
    parser.addHelpOption();
    parser.addOption(
        { u"suite"_s, u"Suite folder, or the name of a built-in suite (%1)."_s.arg(builtInSuiteNames().join(u", "_s)),
            u"DIR|NAME"_s });
    parser.addOption({ u"model"_s,
        u"Model spec, repeatable: openai:MODEL[@URL], ollama:MODEL[@URL] or sim:PROFILE, "
        "with ;key_env=VAR ;temperature=X ;max_tokens=N ;seed=N ;stream ;case_headers ;header=NAME:$VAR. "
        "API keys are read from the environment: OPENAI_API_KEY for https://api.openai.com, for any other URL "
        "only the variable named by ;key_env."_s,
        u"SPEC"_s });
    parser.addOption(
        { u"strategy"_s, u"P, J, PJ, J+ or PJ+; repeatable or comma-separated (default: all five)."_s, u"S"_s });
    parser.addOption({ u"repeats"_s, u"Samples per case (default 1)."_s, u"K"_s, u"1"_s });
    parser.addOption({ u"concurrency"_s, u"Requests in flight per model (default 4)."_s, u"N"_s, u"4"_s });
    parser.addOption(
        { u"global-concurrency"_s, u"Requests in flight in total (default: N × models, at most 256)."_s, u"N"_s });
    parser.addOption(
        { u"store"_s, u"SQLite file or postgresql:// URL (default structscope.db)."_s, u"DB"_s, u"structscope.db"_s });
    parser.addOption(
        { u"resume"_s, u"Continue stored runs, asking only for unanswered (case, repeat) slots."_s, u"RUN"_s });
    parser.addOption({ u"new-run"_s,
        u"Start new runs even when the same command was stopped before it finished (by default it is continued: "
        u"same store, suite content, model spec, strategy and repeats)."_s });
    parser.addOption({ u"retry-errors"_s, u"Ask the errored slots of stored runs again, in new runs."_s, u"RUN"_s });
    parser.addOption(
        { u"error-kind"_s, u"With --retry-errors: only these kinds (e.g. timeout,http_5xx)."_s, u"KIND"_s });
    parser.addOption({ u"trust-store-origin"_s,
        u"With --resume or --retry-errors: send keys and $VAR headers to the endpoints the store names, not only "
        "to those given again with --model."_s });
    parser.addOption(
        { u"allow-insecure-key"_s, u"Send keys and $VAR headers over plain http to hosts that are not loopback."_s });
    parser.addOption({ u"no-cache"_s, u"Send every request, even one answered before with the same request."_s });
    parser.addOption({ u"prices"_s, u"Price table (JSON) instead of the user's or the built-in one."_s, u"FILE"_s });
    parser.addOption({ u"timeout"_s, u"Seconds for one call, the whole of it (default 600)."_s, u"S"_s });
    parser.addOption({ u"max-attempts"_s, u"Attempts per slot, the first included (default 4)."_s, u"N"_s });
    parser.addOption({ u"estimate"_s, u"Print the cost estimate and stop."_s });
    parser.addOption({ u"no-keep-verdicts"_s,
        u"Do not score the answers and keep their verdicts in the store when the run ends (the app and reports then "
        u"score them when they open it)."_s });
}

/// Reads and checks the command line into `asked`; an exit code when it is not valid.
std::optional<int> readRunArguments(const QCommandLineParser& parser, RunArguments& asked)
{
    asked.resuming = parser.isSet(u"resume"_s);
    asked.retrying = parser.isSet(u"retry-errors"_s);
    if (asked.resuming && asked.retrying)
        return usage(u"--resume and --retry-errors do not go together"_s);
    if ((asked.resuming || asked.retrying) && parser.isSet(u"new-run"_s))
        return usage(u"--new-run does not go with --resume or --retry-errors"_s);
    if (!asked.resuming && !asked.retrying && !parser.isSet(u"suite"_s))
        return usage(u"--suite DIR|NAME is required"_s);
    if (!asked.resuming && !asked.retrying && !parser.isSet(u"model"_s))
        return usage(u"at least one --model SPEC is required (e.g. --model sim:careful)"_s);

    for (const QString& text : parser.values(u"model"_s)) {
        QString error;
        const auto spec = parseModelSpec(text, &error);
        if (!spec)
            return usage(u"--model %1: %2"_s.arg(text, error));
        asked.models << *spec;
    }
    for (const QString& name : splitValues(parser.values(u"strategy"_s))) {
        const auto s = strategyFromName(name);
        if (!s)
            return usage(u"unknown strategy '%1' (use P, J, PJ, J+ or PJ+)"_s.arg(name));
        if (!asked.strategies.contains(*s))
            asked.strategies << *s;
    }
    if (asked.strategies.isEmpty())
        asked.strategies = allStrategies();

    if (!readPositive(parser, u"repeats"_s, asked.repeats))
        return usage(u"--repeats needs a whole number ≥ 1"_s);
    if (!readPositive(parser, u"concurrency"_s, asked.options.perModelConcurrency))
        return usage(u"--concurrency needs a whole number ≥ 1"_s);
    if (!readPositive(parser, u"max-attempts"_s, asked.options.maxAttempts))
        return usage(u"--max-attempts needs a whole number ≥ 1"_s);
    int timeoutSeconds = 600;
    if (!readPositive(parser, u"timeout"_s, timeoutSeconds))
        return usage(u"--timeout needs a whole number of seconds ≥ 1"_s);
    asked.options.totalTimeout = std::chrono::seconds(timeoutSeconds);
    asked.options.idleTimeout = std::min(asked.options.idleTimeout, asked.options.totalTimeout);
    const qsizetype endpoints = std::max<qsizetype>({ 1, asked.models.size(), parser.values(u"resume"_s).size() });
    asked.options.globalConcurrency = std::min(256, asked.options.perModelConcurrency * int(endpoints));
    if (!readPositive(parser, u"global-concurrency"_s, asked.options.globalConcurrency))
        return usage(u"--global-concurrency needs a whole number ≥ 1"_s);
    asked.options.useCache = !parser.isSet(u"no-cache"_s);
    asked.options.allowInsecureKey = parser.isSet(u"allow-insecure-key"_s);
    asked.trustStore = parser.isSet(u"trust-store-origin"_s);
    if (asked.trustStore && !asked.resuming && !asked.retrying)
        return usage(u"--trust-store-origin goes with --resume or --retry-errors"_s);

    if (parser.isSet(u"prices"_s)) {
        QString error;
        const auto table = PriceTable::load(parser.value(u"prices"_s), &error);
        if (!table)
            return usage(u"--prices: %1"_s.arg(error));
        asked.prices = *table;
    } else {
        QString warning;
        asked.prices = PriceTable::loadDefault(&warning);
        if (!warning.isEmpty())
            err(u"structscope run: %1\n"_s.arg(warning));
    }

    bool idsOk = true;
    asked.storedRuns = runIds(parser.values(asked.resuming ? u"resume"_s : u"retry-errors"_s), &idsOk);
    if (!idsOk)
        return usage(u"run ids are whole numbers ≥ 1 (see 'structscope report --by run')"_s);
    return std::nullopt;
}

/// Starts the runs asked for: new ones, or stored runs resumed or retried; false, with why in `error`, when the
/// runner refuses.
bool startRuns(
    Runner& runner, const QCommandLineParser& parser, const RunArguments& asked, const SuitePtr& suite, QString* error)
{
    if (asked.resuming)
        return runner.resume({ suite, asked.storedRuns, asked.models, asked.options, asked.trustStore }, error);
    if (asked.retrying) {
        return runner.retryErrors({ suite, asked.storedRuns, splitValues(parser.values(u"error-kind"_s)), asked.models,
                                      asked.options, asked.trustStore },
            error);
    }
    RunPlan plan;
    plan.suite = suite;
    plan.models = asked.models;
    plan.strategies = asked.strategies;
    plan.repeats = asked.repeats;
    plan.options = asked.options;
    plan.continueUnfinished = !parser.isSet(u"new-run"_s);
    return runner.start(plan, error);
}

/// The exit code of a run that has ended: failure when it did not finish, or when a run got no answer at all.
int runExitCode(ResultStore& store, const Runner& runner, RunStatus status)
{
    if (status != RunStatus::Finished) {
        QStringList ids;
        for (const RunRow& run : runner.runs())
            ids << QString::number(run.id);
        err(u"structscope run: %1; give the same command again, or --resume %2, to continue\n"_s.arg(
            runStatusName(status), ids.join(u',')));
        return ExitFailure;
    }
    // A run that got no answer from its model measured nothing: a script must not read it as a success.
    if (const QStringList empty = runsWithoutAnswer(store, runner.runs()); !empty.isEmpty()) {
        err(u"structscope run: run %1 ended without a single answer from its model (every slot errored; see the "
            u"errors column above)\n"_s.arg(empty.join(u',')));
        return ExitFailure;
    }
    return ExitOk;
}

} // namespace

int runCommand(const QStringList& args)
{
    QCommandLineParser parser;
    addRunOptions(parser);
    if (const std::optional<int> exit = parseCommandLine(parser, args, u"run"_s, Positional::Refused))
        return *exit;

    RunArguments asked;
    if (const std::optional<int> exit = readRunArguments(parser, asked))
        return *exit;

    // The suite: given, or (resume / retry) the one the first stored run was made with, found by its id.
    QString suiteName = parser.value(u"suite"_s);
    SuitePtr suite;
    if (!suiteName.isEmpty() && !(suite = loadSuiteOrReport(suiteName)))
        return ExitFailure;

    StoreError openError;
    auto store = ResultStore::open(parser.value(u"store"_s), ResultStore::OpenOptions {}, &openError);
    if (!store) {
        err(u"structscope run: %1\n"_s.arg(openError.message));
        return ExitFailure;
    }
    if (!suite) {
        const auto run = store->run(asked.storedRuns.value(0));
        const auto stored = run ? store->suite(run->suiteRow) : StoreResult<SuiteRow>(run.error());
        if (!stored) {
            err(u"structscope run: %1\n"_s.arg(stored.errorMessage()));
            return ExitFailure;
        }
        if (!(suite = loadSuiteOrReport(stored->id)))
            return ExitFailure;
    }

    if (!asked.resuming && !asked.retrying) {
        const CostEstimate estimate = estimateCost(*suite, asked.models, asked.strategies, asked.repeats, asked.prices);
        err(formatEstimate(estimate));
        if (parser.isSet(u"estimate"_s))
            return ExitOk;
    }

    Runner runner(*store);
    runner.setPriceTable(asked.prices);
    RunConsole console(isatty(fileno(stderr)));
    QObject::connect(
        &runner, &Runner::progressChanged, &runner, [&console](const RunnerProgress& p) { console.show(p); });
    QObject::connect(&runner, &Runner::warning, &runner,
        [&console](const QString& message) { console.message(u"warning: "_s + message); });
    RunStatus status = RunStatus::Finished;
    QObject::connect(&runner, &Runner::finished, &runner, [&status](RunStatus s) {
        status = s;
        QCoreApplication::exit(0);
    });

    QString error;
    if (!startRuns(runner, parser, asked, suite, &error)) {
        err(u"structscope run: %1\n"_s.arg(error));
        return ExitFailure;
    }
    // The same command given again after a crash or Ctrl-C continues its runs: say so, and how far they got.
    const QList<qint64> continued = runner.continuedRuns();
    for (const RunProgress& run : runner.progress().runs) {
        if (continued.contains(run.runId))
            err(u"structscope run: resuming run %1 (%2, %3): %4 of %5 slots answered before; --new-run starts a "
                u"new run instead\n"_s.arg(QString::number(run.runId), run.model, run.strategy,
                    QString::number(run.done), QString::number(run.total)));
    }

    g_interrupts = 0;
    g_stop = false;
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    QTimer interruptPoll;
    QObject::connect(&interruptPoll, &QTimer::timeout, &runner, [&] {
        if (g_interrupts.load() > 0 && runner.isActive()) {
            console.message(u"interrupted: storing what arrived; give the same command again to continue"_s);
            runner.cancel(RunStatus::Interrupted);
        }
    });
    interruptPoll.start(100);
    if (runner.isActive())
        QCoreApplication::exec();
    interruptPoll.stop();
    console.finish();
    out(formatSummary(*store, runner.runs()));
    // The answers that arrived are scored now, once, rather than by every later report and the app's first
    // opening (about 6 s at a million answers, where kept verdicts open in about 2) — unless the run was
    // interrupted: then the user wants out. After the summary, which does not wait for it.
    if (!parser.isSet(u"no-keep-verdicts"_s) && g_interrupts.load() == 0)
        keepVerdictsOfStore(*store, u"run"_s, &g_stop);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);

    return runExitCode(*store, runner, status);
}

} // namespace structscope::cli
