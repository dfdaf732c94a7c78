// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/heatmapdata.h"
#include "charts/colorscale.h"
#include "charts/heatmaplayout.h"
#include "export/exportablechart.h"

#include <QWidget>

namespace structscope {

/// A painted heatmap: one coloured cell per (row, column) with its value written in it, row and
/// column headers, a colour legend, hover tooltips with n and the interval, sorting by clicking a
/// header, and a signal when a cell is clicked (for drill-down to its cases). Geometry comes from
/// HeatmapLayout and colours from ColorScale and the palette, so it follows dark mode.
class HeatmapWidget : public QWidget, public ExportableChart
{
    Q_OBJECT
public:
    explicit HeatmapWidget(QWidget* parent = nullptr);

    /// Shows `data`, ordered by the current row and column sorts.
    void setData(HeatmapData data);
    const HeatmapData& data() const { return m_data; }
    void setTitle(const QString& title);
    QString title() const { return m_title; }
    /// Text shown when there is no data.
    void setPlaceholderText(const QString& text);

    void setRowSort(const HeatmapSort& sort);
    void setColumnSort(const HeatmapSort& sort);
    HeatmapSort rowSort() const { return m_rowSort; }
    HeatmapSort columnSort() const { return m_columnSort; }

    ColorScale colorScale() const { return { m_data.minimum, m_data.maximum }; }
    /// The layout the widget uses inside `bounds` with `font`.
    HeatmapLayout layoutFor(const QRectF& bounds, const QFont& font) const;
    /// The tooltip of a cell: row, column, value, 95% interval and n.
    QString toolTipFor(int row, int column) const;

    QString exportTitle() const override;
    QSize exportSize() const override;
    void renderForExport(QPainter& painter, const QRectF& target) override;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    /// A cell was clicked: its row's key (model, strategy) and the column's value (category, tier…).
    void cellClicked(const structscope::GroupKey& row, const QString& columnValue);
    void rowSortChanged(const structscope::HeatmapSort& sort);
    void columnSortChanged(const structscope::HeatmapSort& sort);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void paintHeatmap(QPainter& painter, const QRectF& bounds, const QPalette& palette, bool interactive) const;
    void paintLegend(QPainter& painter, const HeatmapLayout& layout, const QPalette& palette) const;
    QSize naturalSize() const;
    HeatmapSort toggledSort(const HeatmapSort& current, const QString& line) const;

    HeatmapData m_data;
    QString m_title;
    QString m_placeholder;
    HeatmapSort m_rowSort;
    HeatmapSort m_columnSort;
    HeatmapLayout::Hit m_hover;
};

} // namespace structscope
