// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#include "report/evaluation.h"
#include "report/failureoverlaps.h"
#include "scoring/grounding.h"
#include "store/resultstore.h"
#include "store/storelocation.h"
#include "suite/problem.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTextStream>

#include <array>
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif

using namespace Qt::StringLiterals;

namespace structscope::cli {

namespace {

struct Command
{
    const char* name;
    const char* synopsis;
    const char* summary;
    int (*run)(const QStringList& args); ///< nullptr: designed but not built yet
};

// The subcommands (docs/user-guide.md "Command-line reference"), in the order a user meets them.
const std::array<Command, 9> kCommands = { {
    { "run",
        "run --suite DIR|NAME --model SPEC... [--strategy P|J|PJ|J+|PJ+] [--store DB] [--repeats K] [--concurrency N] "
        "[--new-run] [--resume RUN] [--retry-errors RUN] [--no-cache] [--estimate]",
        "run a suite against models and store every response", runCommand },
    { "import", "import --format sob|jsonl [--modality M] [--suite DIR] [--field-map MAP] --store DB FILE...",
        "import responses produced elsewhere", importCommand },
    { "check", "check --suite DIR|NAME", "load and pre-flight a suite; every problem with its location", checkCommand },
    { "report",
        "report --store DB|--sob FILE... [--metrics FAMILY] [--by KEY[,KEY]] --format json|md|csv|latex "
        "[--gold measured|adjusted] [--out F] "
        "[--pairs [--metric ID] [--adjust holm|bh]]",
        "score every stored response and aggregate the metrics into a table", reportCommand },
    { "chart",
        "chart --store DB --kind leaderboard|heatmap|scatter [--metric ID] [--by KEY] [--gold measured|adjusted] "
        "[--dpi N] --out FILE.png|svg|pdf",
        "render a chart headless", chartCommand },
    { "audit", "audit --store DB [--min-models N] [--min-support X] [--keep-reworded] [--suite ID]",
        "print the suspicious-gold queue as JSON", auditCommand },
    { "gold", "gold export --store DB --suite S --out DIR [--force]", "write the corrected suite and a changelog",
        goldCommand },
    { "serve-sim", "serve-sim --port N [--suite DIR...] [--latency-ms MS] [--fault-rate R]",
        "loopback OpenAI- and Ollama-compatible server of simulated models", serveSimCommand },
    { "demo", "demo --out DIR [--store DB] [--dpi N]",
        "run the built-in suites on simulated models; write report and charts", demoCommand },
} };

const Command* findCommand(const QString& name)
{
    for (const auto& c : kCommands) {
        if (name == QLatin1String(c.name))
            return &c;
    }
    return nullptr;
}

QString helpText()
{
    QString text = u"StructScope %1 — a workbench for benchmarking structured LLM output\n\n"
                   "Usage:\n"
                   "  structscope [PATH|URL]           open the GUI, with the store at PATH or URL\n"_s.arg(
                       QStringLiteral(STRUCTSCOPE_VERSION));
    for (const auto& c : kCommands) {
        text += u"  structscope "_s + QLatin1String(c.synopsis) + u"\n      "_s + QLatin1String(c.summary);
        if (!c.run)
            text += u" (not built yet)"_s;
        text += u'\n';
    }
    text += u"\n  structscope --help | --version\n\n"
            "--store takes a SQLite file path or a postgresql:// URL, and so does the GUI; a file named like a\n"
            "subcommand opens as ./NAME.\n"
            "Exit codes: 0 success, 1 problems found, 2 bad command line, 3 subcommand not built yet.\n"_s;
    return text;
}

} // namespace

void out(const QString& text)
{
    QTextStream s(stdout);
    s << text;
}

void err(const QString& text)
{
    QTextStream s(stderr);
    s << text;
}

bool isHeadless(const QStringList& args)
{
    if (args.size() < 2)
        return false;
    // Any word but a store location is a subcommand (unknown ones get a clear error); other dashes go to Qt
    // (-platform …).
    const QString& first = args.at(1);
    if (first.startsWith(u'-'))
        return first == u"--help"_s || first == u"-h"_s || first == u"--version"_s;
    return !first.isEmpty() && !isStoreArgument(first);
}

bool isStoreArgument(const QString& word)
{
    if (word.isEmpty() || word.startsWith(u'-') || word == u"help"_s || findCommand(word))
        return false;
    static const QRegularExpression scheme(u"^[A-Za-z][A-Za-z0-9+.-]*://"_s);
    if (word.contains(u'/') || scheme.match(word).hasMatch())
        return true;
    const QString suffix = QFileInfo(word).suffix().toLower();
    if (suffix == u"structscope"_s || suffix == u"sqlite"_s || suffix == u"sqlite3"_s || suffix == u"db"_s)
        return true;
    return QFileInfo(word).isFile();
}

int storeToOpen(const QStringList& args, QString& location)
{
    location.clear();
    QStringList words;
    for (const QString& arg : args.mid(1)) {
        // Options QApplication did not take (and never took before a store could be named) are left alone.
        if (!arg.startsWith(u'-'))
            words << arg;
    }
    if (words.isEmpty())
        return ExitOk;
    for (const QString& word : std::as_const(words)) {
        if (isStoreArgument(word))
            continue;
        if (findCommand(word) || word == u"help"_s)
            err(u"structscope: the subcommand '%1' comes first, before any option; a file named like it opens as "
                u"./%1\n"_s.arg(word));
        else
            err(u"structscope: unknown command '%1'. Run 'structscope --help' for the list.\n"_s.arg(word));
        return ExitUsage;
    }
    if (words.size() > 1) {
        err(u"structscope: the GUI opens one workspace at a time; %1 were given\n"_s.arg(words.size()));
        return ExitUsage;
    }
    const QString& given = words.first();
    // What is shown of the location never holds the password of a postgresql:// URL.
    const QString shown = StoreLocation::withoutPassword(given);
    const auto parsed = StoreLocation::parse(given);
    if (!parsed) {
        err(u"structscope: cannot open %1: %2\n"_s.arg(shown, parsed.error().message));
        return ExitUsage;
    }
    if (parsed.value().backend == StoreBackend::Sqlite) {
        const QFileInfo file(parsed.value().filePath);
        if (!file.exists()) {
            err(u"structscope: cannot open %1: no such file (File ▸ New Workspace creates a store)\n"_s.arg(shown));
            return ExitFailure;
        }
        if (!file.isFile()) {
            err(u"structscope: cannot open %1: a folder, not a store file (a .structscope SQLite file or a "
                u"postgresql:// URL)\n"_s.arg(shown));
            return ExitFailure;
        }
    }
    // A file as its absolute path: the recent list must not depend on the folder the app was started in.
    location = parsed.value().backend == StoreBackend::Sqlite ? parsed.value().filePath : given;
    return ExitOk;
}

bool needsGui(const QStringList& args)
{
    return args.value(1) == u"chart"_s || args.value(1) == u"demo"_s;
}

int runHeadless(const QStringList& args)
{
    const QString name = args.value(1);
    if (name == u"--help"_s || name == u"-h"_s || name == u"help"_s) {
        out(helpText());
        return ExitOk;
    }
    if (name == u"--version"_s) {
        out(u"structscope %1\n"_s.arg(QStringLiteral(STRUCTSCOPE_VERSION)));
        return ExitOk;
    }
    const Command* command = findCommand(name);
    if (!command) {
        err(u"structscope: unknown command '%1'. Run 'structscope --help' for the list.\n"_s.arg(name));
        return ExitUsage;
    }
    if (!command->run) {
        err(u"structscope %1: this subcommand is not built yet in this version of StructScope.\n"_s.arg(name));
        return ExitNotBuilt;
    }
#ifdef M_TOP_PAD // glibc
    // A command builds many small allocations on every thread at once (a parse per line on the pool). Each malloc
    // arena then grows its heap 16 MiB at a time rather than by what the allocation at hand needs (glibc's default pad
    // is 128 KiB): far fewer heap-growing calls, which hold the address space's lock that the threads' page faults
    // wait for. `report --sob` of 7,000 records spends 0.06-0.08 s of system time with the pad, 0.10 s without
    // (docs/performance.md).
    mallopt(M_TOP_PAD, 16 << 20);
#endif
    return command->run(args.mid(1));
}

std::unique_ptr<ResultStore> openStoreReadOnly(const QString& location, const QString& command)
{
    StoreError error;
    ResultStore::OpenOptions options;
    options.readOnly = true;
    options.createIfMissing = false;
    auto store = ResultStore::open(location, options, &error);
    if (!store)
        err(u"structscope %1: %2\n"_s.arg(command, error.message));
    return store;
}

std::unique_ptr<ResultStore> openStoreForWriting(const QString& location, const QString& command)
{
    StoreError error;
    ResultStore::OpenOptions options;
    options.createIfMissing = false;
    auto store = ResultStore::open(location, options, &error);
    if (!store) {
        err(u"structscope %1: %2\n"_s.arg(command, error.message));
        return store;
    }
    if (store->isReadOnly()) {
        // Not the location itself: a postgresql:// URL may carry a password.
        err(u"structscope %1: the store can be read but not written: %2\n"_s.arg(command, store->readOnlyReason()));
        return nullptr;
    }
    return store;
}

bool allReadableFiles(const QStringList& files, const QString& command)
{
    for (const QString& file : files) {
        const QFileInfo info(file);
        if (!info.isFile() || !info.isReadable()) {
            err(u"structscope %1: %2: %3\n"_s.arg(
                command, file, info.exists() ? u"not a readable file"_s : u"no such file"_s));
            return false;
        }
    }
    return true;
}

bool modalityOption(const QCommandLineParser& parser, const QString& command, std::optional<Modality>& modality)
{
    modality.reset();
    if (!parser.isSet(u"modality"_s))
        return true;
    modality = modalityFromId(parser.value(u"modality"_s).toStdString());
    if (!modality)
        err(u"structscope %1: unknown modality '%2' (use text, image or audio)\n"_s.arg(
            command, parser.value(u"modality"_s)));
    return modality.has_value();
}

void printProblems(const Problems& problems)
{
    // Problems beyond this many are counted, not printed: a file of a million broken lines must not drown the
    // terminal, and the counts of the summary still say how many there were.
    constexpr int kMaxPrintedProblems = 50;
    int printed = 0;
    for (const Problem& p : problems) {
        if (printed++ == kMaxPrintedProblems) {
            err(u"… and %1 more problem(s)\n"_s.arg(problems.size() - kMaxPrintedProblems));
            break;
        }
        err((p.warning ? u"warning: "_s : u"error: "_s) + p.toString() + u'\n');
    }
}

int usageError(const QString& command, const QString& message)
{
    err(u"structscope %1: %2\n"_s.arg(command, message));
    return ExitUsage;
}

std::optional<int> parseCommandLine(
    QCommandLineParser& parser, const QStringList& args, const QString& command, Positional positional)
{
    if (!parser.parse(args))
        return usageError(command, parser.errorText());
    if (parser.isSet(u"help"_s)) {
        out(parser.helpText());
        return ExitOk;
    }
    if (positional == Positional::Refused && !parser.positionalArguments().isEmpty())
        return usageError(command, u"unexpected argument '%1'"_s.arg(parser.positionalArguments().constFirst()));
    return std::nullopt;
}

std::optional<FailureOverlaps> storeFailureOverlaps(const QString& storeLocation, const QString& gold,
    const std::vector<std::string>& groupBy, const FailureCriterion& criterion, const QStringList& sets,
    const QString& command, int& exitCode)
{
    const auto fail = [&](const QString& message, int code) -> std::optional<FailureOverlaps> {
        err(u"structscope %1: %2\n"_s.arg(command, message));
        exitCode = code;
        return std::nullopt;
    };
    auto store = openStoreReadOnly(storeLocation, command);
    if (!store) {
        exitCode = ExitFailure;
        return std::nullopt;
    }
    EvaluationOptions evaluationOptions;
    evaluationOptions.gold = gold == u"adjusted"_s ? GoldBasis::Adjusted : GoldBasis::Measured;
    const Evaluation evaluation = evaluateStore(*store, evaluationOptions);
    if (!evaluation.ok())
        return fail(evaluation.error, ExitFailure);
    const FailureMatrix matrix = failureMatrix(evaluation.records, groupBy, criterion);
    if (matrix.sets.empty())
        return fail(u"the store holds no responses"_s, ExitFailure);
    QString setsError;
    const auto chosen = chooseOverlapSets(matrix, sets, &setsError);
    if (!chosen)
        return fail(u"--sets: "_s + setsError, ExitUsage);
    FailureOverlaps overlaps = countFailureOverlaps(matrix, *chosen);
    if (!overlaps.ok())
        return fail(overlaps.error + u" (pick fewer with --sets)"_s, ExitUsage);
    return overlaps;
}

bool keepVerdictsOfStore(ResultStore& store, const QString& command, const std::atomic_bool* cancel)
{
    if (store.isReadOnly() || !store.keepsVerdicts())
        return true;
    QElapsedTimer timer;
    timer.start();
    EvaluationOptions options;
    options.cancel = cancel;
    const KeptVerdictsSummary summary = scoreAndKeepVerdicts(store, options);
    const QString seconds = QString::number(double(timer.elapsed()) / 1000.0, 'f', 1);
    if (summary.cancelled) {
        err(u"structscope %1: interrupted while keeping verdicts: %2 kept (the app and reports score the rest)\n"_s.arg(
            command, QString::number(summary.kept)));
        return false;
    }
    if (!summary.error.isEmpty()) {
        err(u"structscope %1: the answers are stored, but their verdicts were not kept (the app and reports will "
            u"score them): %2\n"_s.arg(command, summary.error));
        return false;
    }
    err(u"structscope %1: scored and kept %2 verdicts in %3 s (%4 were kept before)\n"_s.arg(
        command, QString::number(summary.kept), seconds, QString::number(summary.alreadyKept)));
    return true;
}

} // namespace structscope::cli
