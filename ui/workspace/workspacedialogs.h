// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

class QWidget;

namespace structscope {

class Settings;

// The file dialogs of the File menu; each returns "" (or an empty list) when the user cancels,
// and remembers the folder it ended in.

/// A new SQLite store file (".structscope", the suffix desktops know as a StructScope store, added when the name has
/// no suffix).
QString askNewWorkspace(QWidget* parent, Settings& settings);
/// An existing store file.
QString askOpenWorkspace(QWidget* parent, Settings& settings);
/// A postgresql:// URL.
QString askDatabaseUrl(QWidget* parent);
/// Result files to import.
QStringList askResultFiles(QWidget* parent, Settings& settings);
/// A suite folder; `title` says what it is for.
QString askSuiteFolder(QWidget* parent, Settings& settings, const QString& title);

} // namespace structscope
