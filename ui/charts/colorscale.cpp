// SPDX-License-Identifier: Apache-2.0
#include "charts/colorscale.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace structscope {

namespace {

// matplotlib's viridis at t = 0, 1/16, …, 1.
constexpr std::array<QRgb, 17> kViridis = {
    0x440154,
    0x48186a,
    0x472d7b,
    0x424086,
    0x3b528b,
    0x33638d,
    0x2c728e,
    0x26828e,
    0x21918c,
    0x1fa088,
    0x28ae80,
    0x3fbc73,
    0x5ec962,
    0x84d44b,
    0xaddc30,
    0xd8e219,
    0xfde725,
};

double linearChannel(double c)
{
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

} // namespace

double ColorScale::normalized(double value) const
{
    if (std::isnan(value))
        return value;
    const double span = maximum - minimum;
    if (!(span > 0))
        return value >= maximum ? 1.0 : 0.0;
    return std::clamp((value - minimum) / span, 0.0, 1.0);
}

QColor ColorScale::color(double value) const
{
    if (std::isnan(value))
        return {};
    return viridis(normalized(value));
}

QColor ColorScale::viridis(double t)
{
    if (std::isnan(t))
        t = 0;
    const double x = std::clamp(t, 0.0, 1.0) * double(kViridis.size() - 1);
    const auto i = std::min(std::size_t(x), kViridis.size() - 2);
    const double f = x - double(i);
    const QColor a = QColor::fromRgb(kViridis[i]);
    const QColor b = QColor::fromRgb(kViridis[i + 1]);
    auto mix = [f](int p, int q) { return int(std::lround(p + (q - p) * f)); };
    return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
}

double ColorScale::luminance(const QColor& color)
{
    return 0.2126 * linearChannel(color.redF()) + 0.7152 * linearChannel(color.greenF())
        + 0.0722 * linearChannel(color.blueF());
}

double ColorScale::contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor ColorScale::textColorOn(const QColor& background, const QPalette& palette)
{
    const QColor text = palette.color(QPalette::WindowText);
    const QColor window = palette.color(QPalette::Window);
    const QColor best = contrast(text, background) >= contrast(window, background) ? text : window;
    if (contrast(best, background) >= 4.5)
        return best;
    return contrast(Qt::black, background) >= contrast(Qt::white, background) ? QColor(Qt::black) : QColor(Qt::white);
}

QColor ColorScale::noDataColor(const QPalette& palette)
{
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    return QColor(
        (base.red() * 7 + text.red()) / 8, (base.green() * 7 + text.green()) / 8, (base.blue() * 7 + text.blue()) / 8);
}

} // namespace structscope
