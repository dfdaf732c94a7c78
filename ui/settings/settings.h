// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "providers/modelspec.h"

#include <QList>
#include <QObject>
#include <QStringList>
#include <QVariant>

class QSettings;

namespace structscope {

/// Makes the settings file readable and writable by its owner only (0600): it holds locations, profiles and
/// folders that are nobody else's business. Call after QSettings::sync().
void restrictSettingsFile(const QSettings& settings);
/// Sets one value, writes the file and restricts it (restrictSettingsFile).
void writeSetting(const QString& key, const QVariant& value);

/// The user's preferences, over QSettings, with typed getters and change signals. Lives on the GUI
/// thread; workers get copies of the values they need, never this object.
class Settings : public QObject
{
    Q_OBJECT
public:
    explicit Settings(QObject* parent = nullptr);

    /// Workspace locations (SQLite paths or postgresql:// URLs), most recent first. URLs are kept and returned
    /// without their password (StoreLocation::withoutPassword): libpq takes it from ~/.pgpass or PGPASSWORD.
    QStringList recentWorkspaces() const;
    /// Puts `location` first in the recent list (at most kMaxRecent entries).
    void addRecentWorkspace(const QString& location);
    void removeRecentWorkspace(const QString& location);
    void clearRecentWorkspaces();
    /// The workspace open when the application last closed ("" for none).
    QString lastWorkspace() const;
    void setLastWorkspace(const QString& location);

    /// Resolution of PNG chart exports.
    int exportDpi() const;
    void setExportDpi(int dpi);
    /// Folder the export and import dialogs start in.
    QString lastDirectory() const;
    void setLastDirectory(const QString& dir);
    /// Suite folders imported into a workspace, so generic JSONL results can be matched to a suite.
    QStringList suiteFolders(const QString& workspace) const;
    void addSuiteFolder(const QString& workspace, const QString& dir);

    /// The metric family last picked on page `page` ("leaderboard", "heatmap") of a workspace ("" when none).
    QString metricFamily(const QString& workspace, const QString& page) const;
    void setMetricFamily(const QString& workspace, const QString& page, const QString& family);
    /// The columns the user hid in table `table` of a workspace, by column id (e.g. a metric id).
    QStringList hiddenColumns(const QString& workspace, const QString& table) const;
    void setHiddenColumns(const QString& workspace, const QString& table, const QStringList& columns);

    /// The user's model profiles of the run launcher (simulated ones are always offered, not stored).
    /// Written as spec text without secrets: a header is kept only when its value names an environment
    /// variable ("$VAR") or neither its name nor its value looks like a credential (secretkeys.h).
    QList<ModelSpec> modelProfiles() const;
    void setModelProfiles(const QList<ModelSpec>& profiles);

    QByteArray windowGeometry() const;
    QByteArray windowState() const;
    void setWindowGeometry(const QByteArray& geometry);
    void setWindowState(const QByteArray& state);

    static constexpr int kMaxRecent = 10;

Q_SIGNALS:
    void recentWorkspacesChanged(const QStringList& locations);
    void exportDpiChanged(int dpi);

private:
    void setRecentWorkspaces(const QStringList& locations);
};

} // namespace structscope
