// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <QDateTime>
#include <QHashFunctions>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>
#include <string>
#include <string_view>

namespace structscope {

// Value types that go in and out of the ResultStore. Row ids (`row`, `...Row`, `id`) are the
// database's own keys; `id` strings of suites and cases are the ones written in the suite files.

/// Lifecycle of a run as the runner reports it.
enum class RunStatus { Running, Paused, Cancelled, Finished, Interrupted };

/// Where a response's cost figure came from.
enum class CostSource { None, Provider, PriceTable };

/// "running", "paused", "cancelled", "finished", "interrupted" (the strings stored in the database).
QString runStatusName(RunStatus status);
/// Parses runStatusName(); nullopt for anything else.
std::optional<RunStatus> runStatusFromName(const QString& name);
/// "none", "provider", "price_table".
QString costSourceName(CostSource source);
/// Parses costSourceName(); nullopt for anything else.
std::optional<CostSource> costSourceFromName(const QString& name);
/// The same for the name's UTF-8 bytes (a reader that has them need not make a QString per row).
std::optional<CostSource> costSourceFromUtf8(std::string_view name);

/// One case as handed to ResultStore::importSuite (plain values, independent of the suite loader).
struct CaseImport
{
    QString id;
    QString category;
    QString tier; ///< empty when absent
    QString schemaName; ///< empty for the suite default or an inline schema (put inline schemas in `extra`)
    QString input;
    std::optional<QString> question;
    nlohmann::json extra = nlohmann::json::object(); ///< further keys of the case line, kept verbatim
    nlohmann::json gold; ///< becomes gold revision 0
};

/// A suite as handed to ResultStore::importSuite.
struct SuiteImport
{
    QString id;
    QString name;
    QString version;
    QString contentHash; ///< identifies this exact content; importing the same (id, hash) twice is a no-op
    nlohmann::json manifest = nlohmann::json::object();
    QList<CaseImport> cases;
    QString author; ///< who imported it, for the audit log (empty: "structscope")
};

/// A stored suite.
struct SuiteRow
{
    qint64 row = 0;
    QString id;
    QString name;
    QString version;
    QString contentHash;
    nlohmann::json manifest;
    QDateTime importedAt;
};

/// A stored case (its gold lives in GoldRevision).
struct CaseRow
{
    qint64 row = 0;
    qint64 suiteRow = 0;
    int ordinal = 0; ///< position in the suite's cases, from 0
    QString id;
    QString category;
    QString tier;
    QString schemaName;
    QString input;
    std::optional<QString> question;
    nlohmann::json extra;
};

/// One revision of a case's gold; revision 0 is the gold the suite shipped with.
struct GoldRevision
{
    qint64 row = 0;
    qint64 caseRow = 0;
    int revision = 0;
    nlohmann::json gold;
    QString author;
    QString reason;
    QDateTime createdAt;
};

/// A run: one model × strategy over one suite. `settings` never holds secrets (see ResultStore::createRun).
struct RunRow
{
    qint64 id = 0;
    qint64 suiteRow = 0;
    QString modelSpec;
    QString providerKind;
    QString strategy;
    int repeats = 1;
    nlohmann::json settings = nlohmann::json::object();
    QString suiteHash;
    QDateTime startedAt; ///< set by the store when invalid
    QDateTime finishedAt;
    RunStatus status = RunStatus::Running;
};

/// One raw model response, a fact that is never changed once stored.
struct ResponseRow
{
    qint64 id = 0;
    qint64 runId = 0;
    qint64 caseRow = 0;
    int repeat = 0;
    QString requestHash;
    QString rawText; ///< empty when read with ResponseFields::ForScoring: see rawUtf8
    /// The raw text as UTF-8, set only by a ResponseFields::ForScoring read (which leaves rawText empty): scoring
    /// parses UTF-8, and an SQLite store holds it so — read as stored, not converted to UTF-16 and back.
    QByteArray rawUtf8;
    int httpStatus = 0; ///< 0 when no HTTP response arrived
    QString errorKind; ///< empty when the call succeeded
    QString errorMessage;
    std::optional<double> latencyMs;
    std::optional<double> ttftMs;
    std::optional<qint64> tokensIn;
    std::optional<qint64> tokensOut;
    std::optional<double> cost;
    CostSource costSource = CostSource::None; ///< must be None exactly when cost is absent
    int attempts = 1;
    QDateTime createdAt; ///< set by the store when invalid
    /// The schema the model was asked with when it is not the case's own (a provider-specific variant, or the schema
    /// a SOB record carries): a row of the store's asked schemas (ResultStore::storeAskedSchema). 0: the case's schema.
    /// Validation and every schema-based check of the answer use this schema; gold comparison does not depend on it.
    qint64 askedSchemaId = 0;
};

/// Identifies an answered slot of a run: (case, repeat).
struct ResponseKey
{
    qint64 caseRow = 0;
    int repeat = 0;
    friend bool operator==(const ResponseKey&, const ResponseKey&) = default;
};

inline size_t qHash(const ResponseKey& key, size_t seed = 0) noexcept
{
    return qHashMulti(seed, key.caseRow, key.repeat);
}

/// One line of the audit log.
struct AuditEntry
{
    qint64 id = 0;
    QDateTime at; ///< set by the store when invalid
    QString author;
    QString action; ///< e.g. "gold.revise", "suite.import"
    QString entity; ///< e.g. "case", "suite", "run"
    QString entityId; ///< the entity's row id or name, as text
    nlohmann::json details = nlohmann::json::object();
};

/// A scored verdict as the store keeps it (schema v3): verdictcodec's bytes under everything the verdict is a
/// function of. The run is the response's own (not its retry family's first), so that a pass finds it by run.
struct StoredVerdict
{
    qint64 runId = 0;
    qint64 responseId = 0;
    qint64 goldRevisionRow = 0; ///< 0: the case has no gold
    int scorerVersion = 0;
    std::string verdict;
};

} // namespace structscope

Q_DECLARE_METATYPE(structscope::SuiteRow)
Q_DECLARE_METATYPE(structscope::CaseRow)
Q_DECLARE_METATYPE(structscope::GoldRevision)
Q_DECLARE_METATYPE(structscope::RunRow)
Q_DECLARE_METATYPE(structscope::ResponseRow)
Q_DECLARE_METATYPE(structscope::AuditEntry)
