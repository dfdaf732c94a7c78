// SPDX-License-Identifier: Apache-2.0
// Opening files like a desktop app, on the offscreen platform: the shared-mime-info type of store files
// (packaging/<app id>.xml) against real store files, what a dropped file is (a store to open, SOB or generic
// results, a suite folder), the import offer a drop of result files makes and what accepting or cancelling it
// does, the store named on the command line (MainWindow::startUp), and that Open Recent and the settings never
// hold a database password.
#include "demosetup.h"
#include "io/importjob.h"
#include "mainwindow.h"
#include "settings/settings.h"
#include "store/migrations.h"
#include "store/resultstore.h"
#include "store/storeprobe.h"
#include "uitestdata.h"
#include "workspace/workspace.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QMimeDatabase>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <QtEndian>

using namespace Qt::StringLiterals;
using namespace structscope;

namespace {

constexpr int kTimeoutMs = 60000;
const QString kMimeType = u"application/x-structscope-store"_s;
const QString kPackagingXml
    = QStringLiteral(STRUCTSCOPE_SOURCE_DIR) + u"/packaging/io.github.structscope.StructScope.xml"_s;

QString testData(const QString& path)
{
    return QStringLiteral(STRUCTSCOPE_TEST_DATA) + u'/' + path;
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

/// A SQLite file that is not a store: one table, and `applicationId` in its header.
bool makePlainSqlite(const QString& path, int applicationId = 0)
{
    bool ok = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"plain"_s);
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery query(db);
            ok = query.exec(u"CREATE TABLE notes (text TEXT)"_s)
                && query.exec(u"PRAGMA application_id = %1"_s.arg(applicationId));
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(u"plain"_s);
    return ok;
}

/// Sends a drag-enter and a drop of `paths` (local files) to the window, as a file manager would.
void dropPaths(QWidget* target, const QStringList& paths)
{
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString& p : paths)
        urls << QUrl::fromLocalFile(p);
    mime.setUrls(urls);
    QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(target, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(target, &drop);
    QVERIFY(drop.isAccepted());
}

/// The import offer the window shows after a drop (it comes up after the drop event has returned).
QMessageBox* waitForOffer(QWidget* window)
{
    QMessageBox* offer = nullptr;
    (void)QTest::qWaitFor(
        [&] {
            // An answered one may still wait for its deletion.
            for (QMessageBox* box : window->findChildren<QMessageBox*>(u"importOffer"_s))
                offer = box->isVisible() ? box : offer;
            return offer != nullptr;
        },
        10000);
    return offer;
}

qint64 responsesIn(const QString& location)
{
    auto store = ResultStore::open(location);
    if (!store)
        return -1;
    const auto runs = store->runs(); // kept: a range-for over a temporary's value() would dangle
    if (!runs)
        return -1;
    qint64 total = 0;
    for (const RunRow& run : runs.value()) {
        const auto count = store->responseCount(run.id);
        if (!count)
            return -1;
        total += count.value();
    }
    return total;
}

} // namespace

class TestOpenFiles : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QTemporaryDir m_settingsDir;
    QTemporaryDir m_mimeDir;
    QString m_store; ///< a store with the sample responses, named store.db

    /// An empty store at `path` (created, then closed).
    static bool makeStore(const QString& path) { return ResultStore::open(path) != nullptr; }

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void mimeTypeOfStoreFiles();
    void storesAreMarkedInTheirHeader();
    void droppedFileKinds_data();
    void droppedFileKinds();
    void dropOffersToImportAndCancelImportsNothing();
    void dropOfGenericResultsNamesTheirSuite();
    void dropWithoutAWorkspaceOrAnythingToImport();
    void droppingAStoreUnderAnyNameOpensIt();
    void storeFromTheCommandLineOpensInsteadOfTheLastOne();
    void storeFromTheCommandLineThatDoesNotOpenIsSaid();
    void databasePasswordNeverReachesRecentOrSettings();
};

void TestOpenFiles::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"StructScopeTests"_s);
    QCoreApplication::setApplicationName(u"tst_openfiles"_s);
    QVERIFY(m_dir.isValid());
    QVERIFY(m_settingsDir.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settingsDir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settingsDir.path());
    QSettings().clear();
    QString error;
    m_store = uitest::makeSampleStore(m_dir.path(), &error);
    QVERIFY2(!m_store.isEmpty(), qPrintable(error));

    // The MIME database of this process: the package's XML beside the system's, so that the type is looked up
    // the way a desktop does once the .deb is installed (XDG_DATA_DIRS/mime/packages). Set before the first
    // QMimeDatabase of the process.
    QVERIFY(m_mimeDir.isValid());
    QVERIFY(QDir().mkpath(m_mimeDir.filePath(u"mime/packages"_s)));
    QVERIFY(QFile::copy(kPackagingXml, m_mimeDir.filePath(u"mime/packages/io.github.structscope.StructScope.xml"_s)));
    const QString system = u"/usr/share/mime/packages/freedesktop.org.xml"_s;
    if (QFileInfo::exists(system))
        QVERIFY(QFile::copy(system, m_mimeDir.filePath(u"mime/packages/freedesktop.org.xml"_s)));
    qputenv("XDG_DATA_DIRS", QFile::encodeName(m_mimeDir.path()));
}

void TestOpenFiles::cleanupTestCase()
{
    QSettings().clear();
}

void TestOpenFiles::mimeTypeOfStoreFiles()
{
    // A store by its name, and under any other name by its header (SQLite magic + application_id).
    const QString named = m_dir.filePath(u"named.structscope"_s);
    const QString unnamed = m_dir.filePath(u"results"_s); // no suffix: no glob decides
    const QString plain = m_dir.filePath(u"plain"_s);
    QVERIFY(makeStore(named));
    QVERIFY(QFile::copy(named, unnamed));
    QVERIFY(makePlainSqlite(plain));

    QMimeDatabase db;
    const QMimeType type = db.mimeTypeForName(kMimeType);
    QVERIFY2(type.isValid(), "the packaging XML does not define the type");
    QCOMPARE(type.comment(), u"StructScope workspace"_s);
    QVERIFY(type.globPatterns().contains(u"*.structscope"_s));
    QVERIFY2(type.inherits(u"application/vnd.sqlite3"_s), qPrintable(type.parentMimeTypes().join(u", "_s)));
    QCOMPARE(db.mimeTypeForFile(named).name(), kMimeType);
    QCOMPARE(db.mimeTypeForFile(unnamed, QMimeDatabase::MatchContent).name(), kMimeType);
    QCOMPARE(db.mimeTypeForFile(unnamed).name(), kMimeType);
    QCOMPARE(db.mimeTypeForFile(m_store, QMimeDatabase::MatchContent).name(), kMimeType);
    // Other SQLite files keep their own type.
    QCOMPARE(db.mimeTypeForFile(plain, QMimeDatabase::MatchContent).name(), u"application/vnd.sqlite3"_s);
    QCOMPARE(db.mimeTypeForFile(plain).name(), u"application/vnd.sqlite3"_s);
}

void TestOpenFiles::storesAreMarkedInTheirHeader()
{
    // What the MIME magic and isMarkedStoreFile() look for: "SSst" at offset 68 of every new store.
    const QString path = m_dir.filePath(u"marked.structscope"_s);
    QVERIFY(makeStore(path));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray header = file.read(72);
    QCOMPARE(header.mid(68, 4), QByteArray("SSst"));
    QCOMPARE(qFromBigEndian<qint32>(header.constData() + 68), kSqliteApplicationId);
    QVERIFY(isMarkedStoreFile(path));
    QVERIFY(isMarkedStoreFile(m_store));

    const QString plain = m_dir.filePath(u"other-app.bin"_s);
    QVERIFY(makePlainSqlite(plain, 42));
    QVERIFY(!isMarkedStoreFile(plain));
    QVERIFY(!isMarkedStoreFile(m_dir.filePath(u"does-not-exist"_s)));
    const QString truncated = m_dir.filePath(u"truncated.bin"_s);
    QVERIFY(writeFile(truncated, header.left(70)));
    QVERIFY(!isMarkedStoreFile(truncated));
    QVERIFY(!isMarkedStoreFile(testData(u"import/results.jsonl"_s)));
}

void TestOpenFiles::droppedFileKinds_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("store");
    QTest::addColumn<int>("kind");
    QTest::newRow("store by content") << u"results.bin"_s << true << int(ImportKind::Unsupported);
    QTest::newRow("store by name") << u"named.structscope"_s << true << int(ImportKind::Unsupported);
    QTest::newRow("sqlite of another app") << u"other-app.bin"_s << false << int(ImportKind::Unsupported);
    QTest::newRow("sqlite named .db") << u"plain.db"_s << true << int(ImportKind::Unsupported);
    QTest::newRow("sob results") << u"sob.jsonl"_s << false << int(ImportKind::SobResults);
    QTest::newRow("sob after blank lines") << u"sob-blank.jsonl"_s << false << int(ImportKind::SobResults);
    QTest::newRow("generic results") << u"generic.jsonl"_s << false << int(ImportKind::GenericResults);
    QTest::newRow("sob-like without output") << u"half.jsonl"_s << false << int(ImportKind::GenericResults);
    QTest::newRow("broken first line") << u"broken.jsonl"_s << false << int(ImportKind::GenericResults);
    QTest::newRow("json, not jsonl") << u"sob.json"_s << false << int(ImportKind::Unsupported);
    QTest::newRow("suite folder") << u"suite"_s << false << int(ImportKind::SuiteFolder);
    QTest::newRow("folder without suite.json") << u"empty-folder"_s << false << int(ImportKind::Unsupported);
    QTest::newRow("missing") << u"missing.jsonl"_s << false << int(ImportKind::Unsupported);
}

void TestOpenFiles::droppedFileKinds()
{
    QFETCH(QString, path);
    QFETCH(bool, store);
    QFETCH(int, kind);
    // The fixtures, written once.
    const QDir dir(m_dir.filePath(u"kinds"_s));
    if (!dir.exists()) {
        QVERIFY(QDir().mkpath(dir.path()));
        QVERIFY(makeStore(dir.filePath(u"named.structscope"_s)));
        QVERIFY(QFile::copy(dir.filePath(u"named.structscope"_s), dir.filePath(u"results.bin"_s)));
        QVERIFY(makePlainSqlite(dir.filePath(u"other-app.bin"_s), 42));
        QVERIFY(makePlainSqlite(dir.filePath(u"plain.db"_s)));
        const QByteArray sob = uitest::readAll(testData(u"import/sob/response_model-a.jsonl"_s));
        QVERIFY(!sob.isEmpty());
        QVERIFY(writeFile(dir.filePath(u"sob.jsonl"_s), sob));
        QVERIFY(writeFile(dir.filePath(u"sob-blank.jsonl"_s), "\n   \n" + sob));
        QVERIFY(writeFile(dir.filePath(u"sob.json"_s), sob));
        QVERIFY(writeFile(dir.filePath(u"generic.jsonl"_s), uitest::readAll(testData(u"import/results.jsonl"_s))));
        QVERIFY(writeFile(dir.filePath(u"half.jsonl"_s), "{\"metadata\": {\"record_id\": \"r\"}, \"input\": {}}\n"));
        QVERIFY(writeFile(dir.filePath(u"broken.jsonl"_s), "{\"metadata\": {\n"));
        QVERIFY(QDir().mkpath(dir.filePath(u"empty-folder"_s)));
        QVERIFY(QFile::link(testData(u"import/suite"_s), dir.filePath(u"suite"_s)));
    }
    QCOMPARE(MainWindow::isStoreFile(dir.filePath(path)), store);
    QCOMPARE(int(importKindOf(dir.filePath(path))), kind);
}

void TestOpenFiles::dropOffersToImportAndCancelImportsNothing()
{
    QTemporaryDir dir;
    const QString workspace = dir.filePath(u"fresh.structscope"_s);
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openWorkspace(workspace, true));
    const QStringList files = uitest::writeSampleFiles(dir.path()).mid(0, 4); // models a and b
    const QString readme = dir.filePath(u"README.txt"_s);
    QVERIFY(writeFile(readme, "notes\n"));
    QSignalSpy finished(window.workspace(), &Workspace::importFinished);

    dropPaths(&window, files + QStringList { readme });
    QMessageBox* offer = waitForOffer(&window);
    QVERIFY(offer);
    QVERIFY(offer->isModal());
    QVERIFY2(offer->text().contains(window.workspace()->displayName()), qPrintable(offer->text()));
    const QString details = offer->informativeText();
    QVERIFY2(details.contains(u"4 result files in SOB's format"_s), qPrintable(details));
    for (const QString& file : files)
        QVERIFY2(details.contains(QFileInfo(file).fileName()), qPrintable(details));
    QVERIFY2(details.contains(u"Skipped"_s) && details.contains(u"README.txt"_s), qPrintable(details));
    QVERIFY2(!details.contains(u"generic"_s), qPrintable(details));
    const QString shots = QCoreApplication::applicationDirPath() + u"/screenshots"_s;
    QDir().mkpath(shots);
    offer->grab().save(shots + u"/import-offer.png"_s);
    offer->button(QMessageBox::Cancel)->click();
    QTRY_VERIFY(!window.findChild<QMessageBox*>(u"importOffer"_s));
    QTest::qWait(200);
    QCOMPARE(finished.size(), 0);
    QVERIFY(!window.workspace()->isImporting());
    QCOMPARE(responsesIn(workspace), qint64(0));

    // Accepted: the existing import job runs, with its progress in the status bar.
    dropPaths(&window, files);
    offer = waitForOffer(&window);
    QVERIFY(offer);
    auto* accept = offer->findChild<QPushButton*>(u"importOfferAccept"_s);
    QVERIFY(accept);
    QCOMPARE(accept->text(), u"Import"_s);
    accept->click();
    QVERIFY(window.workspace()->isImporting() || !finished.isEmpty());
    QVERIFY(finished.size() == 1 || finished.wait(kTimeoutMs));
    QCOMPARE(finished.at(0).at(0).value<ImportOutcome>().responses, qint64(20));
    QVERIFY(window.statusBar()->currentMessage().contains(u"Imported 20 response"_s));
    QCOMPARE(responsesIn(workspace), qint64(20));
}

void TestOpenFiles::dropOfGenericResultsNamesTheirSuite()
{
    QTemporaryDir dir;
    const QString workspace = dir.filePath(u"generic.structscope"_s);
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openWorkspace(workspace, true));
    const QString suite = testData(u"import/suite"_s);
    const QString results = testData(u"import/results.jsonl"_s);
    QSignalSpy finished(window.workspace(), &Workspace::importFinished);

    // With the suite dropped alongside: both in one import.
    dropPaths(&window, { results, suite });
    QMessageBox* offer = waitForOffer(&window);
    QVERIFY(offer);
    QString details = offer->informativeText();
    QVERIFY2(details.contains(u"1 generic JSONL result file (scored against the suite dropped with them)"_s),
        qPrintable(details));
    QVERIFY2(details.contains(u"1 suite folder: suite"_s), qPrintable(details));
    offer->findChild<QPushButton*>(u"importOfferAccept"_s)->click();
    QVERIFY(finished.wait(kTimeoutMs));
    const ImportOutcome outcome = finished.at(0).at(0).value<ImportOutcome>();
    QCOMPARE(outcome.suites, 1);
    QVERIFY(outcome.responses > 0);

    // Alone: the suite the workspace imported before is the one named.
    dropPaths(&window, { results });
    offer = waitForOffer(&window);
    QVERIFY(offer);
    details = offer->informativeText();
    QVERIFY2(
        details.contains(u"scored against the suite %1"_s.arg(QDir::toNativeSeparators(suite))), qPrintable(details));
    offer->button(QMessageBox::Cancel)->click();
}

void TestOpenFiles::dropWithoutAWorkspaceOrAnythingToImport()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    dropPaths(&window, { testData(u"import/results.jsonl"_s) });
    QTRY_VERIFY(window.statusBar()->currentMessage().contains(u"Open or create a workspace"_s));
    QVERIFY(!window.findChild<QMessageBox*>(u"importOffer"_s));

    QTemporaryDir dir;
    QVERIFY(window.openWorkspace(dir.filePath(u"w.structscope"_s), true));
    const QString text = dir.filePath(u"notes.txt"_s);
    QVERIFY(writeFile(text, "notes\n"));
    const QString other = dir.filePath(u"other.txt"_s);
    QVERIFY(writeFile(other, "more\n"));
    dropPaths(&window, { text, other });
    QTRY_VERIFY(window.statusBar()->currentMessage().contains(u"Nothing to import"_s));
    QVERIFY(!window.findChild<QMessageBox*>(u"importOffer"_s));
}

void TestOpenFiles::droppingAStoreUnderAnyNameOpensIt()
{
    const QString copy = m_dir.filePath(u"sample-copy.bin"_s);
    QVERIFY(QFile::copy(m_store, copy));
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    dropPaths(&window, { copy });
    QTRY_VERIFY(window.workspace()->isOpen());
    QCOMPARE(window.workspace()->location(), copy);
    QVERIFY(!window.findChild<QMessageBox*>(u"importOffer"_s));
}

void TestOpenFiles::storeFromTheCommandLineOpensInsteadOfTheLastOne()
{
    QSettings().clear();
    const QString other = m_dir.filePath(u"other.structscope"_s);
    QVERIFY(makeStore(other));
    Settings settings;
    settings.setLastWorkspace(m_store);
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.startUp(other), QString());
    QVERIFY(window.workspace()->isOpen());
    QCOMPARE(window.workspace()->location(), other);
    QCOMPARE(settings.lastWorkspace(), other);
    QCOMPARE(settings.recentWorkspaces().value(0), other);
    QVERIFY(!window.demoSetup()->isRunning());
    QVERIFY(!window.findChild<QMessageBox*>(u"openFailedMessage"_s));
}

void TestOpenFiles::storeFromTheCommandLineThatDoesNotOpenIsSaid()
{
    QSettings().clear();
    Settings settings;
    settings.setLastWorkspace(m_store);
    const QString bogus = m_dir.filePath(u"bogus.structscope"_s);
    QVERIFY(writeFile(bogus, "this is not SQLite\n"));
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QString error = window.startUp(bogus);
    QVERIFY2(error.startsWith(u"cannot open %1: "_s.arg(bogus)), qPrintable(error));
    QVERIFY2(error.contains(u"not a SQLite database"_s), qPrintable(error));
    // Not the last workspace instead, and no demo: the window waits with the reason in a dialog.
    QVERIFY(!window.workspace()->isOpen());
    QVERIFY(!window.demoSetup()->isRunning());
    auto* box = window.findChild<QMessageBox*>(u"openFailedMessage"_s);
    QVERIFY(box);
    QTRY_VERIFY(box->isVisible());
    QVERIFY(box->text().contains(bogus));
    QVERIFY(box->informativeText().contains(u"not a SQLite database"_s));
    QCOMPARE(settings.lastWorkspace(), m_store);
    QVERIFY(!settings.recentWorkspaces().contains(bogus));
    box->accept();
}

void TestOpenFiles::databasePasswordNeverReachesRecentOrSettings()
{
    // A server that is not there (port 1 on loopback): the open fails, and neither the dialog, nor the error,
    // nor the settings hold the password.
    QSettings().clear();
    const QString url = u"postgresql://alice:pa55word@127.0.0.1:1/structscope?connect_timeout=2"_s;
    {
        MainWindow window;
        const QString error = window.startUp(url);
        QVERIFY(!error.isEmpty());
        QVERIFY2(!error.contains(u"pa55word"_s), qPrintable(error));
        QVERIFY2(error.contains(u"alice@127.0.0.1"_s), qPrintable(error));
        auto* box = window.findChild<QMessageBox*>(u"openFailedMessage"_s);
        QVERIFY(box);
        QVERIFY(!QString(box->text() + box->informativeText()).contains(u"pa55word"_s));
        QVERIFY(window.settings()->recentWorkspaces().isEmpty());
    }

    // A server that is there (scripts/start-test-postgres.sh): the workspace opens, and Open Recent, the last
    // workspace and the settings file have the URL without its password; the entry opens it again (libpq then
    // takes the password from PGPASSWORD or ~/.pgpass).
    const QString pg = qEnvironmentVariable("STRUCTSCOPE_TEST_PG");
    if (pg.isEmpty())
        QSKIP("STRUCTSCOPE_TEST_PG is not set (export STRUCTSCOPE_TEST_PG=$(scripts/start-test-postgres.sh))");
    const QUrl pgUrl(pg);
    QVERIFY2(!pgUrl.password().isEmpty(), "the test server's URL has no password to leave out");
    const QString password = pgUrl.password();
    // The password as it sits in a URL (the test server's is also its user's and database's name).
    const QString userInfo = pgUrl.userName() + u':' + password + u'@';
    QUrl schemaUrl = pgUrl;
    schemaUrl.setQuery(u"schema=openfiles_recent"_s);
    const QString withPassword = schemaUrl.toString();
    QUrl clean = schemaUrl;
    clean.setPassword({});
    MainWindow window;
    QVERIFY(window.openWorkspace(withPassword, true));
    QCOMPARE(window.settings()->recentWorkspaces().value(0), clean.toString());
    QCOMPARE(window.settings()->lastWorkspace(), clean.toString());
    QFile file(QSettings().fileName());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(!file.readAll().contains(userInfo.toUtf8()));
    QMenu* recent = nullptr;
    for (QMenu* menu : window.menuBar()->findChildren<QMenu*>()) {
        if (menu->title() == u"Open &Recent"_s)
            recent = menu;
    }
    QVERIFY(recent);
    QVERIFY(!recent->actions().isEmpty());
    const QString entry = recent->actions().constFirst()->text();
    QVERIFY2(entry.contains(clean.toString()), qPrintable(entry));
    for (QAction* action : recent->actions())
        QVERIFY2(!action->text().contains(userInfo), qPrintable(action->text()));
    qputenv("PGPASSWORD", password.toUtf8());
    window.workspace()->close();
    recent->actions().constFirst()->trigger();
    QVERIFY(window.workspace()->isOpen());
    qunsetenv("PGPASSWORD");
}

QTEST_MAIN(TestOpenFiles)
#include "tst_openfiles.moc"
