// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#include "audit/goldexport.h"
#include "store/resultstore.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace structscope::cli {

namespace {

int goldExport(QCommandLineParser& parser)
{
    const QString storeLocation = parser.value(u"store"_s);
    const QString suiteName = parser.value(u"suite"_s);
    const QString outDir = parser.value(u"out"_s);
    if (storeLocation.isEmpty() || suiteName.isEmpty() || outDir.isEmpty()) {
        err(u"structscope gold export: --store DB, --suite ID and --out DIR are required\n"_s);
        return ExitUsage;
    }
    auto store = openStoreReadOnly(storeLocation, u"gold export"_s);
    if (!store)
        return ExitFailure;
    const auto suite = findStoredSuite(*store, suiteName);
    if (!suite) {
        err(u"structscope gold export: %1\n"_s.arg(suite.errorMessage()));
        return ExitFailure;
    }
    GoldExportOptions options;
    options.force = parser.isSet(u"force"_s);
    const GoldExportResult result = exportCorrectedSuite(*store, suite->row, outDir, options);
    if (!result.ok()) {
        err(u"structscope gold export: %1\n"_s.arg(result.error));
        return ExitFailure;
    }
    for (const QString& warning : result.warnings)
        err(u"structscope gold export: warning: %1\n"_s.arg(warning));
    out(u"wrote %1 %2 to %3: %4 gold revision(s) in %5 case(s); %6 file(s)\n"_s.arg(result.suiteId, result.version,
        result.dir, QString::number(result.revisions), QString::number(result.casesChanged),
        QString::number(result.written.size())));
    if (hasErrors(result.problems)) {
        for (const Problem& p : result.problems)
            err(p.toString() + u'\n');
        err(u"%1: the exported suite has %2 problem(s); 'structscope check' refuses it as it stands.\n"_s.arg(
            result.dir, QString::number(result.problems.size())));
        return ExitFailure;
    }
    return ExitOk;
}

} // namespace

int goldCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Work with the gold of a store.\n\n"
        "gold export: write a stored suite with its current (corrected) gold as a suite folder: suite.json (the "
        "version gets a \"+gold.N\" suffix and a \"gold_corrections\" note when N revisions were made), the "
        "schemas, catalog.json, cases.jsonl and CHANGELOG.md listing every revision (case, path before → "
        "after, author, time, reason)."_s);
    parser.addHelpOption();
    parser.addPositionalArgument(u"export"_s, u"The action (only \"export\" so far)."_s);
    parser.addOption({ u"store"_s, u"SQLite file or postgresql:// URL."_s, u"DB"_s });
    parser.addOption({ u"suite"_s, u"The stored suite: its id (or its row when the id is stored twice)."_s, u"ID"_s });
    parser.addOption({ u"out"_s, u"Folder to write; must be empty or missing unless --force."_s, u"DIR"_s });
    parser.addOption({ u"force"_s, u"Write into a folder that is not empty (replacing files of the same names)."_s });
    if (const std::optional<int> exit = parseCommandLine(parser, args, u"gold"_s, Positional::Allowed))
        return *exit;
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty()) {
        err(u"structscope gold: name an action: structscope gold export --store DB --suite ID --out DIR\n"_s);
        return ExitUsage;
    }
    if (positional.constFirst() != u"export"_s || positional.size() > 1) {
        err(u"structscope gold: unknown action '%1' (only 'export')\n"_s.arg(positional.join(u' ')));
        return ExitUsage;
    }
    return goldExport(parser);
}

} // namespace structscope::cli
