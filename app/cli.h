// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QStringList>

#include <atomic>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QCommandLineParser;

namespace structscope {
struct FailureCriterion;
struct FailureOverlaps;
class ResultStore;
enum class Modality; // scoring/grounding.h
struct Problem;
}

namespace structscope::cli {

/// Exit codes shared by every subcommand.
enum ExitCode {
    ExitOk = 0,
    ExitFailure = 1, ///< the command ran and found problems (e.g. a suite that fails pre-flight)
    ExitUsage = 2, ///< bad command line
    ExitNotBuilt = 3, ///< the subcommand exists in the design but is not built yet
};

/// True when `argv[1]` names a headless subcommand (or asks for help/version), or is a word that names neither a
/// subcommand nor a store (runHeadless then says it is an unknown command).
bool isHeadless(const QStringList& args);

/// True when `word`, given where a subcommand could be, names a store for the GUI to open instead: it is no
/// subcommand and it is a URL ("postgresql://…", "file://…"), holds a '/', ends in a store suffix (.structscope,
/// .sqlite, .sqlite3, .db) or names an existing file. Subcommands come first: a file called "report" opens as
/// ./report.
bool isStoreArgument(const QString& word);

/// The store `structscope PATH|URL` asks the GUI to open, from the arguments left once QApplication took its own
/// (-platform …): empty for none. ExitOk, or after printing "structscope: …" on stderr: ExitUsage for more than one
/// location, a word that is no location, or a malformed or unsupported URL; ExitFailure for a file that does not
/// exist or is a folder. Whether the file is a store, and whether a database answers, is for the GUI to find out.
int storeToOpen(const QStringList& args, QString& location);

/// True when the subcommand paints (chart, demo): it needs a QApplication (on the offscreen platform).
bool needsGui(const QStringList& args);

/// Runs a headless subcommand; `args` starts with the program name. Needs a QCoreApplication.
int runHeadless(const QStringList& args);

/// Whether a subcommand takes positional arguments (files, an action) after its options.
enum class Positional { Refused, Allowed };

/// The preamble every subcommand shares: parses `args` with `parser` (its options already added). nullopt to go
/// on; otherwise the exit code to return: ExitOk after printing the help (--help), ExitUsage after printing
/// "structscope <command>: <why>" for an unknown option or a missing value, and, unless `positional` allows them,
/// for any positional argument.
std::optional<int> parseCommandLine(
    QCommandLineParser& parser, const QStringList& args, const QString& command, Positional positional);

/// Prints "structscope <command>: <message>" and returns ExitUsage: a command line the command cannot take.
int usageError(const QString& command, const QString& message);

/// Prints to stdout / stderr (UTF-8).
void out(const QString& text);
void err(const QString& text);

/// Opens an existing store read-only (never creating or changing it); on failure prints
/// "structscope <command>: <why>" and returns nullptr.
std::unique_ptr<ResultStore> openStoreReadOnly(const QString& location, const QString& command);
/// An existing store opened for writing (never created); prints "structscope <command>: <error>" when it cannot be,
/// or when it opens read-only only (a file without write permission, say).
std::unique_ptr<ResultStore> openStoreForWriting(const QString& location, const QString& command);

/// What `report --overlaps` and `chart --kind upset|venn` count: the store's records scored on `gold` ("measured" or
/// "adjusted"), a case in a set (a value of `groupBy`) when it fails `criterion`, over the sets `sets` names (every
/// set when it is empty). nullopt after printing "structscope <command>: <why>", with `exitCode` set: ExitFailure
/// when the store cannot be read or holds no responses, ExitUsage when the sets asked for cannot be counted.
std::optional<FailureOverlaps> storeFailureOverlaps(const QString& storeLocation, const QString& gold,
    const std::vector<std::string>& groupBy, const FailureCriterion& criterion, const QStringList& sets,
    const QString& command, int& exitCode);

/// What `run` and `import` do before they end, unless told --no-keep-verdicts: score what the store does not keep a
/// verdict for yet and keep it (scoreAndKeepVerdicts), so that the app and every report open the store on kept
/// verdicts. Prints one line, "structscope <command>: ...", saying what it did or why it kept nothing; a store that
/// refuses the verdicts loses nothing (they are a cache). Stops between chunks when `cancel` is set. False when it
/// failed.
bool keepVerdictsOfStore(ResultStore& store, const QString& command, const std::atomic_bool* cancel);

/// True when every file exists and can be read; else prints "structscope <command>: <file>: <why>" for the first
/// that cannot.
bool allReadableFiles(const QStringList& files, const QString& command);

/// The value of --modality (unset when the option is not given); false, after printing "structscope <command>:
/// unknown modality …", when it names none.
bool modalityOption(const QCommandLineParser& parser, const QString& command, std::optional<Modality>& modality);

/// Prints each problem of an import (or a read of files) to stderr, "error: " or "warning: " and its place; beyond
/// the first 50, only how many more there are.
void printProblems(const QList<Problem>& problems);

int checkCommand(const QStringList& args);
int reportCommand(const QStringList& args);
int runCommand(const QStringList& args);
int serveSimCommand(const QStringList& args);
int chartCommand(const QStringList& args);
int importCommand(const QStringList& args);
int auditCommand(const QStringList& args);
int goldCommand(const QStringList& args);
int demoCommand(const QStringList& args);

} // namespace structscope::cli
