// Runner throughput against serve-sim (in process, on its own thread): N requests at a given
// concurrency with 0 ms latency (requests/s, runner cost per request) and with a fixed latency
// (wall time against the ideal N × latency / concurrency).
//
//   runnerbench [REQUESTS=10000] [CONCURRENCY=64] [LATENCY_MS=50]
#include "run/runner.h"
#include "run/suitelocator.h"
#include "sim/simserver.h"
#include "store/resultstore.h"
#include "suite/suiteloader.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>

using namespace Qt::StringLiterals;
using namespace structscope;

namespace {

struct Result
{
    double seconds = 0;
    qint64 answered = 0;
    qint64 errors = 0;
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
            server->setOptions({ latencyMs, 0, 1, 1 });
            port = server->listen();
        },
        Qt::BlockingQueuedConnection);

    Result result;
    {
        auto store = ResultStore::open(dir + u"/bench-%1.db"_s.arg(latencyMs));
        Runner runner(*store);
        RunPlan plan;
        plan.suite = suite;
        plan.models = { *parseModelSpec(u"openai:oracle@http://127.0.0.1:%1/v1;key_env="_s.arg(port)) };
        plan.strategies = { Strategy::J };
        plan.repeats = std::max<int>(1, int((requests + suite->cases.size() - 1) / suite->cases.size()));
        plan.options.perModelConcurrency = concurrency;
        plan.options.globalConcurrency = concurrency;
        plan.options.writerBatch = 256;
        QElapsedTimer clock;
        QObject::connect(&runner, &Runner::finished, &runner, [] { QCoreApplication::exit(0); });
        QString error;
        clock.start();
        if (!runner.start(plan, &error)) {
            std::fprintf(stderr, "runnerbench: %s\n", qPrintable(error));
            std::exit(2);
        }
        QCoreApplication::exec();
        result.seconds = double(clock.nsecsElapsed()) / 1e9;
        result.answered = runner.progress().done;
        for (const qint64 n : runner.progress().errorsByKind)
            result.errors += n;
    }
    QMetaObject::invokeMethod(
        &context, [&] { delete server; }, Qt::BlockingQueuedConnection);
    thread.quit();
    thread.wait();
    return result;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const int requests = argc > 1 ? std::atoi(argv[1]) : 10000;
    const int concurrency = argc > 2 ? std::atoi(argv[2]) : 64;
    const double latency = argc > 3 ? std::atof(argv[3]) : 50;
    const SuiteLoadResult loaded = loadSuiteDir(resolveSuitePath(u"email-extraction"_s));
    if (!loaded.ok()) {
        std::fprintf(stderr, "runnerbench: cannot load the email-extraction suite\n");
        return 2;
    }
    QTemporaryDir dir;
    const Result fast = runOnce(loaded.suite, requests, concurrency, 0, dir.path());
    std::printf(
        "latency 0 ms, concurrency %d: %lld requests in %.2f s = %.0f requests/s (%.3f ms per request), %lld errors\n",
        concurrency, static_cast<long long>(fast.answered), fast.seconds, double(fast.answered) / fast.seconds,
        1000.0 * fast.seconds / double(fast.answered), static_cast<long long>(fast.errors));
    const Result slow = runOnce(loaded.suite, requests, concurrency, latency, dir.path());
    const double ideal = double(slow.answered) * latency / 1000.0 / concurrency;
    std::printf("latency %.0f ms, concurrency %d: %lld requests in %.2f s; ideal %.2f s; %+.1f%%, %lld errors\n",
        latency, concurrency, static_cast<long long>(slow.answered), slow.seconds, ideal,
        100.0 * (slow.seconds / ideal - 1), static_cast<long long>(slow.errors));
    return 0;
}
