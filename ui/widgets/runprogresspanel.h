// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "run/runprogress.h"

#include <QGroupBox>
#include <QHash>
#include <QList>
#include <QStringList>

class QGridLayout;
class QLabel;
class QProgressBar;

namespace structscope {

/// The live view of a runner session: an overall bar with answered/total, elapsed time, ETA, cost and
/// errors and retries by kind, and one row per model (bar, done/total, errors, retries, ETA, cost).
/// Fed with Runner::progressChanged values; holds no runner.
class RunProgressPanel : public QGroupBox
{
    Q_OBJECT
public:
    explicit RunProgressPanel(QWidget* parent = nullptr);

    /// A new session begins: what it is ("mini: sim:oracle × P"); the next report tells what was answered
    /// before it (a resume), so per-model ETAs count only this session's pace.
    void beginSession(const QString& label);
    void showProgress(const RunnerProgress& progress);

    /// "42 s", "3 min 05 s", "1 h 02 min".
    static QString durationText(double seconds);

private:
    struct Row
    {
        QLabel* name = nullptr;
        QProgressBar* bar = nullptr;
        QLabel* detail = nullptr;
    };

    void rebuildRows(const QStringList& models);

    QLabel* m_title;
    QProgressBar* m_totalBar;
    QLabel* m_totalDetail;
    QLabel* m_errorDetail;
    QGridLayout* m_rowsLayout;
    QList<Row> m_rows;
    QStringList m_rowModels;
    QString m_label;
    QHash<qint64, qint64> m_doneAtStart; ///< run id → slots answered before this session
};

} // namespace structscope
