// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/evaluation.h"

#include <QWidget>

class QToolButton;

namespace structscope {

/// "As measured" (the gold the suite shipped with) or "Adjusted" (the gold after audits); where a
/// page can show both, also "Side by side".
class GoldToggle : public QWidget
{
    Q_OBJECT
public:
    explicit GoldToggle(QWidget* parent = nullptr);

    /// The basis chosen (Measured while side by side is chosen).
    GoldBasis gold() const;
    void setGold(GoldBasis gold);
    /// Offers the third choice, "Side by side" (hidden by default).
    void setSideBySideOffered(bool offered);
    bool sideBySide() const;
    void setSideBySide(bool on);

Q_SIGNALS:
    void goldChanged(structscope::GoldBasis gold);

private:
    QToolButton* m_measured;
    QToolButton* m_adjusted;
    QToolButton* m_both;
};

} // namespace structscope
