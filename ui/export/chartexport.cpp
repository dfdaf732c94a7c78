// SPDX-License-Identifier: Apache-2.0
#include "export/chartexport.h"

#include "export/exportablechart.h"

#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

constexpr double kLogicalDpi = 96.0;

bool paintOn(QPaintDevice& device, ExportableChart& chart, const QSizeF& logicalSize, double scale)
{
    QPainter painter;
    if (!painter.begin(&device))
        return false;
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.scale(scale, scale);
    const QRectF target(QPointF(0, 0), logicalSize);
    painter.fillRect(target, Qt::white);
    chart.renderForExport(painter, target);
    return painter.end();
}

} // namespace

std::optional<ChartFormat> chartFormatForPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == u"png"_s)
        return ChartFormat::Png;
    if (suffix == u"svg"_s)
        return ChartFormat::Svg;
    if (suffix == u"pdf"_s)
        return ChartFormat::Pdf;
    return std::nullopt;
}

QPalette exportPalette()
{
    QPalette palette(QColor(0xef, 0xef, 0xef));
    for (auto group : { QPalette::Active, QPalette::Inactive, QPalette::Disabled }) {
        palette.setColor(group, QPalette::Window, Qt::white);
        palette.setColor(group, QPalette::Base, Qt::white);
        palette.setColor(group, QPalette::AlternateBase, QColor(0xf4, 0xf4, 0xf4));
        palette.setColor(group, QPalette::WindowText, QColor(0x20, 0x20, 0x20));
        palette.setColor(group, QPalette::Text, QColor(0x20, 0x20, 0x20));
        palette.setColor(group, QPalette::Mid, QColor(0xb0, 0xb0, 0xb0));
        palette.setColor(group, QPalette::Highlight, QColor(0x30, 0x8c, 0xc6));
        palette.setColor(group, QPalette::HighlightedText, Qt::white);
    }
    return palette;
}

QString exportChart(ExportableChart& chart, const QString& path, int dpi)
{
    const std::optional<ChartFormat> format = chartFormatForPath(path);
    if (!format)
        return QObject::tr("%1: unknown chart format; use a .png, .svg or .pdf file name").arg(path);
    QSize size = chart.exportSize();
    if (size.isEmpty())
        size = QSize(800, 500);
    dpi = std::clamp(dpi, 36, 1200);

    switch (*format) {
    case ChartFormat::Png: {
        const double scale = dpi / kLogicalDpi;
        QImage image(QSize(int(std::lround(size.width() * scale)), int(std::lround(size.height() * scale))),
            QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        if (!paintOn(image, chart, size, scale))
            return QObject::tr("%1: cannot paint the chart").arg(path);
        // Recorded only after painting: fonts in points follow the device's resolution, so a 150-dpi
        // image would scale the text a second time on top of the painter's scale.
        image.setDotsPerMeterX(int(std::lround(dpi / 0.0254)));
        image.setDotsPerMeterY(int(std::lround(dpi / 0.0254)));
        if (!image.save(path, "PNG"))
            return QObject::tr("%1: cannot write the file").arg(path);
        return {};
    }
    case ChartFormat::Svg: {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setResolution(int(kLogicalDpi));
        generator.setTitle(chart.exportTitle());
        generator.setDescription(QObject::tr("Exported from StructScope"));
        if (!paintOn(generator, chart, size, 1.0))
            return QObject::tr("%1: cannot write the file").arg(path);
        break;
    }
    case ChartFormat::Pdf: {
        QPdfWriter writer(path);
        writer.setCreator(u"StructScope"_s);
        writer.setTitle(chart.exportTitle());
        writer.setResolution(int(kLogicalDpi));
        // One page exactly the chart's size: 96 logical pixels per inch = 72 points per inch.
        writer.setPageSize(
            QPageSize(QSizeF(size) * 72.0 / kLogicalDpi, QPageSize::Point, QString(), QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        if (!paintOn(writer, chart, size, 1.0))
            return QObject::tr("%1: cannot write the file").arg(path);
        break;
    }
    }
    if (!QFileInfo(path).isFile() || QFileInfo(path).size() == 0)
        return QObject::tr("%1: cannot write the file").arg(path);
    return {};
}

} // namespace structscope
