// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/casefindings.h"
#include "audit/goldeditor.h"
#include "audit/sourcesnippet.h"
#include "audit/triage.h"
#include "stats/suspicion.h"
#include "suite/problem.h"

#include <nlohmann/json.hpp>

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace structscope {

class ResultStore;

/// What buildAuditQueue() looks at and how strict it is.
struct AuditOptions
{
    SuspicionOptions suspicion; ///< docs/metrics.md §5: at least 3 models, ≥ 60% agreeing
    UniformFailureOptions uniform;
    qint64 suiteRow = 0; ///< only this suite (0: every suite of the store)
    bool includeFixed = true; ///< also list items that were suspect under the original gold and changed since
    bool includePreflight = true; ///< check each case's current gold against its schema
    /// Also list Value findings of evidence 0: the input backs the gold and not the consensus (the models reword
    /// what the gold copies), or gold has null and the input does not hold the consensus (the models invent it).
    /// Off: they are left out.
    bool listGoldTheInputHolds = false;
    const std::atomic_bool* cancel = nullptr; ///< checked between suites and runs
};

/// The parts of the queue, listed in this order (docs/metrics.md §5, "Gold audit"). Within a batch, findings are
/// ranked by kind, then evidence and agreement.
enum class AuditBatch {
    Backed, ///< a change the case's input backs better than the gold (evidence 2): the likeliest gold errors
    Unbacked, ///< a change the input backs no better than the gold: both are in it, or neither
    Granularity, ///< the models cut gold's elements differently: merge/split, or an element split out of another
    Format, ///< the models write gold's value another way
};

/// "backed", "unbacked", "granularity", "format": the batch's name in `structscope audit` output.
const char* auditBatchId(AuditBatch batch);

/// One finding on one case's gold (see findCaseSuspects): the gold there, what a consensus of models says
/// instead, the source text around both, and its triage.
struct AuditItem
{
    qint64 suiteRow = 0;
    QString suiteId;
    qint64 caseRow = 0;
    QString caseId;
    QString category;
    FindingKind kind = FindingKind::Value;
    FormatVariant format = FormatVariant::None; ///< Format: how the two spellings differ
    std::string path; ///< dotted path (docs/metrics.md §0); MissingElement: "<array>[+i]"; the triage key
    std::string pointer; ///< exact JSON pointer in the gold; MissingElement: where Accept inserts
    std::string arrayPath; ///< the innermost gold array holding the place ("" when none)
    std::string arrayPointer;
    int goldRevision = 0; ///< the case's current revision: the basedOnRevision of an edit made from this item
    std::optional<nlohmann::json> gold; ///< current gold at the place (nullopt: none there, or a revision removed it)
    nlohmann::json originalGold; ///< the value at the place in revision 0
    nlohmann::json consensus; ///< the agreed value; MissingElement: the proposed element; else null
    bool consensusAbsent = false;
    int agreeing = 0;
    int answered = 0;
    double support = 0.0;
    int merging = 0; ///< MergeSplit: models that merge the element into another
    int splitting = 0; ///< MergeSplit: models that split it
    QStringList agreeingModels; ///< sorted
    std::vector<ModelAnswer> answers; ///< every heard model's value (or element) at the place, sorted by model
    SourceSnippet goldSource; ///< the gold value in the case's input
    SourceSnippet consensusSource; ///< the consensus value (or proposed element) in the case's input
    /// What the case's input says (sourceSupport: found verbatim 2, its words there 1, else 0; null 0): for a
    /// value, 2 when the input backs the consensus better than the gold, 0 when worse, else 1 (against a null
    /// gold: 2 when the input holds the consensus, else 0; a null or absent consensus: 2 − the gold's support); a
    /// proposed element the input backs 2, else 1; a merge or split 1. A gold element most models lack is only listed
    /// when the input does not hold it (fewer than 75% of its words there): 2.
    int evidence = 1;
    /// MissingElement: the gold element (its index in the array) that holds at least 85% of the proposed
    /// element's words, so the models split the proposal out of it (batch Granularity); -1 when none does.
    int restates = -1;
    AuditBatch batch = AuditBatch::Backed; ///< from kind, evidence and restates (see AuditBatch)
    int group = 0; ///< index into AuditQueue::groups
    bool goldChanged = false; ///< the current gold differs from the original at the place
    TriageMark triage;
};

/// One line of a finding, for a person: "12 of 14 models give 211 where gold has 294", ….
QString describeAuditItem(const AuditItem& item);

/// The gold edit that accepts an item's suggestion: Value and Format set the consensus (remove the key when
/// the agreeing models lack it), MissingElement inserts the proposed element, ExtraElement removes the gold
/// element. MergeSplit offers none (nullopt): neither side's elements can simply be taken.
std::optional<LeafEdit> acceptEditOf(const AuditItem& item, const QString& author, const QString& reason);

/// Findings of one case that sit in one array (or, arrayPath "", outside any array), in one batch.
struct AuditGroup
{
    QString suiteId;
    qint64 caseRow = 0;
    QString caseId;
    std::string arrayPath;
    AuditBatch batch = AuditBatch::Backed;
    int first = 0; ///< row of its first item in AuditQueue::items
    int count = 0;
};

/// A category of a suite where every model fails at a similar, high rate.
struct CategoryFlag
{
    qint64 suiteRow = 0;
    QString suiteId;
    UniformFailureFlag flag;
    std::vector<CategoryFailureRate> rates; ///< each model's rate in the category, sorted by model
};

/// Gold-versus-schema problems of one stored suite (its current gold).
struct SuitePreflight
{
    qint64 suiteRow = 0;
    QString suiteId;
    Problems problems; ///< file "cases.jsonl", line = case ordinal + 1, pointer "/gold/…"
};

/// Everything the audit page and `structscope audit` show.
struct AuditQueue
{
    /// Ranked (see buildAuditQueue), then gathered by group: each group's items are consecutive, groups in the
    /// order of their best item.
    std::vector<AuditItem> items;
    std::vector<AuditGroup> groups;
    std::vector<CategoryFlag> uniformFailures;
    std::vector<SuitePreflight> preflight; ///< only suites with problems
    int suites = 0; ///< suites examined
    int cases = 0; ///< cases examined
    QString error; ///< set when the store could not be read (the rest is then incomplete)
    bool cancelled = false;
    bool ok() const { return error.isEmpty() && !cancelled; }
};

/// Builds the audit queue of a store. For every case: each model's parsed answer (see collectModelAnswers: one
/// per model) aligned to the current gold and findCaseSuspects over them. With includeFixed, cases revised since
/// import are also checked against their original gold, and findings whose place has changed since are listed
/// (as Fixed, unless a later triage says otherwise).
/// Ranking: by batch (AuditBatch), then kind (Value, MissingElement, ExtraElement, MergeSplit, Format), evidence,
/// agreeing models and support (descending), then suite, case id and path. Items are then gathered by batch, case
/// and array (AuditGroup), groups in the order of their best item.
/// A model fails a case when its answer did not parse or differs from gold at some gold leaf (lenient
/// equality, absent as null per options.suspicion); categories where all models fail alike are flagged
/// with uniformFailureFlags. Reads only; call it from a worker thread with a store opened there.
AuditQueue buildAuditQueue(ResultStore& store, const AuditOptions& options = {});

} // namespace structscope

Q_DECLARE_METATYPE(structscope::AuditItem)
Q_DECLARE_METATYPE(structscope::AuditGroup)
Q_DECLARE_METATYPE(structscope::AuditQueue)
