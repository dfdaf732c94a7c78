#pragma once

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
    const std::atomic_bool* cancel = nullptr; ///< checked between suites and runs
};

/// One suspicious (case, path): the gold there, what a consensus of models says instead, and its triage.
struct AuditItem
{
    qint64 suiteRow = 0;
    QString suiteId;
    qint64 caseRow = 0;
    QString caseId;
    QString category;
    std::string path; ///< dotted leaf path (docs/metrics.md §0)
    std::string pointer; ///< exact JSON pointer of the leaf in the gold
    int goldRevision = 0; ///< the case's current revision: the basedOnRevision of an edit made from this item
    std::optional<nlohmann::json> gold; ///< current gold at the path (nullopt: a revision removed it)
    nlohmann::json originalGold; ///< the value at the path in revision 0
    nlohmann::json consensus; ///< the agreed value (null when the agreeing models lack the path)
    bool consensusAbsent = false;
    int agreeing = 0;
    int answered = 0;
    double support = 0.0;
    QStringList agreeingModels; ///< sorted
    std::vector<ModelAnswer> answers; ///< every answering model's value at the path, sorted by model
    bool goldChanged = false; ///< the current gold differs from the original at the path
    TriageMark triage;
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
    std::vector<AuditItem> items; ///< ranked by support, agreeing (descending), then suite, case id, path
    std::vector<CategoryFlag> uniformFailures;
    std::vector<SuitePreflight> preflight; ///< only suites with problems
    int suites = 0; ///< suites examined
    int cases = 0; ///< cases examined
    QString error; ///< set when the store could not be read (the rest is then incomplete)
    bool cancelled = false;
    bool ok() const { return error.isEmpty() && !cancelled; }
};

/// Builds the audit queue of a store. For every case: the gold leaves of its current gold, each model's
/// answer there (see collectModelAnswers: one per model), and goldSuspicionQueue over them. With
/// includeFixed, cases revised since import are also checked against their original gold, and suspects
/// whose value has changed since are listed (as Fixed, unless a later triage says otherwise).
/// A model fails a case when its answer did not parse or differs from gold at some gold leaf (lenient
/// equality, absent as null per options.suspicion); categories where all models fail alike are flagged
/// with uniformFailureFlags. Reads only; call it from a worker thread with a store opened there.
AuditQueue buildAuditQueue(ResultStore& store, const AuditOptions& options = {});

} // namespace structscope

Q_DECLARE_METATYPE(structscope::AuditItem)
Q_DECLARE_METATYPE(structscope::AuditQueue)
