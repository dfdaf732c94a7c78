#include "mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

using namespace Qt::StringLiterals;

namespace structscope {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setWindowTitle(u"StructScope"_s);
    setObjectName(u"MainWindow"_s);
    auto* welcome = new QLabel(tr("<h2>StructScope</h2><p>No workspace is open.</p>"), this);
    welcome->setAlignment(Qt::AlignCenter);
    welcome->setObjectName(u"welcomeLabel"_s);
    setCentralWidget(welcome);
    setupMenus();
    statusBar()->showMessage(tr("Ready"));
    resize(1200, 800);
    restoreWindowState();
}

MainWindow::~MainWindow() = default;

void MainWindow::setupMenus()
{
    auto* fileMenu = menuBar()->addMenu(tr("&File"));
    auto* quit = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    auto* helpMenu = menuBar()->addMenu(tr("&Help"));
    auto* about = helpMenu->addAction(tr("&About StructScope"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    helpMenu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::restoreWindowState()
{
    QSettings settings;
    restoreGeometry(settings.value(u"mainwindow/geometry"_s).toByteArray());
    restoreState(settings.value(u"mainwindow/state"_s).toByteArray());
}

void MainWindow::saveWindowState()
{
    QSettings settings;
    settings.setValue(u"mainwindow/geometry"_s, saveGeometry());
    settings.setValue(u"mainwindow/state"_s, saveState());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveWindowState();
    event->accept();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About StructScope"),
                       tr("<h3>StructScope %1</h3><p>A workbench for benchmarking structured output of language "
                          "models: schema-valid is not the same as correct.</p>")
                           .arg(QStringLiteral(STRUCTSCOPE_VERSION)));
}

} // namespace structscope
