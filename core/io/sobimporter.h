// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "io/importcommon.h"
#include "scoring/grounding.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <string_view>
#include <vector>

// Import of response files of the Structured Output Benchmark (SOB; docs/user-guide.md "Importing results",
// docs/metrics.md §3). One line per record: metadata.{record_id, model_id, schema_complexity, difficulty},
// input.{context, question, json_schema}, output.{candidate_response, ground_truth}, eval_info.
//
// All records of one call form ONE synthetic suite, id "sob" (version "1", families ladder and
// grounding, formats not validated, ordered arrays; manifest "source": "sob"). Each distinct record id
// becomes a case, in record-id order:
//   id        metadata.record_id
//   category  metadata.category when it is a non-empty string, else the modality id of its file
//   tier      schema_complexity if easy/medium/hard, else difficulty if one of those, else empty
//   input     context + "\n\n" + question (just the one that is present when the other is missing;
//             either one that is not a string is taken as its JSON text)
//   question  input.question unless it is absent or null
//   gold      output.ground_truth (any JSON value, null included)
//   extra     {"schema": input.json_schema (any JSON value, kept as is), "metadata": metadata without
//              model_id (a case belongs to no model), "eval_info": eval_info when present}
// A schema that is an object is stored once for all the cases that carry it, in the manifest's schema_documents (named
// "sob-" + 16 hex digits of the SHA-256 of its compact dump), and the cases name it instead of holding a copy.
// The first line of a record decides category, tier and extra. The suite's content hash is SHA-256
// over the compact, key-sorted dump of these cases in record-id order, so importing the same files
// again (also together with more files whose records are all among them) finds the stored suite
// instead of adding one.
// A later line for the same record id whose context, question or gold differs is a located problem and is
// skipped, response included. A later line whose schema alone differs is a response asked with another schema (SOB
// sends a variant of each schema to providers that refuse some keywords, e.g. `additionalProperties: false`): the
// line's schema is stored once as an asked schema and the response names it (ResponseRow::askedSchemaId), so
// validation and every schema-based metric use the schema that was sent, as SOB's evaluator does; the case keeps the
// first line's schema and its gold.
//
// One run per (metadata.model_id, file): modelSpec "import:<model_id>", providerKind "import",
// strategy from the options (default "imported"), settings {"import_format": "sob", "modality":
// "text"|"image"|"audio", "source_file": file name}; repeats = the most lines one record has in it.
// Response rawText is the JSON encoding (compact dump) of output.candidate_response as it is: an
// object stays object text (keys sorted), a string becomes a quoted JSON string literal. So decoding rawText as JSON
// gives back the value exactly, and a candidate that arrived as a string (SOB counts it as not
// parsed) stays distinct from one that arrived as an object. A line without candidate_response stores
// "null" (with a warning). latency / tokens / cost come from eval_info, metadata or their "usage"
// objects when an obvious name is present (latency_ms, response_time_ms, duration_ms, latency_s,
// latency_seconds; tokens_in, input_tokens, prompt_tokens; tokens_out, output_tokens,
// completion_tokens; cost, cost_usd). requestHash = SHA-256 of the JSON array [model_id, record_id,
// repeat]. A record repeated within one run becomes repeat 1, 2, … (with a warning).
//
// Malformed lines (not JSON, too long or too deep, not an object, no metadata.record_id /
// metadata.model_id string, no input.json_schema, no output.ground_truth) are counted and reported
// with file:line; the other lines still import. Files are read line by line; the suite has to be
// stored before its responses, so the cases and the candidate texts of one call are held in memory
// (a fraction of the files' size), then responses are written in batches, one transaction each.

namespace structscope {

class ResultStore;

/// Options of importSobFiles().
struct SobImportOptions
{
    std::optional<Modality> modality; ///< --modality; when unset, inferred per file from its name (SOB's rule)
    QString strategy; ///< strategy of the runs; "imported" when empty
    QString author; ///< who imports, for the suite's audit entry (empty: "structscope")
    ImportLimits limits;
    /// Optional; false cancels: while reading, nothing is stored; while writing, the runs stop as cancelled.
    ImportProgress progress;
};

/// Imports SOB response files (one JSONL per model) into the store; see the comment above.
ImportSummary importSobFiles(ResultStore& store, const QStringList& files, const SobImportOptions& options = {});

/// SOB response files read exactly as importSobFiles() reads them — the same checks, problems, cases, runs and
/// repeats — but held in memory instead of stored: what `structscope report --sob` scores without a store.
struct SobRecords
{
    struct Run
    {
        QString model; ///< metadata.model_id (stored runs are "import:<model>")
        QString file; ///< the file's name
        Modality modality = Modality::Text;
        int repeats = 1;
    };
    struct Response
    {
        int run = 0; ///< index into runs
        int caseIndex = 0; ///< index into cases
        int repeat = 0;
        /// output.candidate_response as it came (null when the line had none): what the stored raw text decodes to.
        nlohmann::json candidate;
        std::optional<double> latencyMs;
        std::optional<double> cost;
        int askedSchema = -1; ///< index into askedSchemas: the schema the line carried, not its case's; -1: the case's
    };
    /// In record-id order, as a new store's case rows are. A schema that is an object is named (schemaName), its
    /// document once in manifest["schema_documents"], as the import stores it; any other is inline, in
    /// extra["schema"]. The input is left empty: scoring never reads it, and a SOB case's context is most of the
    /// file.
    std::vector<CaseImport> cases;
    std::vector<Run> runs; ///< in order of first appearance
    std::vector<Response> responses; ///< in the order of the lines
    /// The schemas responses were asked with where not their case's, each once (an import stores them as asked
    /// schemas, ResponseRow::askedSchemaId).
    std::vector<nlohmann::json> askedSchemas;
    QString strategy; ///< of every run
    nlohmann::json manifest; ///< the suite.json of the "sob" suite an import would store, schema documents included
    /// Lines, records, cases, malformed, skipped, problems and cancelled as the import would count them;
    /// `responses` counts the records held; nothing about a store is set.
    ImportSummary summary;
};
SobRecords readSobFiles(const QStringList& files, const SobImportOptions& options = {});

namespace sobdetail {

/// Where the value of a member of a SOB line lies: bytes [begin, end) of the line.
struct ValueSpan
{
    std::size_t begin = 0;
    std::size_t end = 0;
};

/// Finds input.json_schema in a line by its bytes alone (the last "input" member of the top-level object, the last
/// "json_schema" of that), without parsing. nullopt when the line is not such an object or names a member of either
/// object with an escape (its key then is not known from its bytes).
std::optional<ValueSpan> findSchemaSpan(std::string_view line);
/// Finds output.ground_truth in a line by its bytes alone, as findSchemaSpan finds the schema.
std::optional<ValueSpan> findGoldSpan(std::string_view line);

/// Parses a SOB line with its schema left out: `record` is the line's value with input.json_schema null, and
/// `schema` the bytes of that member's value. Parsing those bytes on their own, `depthLimit` two levels less deep,
/// gives what the whole line's parse holds there; if they do not parse, neither does the line. False (nothing
/// parsed) when the schema is not found or the rest does not parse: then parse the whole line, as parseImportLine
/// does, for its value or its located error. SOB records carry one of a few hundred schemas each: the importer
/// builds each distinct one once instead of once per line (almost half of a line's JSON values).
/// With `gold`, output.ground_truth is left out as well when it is found (null in `record`, its bytes in `*gold`;
/// nullopt: it is in `record`): every model's file carries each case's gold again, and the importer builds each
/// distinct gold text once too.
bool parseWithoutSchema(std::string_view line, int depthLimit, std::size_t byteLimit, nlohmann::json& record,
    ValueSpan& schema, std::optional<ValueSpan>* gold = nullptr);

} // namespace sobdetail

} // namespace structscope
