// SPDX-License-Identifier: Apache-2.0
#include "scoring/verdictcodec.h"

#include <array>
#include <bit>
#include <cstdint>
#include <exception>
#include <limits>
#include <new>
#include <unordered_map>

using nlohmann::json;

namespace structscope {

namespace {

// The metric ids the scorer emits (the registry's Rate and Mean metrics), by code: code i + 1 is kMetricIds[i], and
// code 0 escapes an id that is not listed, written out after it. The codes are stored in files, so this table is
// append-only: never reorder, remove or reuse an entry; a new id goes at the end.
constexpr std::array<std::string_view, 28> kMetricIds = {
    "ladder.correct",
    "ladder.correct_strict",
    "ladder.invalid_json",
    "ladder.schema_violation",
    "ladder.hallucinated_on_missing",
    "ladder.value_incorrect",
    "extraction.strategy_points",
    "grounding.json_parse",
    "grounding.json_root",
    "grounding.schema_valid_input",
    "grounding.json_pass",
    "grounding.value_accuracy",
    "grounding.faithfulness",
    "grounding.path_recall",
    "grounding.structure_coverage",
    "grounding.type_safety",
    "grounding.required_key_recall",
    "grounding.perfect",
    "contract.semantic_success",
    "contract.unsafe_acceptance",
    "contract.schema_valid",
    "contract.status_accuracy",
    "contract.taxonomy.safety_failure",
    "contract.taxonomy.catalog_hallucination",
    "contract.taxonomy.quantity_size",
    "contract.taxonomy.scope_split",
    "contract.taxonomy.negation",
    "contract.taxonomy.allergen_preservation",
};
constexpr std::uint64_t kEscapeCode = 0;
// Bounds what a damaged blob can intern for the life of the program (metricKey() never forgets an id).
constexpr std::size_t kMaxEscapedIdBytes = 255;

// The parse ladder and the importers refuse deeper documents, and a difference holds parts of those; the bound keeps
// the recursion of decoding (and of whatever later walks the value) shallow whatever the blob says.
constexpr int kMaxJsonDepth = 512;

// The tags, shifts and flag bits below are stored too: change one only with kVerdictCodecVersion.
enum DoubleTag : std::uint8_t { DoubleZero, DoubleOne, DoubleRaw };
constexpr std::uint64_t kZeroBits = std::bit_cast<std::uint64_t>(0.0);
constexpr std::uint64_t kOneBits = std::bit_cast<std::uint64_t>(1.0);

enum JsonTag : std::uint8_t {
    JsonNull,
    JsonFalse,
    JsonTrue,
    JsonInteger,
    JsonUnsigned,
    JsonFloatZero,
    JsonFloatOne,
    JsonFloatRaw,
    JsonString,
    JsonArray,
    JsonObject,
    JsonBinary,
    JsonBinaryWithSubtype,
    JsonDiscarded,
};

// The second byte: the three labels.
constexpr int kLadderShift = 2;
constexpr int kStrictShift = 5;

// The third byte.
enum VerdictFlag : std::uint8_t {
    SchemaValid = 1 << 0,
    ExtractionFailed = 1 << 1,
    ExtractionCorrect = 1 << 2,
    HasParseReason = 1 << 3,
    HasSchemaErrors = 1 << 4,
    HasDifferences = 1 << 5,
    HasGrounding = 1 << 6,
    HasContract = 1 << 7,
};

// A difference's first byte: kind in bits 0-1, wrong-value kind in bits 2-4, goldNull in bit 5.
constexpr int kWrongKindShift = 2;
constexpr std::uint8_t kGoldNullBit = 1 << 5;

// The encoder and the decoder walk the same lists of members, so that they cannot disagree on order.
constexpr std::array<int DiffCounts::*, 9> kDiffCountFields = {
    &DiffCounts::mk,
    &DiffCounts::mv,
    &DiffCounts::wvDeviation,
    &DiffCounts::wvValue,
    &DiffCounts::wvCoercible,
    &DiffCounts::wvType,
    &DiffCounts::extra,
    &DiffCounts::goldNull,
    &DiffCounts::invented,
};
// A field's counts after its elements (which carry a flag: every element correct, and nothing else follows).
constexpr std::array<std::uint32_t FieldTally::*, 6> kFieldTallyOutcomes = {
    &FieldTally::correct,
    &FieldTally::lenient,
    &FieldTally::missing,
    &FieldTally::wrong,
    &FieldTally::invented,
    &FieldTally::typeError,
};
/// The length of the longest common prefix of two paths.
std::size_t sharedPrefix(std::string_view a, std::string_view b)
{
    std::size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i])
        ++i;
    return i;
}
// Bounds what a damaged blob can intern (fieldKey() never forgets a path).
constexpr std::size_t kMaxFieldPathBytes = 4096;
constexpr std::array<int ExtractionCounts::*, 3> kExtractionCountFields = {
    &ExtractionCounts::goldKeys,
    &ExtractionCounts::goldValues,
    &ExtractionCounts::predictedValues,
};
constexpr std::array<double GroundingScores::*, 18> kGroundingDoubles = {
    &GroundingScores::jsonParse,
    &GroundingScores::jsonRoot,
    &GroundingScores::schemaValidInput,
    &GroundingScores::jsonPass,
    &GroundingScores::valueAccuracy,
    &GroundingScores::faithfulness,
    &GroundingScores::pathRecall,
    &GroundingScores::structureCoverage,
    &GroundingScores::typeSafety,
    &GroundingScores::requiredKeyRecall,
    &GroundingScores::perfect,
    &GroundingScores::hardening,
    &GroundingScores::gate,
    &GroundingScores::rawCoverage,
    &GroundingScores::rawValueAccuracy,
    &GroundingScores::rawFaithfulness,
    &GroundingScores::rawPathRecall,
    &GroundingScores::rawTypeSafety,
};
constexpr std::array<int GroundingScores::*, 4> kGroundingInts = {
    &GroundingScores::goldLeaves,
    &GroundingScores::predictedLeaves,
    &GroundingScores::matchedPaths,
    &GroundingScores::requiredPaths,
};
// Contract scores start with a varint of bits: these nine flags, then one bit per list that follows (non-empty).
constexpr std::array<bool ContractScores::*, 9> kContractFlags = {
    &ContractScores::parsed,
    &ContractScores::semanticSuccess,
    &ContractScores::unsafeAcceptance,
    &ContractScores::schemaValid,
    &ContractScores::statusCorrect,
    &ContractScores::predictedAccepts,
    &ContractScores::goldAccepts,
    &ContractScores::catalogViolation,
    &ContractScores::itemSplit,
};
constexpr std::uint64_t kContractLabelsBit = 1u << 9;
constexpr std::uint64_t kContractDifferencesBit = 1u << 10;
constexpr std::uint64_t kContractUnsafeReasonsBit = 1u << 11;
constexpr std::uint64_t kContractCatalogViolationsBit = 1u << 12;
constexpr std::uint64_t kContractBits = (1u << 13) - 1;

/// The interned keys of kMetricIds, looked up once per process.
const std::array<MetricKey, kMetricIds.size()>& tableKeys()
{
    static const std::array<MetricKey, kMetricIds.size()> keys = [] {
        std::array<MetricKey, kMetricIds.size()> out {};
        for (std::size_t i = 0; i < kMetricIds.size(); ++i)
            out[i] = metricKey(kMetricIds[i]);
        return out;
    }();
    return keys;
}

/// The code of a key, or kEscapeCode.
std::uint64_t metricCode(MetricKey key)
{
    const auto& keys = tableKeys();
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (keys[i] == key)
            return i + 1;
    }
    return kEscapeCode;
}

std::uint64_t zigzag(std::int64_t v)
{
    return (std::uint64_t(v) << 1) ^ std::uint64_t(v >> 63);
}

std::int64_t unzigzag(std::uint64_t v)
{
    return std::int64_t(v >> 1) ^ -std::int64_t(v & 1);
}

// ---- writing

void putByte(std::string& out, std::uint8_t b)
{
    out.push_back(char(b));
}

void putVarint(std::string& out, std::uint64_t v)
{
    while (v >= 0x80) {
        out.push_back(char(std::uint8_t(v) | 0x80));
        v >>= 7;
    }
    out.push_back(char(v));
}

void putInt(std::string& out, std::int64_t v)
{
    putVarint(out, zigzag(v));
}

void putRawDouble(std::string& out, std::uint64_t bits)
{
    for (int i = 0; i < 8; ++i)
        out.push_back(char(std::uint8_t(bits >> (8 * i))));
}

void putDouble(std::string& out, double value)
{
    const auto bits = std::bit_cast<std::uint64_t>(value);
    if (bits == kZeroBits) {
        putByte(out, DoubleZero);
    } else if (bits == kOneBits) {
        putByte(out, DoubleOne);
    } else {
        putByte(out, DoubleRaw);
        putRawDouble(out, bits);
    }
}

void putString(std::string& out, std::string_view s)
{
    putVarint(out, s.size());
    out.append(s);
}

void putStrings(std::string& out, const std::vector<std::string>& strings)
{
    putVarint(out, strings.size());
    for (const std::string& s : strings)
        putString(out, s);
}

void putJson(std::string& out, const json& value)
{
    switch (value.type()) {
    case json::value_t::null:
        putByte(out, JsonNull);
        return;
    case json::value_t::boolean:
        putByte(out, value.get<bool>() ? JsonTrue : JsonFalse);
        return;
    case json::value_t::number_integer:
        putByte(out, JsonInteger);
        putInt(out, value.get<json::number_integer_t>());
        return;
    case json::value_t::number_unsigned:
        putByte(out, JsonUnsigned);
        putVarint(out, value.get<json::number_unsigned_t>());
        return;
    case json::value_t::number_float: {
        const auto bits = std::bit_cast<std::uint64_t>(value.get<json::number_float_t>());
        if (bits == kZeroBits) {
            putByte(out, JsonFloatZero);
        } else if (bits == kOneBits) {
            putByte(out, JsonFloatOne);
        } else {
            putByte(out, JsonFloatRaw);
            putRawDouble(out, bits);
        }
        return;
    }
    case json::value_t::string:
        putByte(out, JsonString);
        putString(out, value.get_ref<const json::string_t&>());
        return;
    case json::value_t::array:
        putByte(out, JsonArray);
        putVarint(out, value.size());
        for (const json& element : value.get_ref<const json::array_t&>())
            putJson(out, element);
        return;
    case json::value_t::object:
        putByte(out, JsonObject);
        putVarint(out, value.size());
        for (const auto& [key, member] : value.get_ref<const json::object_t&>()) {
            putString(out, key);
            putJson(out, member);
        }
        return;
    case json::value_t::binary: {
        const json::binary_t& binary = value.get_binary();
        if (binary.has_subtype()) {
            putByte(out, JsonBinaryWithSubtype);
            putVarint(out, binary.subtype());
        } else {
            putByte(out, JsonBinary);
        }
        putVarint(out, binary.size());
        out.append(reinterpret_cast<const char*>(binary.data()), binary.size());
        return;
    }
    case json::value_t::discarded:
        putByte(out, JsonDiscarded);
        return;
    }
}

void putCounts(std::string& out, const ExtractionCounts& counts)
{
    for (const auto field : kDiffCountFields)
        putInt(out, counts.diff.*field);
    for (const auto field : kExtractionCountFields)
        putInt(out, counts.*field);
    putDouble(out, counts.partialCredit);
}

void putDifference(std::string& out, const Difference& d)
{
    putByte(out,
        std::uint8_t(
            std::uint8_t(d.kind) | std::uint8_t(d.wrongKind) << kWrongKindShift | (d.goldNull ? kGoldNullBit : 0)));
    putString(out, d.pointer);
    putString(out, d.path);
    putJson(out, d.gold);
    putJson(out, d.predicted);
    putDouble(out, d.levenshtein);
}

void putGrounding(std::string& out, const GroundingScores& g)
{
    for (const auto field : kGroundingDoubles)
        putDouble(out, g.*field);
    for (const auto field : kGroundingInts)
        putInt(out, g.*field);
}

void putContract(std::string& out, const ContractScores& c)
{
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < kContractFlags.size(); ++i) {
        if (c.*kContractFlags[i])
            bits |= std::uint64_t(1) << i;
    }
    bits |= c.labels.empty() ? 0 : kContractLabelsBit;
    bits |= c.differences.empty() ? 0 : kContractDifferencesBit;
    bits |= c.unsafeReasons.empty() ? 0 : kContractUnsafeReasonsBit;
    bits |= c.catalogViolations.empty() ? 0 : kContractCatalogViolationsBit;
    putVarint(out, bits);
    if (!c.labels.empty())
        putStrings(out, c.labels);
    if (!c.differences.empty()) {
        putVarint(out, c.differences.size());
        for (const ContractDifference& d : c.differences) {
            putString(out, d.pointer);
            putString(out, d.message);
        }
    }
    if (!c.unsafeReasons.empty())
        putStrings(out, c.unsafeReasons);
    if (!c.catalogViolations.empty())
        putStrings(out, c.catalogViolations);
}

// ---- reading

/// A cursor over the input. Every read checks the bytes left; the first failure is remembered with its offset.
class Reader
{
public:
    explicit Reader(std::string_view bytes)
        : m_begin(reinterpret_cast<const std::uint8_t*>(bytes.data()))
        , m_p(m_begin)
        , m_end(m_begin + bytes.size())
    { }

    std::size_t remaining() const { return std::size_t(m_end - m_p); }
    /// The bytes not read yet.
    std::string_view rest() const { return { reinterpret_cast<const char*>(m_p), remaining() }; }
    /// Passes over everything not read yet.
    void skipRest() { m_p = m_end; }
    const char* error() const { return m_error; }
    std::size_t errorOffset() const { return m_errorOffset; }

    bool fail(const char* why)
    {
        if (!m_error) {
            m_error = why;
            m_errorOffset = std::size_t(m_p - m_begin);
        }
        return false;
    }

    bool byte(std::uint8_t& out)
    {
        if (m_p == m_end)
            return fail("truncated");
        out = *m_p++;
        return true;
    }

    bool varint(std::uint64_t& out)
    {
        if (m_p != m_end && *m_p < 0x80) {
            out = *m_p++;
            return true;
        }
        std::uint64_t v = 0;
        for (int shift = 0;; shift += 7) {
            if (m_p == m_end)
                return fail("truncated");
            const std::uint8_t b = *m_p++;
            if (shift == 63 && b > 1)
                return fail("varint overflows 64 bits");
            v |= std::uint64_t(b & 0x7f) << shift;
            if (!(b & 0x80)) {
                if (b == 0)
                    return fail("varint longer than needed");
                out = v;
                return true;
            }
        }
    }

    bool integer(int& out)
    {
        std::uint64_t v = 0;
        if (!varint(v))
            return false;
        const std::int64_t s = unzigzag(v);
        if (s < std::numeric_limits<int>::min() || s > std::numeric_limits<int>::max())
            return fail("integer out of range");
        out = int(s);
        return true;
    }

    bool rawDouble(double& out)
    {
        if (remaining() < 8)
            return fail("truncated");
        std::uint64_t bits = 0;
        for (int i = 0; i < 8; ++i)
            bits |= std::uint64_t(m_p[i]) << (8 * i);
        m_p += 8;
        if (bits == kZeroBits || bits == kOneBits)
            return fail("double written in full where a tag would do");
        out = std::bit_cast<double>(bits);
        return true;
    }

    bool number(double& out)
    {
        std::uint8_t tag = 0;
        if (!byte(tag))
            return false;
        switch (tag) {
        case DoubleZero:
            out = 0.0;
            return true;
        case DoubleOne:
            out = 1.0;
            return true;
        case DoubleRaw:
            return rawDouble(out);
        default:
            return fail("unknown double tag");
        }
    }

    bool bytes(std::string_view& out)
    {
        std::uint64_t n = 0;
        if (!varint(n))
            return false;
        if (n > remaining())
            return fail("length beyond the input");
        out = std::string_view(reinterpret_cast<const char*>(m_p), std::size_t(n));
        m_p += n;
        return true;
    }

    bool string(std::string& out)
    {
        std::string_view s;
        if (!bytes(s))
            return false;
        out.assign(s);
        return true;
    }

    /// A count of items that take at least `minBytes` each, so that the input bounds what reserving it allocates.
    bool count(std::size_t minBytes, std::size_t& out)
    {
        std::uint64_t n = 0;
        if (!varint(n))
            return false;
        if (n > remaining() / minBytes)
            return fail("count beyond the input");
        out = std::size_t(n);
        return true;
    }

    /// The count of a list flagged present: at least one item.
    bool presentCount(std::size_t minBytes, std::size_t& out)
    {
        if (!count(minBytes, out))
            return false;
        return out > 0 || fail("list flagged present but empty");
    }

private:
    const std::uint8_t* m_begin;
    const std::uint8_t* m_p;
    const std::uint8_t* m_end;
    const char* m_error = nullptr;
    std::size_t m_errorOffset = 0;
};

bool readJson(Reader& in, json& out, int depth)
{
    std::uint8_t tag = 0;
    if (!in.byte(tag))
        return false;
    switch (tag) {
    case JsonNull:
        out = nullptr;
        return true;
    case JsonFalse:
    case JsonTrue:
        out = tag == JsonTrue;
        return true;
    case JsonInteger: {
        std::uint64_t v = 0;
        if (!in.varint(v))
            return false;
        out = json::number_integer_t(unzigzag(v));
        return true;
    }
    case JsonUnsigned: {
        std::uint64_t v = 0;
        if (!in.varint(v))
            return false;
        out = json::number_unsigned_t(v);
        return true;
    }
    case JsonFloatZero:
        out = 0.0;
        return true;
    case JsonFloatOne:
        out = 1.0;
        return true;
    case JsonFloatRaw: {
        double v = 0;
        if (!in.rawDouble(v))
            return false;
        out = v;
        return true;
    }
    case JsonString: {
        std::string_view s;
        if (!in.bytes(s))
            return false;
        out = json::string_t(s);
        return true;
    }
    case JsonArray: {
        std::size_t n = 0;
        if (depth >= kMaxJsonDepth)
            return in.fail("JSON nested too deep");
        if (!in.count(1, n))
            return false;
        out = json::array();
        auto& array = out.get_ref<json::array_t&>();
        array.reserve(n);
        for (std::size_t i = 0; i < n; ++i) {
            if (!readJson(in, array.emplace_back(), depth + 1))
                return false;
        }
        return true;
    }
    case JsonObject: {
        std::size_t n = 0;
        if (depth >= kMaxJsonDepth)
            return in.fail("JSON nested too deep");
        if (!in.count(2, n))
            return false;
        out = json::object();
        auto& object = out.get_ref<json::object_t&>();
        for (std::size_t i = 0; i < n; ++i) {
            std::string_view key;
            if (!in.bytes(key))
                return false;
            // The map's own order, so that a blob with its keys in another order or twice is refused, not reordered.
            if (!object.empty() && !(object.rbegin()->first < key))
                return in.fail("object keys out of order");
            const auto it = object.emplace_hint(object.end(), std::string(key), nullptr);
            if (!readJson(in, it->second, depth + 1))
                return false;
        }
        return true;
    }
    case JsonBinary:
    case JsonBinaryWithSubtype: {
        std::uint64_t subtype = 0;
        if (tag == JsonBinaryWithSubtype && !in.varint(subtype))
            return false;
        std::string_view bytes;
        if (!in.bytes(bytes))
            return false;
        json::binary_t::container_type data(bytes.begin(), bytes.end());
        out = tag == JsonBinaryWithSubtype ? json::binary(std::move(data), subtype) : json::binary(std::move(data));
        return true;
    }
    case JsonDiscarded:
        out = json(json::value_t::discarded);
        return true;
    default:
        return in.fail("unknown JSON tag");
    }
}

bool readCounts(Reader& in, ExtractionCounts& counts)
{
    for (const auto field : kDiffCountFields) {
        if (!in.integer(counts.diff.*field))
            return false;
    }
    for (const auto field : kExtractionCountFields) {
        if (!in.integer(counts.*field))
            return false;
    }
    return in.number(counts.partialCredit);
}

bool readDifference(Reader& in, Difference& d)
{
    std::uint8_t kinds = 0;
    if (!in.byte(kinds))
        return false;
    const int kind = kinds & 0x3;
    const int wrongKind = (kinds >> kWrongKindShift) & 0x7;
    if (wrongKind > int(WrongValueKind::TypeError) || (kinds & ~std::uint8_t(0x3f)) != 0)
        return in.fail("bad difference kind");
    d.kind = DiffKind(kind);
    d.wrongKind = WrongValueKind(wrongKind);
    d.goldNull = (kinds & kGoldNullBit) != 0;
    return in.string(d.pointer) && in.string(d.path) && readJson(in, d.gold, 0) && readJson(in, d.predicted, 0)
        && in.number(d.levenshtein);
}

bool readStrings(Reader& in, std::vector<std::string>& out)
{
    std::size_t n = 0;
    if (!in.presentCount(1, n))
        return false;
    out.resize(n);
    for (std::string& s : out) {
        if (!in.string(s))
            return false;
    }
    return true;
}

bool readGrounding(Reader& in, GroundingScores& g)
{
    for (const auto field : kGroundingDoubles) {
        if (!in.number(g.*field))
            return false;
    }
    for (const auto field : kGroundingInts) {
        if (!in.integer(g.*field))
            return false;
    }
    return true;
}

bool readContract(Reader& in, ContractScores& c)
{
    std::uint64_t bits = 0;
    if (!in.varint(bits))
        return false;
    if ((bits & ~kContractBits) != 0)
        return in.fail("unknown contract flags");
    for (std::size_t i = 0; i < kContractFlags.size(); ++i)
        c.*kContractFlags[i] = (bits >> i) & 1;
    if ((bits & kContractLabelsBit) && !readStrings(in, c.labels))
        return false;
    if (bits & kContractDifferencesBit) {
        std::size_t n = 0;
        if (!in.presentCount(2, n))
            return false;
        c.differences.resize(n);
        for (ContractDifference& d : c.differences) {
            if (!in.string(d.pointer) || !in.string(d.message))
                return false;
        }
    }
    if ((bits & kContractUnsafeReasonsBit) && !readStrings(in, c.unsafeReasons))
        return false;
    return !(bits & kContractCatalogViolationsBit) || readStrings(in, c.catalogViolations);
}

bool readValues(Reader& in, MetricValues& values)
{
    values.clear();
    std::size_t n = 0;
    if (!in.count(2, n))
        return false;
    if (n > std::numeric_limits<std::uint16_t>::max())
        return in.fail("too many metric values");
    const auto& keys = tableKeys();
    for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t code = 0;
        if (!in.varint(code))
            return false;
        MetricKey key = 0;
        if (code == kEscapeCode) {
            std::string_view id;
            if (!in.bytes(id))
                return false;
            if (id.size() > kMaxEscapedIdBytes)
                return in.fail("metric id too long");
            key = metricKey(id);
            if (metricCode(key) != kEscapeCode)
                return in.fail("listed metric id written out");
        } else if (code <= keys.size()) {
            key = keys[std::size_t(code - 1)];
        } else {
            return in.fail("unknown metric code");
        }
        double value = 0;
        if (!in.number(value))
            return false;
        values.emplace_back(key, value);
    }
    return true;
}

/// The field tallies decoded last on this thread, by their bytes: the verdicts of one case (and of cases of one
/// shape) mostly hold equal tallies, so a store's verdicts are decoded with a lookup instead of a parse each. The
/// tallies are the last part of a verdict, so their bytes are all that remain when they are read.
struct BytesHash
{
    using is_transparent = void;
    std::size_t operator()(std::string_view bytes) const { return std::hash<std::string_view> {}(bytes); }
};

struct DecodedFields
{
    std::unordered_map<std::string, std::shared_ptr<const FieldTallies>, BytesHash, std::equal_to<>> byBytes;
    static constexpr std::size_t kMax = 4096;
};

bool parseFields(Reader& in, std::shared_ptr<const FieldTallies>& out);

bool readFields(Reader& in, std::shared_ptr<const FieldTallies>& out)
{
    thread_local DecodedFields decoded;
    const std::string_view bytes = in.rest();
    if (const auto it = decoded.byBytes.find(bytes); it != decoded.byBytes.end()) {
        out = it->second;
        in.skipRest();
        return true;
    }
    if (!parseFields(in, out))
        return false;
    if (in.remaining() == 0) { // trailing bytes are refused by the caller, and never remembered
        if (decoded.byBytes.size() >= DecodedFields::kMax)
            decoded.byBytes.clear();
        decoded.byBytes.emplace(std::string(bytes), out);
    }
    return true;
}

bool parseFields(Reader& in, std::shared_ptr<const FieldTallies>& out)
{
    out.reset();
    std::size_t n = 0;
    if (!in.count(3, n)) // a prefix length, an empty suffix and the elements at least
        return false;
    FieldTallies fields(n);
    std::string path;
    for (FieldTally& t : fields) {
        std::uint64_t shared = 0;
        std::string_view suffix;
        if (!in.varint(shared) || !in.bytes(suffix))
            return false;
        if (shared > path.size())
            return in.fail("field path prefix beyond the previous path");
        // The prefix written is the longest shared one: the suffix cannot go on with the previous path's next byte.
        if (shared < path.size() && !suffix.empty() && suffix.front() == path[std::size_t(shared)])
            return in.fail("field path prefix shorter than shared");
        if (shared + suffix.size() > kMaxFieldPathBytes)
            return in.fail("field path too long");
        path.resize(std::size_t(shared));
        path.append(suffix);
        std::uint64_t elements = 0;
        if (!in.varint(elements))
            return false;
        if ((elements >> 1) == 0 || (elements >> 1) > std::numeric_limits<std::uint32_t>::max())
            return in.fail("field count out of range");
        t.elements = std::uint32_t(elements >> 1);
        if (elements & 1) {
            t.correct = t.lenient = t.elements;
        } else {
            for (const auto count : kFieldTallyOutcomes) {
                std::uint64_t value = 0;
                if (!in.varint(value))
                    return false;
                if (value > t.elements)
                    return in.fail("field count out of range");
                t.*count = std::uint32_t(value);
            }
            if (t.correct == t.elements)
                return in.fail("all-correct field written in full");
        }
        // The scorer's invariants: each element has one outcome.
        if (std::uint64_t(t.lenient) + t.missing + t.wrong + t.invented != t.elements || t.correct > t.lenient
            || t.typeError > t.wrong)
            return in.fail("inconsistent field tally");
        t.field = fieldKey(path);
        for (const FieldTally* earlier = fields.data(); earlier != &t; ++earlier) {
            if (earlier->field == t.field)
                return in.fail("field listed twice");
        }
    }
    out = shareTallies(std::move(fields));
    return true;
}

bool readVerdict(Reader& in, Verdict& v)
{
    std::uint8_t version = 0;
    if (!in.byte(version))
        return false;
    if (version != kVerdictCodecVersion)
        return in.fail("unknown codec version");

    std::uint8_t labels = 0;
    if (!in.byte(labels))
        return false;
    const int ladder = (labels >> kLadderShift) & 0x7;
    const int strict = labels >> kStrictShift;
    if (ladder > int(LadderLabel::Correct) || strict > int(LadderLabel::Correct))
        return in.fail("bad ladder label");
    v.rung = ParseRung(labels & 0x3);
    v.ladder = LadderLabel(ladder);
    v.ladderStrict = LadderLabel(strict);

    std::uint8_t flags = 0;
    if (!in.byte(flags))
        return false;
    v.schemaValid = flags & SchemaValid;
    v.extraction.failed = flags & ExtractionFailed;
    v.extraction.correct = flags & ExtractionCorrect;

    v.parseReason.clear();
    if (flags & HasParseReason) {
        if (!in.string(v.parseReason))
            return false;
        if (v.parseReason.empty())
            return in.fail("parse reason flagged present but empty");
    }

    v.schemaErrors.clear();
    if (flags & HasSchemaErrors) {
        std::size_t n = 0;
        if (!in.presentCount(2, n))
            return false;
        v.schemaErrors.resize(n);
        for (SchemaError& e : v.schemaErrors) {
            if (!in.string(e.pointer) || !in.string(e.message))
                return false;
        }
    }

    if (!readCounts(in, v.extraction.strict) || !readCounts(in, v.extraction.lenient)
        || !in.number(v.extraction.points))
        return false;

    v.differences.clear();
    if (flags & HasDifferences) {
        std::size_t n = 0;
        if (!in.presentCount(6, n))
            return false;
        v.differences.resize(n);
        for (Difference& d : v.differences) {
            if (!readDifference(in, d))
                return false;
        }
    }

    v.grounding.reset();
    if (flags & HasGrounding) {
        auto grounding = std::make_shared<GroundingScores>();
        if (!readGrounding(in, *grounding))
            return false;
        v.grounding = std::move(grounding);
    }

    v.contract.reset();
    if (flags & HasContract) {
        auto contract = std::make_shared<ContractScores>();
        if (!readContract(in, *contract))
            return false;
        v.contract = std::move(contract);
    }

    if (!readValues(in, v.values) || !readFields(in, v.fields))
        return false;
    return in.remaining() == 0 || in.fail("trailing bytes");
}

} // namespace

std::string encodeVerdict(const Verdict& v)
{
    std::string out;
    out.reserve(128); // a typical verdict in one allocation
    putByte(out, kVerdictCodecVersion);
    putByte(out,
        std::uint8_t(std::uint8_t(v.rung) | std::uint8_t(v.ladder) << kLadderShift
            | std::uint8_t(v.ladderStrict) << kStrictShift));
    std::uint8_t flags = 0;
    flags |= v.schemaValid ? SchemaValid : 0;
    flags |= v.extraction.failed ? ExtractionFailed : 0;
    flags |= v.extraction.correct ? ExtractionCorrect : 0;
    flags |= v.parseReason.empty() ? 0 : HasParseReason;
    flags |= v.schemaErrors.empty() ? 0 : HasSchemaErrors;
    flags |= v.differences.empty() ? 0 : HasDifferences;
    flags |= v.grounding ? HasGrounding : 0;
    flags |= v.contract ? HasContract : 0;
    putByte(out, flags);

    if (!v.parseReason.empty())
        putString(out, v.parseReason);
    if (!v.schemaErrors.empty()) {
        putVarint(out, v.schemaErrors.size());
        for (const SchemaError& e : v.schemaErrors) {
            putString(out, e.pointer);
            putString(out, e.message);
        }
    }
    putCounts(out, v.extraction.strict);
    putCounts(out, v.extraction.lenient);
    putDouble(out, v.extraction.points);
    if (!v.differences.empty()) {
        putVarint(out, v.differences.size());
        for (const Difference& d : v.differences)
            putDifference(out, d);
    }
    if (v.grounding)
        putGrounding(out, *v.grounding);
    if (v.contract)
        putContract(out, *v.contract);

    putVarint(out, v.values.size());
    for (std::size_t i = 0; i < v.values.size(); ++i) {
        const MetricKey key = v.values.key(i);
        const std::uint64_t code = metricCode(key);
        putVarint(out, code);
        if (code == kEscapeCode)
            putString(out, metricIdOf(key));
        putDouble(out, v.values.value(i));
    }

    const std::size_t fieldCount = v.fields ? v.fields->size() : 0;
    putVarint(out, fieldCount);
    std::string previous;
    for (std::size_t i = 0; i < fieldCount; ++i) {
        const FieldTally& t = (*v.fields)[i];
        std::string path = fieldPathOf(t.field);
        const std::size_t shared = sharedPrefix(previous, path);
        putVarint(out, shared);
        putString(out, std::string_view(path).substr(shared));
        const bool allCorrect = t.correct == t.elements;
        putVarint(out, std::uint64_t(t.elements) << 1 | (allCorrect ? 1 : 0));
        if (!allCorrect) {
            for (const auto count : kFieldTallyOutcomes)
                putVarint(out, t.*count);
        }
        previous = std::move(path);
    }
    return out;
}

bool decodeVerdict(std::string_view bytes, Verdict& out, std::string* error)
{
    Reader in(bytes);
    bool ok = false;
    try {
        ok = readVerdict(in, out);
    } catch (const std::bad_alloc&) {
        in.fail("out of memory");
    } catch (const std::exception&) {
        // metricKey() past 65,536 distinct ids: the blob names ids the scorer never made.
        in.fail("too many distinct metric ids");
    }
    if (!ok && error)
        *error = std::string("verdict codec: ") + in.error() + " at byte " + std::to_string(in.errorOffset());
    return ok;
}

} // namespace structscope
