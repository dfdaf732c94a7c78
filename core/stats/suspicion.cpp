#include "stats/suspicion.h"

#include <QSet>

#include <algorithm>
#include <cmath>
#include <map>

namespace structscope {

namespace {

constexpr double kTolerance = 1e-9;

// Stands for a missing path; no JSON text starts with '<', so it cannot collide with a value.
const std::string kAbsentKey = "<absent>";

void appendString(const std::string& text, std::string& out)
{
    out += nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void appendCanonical(const nlohmann::json& value, std::string& out)
{
    switch (value.type()) {
    case nlohmann::json::value_t::object: {
        out += '{';
        bool first = true;
        // nlohmann::json keeps object keys in a std::map, so iteration is already sorted.
        for (const auto& [key, member] : value.items()) {
            if (!first)
                out += ',';
            first = false;
            appendString(key, out);
            out += ':';
            appendCanonical(member, out);
        }
        out += '}';
        return;
    }
    case nlohmann::json::value_t::array: {
        out += '[';
        for (std::size_t i = 0; i < value.size(); ++i) {
            if (i > 0)
                out += ',';
            appendCanonical(value[i], out);
        }
        out += ']';
        return;
    }
    case nlohmann::json::value_t::number_float: {
        const double f = value.get<double>();
        // Integral floats print as the integer they equal, which is how integers print.
        if (std::isfinite(f) && std::trunc(f) == f) {
            if (f >= 0.0 && f < 18446744073709551616.0) {
                out += std::to_string(static_cast<std::uint64_t>(f));
                return;
            }
            if (f < 0.0 && f >= -9223372036854775808.0) {
                out += std::to_string(static_cast<std::int64_t>(f));
                return;
            }
        }
        out += value.dump();
        return;
    }
    case nlohmann::json::value_t::string:
        appendString(value.get_ref<const std::string&>(), out);
        return;
    default:
        out += value.dump();
        return;
    }
}

struct Tally
{
    int votes = 0;
    std::size_t firstAnswer = 0;
    QStringList models;
};

} // namespace

std::string consensusKey(const nlohmann::json& value)
{
    std::string out;
    appendCanonical(value, out);
    return out;
}

std::vector<SuspectLeaf> goldSuspicionQueue(const std::vector<LeafAnswers>& leaves, const SuspicionOptions& options)
{
    std::vector<SuspectLeaf> queue;
    const nlohmann::json null;
    for (const LeafAnswers& leaf : leaves) {
        QSet<QString> seen;
        std::map<std::string, Tally> tallies;
        int answered = 0;
        for (std::size_t i = 0; i < leaf.answers.size(); ++i) {
            const ModelAnswer& answer = leaf.answers[i];
            if (seen.contains(answer.model))
                continue;
            seen.insert(answer.model);
            ++answered;
            std::string key;
            if (answer.value)
                key = consensusKey(*answer.value);
            else
                key = options.absentEqualsNull ? consensusKey(null) : kAbsentKey;
            Tally& tally = tallies[key];
            if (tally.votes == 0)
                tally.firstAnswer = i;
            ++tally.votes;
            tally.models << answer.model;
        }
        if (answered < options.minModels || answered == 0)
            continue;

        const std::string goldKey = consensusKey(leaf.gold);
        const std::pair<const std::string, Tally>* best = nullptr;
        // std::map iterates keys in ascending order, so on equal votes the smaller key stays.
        for (const auto& entry : tallies) {
            if (entry.first == goldKey)
                continue;
            if (entry.second.votes < options.minSupport * answered - kTolerance)
                continue;
            if (!best || entry.second.votes > best->second.votes)
                best = &entry;
        }
        if (!best)
            continue;

        SuspectLeaf suspect;
        suspect.caseId = leaf.caseId;
        suspect.path = leaf.path;
        suspect.gold = leaf.gold;
        const ModelAnswer& first = leaf.answers[best->second.firstAnswer];
        suspect.consensus = first.value.value_or(null);
        suspect.consensusAbsent = best->first == kAbsentKey;
        suspect.agreeing = best->second.votes;
        suspect.answered = answered;
        suspect.support = static_cast<double>(suspect.agreeing) / static_cast<double>(answered);
        suspect.agreeingModels = best->second.models;
        suspect.agreeingModels.sort();
        queue.push_back(std::move(suspect));
    }
    std::sort(queue.begin(), queue.end(), [](const SuspectLeaf& x, const SuspectLeaf& y) {
        if (x.support != y.support)
            return x.support > y.support;
        if (x.agreeing != y.agreeing)
            return x.agreeing > y.agreeing;
        if (x.caseId != y.caseId)
            return x.caseId < y.caseId;
        return x.path < y.path;
    });
    return queue;
}

std::vector<UniformFailureFlag> uniformFailureFlags(
    const std::vector<CategoryFailureRate>& rates, const UniformFailureOptions& options)
{
    struct Group
    {
        QSet<QString> models;
        double low = 0.0;
        double high = 0.0;
    };
    std::map<QString, Group> groups;
    for (const CategoryFailureRate& r : rates) {
        if (std::isnan(r.rate))
            continue;
        Group& g = groups[r.category];
        if (g.models.contains(r.model))
            continue;
        if (g.models.isEmpty()) {
            g.low = r.rate;
            g.high = r.rate;
        } else {
            g.low = std::min(g.low, r.rate);
            g.high = std::max(g.high, r.rate);
        }
        g.models.insert(r.model);
    }

    std::vector<UniformFailureFlag> flags;
    for (const auto& [category, g] : groups) {
        const auto models = static_cast<int>(g.models.size());
        if (models < options.minModels || models == 0)
            continue;
        if (g.low < options.minRate - kTolerance || g.high - g.low > options.maxSpread + kTolerance)
            continue;
        flags.push_back({ category, models, g.low, g.high });
    }
    std::stable_sort(flags.begin(), flags.end(),
        [](const UniformFailureFlag& x, const UniformFailureFlag& y) { return x.minRate > y.minRate; });
    return flags;
}

} // namespace structscope
