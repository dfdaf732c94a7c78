#include "settings.h"


#include <QCryptographicHash>
#include <QDir>
#include <QSettings>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

// QSettings keys cannot hold slashes or colons reliably: key per-workspace values by a hash.
QString workspaceKey(const QString& workspace)
{
    return u"workspaces/"_s
        + QString::fromLatin1(QCryptographicHash::hash(workspace.toUtf8(), QCryptographicHash::Sha1).toHex().left(16));
}

} // namespace

Settings::Settings(QObject* parent)
    : QObject(parent)
{ }

QStringList Settings::recentWorkspaces() const
{
    return QSettings().value(u"workspace/recent"_s).toStringList();
}

void Settings::setRecentWorkspaces(const QStringList& locations)
{
    QSettings().setValue(u"workspace/recent"_s, locations);
    Q_EMIT recentWorkspacesChanged(locations);
}

void Settings::addRecentWorkspace(const QString& location)
{
    QStringList recent = recentWorkspaces();
    recent.removeAll(location);
    recent.prepend(location);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    setRecentWorkspaces(recent);
}

void Settings::removeRecentWorkspace(const QString& location)
{
    QStringList recent = recentWorkspaces();
    if (recent.removeAll(location) > 0)
        setRecentWorkspaces(recent);
}

void Settings::clearRecentWorkspaces()
{
    setRecentWorkspaces({});
}

QString Settings::lastWorkspace() const
{
    return QSettings().value(u"workspace/last"_s).toString();
}

void Settings::setLastWorkspace(const QString& location)
{
    QSettings().setValue(u"workspace/last"_s, location);
}

int Settings::exportDpi() const
{
    return std::clamp(QSettings().value(u"export/dpi"_s, 150).toInt(), 36, 1200);
}

void Settings::setExportDpi(int dpi)
{
    if (dpi == exportDpi())
        return;
    QSettings().setValue(u"export/dpi"_s, dpi);
    Q_EMIT exportDpiChanged(dpi);
}

QString Settings::lastDirectory() const
{
    return QSettings().value(u"paths/last"_s, QDir::homePath()).toString();
}

void Settings::setLastDirectory(const QString& dir)
{
    QSettings().setValue(u"paths/last"_s, dir);
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
    QSettings().setValue(workspaceKey(workspace) + u"/suites"_s, folders);
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
    QSettings().setValue(u"runs/modelProfiles"_s, texts);
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
    QSettings().setValue(u"mainwindow/geometry"_s, geometry);
}

void Settings::setWindowState(const QByteArray& state)
{
    QSettings().setValue(u"mainwindow/state"_s, state);
}

} // namespace structscope
