// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "export/exportablechart.h"

#include <QWidget>

namespace structscope {

/// A chart painted with QPainter, alike on screen and in an export. A subclass paints the whole chart into a
/// rectangle with a palette (paintAll), says how tall it is at a width (heightForWidth) and forgets what the pointer
/// was over when it leaves (clearHover); this class paints it on screen, keeps its height as it wraps, repaints on a
/// palette or font change, and exports it with the export palette. The title and the placeholder (shown when there
/// is nothing to draw) are the subclass's to paint.
class PaintedChart : public QWidget, public ExportableChart
{
    Q_OBJECT
public:
    explicit PaintedChart(QWidget* parent = nullptr);

    void setTitle(const QString& title);
    QString title() const { return m_title; }
    void setPlaceholderText(const QString& text);
    QString placeholderText() const { return m_placeholder; }

    void renderForExport(QPainter& painter, const QRectF& target) override;
    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }

protected:
    /// Paints the whole chart into `bounds`; `interactive` adds what only the screen shows (the hovered region).
    virtual void paintAll(QPainter& painter, const QRectF& bounds, const QPalette& palette, bool interactive) const = 0;
    /// The pointer left the chart: nothing is hovered.
    virtual void clearHover() = 0;

    void paintEvent(QPaintEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    QString m_title;
    QString m_placeholder;
};

} // namespace structscope
