// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>
#include <QPalette>

namespace structscope {

/// Maps values to colours on a perceptual scale (viridis: uniform in lightness, readable by people
/// with colour-vision deficiencies, and still ordered when printed in grey).
struct ColorScale
{
    double minimum = 0;
    double maximum = 1;

    /// Where `value` lies in [minimum, maximum], clamped to [0, 1]; NaN stays NaN.
    double normalized(double value) const;
    /// The scale's colour for `value`; an invalid QColor for NaN (the caller draws "no data").
    QColor color(double value) const;

    /// Viridis at t in [0, 1] (clamped), interpolated between 17 published stops.
    static QColor viridis(double t);
    /// WCAG relative luminance of a colour (0 black … 1 white).
    static double luminance(const QColor& color);
    /// WCAG contrast ratio of two colours (1 … 21).
    static double contrast(const QColor& a, const QColor& b);
    /// The text colour for a value written on `background`: the palette's text or window colour,
    /// whichever contrasts more; black or white when neither reaches 4.5:1.
    static QColor textColorOn(const QColor& background, const QPalette& palette);
    /// The fill of a cell without data: a neutral tone between the palette's base and text.
    static QColor noDataColor(const QPalette& palette);
};

} // namespace structscope
