// SPDX-License-Identifier: Apache-2.0
#include "report/failureoverlaps.h"

#include "report/aggregator.h"
#include "report/reportformatting.h"
#include "scoring/metricregistry.h"

#include <nlohmann/json.hpp>

#include <QObject>
#include <QStringList>

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>

using namespace Qt::StringLiterals;

namespace structscope {

std::optional<bool> FailureCriterion::fails(const ScoredRecord& record) const
{
    if (record.errored())
        return std::nullopt; // no answer: the slot says nothing of the model
    switch (kind) {
    case Kind::NotCorrect:
        return record.verdict.ladder != LadderLabel::Correct;
    case Kind::ErrorOfKind:
        return hasLabel(errorFlags(record), label);
    case Kind::MetricBelow: {
        const std::optional<double> value = record.verdict.value(metric);
        if (!value)
            return std::nullopt;
        return *value < threshold;
    }
    }
    return std::nullopt;
}

QString FailureCriterion::toString() const
{
    switch (kind) {
    case Kind::NotCorrect:
        return u"not-correct"_s;
    case Kind::ErrorOfKind:
        return u"error:"_s + QString::fromLatin1(errorLabelId(label));
    case Kind::MetricBelow:
        return QString::fromStdString(metric) + u'<' + QString::number(threshold, 'g', 12);
    }
    return {};
}

QString FailureCriterion::describe() const
{
    switch (kind) {
    case Kind::NotCorrect:
        return QObject::tr("verdict not correct");
    case Kind::ErrorOfKind:
        return QObject::tr("an error of kind %1").arg(QString::fromLatin1(errorLabelId(label)));
    case Kind::MetricBelow:
        return QObject::tr("%1 below %2").arg(QString::fromStdString(metric), QString::number(threshold, 'g', 12));
    }
    return {};
}

std::optional<FailureCriterion> FailureCriterion::parse(const QString& text, QString* error)
{
    const auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return std::nullopt;
    };
    const QString t = text.trimmed();
    FailureCriterion criterion;
    if (t.isEmpty() || t == u"not-correct"_s)
        return criterion;
    if (t.startsWith(u"error:"_s)) {
        const QString id = t.mid(6).trimmed();
        const auto label = errorLabelFromId(id.toStdString());
        if (!label) {
            QStringList ids;
            for (ErrorLabel l : errorLabels())
                ids << QString::fromLatin1(errorLabelId(l));
            return fail(u"criterion '%1': unknown error kind '%2' (use one of %3)"_s.arg(t, id, ids.join(u", "_s)));
        }
        criterion.kind = Kind::ErrorOfKind;
        criterion.label = *label;
        return criterion;
    }
    const qsizetype less = t.indexOf(u'<');
    if (less < 0)
        return fail(u"criterion '%1': use not-correct, error:KIND (e.g. error:mk) or METRIC<THRESHOLD "
                    u"(e.g. grounding.value_accuracy<0.8)"_s.arg(t));
    const std::string metric = t.left(less).trimmed().toStdString();
    const MetricInfo* info = findMetric(metric);
    if (!info)
        return fail(u"criterion '%1': unknown metric '%2'"_s.arg(t, QString::fromStdString(metric)));
    if (info->kind != MetricKind::Rate && info->kind != MetricKind::Mean)
        return fail(u"criterion '%1': %2 is not a value of each answer (use a rate or mean metric, e.g. "
                    u"grounding.value_accuracy)"_s.arg(t, QString::fromStdString(metric)));
    if (!info->higherIsBetter)
        return fail(u"criterion '%1': lower is better for %2, so being below a threshold is no failure"_s.arg(
            t, QString::fromStdString(metric)));
    bool ok = false;
    const double threshold = t.mid(less + 1).trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(threshold))
        return fail(u"criterion '%1': the threshold '%2' is not a number"_s.arg(t, t.mid(less + 1).trimmed()));
    criterion.kind = Kind::MetricBelow;
    criterion.metric = metric;
    criterion.threshold = threshold;
    return criterion;
}

QString OverlapSet::label() const
{
    QStringList values;
    for (const auto& part : parts)
        values << (part.second.empty() ? u"—"_s : QString::fromStdString(part.second));
    return values.join(u" · "_s);
}

int FailureMatrix::setIndex(const QString& label) const
{
    for (std::size_t i = 0; i < sets.size(); ++i) {
        if (sets[i].label() == label)
            return int(i);
    }
    return -1;
}

FailureMatrix failureMatrix(
    RecordsView records, const std::vector<std::string>& groupBy, const FailureCriterion& criterion)
{
    FailureMatrix matrix;
    matrix.criterion = criterion;
    matrix.groupBy = groupBy;
    struct Votes
    {
        int failing = 0;
        int passing = 0;
    };
    std::map<std::vector<std::string>, std::pair<bool, std::map<CaseKey, Votes>>> bySet; // simulated, votes per case
    std::map<CaseKey, int> cases;
    for (const ScoredRecord& r : records) {
        std::vector<std::string> values;
        values.reserve(groupBy.size());
        for (const std::string& key : groupBy)
            values.push_back(groupValue(r, key));
        auto& [simulated, votes] = bySet[values];
        simulated = simulated || r.simulated;
        const CaseKey key { r.suite, r.caseId };
        cases.try_emplace(key, 0);
        Votes& v = votes[key]; // a case every record of which is errored still names the set
        if (const std::optional<bool> failing = criterion.fails(r))
            ++(*failing ? v.failing : v.passing);
    }
    int index = 0;
    for (auto& [key, place] : cases) {
        place = index++;
        matrix.cases.push_back(key);
    }
    const std::size_t setCount = bySet.size();
    matrix.states.assign(matrix.cases.size() * setCount, FailureMatrix::NoAnswer);
    matrix.tied.assign(matrix.cases.size() * setCount, 0);
    std::size_t s = 0;
    for (const auto& [values, entry] : bySet) {
        OverlapSet set;
        for (std::size_t i = 0; i < groupBy.size(); ++i)
            set.parts.emplace_back(groupBy[i], values[i]);
        set.simulated = entry.first;
        for (const auto& [key, v] : entry.second) {
            if (v.failing + v.passing == 0)
                continue;
            const std::size_t cell = std::size_t(cases.at(key)) * setCount + s;
            ++set.answered;
            // A strict majority of the voting repeats fails the case; a tie (2 of 4) does not.
            if (v.failing > v.passing) {
                matrix.states[cell] = FailureMatrix::Failed;
                ++set.failed;
            } else {
                matrix.states[cell] = FailureMatrix::Passed;
                if (v.failing == v.passing) {
                    matrix.tied[cell] = 1;
                    ++set.ties;
                }
            }
        }
        matrix.sets.push_back(std::move(set));
        ++s;
    }
    return matrix;
}

int OverlapRegion::degree() const
{
    return std::popcount(mask);
}

std::uint64_t FailureOverlaps::fullMask() const
{
    if (sets.empty())
        return 0;
    return sets.size() >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << sets.size()) - 1;
}

int FailureOverlaps::unionSize() const
{
    int total = 0;
    for (const OverlapRegion& r : regions)
        total += r.count();
    return total;
}

int FailureOverlaps::setSize(int i) const
{
    int total = 0;
    for (const OverlapRegion& r : regions) {
        if ((r.mask >> i) & 1u)
            total += r.count();
    }
    return total;
}

int FailureOverlaps::region(std::uint64_t mask) const
{
    if (mask == 0)
        return int(none.size());
    for (const OverlapRegion& r : regions) {
        if (r.mask == mask)
            return r.count();
    }
    return 0;
}

std::vector<CaseKey> FailureOverlaps::failedByAll() const
{
    const std::uint64_t full = fullMask();
    for (const OverlapRegion& r : regions) {
        if (full != 0 && r.mask == full)
            return r.cases;
    }
    return {};
}

QString FailureOverlaps::regionLabel(std::uint64_t mask) const
{
    if (mask == 0)
        return QObject::tr("none of these");
    const int degree = std::popcount(mask);
    const int count = int(sets.size());
    // A region of most of many sets is named by the sets it leaves out.
    const bool byMissing = count >= 4 && degree > count / 2;
    QStringList names;
    for (std::size_t i = 0; i < sets.size(); ++i) {
        if ((((mask >> i) & 1u) != 0) != byMissing)
            names << sets[i].label();
    }
    if (!byMissing)
        return names.join(u" ∩ "_s);
    if (names.isEmpty())
        return QObject::tr("all %1 chosen sets").arg(count);
    return QObject::tr("all %1 chosen sets but %2").arg(count).arg(names.join(u", "_s));
}

FailureOverlaps countFailureOverlaps(const FailureMatrix& matrix, const std::vector<int>& chosenSets)
{
    FailureOverlaps result;
    result.criterion = matrix.criterion;
    result.groupBy = matrix.groupBy;
    std::vector<int> chosen = chosenSets;
    if (chosen.empty()) {
        for (std::size_t i = 0; i < matrix.sets.size(); ++i)
            chosen.push_back(int(i));
    }
    if (int(chosen.size()) > kMaxOverlapSets) {
        result.error
            = QObject::tr("%1 sets chosen; an overlap counts at most %2").arg(chosen.size()).arg(kMaxOverlapSets);
        return result;
    }
    for (int s : chosen) {
        if (s < 0 || s >= int(matrix.sets.size())) {
            result.error = QObject::tr("no set %1").arg(s);
            return result;
        }
        if (std::count(chosen.begin(), chosen.end(), s) > 1) {
            result.error = QObject::tr("the set %1 is chosen twice").arg(matrix.sets[std::size_t(s)].label());
            return result;
        }
    }
    std::map<std::uint64_t, std::vector<CaseKey>> regions;
    for (std::size_t c = 0; c < matrix.cases.size(); ++c) {
        std::uint64_t mask = 0;
        bool answered = true;
        for (std::size_t i = 0; i < chosen.size(); ++i) {
            const FailureMatrix::State state = matrix.state(c, std::size_t(chosen[i]));
            if (state == FailureMatrix::NoAnswer) {
                answered = false;
                break;
            }
            if (state == FailureMatrix::Failed)
                mask |= std::uint64_t(1) << i;
        }
        if (!answered) {
            ++result.leftOut;
            continue;
        }
        ++result.cases;
        if (mask == 0)
            result.none.push_back(matrix.cases[c]);
        else
            regions[mask].push_back(matrix.cases[c]);
    }
    for (int s : chosen) {
        OverlapSet set = matrix.sets[std::size_t(s)];
        // Counted again among the cases of this choice.
        set.answered = result.cases;
        set.failed = 0;
        set.ties = 0;
        result.sets.push_back(std::move(set));
    }
    for (std::size_t c = 0; c < matrix.cases.size(); ++c) {
        bool answered = true;
        for (int s : chosen)
            answered = answered && matrix.state(c, std::size_t(s)) != FailureMatrix::NoAnswer;
        if (!answered)
            continue;
        for (std::size_t i = 0; i < chosen.size(); ++i) {
            const std::size_t cell = c * matrix.sets.size() + std::size_t(chosen[i]);
            result.sets[i].failed += matrix.states[cell] == FailureMatrix::Failed ? 1 : 0;
            result.sets[i].ties += matrix.tied[cell];
        }
    }
    for (auto& [mask, cases] : regions)
        result.regions.push_back({ mask, std::move(cases) });
    std::stable_sort(result.regions.begin(), result.regions.end(), [](const OverlapRegion& a, const OverlapRegion& b) {
        if (a.count() != b.count())
            return a.count() > b.count();
        if (a.degree() != b.degree())
            return a.degree() < b.degree();
        return a.mask < b.mask;
    });
    return result;
}

std::optional<std::vector<int>> chooseOverlapSets(
    const FailureMatrix& matrix, const QStringList& labels, QString* error)
{
    std::vector<int> chosen;
    for (const QString& label : labels) {
        const int index = matrix.setIndex(label.trimmed());
        if (index < 0) {
            if (error) {
                QStringList names;
                for (const OverlapSet& set : matrix.sets)
                    names << set.label();
                *error = QObject::tr("no set '%1' (the sets are: %2)").arg(label.trimmed(), names.join(u", "_s));
            }
            return std::nullopt;
        }
        if (std::find(chosen.begin(), chosen.end(), index) == chosen.end())
            chosen.push_back(index);
    }
    return chosen;
}

QString failureOverlapRule(const FailureCriterion& criterion)
{
    return QObject::tr("A case is in a set when a strict majority of that set's answers to it fail (%1); a tie (as "
                       "many failing as passing) does not fail it. Errored slots%2 do not vote. Only cases every "
                       "chosen set answered are counted, so the regions add up to the union.")
        .arg(criterion.describe(),
            criterion.kind == FailureCriterion::Kind::MetricBelow
                ? QObject::tr(" and answers the metric does not apply to")
                : QString());
}

namespace {

std::vector<std::string> setNames(const FailureOverlaps& overlaps, std::uint64_t mask)
{
    std::vector<std::string> names;
    for (std::size_t i = 0; i < overlaps.sets.size(); ++i) {
        if ((mask >> i) & 1u)
            names.push_back(overlaps.sets[i].label().toStdString());
    }
    return names;
}

std::string joined(const std::vector<std::string>& names)
{
    std::string text;
    for (const std::string& name : names)
        text += (text.empty() ? "" : " & ") + name;
    return text;
}

} // namespace

std::string failureOverlapsJson(const FailureOverlaps& overlaps, const std::string& gold)
{
    using nlohmann::ordered_json;
    ordered_json doc;
    doc["criterion"] = overlaps.criterion.toString().toStdString();
    doc["rule"] = failureOverlapRule(overlaps.criterion).toStdString();
    doc["gold"] = gold;
    doc["by"] = overlaps.groupBy;
    ordered_json sets = ordered_json::array();
    for (const OverlapSet& s : overlaps.sets)
        sets.push_back({ { "set", s.label().toStdString() }, { "failed", s.failed }, { "ties", s.ties } });
    doc["sets"] = std::move(sets);
    doc["cases"] = overlaps.cases;
    doc["left_out"] = overlaps.leftOut;
    doc["union"] = overlaps.unionSize();
    doc["none"] = overlaps.none.size();
    const std::vector<CaseKey> all = overlaps.failedByAll();
    ordered_json allCases = ordered_json::array();
    for (const CaseKey& c : all)
        allCases.push_back({ { "suite", c.suite.toStdString() }, { "case", c.caseId.toStdString() } });
    doc["all"] = { { "count", all.size() }, { "cases", std::move(allCases) } };
    ordered_json regions = ordered_json::array();
    for (const OverlapRegion& r : overlaps.regions)
        regions.push_back({ { "sets", setNames(overlaps, r.mask) }, { "degree", r.degree() }, { "count", r.count() } });
    doc["regions"] = std::move(regions);
    return doc.dump(2) + "\n";
}

std::string failureOverlapsCsv(const FailureOverlaps& overlaps)
{
    std::string text = "type,sets,degree,count\n";
    const auto row = [&text](const char* type, const std::string& sets, int degree, std::size_t count) {
        text += std::string(type) + ',' + csvField(sets) + ',' + std::to_string(degree) + ',' + std::to_string(count)
            + '\n';
    };
    for (std::size_t i = 0; i < overlaps.sets.size(); ++i)
        row("set", overlaps.sets[i].label().toStdString(), 1, std::size_t(overlaps.setSize(int(i))));
    for (const OverlapRegion& r : overlaps.regions)
        row("region", joined(setNames(overlaps, r.mask)), r.degree(), std::size_t(r.count()));
    row("none", "", 0, overlaps.none.size());
    row("all", joined(setNames(overlaps, overlaps.fullMask())), int(overlaps.sets.size()),
        overlaps.failedByAll().size());
    return text;
}

} // namespace structscope
