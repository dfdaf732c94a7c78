// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/rows.h"
#include "store/storeresult.h"
#include "suite/problem.h"

#include <QString>
#include <QStringList>

namespace structscope {

class ResultStore;

/// Options of exportCorrectedSuite().
struct GoldExportOptions
{
    bool force = false; ///< write into a folder that is not empty (files of the same names are replaced)
};

/// What exportCorrectedSuite() did.
struct GoldExportResult
{
    QString error; ///< set when nothing (or not everything) was written
    QString dir;
    QString suiteId;
    QString version; ///< the exported version (see correctedSuiteVersion)
    int revisions = 0; ///< gold revisions after the imported gold, over all cases
    int casesChanged = 0;
    QStringList written; ///< relative paths, in the order written
    QStringList warnings; ///< schemas that could not be written
    Problems problems; ///< what loading and pre-flighting the exported suite reports (empty: clean)
    bool ok() const { return error.isEmpty(); }
};

/// The stored suite named by `idOrRow`: a suite id (refused when several stored suites have it), else a row.
StoreResult<SuiteRow> findStoredSuite(ResultStore& store, const QString& idOrRow);

/// Writes a stored suite with its current gold as a suite folder: suite.json (the stored manifest without the
/// store-only keys; when the gold was revised, the version of correctedSuiteVersion() and a "gold_corrections"
/// note {base_version, revisions, cases, changelog}), the schema files, catalog.json if any, cases.jsonl and
/// CHANGELOG.md listing every revision. Refuses a folder that is not empty unless options.force; each file is
/// written atomically (QSaveFile).
GoldExportResult exportCorrectedSuite(
    ResultStore& store, qint64 suiteRow, const QString& outDir, const GoldExportOptions& options = {});

} // namespace structscope
