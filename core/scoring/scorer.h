// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "scoring/contractrules.h"
#include "scoring/verdict.h"

#include <nlohmann/json.hpp>

#include <QStringList>

#include <memory>
#include <string_view>

namespace structscope {

struct Suite;

/// What a suite says about scoring; prepared once per suite and shared by every record.
struct ScoringOptions
{
    bool ladder = true;
    bool extraction = true;
    bool grounding = false;
    ArrayMatching arrays = ArrayMatching::Ordered;
    SchemaOptions schema; ///< how the case schema validates (formats per the suite)
    bool keepDifferences = false; ///< keep the strict diff in the verdict (drill-down views)
    /// Tally what each response did with each field of its gold (Verdict::fields, docs/metrics.md "Fields").
    bool fields = true;
    /// List every schema error of an invalid response (Verdict::schemaErrors, for drill-down views). Bulk
    /// scoring needs only valid or not, and collecting the errors costs about a second validation.
    bool collectSchemaErrors = true;
    std::shared_ptr<const ContractRules> contract; ///< set when the suite declares the contract family
    std::shared_ptr<const nlohmann::json> catalog; ///< the suite's catalog.json (contract lookups)

    /// The options a suite declares: its families, `array_matching`, `validate_formats` and contract rules.
    static ScoringOptions forSuite(const Suite& suite);
    /// The same from a suite.json document (as stored) and its catalog (null when none).
    static ScoringOptions forManifest(const nlohmann::json& manifest, const nlohmann::json& catalog);
    static ScoringOptions forFamilies(const QStringList& families);
};

/// One response to score against one gold revision.
struct ScoreInput
{
    std::string_view response; ///< the raw text the model sent
    const nlohmann::json* imported = nullptr; ///< an already-parsed candidate (SOB import); skips the parse ladder
    bool importedAsString = false; ///< SOB: the candidate arrived as a string (counts as not parsed)
    const nlohmann::json* gold = nullptr;
    const nlohmann::json* schema = nullptr; ///< the case's schema document; nullptr: no schema to validate
    Modality modality = Modality::Text;
    /// Optional, for callers that score many responses per case: `schema` compiled once with the
    /// options' SchemaOptions, and prepared for the grounding family (see compileForScoring). Skip the lookups.
    CompiledSchemaPtr compiledSchema = {};
    PreparedGroundingSchemaPtr groundingSchema = {};
};

/// The compiled forms of a case's schema that ScoreInput can carry (`schema` is nullptr where it does not compile;
/// `grounding` is set whenever the options ask for the grounding family, and says why the schema is unusable).
struct CompiledForScoring
{
    CompiledSchemaPtr schema;
    PreparedGroundingSchemaPtr grounding;
};
CompiledForScoring compileForScoring(const nlohmann::json& schema, const ScoringOptions& options);

/// Has `input` score a SOB candidate_response as it came (parsed): a string is its text, which SOB counts as not
/// parsed; any other value is the candidate itself. `candidate` must outlive the scoring.
void setImportedCandidate(ScoreInput& input, const nlohmann::json& candidate);

/// Scores one response: a pure function of (response, gold, schema, options).
Verdict scoreResponse(const ScoreInput& input, const ScoringOptions& options);

} // namespace structscope
