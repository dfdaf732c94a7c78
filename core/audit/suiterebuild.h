// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/rows.h"
#include "suite/suiteloader.h"

#include <nlohmann/json.hpp>

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <string>

namespace structscope {

/// The version a corrected suite is exported as: "<version>+gold.N" for N revisions on top of the
/// imported gold ("…+build.gold.N" when the version already has build metadata); an existing
/// "gold.K" suffix becomes "gold.K+N". Unchanged for N = 0.
QString correctedSuiteVersion(const QString& version, int revisions);

/// One case as a cases.jsonl line, keys in the order docs/suite-authoring.md lists them: id, category, tier (when set),
/// schema (name or inline object), input, question (when set), gold, then the case's further keys.
std::string caseLine(const CaseRow& c, const nlohmann::json& gold);

/// A stored suite turned back into its files.
struct RebuiltSuite
{
    SuiteFiles files; ///< suite.json, the schema files at their declared paths, catalog.json (if any), cases.jsonl
    QStringList warnings; ///< schemas that could not be written (missing document, path outside the folder)
};

/// Rebuilds the files of a stored suite: suite.json is the stored manifest without the keys only the store
/// keeps ("schema_documents", "catalog"), with `manifestOverrides` merged over its top level; cases in their
/// stored order with the gold given per case row (cases without an entry keep a null gold).
RebuiltSuite rebuildSuiteFiles(const nlohmann::json& storedManifest, const QList<CaseRow>& cases,
    const QHash<qint64, GoldRevision>& gold, const nlohmann::json& manifestOverrides = nlohmann::json::object());

} // namespace structscope
