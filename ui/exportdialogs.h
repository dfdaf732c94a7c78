// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/report.h"

#include <QString>

class QWidget;

namespace structscope {

class ExportableChart;
class Page;
class Settings;

/// Asks for a file (the format follows the suffix: PNG, SVG or PDF) and, for PNG, a resolution;
/// writes the chart and reports failure in a message box. Returns the path written, or "".
QString exportChartInteractively(QWidget* parent, ExportableChart& chart, Settings& settings);

/// Asks for a file (CSV, Markdown, LaTeX or JSON by suffix) and writes the table with core's
/// report writers. Returns the path written, or "".
QString exportTableInteractively(QWidget* parent, const Report& table, const QString& caption, Settings& settings);

/// Exports one of the page's charts (asking which when it has several). Returns the path, or "".
QString exportPageChart(QWidget* parent, Page& page, Settings& settings);

/// Exports the page's table. Returns the path, or "".
QString exportPageTable(QWidget* parent, Page& page, Settings& settings);

} // namespace structscope
