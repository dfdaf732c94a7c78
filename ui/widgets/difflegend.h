// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

namespace structscope {

/// The colour key of the diff view: a swatch and a name per difference kind, tinted from the
/// current palette (it repaints on a palette change, so dark mode follows).
class DiffLegend : public QWidget
{
    Q_OBJECT
public:
    explicit DiffLegend(QWidget* parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    int itemWidth() const;
    int columnsFor(int width) const;
};

} // namespace structscope
