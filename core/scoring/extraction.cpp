// SPDX-License-Identifier: Apache-2.0
#include "scoring/extraction.h"

#include <cmath>
#include <limits>

using nlohmann::json;

namespace structscope {

namespace {

constexpr double kBeta = 0.2; // credit for a coercible value ("42" for 42)
constexpr double kGamma = 0.5; // slope of the partial credit for near-miss strings

// Points of LLMStructBench's strategy comparison.
constexpr double kPointsCorrect = 10;
constexpr double kPointsMistake = -1;
constexpr double kPointsError = -2;
constexpr double kPointsFailed = -15;

struct Shape
{
    int keys = 0; // leaves and empty containers below the root
    int nonNull = 0;
};

void measure(const json& value, bool isRoot, Shape& shape)
{
    if (value.is_object() || value.is_array()) {
        if (value.empty()) {
            if (!isRoot)
                ++shape.keys;
            return;
        }
        for (const json& child : value)
            measure(child, false, shape);
        return;
    }
    ++shape.keys;
    if (!value.is_null())
        ++shape.nonNull;
}

ExtractionCounts countsFor(const json& gold, const json& prediction, const Shape& goldShape, const Shape& predShape,
    const DiffOptions& options, std::vector<Difference>* keep, bool credit)
{
    ExtractionCounts counts;
    counts.goldKeys = goldShape.keys;
    counts.goldValues = goldShape.nonNull;
    counts.predictedValues = predShape.nonNull;
    if (!keep) {
        // Only the counts are wanted: no difference is built (countDiff gives the deviations in diffJson's order,
        // so the credit sums in the same order).
        thread_local std::vector<double> deviations;
        deviations.clear();
        counts.diff = countDiff(gold, prediction, options, credit ? &deviations : nullptr);
        for (const double l : deviations)
            counts.partialCredit += deviationCredit(l);
        return counts;
    }
    DiffOptions kept = options;
    kept.distances = credit;
    std::vector<Difference> differences = diffJson(gold, prediction, kept);
    counts.diff = countDifferences(differences);
    for (const Difference& d : differences) {
        if (credit && d.kind == DiffKind::WrongValue && d.wrongKind == WrongValueKind::Deviation)
            counts.partialCredit += deviationCredit(d.levenshtein);
    }
    *keep = std::move(differences);
    return counts;
}

double f1(double tp, double fp, double fn)
{
    const double denominator = 2 * tp + fp + fn;
    return denominator > 0 ? std::max(0.0, 2 * tp / denominator) : 0.0;
}

// F1 from precision TP/N_pred and recall TP/N_gold; TP may be negative, which clamps to 0.
double f1FromTotals(double tp, double predicted, double gold)
{
    tp = std::max(0.0, tp);
    const double precision = predicted > 0 ? tp / predicted : 0.0;
    const double recall = gold > 0 ? tp / gold : 0.0;
    return precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
}

} // namespace

double ExtractionCounts::valueTruePositives() const
{
    const DiffCounts& d = diff;
    const int typeErrorsOnValues = d.wvType - d.goldNull;
    return goldValues - d.mv - (typeErrorsOnValues + d.wvValue + d.wvCoercible + d.wvDeviation) + partialCredit
        + kBeta * d.wvCoercible;
}

double deviationCredit(double l)
{
    if (l <= 0.1)
        return 1.0;
    if (l < 2.0)
        return kGamma * (1.0 - l);
    return -1.0;
}

// The same kind of root: two objects, two arrays, or two non-containers.
bool sameRootKind(const json& a, const json& b)
{
    if (a.is_object() || b.is_object())
        return a.is_object() && b.is_object();
    if (a.is_array() || b.is_array())
        return a.is_array() && b.is_array();
    return true;
}

ExtractionRecord scoreExtraction(const json& gold, const json* prediction, ArrayMatching arrays,
    std::vector<Difference>* strictDifferences, bool credit)
{
    ExtractionRecord record;
    Shape goldShape;
    measure(gold, true, goldShape);

    // A failed output (nothing usable) is scored as all-missing in add(); it has no diff of its own.
    const bool emptyOutput
        = prediction && (prediction->is_object() || prediction->is_array()) && prediction->empty() && !gold.empty();
    record.failed = !prediction || !sameRootKind(gold, *prediction) || emptyOutput;
    if (record.failed) {
        for (ExtractionCounts* counts : { &record.strict, &record.lenient }) {
            counts->goldKeys = goldShape.keys;
            counts->goldValues = goldShape.nonNull;
        }
        record.points = kPointsFailed;
        return record;
    }

    Shape predShape;
    measure(*prediction, true, predShape);
    record.strict
        = countsFor(gold, *prediction, goldShape, predShape, { arrays, Equality::Strict }, strictDifferences, credit);
    record.lenient = countsFor(gold, *prediction, goldShape, predShape, { arrays, Equality::Lenient }, nullptr, credit);
    record.correct = record.strict.diff.perfect();
    if (record.correct) {
        record.points = kPointsCorrect;
    } else {
        const DiffCounts& d = record.strict.diff;
        record.points = kPointsMistake * (d.wv() + d.extra) + kPointsError * (d.mk + d.mv);
    }
    return record;
}

ExtractionAdds extractionAdds(const ExtractionRecord& record)
{
    const ExtractionCounts& s = record.strict;
    ExtractionAdds a;
    a.values[ExtractionAdds::Points] = record.points;
    a.values[ExtractionAdds::GoldValues] = s.goldValues;
    if (record.failed) {
        // Nothing was extracted: every gold key and value is missed, nothing is predicted.
        a.values[ExtractionAdds::Failed] = 1;
        a.values[ExtractionAdds::KeyFn] = s.goldKeys;
        return a;
    }
    a.values[ExtractionAdds::KeyTp] = s.goldKeys - s.diff.mk;
    a.values[ExtractionAdds::KeyFp] = s.diff.extra;
    a.values[ExtractionAdds::KeyFn] = s.diff.mk;
    a.values[ExtractionAdds::ValueTp] = s.valueTruePositives();
    a.values[ExtractionAdds::ValueTpLenient] = record.lenient.valueTruePositives();
    a.values[ExtractionAdds::PredictedValues] = s.predictedValues;
    a.values[ExtractionAdds::Correct] = record.correct ? 1 : 0;
    return a;
}

void ExtractionTotals::add(const ExtractionRecord& record, int times)
{
    const auto& a = extractionAdds(record).values;
    const double k = times;
    records += times;
    points += k * a[ExtractionAdds::Points];
    goldValues += k * a[ExtractionAdds::GoldValues];
    failed += times * int(a[ExtractionAdds::Failed]);
    correct += times * int(a[ExtractionAdds::Correct]);
    keyTp += k * a[ExtractionAdds::KeyTp];
    keyFp += k * a[ExtractionAdds::KeyFp];
    keyFn += k * a[ExtractionAdds::KeyFn];
    valueTp += k * a[ExtractionAdds::ValueTp];
    valueTpLenient += k * a[ExtractionAdds::ValueTpLenient];
    predictedValues += k * a[ExtractionAdds::PredictedValues];
}

void ExtractionTotals::add(const ExtractionTotals& other)
{
    records += other.records;
    points += other.points;
    goldValues += other.goldValues;
    failed += other.failed;
    correct += other.correct;
    keyTp += other.keyTp;
    keyFp += other.keyFp;
    keyFn += other.keyFn;
    valueTp += other.valueTp;
    valueTpLenient += other.valueTpLenient;
    predictedValues += other.predictedValues;
}

ExtractionTotals ExtractionTotals::fromSums(const std::array<double, ExtractionAdds::Count>& sums, int records)
{
    ExtractionTotals t;
    t.records = records;
    t.points = sums[ExtractionAdds::Points];
    t.goldValues = sums[ExtractionAdds::GoldValues];
    t.failed = int(sums[ExtractionAdds::Failed]);
    t.correct = int(sums[ExtractionAdds::Correct]);
    t.keyTp = sums[ExtractionAdds::KeyTp];
    t.keyFp = sums[ExtractionAdds::KeyFp];
    t.keyFn = sums[ExtractionAdds::KeyFn];
    t.valueTp = sums[ExtractionAdds::ValueTp];
    t.valueTpLenient = sums[ExtractionAdds::ValueTpLenient];
    t.predictedValues = sums[ExtractionAdds::PredictedValues];
    return t;
}

double ExtractionTotals::f1Keys() const
{
    return f1(keyTp, keyFp, keyFn);
}

double ExtractionTotals::f1Values() const
{
    return f1FromTotals(valueTp, predictedValues, goldValues);
}

double ExtractionTotals::f1ValuesLenient() const
{
    return f1FromTotals(valueTpLenient, predictedValues, goldValues);
}

double ExtractionTotals::f1Micro() const
{
    return 0.25 * f1Keys() + 0.75 * f1Values();
}

double ExtractionTotals::docMicro() const
{
    if (records == 0)
        return std::numeric_limits<double>::quiet_NaN();
    const double n = records;
    return (correct / n) * (1.0 - failed / n);
}

double ExtractionTotals::score() const
{
    return 0.5 * f1Micro() + 0.5 * docMicro();
}

double ExtractionTotals::meanPoints() const
{
    return records > 0 ? points / records : std::numeric_limits<double>::quiet_NaN();
}

} // namespace structscope
