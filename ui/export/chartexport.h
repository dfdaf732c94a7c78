// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPalette>
#include <QString>

#include <optional>

namespace structscope {

class ExportableChart;

enum class ChartFormat { Png, Svg, Pdf };

/// The chart format a file name asks for by its suffix (case-insensitive), or nullopt.
std::optional<ChartFormat> chartFormatForPath(const QString& path);

/// Writes `chart` to `path` in the format its suffix names: PNG rendered at `dpi` (the picture
/// is exportSize() × dpi / 96 pixels, with the resolution recorded in the file), SVG through
/// QSvgGenerator, PDF through QPdfWriter (one page the size of the chart). Returns an error a
/// person can act on, or an empty string.
QString exportChart(ExportableChart& chart, const QString& path, int dpi = 150);

/// The light palette exported charts are painted with, whatever the screen's theme.
QPalette exportPalette();

} // namespace structscope
