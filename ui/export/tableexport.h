// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/report.h"

#include <QString>

#include <optional>
#include <string>

namespace structscope {

/// The report format a file name asks for by its suffix: .csv → "csv", .md/.markdown → "md",
/// .tex → "latex", .json → "json"; nullopt for anything else.
std::optional<std::string> tableFormatForPath(const QString& path);

/// Writes a table with core's report writers, in the format the suffix names, atomically.
/// Returns an error a person can act on, or an empty string.
QString exportTable(const Report& report, const QString& path, const QString& latexCaption = {});

} // namespace structscope
