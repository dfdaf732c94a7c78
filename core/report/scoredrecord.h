#pragma once

#include "scoring/verdict.h"

#include <QString>

#include <optional>

namespace structscope {

/// One scored response with the facts it is grouped by.
struct ScoredRecord
{
    QString suite;
    QString model;
    QString strategy;
    qint64 runId = 0;
    QString caseId;
    qint64 caseRow = 0; ///< the case's row in the store (0 for records not read from a store)
    QString category;
    QString tier;       ///< also the schema complexity of SOB records
    QString sourceKind; ///< the case's "source_kind", else its category
    QString modality;   ///< "text", "image", "audio"
    double weight = 0;  ///< complexity weight of the tier (easy 1, medium 2, hard 3, else 0)
    std::optional<double> latencyMs;
    std::optional<double> cost;
    Verdict verdict;
    // The verdict's cache key (as in the store's verdicts table): a verdict is a pure function of the response,
    // the gold revision and the scorer, since a stored suite's schemas and options never change.
    qint64 responseId = 0;
    qint64 goldRevisionRow = 0; ///< 0: the case has no gold
    int scorerVersion = 0;
    // The small fields last, together (no padding between them): a million records are held at once.
    int repeat = 0;
    bool simulated = false; ///< answered by a simulated model
};

} // namespace structscope
