// SPDX-License-Identifier: Apache-2.0
#include "mainwindow.h"

#include "demosetup.h"
#include "exportdialogs.h"
#include "pages/auditpage.h"
#include "pages/casespage.h"
#include "pages/comparepage.h"
#include "pages/errorspage.h"
#include "pages/heatmappage.h"
#include "pages/leaderboardpage.h"
#include "pages/runspage.h"
#include "settings/settings.h"
#include "store/storelocation.h"
#include "store/storeprobe.h"
#include "widgets/activityindicator.h"
#include "widgets/metricglossarydialog.h"
#include "widgets/simulateddatadialog.h"
#include "workspace/goldeditservice.h"
#include "workspace/workspace.h"
#include "workspace/workspacedialogs.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

constexpr int kMessageMs = 8000;

/// "a.jsonl, b.jsonl" of the first few paths' names, "and N more" for the rest.
QString fileNames(const QStringList& paths)
{
    constexpr int kShown = 5;
    QStringList names;
    for (const QString& path : paths.mid(0, kShown))
        names << QDir::toNativeSeparators(QFileInfo(path).fileName());
    QString text = names.join(u", "_s);
    if (paths.size() > kShown)
        text += QObject::tr(" and %1 more").arg(paths.size() - kShown);
    return text;
}

} // namespace

bool MainWindow::isStoreFile(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == u"structscope"_s || suffix == u"sqlite"_s || suffix == u"sqlite3"_s || suffix == u"db"_s
        || isMarkedStoreFile(path);
}

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_settings(new Settings(this))
    , m_workspace(new Workspace(this))
    , m_navigation(new QListWidget(this))
    , m_pages(new QStackedWidget(this))
    , m_central(new QStackedWidget(this))
    , m_welcome(new QLabel(this))
    , m_workspaceLabel(new QLabel(this))
    , m_activity(new ActivityIndicator(this))
{
    setObjectName(u"MainWindow"_s);
    setAcceptDrops(true);
    m_welcome->setObjectName(u"welcomeLabel"_s);
    m_welcome->setAlignment(Qt::AlignCenter);
    m_welcome->setTextFormat(Qt::RichText);
    m_welcome->setText(tr("<h2>StructScope</h2><p>No workspace is open.</p>"
                          "<p><a href=\"new\">Create a workspace</a> · <a href=\"open\">Open a workspace</a></p>"
                          "<p>A workspace is one result store (a SQLite file or a PostgreSQL URL) and its suites.<br>"
                          "Drop a store file here to open it.</p>"));
    connect(m_welcome, &QLabel::linkActivated, this,
        [this](const QString& link) { link == u"new"_s ? newWorkspace() : openWorkspaceDialog(); });

    m_navigation->setObjectName(u"navigation"_s);
    m_navigation->setFixedWidth(150);
    m_navigation->setFrameShape(QFrame::NoFrame);
    m_navigation->setSpacing(4);
    auto* workArea = new QWidget(this);
    auto* layout = new QHBoxLayout(workArea);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_navigation);
    layout->addWidget(m_pages, 1);
    m_central->addWidget(m_welcome);
    m_central->addWidget(workArea);
    setCentralWidget(m_central);
    connect(m_navigation, &QListWidget::currentRowChanged, m_pages, &QStackedWidget::setCurrentIndex);
    connect(m_pages, &QStackedWidget::currentChanged, this, &MainWindow::updateTitle);

    statusBar()->addPermanentWidget(m_activity);
    statusBar()->addPermanentWidget(m_workspaceLabel);
    m_workspaceLabel->setObjectName(u"workspaceLabel"_s);

    ScoringService* scoring = m_workspace->scoring();
    connect(scoring, &ScoringService::busyChanged, this, [this](bool busy) {
        if (busy && !m_workspace->isImporting())
            m_activity->begin(tr("Scoring"));
        else if (!busy && !m_workspace->isImporting())
            m_activity->end();
    });
    connect(scoring, &ScoringService::progress, m_activity, &ActivityIndicator::setProgress);
    connect(m_workspace, &Workspace::importProgress, m_activity, &ActivityIndicator::setProgress);
    connect(m_workspace, &Workspace::importFinished, this, &MainWindow::importFinished);
    connect(m_activity, &ActivityIndicator::cancelRequested, this, [this] {
        m_workspace->isImporting() ? m_workspace->cancelImport() : m_workspace->scoring()->cancel();
        m_activity->end();
    });
    connect(m_workspace, &Workspace::opened, this, &MainWindow::updateCentralWidget);
    connect(m_workspace, &Workspace::closed, this, &MainWindow::updateCentralWidget);
    connect(m_settings, &Settings::recentWorkspacesChanged, this, &MainWindow::rebuildRecentMenu);
    m_demo = new DemoSetup(m_workspace, m_settings, m_activity, this);
    connect(m_demo, &DemoSetup::finished, this,
        [this](bool, const QString& message) { statusBar()->showMessage(message, kMessageMs); });

    setupMenus();
    addPage(new LeaderboardPage(m_workspace, this));
    addPage(new HeatmapPage(m_workspace, this));
    addPage(new CasesPage(m_workspace, this));
    addPage(new ErrorsPage(m_workspace, this));
    addPage(new ComparePage(m_workspace, this));
    addPage(new AuditPage(m_workspace, this));
    addPage(new RunsPage(m_workspace, this), 0); // the first page: where work starts
    // The cases every chosen model fails (the Errors page across models) open on the Audit page.
    for (Page* page : pages()) {
        if (auto* errors = qobject_cast<ErrorsPage*>(page))
            connect(errors, &ErrorsPage::auditRequested, this,
                [this](const std::vector<CaseKey>& cases, const QString& caption) {
                    for (Page* p : pages()) {
                        if (auto* audit = qobject_cast<AuditPage*>(p)) {
                            audit->focusCases(cases, caption);
                            showPage(audit->pageId());
                        }
                    }
                });
    }
    m_navigation->setCurrentRow(0);
    updateCentralWidget();
    statusBar()->showMessage(tr("Ready"));
    resize(1280, 820);
    restoreGeometry(m_settings->windowGeometry());
    restoreState(m_settings->windowState());
}

MainWindow::~MainWindow()
{
    // Closing the workspace stops its scoring jobs, and it says so (busyChanged) to the handlers above: that has to
    // happen while this window is still whole, not from QWidget's destructor, when only a QWidget is left of it.
    delete m_workspace;
    m_workspace = nullptr;
}

void MainWindow::addPage(Page* page, int position)
{
    if (position < 0 || position > m_pages->count())
        position = m_pages->count();
    m_pages->insertWidget(position, page);
    auto* item = new QListWidgetItem(page->title());
    item->setData(Qt::UserRole, page->pageId());
    m_navigation->insertItem(position, item);
    // Every drill-down (a leaderboard row, a heatmap cell, a Venn region, an audit item) lands on the
    // Cases page, filtered to those responses.
    connect(page, &Page::drillDown, this, [this](const GroupKey& key) {
        statusBar()->showMessage(tr("Cases of %1").arg(key.toString()), kMessageMs);
        for (Page* p : pages()) {
            if (auto* cases = qobject_cast<CasesPage*>(p)) {
                cases->showCases(key);
                showPage(cases->pageId());
            }
        }
    });
    // Ctrl+1… follow the navigation order, so renumber after every insertion.
    for (QAction* action : m_viewMenu->actions()) {
        if (action->property("pageAction").toBool())
            delete action;
    }
    QAction* before = m_viewMenu->actions().value(0);
    for (int i = 0; i < m_pages->count(); ++i) {
        auto* action = new QAction(qobject_cast<Page*>(m_pages->widget(i))->title(), m_viewMenu);
        action->setProperty("pageAction", true);
        if (i < 9)
            action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        connect(action, &QAction::triggered, this, [this, i] { m_navigation->setCurrentRow(i); });
        m_viewMenu->insertAction(before, action);
    }
}

QList<Page*> MainWindow::pages() const
{
    QList<Page*> result;
    for (int i = 0; i < m_pages->count(); ++i)
        result << qobject_cast<Page*>(m_pages->widget(i));
    return result;
}

Page* MainWindow::currentPage() const
{
    return qobject_cast<Page*>(m_pages->currentWidget());
}

bool MainWindow::showPage(const QString& pageId)
{
    for (int i = 0; i < m_pages->count(); ++i) {
        if (qobject_cast<Page*>(m_pages->widget(i))->pageId() == pageId) {
            m_navigation->setCurrentRow(i);
            return true;
        }
    }
    return false;
}

void MainWindow::setupMenus()
{
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New Workspace…"), QKeySequence::New, this, &MainWindow::newWorkspace);
    file->addAction(tr("&Open Workspace…"), QKeySequence::Open, this, &MainWindow::openWorkspaceDialog);
    file->addAction(tr("Open &Database URL…"), this, &MainWindow::openDatabaseUrl);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addAction(tr("Create &Demo Workspace"), this, [this] { m_demo->start(); })
        ->setStatusTip(tr("Runs the built-in suites on the simulated models in a new workspace"));
    m_workspaceActions << file->addAction(tr("&Close Workspace"), QKeySequence::Close, m_workspace, &Workspace::close);
    file->addSeparator();
    m_workspaceActions << file->addAction(
        tr("&Import Results…"), QKeySequence(Qt::CTRL | Qt::Key_I), this, &MainWindow::importDialog);
    m_workspaceActions << file->addAction(tr("Import &Suite Folder…"), this, &MainWindow::importSuiteDialog);
    file->addSeparator();
    m_workspaceActions << file->addAction(
        tr("Export &Chart…"), QKeySequence(Qt::CTRL | Qt::Key_E), this, &MainWindow::exportChart);
    m_workspaceActions << file->addAction(
        tr("Export &Table…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), this, &MainWindow::exportTable);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    quit->setMenuRole(QAction::QuitRole);

    // Gold edits are undone one revision at a time (Ctrl+Z works inside the Cases page's diff view).
    auto* edit = menuBar()->addMenu(tr("&Edit"));
    GoldEditService* gold = GoldEditService::of(m_workspace);
    QAction* undoGold = edit->addAction(tr("&Undo Gold Edit"), gold, [gold] { gold->undo(); });
    undoGold->setObjectName(u"undoGoldEditMenu"_s);
    undoGold->setStatusTip(tr("Stores a new gold revision that restores the gold before your last edit"));
    undoGold->setEnabled(gold->canUndo());
    connect(gold, &GoldEditService::undoAvailableChanged, undoGold, &QAction::setEnabled);
    connect(gold, &GoldEditService::editFinished, this,
        [this](GoldEditService::Action action, const GoldEditOutcome& outcome) {
            if (action != GoldEditService::Action::Undo)
                return;
            statusBar()->showMessage(outcome.ok()
                    ? tr("Gold edit undone: revision %1 restores the gold before it").arg(outcome.added.revision)
                    : tr("Undo refused: %1").arg(outcome.message),
                kMessageMs);
        });

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewMenu->addSeparator();
    m_workspaceActions << m_viewMenu->addAction(
        tr("&Refresh"), QKeySequence::Refresh, m_workspace, &Workspace::notifyDataChanged);
    QAction* navigation = m_viewMenu->addAction(tr("Show &Navigation"));
    navigation->setCheckable(true);
    navigation->setChecked(true);
    connect(navigation, &QAction::toggled, m_navigation, &QWidget::setVisible);
    QAction* fullScreen = m_viewMenu->addAction(tr("&Full Screen"), QKeySequence::FullScreen, this,
        [this] { isFullScreen() ? showNormal() : showFullScreen(); });
    fullScreen->setCheckable(false);

    auto* run = menuBar()->addMenu(tr("&Run"));
    m_workspaceActions << run->addAction(tr("&New Run…"), QKeySequence(Qt::CTRL | Qt::Key_R), this, [this] {
        for (Page* page : pages()) {
            if (auto* runs = qobject_cast<RunsPage*>(page); runs && showPage(runs->pageId()))
                runs->openLaunchDialog();
        }
    });

    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Metric Glossary"), QKeySequence::HelpContents, this, &MainWindow::showGlossary);
    QAction* aboutData = help->addAction(tr("About the &Data"), this, [this] { SimulatedDataDialog::showFor(this); });
    aboutData->setObjectName(u"aboutTheDataAction"_s);
    aboutData->setMenuRole(QAction::NoRole); // not macOS's application "About" entry, despite its name
    aboutData->setStatusTip(tr("What the simulated models and the built-in suites are, and what their numbers mean"));
    help->addSeparator();
    QAction* about = help->addAction(tr("&About StructScope"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = m_settings->recentWorkspaces();
    for (int i = 0; i < recent.size(); ++i) {
        const QString location = recent[i];
        m_recentMenu->addAction(u"&%1 %2"_s.arg(i + 1).arg(StoreLocation::withoutPassword(location)), this,
            [this, location] { openOrComplain(location, false); });
    }
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("Clear List"), m_settings, &Settings::clearRecentWorkspaces)
        ->setEnabled(!recent.isEmpty());
}

void MainWindow::updateTitle()
{
    QString title = u"StructScope"_s;
    if (m_workspace->isOpen())
        title = m_workspace->displayName() + u" — "_s + title;
    if (m_workspace->isOpen() && currentPage())
        title = currentPage()->title() + u" · "_s + title;
    setWindowTitle(title);
}

void MainWindow::updateCentralWidget()
{
    const bool open = m_workspace->isOpen();
    m_central->setCurrentIndex(open ? 1 : 0);
    for (QAction* action : std::as_const(m_workspaceActions))
        action->setEnabled(open);
    m_workspaceLabel->setText(open ? m_workspace->displayName() : tr("No workspace"));
    updateTitle();
}

bool MainWindow::openWorkspace(const QString& location, bool create, QString* error)
{
    // Opening is quick, except the first time a newer StructScope opens a large store and upgrades it (building an
    // index over a million responses takes seconds).
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const bool opened = m_workspace->open(location, create, error);
    QApplication::restoreOverrideCursor();
    if (!opened)
        return false;
    m_settings->addRecentWorkspace(location);
    m_settings->setLastWorkspace(location);
    statusBar()->showMessage(tr("Opened %1").arg(m_workspace->displayName()), kMessageMs);
    return true;
}

bool MainWindow::restoreLastWorkspace()
{
    const QString last = m_settings->lastWorkspace();
    return !last.isEmpty() && openWorkspace(last);
}

QString MainWindow::startUp(const QString& location)
{
    if (location.isEmpty()) {
        if (!restoreLastWorkspace())
            m_demo->startIfFirstStart();
        return {};
    }
    // The store asked for, not the last one: when it does not open, the window says why and stays empty.
    QString error;
    if (openWorkspace(location, false, &error))
        return {};
    const QString shown = StoreLocation::withoutPassword(location);
    auto* box = new QMessageBox(
        QMessageBox::Warning, tr("Open Workspace"), tr("Cannot open %1").arg(shown), QMessageBox::Ok, this);
    box->setObjectName(u"openFailedMessage"_s);
    box->setInformativeText(error);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    statusBar()->showMessage(tr("Cannot open %1").arg(shown), kMessageMs);
    return u"cannot open %1: %2"_s.arg(shown, error);
}

void MainWindow::openOrComplain(const QString& location, bool create)
{
    QString error;
    if (!openWorkspace(location, create, &error))
        QMessageBox::warning(
            this, tr("Open Workspace"), tr("Cannot open %1:\n%2").arg(StoreLocation::withoutPassword(location), error));
}

void MainWindow::newWorkspace()
{
    if (const QString path = askNewWorkspace(this, *m_settings); !path.isEmpty())
        openOrComplain(path, true);
}

void MainWindow::openWorkspaceDialog()
{
    if (const QString path = askOpenWorkspace(this, *m_settings); !path.isEmpty())
        openOrComplain(path, false);
}

void MainWindow::openDatabaseUrl()
{
    if (const QString url = askDatabaseUrl(this); !url.isEmpty())
        openOrComplain(url, true);
}

void MainWindow::importDialog()
{
    if (const QStringList files = askResultFiles(this, *m_settings); !files.isEmpty())
        importPaths(files);
}

void MainWindow::importSuiteDialog()
{
    if (const QString dir = askSuiteFolder(this, *m_settings, tr("Import Suite Folder")); !dir.isEmpty())
        importPaths({ dir });
}

void MainWindow::importPaths(const QStringList& paths)
{
    if (!m_workspace->isOpen()) {
        statusBar()->showMessage(tr("Open or create a workspace before importing."), kMessageMs);
        return;
    }
    startImport(classifyImportPaths(paths));
}

void MainWindow::offerImport(const QStringList& paths)
{
    if (!m_workspace->isOpen()) {
        statusBar()->showMessage(tr("Open or create a workspace before importing."), kMessageMs);
        return;
    }
    const ImportRequest request = classifyImportPaths(paths);
    if (request.isEmpty()) {
        statusBar()->showMessage(tr("Nothing to import: drop .jsonl result files or suite folders."), kMessageMs);
        return;
    }
    // Counted in words, not with tr()'s %n: without a translation loaded that would read "1 file(s)".
    const auto count = [](qsizetype n, const QString& one, const QString& many) { return n == 1 ? one : many.arg(n); };
    QStringList lines;
    if (!request.sobFiles.isEmpty())
        lines << count(request.sobFiles.size(), tr("1 result file in SOB's format (Structured Output Benchmark)"),
                     tr("%1 result files in SOB's format (Structured Output Benchmark)"))
                + u": "_s + fileNames(request.sobFiles);
    if (!request.genericFiles.isEmpty()) {
        const QStringList known = m_settings->suiteFolders(m_workspace->location());
        QString suite;
        if (!request.suiteFolders.isEmpty())
            suite = tr("scored against the suite dropped with them");
        else if (!known.isEmpty())
            suite = tr("scored against the suite %1").arg(QDir::toNativeSeparators(known.constFirst()));
        else
            suite = tr("you pick the suite they answer next");
        lines << count(request.genericFiles.size(), tr("1 generic JSONL result file"),
                     tr("%1 generic JSONL result files"))
                + u" ("_s + suite + u"): "_s + fileNames(request.genericFiles);
    }
    if (!request.suiteFolders.isEmpty())
        lines << count(request.suiteFolders.size(), tr("1 suite folder"), tr("%1 suite folders")) + u": "_s
                + fileNames(request.suiteFolders);
    if (!request.unsupported.isEmpty())
        lines << tr("Skipped, neither a .jsonl result file nor a folder with a suite.json: %1")
                     .arg(fileNames(request.unsupported));

    auto* box = new QMessageBox(QMessageBox::Question, tr("Import"),
        tr("Import into the workspace %1?").arg(m_workspace->displayName()), QMessageBox::Cancel, this);
    box->setObjectName(u"importOffer"_s);
    box->setInformativeText(lines.join(u"\n\n"_s));
    QPushButton* import = box->addButton(tr("Import"), QMessageBox::AcceptRole);
    import->setObjectName(u"importOfferAccept"_s);
    box->setDefaultButton(import);
    box->setAttribute(Qt::WA_DeleteOnClose);
    // The workspace the offer names: if another one is open by the time the user answers, nothing is imported.
    const QString workspace = m_workspace->location();
    connect(box, &QMessageBox::finished, this, [this, box, import, request, workspace] {
        if (box->clickedButton() != import)
            return;
        if (m_workspace->location() != workspace) {
            statusBar()->showMessage(tr("Not imported: the workspace changed since the drop."), kMessageMs);
            return;
        }
        startImport(request);
    });
    box->open();
}

void MainWindow::startImport(ImportRequest request)
{
    if (!m_workspace->isOpen()) {
        statusBar()->showMessage(tr("Open or create a workspace before importing."), kMessageMs);
        return;
    }
    if (request.isEmpty()) {
        statusBar()->showMessage(tr("Nothing to import: drop .jsonl result files or suite folders."), kMessageMs);
        return;
    }
    if (!request.genericFiles.isEmpty() && request.suiteFolders.isEmpty()) {
        request.genericSuite = m_settings->suiteFolders(m_workspace->location()).value(0);
        if (request.genericSuite.isEmpty())
            request.genericSuite = askSuiteFolder(this, *m_settings, tr("Which suite do these results answer?"));
        if (request.genericSuite.isEmpty())
            return;
    }
    if (!m_workspace->startImport(request)) {
        statusBar()->showMessage(tr("An import is already running."), kMessageMs);
        return;
    }
    m_activity->begin(tr("Importing"));
}

void MainWindow::importFinished(const ImportOutcome& outcome)
{
    m_activity->end();
    for (const QString& dir : outcome.importedSuiteFolders)
        m_settings->addSuiteFolder(m_workspace->location(), dir);
    statusBar()->showMessage(outcome.summary(), kMessageMs);
    if (outcome.problems.isEmpty() && outcome.error.isEmpty())
        return;
    QStringList lines;
    for (const Problem& p : outcome.problems)
        lines << (p.warning ? tr("warning: ") : tr("error: ")) + p.toString();
    // Not modal: the import is done, the list is for reading alongside the data.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Import"), outcome.summary(), QMessageBox::Close, this);
    box->setDetailedText(lines.join(u'\n'));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::exportChart()
{
    const QString path = currentPage() ? exportPageChart(this, *currentPage(), *m_settings) : QString();
    if (!path.isEmpty())
        statusBar()->showMessage(tr("Exported %1").arg(path), kMessageMs);
}

void MainWindow::exportTable()
{
    const QString path = currentPage() ? exportPageTable(this, *currentPage(), *m_settings) : QString();
    if (!path.isEmpty())
        statusBar()->showMessage(tr("Exported %1").arg(path), kMessageMs);
}

void MainWindow::showGlossary()
{
    auto* dialog = findChild<MetricGlossaryDialog*>();
    if (!dialog)
        dialog = new MetricGlossaryDialog(this);
    dialog->show();
    dialog->raise();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_settings->setWindowGeometry(saveGeometry());
    m_settings->setWindowState(saveState());
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (std::any_of(urls.begin(), urls.end(), [](const QUrl& url) { return url.isLocalFile(); }))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    event->acceptProposedAction();
    // A store file dropped alone opens it as the workspace; anything else is offered for import into it. Both after
    // the drop has returned: a dialog inside it would hold the drag source (the file manager) until it is answered.
    QMetaObject::invokeMethod(
        this,
        [this, paths] {
            if (paths.size() == 1 && isStoreFile(paths.first()))
                openOrComplain(paths.first(), false);
            else
                offerImport(paths);
        },
        Qt::QueuedConnection);
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About StructScope"),
        tr("<h3>StructScope %1</h3><p>A workbench for benchmarking structured output of language "
           "models: schema-valid is not the same as correct.</p>")
            .arg(QStringLiteral(STRUCTSCOPE_VERSION)));
}

} // namespace structscope
