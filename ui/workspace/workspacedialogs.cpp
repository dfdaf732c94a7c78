// SPDX-License-Identifier: Apache-2.0
#include "workspace/workspacedialogs.h"

#include "settings/settings.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QObject>

using namespace Qt::StringLiterals;

namespace structscope {

QString askNewWorkspace(QWidget* parent, Settings& settings)
{
    const QString path = QFileDialog::getSaveFileName(parent, QObject::tr("New Workspace"), settings.lastDirectory(),
        QObject::tr("StructScope store (*.structscope);;SQLite file (*.sqlite *.sqlite3 *.db)"));
    if (path.isEmpty())
        return {};
    settings.setLastDirectory(QFileInfo(path).absolutePath());
    return QFileInfo(path).suffix().isEmpty() ? path + u".structscope"_s : path;
}

QString askOpenWorkspace(QWidget* parent, Settings& settings)
{
    const QString path = QFileDialog::getOpenFileName(parent, QObject::tr("Open Workspace"), settings.lastDirectory(),
        QObject::tr("StructScope store (*.structscope *.sqlite *.sqlite3 *.db);;All files (*)"));
    if (!path.isEmpty())
        settings.setLastDirectory(QFileInfo(path).absolutePath());
    return path;
}

QString askDatabaseUrl(QWidget* parent)
{
    bool ok = false;
    const QString url = QInputDialog::getText(parent, QObject::tr("Open Database URL"),
        QObject::tr("PostgreSQL URL (the password is better kept in ~/.pgpass):"), QLineEdit::Normal,
        u"postgresql://user@localhost:5432/structscope"_s, &ok);
    return ok ? url.trimmed() : QString();
}

QStringList askResultFiles(QWidget* parent, Settings& settings)
{
    const QStringList files = QFileDialog::getOpenFileNames(parent, QObject::tr("Import Results"),
        settings.lastDirectory(), QObject::tr("Result files (*.jsonl);;All files (*)"));
    if (!files.isEmpty())
        settings.setLastDirectory(QFileInfo(files.first()).absolutePath());
    return files;
}

QString askSuiteFolder(QWidget* parent, Settings& settings, const QString& title)
{
    const QString dir = QFileDialog::getExistingDirectory(parent, title, settings.lastDirectory());
    if (!dir.isEmpty())
        settings.setLastDirectory(dir);
    return dir;
}

} // namespace structscope
