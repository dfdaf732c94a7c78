// SPDX-License-Identifier: Apache-2.0
#include "json/jsondiff.h"

#include "json/leafpaths.h"
#include "json/textnorm.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace structscope {

using nlohmann::json;

namespace {

constexpr std::size_t kNoIndex = kNoArrayPartner;

// Leaf comparisons an unordered alignment of one array pair may spend before falling back to
// index order (roughly 10-50 ms).
constexpr std::size_t kAlignBudget = std::size_t(1) << 22;

// Longest string we try to read as a number for the coercible check.
constexpr std::size_t kMaxNumberText = 512;

bool floatEqualsInteger(double d, const json& integer)
{
    if (!std::isfinite(d) || std::trunc(d) != d)
        return false;
    if (integer.type() == json::value_t::number_unsigned) {
        if (d < 0.0 || d >= 18446744073709551616.0)
            return false;
        return static_cast<std::uint64_t>(d) == integer.get<std::uint64_t>();
    }
    if (d < -9223372036854775808.0 || d >= 9223372036854775808.0)
        return false;
    return static_cast<std::int64_t>(d) == integer.get<std::int64_t>();
}

// Exact comparison by value across nlohmann's three number representations; never goes through
// double for two integers, so 2^53 + 1 != 2^53.
bool numbersEqual(const json& a, const json& b)
{
    const bool aFloat = a.is_number_float();
    const bool bFloat = b.is_number_float();
    if (aFloat && bFloat)
        return a.get<double>() == b.get<double>();
    if (aFloat)
        return floatEqualsInteger(a.get<double>(), b);
    if (bFloat)
        return floatEqualsInteger(b.get<double>(), a);
    const bool aUnsigned = a.type() == json::value_t::number_unsigned;
    const bool bUnsigned = b.type() == json::value_t::number_unsigned;
    if (aUnsigned && bUnsigned)
        return a.get<std::uint64_t>() == b.get<std::uint64_t>();
    if (!aUnsigned && !bUnsigned)
        return a.get<std::int64_t>() == b.get<std::int64_t>();
    const std::int64_t s = aUnsigned ? b.get<std::int64_t>() : a.get<std::int64_t>();
    const std::uint64_t u = aUnsigned ? a.get<std::uint64_t>() : b.get<std::uint64_t>();
    return s >= 0 && static_cast<std::uint64_t>(s) == u;
}

const std::string& str(const json& v)
{
    return v.get_ref<const std::string&>();
}

bool stringEqualsNumber(std::string_view text, const json& number)
{
    if (text.empty() || text.size() > kMaxNumberText)
        return false;
    const char first = text.front();
    const char last = text.back();
    // nlohmann skips surrounding whitespace; a coercible string must be the number and nothing else.
    if (!(first == '-' || (first >= '0' && first <= '9')) || !(last >= '0' && last <= '9'))
        return false;
    const json parsed = json::parse(text.begin(), text.end(), nullptr, false);
    return parsed.is_number() && numbersEqual(parsed, number);
}

// "42" vs 42, "true" vs true: the string's content against the other value's JSON text, with
// numbers compared by value so "42" also matches 42.0.
bool stringifiedEqual(const json& a, const json& b, Equality equality)
{
    if (a.is_string() == b.is_string())
        return false;
    const json& text = a.is_string() ? a : b;
    const json& other = a.is_string() ? b : a;
    std::string normalized;
    std::string_view content = str(text);
    if (equality == Equality::Lenient) {
        normalized = lenientNormalize(content);
        content = normalized;
    }
    if (other.is_boolean())
        return content == (other.get<bool>() ? "true" : "false");
    if (other.is_number())
        return stringEqualsNumber(content, other);
    return false;
}

bool samePrimitiveKind(const json& a, const json& b)
{
    return (a.is_number() && b.is_number()) || (a.is_boolean() && b.is_boolean());
}

bool isEmptyContainer(const json& v)
{
    return v.is_structured() && v.empty();
}

// One step from a parent to a child: an object key, or an array index on the gold side and on the
// predicted side (they differ only under unordered matching).
struct Segment
{
    const std::string* key = nullptr;
    std::size_t goldIndex = 0;
    std::size_t predIndex = 0;
};

// A leaf (or empty container) of an array element, keyed by its pointer relative to the element.
struct ElementLeaf
{
    std::string pointer;
    const json* value = nullptr;
};

void collectElementLeaves(const json& v, std::string& pointer, std::vector<ElementLeaf>& out)
{
    if (v.is_object() && !v.empty()) {
        for (const auto& [key, child] : v.get_ref<const json::object_t&>()) {
            const std::size_t size = pointer.size();
            appendPointerToken(pointer, key);
            collectElementLeaves(child, pointer, out);
            pointer.resize(size);
        }
    } else if (v.is_array() && !v.empty()) {
        const auto& items = v.get_ref<const json::array_t&>();
        for (std::size_t i = 0; i < items.size(); ++i) {
            const std::size_t size = pointer.size();
            appendPointerToken(pointer, std::to_string(i));
            collectElementLeaves(items[i], pointer, out);
            pointer.resize(size);
        }
    } else {
        out.push_back(ElementLeaf { pointer, &v });
    }
}

std::vector<ElementLeaf> elementLeaves(const json& v)
{
    std::vector<ElementLeaf> leaves;
    std::string pointer;
    collectElementLeaves(v, pointer, leaves);
    std::sort(
        leaves.begin(), leaves.end(), [](const ElementLeaf& x, const ElementLeaf& y) { return x.pointer < y.pointer; });
    return leaves;
}

std::size_t countEqualLeaves(const std::vector<ElementLeaf>& a, const std::vector<ElementLeaf>& b, Equality eq)
{
    std::size_t equal = 0;
    auto ia = a.begin();
    auto ib = b.begin();
    while (ia != a.end() && ib != b.end()) {
        const int order = ia->pointer.compare(ib->pointer);
        if (order < 0) {
            ++ia;
        } else if (order > 0) {
            ++ib;
        } else {
            if (valuesEqual(*ia->value, *ib->value, eq))
                ++equal;
            ++ia;
            ++ib;
        }
    }
    return equal;
}

struct Pairing
{
    std::size_t gold;
    std::size_t pred;
    std::size_t equal;
    std::size_t unequal;
};

// For each gold element, the index of its predicted partner (kNoIndex when none).
std::vector<std::size_t> alignUnordered(const json::array_t& gold, const json::array_t& pred, Equality eq)
{
    const std::size_t n = gold.size();
    const std::size_t m = pred.size();
    std::vector<std::size_t> match(n, kNoIndex);
    if (n == 0 || m == 0)
        return match;

    std::vector<std::vector<ElementLeaf>> goldLeaves(n);
    std::vector<std::vector<ElementLeaf>> predLeaves(m);
    std::size_t goldTotal = 0;
    std::size_t predTotal = 0;
    for (std::size_t i = 0; i < n; ++i) {
        goldLeaves[i] = elementLeaves(gold[i]);
        goldTotal += goldLeaves[i].size();
    }
    for (std::size_t j = 0; j < m; ++j) {
        predLeaves[j] = elementLeaves(pred[j]);
        predTotal += predLeaves[j].size();
    }
    const bool affordable = n <= kAlignBudget / m && goldTotal <= kAlignBudget / m && predTotal <= kAlignBudget / n
        && goldTotal * m + predTotal * n <= kAlignBudget;
    std::vector<bool> used(m, false);
    if (affordable) {
        std::vector<Pairing> pairs;
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < m; ++j) {
                const std::size_t equal = countEqualLeaves(goldLeaves[i], predLeaves[j], eq);
                if (equal > 0)
                    pairs.push_back(Pairing { i, j, equal, goldLeaves[i].size() + predLeaves[j].size() - 2 * equal });
            }
        }
        std::sort(pairs.begin(), pairs.end(), [](const Pairing& x, const Pairing& y) {
            if (x.equal != y.equal)
                return x.equal > y.equal;
            if (x.unequal != y.unequal)
                return x.unequal < y.unequal;
            const std::size_t dx = x.gold > x.pred ? x.gold - x.pred : x.pred - x.gold;
            const std::size_t dy = y.gold > y.pred ? y.gold - y.pred : y.pred - y.gold;
            if (dx != dy)
                return dx < dy;
            if (x.gold != y.gold)
                return x.gold < y.gold;
            return x.pred < y.pred;
        });
        for (const Pairing& p : pairs) {
            if (match[p.gold] == kNoIndex && !used[p.pred]) {
                match[p.gold] = p.pred;
                used[p.pred] = true;
            }
        }
    }
    // Whatever shares nothing is paired in index order, as an ordered comparison would.
    std::size_t j = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (match[i] != kNoIndex)
            continue;
        while (j < m && used[j])
            ++j;
        if (j == m)
            break;
        match[i] = j;
        used[j] = true;
    }
    return match;
}

// Counts one difference (countDifferences() and the counting Differ share it).
void tally(DiffCounts& counts, DiffKind kind, WrongValueKind wrongKind, bool goldNull, const json& predicted)
{
    switch (kind) {
    case DiffKind::MissingKey:
        ++counts.mk;
        break;
    case DiffKind::MissingValue:
        ++counts.mv;
        break;
    case DiffKind::ExtraKey:
        ++counts.extra;
        if (!predicted.is_null() && !isEmptyContainer(predicted))
            ++counts.invented;
        break;
    case DiffKind::WrongValue:
        switch (wrongKind) {
        case WrongValueKind::Deviation:
            ++counts.wvDeviation;
            break;
        case WrongValueKind::ValueError:
            ++counts.wvValue;
            break;
        case WrongValueKind::Coercible:
            ++counts.wvCoercible;
            break;
        case WrongValueKind::None:
        case WrongValueKind::TypeError:
            ++counts.wvType;
            break;
        }
        if (goldNull) {
            ++counts.goldNull;
            if (!isEmptyContainer(predicted))
                ++counts.invented;
        }
        break;
    }
}

// Walks gold and prediction once, either building the differences (`out`) or only counting them (`counts`, with
// the deviations' distances in `deviations` when asked).
class Differ
{
public:
    Differ(const DiffOptions& options, std::vector<Difference>& out)
        : m_options(options)
        , m_out(&out)
    { }

    Differ(const DiffOptions& options, DiffCounts& counts, std::vector<double>* deviations)
        : m_options(options)
        , m_counts(&counts)
        , m_deviations(deviations)
    { }

    void run(const json& gold, const json& pred)
    {
        walk(gold, pred);
        if (m_out)
            m_out->insert(
                m_out->end(), std::make_move_iterator(m_extras.begin()), std::make_move_iterator(m_extras.end()));
    }

private:
    void walk(const json& g, const json& p)
    {
        if (g.is_structured()) {
            if (g.is_object() && p.is_object())
                objects(g.get_ref<const json::object_t&>(), p.get_ref<const json::object_t&>());
            else if (g.is_array() && p.is_array())
                arrays(g.get_ref<const json::array_t&>(), p.get_ref<const json::array_t&>());
            else if (p.is_null())
                forEachLeaf(g, false, [&](const json& leaf, bool empty) {
                    if (!empty && !leaf.is_null())
                        emit(DiffKind::MissingValue, WrongValueKind::None, &leaf, nullptr);
                });
            else
                forEachLeaf(g, false,
                    [&](const json& leaf, bool) { emit(DiffKind::WrongValue, WrongValueKind::TypeError, &leaf, &p); });
            return;
        }
        compareLeaf(g, p);
    }

    void compareLeaf(const json& g, const json& p)
    {
        if (g.is_null()) {
            if (!p.is_null())
                emit(DiffKind::WrongValue, WrongValueKind::TypeError, &g, &p, true);
            return;
        }
        if (p.is_null()) {
            emit(DiffKind::MissingValue, WrongValueKind::None, &g, &p);
            return;
        }
        if (p.is_structured()) {
            emit(DiffKind::WrongValue, WrongValueKind::TypeError, &g, &p);
            return;
        }
        if (valuesEqual(g, p, m_options.equality))
            return;
        if (g.is_string() && p.is_string()) {
            // The distance is the costly part of a diff (long strings): only for a caller that reads it.
            if (m_out ? !m_options.distances : !m_deviations) {
                emit(DiffKind::WrongValue, WrongValueKind::Deviation, &g, &p);
                return;
            }
            const double distance = normalizedLevenshtein(str(g), str(p));
            if (m_out)
                emit(DiffKind::WrongValue, WrongValueKind::Deviation, &g, &p).levenshtein = distance;
            else
                emit(DiffKind::WrongValue, WrongValueKind::Deviation, &g, &p);
            if (m_deviations)
                m_deviations->push_back(distance);
        } else if (samePrimitiveKind(g, p)) {
            emit(DiffKind::WrongValue, WrongValueKind::ValueError, &g, &p);
        } else if (stringifiedEqual(g, p, m_options.equality)) {
            emit(DiffKind::WrongValue, WrongValueKind::Coercible, &g, &p);
        } else {
            emit(DiffKind::WrongValue, WrongValueKind::TypeError, &g, &p);
        }
    }

    void missing(const json& g)
    {
        forEachLeaf(g, false, [&](const json& leaf, bool empty) {
            emit(DiffKind::MissingKey, WrongValueKind::None, &leaf, nullptr);
            if (!empty && !leaf.is_null())
                emit(DiffKind::MissingValue, WrongValueKind::None, &leaf, nullptr);
        });
    }

    void extra(const json& p)
    {
        forEachLeaf(p, true, [&](const json& leaf, bool) { emitExtra(leaf); });
    }

    // Both maps iterate in key order, so one merge pass pairs the keys.
    void objects(const json::object_t& g, const json::object_t& p)
    {
        auto gi = g.begin();
        auto pi = p.begin();
        while (gi != g.end() || pi != p.end()) {
            const int order = gi == g.end() ? 1 : pi == p.end() ? -1 : gi->first.compare(pi->first);
            if (order < 0) {
                m_segments.push_back(Segment { &gi->first });
                missing(gi->second);
                ++gi;
            } else if (order > 0) {
                m_segments.push_back(Segment { &pi->first });
                extra(pi->second);
                ++pi;
            } else {
                m_segments.push_back(Segment { &gi->first });
                walk(gi->second, pi->second);
                ++gi;
                ++pi;
            }
            m_segments.pop_back();
        }
    }

    void arrays(const json::array_t& g, const json::array_t& p)
    {
        std::vector<std::size_t> match;
        if (m_options.arrays == ArrayMatching::Unordered) {
            match = alignUnordered(g, p, m_options.equality);
        } else {
            match.resize(g.size(), kNoIndex);
            for (std::size_t i = 0; i < std::min(g.size(), p.size()); ++i)
                match[i] = i;
        }
        std::vector<bool> used(p.size(), false);
        for (std::size_t i = 0; i < g.size(); ++i) {
            const std::size_t j = match[i];
            m_segments.push_back(Segment { nullptr, i, j });
            if (j == kNoIndex) {
                missing(g[i]);
            } else {
                used[j] = true;
                walk(g[i], p[j]);
            }
            m_segments.pop_back();
        }
        for (std::size_t j = 0; j < p.size(); ++j) {
            if (used[j])
                continue;
            m_segments.push_back(Segment { nullptr, kNoIndex, j });
            extra(p[j]);
            m_segments.pop_back();
        }
    }

    // Calls f(leaf, isEmptyContainer) for every leaf and empty container under v, with the segment
    // stack describing its place.
    template <typename F> void forEachLeaf(const json& v, bool predSide, F&& f)
    {
        if (v.is_object() && !v.empty()) {
            for (const auto& [key, child] : v.get_ref<const json::object_t&>()) {
                m_segments.push_back(Segment { &key });
                forEachLeaf(child, predSide, f);
                m_segments.pop_back();
            }
        } else if (v.is_array() && !v.empty()) {
            const auto& items = v.get_ref<const json::array_t&>();
            for (std::size_t i = 0; i < items.size(); ++i) {
                m_segments.push_back(Segment { nullptr, i, i });
                forEachLeaf(items[i], predSide, f);
                m_segments.pop_back();
            }
        } else {
            f(v, v.is_structured());
        }
    }

    void locate(Difference& d, bool predSide) const
    {
        for (const Segment& s : m_segments) {
            if (s.key != nullptr) {
                appendPointerToken(d.pointer, *s.key);
                appendPathKey(d.path, *s.key);
            } else {
                const std::size_t index = predSide ? s.predIndex : s.goldIndex;
                appendPointerToken(d.pointer, std::to_string(index));
                appendPathIndex(d.path, index);
            }
        }
    }

    // Counting mode returns a scratch entry nobody reads.
    Difference& emit(DiffKind kind, WrongValueKind wrongKind, const json* gold, const json* pred, bool goldNull = false)
    {
        if (!m_out) {
            static const json kNull;
            tally(*m_counts, kind, wrongKind, goldNull, pred != nullptr ? *pred : kNull);
            return m_scratch;
        }
        Difference& d = m_out->emplace_back();
        d.kind = kind;
        d.wrongKind = wrongKind;
        d.goldNull = goldNull;
        locate(d, false);
        if (gold != nullptr)
            d.gold = *gold;
        if (pred != nullptr)
            d.predicted = *pred;
        return d;
    }

    void emitExtra(const json& pred)
    {
        if (!m_out) {
            tally(*m_counts, DiffKind::ExtraKey, WrongValueKind::None, false, pred);
            return;
        }
        Difference& d = m_extras.emplace_back();
        d.kind = DiffKind::ExtraKey;
        locate(d, true);
        d.predicted = pred;
    }

    const DiffOptions& m_options;
    std::vector<Difference>* m_out = nullptr;
    DiffCounts* m_counts = nullptr;
    std::vector<double>* m_deviations = nullptr;
    Difference m_scratch;
    std::vector<Difference> m_extras;
    std::vector<Segment> m_segments;
};

} // namespace

const char* diffKindId(DiffKind kind)
{
    switch (kind) {
    case DiffKind::MissingKey:
        return "missing_key";
    case DiffKind::MissingValue:
        return "missing_value";
    case DiffKind::WrongValue:
        return "wrong_value";
    case DiffKind::ExtraKey:
        return "extra_key";
    }
    return "";
}

const char* wrongValueKindId(WrongValueKind kind)
{
    switch (kind) {
    case WrongValueKind::None:
        return "";
    case WrongValueKind::Deviation:
        return "deviation";
    case WrongValueKind::ValueError:
        return "value_error";
    case WrongValueKind::Coercible:
        return "coercible";
    case WrongValueKind::TypeError:
        return "type_error";
    }
    return "";
}

std::vector<Difference> diffJson(const json& gold, const json& predicted, const DiffOptions& options)
{
    std::vector<Difference> out;
    Differ(options, out).run(gold, predicted);
    return out;
}

std::vector<std::size_t> alignArrayElements(const json& gold, const json& predicted, Equality equality)
{
    if (!gold.is_array() || !predicted.is_array())
        return std::vector<std::size_t>(gold.is_array() ? gold.size() : 0, kNoArrayPartner);
    return alignUnordered(gold.get_ref<const json::array_t&>(), predicted.get_ref<const json::array_t&>(), equality);
}

ElementAgreement elementAgreement(const json& gold, const json& predicted, Equality equality)
{
    const std::vector<ElementLeaf> g = elementLeaves(gold);
    const std::vector<ElementLeaf> p = elementLeaves(predicted);
    return { countEqualLeaves(g, p, equality), g.size(), p.size() };
}

bool valuesEqual(const json& a, const json& b, Equality equality)
{
    switch (a.type()) {
    case json::value_t::null:
        return b.is_null();
    case json::value_t::boolean:
        return b.is_boolean() && a.get<bool>() == b.get<bool>();
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
        return b.is_number() && numbersEqual(a, b);
    case json::value_t::string:
        if (!b.is_string())
            return false;
        return equality == Equality::Strict ? str(a) == str(b) : lenientEqual(str(a), str(b));
    case json::value_t::object: {
        if (!b.is_object() || a.size() != b.size())
            return false;
        const auto& oa = a.get_ref<const json::object_t&>();
        const auto& ob = b.get_ref<const json::object_t&>();
        return std::equal(oa.begin(), oa.end(), ob.begin(), [equality](const auto& x, const auto& y) {
            return x.first == y.first && valuesEqual(x.second, y.second, equality);
        });
    }
    case json::value_t::array: {
        if (!b.is_array() || a.size() != b.size())
            return false;
        const auto& aa = a.get_ref<const json::array_t&>();
        const auto& ab = b.get_ref<const json::array_t&>();
        return std::equal(aa.begin(), aa.end(), ab.begin(),
            [equality](const json& x, const json& y) { return valuesEqual(x, y, equality); });
    }
    case json::value_t::binary:
        return a == b;
    case json::value_t::discarded:
        break;
    }
    return false;
}

double normalizedLevenshtein(std::string_view gold, std::string_view predicted)
{
    const std::size_t length = std::max<std::size_t>(1, codePointCount(gold));
    return double(levenshtein(gold, predicted)) / double(length);
}

DiffCounts countDifferences(const std::vector<Difference>& differences)
{
    DiffCounts counts;
    for (const Difference& d : differences)
        tally(counts, d.kind, d.wrongKind, d.goldNull, d.predicted);
    return counts;
}

DiffCounts countDiff(
    const json& gold, const json& predicted, const DiffOptions& options, std::vector<double>* deviations)
{
    DiffCounts counts;
    Differ(options, counts, deviations).run(gold, predicted);
    return counts;
}

} // namespace structscope
