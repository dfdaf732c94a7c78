// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/errorsets.h"
#include "analysis/groupkey.h"
#include "report/failureoverlaps.h"

#include <QSortFilterProxyModel>
#include <QStringList>

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace structscope {

class CasesModel;

/// What the Cases page shows: every part empty means "any".
struct CaseFilter
{
    /// Grouping keys and values (model, strategy, category, tier, suite, case, run, source_kind,
    /// modality; see groupValue()) a record must have.
    std::vector<std::pair<std::string, std::string>> keys;
    QString verdict; ///< a ladder label id ("value_incorrect")
    std::optional<ErrorLabel> errorLabel; ///< the record carries this label
    std::optional<int> repeat;
    std::optional<ErrorRegion> region; ///< a Venn region: in N_err with exactly these labels
    QStringList words; ///< every word occurs in the case's input or id (case-insensitive)
    /// Only these cases (a failure overlap's region); unset: any case.
    std::optional<std::set<CaseKey>> cases;
    /// Only answers of one of these sets (each a list of (group key, value) parts); empty: any.
    std::vector<std::vector<std::pair<std::string, std::string>>> anyOfSets;
    QString caption; ///< what the cases are ("failed by a ∩ b only"), for the pinned-filter text
    /// A field (wildcarded leaf path, docs/metrics.md "Fields") the response got wrong: some value of it missing,
    /// wrong or invented. A drill-down's "field" part.
    std::optional<std::string> wrongField;

    /// The value required for a key, or "" when the key is free.
    QString key(const std::string& name) const;
    /// Sets (or, with an empty value, clears) the requirement on a key.
    void setKey(const std::string& name, const QString& value);

    /// The filter of a drill-down: the key's parts, "errors" as a region, "repeat" and "verdict" as such, and the
    /// parts of overlapDrillKey() as cases, sets and caption.
    static CaseFilter fromGroupKey(const GroupKey& key);
    bool matches(const ScoredRecord& record, const QString& input) const;
};

/// Filters and sorts a CasesModel: every part of a CaseFilter, sorting by the raw values of
/// CasesModel::SortRole with missing values (latency, cost) last in either order.
class CasesProxyModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit CasesProxyModel(QObject* parent = nullptr);

    void setFilter(CaseFilter filter);
    const CaseFilter& filter() const { return m_filter; }
    /// Only the search words change (the debounced search field).
    void setSearchText(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    const CasesModel* cases() const;

    CaseFilter m_filter;
};

} // namespace structscope
