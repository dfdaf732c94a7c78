// SPDX-License-Identifier: Apache-2.0
// The verdict codec: every field comes back bit for bit, typical verdicts stay small, and damaged input is refused
// cleanly. Checked on hand-built verdicts that set every field, and on verdicts of the four built-in suites.
#include "scoring/metricregistry.h"
#include "scoring/scorer.h"
#include "scoring/verdictcodec.h"
#include "suite/suiteloader.h"

#include <QTest>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

using namespace Qt::StringLiterals;
using namespace std::string_literals;
using namespace structscope;
using nlohmann::json;

Q_DECLARE_METATYPE(std::string)

namespace {

// A field added to one of these structs must be encoded (bumping kVerdictCodecVersion) and compared below; these
// sizes make the test stop compiling until then. Should a change of layout alone trip them, update the number.
#if defined(__GLIBCXX__) && __SIZEOF_POINTER__ == 8
static_assert(sizeof(Verdict) == 352);
static_assert(sizeof(FieldTally) == 8 * sizeof(std::uint32_t));
static_assert(sizeof(SchemaError) == 2 * sizeof(std::string));
static_assert(sizeof(DiffCounts) == 9 * sizeof(int));
static_assert(sizeof(ExtractionCounts) == 56);
static_assert(sizeof(ExtractionRecord) == 128);
static_assert(sizeof(Difference) == 2 * sizeof(std::string) + 2 * sizeof(json) + 24);
static_assert(sizeof(GroundingScores) == 18 * sizeof(double) + 4 * sizeof(int));
static_assert(sizeof(ContractScores) == 16 + 4 * sizeof(std::vector<std::string>));
static_assert(sizeof(ContractDifference) == 2 * sizeof(std::string));
#endif

using Field = std::pair<const char*, int DiffCounts::*>;
const std::array<Field, 9> kDiffFields = {
    Field { "mk", &DiffCounts::mk },
    Field { "mv", &DiffCounts::mv },
    Field { "wvDeviation", &DiffCounts::wvDeviation },
    Field { "wvValue", &DiffCounts::wvValue },
    Field { "wvCoercible", &DiffCounts::wvCoercible },
    Field { "wvType", &DiffCounts::wvType },
    Field { "extra", &DiffCounts::extra },
    Field { "goldNull", &DiffCounts::goldNull },
    Field { "invented", &DiffCounts::invented },
};
using CountField = std::pair<const char*, int ExtractionCounts::*>;
const std::array<CountField, 3> kCountFields = {
    CountField { "goldKeys", &ExtractionCounts::goldKeys },
    CountField { "goldValues", &ExtractionCounts::goldValues },
    CountField { "predictedValues", &ExtractionCounts::predictedValues },
};
using GroundingDouble = std::pair<const char*, double GroundingScores::*>;
const std::array<GroundingDouble, 18> kGroundingDoubles = {
    GroundingDouble { "jsonParse", &GroundingScores::jsonParse },
    GroundingDouble { "jsonRoot", &GroundingScores::jsonRoot },
    GroundingDouble { "schemaValidInput", &GroundingScores::schemaValidInput },
    GroundingDouble { "jsonPass", &GroundingScores::jsonPass },
    GroundingDouble { "valueAccuracy", &GroundingScores::valueAccuracy },
    GroundingDouble { "faithfulness", &GroundingScores::faithfulness },
    GroundingDouble { "pathRecall", &GroundingScores::pathRecall },
    GroundingDouble { "structureCoverage", &GroundingScores::structureCoverage },
    GroundingDouble { "typeSafety", &GroundingScores::typeSafety },
    GroundingDouble { "requiredKeyRecall", &GroundingScores::requiredKeyRecall },
    GroundingDouble { "perfect", &GroundingScores::perfect },
    GroundingDouble { "hardening", &GroundingScores::hardening },
    GroundingDouble { "gate", &GroundingScores::gate },
    GroundingDouble { "rawCoverage", &GroundingScores::rawCoverage },
    GroundingDouble { "rawValueAccuracy", &GroundingScores::rawValueAccuracy },
    GroundingDouble { "rawFaithfulness", &GroundingScores::rawFaithfulness },
    GroundingDouble { "rawPathRecall", &GroundingScores::rawPathRecall },
    GroundingDouble { "rawTypeSafety", &GroundingScores::rawTypeSafety },
};
using GroundingInt = std::pair<const char*, int GroundingScores::*>;
const std::array<GroundingInt, 4> kGroundingInts = {
    GroundingInt { "goldLeaves", &GroundingScores::goldLeaves },
    GroundingInt { "predictedLeaves", &GroundingScores::predictedLeaves },
    GroundingInt { "matchedPaths", &GroundingScores::matchedPaths },
    GroundingInt { "requiredPaths", &GroundingScores::requiredPaths },
};
using ContractFlag = std::pair<const char*, bool ContractScores::*>;
const std::array<ContractFlag, 9> kContractFlags = {
    ContractFlag { "parsed", &ContractScores::parsed },
    ContractFlag { "semanticSuccess", &ContractScores::semanticSuccess },
    ContractFlag { "unsafeAcceptance", &ContractScores::unsafeAcceptance },
    ContractFlag { "schemaValid", &ContractScores::schemaValid },
    ContractFlag { "statusCorrect", &ContractScores::statusCorrect },
    ContractFlag { "predictedAccepts", &ContractScores::predictedAccepts },
    ContractFlag { "goldAccepts", &ContractScores::goldAccepts },
    ContractFlag { "catalogViolation", &ContractScores::catalogViolation },
    ContractFlag { "itemSplit", &ContractScores::itemSplit },
};

std::uint64_t bitsOf(double d)
{
    return std::bit_cast<std::uint64_t>(d);
}

double fromBits(std::uint64_t bits)
{
    return std::bit_cast<double>(bits);
}

/// The same value of another bit pattern (a NaN stays a NaN of another payload; -0.0 becomes a denormal).
double otherBits(double d)
{
    return fromBits(bitsOf(d) ^ 1);
}

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kQuietNan = fromBits(0x7ff8'0000'0000'0123); // a payload the codec must keep
const double kNegativeNan = fromBits(0xfff0'0000'0000'0abc); // signalling, sign bit set

/// Same type and value, floats bit for bit, object keys in the same order.
bool sameJson(const json& a, const json& b)
{
    if (a.type() != b.type())
        return false;
    switch (a.type()) {
    case json::value_t::number_float:
        return bitsOf(a.get<double>()) == bitsOf(b.get<double>());
    case json::value_t::array:
        return std::equal(a.begin(), a.end(), b.begin(), b.end(), sameJson);
    case json::value_t::object: {
        const auto& x = a.get_ref<const json::object_t&>();
        const auto& y = b.get_ref<const json::object_t&>();
        return std::equal(x.begin(), x.end(), y.begin(), y.end(),
            [](const auto& p, const auto& q) { return p.first == q.first && sameJson(p.second, q.second); });
    }
    case json::value_t::binary:
        return a.get_binary() == b.get_binary(); // bytes, subtype and whether there is one
    case json::value_t::discarded:
        return true;
    default:
        return a == b;
    }
}

/// Collects the name of the first field where two verdicts differ.
class Comparison
{
public:
    void field(bool same, const QString& name)
    {
        if (!same && m_first.isEmpty())
            m_first = name;
    }
    void number(double a, double b, const QString& name) { field(bitsOf(a) == bitsOf(b), name); }
    QString first() const { return m_first; }

private:
    QString m_first;
};

void compareCounts(Comparison& c, const ExtractionCounts& a, const ExtractionCounts& b, const QString& prefix)
{
    for (const auto& [name, field] : kDiffFields)
        c.field(a.diff.*field == b.diff.*field, prefix + u".diff."_s + QLatin1String(name));
    for (const auto& [name, field] : kCountFields)
        c.field(a.*field == b.*field, prefix + u'.' + QLatin1String(name));
    c.number(a.partialCredit, b.partialCredit, prefix + u".partialCredit"_s);
}

void compareStrings(
    Comparison& c, const std::vector<std::string>& a, const std::vector<std::string>& b, const QString& name)
{
    c.field(a == b, name);
}

/// The first field where the verdicts differ, "" when they agree in every one: doubles bit for bit, JSON values in
/// type too, metric values in order.
QString verdictDifference(const Verdict& a, const Verdict& b)
{
    Comparison c;
    c.field(a.rung == b.rung, u"rung"_s);
    c.field(a.ladder == b.ladder, u"ladder"_s);
    c.field(a.ladderStrict == b.ladderStrict, u"ladderStrict"_s);
    c.field(a.schemaValid == b.schemaValid, u"schemaValid"_s);
    c.field(a.parseReason == b.parseReason, u"parseReason"_s);
    c.field(a.schemaErrors.size() == b.schemaErrors.size(), u"schemaErrors.size"_s);
    for (std::size_t i = 0; i < std::min(a.schemaErrors.size(), b.schemaErrors.size()); ++i) {
        c.field(a.schemaErrors[i].pointer == b.schemaErrors[i].pointer, u"schemaErrors[%1].pointer"_s.arg(i));
        c.field(a.schemaErrors[i].message == b.schemaErrors[i].message, u"schemaErrors[%1].message"_s.arg(i));
    }

    compareCounts(c, a.extraction.strict, b.extraction.strict, u"extraction.strict"_s);
    compareCounts(c, a.extraction.lenient, b.extraction.lenient, u"extraction.lenient"_s);
    c.field(a.extraction.failed == b.extraction.failed, u"extraction.failed"_s);
    c.field(a.extraction.correct == b.extraction.correct, u"extraction.correct"_s);
    c.number(a.extraction.points, b.extraction.points, u"extraction.points"_s);

    c.field(a.differences.size() == b.differences.size(), u"differences.size"_s);
    for (std::size_t i = 0; i < std::min(a.differences.size(), b.differences.size()); ++i) {
        const Difference& x = a.differences[i];
        const Difference& y = b.differences[i];
        const QString at = u"differences[%1]."_s.arg(i);
        c.field(x.kind == y.kind, at + u"kind"_s);
        c.field(x.wrongKind == y.wrongKind, at + u"wrongKind"_s);
        c.field(x.pointer == y.pointer, at + u"pointer"_s);
        c.field(x.path == y.path, at + u"path"_s);
        c.field(sameJson(x.gold, y.gold), at + u"gold"_s);
        c.field(sameJson(x.predicted, y.predicted), at + u"predicted"_s);
        c.number(x.levenshtein, y.levenshtein, at + u"levenshtein"_s);
        c.field(x.goldNull == y.goldNull, at + u"goldNull"_s);
    }

    c.field(bool(a.grounding) == bool(b.grounding), u"grounding (present)"_s);
    if (a.grounding && b.grounding) {
        for (const auto& [name, field] : kGroundingDoubles)
            c.number((*a.grounding).*field, (*b.grounding).*field, u"grounding."_s + QLatin1String(name));
        for (const auto& [name, field] : kGroundingInts)
            c.field((*a.grounding).*field == (*b.grounding).*field, u"grounding."_s + QLatin1String(name));
    }

    c.field(bool(a.contract) == bool(b.contract), u"contract (present)"_s);
    if (a.contract && b.contract) {
        const ContractScores& x = *a.contract;
        const ContractScores& y = *b.contract;
        for (const auto& [name, field] : kContractFlags)
            c.field(x.*field == y.*field, u"contract."_s + QLatin1String(name));
        compareStrings(c, x.labels, y.labels, u"contract.labels"_s);
        c.field(x.differences.size() == y.differences.size(), u"contract.differences.size"_s);
        for (std::size_t i = 0; i < std::min(x.differences.size(), y.differences.size()); ++i) {
            c.field(x.differences[i].pointer == y.differences[i].pointer, u"contract.differences[%1].pointer"_s.arg(i));
            c.field(x.differences[i].message == y.differences[i].message, u"contract.differences[%1].message"_s.arg(i));
        }
        compareStrings(c, x.unsafeReasons, y.unsafeReasons, u"contract.unsafeReasons"_s);
        compareStrings(c, x.catalogViolations, y.catalogViolations, u"contract.catalogViolations"_s);
    }

    c.field(bool(a.fields) == bool(b.fields), u"fields (present)"_s);
    if (a.fields && b.fields)
        c.field(*a.fields == *b.fields, u"fields"_s);

    c.field(a.values.size() == b.values.size(), u"values.size"_s);
    for (std::size_t i = 0; i < std::min(a.values.size(), b.values.size()); ++i) {
        c.field(a.values.key(i) == b.values.key(i), u"values[%1].id"_s.arg(i));
        c.number(a.values.value(i), b.values.value(i), u"values[%1].value"_s.arg(i));
    }
    return c.first();
}

bool sameVerdict(const Verdict& a, const Verdict& b)
{
    return verdictDifference(a, b).isEmpty();
}

/// A JSON value of every type nlohmann holds, with the doubles and strings a codec is likely to get wrong.
json everyJsonKind()
{
    json doc = json::object();
    doc["null"] = nullptr;
    doc["booleans"] = json::array({ false, true });
    doc["integer"] = json::number_integer_t(-1234567890123);
    doc["integer, positive"] = json::number_integer_t(42); // equal to the unsigned 42 below, but another type
    doc["unsigned"] = json::number_unsigned_t(42);
    doc["extremes"] = json::array({ std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(),
        std::numeric_limits<std::uint64_t>::max() });
    doc["floats"] = json::array({ 0.0, -0.0, 1.0, -1.0, 0.1, 1e308, kInf, -kInf, kQuietNan, kNegativeNan,
        std::numeric_limits<double>::denorm_min(), 42.0 });
    doc["strings"] = json::array({ "", "Grüße aus 東京 🎉", std::string("nul\0inside", 10) });
    doc["empty array"] = json::array();
    doc["empty object"] = json::object();
    doc["nested"] = { { "a", { { "b", json::array({ json::array({ 1 }), json::object() }) } } } };
    doc["binary"] = json::binary({ 1, 2, 255 });
    doc["binary with subtype"] = json::binary({ 0 }, 300);
    doc["clé ünïcode"] = "v";
    doc[""] = "the empty key";
    return doc;
}

/// A verdict with every field set, none to its default.
Verdict fullVerdict()
{
    Verdict v;
    v.rung = ParseRung::Extracted;
    v.ladder = LadderLabel::HallucinatedOnMissing;
    v.ladderStrict = LadderLabel::ValueIncorrect;
    v.schemaValid = true;
    v.parseReason = "Zeile 3: unerwartetes Zeichen „}“";
    v.schemaErrors = { { "/items/0/quantity", "must be ≥ 1" }, { "", "" }, { "/a~1b", "not one of [\"x\"]" } };

    ExtractionCounts& strict = v.extraction.strict;
    strict.diff = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    strict.goldKeys = 100;
    strict.goldValues = 200000;
    strict.predictedValues = std::numeric_limits<int>::max();
    strict.partialCredit = kQuietNan;
    ExtractionCounts& lenient = v.extraction.lenient;
    lenient.diff = { -1, 63, 64, 1000, 130, 8191, 8192, 1, std::numeric_limits<int>::min() };
    lenient.goldKeys = 3;
    lenient.goldValues = -70000;
    lenient.predictedValues = 17;
    lenient.partialCredit = -0.0;
    v.extraction.failed = true;
    v.extraction.correct = true;
    v.extraction.points = kInf;

    Difference missing;
    missing.kind = DiffKind::MissingKey;
    missing.pointer = "/requester/name";
    missing.path = "requester.name";
    missing.gold = "Marta Lindqvist";
    missing.levenshtein = -0.0;
    Difference deviation;
    deviation.kind = DiffKind::WrongValue;
    deviation.wrongKind = WrongValueKind::Deviation;
    deviation.pointer = "/städte/0";
    deviation.path = "städte[0]";
    deviation.gold = everyJsonKind();
    deviation.predicted = json::array({ -0.0, json::number_unsigned_t(7), "Berlni" });
    deviation.levenshtein = 1.0 / 3;
    Difference typeError;
    typeError.kind = DiffKind::WrongValue;
    typeError.wrongKind = WrongValueKind::TypeError;
    typeError.goldNull = true;
    typeError.predicted = json::object({ { "x", kNegativeNan } });
    typeError.levenshtein = 1.0;
    Difference extra;
    extra.kind = DiffKind::ExtraKey;
    extra.wrongKind = WrongValueKind::Coercible;
    extra.pointer = "/extra";
    extra.path = "extra";
    extra.gold = json(json::value_t::discarded);
    extra.predicted = 1;
    extra.levenshtein = kNegativeNan;
    Difference missingValue;
    missingValue.kind = DiffKind::MissingValue;
    missingValue.wrongKind = WrongValueKind::ValueError;
    v.differences = { missing, deviation, typeError, extra, missingValue };

    auto grounding = std::make_shared<GroundingScores>();
    const std::array<double, 18> doubles = { 1.0, 0.0, -0.0, 0.5, 1.0 / 3, kQuietNan,
        std::numeric_limits<double>::denorm_min(), -kInf, 0.25, 0.75, 1.0, 0.9, 0.1, 0.95, 0.3, 0.4, 0.6, 0.7 };
    for (std::size_t i = 0; i < doubles.size(); ++i)
        (*grounding).*kGroundingDoubles[i].second = doubles[i];
    grounding->goldLeaves = 12;
    grounding->predictedLeaves = 300;
    grounding->matchedPaths = -5;
    grounding->requiredPaths = 70000;
    v.grounding = std::move(grounding);

    auto contract = std::make_shared<ContractScores>();
    for (std::size_t i = 0; i < kContractFlags.size(); ++i)
        (*contract).*kContractFlags[i].second = i % 2 == 0;
    contract->labels = { "safety_failure", "négation" };
    contract->differences = { { "/items/1", "missing item “burger”" }, { "", "" } };
    contract->unsafeReasons = { "burger contains gluten" };
    contract->catalogViolations = { "" };
    v.contract = std::move(contract);

    // More than fit inline, an id the codec's table lacks, an id twice, and the awkward doubles.
    v.values = { { "ladder.correct", 1.0 }, { "ladder.correct_strict", 0.0 }, { "ladder.invalid_json", -0.0 },
        { "custom.métrique", kQuietNan }, { "ladder.schema_violation", kInf },
        { "ladder.hallucinated_on_missing", 0.5 }, { "ladder.value_incorrect", kNegativeNan },
        { "extraction.strategy_points", -15.0 }, { "grounding.perfect", 1e-300 }, { "ladder.correct", 0.0 } };
    static_assert(MetricValues::kInline < 10);

    v.fields = std::make_shared<const FieldTallies>(FieldTallies {
        { fieldKey("items[].sku"), 3, 1, 2, 1, 0, 0, 0 },
        { fieldKey("customer.naïve"), 70000, 0, 0, 1, 69998, 1, 69998 },
        { fieldKey(""), 1, 0, 0, 0, 0, 1, 0 },
    });
    return v;
}

/// One field of a verdict changed, by name.
using Mutation = std::pair<QString, std::function<void(Verdict&)>>;

void editGrounding(Verdict& v, const std::function<void(GroundingScores&)>& edit)
{
    auto copy = std::make_shared<GroundingScores>(*v.grounding);
    edit(*copy);
    v.grounding = std::move(copy);
}

void editContract(Verdict& v, const std::function<void(ContractScores&)>& edit)
{
    auto copy = std::make_shared<ContractScores>(*v.contract);
    edit(*copy);
    v.contract = std::move(copy);
}

/// Every field of fullVerdict() changed, one at a time.
std::vector<Mutation> mutations()
{
    std::vector<Mutation> m;
    m.emplace_back(u"rung"_s, [](Verdict& v) { v.rung = ParseRung::Fenced; });
    m.emplace_back(u"ladder"_s, [](Verdict& v) { v.ladder = LadderLabel::Correct; });
    m.emplace_back(u"ladderStrict"_s, [](Verdict& v) { v.ladderStrict = LadderLabel::SchemaViolation; });
    m.emplace_back(u"schemaValid"_s, [](Verdict& v) { v.schemaValid = false; });
    m.emplace_back(u"parseReason"_s, [](Verdict& v) { v.parseReason += '.'; });
    m.emplace_back(u"parseReason emptied"_s, [](Verdict& v) { v.parseReason.clear(); });
    m.emplace_back(u"schemaErrors.size"_s, [](Verdict& v) { v.schemaErrors.pop_back(); });
    m.emplace_back(u"schemaErrors.pointer"_s, [](Verdict& v) { v.schemaErrors[1].pointer = "/"; });
    m.emplace_back(u"schemaErrors.message"_s, [](Verdict& v) { v.schemaErrors[2].message.clear(); });
    for (const bool strict : { true, false }) {
        const auto counts
            = [strict](Verdict& v) -> ExtractionCounts& { return strict ? v.extraction.strict : v.extraction.lenient; };
        const QString prefix = strict ? u"strict."_s : u"lenient."_s;
        // `field = field` below: clang 14 cannot capture a structured binding itself.
        for (const auto& [name, field] : kDiffFields)
            m.emplace_back(
                prefix + QLatin1String(name), [counts, field = field](Verdict& v) { counts(v).diff.*field += 1; });
        for (const auto& [name, field] : kCountFields)
            m.emplace_back(
                prefix + QLatin1String(name), [counts, field = field](Verdict& v) { counts(v).*field -= 1; });
        m.emplace_back(prefix + u"partialCredit"_s,
            [counts](Verdict& v) { counts(v).partialCredit = otherBits(counts(v).partialCredit); });
    }
    m.emplace_back(u"lenient.partialCredit +0.0"_s, [](Verdict& v) { v.extraction.lenient.partialCredit = 0.0; });
    m.emplace_back(u"extraction.failed"_s, [](Verdict& v) { v.extraction.failed = false; });
    m.emplace_back(u"extraction.correct"_s, [](Verdict& v) { v.extraction.correct = false; });
    m.emplace_back(u"extraction.points"_s, [](Verdict& v) { v.extraction.points = -kInf; });
    m.emplace_back(u"differences.size"_s, [](Verdict& v) { v.differences.pop_back(); });
    m.emplace_back(u"differences cleared"_s, [](Verdict& v) { v.differences.clear(); });
    m.emplace_back(u"difference.kind"_s, [](Verdict& v) { v.differences[0].kind = DiffKind::MissingValue; });
    m.emplace_back(u"difference.wrongKind"_s, [](Verdict& v) { v.differences[1].wrongKind = WrongValueKind::None; });
    m.emplace_back(u"difference.pointer"_s, [](Verdict& v) { v.differences[1].pointer += '/'; });
    m.emplace_back(u"difference.path"_s, [](Verdict& v) { v.differences[1].path.clear(); });
    m.emplace_back(u"difference.gold"_s, [](Verdict& v) { v.differences[0].gold = "Marta"; });
    m.emplace_back(
        u"difference.gold, -0.0 deep inside"_s, [](Verdict& v) { v.differences[1].gold["floats"][1] = 0.0; });
    m.emplace_back(u"difference.gold, a NaN's payload"_s,
        [](Verdict& v) { v.differences[1].gold["floats"][8] = otherBits(kQuietNan); });
    m.emplace_back(u"difference.gold, unsigned for signed"_s,
        [](Verdict& v) { v.differences[1].gold["integer, positive"] = json::number_unsigned_t(42); });
    m.emplace_back(u"difference.gold, binary subtype"_s,
        [](Verdict& v) { v.differences[1].gold["binary with subtype"] = json::binary({ 0 }, 301); });
    m.emplace_back(u"difference.gold, binary without subtype"_s,
        [](Verdict& v) { v.differences[1].gold["binary with subtype"] = json::binary({ 0 }); });
    m.emplace_back(u"difference.gold, a key"_s, [](Verdict& v) {
        json& gold = v.differences[1].gold;
        gold["renamed"] = gold["null"];
        gold.erase("null");
    });
    m.emplace_back(u"difference.predicted"_s, [](Verdict& v) { v.differences[2].predicted = nullptr; });
    m.emplace_back(u"difference.levenshtein"_s,
        [](Verdict& v) { v.differences[1].levenshtein = otherBits(v.differences[1].levenshtein); });
    m.emplace_back(u"difference.goldNull"_s, [](Verdict& v) { v.differences[2].goldNull = false; });
    m.emplace_back(u"grounding absent"_s, [](Verdict& v) { v.grounding.reset(); });
    m.emplace_back(u"fields absent"_s, [](Verdict& v) { v.fields.reset(); });
    m.emplace_back(u"fields.size"_s,
        [](Verdict& v) { v.fields = std::make_shared<const FieldTallies>(v.fields->begin(), v.fields->end() - 1); });
    m.emplace_back(u"field path"_s, [](Verdict& v) {
        FieldTallies copy = *v.fields;
        copy[0].field = fieldKey("items[].sku2");
        v.fields = std::make_shared<const FieldTallies>(std::move(copy));
    });
    m.emplace_back(u"field counts"_s, [](Verdict& v) {
        FieldTallies copy = *v.fields;
        ++copy[0].correct;
        v.fields = std::make_shared<const FieldTallies>(std::move(copy));
    });
    for (const auto& [name, field] : kGroundingDoubles) {
        m.emplace_back(u"grounding."_s + QLatin1String(name), [field = field](Verdict& v) {
            editGrounding(v, [field](GroundingScores& g) { g.*field = otherBits(g.*field); });
        });
    }
    for (const auto& [name, field] : kGroundingInts) {
        m.emplace_back(u"grounding."_s + QLatin1String(name),
            [field = field](Verdict& v) { editGrounding(v, [field](GroundingScores& g) { g.*field += 1; }); });
    }
    m.emplace_back(u"contract absent"_s, [](Verdict& v) { v.contract.reset(); });
    for (const auto& [name, field] : kContractFlags) {
        m.emplace_back(u"contract."_s + QLatin1String(name),
            [field = field](Verdict& v) { editContract(v, [field](ContractScores& c) { c.*field = !(c.*field); }); });
    }
    m.emplace_back(
        u"contract.labels"_s, [](Verdict& v) { editContract(v, [](ContractScores& c) { c.labels.pop_back(); }); });
    m.emplace_back(u"contract.differences.pointer"_s,
        [](Verdict& v) { editContract(v, [](ContractScores& c) { c.differences[0].pointer += '0'; }); });
    m.emplace_back(u"contract.differences.message"_s,
        [](Verdict& v) { editContract(v, [](ContractScores& c) { c.differences[1].message = "m"; }); });
    m.emplace_back(u"contract.unsafeReasons"_s,
        [](Verdict& v) { editContract(v, [](ContractScores& c) { c.unsafeReasons.clear(); }); });
    m.emplace_back(u"contract.catalogViolations"_s,
        [](Verdict& v) { editContract(v, [](ContractScores& c) { c.catalogViolations.push_back("x"); }); });
    for (std::size_t i = 0; i < 10; ++i) {
        m.emplace_back(u"values[%1].value"_s.arg(i), [i](Verdict& v) {
            MetricValues changed;
            for (std::size_t k = 0; k < v.values.size(); ++k)
                changed.emplace_back(v.values.key(k), k == i ? otherBits(v.values.value(k)) : v.values.value(k));
            v.values = std::move(changed);
        });
        m.emplace_back(u"values[%1].id"_s.arg(i), [i](Verdict& v) {
            MetricValues changed;
            for (std::size_t k = 0; k < v.values.size(); ++k)
                changed.emplace_back(k == i ? metricKey("grounding.gate") : v.values.key(k), v.values.value(k));
            v.values = std::move(changed);
        });
    }
    m.emplace_back(u"values, one more"_s, [](Verdict& v) { v.values.emplace_back("ladder.correct", 1.0); });
    m.emplace_back(u"values, two swapped"_s, [](Verdict& v) {
        MetricValues swapped;
        for (std::size_t k = 0; k < v.values.size(); ++k) {
            const std::size_t from = k == 7 ? 8 : k == 8 ? 7 : k;
            swapped.emplace_back(v.values.key(from), v.values.value(from));
        }
        v.values = std::move(swapped);
    });
    return m;
}

/// The encoding of a verdict with no metric values, without its last byte (the count of values, 0): what a test
/// appends metric values to.
std::string beforeValues()
{
    std::string bytes = encodeVerdict(Verdict {});
    bytes.pop_back(); // no field tallies
    bytes.pop_back(); // no metric values
    return bytes;
}

/// An empty verdict up to its field tallies.
std::string beforeFields()
{
    std::string bytes = encodeVerdict(Verdict {});
    bytes.pop_back();
    return bytes;
}

/// Adds one to the first number found, depth first; false when there is none.
bool bumpFirstNumber(json& value)
{
    if (value.is_number_integer()) {
        value = value.get<std::int64_t>() + 1;
        return true;
    }
    if (value.is_number()) {
        value = value.get<double>() + 0.5;
        return true;
    }
    if (value.is_structured()) {
        for (json& member : value) {
            if (bumpFirstNumber(member))
                return true;
        }
    }
    return false;
}

/// `gold` changed as `variant` says (0: its first string member edited, 1: its first key dropped, 2: an extra key,
/// 3: its first value nulled, 4: the first number anywhere changed, 5: an order's status accepted), for responses
/// that are wrong in the ways the families count.
json perturbed(json gold, int variant)
{
    if (!gold.is_object() || gold.empty())
        return json::array({ gold });
    switch (variant) {
    case 0:
        for (auto& [key, value] : gold.items()) {
            if (value.is_string()) {
                value = value.get<std::string>() + "x";
                break;
            }
        }
        break;
    case 1:
        gold.erase(gold.begin());
        break;
    case 2:
        gold["unexpected"] = "surplus";
        break;
    case 4:
        bumpFirstNumber(gold);
        break;
    case 5:
        gold["status"] = "accepted";
        break;
    default:
        gold.begin().value() = nullptr;
        break;
    }
    return gold;
}

/// A scored response of one of the built-in suites.
struct RealVerdict
{
    QString suite;
    bool bulk = false; ///< scored as evaluateStore does: no differences kept, no schema error list
    bool failed = false; ///< the response was not JSON
    Verdict verdict;
    std::string encoded;
};

constexpr int kCasesPerSuite = 40;

} // namespace

class TestVerdictCodec : public QObject
{
    Q_OBJECT

private:
    std::vector<RealVerdict> m_real;

    std::vector<const RealVerdict*> real(const QString& suite, bool bulk) const
    {
        std::vector<const RealVerdict*> out;
        for (const RealVerdict& r : m_real) {
            if (r.suite == suite && r.bulk == bulk)
                out.push_back(&r);
        }
        return out;
    }

    /// Every proper prefix is refused; every single-byte change is refused or, being itself an encoding, reads as a
    /// verdict that encodes to exactly those bytes.
    void checkDamage(const std::string& encoded)
    {
        Verdict out;
        std::string error;
        for (std::size_t n = 0; n < encoded.size(); ++n) {
            error.clear();
            if (decodeVerdict(std::string_view(encoded).substr(0, n), out, &error))
                QFAIL(qPrintable(u"a prefix of %1 bytes decoded"_s.arg(n)));
            QVERIFY(!error.empty());
        }
        std::string damaged = encoded;
        int accepted = 0;
        for (std::size_t i = 0; i < encoded.size(); ++i) {
            for (int b = 0; b < 256; ++b) {
                if (char(b) == encoded[i])
                    continue;
                damaged[i] = char(b);
                error.clear();
                if (decodeVerdict(damaged, out, &error)) {
                    ++accepted;
                    if (encodeVerdict(out) != damaged)
                        QFAIL(qPrintable(u"byte %1 set to %2 decoded to another encoding"_s.arg(i).arg(b)));
                } else if (error.empty()) {
                    QFAIL("refused without a message");
                }
            }
            damaged[i] = encoded[i];
        }
        qInfo().noquote()
            << u"%1 bytes: %2 of %3 single-byte changes decode, each to a verdict that encodes back to them"_s
                   .arg(encoded.size())
                   .arg(accepted)
                   .arg(encoded.size() * 255);
    }

private Q_SLOTS:
    void initTestCase();
    // The comparison must see every field, or a codec that drops one would pass the round trips.
    void comparisonSeesEveryField();
    void roundTrip_data();
    void roundTrip();
    void sharedScoresAreNewObjects();
    // A reader that decodes row after row into one verdict must not keep anything of the previous row.
    void decodingOverAFullVerdictLeavesNothingBehind();
    void realVerdictsRoundTrip();
    // The store holds a million of them.
    void typicalVerdictsAreSmall();
    // An id the scorer emits costs one byte; one the table lacks is written out.
    void idsTheScorerEmitsAreCoded();
    void damagedEncodingsAreRefusedOrExact();
    void malformed_data();
    void malformed();
    void longestEscapedIdDecodes();
    void jsonNestingIsBounded();
    void objectKeysMustBeInOrder();
};

void TestVerdictCodec::initTestCase()
{
    // Responses of every kind the ladder knows (clean, fenced, extracted, failed), right and wrong in each way
    // the families count, scored as bulk evaluation does and as the drill-down views do.
    for (const QString& name : { u"email-extraction"_s, u"schema-tiers"_s, u"grounded"_s, u"orderbench"_s }) {
        const SuiteLoadResult loaded = loadSuiteDir(QStringLiteral(STRUCTSCOPE_SOURCE_DIR) + u"/datasets/"_s + name);
        QVERIFY2(loaded.ok(), qPrintable(name));
        const Suite& suite = *loaded.suite;
        for (const bool bulk : { true, false }) {
            ScoringOptions options = ScoringOptions::forSuite(suite);
            options.keepDifferences = !bulk;
            options.collectSchemaErrors = !bulk;
            // Cases spread over the suite, so that every category is met.
            const qsizetype step = std::max<qsizetype>(1, suite.cases.size() / kCasesPerSuite);
            for (qsizetype i = 0; i < suite.cases.size(); i += step) {
                const SuiteCase& c = suite.cases[i];
                const std::vector<std::pair<std::string, bool>> responses = {
                    { c.gold.dump(), false },
                    { "```json\n" + perturbed(c.gold, 0).dump(2) + "\n```", false },
                    { "Here it is: " + perturbed(c.gold, 1).dump() + " Hope this helps.", false },
                    { perturbed(c.gold, 2).dump(), false },
                    { perturbed(c.gold, 3).dump(), false },
                    { perturbed(c.gold, 4).dump(), false },
                    { perturbed(c.gold, 5).dump(), false },
                    { "I cannot answer that.", true },
                    { "{\"unterminated\": [1, 2", true },
                };
                for (const auto& [text, failed] : responses) {
                    ScoreInput input;
                    input.response = text;
                    input.gold = &c.gold;
                    input.schema = suite.schemaFor(c);
                    input.modality = c.extra.is_object() && c.extra.value("source_kind", "") == "ocr" ? Modality::Image
                                                                                                      : Modality::Text;
                    RealVerdict r { name, bulk, failed, scoreResponse(input, options), {} };
                    r.encoded = encodeVerdict(r.verdict);
                    m_real.push_back(std::move(r));
                }
            }
        }
    }
    // What the round trips below must have met.
    const auto any = [this](const std::function<bool(const Verdict&)>& has) {
        return std::any_of(m_real.begin(), m_real.end(), [&](const RealVerdict& r) { return has(r.verdict); });
    };
    QVERIFY(any([](const Verdict& v) { return v.grounding != nullptr; }));
    QVERIFY(any([](const Verdict& v) { return v.contract && !v.contract->labels.empty(); }));
    QVERIFY(any([](const Verdict& v) { return v.contract && !v.contract->differences.empty(); }));
    QVERIFY(any([](const Verdict& v) { return !v.differences.empty(); }));
    QVERIFY(any([](const Verdict& v) { return !v.schemaErrors.empty(); }));
    QVERIFY(any([](const Verdict& v) { return !v.parseReason.empty(); }));
    QVERIFY(any([](const Verdict& v) { return v.values.size() > MetricValues::kInline; }));
    QVERIFY(any([](const Verdict& v) { return v.rung == ParseRung::Fenced; }));
    QVERIFY(any([](const Verdict& v) { return v.rung == ParseRung::Extracted; }));
}

void TestVerdictCodec::comparisonSeesEveryField()
{
    const Verdict full = fullVerdict();
    QCOMPARE(verdictDifference(full, full), QString());
    QCOMPARE(verdictDifference(full, Verdict(full)), QString());
    for (const auto& [name, mutate] : mutations()) {
        Verdict changed = full;
        mutate(changed);
        QVERIFY2(!sameVerdict(full, changed), qPrintable(name + u" went unnoticed"_s));
        QVERIFY2(!sameVerdict(changed, full), qPrintable(name + u" went unnoticed"_s));
    }
}

void TestVerdictCodec::roundTrip_data()
{
    QTest::addColumn<int>("mutation"); // -1: fullVerdict() itself; -2: a default verdict

    QTest::addRow("every field set") << -1;
    QTest::addRow("default") << -2;
    const std::vector<Mutation> all = mutations();
    for (std::size_t i = 0; i < all.size(); ++i)
        QTest::addRow("%s", qPrintable(all[i].first)) << int(i);
}

void TestVerdictCodec::roundTrip()
{
    QFETCH(int, mutation);
    Verdict v = mutation == -2 ? Verdict {} : fullVerdict();
    if (mutation >= 0)
        mutations()[std::size_t(mutation)].second(v);
    const std::string encoded = encodeVerdict(v);
    QCOMPARE(int(std::uint8_t(encoded.at(0))), kVerdictCodecVersion);
    Verdict decoded;
    std::string error;
    QVERIFY2(decodeVerdict(encoded, decoded, &error), error.c_str());
    QCOMPARE(verdictDifference(v, decoded), QString());
    QCOMPARE(encodeVerdict(decoded), encoded);
}

void TestVerdictCodec::sharedScoresAreNewObjects()
{
    const Verdict full = fullVerdict();
    Verdict decoded;
    QVERIFY(decodeVerdict(encodeVerdict(full), decoded));
    QVERIFY(decoded.grounding && decoded.grounding != full.grounding);
    QVERIFY(decoded.contract && decoded.contract != full.contract);
}

void TestVerdictCodec::decodingOverAFullVerdictLeavesNothingBehind()
{
    Verdict out = fullVerdict();
    QVERIFY(decodeVerdict(encodeVerdict(Verdict {}), out));
    QCOMPARE(verdictDifference(out, Verdict {}), QString());

    Verdict sparse;
    sparse.values = { { "ladder.correct", 1.0 } };
    out = fullVerdict();
    QVERIFY(decodeVerdict(encodeVerdict(sparse), out));
    QCOMPARE(verdictDifference(out, sparse), QString());
}

void TestVerdictCodec::realVerdictsRoundTrip()
{
    QVERIFY(m_real.size() > 1000);
    Verdict decoded;
    for (const RealVerdict& r : m_real) {
        std::string error;
        QVERIFY2(decodeVerdict(r.encoded, decoded, &error), error.c_str());
        const QString difference = verdictDifference(r.verdict, decoded);
        QVERIFY2(difference.isEmpty(), qPrintable(r.suite + u": "_s + difference));
    }
}

void TestVerdictCodec::typicalVerdictsAreSmall()
{
    for (const QString& suite : { u"email-extraction"_s, u"schema-tiers"_s, u"grounded"_s, u"orderbench"_s }) {
        for (const bool bulk : { true, false }) {
            std::vector<std::size_t> sizes;
            for (const RealVerdict* r : real(suite, bulk)) {
                if (!r->failed)
                    sizes.push_back(r->encoded.size());
            }
            QVERIFY(!sizes.empty());
            std::sort(sizes.begin(), sizes.end());
            qInfo().noquote() << u"%1, %2: %3 parsed responses, %4 / %5 / %6 bytes (min / median / max)"_s
                                     .arg(suite, bulk ? u"bulk"_s : u"differences kept"_s)
                                     .arg(sizes.size())
                                     .arg(sizes.front())
                                     .arg(sizes[sizes.size() / 2])
                                     .arg(sizes.back());
            // About 60 bytes of scores and 120-170 of field tallies (fifteen paths, prefixes shared).
            if (bulk && suite == u"email-extraction"_s)
                QVERIFY2(sizes.back() < 260, qPrintable(u"%1 bytes"_s.arg(sizes.back())));
        }
    }
    // Unparsable responses carry the ladder's reason, in words (the first case's two).
    int shown = 0;
    for (const RealVerdict* r : real(u"email-extraction"_s, true)) {
        if (r->failed && shown++ < 2)
            qInfo().noquote() << u"unparsable: %1 bytes, reason \"%2\""_s.arg(r->encoded.size())
                                     .arg(QString::fromStdString(r->verdict.parseReason));
    }
}

void TestVerdictCodec::idsTheScorerEmitsAreCoded()
{
    const auto sizeWith = [](std::string_view id) {
        Verdict v;
        v.values.emplace_back(id, 0.0);
        return encodeVerdict(v).size();
    };
    const std::size_t coded = sizeWith("ladder.correct");
    for (const MetricInfo& metric : allMetrics()) {
        if (metric.kind == MetricKind::Rate || metric.kind == MetricKind::Mean)
            QVERIFY2(sizeWith(metric.id) == coded, metric.id.data());
    }
    for (const GroundingMetric& metric : groundingMetrics())
        QCOMPARE(sizeWith(metric.id), coded);
    QCOMPARE(sizeWith("custom.metric"), coded + 1 + std::string_view("custom.metric").size());
}

void TestVerdictCodec::damagedEncodingsAreRefusedOrExact()
{
    checkDamage(encodeVerdict(Verdict {}));
    checkDamage(encodeVerdict(fullVerdict()));
    for (const QString& suite : { u"email-extraction"_s, u"grounded"_s, u"orderbench"_s }) {
        const std::vector<const RealVerdict*> drilldown = real(suite, false);
        // The largest has the most structure to damage (differences, schema errors, contract lists).
        const RealVerdict* largest = *std::max_element(drilldown.begin(), drilldown.end(),
            [](const RealVerdict* a, const RealVerdict* b) { return a->encoded.size() < b->encoded.size(); });
        checkDamage(largest->encoded);
        checkDamage(real(suite, true).at(1)->encoded);
    }
}

void TestVerdictCodec::malformed_data()
{
    QTest::addColumn<std::string>("bytes");
    QTest::addColumn<QString>("error");

    const std::string good = encodeVerdict(Verdict {});
    const std::string head = beforeValues();
    QTest::addRow("empty") << std::string() << u"truncated at byte 0"_s;
    QTest::addRow("version 0") << std::string(1, '\0') + good.substr(1) << u"unknown codec version"_s;
    QTest::addRow("version 1, before field tallies")
        << std::string(1, '\1') + good.substr(1) << u"unknown codec version"_s;
    QTest::addRow("version 3") << std::string(1, '\3') + good.substr(1) << u"unknown codec version"_s;
    QTest::addRow("trailing byte") << good + '\0' << u"trailing bytes"_s;
    QTest::addRow("ladder label 5") << good.substr(0, 1) + char(5 << 2) + good.substr(2) << u"bad ladder label"_s;
    QTest::addRow("strict ladder label 7")
        << good.substr(0, 1) + char(7 << 5) + good.substr(2) << u"bad ladder label"_s;
    QTest::addRow("parse reason flagged, empty")
        << good.substr(0, 2) + char(1 << 3) + '\0' + good.substr(3) << u"flagged present but empty"_s;
    QTest::addRow("schema errors flagged, none")
        << good.substr(0, 2) + char(1 << 4) + '\0' + good.substr(3) << u"flagged present but empty"_s;
    QTest::addRow("a count of 2^40 values") << head + "\x80\x80\x80\x80\x80\x20" << u"count beyond the input"_s;
    QTest::addRow("a count of 2^64 - 1 values")
        << head + "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01" << u"count beyond the input"_s;
    QTest::addRow("varint past 64 bits") << head + "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02"
                                         << u"varint overflows 64 bits"_s;
    QTest::addRow("varint written long") << head + "\x80\x00"s << u"varint longer than needed"_s;
    QTest::addRow("an integer past int") << good.substr(0, 3) + "\x80\x80\x80\x80\x10" + good.substr(4)
                                         << u"integer out of range"_s;
    QTest::addRow("+0.0 written in full")
        << good.substr(0, 15) + '\2' + std::string(8, '\0') + good.substr(16) << u"written in full"_s;
    QTest::addRow("unknown double tag") << good.substr(0, 15) + '\3' + good.substr(16) << u"unknown double tag"_s;
    QTest::addRow("unknown metric code") << head + "\x01\x7f\x00"s << u"unknown metric code"_s;
    QTest::addRow("a listed id written out")
        << head + "\x01\x00\x0eladder.correct\x00"s << u"listed metric id written out"_s;
    QTest::addRow("a metric id of 256 bytes")
        << head + "\x01\x00\x80\x02"s + std::string(256, 'm') + '\0' << u"metric id too long"_s;
    // Field tallies: one field "a" (prefix 0, suffix "a"), then its elements ×2 (+1: all correct) and counts.
    const std::string fields = beforeFields();
    const auto bytes = [](std::initializer_list<int> values) {
        std::string out;
        for (const int v : values)
            out.push_back(char(v));
        return out;
    };
    QTest::addRow("a field of no element") << fields + bytes({ 1, 0, 1, 'a', 1 }) << u"field count out of range"_s;
    QTest::addRow("a field's outcomes not summing to its elements")
        << fields + bytes({ 1, 0, 1, 'a', 4, 0, 0, 1, 0, 0, 0 }) << u"inconsistent field tally"_s;
    QTest::addRow("an all-correct field written in full")
        << fields + bytes({ 1, 0, 1, 'a', 2, 1, 1, 0, 0, 0, 0 }) << u"all-correct field written in full"_s;
    QTest::addRow("a count above the elements")
        << fields + bytes({ 1, 0, 1, 'a', 2, 0, 5, 0, 0, 0, 0 }) << u"field count out of range"_s;
    QTest::addRow("a field listed twice") << fields + bytes({ 2, 0, 1, 'a', 3, 1, 0, 3 }) << u"field listed twice"_s;
    QTest::addRow("a prefix beyond the previous path")
        << fields + bytes({ 2, 0, 1, 'a', 3, 2, 1, 'b', 3 }) << u"prefix beyond the previous path"_s;
    QTest::addRow("a prefix shorter than shared")
        << fields + bytes({ 2, 0, 2, 'a', 'b', 3, 0, 2, 'a', 'c', 3 }) << u"prefix shorter than shared"_s;
    QTest::addRow("a string longer than the input")
        << good.substr(0, 2) + char(1 << 3) + "\x05" + "abc" << u"length beyond the input"_s;
}

void TestVerdictCodec::malformed()
{
    QFETCH(std::string, bytes);
    QFETCH(QString, error);
    QCOMPARE(std::uint8_t(encodeVerdict(Verdict {}).at(15)), 0); // the strict partial credit, +0.0
    Verdict out = fullVerdict();
    std::string message;
    QVERIFY(!decodeVerdict(bytes, out, &message));
    QVERIFY2(QString::fromStdString(message).contains(error), message.c_str());
    QVERIFY(!decodeVerdict(bytes, out)); // no message asked for
}

void TestVerdictCodec::longestEscapedIdDecodes()
{
    Verdict v;
    v.values.emplace_back(std::string(255, 'm'), 0.5);
    Verdict decoded;
    std::string error;
    QVERIFY2(decodeVerdict(encodeVerdict(v), decoded, &error), error.c_str());
    QCOMPARE(verdictDifference(v, decoded), QString());
}

void TestVerdictCodec::jsonNestingIsBounded()
{
    const auto nested = [](int depth) {
        json value = 1;
        for (int i = 0; i < depth; ++i)
            value = i % 2 ? json::array({ std::move(value) }) : json::object({ { "k", std::move(value) } });
        Verdict v;
        Difference d;
        d.gold = std::move(value);
        v.differences.push_back(std::move(d));
        return v;
    };
    const Verdict deepest = nested(512);
    Verdict decoded;
    std::string error;
    QVERIFY2(decodeVerdict(encodeVerdict(deepest), decoded, &error), error.c_str());
    QCOMPARE(verdictDifference(deepest, decoded), QString());
    QVERIFY(!decodeVerdict(encodeVerdict(nested(513)), decoded, &error));
    QVERIFY2(QString::fromStdString(error).contains(u"too deep"_s), error.c_str());
    // Far deeper than any stack would take if decoding followed it: arrays of one array, a million deep.
    std::string bomb = beforeValues();
    bomb[2] = char(1 << 5); // the differences follow the extraction scores
    bomb += "\x01\x00\x00\x00"s; // one difference: its kinds, an empty pointer and path
    for (int i = 0; i < 1'000'000; ++i)
        bomb += "\x09\x01";
    QVERIFY(!decodeVerdict(bomb, decoded, &error));
    QVERIFY2(QString::fromStdString(error).contains(u"too deep"_s), error.c_str());
}

void TestVerdictCodec::objectKeysMustBeInOrder()
{
    Verdict v;
    Difference d;
    d.gold = { { "a", 1 }, { "b", 2 } };
    v.differences.push_back(d);
    std::string bytes = encodeVerdict(v);
    const std::size_t a = bytes.find("\x01"
                                     "a");
    const std::size_t b = bytes.find("\x01"
                                     "b");
    QVERIFY(a != std::string::npos && b != std::string::npos);
    Verdict decoded;
    QVERIFY(decodeVerdict(bytes, decoded));
    bytes[a + 1] = 'b';
    std::string error;
    QVERIFY(!decodeVerdict(bytes, decoded, &error)); // "b" twice
    QVERIFY2(QString::fromStdString(error).contains(u"out of order"_s), error.c_str());
    bytes[b + 1] = 'a';
    QVERIFY(!decodeVerdict(bytes, decoded, &error)); // "b" before "a"
    QVERIFY2(QString::fromStdString(error).contains(u"out of order"_s), error.c_str());
}

QTEST_GUILESS_MAIN(TestVerdictCodec)
#include "tst_verdictcodec.moc"
