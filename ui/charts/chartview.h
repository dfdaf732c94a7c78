// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "export/exportablechart.h"

#include <QChartView>

namespace structscope {

/// A QChartView whose colours come from the palette (and follow dark mode), and that exports
/// the chart on a white background through the same scene it shows on screen.
class ChartView : public QChartView, public ExportableChart
{
    Q_OBJECT
public:
    explicit ChartView(QWidget* parent = nullptr);

    QString exportTitle() const override;
    QSize exportSize() const override;
    void renderForExport(QPainter& painter, const QRectF& target) override;
    QSize sizeHint() const override { return { 640, 400 }; }

    /// Okabe–Ito colours: distinct for readers with colour-vision deficiencies.
    static QColor categoricalColor(int index);

protected:
    /// Sets every colour of the chart (background, text, axes, series) from `palette`.
    virtual void applyPalette(const QPalette& palette);
    void changeEvent(QEvent* event) override;
    /// Shows `text` in the middle of the plot area (an empty chart: "no costs recorded"), or in its
    /// top-left corner when not `centered` (a remark on a chart with data).
    void setNote(const QString& text, bool centered = true);
    /// Removes every series and axis from the chart (deleting them): an empty chart to fill anew.
    void removeSeriesAndAxes();

private:
    class QGraphicsSimpleTextItem* m_note = nullptr;
    bool m_noteCentered = true;
    void placeNote();
};

} // namespace structscope
