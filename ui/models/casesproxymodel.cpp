// SPDX-License-Identifier: Apache-2.0
#include "models/casesproxymodel.h"

#include "models/casesmodel.h"
#include "models/failureoverlapsmodel.h"
#include "report/fieldreport.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace structscope {

QString CaseFilter::key(const std::string& name) const
{
    for (const auto& [k, v] : keys) {
        if (k == name)
            return QString::fromStdString(v);
    }
    return {};
}

void CaseFilter::setKey(const std::string& name, const QString& value)
{
    std::erase_if(keys, [&name](const auto& part) { return part.first == name; });
    if (!value.isEmpty())
        keys.emplace_back(name, value.toStdString());
}

CaseFilter CaseFilter::fromGroupKey(const GroupKey& key)
{
    CaseFilter filter;
    for (const auto& [k, v] : key.parts) {
        if (k == kErrorsKey) {
            filter.region = ErrorRegion::parse(QString::fromStdString(v));
        } else if (k == "repeat") {
            bool ok = false;
            const int repeat = QString::fromStdString(v).toInt(&ok);
            if (ok)
                filter.repeat = repeat;
        } else if (k == "verdict") {
            filter.verdict = QString::fromStdString(v);
        } else if (k == kOverlapKey) {
            filter.caption = QString::fromStdString(v);
        } else if (k == kOverlapCasesKey) {
            filter.cases.emplace();
            for (const QString& line : QString::fromStdString(v).split(u'\n', Qt::SkipEmptyParts)) {
                const qsizetype tab = line.indexOf(u'\t');
                if (tab >= 0)
                    filter.cases->insert({ line.left(tab), line.mid(tab + 1) });
            }
        } else if (k == kOverlapSetsKey) {
            for (const QString& line : QString::fromStdString(v).split(u'\n', Qt::SkipEmptyParts)) {
                std::vector<std::pair<std::string, std::string>> parts;
                for (const QString& part : line.split(u'\t')) {
                    const qsizetype eq = part.indexOf(u'=');
                    if (eq > 0)
                        parts.emplace_back(part.left(eq).toStdString(), part.mid(eq + 1).toStdString());
                }
                filter.anyOfSets.push_back(std::move(parts));
            }
        } else if (k == "error") {
            filter.errorLabel = errorLabelFromId(v);
        } else if (k == kFieldGroupKey) {
            filter.wrongField = v;
        } else {
            filter.setKey(k, QString::fromStdString(v));
        }
    }
    return filter;
}

bool CaseFilter::matches(const ScoredRecord& record, const QString& input) const
{
    for (const auto& [k, v] : keys) {
        if (groupValue(record, k) != v)
            return false;
    }
    if (!verdict.isEmpty() && verdict != CasesModel::verdictId(record))
        return false;
    if (errorLabel && !hasLabel(errorFlags(record), *errorLabel))
        return false;
    if (repeat && record.repeat != *repeat)
        return false;
    if (region && !region->matches(record))
        return false;
    if (cases && !cases->count(CaseKey { record.suite, record.caseId }))
        return false;
    if (!anyOfSets.empty()) {
        const bool inSet = std::any_of(anyOfSets.begin(), anyOfSets.end(), [&record](const auto& parts) {
            return std::all_of(parts.begin(), parts.end(),
                [&record](const auto& part) { return groupValue(record, part.first) == part.second; });
        });
        if (!inSet)
            return false;
    }
    if (wrongField && !fieldWrong(record.verdict, fieldKey(*wrongField)))
        return false;
    for (const QString& word : words) {
        if (!input.contains(word, Qt::CaseInsensitive) && !record.caseId.contains(word, Qt::CaseInsensitive))
            return false;
    }
    return true;
}

CasesProxyModel::CasesProxyModel(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(CasesModel::SortRole);
    setDynamicSortFilter(true);
}

const CasesModel* CasesProxyModel::cases() const
{
    return qobject_cast<const CasesModel*>(sourceModel());
}

void CasesProxyModel::setFilter(CaseFilter filter)
{
    m_filter = std::move(filter);
    invalidateFilter();
}

void CasesProxyModel::setSearchText(const QString& text)
{
    static const QRegularExpression space(u"\\s+"_s);
    const QStringList words = text.split(space, Qt::SkipEmptyParts);
    if (words == m_filter.words)
        return;
    m_filter.words = words;
    invalidateFilter();
}

bool CasesProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const CasesModel* model = cases();
    if (!model || sourceParent.isValid())
        return true;
    const ScoredRecord* record = model->recordAt(sourceRow);
    if (!record)
        return false;
    return m_filter.matches(*record, m_filter.words.isEmpty() ? QString() : model->inputAt(sourceRow));
}

bool CasesProxyModel::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const QVariant a = left.data(sortRole());
    const QVariant b = right.data(sortRole());
    // Missing values last whichever way the column is sorted.
    const bool descending = sortOrder() == Qt::DescendingOrder;
    if (!a.isValid() || !b.isValid()) {
        if (a.isValid() == b.isValid())
            return left.row() < right.row();
        return descending ? !a.isValid() : !b.isValid();
    }
    const QPartialOrdering order = QVariant::compare(a, b);
    if (order == QPartialOrdering::Less)
        return true;
    if (order == QPartialOrdering::Greater)
        return false;
    return left.row() < right.row();
}

} // namespace structscope
