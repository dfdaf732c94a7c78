// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "providers/modelspec.h"
#include "providers/strategy.h"
#include "suite/suite.h"

#include <QList>
#include <QStringList>

#include <chrono>

namespace structscope {

/// How the runner sends requests; the defaults suit paid APIs.
struct RunnerOptions
{
    int perModelConcurrency = 4; ///< requests in flight per model endpoint (lowered adaptively on 429)
    int globalConcurrency = 16; ///< requests in flight in total
    int maxAttempts = 4; ///< attempts per (case, repeat), the first included
    std::chrono::milliseconds connectTimeout { 15000 }; ///< until the request is sent
    std::chrono::milliseconds idleTimeout { 180000 }; ///< without any byte from the server
    std::chrono::milliseconds totalTimeout { 600000 }; ///< for the whole call
    std::chrono::milliseconds backoffBase { 1000 };
    std::chrono::milliseconds backoffMax { 60000 };
    std::chrono::milliseconds maxRetryAfter { 300000 }; ///< longer Retry-After values are cut to this
    qint64 maxBodyBytes = qint64(8) * 1024 * 1024;
    bool useCache = true; ///< reuse a stored answer to an identical request
    quint32 jitterSeed = 0; ///< 0: random; otherwise a fixed seed (tests)
    int writerBatch = 32; ///< responses per store transaction
    std::chrono::milliseconds writerDelay { 250 }; ///< longest a response waits before it is stored
    QString priceTablePath; ///< empty: the user's prices.json, else the built-in table
    /// Send keys and `$VAR` headers over plain http to hosts that are not loopback (insecureKeyProblem()).
    bool allowInsecureKey = false;
};

/// What to run: every case × repeat of a suite, for every model × strategy (one stored run each).
struct RunPlan
{
    SuitePtr suite;
    QList<ModelSpec> models;
    QList<Strategy> strategies;
    int repeats = 1;
    RunnerOptions options;
    /// Giving the same plan again after it was stopped continues it: when the latest stored run of some
    /// (model, strategy) of the plan is unfinished (see matchPlanRuns), the session asks only the slots
    /// without an answer in the plan's latest runs, and starts a run only for a (model, strategy) that has
    /// none. False, or nothing unfinished: every (model, strategy) gets a new run.
    bool continueUnfinished = false;
};

/// What to continue: stored runs, each asked only for the (case, repeat) slots without an answer.
struct ResumePlan
{
    SuitePtr suite; ///< must be the suite the runs were made with (same content hash)
    QList<qint64> runIds;
    /// Specs that replace the stored ones of the same endpoint: endpoints the user named (see specForRun).
    QList<ModelSpec> specs;
    RunnerOptions options;
    /// Send keys and `$VAR` headers to endpoints read from the store too (the user confirmed them).
    bool trustStoreOrigins = false;
};

/// Which errors to ask again, in new runs linked to the old by settings.retry_of.
struct RetryPlan
{
    SuitePtr suite;
    QList<qint64> runIds;
    QStringList errorKinds; ///< empty: every kind
    QList<ModelSpec> specs; ///< as ResumePlan::specs
    RunnerOptions options;
    bool trustStoreOrigins = false; ///< as ResumePlan::trustStoreOrigins
};

} // namespace structscope
