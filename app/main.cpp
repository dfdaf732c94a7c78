// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCoreApplication>
#include <QTimer>

#include <memory>

using namespace Qt::StringLiterals;

namespace {

void setIdentity()
{
    QCoreApplication::setOrganizationName(u"StructScope"_s);
    QCoreApplication::setApplicationName(u"StructScope"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(STRUCTSCOPE_VERSION));
}

} // namespace

int main(int argc, char** argv)
{
    QStringList args;
    args.reserve(argc);
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);

    if (structscope::cli::isHeadless(args) && structscope::cli::needsGui(args)) {
        // Charts paint with QtGui/QtCharts but must never need a display.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        setIdentity();
        return structscope::cli::runHeadless(args);
    }
    if (structscope::cli::isHeadless(args)) {
        QCoreApplication app(argc, argv);
        setIdentity();
        return structscope::cli::runHeadless(args);
    }

    // `structscope PATH|URL`: a location that cannot name a store is said on stderr before anything needs a display.
    QString store;
    if (args.size() > 1 && structscope::cli::isStoreArgument(args.at(1))) {
        if (const int code = structscope::cli::storeToOpen(args.mid(0, 2), store); code != structscope::cli::ExitOk)
            return code;
    }
    QApplication app(argc, argv);
    setIdentity();
    // Again on what QApplication left of the arguments: Qt's own options (-platform …) may come before the store.
    if (const int code = structscope::cli::storeToOpen(QCoreApplication::arguments(), store);
        code != structscope::cli::ExitOk)
        return code;
    QApplication::setWindowIcon(QIcon(u":/structscope/icons/structscope.svg"_s));
    // Wayland and the desktop shell match the window to packaging/'s desktop file by this id.
    QGuiApplication::setDesktopFileName(u"io.github.structscope.StructScope"_s);
    structscope::MainWindow window;
    window.show();
    // After the first paint: opening the store (or creating the demo one) must not delay the window. A store named on
    // the command line that does not open is said in a dialog (the user may have started the app from a file
    // manager) and on stderr; the window stays, with no workspace open.
    QTimer::singleShot(0, &window, [&window, store] {
        if (const QString error = window.startUp(store); !error.isEmpty())
            structscope::cli::err(u"structscope: %1\n"_s.arg(error));
    });
    return QApplication::exec();
}
