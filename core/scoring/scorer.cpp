// SPDX-License-Identifier: Apache-2.0
#include "scoring/scorer.h"

#include "scoring/metricregistry.h"
#include "suite/suite.h"

#include <algorithm>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

double flag(bool b)
{
    return b ? 1.0 : 0.0;
}

void addLadderValues(Verdict& v)
{
    static const MetricKey correct = metricKey("ladder.correct");
    static const MetricKey correctStrict = metricKey("ladder.correct_strict");
    static const MetricKey invalidJson = metricKey("ladder.invalid_json");
    static const MetricKey schemaViolation = metricKey("ladder.schema_violation");
    static const MetricKey hallucinated = metricKey("ladder.hallucinated_on_missing");
    static const MetricKey valueIncorrect = metricKey("ladder.value_incorrect");
    v.values.emplace_back(correct, flag(v.ladder == LadderLabel::Correct));
    // Strict metrics accept a clean parse only (docs/metrics.md §0): fences or prose around the JSON fail them.
    v.values.emplace_back(correctStrict, flag(v.rung == ParseRung::Clean && v.ladderStrict == LadderLabel::Correct));
    v.values.emplace_back(invalidJson, flag(v.ladder == LadderLabel::InvalidJson));
    v.values.emplace_back(schemaViolation, flag(v.ladder == LadderLabel::SchemaViolation));
    v.values.emplace_back(hallucinated, flag(v.ladder == LadderLabel::HallucinatedOnMissing));
    v.values.emplace_back(valueIncorrect, flag(v.ladder == LadderLabel::ValueIncorrect));
}

} // namespace

std::optional<double> Verdict::value(std::string_view metricId) const
{
    return values.find(metricId);
}

ScoringOptions ScoringOptions::forFamilies(const QStringList& families)
{
    ScoringOptions options;
    options.ladder = families.isEmpty() || families.contains(u"ladder"_s);
    options.extraction = families.contains(u"extraction"_s);
    options.grounding = families.contains(u"grounding"_s);
    return options;
}

ScoringOptions ScoringOptions::forManifest(const json& manifest, const json& catalog)
{
    QStringList families;
    if (const auto it = manifest.find("families"); it != manifest.end() && it->is_array()) {
        for (const json& f : *it) {
            if (f.is_string())
                families << QString::fromStdString(f.get<std::string>());
        }
    }
    ScoringOptions options = forFamilies(families);
    static const json noOptions = json::object();
    const auto optionsIt = manifest.find("options");
    const json& suiteOptions = optionsIt != manifest.end() && optionsIt->is_object() ? *optionsIt : noOptions;
    if (const auto it = suiteOptions.find("array_matching"); it != suiteOptions.end() && *it == "unordered")
        options.arrays = ArrayMatching::Unordered;
    if (const auto it = suiteOptions.find("validate_formats"); it != suiteOptions.end() && it->is_boolean())
        options.schema.validateFormats = it->get<bool>();
    if (families.contains(u"contract"_s)) {
        // The pre-flight has reported any problem with the rules; a suite with broken rules scores no contract.
        if (auto rules = parseContractRules(suiteOptions))
            options.contract = std::make_shared<const ContractRules>(std::move(*rules));
        options.catalog = std::make_shared<const json>(catalog);
    }
    return options;
}

ScoringOptions ScoringOptions::forSuite(const Suite& suite)
{
    return forManifest(suite.manifest, suite.catalog);
}

CompiledForScoring compileForScoring(const json& schema, const ScoringOptions& options)
{
    CompiledForScoring out;
    try {
        out.schema = SchemaCache::compile(schema, options.schema, nullptr);
    } catch (const std::exception&) {
        // Left null: scoreResponse then compiles itself and reports why it failed.
    }
    if (options.grounding)
        out.grounding = prepareGroundingSchema(schema);
    return out;
}

void setImportedCandidate(ScoreInput& input, const json& candidate)
{
    if (candidate.is_string()) {
        input.response = candidate.get_ref<const std::string&>();
        input.importedAsString = true;
        input.imported = nullptr;
    } else {
        input.imported = &candidate;
        input.importedAsString = false;
    }
}

Verdict scoreResponse(const ScoreInput& input, const ScoringOptions& options)
{
    Verdict v;
    static const json nullGold;
    const json& gold = input.gold ? *input.gold : nullGold;

    ParseResult parsed;
    const json* prediction = nullptr;
    if (input.imported) {
        parsed.rung = ParseRung::Clean;
        prediction = input.imported;
    } else {
        parsed = parseResponse(input.response);
        if (parsed.ok())
            prediction = &parsed.value;
    }
    v.rung = parsed.rung;
    v.parseReason = parsed.reason;

    // The grounding family validates the candidate too (json_pass), with its own options; where both option sets
    // must agree on this candidate, the ladder's verdict serves both.
    const bool groundingCandidate = options.grounding && input.schema && !input.importedAsString;
    std::optional<bool> groundingValid;
    if (prediction) {
        if (!input.schema) {
            v.schemaValid = true;
        } else {
            std::string error;
            CompiledSchemaPtr compiledHere;
            const CompiledSchema* schema = input.compiledSchema.get();
            if (!schema) {
                compiledHere = SchemaCache::compile(*input.schema, options.schema, &error);
                schema = compiledHere.get();
            }
            if (schema) {
                // A valid response needs no error list: isValid() stops at the first failure, and only an invalid
                // response has all its errors collected (which tracks the path of every value visited), when asked.
                v.schemaValid = schema->isValid(*prediction);
                if (!v.schemaValid && options.collectSchemaErrors)
                    v.schemaErrors = schema->validate(*prediction);
                if (groundingCandidate && schema->sameVerdictUnder(GroundingOptions {}.validation, *prediction))
                    groundingValid = v.schemaValid;
            } else {
                v.schemaErrors.push_back({ "", "the case's schema does not compile: " + error });
            }
        }
    }

    // The field tallies read the strict diff: it is built (instead of only counted) when the gold has fields.
    std::vector<Difference> strictDifferences;
    const bool fields = options.fields && gold.is_structured() && !gold.empty();
    std::vector<Difference>* const differences
        = options.keepDifferences ? &v.differences : (fields ? &strictDifferences : nullptr);
    v.extraction
        = scoreExtraction(gold, prediction, options.arrays, differences, options.extraction || options.keepDifferences);
    if (fields) {
        v.fields = shareTallies(tallyFields(gold, differences, v.extraction.failed));
    }
    v.ladder = ladderLabel(prediction != nullptr, v.schemaValid, v.extraction.lenient.diff);
    v.ladderStrict = ladderLabel(prediction != nullptr, v.schemaValid, v.extraction.strict.diff);
    if (options.ladder)
        addLadderValues(v);
    if (options.extraction) {
        static const MetricKey points = metricKey("extraction.strategy_points");
        v.values.emplace_back(points, v.extraction.points);
    }

    if (options.grounding && input.schema) {
        // SOB reads a candidate that arrived as a string as "did not parse", whatever it contains.
        const json* candidate = input.importedAsString ? nullptr : prediction;
        GroundingInput g { candidate, gold, *input.schema, input.modality };
        g.prepared = input.groundingSchema.get();
        g.candidateValid = groundingValid;
        v.grounding = std::make_shared<const GroundingScores>(scoreGrounding(g));
        for (const GroundingMetric& m : groundingMetrics())
            v.values.emplace_back(m.id, (*v.grounding).*(m.field));
    }
    if (options.contract) {
        static const json noCatalog;
        v.contract = std::make_shared<const ContractScores>(scoreContract(
            prediction, v.schemaValid, gold, *options.contract, options.catalog ? *options.catalog : noCatalog));
        for (const std::string& id : contractMetricIds(*options.contract)) {
            // Verdicts refer to metric ids by the registry's storage; labels it does not know are not reported.
            const MetricInfo* metric = findMetric(id);
            const std::optional<double> value = contractMetricValue(*v.contract, id);
            if (metric && value)
                v.values.emplace_back(metric->id, *value);
        }
    }
    return v;
}

} // namespace structscope
