// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "io/importcommon.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

namespace structscope {

/// What a path handed to "import" (dropped, or picked in a dialog) is.
enum class ImportKind {
    SobResults, ///< a .jsonl file in SOB's response format
    GenericResults, ///< a .jsonl file of generic results (needs the suite they answer)
    SuiteFolder, ///< a folder with a suite.json
    Unsupported
};

/// Tells the kind of a path: a folder holding suite.json is a suite; a .jsonl file whose first
/// non-blank line is an object with "metadata" and "output" is SOB, any other .jsonl is generic.
ImportKind importKindOf(const QString& path);

/// Paths sorted by kind, plus the suite that generic results answer.
struct ImportRequest
{
    QStringList sobFiles;
    QStringList genericFiles;
    QStringList suiteFolders;
    QStringList unsupported;
    QString genericSuite; ///< suite folder for genericFiles (empty: the first of suiteFolders)

    bool isEmpty() const { return sobFiles.isEmpty() && genericFiles.isEmpty() && suiteFolders.isEmpty(); }
};

/// Sorts paths with importKindOf().
ImportRequest classifyImportPaths(const QStringList& paths);

/// What an import did, for the status bar and a problems dialog.
struct ImportOutcome
{
    qint64 responses = 0; ///< responses stored
    int suites = 0; ///< suites stored (new or already there)
    QStringList importedSuiteFolders; ///< suite folders that loaded and were stored
    Problems problems; ///< located problems of every file and suite
    QString error; ///< the store could not be opened or refused a write
    bool cancelled = false;

    bool changedStore() const { return responses > 0 || suites > 0; }
    /// One line for the status bar: "Imported 120 responses and 1 suite; 2 problems".
    QString summary() const;
};

/// Imports into the store at `location` on the calling thread (any thread: it opens its own
/// connection): suite folders first, then SOB files, then generic results against their suite.
/// `progress` gets (done, total) in bytes of the result files; returning false cancels.
ImportOutcome importIntoStore(const QString& location, const ImportRequest& request, const ImportProgress& progress);

} // namespace structscope

Q_DECLARE_METATYPE(structscope::ImportOutcome)
