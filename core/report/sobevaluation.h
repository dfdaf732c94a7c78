// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "io/sobimporter.h"
#include "report/evaluation.h"

namespace structscope {

/// Scores SOB response files read into memory (readSobFiles) as evaluateStore() scores them once imported into a new
/// store: the same records in the same order — run by run in order of first appearance, each run's in line order —
/// with the same verdicts and grouping facts; nothing is written anywhere. What `structscope report --sob` does,
/// the way SOB's own evaluator works on its files. The records name no store rows: `caseRow` is the case's place in
/// record-id order plus one (as in a new store), `runId` the run's place plus one, `responseId` and
/// `goldRevisionRow` are 0. Scored in parallel on QThreadPool::globalInstance(); `options.progress` and
/// `options.cancel` are honoured, the rest does not apply (files have no gold revisions and no kept verdicts).
Evaluation evaluateSobRecords(const SobRecords& read, const EvaluationOptions& options = {});

} // namespace structscope
