// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/rows.h"

#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>

namespace structscope {

class ResultStore;

/// One stored run as the Runs page lists it: the run record, its suite, and what its responses add up to.
struct RunSummary
{
    RunRow run;
    QString suiteId;
    QString suiteName;
    QString suiteVersion;
    /// (case, repeat) slots of the run: cases × repeats; for a retry run (which asks only the errored
    /// slots of another run) and imported results (which answer what the file had), the responses it has.
    qint64 total = 0;
    qint64 answered = 0; ///< slots with a stored response, errors included
    qint64 errors = 0; ///< responses stored with an error kind
    QMap<QString, qint64> errorsByKind;
    std::optional<double> cost; ///< nullopt when no response has a cost
    std::optional<qint64> retryOf; ///< the run whose errors this run asked again (settings.retry_of)

    bool simulated() const { return run.providerKind == QStringLiteral("sim"); }
    /// Results imported from files, not made by the runner: nothing to resume or ask again.
    bool imported() const;
    /// Whether Runner::resume has something to ask: slots without an answer (never for imported results, nor
    /// for a retry run: resume would ask every slot of the suite, not only the errored ones it was made for).
    bool canResume() const;
    /// Whether Runner::retryErrors has something to ask: errored answers of a run the runner made.
    bool canRetry() const { return errors > 0 && !imported(); }
};

/// The runs of a store, newest first, or the reason they could not be read.
struct RunSummaries
{
    QList<RunSummary> runs;
    QString error;
};

using RunSummariesPtr = std::shared_ptr<const RunSummaries>;

/// Reads every run of an open store with its counts (streams the responses; any thread that owns `store`).
/// Stops early, with what it has, when `cancel` becomes true.
RunSummaries summarizeRuns(ResultStore& store, const std::atomic_bool* cancel = nullptr);

/// Opens the store at `location` read-only (its own connection, so any thread) and summarizes its runs.
RunSummariesPtr loadRunSummaries(const QString& location, const std::atomic_bool* cancel = nullptr);

} // namespace structscope

Q_DECLARE_METATYPE(structscope::RunSummariesPtr)
