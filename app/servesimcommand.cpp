// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#include "sim/simprofile.h"
#include "sim/simserver.h"
#include "suite/suiteloader.h"
#include "suite/suitelocator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTimer>

#include <csignal>

using namespace Qt::StringLiterals;

namespace structscope::cli {

namespace {

volatile std::sig_atomic_t g_stop = 0;

extern "C" void onServeSimSignal(int)
{
    g_stop = 1; // only an atomic flag is safe here; a timer looks at it
}

} // namespace

int serveSimCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Serve the simulated models over the OpenAI-compatible and Ollama APIs on 127.0.0.1."_s);
    parser.addHelpOption();
    parser.addOption({ u"port"_s, u"Port to listen on (0: any free port, printed on start)."_s, u"N"_s });
    parser.addOption({ u"suite"_s, u"A further suite folder whose cases it should know (repeatable)."_s, u"DIR"_s });
    parser.addOption({ u"latency-ms"_s, u"Answer every request this much later (default 0)."_s, u"MS"_s, u"0"_s });
    parser.addOption({ u"fault-rate"_s,
        u"Share of requests answered with a fault: 429 + Retry-After, 500, no answer, "
        "or a malformed body (default 0)."_s,
        u"R"_s, u"0"_s });
    parser.addOption({ u"seed"_s, u"Seed of the fault dice (default 1)."_s, u"N"_s, u"1"_s });
    parser.addOption({ u"max-body-bytes"_s, u"Refuse a request body larger than this with 413 (default 16777216)."_s,
        u"N"_s, u"16777216"_s });
    parser.addOption({ u"max-connections"_s, u"Answer connections beyond this many open ones with 503 (default 256)."_s,
        u"N"_s, u"256"_s });
    parser.addOption({ u"header-timeout"_s,
        u"Seconds a request may take to send its headers; its body gets six times as long (default 10)."_s, u"S"_s,
        u"10"_s });
    parser.addOption({ u"idle-timeout"_s, u"Close a kept-alive connection idle this many seconds (default 30)."_s,
        u"S"_s, u"30"_s });
    parser.addOption({ u"quiet"_s, u"Do not log every request."_s });
    if (const std::optional<int> exit = parseCommandLine(parser, args, u"serve-sim"_s, Positional::Refused))
        return *exit;
    if (!parser.isSet(u"port"_s)) {
        err(u"structscope serve-sim: --port N is required (0 for any free port)\n"_s);
        return ExitUsage;
    }
    bool ok = false;
    const int port = parser.value(u"port"_s).toInt(&ok);
    if (!ok || port < 0 || port > 65535) {
        err(u"structscope serve-sim: --port must be 0…65535\n"_s);
        return ExitUsage;
    }
    SimServerOptions options;
    options.latencyMs = parser.value(u"latency-ms"_s).toDouble(&ok);
    if (!ok || options.latencyMs < 0) {
        err(u"structscope serve-sim: --latency-ms must be a number ≥ 0\n"_s);
        return ExitUsage;
    }
    options.faultRate = parser.value(u"fault-rate"_s).toDouble(&ok);
    if (!ok || options.faultRate < 0 || options.faultRate > 1) {
        err(u"structscope serve-sim: --fault-rate must be between 0 and 1\n"_s);
        return ExitUsage;
    }
    options.seed = parser.value(u"seed"_s).toUInt(&ok);
    if (!ok) {
        err(u"structscope serve-sim: --seed must be a whole number ≥ 0\n"_s);
        return ExitUsage;
    }

    const auto positive = [&parser](const QString& name, qint64 max, qint64* value) {
        bool valid = false;
        *value = parser.value(name).toLongLong(&valid);
        if (!valid || *value < 1 || *value > max) {
            err(u"structscope serve-sim: --%1 must be a whole number from 1 to %2\n"_s.arg(name, QString::number(max)));
            return false;
        }
        return true;
    };
    qint64 maxBody = 0;
    qint64 maxConnections = 0;
    qint64 headerSeconds = 0;
    qint64 idleSeconds = 0;
    if (!positive(u"max-body-bytes"_s, qint64(1) << 40, &maxBody)
        || !positive(u"max-connections"_s, 100'000, &maxConnections)
        || !positive(u"header-timeout"_s, 3600, &headerSeconds) || !positive(u"idle-timeout"_s, 86'400, &idleSeconds))
        return ExitUsage;
    options.limits.maxBodyBytes = maxBody;
    options.limits.maxConnections = int(maxConnections);
    options.limits.headTimeoutMs = int(headerSeconds * 1000);
    options.limits.bodyTimeoutMs = int(headerSeconds * 6000);
    options.limits.idleTimeoutMs = int(idleSeconds * 1000);

    SimServer server;
    server.setOptions(options);
    QStringList dirs;
    for (const QString& name : builtInSuiteNames())
        dirs << resolveSuitePath(name);
    dirs << parser.values(u"suite"_s);
    for (const QString& dir : std::as_const(dirs)) {
        const SuiteLoadResult loaded = loadSuiteDir(dir);
        if (!loaded.ok()) {
            for (const Problem& p : loaded.problems)
                err(p.toString() + u'\n');
            err(u"structscope serve-sim: the suite in %1 has problems\n"_s.arg(dir));
            return ExitFailure;
        }
        server.addSuite(loaded.suite);
    }
    if (!server.listen(QHostAddress::LocalHost, quint16(port))) {
        err(u"structscope serve-sim: cannot listen on 127.0.0.1:%1\n"_s.arg(port));
        return ExitFailure;
    }
    if (!parser.isSet(u"quiet"_s))
        QObject::connect(&server, &SimServer::requestLogged, &server, [](const QString& line) { err(line + u'\n'); });
    QStringList models;
    for (const SimProfile& p : simProfiles())
        models << p.name;
    out(u"serve-sim: listening on http://127.0.0.1:%1 (OpenAI: /v1, Ollama: /api)\n"
        "  simulated models: %2\n  suites: %3 (%4 cases)\n"
        "  limits: bodies ≤ %6 bytes, ≤ %7 connections, headers in %8 s, idle connections closed after %9 s\n"
        "  try: structscope run --suite %5 --model "
        "'openai:careful@http://127.0.0.1:%1/v1;case_headers'\n"_s.arg(QString::number(server.port()),
            models.join(u", "_s), server.catalog().suiteIds().join(u", "_s),
            QString::number(server.catalog().caseCount()), server.catalog().suiteIds().value(0, u"DIR"_s),
            QString::number(maxBody), QString::number(maxConnections), QString::number(headerSeconds),
            QString::number(idleSeconds)));
    g_stop = 0;
    std::signal(SIGINT, onServeSimSignal);
    std::signal(SIGTERM, onServeSimSignal);
    QTimer stopPoll;
    QObject::connect(&stopPoll, &QTimer::timeout, &server, [] {
        if (g_stop)
            QCoreApplication::exit(0);
    });
    stopPoll.start(100);
    const int code = QCoreApplication::exec();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    return code;
}

} // namespace structscope::cli
