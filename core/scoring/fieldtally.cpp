// SPDX-License-Identifier: Apache-2.0
#include "scoring/fieldtally.h"

#include "json/leafpaths.h"

#include <algorithm>
#include <deque>
#include <mutex>
#include <unordered_map>

using nlohmann::json;

namespace structscope {

namespace {

struct InternedFields
{
    std::mutex mutex;
    std::deque<std::string> paths; ///< a deque never moves its elements: the map's keys point into them
    std::unordered_map<std::string_view, FieldKey> keys;
};

/// Hashes std::string and std::string_view alike, so that a lookup by view builds no string.
struct PathHash
{
    using is_transparent = void;
    std::size_t operator()(std::string_view path) const { return std::hash<std::string_view> {}(path); }
};

InternedFields& internedFields()
{
    static InternedFields table;
    return table;
}

/// Live shared tallies by a hash of their content; expired entries are dropped whenever the table has doubled since.
struct SharedTallies
{
    std::mutex mutex;
    std::unordered_multimap<std::size_t, std::weak_ptr<const FieldTallies>> byHash;
    std::size_t pruneAt = 4096;
};

SharedTallies& sharedTallies()
{
    static SharedTallies table;
    return table;
}

std::size_t hashOf(const FieldTallies& tallies)
{
    std::uint64_t h = 1469598103934665603ull;
    const auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
    for (const FieldTally& t : tallies) {
        mix(t.field);
        mix(t.elements);
        mix(t.correct);
        mix(t.lenient);
        mix(t.missing);
        mix(t.wrong);
        mix(t.invented);
        mix(t.typeError);
    }
    return std::size_t(h);
}

enum class Outcome : std::uint8_t { Correct, Lenient, Missing, Wrong, WrongType, Invented };

bool isEmptyContainer(const json& v)
{
    return v.is_structured() && v.empty();
}

} // namespace

FieldKey fieldKey(std::string_view path)
{
    thread_local std::unordered_map<std::string, FieldKey, PathHash, std::equal_to<>> known;
    if (const auto it = known.find(path); it != known.end())
        return it->second;
    InternedFields& table = internedFields();
    std::lock_guard lock(table.mutex);
    auto it = table.keys.find(path);
    if (it == table.keys.end()) {
        const std::string& text = table.paths.emplace_back(path);
        it = table.keys.emplace(text, FieldKey(table.paths.size() - 1)).first;
    }
    known.emplace(std::string(path), it->second);
    return it->second;
}

std::string fieldPathOf(FieldKey key)
{
    InternedFields& table = internedFields();
    std::lock_guard lock(table.mutex);
    return key < table.paths.size() ? table.paths[key] : std::string();
}

std::size_t fieldKeyCount()
{
    InternedFields& table = internedFields();
    std::lock_guard lock(table.mutex);
    return table.paths.size();
}

std::shared_ptr<const FieldTallies> shareTallies(FieldTallies tallies)
{
    if (tallies.empty())
        return nullptr;
    const std::size_t hash = hashOf(tallies);
    SharedTallies& table = sharedTallies();
    std::lock_guard lock(table.mutex);
    const auto [first, last] = table.byHash.equal_range(hash);
    for (auto it = first; it != last; ++it) {
        if (std::shared_ptr<const FieldTallies> live = it->second.lock(); live && *live == tallies)
            return live;
    }
    auto made = std::make_shared<const FieldTallies>(std::move(tallies));
    table.byHash.emplace(hash, made);
    if (table.byHash.size() >= table.pruneAt) {
        std::erase_if(table.byHash, [](const auto& entry) { return entry.second.expired(); });
        table.pruneAt = std::max<std::size_t>(4096, 2 * table.byHash.size());
    }
    return made;
}

namespace {

/// Walks a gold document once (walkLeaves, wildcarded), tallying each leaf under its field: the path and (only when
/// some leaf has a difference) the exact pointer are built in two reused buffers, so a leaf costs no allocation.
class FieldWalker
{
public:
    FieldWalker(FieldTallies& out, const std::unordered_map<std::string_view, Outcome>* outcomes, Outcome otherwise)
        : m_out(out)
        , m_outcomes(outcomes && !outcomes->empty() ? outcomes : nullptr)
        , m_otherwise(otherwise)
    { }

    void visit(const json& gold)
    {
        walkLeaves<ArrayPathStyle::Wildcard>(
            gold, m_outcomes != nullptr, [this](const json&, const std::string& path, const std::string& pointer) {
                Outcome outcome = m_otherwise;
                if (m_outcomes) {
                    if (const auto it = m_outcomes->find(pointer); it != m_outcomes->end())
                        outcome = it->second;
                }
                add(fieldKey(path), outcome);
            });
    }

private:
    void add(FieldKey key, Outcome outcome)
    {
        // A gold rarely has more than a few dozen fields, and its leaves come field by field: the last one first.
        FieldTally* tally = nullptr;
        if (!m_out.empty() && m_out[m_last].field == key) {
            tally = &m_out[m_last];
        } else {
            for (std::size_t i = 0; i < m_out.size(); ++i) {
                if (m_out[i].field == key) {
                    tally = &m_out[i];
                    m_last = i;
                    break;
                }
            }
            if (!tally) {
                m_last = m_out.size();
                tally = &m_out.emplace_back();
                tally->field = key;
            }
        }
        ++tally->elements;
        switch (outcome) {
        case Outcome::Correct:
            ++tally->correct;
            ++tally->lenient;
            break;
        case Outcome::Lenient:
            ++tally->lenient;
            break;
        case Outcome::Missing:
            ++tally->missing;
            break;
        case Outcome::WrongType:
            ++tally->typeError;
            ++tally->wrong;
            break;
        case Outcome::Wrong:
            ++tally->wrong;
            break;
        case Outcome::Invented:
            ++tally->invented;
            break;
        }
    }

    FieldTallies& m_out;
    const std::unordered_map<std::string_view, Outcome>* m_outcomes;
    Outcome m_otherwise;
    std::size_t m_last = 0;
};

} // namespace

FieldTallies tallyFields(const json& gold, const std::vector<Difference>* strictDifferences, bool failed)
{
    FieldTallies tallies;
    if (!gold.is_structured())
        return tallies;
    // The outcome of each gold leaf that has a difference, by its pointer (a missing key and its missing value share
    // one); an empty {} / [] of gold is no leaf, and its entry is never looked up.
    std::unordered_map<std::string_view, Outcome> outcomes;
    if (!failed && strictDifferences) {
        for (const Difference& d : *strictDifferences) {
            if (d.kind == DiffKind::ExtraKey)
                continue;
            Outcome outcome = Outcome::Wrong;
            if (d.kind == DiffKind::MissingKey || d.kind == DiffKind::MissingValue)
                outcome = Outcome::Missing;
            else if (d.goldNull)
                outcome = isEmptyContainer(d.predicted) ? Outcome::WrongType : Outcome::Invented;
            else if (valuesEqual(d.gold, d.predicted, Equality::Lenient))
                outcome = Outcome::Lenient;
            else if (d.wrongKind == WrongValueKind::TypeError)
                outcome = Outcome::WrongType;
            outcomes[d.pointer] = outcome;
        }
    }
    FieldWalker(tallies, &outcomes, failed ? Outcome::Missing : Outcome::Correct).visit(gold);
    return tallies;
}

} // namespace structscope
