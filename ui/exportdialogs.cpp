// SPDX-License-Identifier: Apache-2.0
#include "exportdialogs.h"

#include "export/chartexport.h"
#include "export/exportablechart.h"
#include "export/tableexport.h"
#include "pages/page.h"
#include "settings/settings.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

QString suggestedName(const QString& title)
{
    QString name = title.toLower();
    name.replace(QRegularExpression(u"[^a-z0-9]+"_s), u"-"_s);
    while (name.endsWith(u'-'))
        name.chop(1);
    return name.isEmpty() ? u"chart"_s : name.left(60);
}

/// Adds the suffix of the chosen filter when the user typed a name without one.
QString withSuffix(QString path, const QString& filter)
{
    if (!QFileInfo(path).suffix().isEmpty())
        return path;
    const QRegularExpressionMatch match = QRegularExpression(u"\\*\\.(\\w+)"_s).match(filter);
    return match.hasMatch() ? path + u'.' + match.captured(1) : path;
}

} // namespace

QString exportChartInteractively(QWidget* parent, ExportableChart& chart, Settings& settings)
{
    const QString pngFilter = QObject::tr("PNG image (*.png)");
    const QString svgFilter = QObject::tr("SVG vector image (*.svg)");
    const QString pdfFilter = QObject::tr("PDF document (*.pdf)");
    QString filter = pngFilter;
    QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export Chart"),
        QDir(settings.lastDirectory()).filePath(suggestedName(chart.exportTitle()) + u".png"_s),
        pngFilter + u";;"_s + svgFilter + u";;"_s + pdfFilter, &filter);
    if (path.isEmpty())
        return {};
    path = withSuffix(path, filter);
    settings.setLastDirectory(QFileInfo(path).absolutePath());
    int dpi = settings.exportDpi();
    if (chartFormatForPath(path) == ChartFormat::Png) {
        bool ok = false;
        dpi = QInputDialog::getInt(
            parent, QObject::tr("Export Chart"), QObject::tr("Resolution (dots per inch):"), dpi, 36, 1200, 12, &ok);
        if (!ok)
            return {};
        settings.setExportDpi(dpi);
    }
    const QString error = exportChart(chart, path, dpi);
    if (!error.isEmpty()) {
        QMessageBox::warning(parent, QObject::tr("Export Chart"), error);
        return {};
    }
    return path;
}

QString exportTableInteractively(QWidget* parent, const Report& table, const QString& caption, Settings& settings)
{
    const QString csvFilter = QObject::tr("CSV table (*.csv)");
    const QString mdFilter = QObject::tr("Markdown table (*.md)");
    const QString texFilter = QObject::tr("LaTeX table (*.tex)");
    const QString jsonFilter = QObject::tr("JSON report (*.json)");
    QString filter = csvFilter;
    QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export Table"),
        QDir(settings.lastDirectory()).filePath(suggestedName(caption) + u".csv"_s),
        csvFilter + u";;"_s + mdFilter + u";;"_s + texFilter + u";;"_s + jsonFilter, &filter);
    if (path.isEmpty())
        return {};
    path = withSuffix(path, filter);
    settings.setLastDirectory(QFileInfo(path).absolutePath());
    const QString error = exportTable(table, path, caption);
    if (!error.isEmpty()) {
        QMessageBox::warning(parent, QObject::tr("Export Table"), error);
        return {};
    }
    return path;
}

QString exportPageChart(QWidget* parent, Page& page, Settings& settings)
{
    const QList<Page::NamedChart> charts = page.charts();
    if (charts.isEmpty())
        return {};
    Page::NamedChart chosen = charts.first();
    if (charts.size() > 1) {
        QStringList names;
        for (const auto& c : charts)
            names << c.name;
        bool ok = false;
        const QString name
            = QInputDialog::getItem(parent, QObject::tr("Export Chart"), QObject::tr("Chart:"), names, 0, false, &ok);
        if (!ok)
            return {};
        chosen = charts[names.indexOf(name)];
    }
    return exportChartInteractively(parent, *chosen.chart, settings);
}

QString exportPageTable(QWidget* parent, Page& page, Settings& settings)
{
    const std::optional<Report> table = page.table();
    return table ? exportTableInteractively(parent, *table, page.tableCaption(), settings) : QString();
}

} // namespace structscope
