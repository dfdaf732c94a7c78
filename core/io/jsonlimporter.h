// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "io/importcommon.h"

#include <nlohmann/json.hpp>

#include <QString>
#include <QStringList>

#include <optional>

// Import of generic JSONL results against a loaded suite (docs/user-guide.md "Importing results"). One line per
// response: {"case_id": "st-001", "model": "gpt-x", "response": "raw text", "strategy": "P",
// "latency_ms": 812, "tokens_in": 900, "tokens_out": 120, "cost": 0.0004}; only the first three are
// required. A field map names where other tools keep each field: a dotted path ("output.text", array
// indices as numbers: "choices.0.text") or a JSON pointer ("/output/text").
//
// The suite is stored first (makeSuiteImport; a suite already stored with the same content is
// reused). Lines are grouped by (model, strategy) into runs: modelSpec = the model as given,
// providerKind "import", strategy = the line's, else the options', else "imported", settings
// {"import_format": "jsonl", "source_files": [file names]}; repeats = the most lines one case has in
// the run. rawText = the response verbatim when it is a string, else its compact JSON dump. repeat =
// 0, 1, … in file order for each (run, case). requestHash = SHA-256 of the JSON array [model,
// strategy, case id, repeat]. A cost makes costSource Provider.
//
// Malformed lines (not JSON, too long or too deep, not an object, case id / model / response missing
// or of the wrong type) are counted and reported with file:line and pointer; a case id the suite
// does not have is reported the same way and the line is skipped; an optional field of the wrong type
// is a warning and is left out. Files are read twice, line by line in bounded memory: once to check
// every line and count repeats, once to store responses in batches (one transaction each).

namespace structscope {

class ResultStore;
struct Suite;

/// Where each field of a generic result line is found: a top-level name, a dotted path or a JSON pointer.
struct JsonlFieldMap
{
    QString caseId = QStringLiteral("case_id");
    QString model = QStringLiteral("model");
    QString response = QStringLiteral("response");
    QString strategy = QStringLiteral("strategy");
    QString latencyMs = QStringLiteral("latency_ms");
    QString tokensIn = QStringLiteral("tokens_in");
    QString tokensOut = QStringLiteral("tokens_out");
    QString cost = QStringLiteral("cost");

    /// The canonical field names: case_id, model, response, strategy, latency_ms, tokens_in, tokens_out, cost.
    static QStringList fieldNames();
    /// Sets where `field` (a canonical name) is found; false for an unknown name or an invalid path.
    bool set(const QString& field, const QString& path, QString* error = nullptr);
};

/// Parses a field map given as a JSON object ({"case_id": "id", "response": "output.text"}) or as
/// "case_id=id,response=output.text"; fields not named keep their default. nullopt (with `error`)
/// for unknown field names, empty or malformed paths, or text that is neither form.
std::optional<JsonlFieldMap> parseFieldMap(const QString& text, QString* error = nullptr);

/// The value at `path` in `root` (see JsonlFieldMap: a JSON pointer when it starts with '/', else a
/// top-level key of that exact name if there is one, else a dotted path); nullptr when absent.
const nlohmann::json* findField(const nlohmann::json& root, const QString& path);

/// Options of importJsonlFiles().
struct JsonlImportOptions
{
    JsonlFieldMap fields;
    QString strategy; ///< strategy for lines that name none; "imported" when empty
    QString author; ///< who imports, for the suite's audit entry (empty: "structscope")
    ImportLimits limits;
    /// Optional; false cancels: while checking, nothing is stored; while writing, the runs stop as cancelled.
    ImportProgress progress;
};

/// Imports generic JSONL result files answering the cases of `suite`; see the comment above.
ImportSummary importJsonlFiles(
    ResultStore& store, const Suite& suite, const QStringList& files, const JsonlImportOptions& options = {});

} // namespace structscope
