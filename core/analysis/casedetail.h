// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/evaluation.h"
#include "store/rows.h"
#include "json/jsonalignment.h"

#include <nlohmann/json.hpp>

#include <QHash>
#include <QMetaType>
#include <QString>

#include <memory>
#include <optional>

namespace structscope {

class ResultStore;

/// Names one scored response the way a ScoredRecord does: (suite, case, run family, repeat).
struct CaseRef
{
    QString suite;
    QString caseId;
    qint64 runId = 0; ///< the first run of the family (ScoredRecord::runId)
    int repeat = 0;
    QString model;
    QString strategy;
    bool simulated = false;

    bool isValid() const { return !suite.isEmpty() && !caseId.isEmpty() && runId > 0; }
    friend bool operator==(const CaseRef&, const CaseRef&) = default;
};

CaseRef caseRefOf(const ScoredRecord& record);

/// Everything the diff view shows about one response: the case, both golds, exactly what the model
/// sent, the verdict re-scored with its differences, and gold and prediction aligned.
struct CaseDetail
{
    CaseRef ref;
    QString error; ///< set when the response or case could not be read
    GoldBasis basis = GoldBasis::Adjusted;
    qint64 suiteRow = 0;
    CaseRow caseRecord;
    nlohmann::json gold; ///< the gold the verdict is scored against (per basis)
    int goldRevision = 0; ///< its revision
    nlohmann::json currentGold; ///< the latest revision, what an edit starts from
    int currentRevision = 0;
    int revisions = 1; ///< number of gold revisions of the case
    ResponseRow response;
    bool sobEncoded = false; ///< rawText is SOB's stored candidate, JSON-encoded
    std::optional<nlohmann::json> predicted; ///< the parsed answer (nullopt: nothing parsed)
    std::size_t jsonOffset = 0; ///< where the parse ladder found the JSON in the raw text (bytes)
    std::size_t jsonLength = 0;
    Verdict verdict; ///< with differences
    std::vector<AlignedRow> rows; ///< alignJson(gold, predicted, verdict.differences)

    bool ok() const { return error.isEmpty(); }
};

using CaseDetailPtr = std::shared_ptr<const CaseDetail>;

/// Reads one response with its case and gold, and scores it again with its differences kept (one
/// response is cheap; the workspace's scoring pass keeps no diffs). The counted response of the slot
/// is the one evaluateStore counts: across a run and its retries, the latest successful one, else the
/// latest. Reads only; call it from a worker with a store opened there.
CaseDetail loadCaseDetail(ResultStore& store, const CaseRef& ref, GoldBasis basis);

/// The input text of every case of the store, keyed by suite id + U+001F + case id (full-text
/// search of the Cases page). Reads only; empty with `error` set when the store cannot be read.
QHash<QString, QString> loadCaseTexts(ResultStore& store, QString* error = nullptr);

} // namespace structscope

Q_DECLARE_METATYPE(structscope::CaseRef)
Q_DECLARE_METATYPE(structscope::CaseDetailPtr)
