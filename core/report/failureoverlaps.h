// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/errorlabels.h"
#include "report/scoredrecords.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace structscope {

/// When an answer "fails", for failure overlaps (docs/metrics.md, "Failure overlaps across models"): its verdict is
/// not `correct` (the default), it carries an error of one kind, or a per-record metric is below a threshold.
struct FailureCriterion
{
    enum class Kind { NotCorrect, ErrorOfKind, MetricBelow };
    Kind kind = Kind::NotCorrect;
    ErrorLabel label = ErrorLabel::MissingKey; ///< ErrorOfKind
    std::string metric; ///< MetricBelow: a Rate or Mean metric where higher is better
    double threshold = 0; ///< MetricBelow

    /// Whether the record fails; nullopt when it does not vote: an errored slot (no answer), or a record the metric
    /// does not apply to.
    std::optional<bool> fails(const ScoredRecord& record) const;
    /// "not-correct", "error:mk", "grounding.value_accuracy<0.8": what parse() reads.
    QString toString() const;
    /// "verdict not correct", "an MK error", "grounding.value_accuracy below 0.8": for titles and the rule text.
    QString describe() const;
    /// Reads toString()'s forms; nullopt with the reason in `error` for anything else (an unknown kind or metric, a
    /// metric that is not per answer or where lower is better, a threshold that is not a number).
    static std::optional<FailureCriterion> parse(const QString& text, QString* error = nullptr);

    friend bool operator==(const FailureCriterion&, const FailureCriterion&) = default;
};

/// A case, as the store names it.
struct CaseKey
{
    QString suite;
    QString caseId;

    friend bool operator==(const CaseKey&, const CaseKey&) = default;
    friend bool operator<(const CaseKey& a, const CaseKey& b)
    {
        return a.suite != b.suite ? a.suite < b.suite : a.caseId < b.caseId;
    }
};

/// One set of a failure overlap: a model (or a model × strategy, …: the values of the grouping keys).
struct OverlapSet
{
    std::vector<std::pair<std::string, std::string>> parts; ///< (group key, value), in group-by order
    bool simulated = false;
    int answered = 0; ///< cases with at least one voting repeat of this set
    int failed = 0; ///< cases a strict majority of whose voting repeats fail
    int ties = 0; ///< cases with as many failing as passing repeats (not failed)

    /// "gpt-x · P": the values only.
    QString label() const;
};

/// Per (case, set), what a set's repeats say of a case under one criterion: the votes counted once, so that any
/// choice of sets is counted from it without reading the records again. Pure; any thread.
struct FailureMatrix
{
    enum State : std::int8_t { NoAnswer = -1, Passed = 0, Failed = 1 };

    FailureCriterion criterion;
    std::vector<std::string> groupBy;
    std::vector<OverlapSet> sets; ///< sorted by their values
    std::vector<CaseKey> cases; ///< sorted; every case some record of the set has
    std::vector<State> states; ///< cases × sets, row-major
    std::vector<std::uint8_t> tied; ///< cases × sets: a tie decided as Passed

    State state(std::size_t caseIndex, std::size_t set) const { return states[caseIndex * sets.size() + set]; }
    /// The index of the set whose label() is `label`, or -1.
    int setIndex(const QString& label) const;
};

/// Votes every record: a set's repeats of a case (every run of that set counts as more repeats) fail it when a strict
/// majority of those that vote fail; a tie passes it. Records that do not vote (FailureCriterion::fails) are left
/// out of the count; a set none of whose records of a case vote has no answer to it.
FailureMatrix failureMatrix(
    RecordsView records, const std::vector<std::string>& groupBy, const FailureCriterion& criterion);

/// The largest number of sets one overlap counts (a region is a bit mask over them).
inline constexpr int kMaxOverlapSets = 64;

/// An exclusive region: the cases failed by exactly the chosen sets of `mask` (bit i: the i-th chosen set) and passed
/// by every other chosen set.
struct OverlapRegion
{
    std::uint64_t mask = 0;
    std::vector<CaseKey> cases; ///< sorted

    int count() const { return int(cases.size()); }
    int degree() const;
};

/// The region counts of a choice of sets. Cases are those every chosen set answered (the others are counted in
/// leftOut): so the regions (each case in exactly one) add up to the union, and with `none` to `cases`.
struct FailureOverlaps
{
    FailureCriterion criterion;
    std::vector<std::string> groupBy;
    std::vector<OverlapSet> sets; ///< the chosen sets, in the order asked for
    int cases = 0; ///< cases every chosen set answered
    int leftOut = 0; ///< cases some chosen set has no answer to (in no region)
    /// Non-empty regions (mask ≠ 0), largest first, then by degree and mask.
    std::vector<OverlapRegion> regions;
    std::vector<CaseKey> none; ///< cases no chosen set fails
    QString error; ///< why no overlap was counted (too many sets, an unknown set)

    bool ok() const { return error.isEmpty(); }
    std::uint64_t fullMask() const;
    /// The cases failed by at least one chosen set: the sum of the regions.
    int unionSize() const;
    /// Cases set i fails (whatever else fails them), among `cases`.
    int setSize(int i) const;
    /// The count of the region with exactly these sets (0 when empty).
    int region(std::uint64_t mask) const;
    /// The cases failed by every chosen set (the region of fullMask()).
    std::vector<CaseKey> failedByAll() const;
    /// "a ∩ b" of the sets of `mask`, "none of these" for 0; a region of more than half of four or more sets is named
    /// by the sets it leaves out: "all 31 chosen sets but c, d" ("all 31 chosen sets" for every one).
    QString regionLabel(std::uint64_t mask) const;
};

/// Counts the regions of the sets `chosen` (indices into matrix.sets, at most kMaxOverlapSets; empty: every set).
FailureOverlaps countFailureOverlaps(const FailureMatrix& matrix, const std::vector<int>& chosen = {});

/// The indices of the sets named by `labels` (OverlapSet::label(), e.g. "gpt-x" or "gpt-x · P"), in that order;
/// nullopt with the reason in `error` when one names no set of the matrix (the reason lists the sets there are).
std::optional<std::vector<int>> chooseOverlapSets(
    const FailureMatrix& matrix, const QStringList& labels, QString* error = nullptr);

/// The rule the counts follow, in a sentence for the UI and the CLI: criterion, majority, tie, which cases count.
QString failureOverlapRule(const FailureCriterion& criterion);

/// Region counts as JSON (`{"criterion", "rule", "by", "sets": [...], "cases", "left_out", "union", "none",
/// "all": {"count", "cases"}, "regions": [{"sets", "degree", "count"}]}`) or CSV (one row per set size, region,
/// "none" and "all": `type,sets,degree,count`, sets joined by " & ").
std::string failureOverlapsJson(const FailureOverlaps& overlaps, const std::string& gold);
std::string failureOverlapsCsv(const FailureOverlaps& overlaps);

} // namespace structscope
