// SPDX-License-Identifier: Apache-2.0
#include "audit/casefindings.h"

#include "scoring/tokenf1.h"
#include "json/jsondiff.h"
#include "json/leafpaths.h"
#include "json/textnorm.h"

#include <QSet>

#include <algorithm>
#include <map>
#include <set>

using nlohmann::json;

namespace structscope {

namespace {

constexpr double kTolerance = 1e-9;
constexpr Equality kEq = Equality::Lenient;
const std::string kAbsentKey = "<absent>";
constexpr double kFuzzyPair = 0.5; ///< similarity() that pairs elements the scorer's alignment left unpaired
constexpr double kAlike = 0.5; ///< similarity() that makes two models' unpaired elements one proposed element
constexpr double kPiece = 0.5; ///< share of a string's words another must hold for a merge or split

/// A gold leaf and every heard model's value there.
struct LeafVotes
{
    std::string pointer;
    std::string path;
    std::string arrayPointer;
    std::string arrayPath;
    const json* gold = nullptr;
    std::vector<ModelAnswer> answers;
};

/// An element a model gives that has no partner in gold.
struct Extra
{
    QString model;
    const json* element = nullptr;
    std::size_t insertAt = 0;
};

/// A gold array and what the models do with its elements.
struct ArrayVotes
{
    std::string pointer;
    std::string path;
    std::string parentArrayPointer;
    std::string parentArrayPath;
    const json* gold = nullptr;
    QStringList heard;
    std::vector<QStringList> lacking; ///< per gold element
    QStringList merging; ///< models that merge some gold elements into one
    QStringList splitting; ///< models that split some gold element
    std::vector<ModelAnswer> values; ///< each heard model's array
    std::vector<std::vector<ModelAnswer>> partners; ///< per gold element, each heard model's partner (or none)
    std::vector<Extra> extras;
};

std::size_t leafCount(const json& v)
{
    if (v.is_structured() && !v.empty()) {
        std::size_t n = 0;
        for (const json& child : v)
            n += leafCount(child);
        return n;
    }
    return 1;
}

/// Whether an aligned pair is a real match: scalars equal, containers sharing a third of the smaller one's leaves.
bool realPair(const json& g, const json& p)
{
    if (!g.is_structured() || !p.is_structured())
        return !g.is_structured() && !p.is_structured() && valuesEqual(g, p, kEq);
    const ElementAgreement a = elementAgreement(g, p, kEq);
    const std::size_t smaller = std::max<std::size_t>(1, std::min(a.goldLeaves, a.predictedLeaves));
    return a.equal > 0 && a.equal * 3 >= smaller;
}

void relativeLeaves(const json& v, const std::string& pointer, std::map<std::string, const json*>& out);

/// How alike two elements of one array are, in [0, 1]: the mean token F1 (SOB's faithfulness measure) of
/// their leaves, over every relative pointer either one has (a leaf only one has scores 0).
double similarity(const json& a, const json& b)
{
    if (!a.is_structured() || !b.is_structured())
        return !a.is_structured() && !b.is_structured() ? tokenF1(&a, &b) : 0.0;
    std::map<std::string, const json*> x;
    std::map<std::string, const json*> y;
    relativeLeaves(a, {}, x);
    relativeLeaves(b, {}, y);
    double sum = 0.0;
    std::size_t count = 0;
    for (const auto& [pointer, value] : x) {
        const auto other = y.find(pointer);
        ++count;
        if (other != y.end())
            sum += valuesEqual(*value, *other->second, kEq) ? 1.0 : tokenF1(value, other->second);
    }
    for (const auto& [pointer, value] : y)
        count += x.contains(pointer) ? 0 : 1;
    return count == 0 ? 0.0 : sum / double(count);
}

/// Leaves of `element` (relative pointer → value), for merge and split checks of object elements.
void relativeLeaves(const json& v, const std::string& pointer, std::map<std::string, const json*>& out)
{
    if (v.is_object() && !v.empty()) {
        for (const auto& [key, child] : v.items())
            relativeLeaves(child, pointerJoin(pointer, key), out);
    } else if (v.is_array() && !v.empty()) {
        for (std::size_t i = 0; i < v.size(); ++i)
            relativeLeaves(v[i], pointerJoin(pointer, std::to_string(i)), out);
    } else {
        out[pointer] = &v;
    }
}

/// Leaves of `source` that `holder` has equal and `other` (the holder's own partner) does not: what the
/// holder takes from `source` beyond what it shares with its partner. Counted over `source`'s leaves;
/// only non-null leaves count.
std::size_t distinctShared(const json& source, const json& holder, const json& other)
{
    std::map<std::string, const json*> s;
    std::map<std::string, const json*> h;
    std::map<std::string, const json*> o;
    relativeLeaves(source, {}, s);
    relativeLeaves(holder, {}, h);
    relativeLeaves(other, {}, o);
    std::size_t count = 0;
    for (const auto& [pointer, value] : s) {
        if (value->is_null())
            continue;
        const auto inHolder = h.find(pointer);
        if (inHolder == h.end() || !valuesEqual(*value, *inHolder->second, kEq))
            continue;
        const auto inOther = o.find(pointer);
        if (inOther != o.end() && valuesEqual(*value, *inOther->second, kEq))
            continue;
        ++count;
    }
    return count;
}

std::set<std::string> wordsOf(const json& v)
{
    const std::vector<std::string> tokens = sobTokens(sobValueText(&v));
    return { tokens.begin(), tokens.end() };
}

/// Share of `a`'s words that `b` has.
double tokenShare(const json& a, const json& b)
{
    const std::set<std::string> x = wordsOf(a);
    const std::set<std::string> y = wordsOf(b);
    if (x.empty())
        return 0.0;
    std::size_t shared = 0;
    for (const std::string& w : x)
        shared += y.count(w);
    return double(shared) / double(x.size());
}

/// Whether `a` has a word that `b` has and `c` lacks.
bool bringsWords(const json& a, const json& b, const json& c)
{
    const std::set<std::string> y = wordsOf(b);
    const std::set<std::string> z = wordsOf(c);
    return std::ranges::any_of(wordsOf(a), [&](const std::string& w) { return y.contains(w) && !z.contains(w); });
}

QString lenientText(const json& v)
{
    if (v.is_string())
        return QString::fromStdString(lenientNormalize(v.get_ref<const std::string&>()));
    return QString::fromStdString(v.dump());
}

bool isWordChar(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

/// Whether string `hay` holds string `needle` as whole words (lenient forms), and is longer.
bool holdsWords(const json& hay, const json& needle)
{
    if (!hay.is_string() || !needle.is_string())
        return false;
    const QString h = lenientText(hay);
    const QString n = lenientText(needle);
    if (n.isEmpty() || n.size() >= h.size())
        return false;
    for (qsizetype at = h.indexOf(n); at >= 0; at = h.indexOf(n, at + 1)) {
        const qsizetype end = at + n.size();
        if ((at == 0 || !isWordChar(h.at(at - 1))) && (end == h.size() || !isWordChar(h.at(end))))
            return true;
    }
    return false;
}

class CaseAnalysis
{
public:
    CaseAnalysis(const json& gold, const SuspicionOptions& options)
        : m_gold(gold)
        , m_options(options)
    {
        std::string pointer;
        std::string path;
        collect(gold, pointer, path, {}, {});
    }

    void hear(const QString& model, const json& answer)
    {
        ++m_models;
        std::string pointer;
        walk(model, m_gold, &answer, pointer);
    }

    std::vector<CaseFinding> findings() const
    {
        std::vector<CaseFinding> out;
        for (const LeafVotes& leaf : m_leaves)
            leafFinding(leaf, out);
        for (const ArrayVotes& array : m_arrays)
            elementFindings(array, out);
        return out;
    }

private:
    void collect(const json& g, std::string& pointer, std::string& path, const std::string& arrayPointer,
        const std::string& arrayPath)
    {
        if (g.is_object() && !g.empty()) {
            for (const auto& [key, child] : g.get_ref<const json::object_t&>()) {
                const std::size_t ps = pointer.size();
                const std::size_t ls = path.size();
                appendPointerToken(pointer, key);
                appendPathKey(path, key);
                collect(child, pointer, path, arrayPointer, arrayPath);
                pointer.resize(ps);
                path.resize(ls);
            }
            return;
        }
        if (g.is_array()) {
            ArrayVotes a;
            a.pointer = pointer;
            a.path = path;
            a.parentArrayPointer = arrayPointer;
            a.parentArrayPath = arrayPath;
            a.gold = &g;
            a.lacking.resize(g.size());
            a.partners.resize(g.size());
            m_arrayIndex[pointer] = m_arrays.size();
            m_arrays.push_back(std::move(a));
            const std::string here = pointer;
            const std::string herePath = path;
            for (std::size_t i = 0; i < g.size(); ++i) {
                const std::size_t ps = pointer.size();
                const std::size_t ls = path.size();
                appendPointerToken(pointer, std::to_string(i));
                appendPathIndex(path, i);
                collect(g[i], pointer, path, here, herePath);
                pointer.resize(ps);
                path.resize(ls);
            }
            return;
        }
        if (g.is_object())
            return; // an empty {} has no leaf
        LeafVotes leaf;
        leaf.pointer = pointer;
        leaf.path = path;
        leaf.arrayPointer = arrayPointer;
        leaf.arrayPath = arrayPath;
        leaf.gold = &g;
        m_leafIndex[pointer] = m_leaves.size();
        m_leaves.push_back(std::move(leaf));
    }

    void walk(const QString& model, const json& g, const json* p, std::string& pointer)
    {
        if (g.is_object()) {
            if (g.empty())
                return;
            const bool object = p && p->is_object();
            for (const auto& [key, child] : g.get_ref<const json::object_t&>()) {
                const json* pc = nullptr;
                if (object) {
                    const auto it = p->find(key);
                    if (it != p->end())
                        pc = &*it;
                }
                const std::size_t size = pointer.size();
                appendPointerToken(pointer, key);
                walk(model, child, pc, pointer);
                pointer.resize(size);
            }
            return;
        }
        if (g.is_array()) {
            if (p && p->is_array())
                arrays(model, g, *p, pointer);
            return; // no array: the model is not heard on it, nor on anything under it
        }
        m_leaves[m_leafIndex.at(pointer)].answers.push_back(
            { model, p ? std::optional<json>(*p) : std::optional<json>() });
    }

    void arrays(const QString& model, const json& g, const json& p, std::string& pointer)
    {
        ArrayVotes& a = m_arrays[m_arrayIndex.at(pointer)];
        a.heard << model;
        const std::size_t n = g.size();
        const std::size_t m = p.size();
        std::vector<std::size_t> partner = alignArrayElements(g, p, kEq);
        std::vector<std::size_t> goldOf(m, kNoArrayPartner);
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t j = partner[i];
            if (j != kNoArrayPartner && realPair(g[i], p[j]))
                goldOf[j] = i;
            else
                partner[i] = kNoArrayPartner;
        }
        std::vector<bool> goldDone(n, false);
        std::vector<bool> predDone(m, false);
        for (std::size_t i = 0; i < n; ++i)
            goldDone[i] = partner[i] != kNoArrayPartner;
        for (std::size_t j = 0; j < m; ++j)
            predDone[j] = goldOf[j] != kNoArrayPartner;

        std::vector<bool> merged(n, false);
        std::vector<bool> split(n, false);
        // Strings: one answer string holding two or more unpaired gold strings merges them; one gold string
        // holding two or more unpaired answer strings is split.
        for (std::size_t j = 0; j < m; ++j) {
            if (predDone[j] || !p[j].is_string())
                continue;
            std::vector<std::size_t> held;
            for (std::size_t i = 0; i < n; ++i) {
                if (!goldDone[i] && holdsWords(p[j], g[i]))
                    held.push_back(i);
            }
            if (held.size() < 2)
                continue;
            predDone[j] = true;
            for (const std::size_t i : held) {
                merged[i] = true;
                goldDone[i] = true;
            }
        }
        for (std::size_t i = 0; i < n; ++i) {
            if (goldDone[i] || !g[i].is_string())
                continue;
            std::vector<std::size_t> held;
            for (std::size_t j = 0; j < m; ++j) {
                if (!predDone[j] && holdsWords(g[i], p[j]))
                    held.push_back(j);
            }
            if (held.size() < 2)
                continue;
            goldDone[i] = true;
            split[i] = true;
            for (const std::size_t j : held)
                predDone[j] = true;
        }
        // What is left unpaired (paraphrased text shares no equal leaf) is paired by how alike the texts are
        // (similarity ≥ 0.5), best first; then a string with one that holds it as whole words ("Answer
        // Extraction" and "Answer Extraction (based on question topic)").
        {
            struct Candidate
            {
                double score;
                std::size_t gold;
                std::size_t pred;
            };
            std::vector<Candidate> candidates;
            for (std::size_t i = 0; i < n; ++i) {
                for (std::size_t j = 0; j < m && !goldDone[i]; ++j) {
                    if (predDone[j])
                        continue;
                    const double score = similarity(g[i], p[j]);
                    if (score >= kFuzzyPair - kTolerance)
                        candidates.push_back({ score, i, j });
                }
            }
            std::stable_sort(candidates.begin(), candidates.end(),
                [](const Candidate& x, const Candidate& y) { return x.score > y.score; });
            const auto pair = [&](std::size_t i, std::size_t j) {
                partner[i] = j;
                goldOf[j] = i;
                goldDone[i] = true;
                predDone[j] = true;
            };
            for (const Candidate& c : candidates) {
                if (!goldDone[c.gold] && !predDone[c.pred])
                    pair(c.gold, c.pred);
            }
            for (std::size_t i = 0; i < n; ++i) {
                for (std::size_t j = 0; j < m && !goldDone[i]; ++j) {
                    if (!predDone[j] && (holdsWords(g[i], p[j]) || holdsWords(p[j], g[i])))
                        pair(i, j);
                }
            }
        }
        // Strings, by words: an unpaired gold string whose words (half of them) sit in another gold string's
        // partner, bringing words that gold string lacks, was merged into it; an unpaired answer string whose
        // words sit in a paired gold string, bringing words its partner lacks, is a piece split off it.
        std::vector<bool> absorbed(m, false); ///< a partner holding a merged element
        for (std::size_t i = 0; i < n; ++i) {
            if (goldDone[i] || !g[i].is_string())
                continue;
            for (std::size_t i2 = 0; i2 < n; ++i2) {
                const std::size_t j2 = partner[i2];
                if (j2 == kNoArrayPartner || !p[j2].is_string() || !g[i2].is_string())
                    continue;
                if (tokenShare(g[i], p[j2]) >= kPiece - kTolerance && bringsWords(g[i], p[j2], g[i2])) {
                    merged[i] = true;
                    goldDone[i] = true;
                    absorbed[j2] = true;
                    break;
                }
            }
        }
        for (std::size_t j = 0; j < m; ++j) {
            if (predDone[j] || !p[j].is_string())
                continue;
            for (std::size_t i2 = 0; i2 < n; ++i2) {
                const std::size_t j2 = partner[i2];
                if (j2 == kNoArrayPartner || !g[i2].is_string() || !p[j2].is_string())
                    continue;
                if (tokenShare(p[j], g[i2]) >= kPiece - kTolerance && bringsWords(p[j], g[i2], p[j2])) {
                    split[i2] = true;
                    predDone[j] = true;
                    break;
                }
            }
        }
        // Objects: an unpaired gold element whose leaves sit in another element's partner (beyond what that
        // partner shares with its own gold element) was merged into it; an unpaired answer element holding
        // leaves of a paired gold element that its partner lacks is a piece split off it.
        for (std::size_t i = 0; i < n; ++i) {
            if (goldDone[i] || !g[i].is_object())
                continue;
            const std::size_t need = std::max<std::size_t>(1, (leafCount(g[i]) + 2) / 3);
            for (std::size_t i2 = 0; i2 < n; ++i2) {
                const std::size_t j2 = partner[i2];
                if (j2 == kNoArrayPartner || !p[j2].is_object())
                    continue;
                if (distinctShared(g[i], p[j2], g[i2]) >= need) {
                    merged[i] = true;
                    goldDone[i] = true;
                    absorbed[j2] = true;
                    break;
                }
            }
        }
        for (std::size_t j = 0; j < m; ++j) {
            if (predDone[j] || !p[j].is_object())
                continue;
            const std::size_t need = std::max<std::size_t>(1, (leafCount(p[j]) + 2) / 3);
            for (std::size_t i2 = 0; i2 < n; ++i2) {
                const std::size_t j2 = partner[i2];
                if (j2 == kNoArrayPartner || !g[i2].is_object())
                    continue;
                if (distinctShared(p[j], g[i2], p[j2]) >= need) {
                    split[i2] = true;
                    predDone[j] = true;
                    break;
                }
            }
        }

        a.values.push_back({ model, p });
        bool merges = false;
        bool splits = false;
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t j = partner[i];
            a.partners[i].push_back(
                { model, j != kNoArrayPartner ? std::optional<json>(p[j]) : std::optional<json>() });
            merges = merges || merged[i];
            splits = splits || split[i];
            if (!goldDone[i])
                a.lacking[i] << model;
        }
        if (merges)
            a.merging << model;
        if (splits)
            a.splitting << model;
        for (std::size_t j = 0; j < m; ++j) {
            if (predDone[j])
                continue;
            // Before the gold partner of the next paired element of the answer (or at the end).
            std::size_t insertAt = n;
            for (std::size_t k = j + 1; k < m; ++k) {
                if (goldOf[k] != kNoArrayPartner) {
                    insertAt = goldOf[k];
                    break;
                }
            }
            a.extras.push_back({ model, &p[j], insertAt });
        }
        // Then into the paired elements (nested arrays have their own ArrayVotes); not into a piece of a split
        // element or a partner holding a merged one: the model is not heard there.
        const std::string& here = pointer;
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t j = partner[i];
            if (j == kNoArrayPartner || split[i] || absorbed[j])
                continue;
            std::string child = here;
            appendPointerToken(child, std::to_string(i));
            walk(model, g[i], &p[j], child);
        }
    }

    /// Whether `answered` models are enough to be heard at a place.
    bool heardEnough(int answered) const
    {
        return answered >= m_options.minModels && answered > 0
            && answered >= m_options.minHeardShare * m_models - kTolerance;
    }

    bool enough(int agreeing, int answered) const
    {
        return heardEnough(answered) && agreeing > 0 && agreeing >= m_options.minSupport * answered - kTolerance;
    }

    void leafFinding(const LeafVotes& leaf, std::vector<CaseFinding>& out) const
    {
        struct Tally
        {
            int votes = 0;
            QStringList models;
            std::map<std::string, std::pair<int, std::size_t>> forms; ///< strict key → (votes, first answer)
        };
        const json null;
        std::map<std::string, Tally> lenient;
        std::map<std::string, std::pair<int, std::size_t>> strict;
        const int answered = int(leaf.answers.size());
        for (std::size_t i = 0; i < leaf.answers.size(); ++i) {
            const ModelAnswer& a = leaf.answers[i];
            std::string lkey;
            std::string skey;
            if (a.value) {
                lkey = lenientConsensusKey(*a.value);
                skey = consensusKey(*a.value);
            } else {
                lkey = skey = m_options.absentEqualsNull ? consensusKey(null) : kAbsentKey;
            }
            Tally& t = lenient[lkey];
            ++t.votes;
            t.models << a.model;
            auto& form = t.forms[skey];
            if (form.first++ == 0)
                form.second = i;
            auto& s = strict[skey];
            if (s.first++ == 0)
                s.second = i;
        }
        if (!heardEnough(answered))
            return;
        const std::string goldLenient = lenientConsensusKey(*leaf.gold);
        const std::string goldStrict = consensusKey(*leaf.gold);
        const std::pair<const std::string, Tally>* best = nullptr;
        for (const auto& entry : lenient) {
            if (entry.first == goldLenient || !enough(entry.second.votes, answered))
                continue;
            if (!best || entry.second.votes > best->second.votes)
                best = &entry;
        }
        CaseFinding f;
        f.path = leaf.path;
        f.pointer = leaf.pointer;
        f.arrayPath = leaf.arrayPath;
        f.arrayPointer = leaf.arrayPointer;
        f.gold = *leaf.gold;
        f.answered = answered;
        f.answers = leaf.answers;
        if (best) {
            // The spelling most of the agreeing models use.
            std::size_t first = 0;
            int votes = -1;
            for (const auto& [key, form] : best->second.forms) {
                if (form.first > votes || (form.first == votes && form.second < first)) {
                    votes = form.first;
                    first = form.second;
                }
            }
            f.consensus = leaf.answers[first].value.value_or(null);
            f.consensusAbsent = best->first == kAbsentKey;
            f.agreeing = best->second.votes;
            f.agreeingModels = best->second.models;
            f.format = formatVariantOf(*leaf.gold, f.consensus);
            f.kind = f.format == FormatVariant::None ? FindingKind::Value : FindingKind::Format;
        } else {
            // Leniently the models agree with gold; do they agree on another spelling of it?
            const auto found = lenient.find(goldLenient);
            if (found == lenient.end())
                return;
            const std::pair<const std::string, std::pair<int, std::size_t>>* form = nullptr;
            for (const auto& entry : found->second.forms) {
                if (entry.first == goldStrict || !enough(entry.second.first, answered))
                    continue;
                if (!form || entry.second.first > form->second.first)
                    form = &entry;
            }
            if (!form)
                return;
            f.consensus = leaf.answers[form->second.second].value.value_or(null);
            f.agreeing = form->second.first;
            for (const ModelAnswer& a : leaf.answers) {
                if ((a.value ? consensusKey(*a.value) : consensusKey(null)) == form->first)
                    f.agreeingModels << a.model;
            }
            f.format = FormatVariant::Lenient;
            f.kind = FindingKind::Format;
        }
        f.agreeingModels.sort();
        f.support = double(f.agreeing) / double(answered);
        out.push_back(std::move(f));
    }

    CaseFinding elementBase(const ArrayVotes& a) const
    {
        CaseFinding f;
        f.arrayPath = a.path;
        f.arrayPointer = a.pointer;
        f.answered = int(a.heard.size());
        return f;
    }

    void elementFindings(const ArrayVotes& a, std::vector<CaseFinding>& out) const
    {
        const int heard = int(a.heard.size());
        if (!heardEnough(heard))
            return;
        const json& g = *a.gold;
        QStringList structural = a.merging;
        for (const QString& model : a.splitting) {
            if (!structural.contains(model))
                structural << model;
        }
        if (enough(int(structural.size()), heard)) {
            CaseFinding f = elementBase(a);
            f.kind = FindingKind::MergeSplit;
            f.pointer = a.pointer;
            f.path = a.path;
            f.gold = g;
            f.answers = a.values;
            f.agreeingModels = structural;
            f.agreeingModels.sort();
            f.agreeing = int(f.agreeingModels.size());
            f.merging = int(a.merging.size());
            f.splitting = int(a.splitting.size());
            f.support = double(f.agreeing) / double(heard);
            out.push_back(std::move(f));
        }
        for (std::size_t i = 0; i < g.size(); ++i) {
            if (!enough(int(a.lacking[i].size()), heard))
                continue;
            CaseFinding f = elementBase(a);
            f.kind = FindingKind::ExtraElement;
            f.pointer = pointerJoin(a.pointer, std::to_string(i));
            f.path = a.path;
            appendPathIndex(f.path, i);
            f.gold = g[i];
            f.answers = a.partners[i];
            f.agreeingModels = a.lacking[i];
            f.agreeingModels.sort();
            f.agreeing = int(f.agreeingModels.size());
            f.support = double(f.agreeing) / double(heard);
            out.push_back(std::move(f));
        }
        missingElements(a, heard, out);
    }

    void missingElements(const ArrayVotes& a, int heard, std::vector<CaseFinding>& out) const
    {
        struct Cluster
        {
            std::vector<const Extra*> members;
            QSet<QString> models;
        };
        std::vector<Cluster> clusters;
        for (const Extra& e : a.extras) {
            Cluster* best = nullptr;
            double bestScore = 0.0;
            for (Cluster& c : clusters) {
                if (c.models.contains(e.model))
                    continue;
                const double score = similarity(*c.members.front()->element, *e.element);
                if (score >= kAlike - kTolerance && score > bestScore) {
                    best = &c;
                    bestScore = score;
                }
            }
            if (!best) {
                clusters.emplace_back();
                best = &clusters.back();
            }
            best->members.push_back(&e);
            best->models.insert(e.model);
        }
        std::map<std::size_t, int> usedAt;
        for (const Cluster& c : clusters) {
            if (!enough(int(c.members.size()), heard))
                continue;
            // The member most alike the others stands for them.
            std::size_t medoid = 0;
            double bestSum = -1.0;
            for (std::size_t x = 0; x < c.members.size(); ++x) {
                double sum = 0.0;
                for (std::size_t y = 0; y < c.members.size(); ++y) {
                    if (x != y)
                        sum += similarity(*c.members[x]->element, *c.members[y]->element);
                }
                if (sum > bestSum + kTolerance) {
                    bestSum = sum;
                    medoid = x;
                }
            }
            std::vector<std::size_t> places;
            for (const Extra* e : c.members)
                places.push_back(e->insertAt);
            std::sort(places.begin(), places.end());
            const std::size_t insertAt = places[(places.size() - 1) / 2];
            CaseFinding f = elementBase(a);
            f.kind = FindingKind::MissingElement;
            f.pointer = pointerJoin(a.pointer, std::to_string(insertAt));
            f.path = a.path + "[+" + std::to_string(insertAt) + "]";
            const int repeat = usedAt[insertAt]++;
            if (repeat > 0)
                f.path += "~" + std::to_string(repeat + 1);
            f.consensus = *c.members[medoid]->element;
            for (const QString& model : a.heard) {
                const Extra* mine = nullptr;
                for (const Extra* e : c.members) {
                    if (e->model == model)
                        mine = e;
                }
                f.answers.push_back({ model, mine ? std::optional<json>(*mine->element) : std::optional<json>() });
                if (mine)
                    f.agreeingModels << model;
            }
            f.agreeingModels.sort();
            f.agreeing = int(c.members.size());
            f.support = double(f.agreeing) / double(heard);
            out.push_back(std::move(f));
        }
    }

    const json& m_gold;
    const SuspicionOptions& m_options;
    int m_models = 0; ///< models heard on the case
    std::vector<LeafVotes> m_leaves;
    std::map<std::string, std::size_t> m_leafIndex;
    std::vector<ArrayVotes> m_arrays;
    std::map<std::string, std::size_t> m_arrayIndex;
};

} // namespace

const char* findingKindId(FindingKind kind)
{
    switch (kind) {
    case FindingKind::Value:
        return "value";
    case FindingKind::MissingElement:
        return "gold_lacks_element";
    case FindingKind::ExtraElement:
        return "models_lack_element";
    case FindingKind::MergeSplit:
        return "merge_split";
    case FindingKind::Format:
        return "format";
    }
    return "";
}

std::vector<CaseFinding> findCaseSuspects(
    const json& gold, const std::vector<CaseAnswer>& answers, const SuspicionOptions& options)
{
    CaseAnalysis analysis(gold, options);
    QSet<QString> seen;
    for (const CaseAnswer& answer : answers) {
        if (seen.contains(answer.model))
            continue;
        seen.insert(answer.model);
        analysis.hear(answer.model, answer.value);
    }
    return analysis.findings();
}

} // namespace structscope
