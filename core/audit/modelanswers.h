// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/rows.h"
#include "store/storeresult.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <atomic>
#include <map>
#include <optional>
#include <unordered_map>

namespace structscope {

class ResultStore;

/// What one model said about one case: its parsed answer, or nullopt when it responded but nothing parsed.
struct ModelCaseAnswer
{
    std::optional<nlohmann::json> value;
    qint64 responseId = 0; ///< the response the answer (or the failure) comes from
    qint64 runId = 0;
    QString strategy;
};

/// Every model's answer to every case of a suite: case row → model label → answer.
using SuiteAnswers = std::unordered_map<qint64, std::map<QString, ModelCaseAnswer>>;

/// The label evaluateStore groups a run's records by: the model spec, "import:" dropped.
QString runModelLabel(const RunRow& run);

/// Of two responses for one (run, case, repeat) slot (retries), the one that counts: the latest
/// successful one, else the latest (ids grow with time).
bool preferResponse(const ResponseRow& candidate, const ResponseRow& current);

/// One answer per (case, model) for the gold-suspicion rule (docs/metrics.md §5). Within a run, the slot
/// of repeat 0 counts (see preferResponse); an error response counts as no answer. The answer is the
/// response parsed with the whole parse ladder (clean, fenced, extracted; SOB imports: the stored
/// candidate, a string candidate being unparsed). Across runs of one model (other strategies, reruns)
/// the newest run with a parsed answer wins, so one model never votes twice and a model's latest
/// behaviour is heard; a model whose every counted response fails to parse is listed with no value.
StoreResult<SuiteAnswers> collectModelAnswers(
    ResultStore& store, qint64 suiteRow, const std::atomic_bool* cancel = nullptr);

} // namespace structscope
