// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#include "preflight/preflight.h"
#include "suite/suiteloader.h"
#include "suite/suitelocator.h"

#include <QCommandLineParser>
#include <QFileInfo>

#include <map>

using namespace Qt::StringLiterals;

namespace structscope::cli {

int checkCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Load a suite folder and pre-flight its gold."_s);
    parser.addHelpOption();
    parser.addOption({ u"suite"_s, u"Suite folder to check, or the name of a built-in suite."_s, u"DIR"_s });
    if (const std::optional<int> exit = parseCommandLine(parser, args, u"check"_s, Positional::Refused))
        return *exit;
    QString dir = parser.value(u"suite"_s);
    if (dir.isEmpty()) {
        err(u"structscope check: --suite DIR is required\n"_s);
        return ExitUsage;
    }
    // A folder is checked as given, even one without a suite.json (the loader says what is missing);
    // anything else may name a built-in suite (`check --suite orderbench` on an installed package).
    if (!QFileInfo(dir).isDir()) {
        if (const QString builtIn = resolveSuitePath(dir); !builtIn.isEmpty())
            dir = builtIn;
    }

    // Every problem at once: what did load is checked in full even when a line or a file is broken.
    const SuiteLoadResult loaded = loadSuiteDir(dir);
    const Problems problems = checkLoadedSuite(loaded);

    if (!problems.isEmpty()) {
        for (const Problem& p : problems)
            err(p.toString() + u'\n');
        err(u"%1: %2 problem(s); the suite is refused.\n"_s.arg(dir, QString::number(problems.size())));
        return ExitFailure;
    }

    const Suite& suite = *loaded.suite;
    std::map<QString, int> perCategory;
    for (const SuiteCase& c : suite.cases)
        ++perCategory[c.category];
    QString summary = u"%1 (%2 %3): OK\n  cases: %4\n  schemas: %5\n  categories: %6\n"_s.arg(suite.id, suite.name,
        suite.version, QString::number(suite.cases.size()), QString::number(suite.schemas.size()),
        QString::number(suite.categories.size()));
    for (const auto& [category, count] : perCategory)
        summary += u"    %1: %2\n"_s.arg(category, QString::number(count));
    out(summary);
    return ExitOk;
}

} // namespace structscope::cli
