// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace structscope {

/// One case of a suite (a line of cases.jsonl).
struct SuiteCase
{
    QString id;
    QString category;
    QString tier; ///< optional; empty when absent
    QString schemaName; ///< declared schema name; empty when the case carries an inline schema
    nlohmann::json inlineSchema; ///< set when "schema" is an object
    QString input;
    std::optional<QString> question;
    nlohmann::json gold;
    nlohmann::json extra; ///< any further keys of the line, kept verbatim (e.g. "source_kind")
    int line = 0; ///< 1-based line in cases.jsonl
};

/// The example pair of a schema, used by the P strategies.
struct SuiteExample
{
    QString input;
    nlohmann::json output;
};

/// A loaded suite folder (docs/suite-authoring.md). Immutable once loaded.
struct Suite
{
    QString dir; ///< folder it was loaded from (empty for in-memory suites)
    QString id;
    QString name;
    QString version;
    QString description;
    QString license;
    std::map<QString, QString> schemaFiles; ///< name → relative path
    std::map<QString, nlohmann::json> schemas; ///< name → schema document
    QString defaultSchema;
    QStringList categories;
    QStringList families;
    QString systemPrompt;
    QString userPrompt;
    std::map<QString, SuiteExample> examples; ///< schema name → example pair
    nlohmann::json options = nlohmann::json::object();
    nlohmann::json catalog; ///< null when there is no catalog.json
    nlohmann::json manifest; ///< suite.json as read
    QList<SuiteCase> cases;
    QByteArray contentHash; ///< SHA-256 (hex) over every file of the suite, in a fixed order

    /// The schema document a case is validated against (inline, named, or the default); nullptr if undeclared.
    const nlohmann::json* schemaFor(const SuiteCase& c) const;
    /// The schema name a case uses ("" for inline schemas).
    QString schemaNameFor(const SuiteCase& c) const;
    const SuiteCase* findCase(const QString& id) const;
};

using SuitePtr = std::shared_ptr<const Suite>;

} // namespace structscope
