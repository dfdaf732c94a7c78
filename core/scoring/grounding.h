// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "schema/schemavalidator.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// The `grounding` metric family (docs/metrics.md §3): the Structured Output Benchmark's per-record
// metrics, computed with the same rules as SOB's Python scorer so imported response files reproduce
// its published means. Choices where docs/metrics.md is silent follow that scorer and are listed here:
//
// - Leaves are flattenLeaves() leaves minus a leaf with the empty path (a scalar root, or the value
//   of a top-level "" key): SOB skips those. Paths that collide ({"a.b": 1, "a": {"b": 2}}) count
//   once, the later leaf in nlohmann's (sorted-key) order winning; SOB keeps the later one in file order.
// - Gold without leaves: raw value accuracy and faithfulness are 1.0 as the spec says, but the
//   coverage is then 0, so the gate (text and image/audio alike) and therefore both metrics are 0.
//   path_recall is 0 and structure_coverage is 0 (F1 with an empty side is 0, both empty too).
// - type_safety: 0 when the prediction has no leaf, or the schema is not a valid input. A null leaf
//   against ["string", "null"] is a MISMATCH: the list collapses to "string" and null is not a string
//   (SOB). A path the schema does not describe, a type list with several non-null types, or a missing
//   "type" are mismatches. 1.0 is a number, never an integer; integers count as numbers; booleans are
//   neither. With SchemaWalk::Sob (the default) `$ref` is not followed and an intermediate level must
//   say "type": "object" / "array" literally, as SOB does.
// - required_key_recall: not gated by hardening (SOB); 0 when the root is not an object/array or the
//   schema is not a valid input; 1.0 when the schema requires nothing. A required key counts as
//   present whatever its value ({}, [], null included); under an array it is present when any element
//   has it.
// - perfect: candidates that did not parse compare as JSON null (SOB), so a null gold matches them.

namespace structscope {

/// Input modality of a record; it decides the coverage gate.
enum class Modality { Text, Image, Audio };

/// "text", "image", "audio".
const char* modalityId(Modality modality);

/// Parses a modality id; nullopt for anything else.
std::optional<Modality> modalityFromId(std::string_view id);

/// SOB's automatic modality of a response file, from its path ("text_response", "image_response",
/// "_image" in the name, ...); text when nothing matches.
Modality inferSobModality(std::string_view filePath);

/// How the schema is walked to find the type at a path and the required paths.
enum class SchemaWalk {
    Sob, ///< as SOB: "properties"/"items" under a literal "type" "object"/"array", no $ref
    Resolving ///< also follows local $ref, and collapses type lists and anyOf/oneOf/allOf with one non-null branch
};

/// Knobs of the family; the defaults reproduce SOB.
struct GroundingOptions
{
    SchemaWalk schemaWalk = SchemaWalk::Sob;
    /// What json_pass validates with; SOB ignores `format` and accepts 1.0 as an integer.
    SchemaOptions validation { false, true };
};

struct GroundingSchemaFacts;

/// A record's schema prepared once (e.g. per case) for the family: compiled with the validation options, and the
/// facts every record of it shares (meta-schema verdict, required paths). Immutable; share it between threads.
struct PreparedGroundingSchema
{
    SchemaOptions validation; ///< what it was compiled with
    CompiledSchemaPtr compiled; ///< null when the schema is not an object or does not compile
    std::shared_ptr<const GroundingSchemaFacts> facts; ///< set with `compiled`
    /// An object that passes the draft-07 meta-schema (schema_valid_input); set whenever `compiled` is.
    bool metaSchemaValid = false;
    std::string problem; ///< why it is not compiled: schema_valid_input is 0, or it is 1 and json_pass 0
};
using PreparedGroundingSchemaPtr = std::shared_ptr<const PreparedGroundingSchema>;

/// Prepares `schema` for scoreGrounding() (GroundingInput::prepared); never throws.
PreparedGroundingSchemaPtr prepareGroundingSchema(const nlohmann::json& schema, const GroundingOptions& options = {});

/// One record to score.
struct GroundingInput
{
    const nlohmann::json* candidate; ///< parsed candidate, nullptr when it did not parse or arrived as a string
    const nlohmann::json& gold; ///< ground truth
    const nlohmann::json& schema; ///< the record's JSON schema document
    Modality modality = Modality::Text;
    GroundingOptions options = {};
    /// Optional: `schema` prepared with the same options.validation (e.g. once per case); skips the lookup.
    const PreparedGroundingSchema* prepared = nullptr;
    /// Optional: whether `candidate` validates against `schema` under options.validation, when the caller already
    /// knows (see CompiledSchema::sameVerdictUnder); json_pass then takes it instead of validating again.
    std::optional<bool> candidateValid = {};
};

/// Per-record scores; each metric is in [0, 1] (the 0/1 ones are exactly 0.0 or 1.0).
struct GroundingScores
{
    double jsonParse = 0;
    double jsonRoot = 0;
    double schemaValidInput = 0;
    double jsonPass = 0;
    double valueAccuracy = 0;
    double faithfulness = 0;
    double pathRecall = 0;
    double structureCoverage = 0;
    double typeSafety = 0;
    double requiredKeyRecall = 0;
    double perfect = 0;

    double hardening = 0; ///< h: parsed, structured root and json_pass
    double gate = 0; ///< g: coverage gate of rawCoverage for the modality
    double rawCoverage = 0; ///< c: F1 of the leaf-path sets, before h
    double rawValueAccuracy = 0; ///< before h and g
    double rawFaithfulness = 0; ///< before h and g
    double rawPathRecall = 0; ///< before h
    double rawTypeSafety = 0; ///< before h

    int goldLeaves = 0; ///< distinct gold leaf paths
    int predictedLeaves = 0; ///< distinct predicted leaf paths (0 unless the root is structured)
    int matchedPaths = 0; ///< paths in both
    int requiredPaths = 0; ///< distinct required paths of the schema (valid schema only)
};

/// Explanations for drill-down; filling them costs extra work, so they are optional.
struct GroundingDetails
{
    std::vector<std::string> missingGoldPaths; ///< gold leaf paths the prediction lacks, sorted
    /// Required wildcard paths the prediction lacks, sorted; all of them when the root is not an object/array
    /// or the schema is not a valid input (as SOB reports them).
    std::vector<std::string> missingRequiredPaths;
    std::vector<std::string> typeMismatchPaths; ///< predicted leaf paths counted as type mismatches, sorted
    /// Why the schema is not used: schema_valid_input is 0, or the schema is valid but does not compile (a $ref
    /// that is not fetched), so json_pass is 0; empty otherwise.
    std::string schemaProblem;
    std::vector<SchemaError> validationErrors; ///< why a valid-schema, structured candidate fails json_pass
};

/// Scores one record. Thread-safe; compiled schemas and per-schema facts (meta-schema verdict,
/// required paths) are cached, and each thread remembers its 16 most recent schemas.
GroundingScores scoreGrounding(const GroundingInput& input, GroundingDetails* details = nullptr);

/// Coverage gate g(c): text 1[c ≥ 0.95]; image/audio min(1, (c / 0.90)²) for c > 0, else 0.
double coverageGate(Modality modality, double coverage);

/// SOB's weight of a tier: "easy" 1, "medium" 2, "hard" 3 (exact, case-sensitive), anything else 0.
double complexityWeight(std::string_view tier);

/// A record's weight from SOB metadata: `schema_complexity` if it is a known tier, else `difficulty`.
struct RecordWeight
{
    double weight = 0;
    std::string tier = "unknown"; ///< the tier used, or "unknown"
    std::string basis = "unknown"; ///< "schema_complexity", "difficulty" or "unknown"
};
RecordWeight sobRecordWeight(const nlohmann::json& metadata);

/// The difficulty label a case carries: its extra's `difficulty`, else `metadata.difficulty` (SOB records);
/// empty when it names none.
std::string caseDifficulty(const nlohmann::json& extra);

/// SOB's reading of output.candidate_response: only an object or array counts as parsed.
const nlohmann::json* sobCandidate(const nlohmann::json& candidateResponse);

/// Distinct required paths of a schema (recursively through properties and array items, arrays
/// as "[]"), sorted, walked as `walk` says.
std::vector<std::string> requiredPaths(const nlohmann::json& schema, SchemaWalk walk = SchemaWalk::Sob);

/// The JSON type the schema gives at a leaf path ("string", "integer", ..., "null"), or "" when the
/// schema does not describe the path or gives no single type.
std::string schemaTypeAt(const nlohmann::json& schema, std::string_view path, SchemaWalk walk = SchemaWalk::Sob);

/// One grounding metric: its stable id (descriptions live in metricregistry.h) and its field.
struct GroundingMetric
{
    std::string_view id;
    double GroundingScores::*field;
};

/// The eleven metrics of the family in report order, "grounding.json_parse" … "grounding.perfect".
std::span<const GroundingMetric> groundingMetrics();

} // namespace structscope
