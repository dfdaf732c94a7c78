#pragma once

#include "report/evaluation.h"

#include <QWidget>

class QToolButton;

namespace structscope {

/// "As measured" (the gold the suite shipped with) or "Adjusted" (the gold after audits).
class GoldToggle : public QWidget
{
    Q_OBJECT
public:
    explicit GoldToggle(QWidget* parent = nullptr);

    GoldBasis gold() const;
    void setGold(GoldBasis gold);

Q_SIGNALS:
    void goldChanged(structscope::GoldBasis gold);

private:
    QToolButton* m_measured;
    QToolButton* m_adjusted;
};

} // namespace structscope
