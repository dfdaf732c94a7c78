// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>

#include <optional>

namespace structscope {

/// Progress of one stored run (one model × strategy) in the current session.
struct RunProgress
{
    qint64 runId = 0;
    QString model; ///< ModelSpec::label()
    QString strategy;
    bool simulated = false;
    qint64 total = 0; ///< (case, repeat) slots of the run
    qint64 done = 0; ///< slots with a stored answer (including those answered before a resume)
    qint64 errors = 0; ///< answers stored with an error kind, this session
    qint64 retries = 0; ///< attempts that were sent again, this session
    qint64 cached = 0; ///< answers reused from the request cache, this session
    int inFlight = 0;
    int limit = 0; ///< the model's current adaptive concurrency limit
    double cost = 0; ///< dollars of this session's answers (cached ones count nothing)
};

/// Progress of a runner session, as values (emitted by Runner::progressChanged).
struct RunnerProgress
{
    QList<RunProgress> runs;
    qint64 total = 0;
    qint64 done = 0;
    qint64 doneThisSession = 0;
    qint64 retries = 0;
    qint64 cached = 0;
    int inFlight = 0; ///< requests sent and not yet answered (a paused runner still waits for these)
    QMap<QString, qint64> errorsByKind; ///< stored error answers by ResponseRow::errorKind
    QMap<QString, qint64> retriesByKind;
    double elapsedSeconds = 0;
    std::optional<double> etaSeconds; ///< unknown until something was answered
    double cost = 0;
    bool paused = false;
    bool active = false;
};

} // namespace structscope

Q_DECLARE_METATYPE(structscope::RunnerProgress)
