// SPDX-License-Identifier: Apache-2.0
// Runner throughput against serve-sim (in process, on its own thread, as `structscope serve-sim` runs it):
// 10,000 requests (--records N) at concurrency 64 with 0 ms latency (requests/s and the wall time per
// request, which bounds the runner's overhead) and with 50 ms latency (wall time against the ideal
// N × latency / concurrency). Every answer is stored, as in a real run, and scored and kept at its end as
// `structscope run` does.
#include "bench.h"

#include "report/evaluation.h"
#include "run/runner.h"
#include "sim/simserver.h"
#include "store/resultstore.h"
#include "suite/suiteloader.h"
#include "suite/suitelocator.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cstdio>

using namespace Qt::StringLiterals;

namespace structscope::bench {

namespace {

struct Result
{
    double seconds = 0;
    qint64 answered = 0;
    qint64 errors = 0;
    std::vector<double> latenciesMs; ///< request sent → answer read, as the runner records it
    double keepSeconds = 0; ///< scoring the answers and keeping their verdicts, as `structscope run` ends
    qint64 kept = 0;
};

Result runOnce(const SuitePtr& suite, int requests, int concurrency, double latencyMs, const QString& dir)
{
    QThread thread;
    QObject context;
    context.moveToThread(&thread);
    thread.start();
    SimServer* server = nullptr;
    quint16 port = 0;
    QMetaObject::invokeMethod(
        &context,
        [&] {
            server = new SimServer;
            server->addSuite(suite);
            server->setOptions({ latencyMs, 0, 1, 1, {} });
            port = server->listen();
        },
        Qt::BlockingQueuedConnection);

    Result result;
    {
        auto store = ResultStore::open(dir + u"/bench-%1.db"_s.arg(latencyMs));
        if (!store) {
            std::fprintf(stderr, "bench runner: cannot create a store in %s\n", qPrintable(dir));
            std::exit(1);
        }
        Runner runner(*store);
        RunPlan plan;
        plan.suite = suite;
        plan.models = { *parseModelSpec(u"openai:oracle@http://127.0.0.1:%1/v1;case_headers"_s.arg(port)) };
        plan.strategies = { Strategy::J };
        plan.repeats = std::max<int>(1, int((requests + suite->cases.size() - 1) / suite->cases.size()));
        plan.options.perModelConcurrency = concurrency;
        plan.options.globalConcurrency = concurrency;
        plan.options.writerBatch = 256;
        QElapsedTimer clock;
        QObject::connect(&runner, &Runner::finished, &runner, [] { QCoreApplication::exit(0); });
        QObject::connect(&runner, &Runner::responseReceived, &runner, [&result](const ResponseRow& response) {
            if (response.latencyMs)
                result.latenciesMs.push_back(*response.latencyMs);
        });
        QString error;
        clock.start();
        if (runner.start(plan, &error)) {
            QCoreApplication::exec();
        } else {
            std::fprintf(stderr, "bench runner: %s\n", qPrintable(error));
        }
        result.seconds = double(clock.nsecsElapsed()) / 1e9;
        result.answered = runner.progress().done;
        for (const qint64 n : runner.progress().errorsByKind)
            result.errors += n;
        clock.restart();
        const KeptVerdictsSummary keeping = scoreAndKeepVerdicts(*store);
        result.keepSeconds = double(clock.nsecsElapsed()) / 1e9;
        result.kept = keeping.kept;
        if (!keeping.ok()) {
            std::fprintf(stderr, "bench runner: keeping the verdicts failed: %s\n", qPrintable(keeping.error));
            std::exit(1);
        }
    }
    QMetaObject::invokeMethod(
        &context, [&] { delete server; }, Qt::BlockingQueuedConnection);
    thread.quit();
    thread.wait();
    return result;
}

} // namespace

int benchRunner(const BenchArgs& args)
{
    const int requests = args.records > 0 ? args.records : 10000;
    constexpr int concurrency = 64;
    constexpr double latency = 50;
    const SuiteLoadResult loaded = loadSuiteDir(resolveSuitePath(u"email-extraction"_s));
    if (!loaded.ok()) {
        std::fprintf(stderr, "bench runner: cannot load the built-in email-extraction suite\n");
        return 1;
    }
    QTemporaryDir dir;
    const Result fast = runOnce(loaded.suite, requests, concurrency, 0, dir.path());
    if (fast.answered == 0)
        return 1;
    report("runner",
        u"0 ms latency, concurrency %1: %2 requests, %3 errors"_s.arg(concurrency).arg(fast.answered).arg(fast.errors),
        double(fast.answered) / fast.seconds, "requests/s");
    report("runner", u"0 ms latency: wall time per request (runner + server)"_s,
        1000.0 * fast.seconds / double(fast.answered), "ms");
    report("runner", u"then, as `structscope run` ends: scoring and keeping %1 verdicts"_s.arg(fast.kept),
        fast.keepSeconds * 1000.0, "ms");
    Result slow = runOnce(loaded.suite, requests, concurrency, latency, dir.path());
    if (slow.answered == 0)
        return 1;
    const double ideal = double(slow.answered) * latency / 1000.0 / concurrency;
    report("runner", u"50 ms latency, concurrency %1: %2 requests, wall time"_s.arg(concurrency).arg(slow.answered),
        slow.seconds, "s");
    for (const double q : { 0.5, 0.9, 0.99 })
        report("runner", u"50 ms latency: p%1 of a request's latency as the runner measured it"_s.arg(100 * q),
            quantile(slow.latenciesMs, q), "ms");
    report("runner", u"50 ms latency: ideal N x latency / concurrency = %1 s; over ideal"_s.arg(ideal, 0, 'f', 2),
        100.0 * (slow.seconds / ideal - 1), "%");
    report("runner", u"50 ms latency: keeping the verdicts at the end, share of the run's time"_s,
        100.0 * slow.keepSeconds / slow.seconds, "%");
    return fast.errors + slow.errors > 0 ? 1 : 0;
}

} // namespace structscope::bench
