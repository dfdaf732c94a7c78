// SPDX-License-Identifier: Apache-2.0
#include "analysis/runsummary.h"

#include "providers/modelspec.h"
#include "store/resultstore.h"

#include <QHash>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace structscope {

bool RunSummary::imported() const
{
    return !providerKindFromName(run.providerKind).has_value();
}

bool RunSummary::canResume() const
{
    return !retryOf && !imported() && answered < total;
}

RunSummaries summarizeRuns(ResultStore& store, const std::atomic_bool* cancel)
{
    RunSummaries out;
    const auto runs = store.runs();
    if (!runs) {
        out.error = runs.errorMessage();
        return out;
    }
    const auto suites = store.suites();
    if (!suites) {
        out.error = suites.errorMessage();
        return out;
    }
    QHash<qint64, SuiteRow> suiteByRow;
    for (const SuiteRow& s : suites.value())
        suiteByRow.insert(s.row, s);
    QHash<qint64, qint64> casesOfSuite;
    for (const RunRow& run : runs.value()) {
        if (cancel && cancel->load())
            break;
        RunSummary summary;
        summary.run = run;
        const SuiteRow suite = suiteByRow.value(run.suiteRow);
        summary.suiteId = suite.id;
        summary.suiteName = suite.name;
        summary.suiteVersion = suite.version;
        if (const auto retry = run.settings.find("retry_of"); retry != run.settings.end() && retry->is_number_integer())
            summary.retryOf = retry->get<qint64>();
        if (!casesOfSuite.contains(run.suiteRow)) {
            const auto rows = store.caseRows(run.suiteRow);
            casesOfSuite.insert(run.suiteRow, rows ? qint64(rows->size()) : 0);
        }
        double cost = 0;
        bool anyCost = false;
        const auto visited = store.forEachResponse(run.id, [&](const ResponseRow& r) {
            ++summary.answered;
            if (!r.errorKind.isEmpty()) {
                ++summary.errors;
                ++summary.errorsByKind[r.errorKind];
            }
            if (r.cost) {
                cost += *r.cost;
                anyCost = true;
            }
            return !(cancel && cancel->load());
        });
        if (!visited) {
            out.error = visited.errorMessage();
            break;
        }
        if (anyCost)
            summary.cost = cost;
        summary.total
            = summary.retryOf || summary.imported() ? summary.answered : casesOfSuite.value(run.suiteRow) * run.repeats;
        out.runs.append(summary);
    }
    std::reverse(out.runs.begin(), out.runs.end());
    return out;
}

RunSummariesPtr loadRunSummaries(const QString& location, const std::atomic_bool* cancel)
{
    auto out = std::make_shared<RunSummaries>();
    ResultStore::OpenOptions options;
    options.readOnly = true;
    options.createIfMissing = false;
    options.integrityCheck = false;
    StoreError error;
    auto store = ResultStore::open(location, options, &error);
    if (!store) {
        out->error = error.message;
        return out;
    }
    *out = summarizeRuns(*store, cancel);
    return out;
}

} // namespace structscope
