// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "providers/costestimate.h"
#include "run/runprogress.h"
#include "store/rows.h"

#include <QElapsedTimer>
#include <QString>

namespace structscope {
class ResultStore;
}

namespace structscope::cli {

/// Shows a runner's progress on stderr: a bar redrawn in place on a terminal, otherwise a plain line
/// every few seconds (logs and CI keep them readable).
class RunConsole
{
public:
    explicit RunConsole(bool terminal);

    void show(const RunnerProgress& progress);
    /// Prints a message on its own line without breaking the bar.
    void message(const QString& text);
    /// Ends the bar's line.
    void finish();

    /// One progress line: "120/600 (20%) · 3 errors · 5 retries · $0.12 · ETA 1m20s".
    static QString progressLine(const RunnerProgress& progress);

private:
    bool m_terminal;
    bool m_barShown = false;
    QString m_lastLine;
    qint64 m_lastDone = -1;
    QElapsedTimer m_sinceLine;
};

/// "42s", "3m05s", "1h02m".
QString formatDuration(double seconds);

/// The pre-run estimate, for stderr.
QString formatEstimate(const CostEstimate& estimate);

/// The table printed when a run ends: per run, answers / slots, errors by kind, cost, p50 latency —
/// read back from the store, so a resumed run counts its earlier answers too.
QString formatSummary(ResultStore& store, const QList<RunRow>& runs);

} // namespace structscope::cli
