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

    QApplication app(argc, argv);
    setIdentity();
    QApplication::setWindowIcon(QIcon(u":/structscope/icons/structscope.svg"_s));
    // Wayland and the desktop shell match the window to packaging/'s desktop file by this id.
    QGuiApplication::setDesktopFileName(u"io.github.structscope.StructScope"_s);
    structscope::MainWindow window;
    window.show();
    // After the first paint: opening the store (or creating the demo one) must not delay the window.
    QTimer::singleShot(0, &window, [&window] { window.startUp(); });
    return QApplication::exec();
}
