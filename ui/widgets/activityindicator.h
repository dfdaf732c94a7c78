// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QElapsedTimer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace structscope {

/// The status bar's view of long work: what runs, a progress bar, an ETA and a cancel button.
/// Hidden while nothing runs.
class ActivityIndicator : public QWidget
{
    Q_OBJECT
public:
    explicit ActivityIndicator(QWidget* parent = nullptr);

    /// Shows the indicator for a new piece of work (busy until the first progress report).
    void begin(const QString& label);
    void setProgress(qint64 done, qint64 total);
    void end();
    bool isActive() const { return m_active; }
    QString text() const;
    /// "12 s" / "3 min" left at the rate seen so far; empty when it cannot be told yet.
    static QString etaText(qint64 done, qint64 total, qint64 elapsedMs);

Q_SIGNALS:
    void cancelRequested();

private:
    QLabel* m_label;
    QProgressBar* m_bar;
    QToolButton* m_cancel;
    QString m_what;
    QElapsedTimer m_timer;
    bool m_active = false;
};

} // namespace structscope
