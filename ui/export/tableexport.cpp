// SPDX-License-Identifier: Apache-2.0
#include "export/tableexport.h"

#include "report/reportwriter.h"

#include <QFileInfo>
#include <QObject>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace structscope {

std::optional<std::string> tableFormatForPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == u"csv"_s)
        return "csv";
    if (suffix == u"md"_s || suffix == u"markdown"_s)
        return "md";
    if (suffix == u"tex"_s)
        return "latex";
    if (suffix == u"json"_s)
        return "json";
    return std::nullopt;
}

QString exportTable(const Report& report, const QString& path, const QString& latexCaption)
{
    const auto format = tableFormatForPath(path);
    if (!format)
        return QObject::tr("%1: unknown table format; use a .csv, .md, .tex or .json file name").arg(path);
    ReportWriteOptions options;
    options.latexCaption = latexCaption.toStdString();
    const ReportText text = writeReport(report, *format, options);
    if (!text.ok())
        return text.error;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.text.data(), qint64(text.text.size())) < 0
        || !file.commit())
        return QObject::tr("%1: cannot write the file: %2").arg(path, file.errorString());
    return {};
}

} // namespace structscope
