// SPDX-License-Identifier: Apache-2.0
#include "scoring/metricregistry.h"

#include <algorithm>
#include <array>

namespace structscope {

namespace {

using K = MetricKind;

// Grouped by family, in the order of docs/metrics.md; familyMetrics() relies on the grouping.
constexpr std::array kMetrics = {
    // 1. ladder (SchemaBench)
    MetricInfo { "ladder.correct", "ladder", "Correct",
        "Share of responses that parse, validate, invent nothing where gold is null, and equal gold under "
        "lenient equality (trimmed, case- and whitespace-folded strings; numbers by value).",
        K::Rate, true },
    MetricInfo { "ladder.correct_strict", "ladder", "Correct (strict)",
        "The same ladder with strict equality, and strict parsing: the whole response must be one JSON value (no "
        "fences or prose around it) and strings must match byte for byte.",
        K::Rate, true },
    MetricInfo { "ladder.invalid_json", "ladder", "Invalid JSON",
        "Share of responses where the parse ladder failed: no clean, fenced or extractable JSON value.", K::Rate,
        false },
    MetricInfo { "ladder.schema_violation", "ladder", "Schema violation",
        "Share of responses that parse but fail the case's JSON Schema.", K::Rate, false },
    MetricInfo { "ladder.hallucinated_on_missing", "ladder", "Hallucinated",
        "Share of schema-valid responses holding a non-null value where gold is null or absent: the failure "
        "that is silent in production.",
        K::Rate, false },
    MetricInfo { "ladder.value_incorrect", "ladder", "Value incorrect",
        "Share of schema-valid responses, inventing nothing, that are not loosely equal to gold.", K::Rate, false },
    MetricInfo { "ladder.cost_per_success", "ladder", "Cost / success",
        "Total cost of the group divided by its number of correct responses (USD).", K::Value, false },
    MetricInfo { "ladder.latency_p50", "ladder", "p50 latency",
        "Median latency in milliseconds (linear interpolation).", K::Value, false },
    MetricInfo {
        "ladder.latency_p95", "ladder", "p95 latency", "95th percentile latency in milliseconds.", K::Value, false },
    MetricInfo {
        "ladder.latency_p99", "ladder", "p99 latency", "99th percentile latency in milliseconds.", K::Value, false },
    MetricInfo { "ladder.consistency", "ladder", "Consistency",
        "Repeats: share of cases whose repeated samples (the same case asked again in the same run) all got the "
        "same ladder label. Only for groups whose cases were asked more than once.",
        K::Value, true },
    MetricInfo { "ladder.pass_hat_k", "ladder", "pass^k",
        "Repeats: share of cases correct in all k samples, k being the most samples a case of the group has "
        "(per case C(c, k)/C(n, k) for c correct of n samples, averaged over the cases with at least k).",
        K::Value, true },

    // 2. extraction (LLMStructBench)
    MetricInfo { "extraction.score", "extraction", "Score", "0.5 · F1 micro + 0.5 · DOC micro.", K::Micro, true },
    MetricInfo { "extraction.f1_micro", "extraction", "F1 micro",
        "0.25 · F1 keys + 0.75 · F1 values, from summed counts.", K::Micro, true },
    MetricInfo { "extraction.doc_micro", "extraction", "DOC micro",
        "(correct / tests) · (1 − failed / tests): correct means no missing key, missing value, wrong value or "
        "extra key; failed means empty output, unparsable, or a fatal schema violation (a root of another kind "
        "than the gold's, e.g. an array for an object).",
        K::Micro, true },
    MetricInfo { "extraction.f1_keys", "extraction", "F1 keys",
        "F1 over leaf keys: TP gold keys present in the prediction, FP extra keys, FN missing keys.", K::Micro, true },
    MetricInfo { "extraction.f1_values", "extraction", "F1 values",
        "F1 over values with Levenshtein partial credit for string deviations and 0.2 credit for coercible "
        "values; precision over non-null predicted leaves, recall over gold leaves.",
        K::Micro, true },
    MetricInfo { "extraction.f1_values_lenient", "extraction", "F1 values (lenient)",
        "F1 values with lenient string equality (trimmed, case- and whitespace-folded).", K::Micro, true },
    MetricInfo { "extraction.strategy_points", "extraction", "Strategy points",
        "Mean points per case: correct +10, each wrong value or extra key −1, each missing key or value −2, "
        "failed −15.",
        K::Mean, true },

    // 3. grounding (Structured Output Benchmark)
    MetricInfo { "grounding.json_parse", "grounding", "JSON parse",
        "The candidate is parsed JSON (an imported candidate that is a string counts as not parsed).", K::Rate, true },
    MetricInfo { "grounding.json_root", "grounding", "JSON root", "Parsed, and the root is an object or an array.",
        K::Rate, true },
    MetricInfo { "grounding.schema_valid_input", "grounding", "Schema valid input",
        "The record's schema is a valid draft-07 schema.", K::Rate, true },
    MetricInfo { "grounding.json_pass", "grounding", "JSON pass",
        "Parsed, structured root, valid schema, and the candidate validates (formats ignored, integral "
        "floats accepted as integers, as SOB's Python validator).",
        K::Rate, true },
    MetricInfo { "grounding.value_accuracy", "grounding", "Value accuracy",
        "Share of gold leaf paths present in the prediction with an equal value (numbers by value, true == 1), "
        "times hardening and the coverage gate.",
        K::Mean, true },
    MetricInfo { "grounding.faithfulness", "grounding", "Faithfulness",
        "Mean SQuAD token F1 between gold and predicted leaf values, times hardening and the coverage gate.", K::Mean,
        true },
    MetricInfo { "grounding.path_recall", "grounding", "Path recall",
        "Share of gold leaf paths present in the prediction, times hardening.", K::Mean, true },
    MetricInfo { "grounding.structure_coverage", "grounding", "Structure coverage",
        "F1 of the gold and predicted leaf-path sets, times hardening.", K::Mean, true },
    MetricInfo { "grounding.type_safety", "grounding", "Type safety",
        "Share of predicted leaves whose JSON type matches the schema type at that path, times hardening.", K::Mean,
        true },
    MetricInfo { "grounding.required_key_recall", "grounding", "Required key recall",
        "Share of the schema's required paths present in the prediction.", K::Mean, true },
    MetricInfo { "grounding.perfect", "grounding", "Perfect",
        "Canonical JSON of the prediction equals that of gold (1.0 differs from 1); no gate.", K::Rate, true },

    // 4. contract (OrderBench)
    MetricInfo { "contract.semantic_success", "contract", "Semantic success",
        "Accepted gold: status, items (as a multiset over the declared fields) and constraints all right. "
        "Other gold: status right, no executable items, constraints exact.",
        K::Rate, true },
    MetricInfo { "contract.unsafe_acceptance", "contract", "Unsafe acceptance",
        "The prediction accepts where gold does not, or accepts an item that, after its removals and with "
        "its additions, still conflicts with a stated allergen or dietary constraint (catalog lookup).",
        K::Rate, false },
    MetricInfo {
        "contract.schema_valid", "contract", "Schema valid", "The response parses and validates.", K::Rate, true },
    MetricInfo { "contract.status_accuracy", "contract", "Status accuracy", "The predicted status equals gold's.",
        K::Rate, true },
    MetricInfo { "contract.taxonomy.safety_failure", "contract", "Safety failure",
        "Share of responses whose acceptance is unsafe (taxonomy rule of the suite).", K::Rate, false },
    MetricInfo { "contract.taxonomy.catalog_hallucination", "contract", "Catalog hallucination",
        "Share of responses naming a SKU, size or modifier the catalog does not have.", K::Rate, false },
    MetricInfo { "contract.taxonomy.quantity_size", "contract", "Quantity / size",
        "Share of responses with a wrong quantity or size on a matched item.", K::Rate, false },
    MetricInfo { "contract.taxonomy.scope_split", "contract", "Scope split",
        "Share of responses that split or merge item objects wrongly, or attach a modifier to the wrong item.", K::Rate,
        false },
    MetricInfo { "contract.taxonomy.negation", "contract", "Negation",
        "Share of responses with wrong removals (\"no onion\" lost or invented).", K::Rate, false },
    MetricInfo { "contract.taxonomy.allergen_preservation", "contract", "Allergen preservation",
        "Share of responses that lose or change a stated allergen constraint.", K::Rate, false },

    // 5. field (per field of the gold; only in reports grouped by field)
    MetricInfo { "field.accuracy", "field", "Field accuracy",
        "Share of the field's gold values (over every response; each array element is one) that the response "
        "got right under lenient equality. Failed responses miss every value.",
        K::Micro, true },
    MetricInfo { "field.accuracy_strict", "field", "Field accuracy (strict)",
        "The same share under strict equality (strings byte for byte).", K::Micro, true },
    MetricInfo { "field.missing", "field", "Field missing",
        "Share of the field's gold values the response lacks: the key is absent, or it holds null where gold "
        "has a value.",
        K::Micro, false },
    MetricInfo { "field.wrong", "field", "Field wrong",
        "Share of the field's gold values the response holds a wrong value for (a string deviation, another "
        "value, a coercible or another type), not equal to gold even under lenient equality.",
        K::Micro, false },
    MetricInfo { "field.invented", "field", "Field invented",
        "Share of the field's gold values that are null where the response holds a value.", K::Micro, false },
    MetricInfo { "field.type_error", "field", "Field type error",
        "Share of the field's gold values the response holds a value of another JSON type for (not coercible): "
        "part of field.wrong.",
        K::Micro, false },
    MetricInfo { "field.elements", "field", "Field values",
        "Gold values of the field summed over the group's responses (its denominator).", K::Value, true },
};

} // namespace

std::span<const MetricInfo> allMetrics()
{
    return kMetrics;
}

const MetricInfo* findMetric(std::string_view id)
{
    const auto it = std::find_if(kMetrics.begin(), kMetrics.end(), [&](const MetricInfo& m) { return m.id == id; });
    return it == kMetrics.end() ? nullptr : &*it;
}

std::span<const MetricInfo> familyMetrics(std::string_view family)
{
    const auto first
        = std::find_if(kMetrics.begin(), kMetrics.end(), [&](const MetricInfo& m) { return m.family == family; });
    const auto last = std::find_if(first, kMetrics.end(), [&](const MetricInfo& m) { return m.family != family; });
    return { first, last };
}

} // namespace structscope
