// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "json/jsonalignment.h"

#include <QColor>
#include <QPalette>
#include <QString>

namespace structscope {

/// Colours and names of the difference kinds, shared by the diff view's cells, its legend and the
/// source highlights. Each kind has a hue (Okabe–Ito-like, told apart with colour-vision deficiencies)
/// that is blended into the palette's base colour, so a dark palette gets dark tints and the text
/// colour of the palette stays readable on them.
struct DiffPalette
{
    /// The kind's pure hue (swatch borders, chart marks).
    static QColor hue(DiffMark mark);
    /// The cell background of a row with this mark on `palette` (invalid for Same).
    static QColor background(DiffMark mark, const QPalette& palette);
    /// Whether the palette is dark (its base darker than its text).
    static bool isDark(const QPalette& palette);
    /// "Missing key", "Wrong value: deviation", …
    static QString label(DiffMark mark);
    /// The legend's longer explanation of a kind.
    static QString description(DiffMark mark);
    /// Source-text highlight of a gold value and of a predicted value (selected: stronger).
    static QColor goldHighlight(const QPalette& palette, bool selected);
    static QColor predictedHighlight(const QPalette& palette, bool selected);
};

} // namespace structscope
