#pragma once

#include <QMainWindow>

namespace structscope {

/// The application window. It only wires pages, menus and the status bar together.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void setupMenus();
    void restoreWindowState();
    void saveWindowState();
    void showAbout();
};

} // namespace structscope
