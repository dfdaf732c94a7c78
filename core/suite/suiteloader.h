// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "suite/problem.h"
#include "suite/suite.h"

#include <QByteArray>
#include <QString>

#include <map>

namespace structscope {

/// The files of a suite as bytes, keyed by path relative to the suite folder ("suite.json",
/// "schemas/a.json", "cases.jsonl", "catalog.json"). Lets the loader run on memory (tests, fuzzing).
using SuiteFiles = std::map<QString, QByteArray>;

struct SuiteLoadResult
{
    SuitePtr suite; ///< set only when there are no problems
    Problems problems; ///< every problem found, each located
    /// The suite as far as its files could be read, problems or not: every case line that parsed into a case,
    /// every schema file that parsed. For checking what did load (checkLoadedSuite in preflight.h), never for
    /// running.
    SuitePtr partial;
    bool manifestRead = false; ///< suite.json parsed as a JSON object (its declarations can be checked against)
    bool ok() const { return suite != nullptr; }
};

/// Reads a suite folder and loads it. Missing or unreadable files are problems, never crashes.
SuiteLoadResult loadSuiteDir(const QString& dir);

/// Loads a suite from in-memory files. Collects all problems; a suite is returned only when clean.
SuiteLoadResult loadSuite(const SuiteFiles& files, const QString& dir = {});

/// Reads every file a suite folder may contain (suite.json, cases.jsonl, catalog.json and the
/// schema files named by the manifest). Read errors are reported in `problems`.
SuiteFiles readSuiteFiles(const QString& dir, Problems& problems);

} // namespace structscope
