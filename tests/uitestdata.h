// SPDX-License-Identifier: Apache-2.0
#pragma once

// Sample data for the GUI tests (tst_models, tst_widgets, tst_gui): the sample store of samplestoredata.h, and a
// check of exported chart files. Kept out of the test sources so moc never reads it.

#include "samplestoredata.h"

#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QStringList>

namespace uitest {

inline QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// A valid file of the format its suffix names; for SVG also one that names every model.
inline QString checkChartFile(const QString& path, const QStringList& mustContain)
{
    const QByteArray bytes = readAll(path);
    const QString suffix = QFileInfo(path).suffix();
    if (bytes.size() < 200)
        return QStringLiteral("%1: only %2 bytes").arg(path).arg(bytes.size());
    if (suffix == QStringLiteral("png")) {
        if (!bytes.startsWith("\x89PNG\r\n\x1a\n"))
            return QStringLiteral("no PNG signature");
        const QImage image(path);
        if (image.isNull())
            return QStringLiteral("PNG does not decode");
        // Not a blank page: a chart has plenty of non-white pixels.
        int inked = 0;
        for (int y = 0; y < image.height(); y += 4)
            for (int x = 0; x < image.width(); x += 4)
                inked += image.pixelColor(x, y) != QColor(Qt::white) ? 1 : 0;
        if (inked < 100)
            return QStringLiteral("PNG is almost blank (%1 inked samples)").arg(inked);
    } else if (suffix == QStringLiteral("svg")) {
        if (!bytes.contains("<svg"))
            return QStringLiteral("no <svg> element");
        for (const QString& text : mustContain) {
            if (!bytes.contains(text.toUtf8()))
                return QStringLiteral("SVG lacks '%1'").arg(text);
        }
    } else if (suffix == QStringLiteral("pdf")) {
        if (!bytes.startsWith("%PDF-") || !bytes.trimmed().endsWith("%%EOF"))
            return QStringLiteral("not a complete PDF");
        if (!bytes.contains("/Type /Page"))
            return QStringLiteral("PDF has no page");
    }
    return {};
}

} // namespace uitest
