// SPDX-License-Identifier: Apache-2.0
#include "analysis/errorsets.h"

#include <QObject>
#include <QStringList>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace structscope {

QString errorLabelName(ErrorLabel label)
{
    switch (label) {
    case ErrorLabel::MissingKey:
        return u"MK"_s;
    case ErrorLabel::MissingValue:
        return u"MV"_s;
    case ErrorLabel::WrongValue:
        return u"WV"_s;
    case ErrorLabel::Deviation:
        return QObject::tr("WV deviation");
    case ErrorLabel::ValueError:
        return QObject::tr("WV value");
    case ErrorLabel::Coercible:
        return QObject::tr("WV coercible");
    case ErrorLabel::TypeError:
        return QObject::tr("WV type");
    case ErrorLabel::ExtraKey:
        return QObject::tr("Extra key");
    case ErrorLabel::Invented:
        return QObject::tr("Invented");
    case ErrorLabel::SchemaViolation:
        return QObject::tr("Schema");
    }
    return {};
}

bool countsAsError(const ScoredRecord& record)
{
    return !record.errored() && !record.verdict.extraction.failed && !record.verdict.extraction.correct;
}

bool ErrorRegion::matches(quint32 flags) const
{
    return std::all_of(
        terms.begin(), terms.end(), [flags](const auto& term) { return hasLabel(flags, term.first) == term.second; });
}

bool ErrorRegion::matches(const ScoredRecord& record) const
{
    return countsAsError(record) && matches(errorFlags(record));
}

QString ErrorRegion::toString() const
{
    QString text;
    for (const auto& [label, inside] : terms)
        text += (inside ? u'+' : u'-') + QString::fromLatin1(errorLabelId(label));
    return text;
}

std::optional<ErrorRegion> ErrorRegion::parse(const QString& text)
{
    ErrorRegion region;
    qsizetype i = 0;
    while (i < text.size()) {
        const QChar sign = text[i];
        if (sign != u'+' && sign != u'-')
            return std::nullopt;
        qsizetype end = i + 1;
        while (end < text.size() && text[end] != u'+' && text[end] != u'-')
            ++end;
        const auto label = errorLabelFromId(text.mid(i + 1, end - i - 1).toStdString());
        if (!label)
            return std::nullopt;
        region.terms.emplace_back(*label, sign == u'+');
        i = end;
    }
    if (region.terms.empty())
        return std::nullopt;
    return region;
}

ErrorRegion ErrorRegion::of(const std::vector<ErrorLabel>& labels, quint32 mask)
{
    ErrorRegion region;
    for (std::size_t i = 0; i < labels.size(); ++i)
        region.terms.emplace_back(labels[i], (mask >> i) & 1u);
    return region;
}

int ErrorSetCounts::region(quint32 mask) const
{
    const auto it = regions.find(mask);
    return it == regions.end() ? 0 : it->second;
}

int ErrorSetCounts::setSize(int i) const
{
    int total = 0;
    for (const auto& [mask, count] : regions) {
        if ((mask >> i) & 1u)
            total += count;
    }
    return total;
}

GroupKey ErrorSetCounts::regionKey(quint32 mask) const
{
    return key.with(kErrorsKey, ErrorRegion::of(labels, mask).toString().toStdString());
}

std::vector<ErrorSetCounts> countErrorSets(
    RecordsView records, const std::vector<std::string>& groupBy, const std::vector<ErrorLabel>& labels)
{
    std::map<std::vector<std::string>, ErrorSetCounts> groups;
    for (const ScoredRecord& r : records) {
        std::vector<std::string> values;
        values.reserve(groupBy.size());
        for (const std::string& key : groupBy)
            values.push_back(groupValue(r, key));
        const auto [it, added] = groups.try_emplace(values);
        ErrorSetCounts& g = it->second;
        if (added) {
            for (std::size_t i = 0; i < groupBy.size(); ++i)
                g.key.parts.emplace_back(groupBy[i], values[i]);
            g.labels = labels;
        }
        g.simulated = g.simulated || r.simulated;
        if (r.errored()) {
            ++g.errored;
            continue;
        }
        ++g.n;
        if (r.verdict.extraction.failed) {
            ++g.failed;
            continue;
        }
        if (r.verdict.extraction.correct) {
            ++g.perfect;
            continue;
        }
        const quint32 flags = errorFlags(r);
        quint32 mask = 0;
        for (std::size_t i = 0; i < labels.size(); ++i) {
            if (hasLabel(flags, labels[i]))
                mask |= 1u << i;
        }
        ++g.regions[mask];
    }
    std::vector<ErrorSetCounts> result;
    result.reserve(groups.size());
    for (auto& [values, g] : groups)
        result.push_back(std::move(g));
    return result;
}

} // namespace structscope
