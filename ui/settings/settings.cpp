// SPDX-License-Identifier: Apache-2.0
#include "settings/settings.h"

#include "store/storelocation.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

// QSettings keys cannot hold slashes or colons reliably: key per-workspace values by a hash.
QString workspaceKey(const QString& workspace)
{
    // Hashed without the password: a hash of it would be one more copy to guess it from.
    const QByteArray location = StoreLocation::withoutPassword(workspace).toUtf8();
    return u"workspaces/"_s
        + QString::fromLatin1(QCryptographicHash::hash(location, QCryptographicHash::Sha1).toHex().left(16));
}

/// The recent list without passwords and without the repeats that stripping them can leave.
QStringList withoutPasswords(const QStringList& locations)
{
    QStringList out;
    for (const QString& location : locations) {
        const QString clean = StoreLocation::withoutPassword(location);
        if (!out.contains(clean))
            out << clean;
    }
    return out;
}

} // namespace

void restrictSettingsFile(const QSettings& settings)
{
    const QString file = settings.fileName();
    if (settings.format() != QSettings::NativeFormat && settings.format() != QSettings::IniFormat)
        return;
    if (QFileInfo(file).isFile())
        QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
}

void writeSetting(const QString& key, const QVariant& value)
{
    QSettings settings;
    settings.setValue(key, value);
    settings.sync();
    restrictSettingsFile(settings);
}

Settings::Settings(QObject* parent)
    : QObject(parent)
{
    // Settings written by a version that kept database passwords lose them, and the file becomes the user's alone.
    QSettings settings;
    const QStringList recent = settings.value(u"workspace/recent"_s).toStringList();
    if (const QStringList clean = withoutPasswords(recent); clean != recent)
        settings.setValue(u"workspace/recent"_s, clean);
    const QString last = settings.value(u"workspace/last"_s).toString();
    if (const QString clean = StoreLocation::withoutPassword(last); clean != last)
        settings.setValue(u"workspace/last"_s, clean);
    settings.sync();
    restrictSettingsFile(settings);
}

QStringList Settings::recentWorkspaces() const
{
    return withoutPasswords(QSettings().value(u"workspace/recent"_s).toStringList());
}

void Settings::setRecentWorkspaces(const QStringList& locations)
{
    const QStringList clean = withoutPasswords(locations);
    writeSetting(u"workspace/recent"_s, clean);
    Q_EMIT recentWorkspacesChanged(clean);
}

void Settings::addRecentWorkspace(const QString& location)
{
    const QString clean = StoreLocation::withoutPassword(location);
    QStringList recent = recentWorkspaces();
    recent.removeAll(clean);
    recent.prepend(clean);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    setRecentWorkspaces(recent);
}

void Settings::removeRecentWorkspace(const QString& location)
{
    QStringList recent = recentWorkspaces();
    if (recent.removeAll(StoreLocation::withoutPassword(location)) > 0)
        setRecentWorkspaces(recent);
}

void Settings::clearRecentWorkspaces()
{
    setRecentWorkspaces({});
}

QString Settings::lastWorkspace() const
{
    return StoreLocation::withoutPassword(QSettings().value(u"workspace/last"_s).toString());
}

void Settings::setLastWorkspace(const QString& location)
{
    writeSetting(u"workspace/last"_s, StoreLocation::withoutPassword(location));
}

int Settings::exportDpi() const
{
    return std::clamp(QSettings().value(u"export/dpi"_s, 150).toInt(), 36, 1200);
}

void Settings::setExportDpi(int dpi)
{
    if (dpi == exportDpi())
        return;
    writeSetting(u"export/dpi"_s, dpi);
    Q_EMIT exportDpiChanged(dpi);
}

QString Settings::lastDirectory() const
{
    return QSettings().value(u"paths/last"_s, QDir::homePath()).toString();
}

void Settings::setLastDirectory(const QString& dir)
{
    writeSetting(u"paths/last"_s, dir);
}

QStringList Settings::suiteFolders(const QString& workspace) const
{
    return QSettings().value(workspaceKey(workspace) + u"/suites"_s).toStringList();
}

void Settings::addSuiteFolder(const QString& workspace, const QString& dir)
{
    QStringList folders = suiteFolders(workspace);
    folders.removeAll(dir);
    folders.prepend(dir);
    writeSetting(workspaceKey(workspace) + u"/suites"_s, folders);
}

QString Settings::metricFamily(const QString& workspace, const QString& page) const
{
    return QSettings().value(workspaceKey(workspace) + u"/family/"_s + page).toString();
}

void Settings::setMetricFamily(const QString& workspace, const QString& page, const QString& family)
{
    writeSetting(workspaceKey(workspace) + u"/family/"_s + page, family);
}

QStringList Settings::hiddenColumns(const QString& workspace, const QString& table) const
{
    return QSettings().value(workspaceKey(workspace) + u"/hiddenColumns/"_s + table).toStringList();
}

void Settings::setHiddenColumns(const QString& workspace, const QString& table, const QStringList& columns)
{
    writeSetting(workspaceKey(workspace) + u"/hiddenColumns/"_s + table, columns);
}

QList<ModelSpec> Settings::modelProfiles() const
{
    QList<ModelSpec> profiles;
    for (const QString& text : QSettings().value(u"runs/modelProfiles"_s).toStringList()) {
        // A profile written by another version that no longer parses is skipped, not fatal.
        if (std::optional<ModelSpec> spec = parseModelSpec(text); spec && !spec->isSimulated())
            profiles << *spec;
    }
    return profiles;
}

void Settings::setModelProfiles(const QList<ModelSpec>& profiles)
{
    QStringList texts;
    for (ModelSpec spec : profiles) {
        if (spec.isSimulated())
            continue;
        // Only `$VAR` references are written: a literal value may be a credential (and would not parse back).
        spec.headers.removeIf(
            [](const std::pair<QString, QString>& header) { return !header.second.startsWith(u'$'); });
        texts << formatModelSpec(spec);
    }
    writeSetting(u"runs/modelProfiles"_s, texts);
}

QByteArray Settings::windowGeometry() const
{
    return QSettings().value(u"mainwindow/geometry"_s).toByteArray();
}

QByteArray Settings::windowState() const
{
    return QSettings().value(u"mainwindow/state"_s).toByteArray();
}

void Settings::setWindowGeometry(const QByteArray& geometry)
{
    writeSetting(u"mainwindow/geometry"_s, geometry);
}

void Settings::setWindowState(const QByteArray& state)
{
    writeSetting(u"mainwindow/state"_s, state);
}

} // namespace structscope
