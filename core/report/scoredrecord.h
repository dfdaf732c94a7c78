// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "providers/errorkind.h"
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
    QString tier; ///< also the schema complexity of SOB records
    QString difficulty; ///< the case's difficulty label (SOB's metadata.difficulty), else empty
    QString sourceKind; ///< the case's "source_kind", else its category
    QString modality; ///< "text", "image", "audio"
    double weight = 0; ///< complexity weight of the tier (easy 1, medium 2, hard 3, else 0)
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
    /// Why the slot's last attempt got no answer from the model, when the transport or the provider failed
    /// (isTransportError(): timeout, HTTP 4xx/5xx, rate limiting, malformed body, network); None for an answer,
    /// a refusal or a length cut included. An errored record counts in no quality metric (docs/metrics.md, "Errored
    /// slots"): its verdict is that of an empty answer, kept only for the views that show it.
    ErrorKind error = ErrorKind::None;

    bool errored() const { return error != ErrorKind::None; }
};

/// The ScoredRecord::error of a response whose error kind is stored as `name` (ResponseRow::errorKind): the kind
/// when it is a transport or provider failure, else None.
inline ErrorKind transportErrorOf(const QString& name)
{
    if (name.isEmpty())
        return ErrorKind::None;
    const std::optional<ErrorKind> kind = errorKindFromName(name);
    return kind && isTransportError(*kind) ? *kind : ErrorKind::None;
}

} // namespace structscope
