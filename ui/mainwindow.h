// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMainWindow>

class QLabel;
class QListWidget;
class QMenu;
class QStackedWidget;

namespace structscope {

class ActivityIndicator;
class DemoSetup;
class Page;
class Settings;
class Workspace;
struct ImportOutcome;
struct ImportRequest;

/// The application window. It only wires the workspace, the pages, menus and the status bar
/// together; each page is a class under ui/pages/ and plugs in with addPage().
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Adds a page to the navigation, at `position` (-1: the end), with a Ctrl+<n> shortcut.
    void addPage(Page* page, int position = -1);
    QList<Page*> pages() const;
    Page* currentPage() const;
    /// Shows the page with this id ("leaderboard", "heatmap", ...); false when there is none.
    bool showPage(const QString& pageId);

    Workspace* workspace() const { return m_workspace; }
    Settings* settings() const { return m_settings; }
    ActivityIndicator* activity() const { return m_activity; }

    /// Opens (or, with `create`, creates) a workspace store; on failure says why in `error`.
    bool openWorkspace(const QString& location, bool create = false, QString* error = nullptr);
    /// Opens the workspace open at the last exit, if it still opens.
    bool restoreLastWorkspace();
    /// What the application does once the window is shown: opens `location` when one is given (`structscope
    /// PATH|URL`), else restores the last workspace, or on a first start (no workspace ever opened) creates the demo
    /// workspace. A `location` that does not open is said in a dialog (left open, not waited for), and the window
    /// stays without a workspace; the return value then is "cannot open <location>: <why>" (the location without
    /// its password), else "".
    QString startUp(const QString& location = {});
    DemoSetup* demoSetup() const { return m_demo; }
    /// Imports result files (.jsonl: SOB or generic) and suite folders into the open workspace.
    void importPaths(const QStringList& paths);
    /// Asks, in a window-modal dialog ("importOffer"), whether to import what `paths` holds into the open workspace,
    /// saying which files are SOB results, generic results or suite folders, which are skipped, and the workspace;
    /// Import starts the import (importPaths). What a drop of files that is not a single store file does.
    void offerImport(const QStringList& paths);

    /// True when a dropped file is to be opened as a workspace rather than imported: a SQLite file marked as a
    /// StructScope store (its application id), or a file named *.structscope, *.sqlite, *.sqlite3 or *.db.
    static bool isStoreFile(const QString& path);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void setupMenus();
    void rebuildRecentMenu();
    void updateTitle();
    void updateCentralWidget();
    void newWorkspace();
    void openWorkspaceDialog();
    void openDatabaseUrl();
    void importDialog();
    void importSuiteDialog();
    void exportChart();
    void exportTable();
    void showGlossary();
    void showAbout();
    void importFinished(const ImportOutcome& outcome);
    void openOrComplain(const QString& location, bool create);
    void startImport(ImportRequest request);

    Settings* m_settings;
    Workspace* m_workspace;
    QListWidget* m_navigation;
    QStackedWidget* m_pages;
    QStackedWidget* m_central;
    QLabel* m_welcome;
    QLabel* m_workspaceLabel;
    ActivityIndicator* m_activity;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QList<QAction*> m_workspaceActions; ///< enabled only while a workspace is open
    DemoSetup* m_demo = nullptr;
};

} // namespace structscope
