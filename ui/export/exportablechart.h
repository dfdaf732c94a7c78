// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QRectF>
#include <QSize>
#include <QString>

class QPainter;

namespace structscope {

/// A chart that can paint itself onto any device for export: the picture on screen, but on a
/// white background with a light palette (what a paper or slide needs).
class ExportableChart
{
public:
    virtual ~ExportableChart() = default;
    /// A title for the file's metadata and the suggested file name.
    virtual QString exportTitle() const = 0;
    /// The size in logical pixels (1/96 inch) the chart is exported at: its size on screen.
    virtual QSize exportSize() const = 0;
    /// Paints the whole chart into `target` (logical pixels) on a white background.
    virtual void renderForExport(QPainter& painter, const QRectF& target) = 0;
};

} // namespace structscope
