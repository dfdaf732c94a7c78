// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QLabel>
#include <QStringList>

namespace structscope {

/// A one-line note over results that include simulated models, with a link to Help ▸ About the
/// Data, so a demo leaderboard is never mistaken for real results. Hidden when there are none.
class SimulatedDataNote : public QLabel
{
    Q_OBJECT
public:
    explicit SimulatedDataNote(QWidget* parent = nullptr);

    /// Names the simulated models of the shown data; none hides the note.
    void setSimulatedModels(QStringList models);
    QStringList simulatedModels() const { return m_models; }

private:
    QStringList m_models;
};

} // namespace structscope
