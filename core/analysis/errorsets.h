// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/groupkey.h"
#include "report/aggregator.h"
#include "report/errorlabels.h"

#include <QString>

#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace structscope {

/// "MK", "MV", "WV", "WV deviation", …: the short name written on charts.
QString errorLabelName(ErrorLabel label);

/// Whether a record counts among N_err (docs/metrics.md §2): neither perfect nor failed.
bool countsAsError(const ScoredRecord& record);

/// One region of a set diagram: the records of N_err that carry exactly the labels `inside` (of the
/// picked ones) and none of the others. A drill-down names it as "+mk-mv+wv".
struct ErrorRegion
{
    std::vector<std::pair<ErrorLabel, bool>> terms; ///< each picked label, inside or not

    bool matches(const ScoredRecord& record) const;
    bool matches(quint32 flags) const;
    QString toString() const;
    /// Parses toString(); nullopt for anything else.
    static std::optional<ErrorRegion> parse(const QString& text);
    /// The region of `mask` over `labels` (bit i set: labels[i] inside).
    static ErrorRegion of(const std::vector<ErrorLabel>& labels, quint32 mask);
};

/// The set counts of one group (e.g. model × strategy) over the picked labels.
struct ErrorSetCounts
{
    GroupKey key;
    bool simulated = false;
    std::vector<ErrorLabel> labels;
    int n = 0; ///< answers of the group (errored slots are none)
    int errored = 0; ///< errored slots of the group (ScoredRecord::errored()), in none of the counts
    int perfect = 0;
    int failed = 0;
    /// Exact-membership counts of N_err by mask over `labels` (bit i: labels[i]); mask 0 holds the
    /// records with none of the picked labels (e.g. only extra keys). The values sum to nErr().
    std::map<quint32, int> regions;

    int nErr() const { return n - perfect - failed; }
    int region(quint32 mask) const;
    /// Records with label i (whatever else they carry).
    int setSize(int i) const;
    /// The drill-down key of a region: the group's key plus ("errors", region).
    GroupKey regionKey(quint32 mask) const;
};

/// Counts the picked labels per group (groups sorted by key). Pure; any thread.
std::vector<ErrorSetCounts> countErrorSets(
    RecordsView records, const std::vector<std::string>& groupBy, const std::vector<ErrorLabel>& labels);

/// The drill-down key part that names an error region.
inline constexpr const char* kErrorsKey = "errors";

} // namespace structscope
