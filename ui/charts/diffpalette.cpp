// SPDX-License-Identifier: Apache-2.0
#include "charts/diffpalette.h"

#include "charts/colorscale.h"

#include <QObject>

namespace structscope {

namespace {

QColor blend(const QColor& base, const QColor& tint, double amount)
{
    const auto mix = [amount](int a, int b) { return int(std::lround(a + (b - a) * amount)); };
    return QColor(mix(base.red(), tint.red()), mix(base.green(), tint.green()), mix(base.blue(), tint.blue()));
}

} // namespace

QColor DiffPalette::hue(DiffMark mark)
{
    switch (mark) {
    case DiffMark::Same:
        return {};
    case DiffMark::MissingKey:
        return QColor(0xd5, 0x5e, 0x00); // vermilion
    case DiffMark::MissingValue:
        return QColor(0xe6, 0x9f, 0x00); // orange
    case DiffMark::Deviation:
        return QColor(0xf0, 0xe4, 0x42); // yellow
    case DiffMark::ValueError:
        return QColor(0xcc, 0x79, 0xa7); // reddish purple
    case DiffMark::Coercible:
        return QColor(0x56, 0xb4, 0xe9); // sky blue
    case DiffMark::TypeMismatch:
        return QColor(0x88, 0x44, 0x22); // brown
    case DiffMark::Invented:
        return QColor(0xaa, 0x33, 0x77); // wine
    case DiffMark::ExtraKey:
        return QColor(0x00, 0x9e, 0x73); // bluish green
    }
    return {};
}

bool DiffPalette::isDark(const QPalette& palette)
{
    return ColorScale::luminance(palette.color(QPalette::Base)) < ColorScale::luminance(palette.color(QPalette::Text));
}

QColor DiffPalette::background(DiffMark mark, const QPalette& palette)
{
    if (mark == DiffMark::Same)
        return {};
    // Light tints on a light base, deeper ones on a dark base: the palette's text stays above 4.5:1.
    return blend(palette.color(QPalette::Base), hue(mark), isDark(palette) ? 0.30 : 0.38);
}

QString DiffPalette::label(DiffMark mark)
{
    switch (mark) {
    case DiffMark::Same:
        return QObject::tr("Equal");
    case DiffMark::MissingKey:
        return QObject::tr("Missing key");
    case DiffMark::MissingValue:
        return QObject::tr("Missing value");
    case DiffMark::Deviation:
        return QObject::tr("Wrong value: deviation");
    case DiffMark::ValueError:
        return QObject::tr("Wrong value: value error");
    case DiffMark::Coercible:
        return QObject::tr("Wrong value: coercible");
    case DiffMark::TypeMismatch:
        return QObject::tr("Type mismatch");
    case DiffMark::Invented:
        return QObject::tr("Invented (gold null)");
    case DiffMark::ExtraKey:
        return QObject::tr("Extra key");
    }
    return {};
}

QString DiffPalette::description(DiffMark mark)
{
    switch (mark) {
    case DiffMark::Same:
        return QObject::tr("Gold and prediction agree here.");
    case DiffMark::MissingKey:
        return QObject::tr("MK: the key is in gold, not in the prediction.");
    case DiffMark::MissingValue:
        return QObject::tr("MV: gold has a value, the prediction null or nothing.");
    case DiffMark::Deviation:
        return QObject::tr("WV: two different strings; l is the normalised Levenshtein distance.");
    case DiffMark::ValueError:
        return QObject::tr("WV: same type, other content.");
    case DiffMark::Coercible:
        return QObject::tr("WV: equal once written as text (\"42\" vs 42).");
    case DiffMark::TypeMismatch:
        return QObject::tr("WV: the types differ.");
    case DiffMark::Invented:
        return QObject::tr("A value where gold holds null: hallucinated on missing.");
    case DiffMark::ExtraKey:
        return QObject::tr("A key gold does not have.");
    }
    return {};
}

QColor DiffPalette::goldHighlight(const QPalette& palette, bool selected)
{
    return blend(palette.color(QPalette::Base), QColor(0xe6, 0x9f, 0x00), selected ? 0.65 : 0.28);
}

QColor DiffPalette::predictedHighlight(const QPalette& palette, bool selected)
{
    return blend(palette.color(QPalette::Base), QColor(0x56, 0xb4, 0xe9), selected ? 0.65 : 0.28);
}

} // namespace structscope
