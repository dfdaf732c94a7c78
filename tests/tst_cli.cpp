// SPDX-License-Identifier: Apache-2.0
// The command line: help, exit codes, `check` on good and broken suites, and `structscope PATH|URL` (the GUI opens
// that store, or says on stderr why it cannot).
#include "audit/goldeditor.h"
#include "overlapfixtures.h"
#include "providers/modelspec.h"
#include "report/evaluation.h"
#include "run/runsetup.h"
#include "store/resultstore.h"
#include "suite/suiteloader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run runCli(const QStringList& args)
{
    QProcess process;
    process.start(QStringLiteral(STRUCTSCOPE_BINARY), args);
    if (!process.waitForFinished(60000))
        return {};
    return { process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2,
        QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError()) };
}

QString testData(const QString& path)
{
    return QStringLiteral(STRUCTSCOPE_TEST_DATA) + u'/' + path;
}

/// `structscope ARGS` as a desktop session would start it: in `workDir`, on the offscreen platform, with settings
/// (XDG_CONFIG_HOME) and application data (XDG_DATA_HOME) of its own under `home`.
struct GuiProcess
{
    QProcess process;
    QString home;

    GuiProcess(const QString& homeDir, const QString& workDir, const QStringList& args, bool offscreenByEnv = true)
        : home(homeDir)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(u"QT_QPA_PLATFORM"_s);
        if (offscreenByEnv)
            env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
        env.insert(u"XDG_CONFIG_HOME"_s, home + u"/config"_s);
        env.insert(u"XDG_DATA_HOME"_s, home + u"/data"_s);
        process.setProcessEnvironment(env);
        process.setWorkingDirectory(workDir);
        process.start(QStringLiteral(STRUCTSCOPE_BINARY), args);
    }
    ~GuiProcess()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(10000);
        }
    }
    /// The settings file of the app, as text ("" while there is none).
    QString settings() const
    {
        QFile file(home + u"/config/StructScope/StructScope.conf"_s);
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }
    /// Waits until the app remembers `location` as its workspace (it opened it), or it ends, or a minute passed.
    bool waitUntilOpened(const QString& location)
    {
        return QTest::qWaitFor(
                   [&] {
                       return process.state() == QProcess::NotRunning
                           || settings().contains(u"last="_s + location + u'\n');
                   },
                   60000)
            && process.state() == QProcess::Running;
    }
};

// SOB response files of three models x, y and z on 13 records, built so that the pairs of grounding.perfect can be
// worked out by hand (1: the candidate equals the ground truth; 0: it is a string, not parsed):
//   r-01..r-05  x 0, y 1, z 1      r-06..r-08  x 0, y 0, z 1      r-09  x 0, y 1, z 0
//   r-10..r-11  all 1              r-12..r-13  all 0
// x–y: n 13, b 0, c 6, Δ = 600/13 = +46.2 points, McNemar p = 2/2⁶ = 0.03125, Holm 2·p = 0.0625.
// x–z: b 0, c 8, Δ = 800/13 = +61.5, p = 2/2⁸ = 0.0078125, Holm 3·p = 0.0234375 (significant).
// y–z: b 1, c 3, Δ = 200/13 = +15.4, p = 2·(1 + 4)/2⁴ = 0.625, Holm 0.625.
// BH: x–y 3·0.03125/2 = 0.046875 (significant too), x–z 0.0234375, y–z 0.625.
QStringList writePairsFiles(const QString& dir)
{
    const auto outcome = [](int record, int model) {
        static const int rows[13][3] = { { 0, 1, 1 }, { 0, 1, 1 }, { 0, 1, 1 }, { 0, 1, 1 }, { 0, 1, 1 }, { 0, 0, 1 },
            { 0, 0, 1 }, { 0, 0, 1 }, { 0, 1, 0 }, { 1, 1, 1 }, { 1, 1, 1 }, { 0, 0, 0 }, { 0, 0, 0 } };
        return rows[record][model] == 1;
    };
    QStringList files;
    const char* models[] = { "x", "y", "z" };
    for (int m = 0; m < 3; ++m) {
        const QString path = dir + u"/response_"_s + QString::fromLatin1(models[m]) + u".jsonl"_s;
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return {};
        for (int r = 0; r < 13; ++r) {
            const QJsonObject person { { u"name"_s, u"Alice"_s }, { u"age"_s, 30 } };
            const QJsonObject schema { { u"type"_s, u"object"_s },
                { u"properties"_s,
                    QJsonObject { { u"name"_s, QJsonObject { { u"type"_s, u"string"_s } } },
                        { u"age"_s, QJsonObject { { u"type"_s, u"integer"_s } } } } },
                { u"required"_s, QJsonArray { u"name"_s } } };
            const QJsonObject line {
                { u"metadata"_s,
                    QJsonObject { { u"record_id"_s, u"r-%1"_s.arg(r + 1, 2, 10, QChar(u'0')) },
                        { u"model_id"_s, QString::fromLatin1(models[m]) } } },
                { u"input"_s,
                    QJsonObject { { u"context"_s, u"Alice is 30 years old."_s },
                        { u"question"_s, u"Extract the person."_s }, { u"json_schema"_s, schema } } },
                { u"output"_s,
                    QJsonObject {
                        { u"candidate_response"_s, outcome(r, m) ? QJsonValue(person) : QJsonValue(u"Alice, 30"_s) },
                        { u"ground_truth"_s, person } } },
            };
            file.write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
        }
        files << path;
    }
    return files;
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void helpListsEverySubcommand();
    void versionPrints();
    void everySubcommandIsBuilt();
    void unknownCommandIsAUsageError();
    void storeThatCannotOpenFailsBeforeAnyWindow_data();
    void storeThatCannotOpenFailsBeforeAnyWindow();
    void storeArgumentOpensItInTheGui();
    void storeThatDoesNotOpenInTheGuiIsSaidThereAndOnStderr();
    void checkNeedsASuite();
    void checkAcceptsACleanSuite();
    void checkListsEveryProblemWithItsPlace();
    // A line that is not JSON hides nothing: the lines that parse and the example are still checked in full, and
    // every problem is listed with its place before the suite is refused.
    void checkListsEveryProblemDespiteABrokenLine();
    void reportRefusesBadArguments_data();
    void reportRefusesBadArguments();
    void reportOnAMissingStoreFails();
    void importRefusesBadArguments_data();
    void importRefusesBadArguments();
    // The whole path a SOB user takes: import response files, then report. The means are worked out by
    // hand from tests/data/grounding/EXPECTED.md (model-a's six text records, weights 3,2,1,3,2,1).
    void importThenReportReproducesHandComputedMeans();
    // Scored without a store, a file with a broken line still gives the report of the rest; the line is named and
    // the exit code says something was refused.
    void reportFromFilesNamesMalformedLinesAndReportsTheRest();
    void importReportsMalformedLinesAndKeepsTheRest();
    void importGenericJsonlWithAFieldMap();
    void importIntoACorruptStoreChangesNothing();
    void checkOnAMissingFolder();
    void checkFindsABuiltInSuiteByName();
    // A store can come from anyone: a run planted in it with its own endpoint, key variable and `$VAR`
    // header makes `run --resume` send nothing, and say which origin would get which variables.
    void resumeSendsNoSecretToAPlantedEndpoint();
    // A key over plain http to a host that is not loopback is refused before anything is sent.
    void runRefusesAnInsecureKey();
    // A run whose every slot failed at the transport measured nothing: `run` says so and exits 1, so that a
    // script does not take it for a result.
    void runWithoutASingleAnswerFails();
    void auditAndGoldRefuseBadArguments_data();
    void auditAndGoldRefuseBadArguments();
    void tamperedStoreIsAnErrorNotACrash();
    void auditQueueThenGoldExportRoundTrip();
    // After c-1's gold age is corrected from 14 to 41, `report --gold both` lists each model twice, measured
    // then adjusted. ladder.correct by hand (tests/data/audit/README.md): m-a answers 41/Bergen/dog, so 0 of 3
    // measured and 1 of 3 adjusted; m-d answers 14 and fish: 1 of 2 measured, 0 of 2 adjusted.
    void reportShowsBothGoldBasesSideBySide();
    // Failure overlaps, from the hand-built store of overlapfixtures.h to the chart files and the region counts.
    void overlapsFromStoreToChartAndCounts();
    void overlapsRefuseBadArguments_data();
    void overlapsRefuseBadArguments();
    void reportPairsInEveryFormat();
    void reportPairsExplainsWhatItCannotCompare();
};

void TestCli::helpListsEverySubcommand()
{
    const Run run = runCli({ u"--help"_s });
    QCOMPARE(run.exitCode, 0);
    for (const char* command :
        { "run", "import", "check", "report", "chart", "audit", "gold export", "serve-sim", "demo" })
        QVERIFY2(run.out.contains(u"structscope "_s + QLatin1String(command)), command);
}

void TestCli::versionPrints()
{
    const Run run = runCli({ u"--version"_s });
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.startsWith(u"structscope "_s));
}

void TestCli::everySubcommandIsBuilt()
{
    // The last one (demo) was built: none is listed as missing, and demo answers with its own usage.
    const Run help = runCli({ u"--help"_s });
    QVERIFY2(!help.out.contains(u"not built yet)"_s), qPrintable(help.out));
    const Run run = runCli({ u"demo"_s });
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(u"--out DIR is required"_s), qPrintable(run.err));
    QVERIFY(!run.err.contains(u"not built yet"_s));
}

void TestCli::unknownCommandIsAUsageError()
{
    const Run run = runCli({ u"frobnicate"_s });
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains(u"unknown command 'frobnicate'"_s));
}

void TestCli::storeThatCannotOpenFailsBeforeAnyWindow_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing, absolute") << QStringList { u"/nonexistent/none.structscope"_s } << 1
                                       << u"cannot open /nonexistent/none.structscope: no such file"_s;
    QTest::newRow("missing, relative") << QStringList { u"none.structscope"_s } << 1
                                       << u"cannot open none.structscope: no such file"_s;
    QTest::newRow("missing, named like a subcommand")
        << QStringList { u"./report"_s } << 1 << u"cannot open ./report: no such file"_s;
    QTest::newRow("folder") << QStringList { u"./"_s } << 1 << u"a folder, not a store file"_s;
    QTest::newRow("two stores") << QStringList { u"a.structscope"_s, u"b.structscope"_s } << 2
                                << u"one workspace at a time; 2 were given"_s;
    QTest::newRow("url without database")
        << QStringList { u"postgresql://alice:s3cret@localhost/"_s } << 2
        << u"cannot open postgresql://alice@localhost/: the PostgreSQL URL names no database"_s;
    QTest::newRow("unsupported scheme") << QStringList { u"ftp://example.org/x.structscope"_s } << 2
                                        << u"unsupported store location \"ftp://…\""_s;
    QTest::newRow("subcommand after Qt's options")
        << QStringList { u"-platform"_s, u"offscreen"_s, u"report"_s } << 2 << u"the subcommand 'report' comes first"_s;
    QTest::newRow("no store, no subcommand") << QStringList { u"reprot"_s } << 2 << u"unknown command 'reprot'"_s;
}

void TestCli::storeThatCannotOpenFailsBeforeAnyWindow()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QTemporaryDir home;
    QTemporaryDir work;
    for (const QString& name : { u"a.structscope"_s, u"b.structscope"_s })
        QVERIFY(structscope::ResultStore::open(work.filePath(name)));
    GuiProcess gui(home.path(), work.path(), args);
    QVERIFY(gui.process.waitForFinished(60000));
    const QString err = QString::fromUtf8(gui.process.readAllStandardError());
    QCOMPARE(gui.process.exitCode(), exitCode);
    QVERIFY2(err.contains(message), qPrintable(err));
    QVERIFY2(!err.contains(u"s3cret"_s), qPrintable(err));
    QVERIFY2(gui.settings().isEmpty(), qPrintable(gui.settings()));
}

void TestCli::storeArgumentOpensItInTheGui()
{
    QTemporaryDir home;
    QTemporaryDir work;
    // A store in a file named like a subcommand: the subcommand wins, ./report opens the file.
    const QString store = work.filePath(u"report"_s);
    QVERIFY(structscope::ResultStore::open(store));
    const Run subcommand = [&] {
        GuiProcess gui(home.path(), work.path(), { u"report"_s });
        gui.process.waitForFinished(60000);
        return Run { gui.process.exitCode(), QString::fromUtf8(gui.process.readAllStandardOutput()),
            QString::fromUtf8(gui.process.readAllStandardError()) };
    }();
    QCOMPARE(subcommand.exitCode, 2);
    QVERIFY2(subcommand.err.contains(u"structscope report: "_s), qPrintable(subcommand.err));

    {
        GuiProcess gui(home.path(), work.path(), { u"./report"_s });
        QVERIFY2(gui.waitUntilOpened(store),
            qPrintable(gui.settings() + QString::fromUtf8(gui.process.readAllStandardError())));
        QVERIFY2(gui.settings().contains(u"recent="_s + store), qPrintable(gui.settings()));
        // A first start given a store opens it; the demo workspace is not made.
        QVERIFY(!QFileInfo::exists(home.filePath(u"data/StructScope/StructScope/demo.structscope"_s)));
    }
    // Qt's own options may come first; the store named replaces the last workspace.
    const QString other = work.filePath(u"other.structscope"_s);
    QVERIFY(structscope::ResultStore::open(other));
    GuiProcess gui(home.path(), work.path(), { u"-platform"_s, u"offscreen"_s, other }, false);
    QVERIFY2(
        gui.waitUntilOpened(other), qPrintable(gui.settings() + QString::fromUtf8(gui.process.readAllStandardError())));
}

void TestCli::storeThatDoesNotOpenInTheGuiIsSaidThereAndOnStderr()
{
    QTemporaryDir home;
    QTemporaryDir work;
    const QString bogus = work.filePath(u"bogus.structscope"_s);
    QFile file(bogus);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("this is not SQLite\n");
    file.close();
    GuiProcess gui(home.path(), work.path(), { bogus });
    QString err;
    QVERIFY(QTest::qWaitFor(
        [&] {
            err += QString::fromUtf8(gui.process.readAllStandardError());
            return err.contains(u"structscope: cannot open"_s) || gui.process.state() == QProcess::NotRunning;
        },
        60000));
    QVERIFY2(err.contains(u"structscope: cannot open %1: "_s.arg(bogus)), qPrintable(err));
    QVERIFY2(err.contains(u"not a SQLite database"_s), qPrintable(err));
    // The window stays (its dialog says the same), with no workspace open.
    QTest::qWait(300);
    QCOMPARE(gui.process.state(), QProcess::Running);
    QVERIFY(!gui.settings().contains(bogus));
}

void TestCli::checkNeedsASuite()
{
    Run run = runCli({ u"check"_s });
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains(u"--suite DIR is required"_s));
    run = runCli({ u"check"_s, u"--suite"_s });
    QCOMPARE(run.exitCode, 2);
    run = runCli({ u"check"_s, u"--bogus"_s });
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains(u"bogus"_s));
}

void TestCli::checkAcceptsACleanSuite()
{
    const Run run = runCli({ u"check"_s, u"--suite"_s, testData(u"suite/valid"_s) });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(run.out.contains(u"tiny (Tiny suite 0.1.0): OK"_s));
    QVERIFY(run.out.contains(u"cases: 2"_s));
    QVERIFY(run.out.contains(u"schemas: 1"_s));
    QVERIFY(run.out.contains(u"simple: 2"_s));
}

void TestCli::checkListsEveryProblemWithItsPlace()
{
    const Run run = runCli({ u"check"_s, u"--suite"_s, testData(u"suite/broken"_s) });
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(u"cases.jsonl:1: /gold/items/0/quantity: "_s), qPrintable(run.err));
    QVERIFY2(run.err.contains(u"cases.jsonl:2: /id: case id \"o-1\" is already used on line 1"_s), qPrintable(run.err));
    QVERIFY2(run.err.contains(u"cases.jsonl:2: /gold/status: "_s), qPrintable(run.err));
    QVERIFY2(
        run.err.contains(u"cases.jsonl:3: /category: category \"unknown\" is not declared"_s), qPrintable(run.err));
    QVERIFY(run.err.contains(u"4 problem(s); the suite is refused"_s));
    QVERIFY(run.out.isEmpty());
}

void TestCli::checkListsEveryProblemDespiteABrokenLine()
{
    const Run run = runCli({ u"check"_s, u"--suite"_s, testData(u"suite/broken-line"_s) });
    QCOMPARE(run.exitCode, 1);
    const QStringList expected = {
        u"cases.jsonl:3:"_s, // the broken line, with its column
        u"cases.jsonl:2: /gold/status: gold does not match its schema"_s,
        u"cases.jsonl:4: /id: case id \"o-1\" is already used on line 1"_s,
        u"cases.jsonl:5: /category: category \"unknown\" is not declared"_s,
        u"suite.json: /examples/order/output/items/0/quantity: the example output does not match its schema"_s,
    };
    for (const QString& part : expected)
        QVERIFY2(run.err.contains(part), qPrintable(u"no \"%1\" in:\n%2"_s.arg(part, run.err)));
    QVERIFY2(run.err.contains(QRegularExpression(u"cases\\.jsonl:3:\\d+: invalid JSON"_s)), qPrintable(run.err));
    QVERIFY2(run.err.contains(u"5 problem(s); the suite is refused"_s), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
}

void TestCli::reportRefusesBadArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::addRow("no store") << QStringList { u"report"_s, u"--format"_s, u"json"_s } << u"--store DB"_s;
    QTest::addRow("bad format") << QStringList { u"report"_s, u"--store"_s, u"x.db"_s, u"--format"_s, u"xml"_s }
                                << u"unknown format 'xml'"_s;
    QTest::addRow("bad key") << QStringList { u"report"_s, u"--store"_s, u"x.db"_s, u"--format"_s, u"md"_s, u"--by"_s,
        u"colour"_s } << u"cannot group by 'colour'"_s;
    QTest::addRow("bad family") << QStringList { u"report"_s, u"--store"_s, u"x.db"_s, u"--format"_s, u"md"_s,
        u"--metrics"_s, u"vibes"_s }
                                << u"unknown metric family 'vibes'"_s;
    QTest::addRow("bad gold") << QStringList { u"report"_s, u"--store"_s, u"x.db"_s, u"--format"_s, u"md"_s,
        u"--gold"_s, u"latest"_s }
                              << u"--gold must be measured, adjusted or both"_s;
    const QString file = testData(u"grounding/response_model-a.jsonl"_s);
    QTest::addRow("sob and a store") << QStringList { u"report"_s, u"--sob"_s, u"--store"_s, u"x.db"_s, u"--format"_s,
        u"json"_s, file } << u"give one or the other"_s;
    QTest::addRow("sob without files") << QStringList { u"report"_s, u"--sob"_s, u"--format"_s, u"json"_s }
                                       << u"--sob needs at least one FILE"_s;
    QTest::addRow("sob keeping verdicts") << QStringList { u"report"_s, u"--sob"_s, u"--format"_s, u"json"_s,
        u"--keep-verdicts"_s, file } << u"--keep-verdicts needs a store"_s;
    QTest::addRow("sob adjusted gold") << QStringList { u"report"_s, u"--sob"_s, u"--format"_s, u"json"_s, u"--gold"_s,
        u"adjusted"_s, file } << u"--gold adjusted needs a store"_s;
    QTest::addRow("sob missing file") << QStringList { u"report"_s, u"--sob"_s, u"--format"_s, u"json"_s,
        u"/nonexistent/response_x.jsonl"_s }
                                      << u"/nonexistent/response_x.jsonl: no such file"_s;
    QTest::addRow("sob bad modality") << QStringList { u"report"_s, u"--sob"_s, u"--format"_s, u"json"_s,
        u"--modality"_s, u"smell"_s, file }
                                      << u"unknown modality 'smell'"_s;
    QTest::addRow("sob bad format") << QStringList { u"report"_s, u"--sob"_s, u"--format"_s, u"xml"_s, file }
                                    << u"unknown format 'xml'"_s;
    QTest::addRow("a file without sob") << QStringList { u"report"_s, u"--store"_s, u"x.db"_s, u"--format"_s, u"json"_s,
        file } << u"response files are read with --sob"_s;
    QTest::addRow("modality without sob")
        << QStringList { u"report"_s, u"--store"_s, u"x.db"_s, u"--format"_s, u"json"_s, u"--modality"_s, u"text"_s }
        << u"--modality applies to --sob only"_s;
    const QStringList pairs { u"report"_s, u"--store"_s, u"x.db"_s, u"--format"_s, u"md"_s, u"--pairs"_s };
    QTest::addRow("pairs bad adjust") << (pairs + QStringList { u"--adjust"_s, u"bonferroni"_s })
                                      << u"--adjust must be holm or bh, not 'bonferroni'"_s;
    QTest::addRow("pairs unknown metric") << (pairs + QStringList { u"--metric"_s, u"ladder.nope"_s })
                                          << u"unknown metric 'ladder.nope' for --pairs; metrics compared case by "
                                             u"case: ladder.correct"_s;
    QTest::addRow("pairs by category") << (pairs + QStringList { u"--by"_s, u"model,category"_s })
                                       << u"with --pairs, --by is model, strategy or model,strategy"_s;
    QTest::addRow("pairs gold both") << (pairs + QStringList { u"--gold"_s, u"both"_s })
                                     << u"--pairs compares on one gold basis"_s;
    QTest::addRow("pairs and families") << (pairs + QStringList { u"--metrics"_s, u"ladder"_s })
                                        << u"--metrics does not apply to --pairs"_s;
    QTest::addRow("adjust without pairs") << QStringList { u"report"_s, u"--store"_s, u"x.db"_s, u"--format"_s, u"md"_s,
        u"--adjust"_s, u"bh"_s } << u"--adjust applies to --pairs only"_s;
    QTest::addRow("metric without pairs") << QStringList { u"report"_s, u"--store"_s, u"x.db"_s, u"--format"_s, u"md"_s,
        u"--metric"_s, u"ladder.correct"_s }
                                          << u"--metric applies to --pairs only"_s;
}

void TestCli::reportRefusesBadArguments()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run run = runCli(args);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(message), qPrintable(run.err));
}

void TestCli::reportOnAMissingStoreFails()
{
    const Run run = runCli({ u"report"_s, u"--store"_s, u"/nonexistent/none.db"_s, u"--format"_s, u"json"_s });
    QCOMPARE(run.exitCode, 1);
    QVERIFY(run.out.isEmpty());
    QVERIFY(!run.err.isEmpty());
}

void TestCli::importRefusesBadArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QString file = testData(u"grounding/response_model-a.jsonl"_s);
    QTest::addRow("no format") << QStringList { u"import"_s, u"--store"_s, u"x.db"_s, file } << u"--format"_s;
    QTest::addRow("no file") << QStringList { u"import"_s, u"--format"_s, u"sob"_s, u"--store"_s, u"x.db"_s }
                             << u"at least one FILE"_s;
    QTest::addRow("bad format") << QStringList { u"import"_s, u"--format"_s, u"csv"_s, u"--store"_s, u"x.db"_s, file }
                                << u"unknown format 'csv'"_s;
    QTest::addRow("bad modality") << QStringList { u"import"_s, u"--format"_s, u"sob"_s, u"--modality"_s, u"smell"_s,
        u"--store"_s, u"x.db"_s, file }
                                  << u"unknown modality 'smell'"_s;
    QTest::addRow("jsonl without suite") << QStringList { u"import"_s, u"--format"_s, u"jsonl"_s, u"--store"_s,
        u"x.db"_s, file } << u"needs --suite"_s;
    QTest::addRow("bad field map") << QStringList { u"import"_s, u"--format"_s, u"jsonl"_s, u"--suite"_s,
        testData(u"import/suite"_s), u"--field-map"_s, u"colour=x"_s, u"--store"_s, u"x.db"_s, file }
                                   << u"--field-map"_s;
    QTest::addRow("missing file") << QStringList { u"import"_s, u"--format"_s, u"sob"_s, u"--store"_s, u"x.db"_s,
        u"/nonexistent/r.jsonl"_s }
                                  << u"/nonexistent/r.jsonl: no such file"_s;
}

void TestCli::importRefusesBadArguments()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // Relative store paths land in the test's temporary folder, which must stay empty.
    QProcess process;
    process.setWorkingDirectory(dir.path());
    process.start(QStringLiteral(STRUCTSCOPE_BINARY), args);
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 2);
    const QString errText = QString::fromUtf8(process.readAllStandardError());
    QVERIFY2(errText.contains(message), qPrintable(errText));
    QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
}

void TestCli::importThenReportReproducesHandComputedMeans()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString store = dir.filePath(u"sob.db"_s);
    Run run = runCli({ u"import"_s, u"--format"_s, u"sob"_s, u"--store"_s, store,
        testData(u"grounding/response_model-a.jsonl"_s), u"--no-keep-verdicts"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.contains(u"imported 6 response(s) from 1 file(s)"_s), qPrintable(run.out));
    {
        auto imported = structscope::ResultStore::open(store);
        QVERIFY(imported);
        QCOMPARE(imported->storedVerdictCount().value(), 0);
    }

    run = runCli({ u"report"_s, u"--store"_s, store, u"--format"_s, u"json"_s, u"--metrics"_s, u"grounding"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject report = QJsonDocument::fromJson(run.out.toUtf8()).object();
    const QJsonArray groups = report.value(u"groups"_s).toArray();
    QCOMPARE(groups.size(), 1);
    const QJsonObject group = groups.first().toObject();
    QCOMPARE(group.value(u"key"_s).toObject().value(u"model"_s).toString(), u"demo/model-a"_s);
    QCOMPARE(group.value(u"n"_s).toInt(), 6);
    const QJsonObject mean = group.value(u"mean"_s).toObject();
    const QJsonObject weighted = group.value(u"weighted_mean"_s).toObject();
    // value_accuracy: 1, 0.75, 0, 0, 0, 0.
    QVERIFY(qAbs(mean.value(u"grounding.value_accuracy"_s).toDouble() - 1.75 / 6) < 1e-12);
    QVERIFY(qAbs(weighted.value(u"grounding.value_accuracy"_s).toDouble() - (3 * 1 + 2 * 0.75) / 12) < 1e-12);
    // faithfulness: 1, 23/24, 0, 0, 0, 0.
    QVERIFY(qAbs(mean.value(u"grounding.faithfulness"_s).toDouble() - (1 + 23.0 / 24) / 6) < 1e-12);
    // json_pass: 1, 1, 1, 0, 0, 1.
    QVERIFY(qAbs(mean.value(u"grounding.json_pass"_s).toDouble() - 4.0 / 6) < 1e-12);
    // path_recall: 1, 1, 2/3, 0, 0, 1.
    QVERIFY(qAbs(mean.value(u"grounding.path_recall"_s).toDouble() - (3 + 2.0 / 3) / 6) < 1e-12);
    const QJsonArray ci = group.value(u"ci95"_s).toObject().value(u"grounding.value_accuracy"_s).toArray();
    QCOMPARE(ci.size(), 2);
    QVERIFY(ci.at(0).toDouble() <= ci.at(1).toDouble());

    // The same file scored without a store (report --sob): the same report, byte for byte, and nothing written.
    const QString before = run.out;
    const QStringList filesInDir = QDir(dir.path()).entryList(QDir::Files);
    run = runCli({ u"report"_s, u"--sob"_s, u"--format"_s, u"json"_s, u"--metrics"_s, u"grounding"_s,
        testData(u"grounding/response_model-a.jsonl"_s) });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out, before);
    QVERIFY2(run.err.contains(u"structscope report: scored 6 response(s) from 1 file(s)"_s), qPrintable(run.err));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), filesInDir);
    // By field too (a report of fields reads the verdicts' field tallies, which a report of metrics goes without).
    const QStringList byField { u"--format"_s, u"json"_s, u"--by"_s, u"model,field"_s };
    run = runCli(QStringList { u"report"_s, u"--store"_s, store } + byField);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QString fieldsFromStore = run.out;
    QVERIFY2(QJsonDocument::fromJson(fieldsFromStore.toUtf8()).object().value(u"groups"_s).toArray().size() > 1,
        qPrintable(fieldsFromStore));
    run = runCli(QStringList { u"report"_s, u"--sob"_s } + byField
        + QStringList { testData(u"grounding/response_model-a.jsonl"_s) });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out, fieldsFromStore);

    // --keep-verdicts: the same report, and the store keeps the six verdicts; a later report reads them.
    run = runCli({ u"report"_s, u"--store"_s, store, u"--format"_s, u"json"_s, u"--metrics"_s, u"grounding"_s,
        u"--keep-verdicts"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out, before);
    {
        auto kept = structscope::ResultStore::open(store);
        QVERIFY(kept);
        QCOMPARE(kept->storedVerdictCount().value(), 6);
        const structscope::Evaluation read = structscope::evaluateStore(*kept);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.stored, 6);
    }
    run = runCli({ u"report"_s, u"--store"_s, store, u"--format"_s, u"json"_s, u"--metrics"_s, u"grounding"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out, before);
    // Without the flag the store is only read; with it, a store that is missing is never created.
    run = runCli(
        { u"report"_s, u"--store"_s, dir.filePath(u"missing.db"_s), u"--format"_s, u"json"_s, u"--keep-verdicts"_s });
    QCOMPARE(run.exitCode, 1);
    QVERIFY(!QFile::exists(dir.filePath(u"missing.db"_s)));

    // Importing the same file again adds a second run, but never a second suite. By default the import keeps
    // the verdicts of what it stored; the first run's six were kept by the report above.
    run = runCli(
        { u"import"_s, u"--format"_s, u"sob"_s, u"--store"_s, store, testData(u"grounding/response_model-a.jsonl"_s) });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.contains(u"already stored"_s), qPrintable(run.out));
    QVERIFY2(run.err.contains(u"structscope import: scored and kept 6 verdicts"_s), qPrintable(run.err));
    QVERIFY2(run.err.contains(u"(6 were kept before)"_s), qPrintable(run.err));
    {
        auto both = structscope::ResultStore::open(store);
        QVERIFY(both);
        QCOMPARE(both->storedVerdictCount().value(), 12);
        const structscope::Evaluation read = structscope::evaluateStore(*both);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.stored, 12);
    }
}

void TestCli::reportFromFilesNamesMalformedLinesAndReportsTheRest()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath(u"report.md"_s);
    const Run run = runCli({ u"report"_s, u"--sob"_s, u"--format"_s, u"md"_s, u"--out"_s, out,
        testData(u"import/sob/response_model-a.jsonl"_s) });
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(u"response_model-a.jsonl:3"_s), qPrintable(run.err));
    QVERIFY2(run.err.contains(u"scored 4 response(s) from 1 file(s)"_s), qPrintable(run.err));
    QVERIFY2(run.err.contains(u"1 malformed"_s), qPrintable(run.err));
    QVERIFY2(run.err.contains(u"the report is written, without the lines refused above"_s), qPrintable(run.err));
    QFile written(out);
    QVERIFY(written.open(QIODevice::ReadOnly));
    const QString table = QString::fromUtf8(written.readAll());
    QVERIFY2(table.contains(u"| demo/model-a |   4 |"_s), qPrintable(table));
}

void TestCli::importReportsMalformedLinesAndKeepsTheRest()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString store = dir.filePath(u"sob.db"_s);
    const Run run = runCli({ u"import"_s, u"--format"_s, u"sob"_s, u"--store"_s, store,
        testData(u"import/sob/response_model-a.jsonl"_s) });
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(u"response_model-a.jsonl:3"_s), qPrintable(run.err));
    QVERIFY2(run.out.contains(u"imported 4 response(s)"_s), qPrintable(run.out));
    QVERIFY2(run.out.contains(u"1 malformed"_s), qPrintable(run.out));
}

void TestCli::importGenericJsonlWithAFieldMap()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString store = dir.filePath(u"people.db"_s);
    Run run
        = runCli({ u"import"_s, u"--format"_s, u"jsonl"_s, u"--suite"_s, testData(u"import/suite"_s), u"--field-map"_s,
            u"case_id=id,model=meta.model,strategy=meta.mode,response=output.text,"
            u"tokens_in=usage.in,tokens_out=usage.out,latency_ms=ms"_s,
            u"--store"_s, store, testData(u"import/mapped.jsonl"_s) });
    QCOMPARE(run.exitCode, 1); // line 2 has no output.text
    QVERIFY2(run.err.contains(u"mapped.jsonl:2"_s), qPrintable(run.err));
    QVERIFY2(run.out.contains(u"imported 2 response(s)"_s), qPrintable(run.out + run.err));

    run = runCli({ u"report"_s, u"--store"_s, store, u"--format"_s, u"csv"_s, u"--by"_s, u"model,strategy"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.contains(u"m/one"_s), qPrintable(run.out));
}

void TestCli::importIntoACorruptStoreChangesNothing()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString store = dir.filePath(u"junk.db"_s);
    QFile junk(store);
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write(QByteArray(4096, 'x'));
    junk.close();
    const Run run = runCli(
        { u"import"_s, u"--format"_s, u"sob"_s, u"--store"_s, store, testData(u"grounding/response_model-a.jsonl"_s) });
    QCOMPARE(run.exitCode, 1);
    QVERIFY(!run.err.isEmpty());
    QFile again(store);
    QVERIFY(again.open(QIODevice::ReadOnly));
    QCOMPARE(again.readAll(), QByteArray(4096, 'x'));
}

void TestCli::checkOnAMissingFolder()
{
    const Run run = runCli({ u"check"_s, u"--suite"_s, u"/nonexistent/suite"_s });
    QCOMPARE(run.exitCode, 1);
    QVERIFY(run.err.contains(u"not a folder"_s));
}

void TestCli::checkFindsABuiltInSuiteByName()
{
    // `check --suite orderbench` on an installed package: a name that is not a folder here is looked up in
    // the built-in suite folders ($STRUCTSCOPE_DATASETS first).
    qputenv("STRUCTSCOPE_DATASETS", testData(u"suite"_s).toLocal8Bit());
    const auto restore = qScopeGuard([] { qunsetenv("STRUCTSCOPE_DATASETS"); });
    const Run run = runCli({ u"check"_s, u"--suite"_s, u"valid"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(run.out.contains(u"tiny (Tiny suite 0.1.0): OK"_s));
}

void TestCli::resumeSendsNoSecretToAPlantedEndpoint()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QTcpServer planted;
    QVERIFY(planted.listen(QHostAddress::LocalHost, 0));
    const QString origin = u"http://localhost:%1"_s.arg(planted.serverPort());
    const QString store = dir.filePath(u"shared.db"_s);
    {
        const structscope::SuiteLoadResult suite = structscope::loadSuiteDir(testData(u"suite/valid"_s));
        QVERIFY(suite.ok());
        QString error;
        auto db = structscope::ResultStore::open(store, &error);
        QVERIFY2(db, qPrintable(error));
        const QString text
            = u"openai:m@"_s + origin + u"/v1;key_env=VICTIM_TOKEN;header=X-Leak:$AWS_SECRET_ACCESS_KEY"_s;
        const auto spec = structscope::parseModelSpec(text, &error);
        QVERIFY2(spec, qPrintable(error));
        const auto stored = structscope::storeSuiteForRun(*db, *suite.suite);
        QVERIFY(stored);
        const auto run = db->createRun(structscope::makeRunRow(
            stored.value(), *suite.suite, *spec, structscope::Strategy::P, 1, structscope::runSettings(*spec, {})));
        QVERIFY(run);
        QVERIFY(db->finishRun(run->id, structscope::RunStatus::Interrupted));
    }
    qputenv("VICTIM_TOKEN", "victim-token-0123456789");
    qputenv("AWS_SECRET_ACCESS_KEY", "aws-secret-0123456789");
    const auto restore = qScopeGuard([] {
        qunsetenv("VICTIM_TOKEN");
        qunsetenv("AWS_SECRET_ACCESS_KEY");
    });
    const Run run = runCli({ u"run"_s, u"--resume"_s, u"1"_s, u"--store"_s, store, u"--suite"_s,
        testData(u"suite/valid"_s), u"--no-keep-verdicts"_s });
    QVERIFY2(run.exitCode != 0, qPrintable(run.err));
    for (const QString& part : { origin, u"VICTIM_TOKEN"_s, u"AWS_SECRET_ACCESS_KEY"_s, u"--trust-store-origin"_s })
        QVERIFY2(run.err.contains(part), qPrintable(run.err));
    QVERIFY(!run.err.contains(u"victim-token"_s) && !run.out.contains(u"victim-token"_s));
    QVERIFY(!run.err.contains(u"aws-secret"_s) && !run.out.contains(u"aws-secret"_s));
    QVERIFY(!planted.waitForNewConnection(200)); // no connection was made
}

void TestCli::runRefusesAnInsecureKey()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Run run = runCli({ u"run"_s, u"--suite"_s, testData(u"suite/valid"_s), u"--store"_s, dir.filePath(u"s.db"_s),
        u"--model"_s, u"openai:m@http://192.0.2.1:9/v1;key_env=LAN_KEY"_s, u"--strategy"_s, u"P"_s, u"--max-attempts"_s,
        u"1"_s, u"--timeout"_s, u"2"_s, u"--no-keep-verdicts"_s });
    QVERIFY2(run.exitCode != 0, qPrintable(run.err));
    QVERIFY2(run.err.contains(u"--allow-insecure-key"_s) && run.err.contains(u"LAN_KEY"_s), qPrintable(run.err));
    // A literal header value is refused too, with the way to give it.
    const Run literal
        = runCli({ u"run"_s, u"--suite"_s, testData(u"suite/valid"_s), u"--store"_s, dir.filePath(u"s.db"_s),
            u"--model"_s, u"openai:m@http://127.0.0.1:9/v1;header=Ocp-Apim-Subscription-Key:0123abcd"_s });
    QCOMPARE(literal.exitCode, 2);
    QVERIFY2(literal.err.contains(u"header=Ocp-Apim-Subscription-Key:$VAR"_s), qPrintable(literal.err));
}

void TestCli::runWithoutASingleAnswerFails()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    quint16 port = 0;
    {
        QTcpServer closed; // a port that was free a moment ago: every connection is refused
        QVERIFY(closed.listen(QHostAddress::LocalHost, 0));
        port = closed.serverPort();
    }
    const Run run = runCli({ u"run"_s, u"--suite"_s, testData(u"suite/valid"_s), u"--store"_s, dir.filePath(u"s.db"_s),
        u"--model"_s, u"openai:m@http://127.0.0.1:%1/v1"_s.arg(port), u"--strategy"_s, u"P"_s, u"--max-attempts"_s,
        u"1"_s, u"--timeout"_s, u"2"_s, u"--no-keep-verdicts"_s });
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(u"run 1 ended without a single answer from its model"_s), qPrintable(run.err));
    // The same suite answered by a model: exit 0.
    const Run answered = runCli({ u"run"_s, u"--suite"_s, testData(u"suite/valid"_s), u"--store"_s,
        dir.filePath(u"s.db"_s), u"--model"_s, u"sim:oracle"_s, u"--strategy"_s, u"P"_s, u"--no-keep-verdicts"_s });
    QVERIFY2(answered.exitCode == 0, qPrintable(answered.err));
}

void TestCli::auditAndGoldRefuseBadArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::addRow("audit: no store") << QStringList { u"audit"_s } << u"--store DB is required"_s;
    QTest::addRow("audit: no models") << QStringList { u"audit"_s, u"--store"_s, u"x.db"_s, u"--min-models"_s, u"0"_s }
                                      << u"--min-models needs a positive whole number"_s;
    QTest::addRow("audit: support > 1") << QStringList { u"audit"_s, u"--store"_s, u"x.db"_s, u"--min-support"_s,
        u"1.5"_s } << u"--min-support needs a number in (0, 1]"_s;
    QTest::addRow("gold: no action") << QStringList { u"gold"_s } << u"name an action"_s;
    QTest::addRow("gold: unknown action") << QStringList { u"gold"_s, u"import"_s } << u"unknown action 'import'"_s;
    QTest::addRow("gold export: no out") << QStringList { u"gold"_s, u"export"_s, u"--store"_s, u"x.db"_s, u"--suite"_s,
        u"s"_s } << u"--out DIR are required"_s;
}

void TestCli::auditAndGoldRefuseBadArguments()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run run = runCli(args);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(message), qPrintable(run.err));
}

void TestCli::tamperedStoreIsAnErrorNotACrash()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString store = dir.filePath(u"tampered.db"_s);
    Run run = runCli({ u"import"_s, u"--format"_s, u"jsonl"_s, u"--suite"_s, testData(u"audit/suite"_s), u"--store"_s,
        store, testData(u"audit/responses.jsonl"_s) });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));

    // Gold nested 80,000 deep, written straight into the store: the kind of row a crafted store holds.
    const int depth = 80000;
    const QString deep = QString(depth, u'[') + QString(depth, u']');
    qint64 goldRow = 0;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"tamper"_s);
        db.setDatabaseName(store);
        QVERIFY(db.open());
        QSqlQuery query(db);
        QVERIFY(query.exec(u"SELECT min(id) FROM gold_revisions"_s) && query.next());
        goldRow = query.value(0).toLongLong();
        QVERIFY(query.prepare(u"UPDATE gold_revisions SET gold = ? WHERE id = ?"_s));
        query.addBindValue(deep);
        query.addBindValue(goldRow);
        QVERIFY(query.exec());
        // Without kept verdicts, the report scores against that gold.
        QVERIFY(query.exec(u"DELETE FROM scored_verdicts"_s));
        query.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(u"tamper"_s);
    const QString named = u"gold_revisions row %1: column gold"_s.arg(goldRow);

    run = runCli({ u"report"_s, u"--store"_s, store, u"--format"_s, u"json"_s });
    QVERIFY2(run.exitCode > 0, qPrintable(u"exit %1: %2"_s.arg(run.exitCode).arg(run.err)));
    QVERIFY2(run.err.contains(named), qPrintable(run.err));

    run = runCli({ u"audit"_s, u"--store"_s, store });
    QVERIFY2(run.exitCode > 0, qPrintable(u"exit %1: %2"_s.arg(run.exitCode).arg(run.err)));
    QVERIFY2(run.err.contains(named), qPrintable(run.err));
}

void TestCli::auditQueueThenGoldExportRoundTrip()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString store = dir.filePath(u"audit.db"_s);
    Run run = runCli({ u"import"_s, u"--format"_s, u"jsonl"_s, u"--suite"_s, testData(u"audit/suite"_s), u"--store"_s,
        store, testData(u"audit/responses.jsonl"_s) });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));

    // c-1's gold age is 14; three of four models say 41 (tests/data/audit/README.md).
    run = runCli({ u"audit"_s, u"--store"_s, store });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QJsonParseError error;
    const QJsonObject queue = QJsonDocument::fromJson(run.out.toUtf8(), &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const QJsonArray items = queue.value(u"items"_s).toArray();
    QCOMPARE(items.size(), 1);
    const QJsonObject item = items.first().toObject();
    QCOMPARE(item.value(u"suite"_s).toString(), u"audit-tiny"_s);
    QCOMPARE(item.value(u"case"_s).toString(), u"c-1"_s);
    QCOMPARE(item.value(u"path"_s).toString(), u"age"_s);
    QCOMPARE(item.value(u"gold"_s).toInt(), 14);
    QCOMPARE(item.value(u"consensus"_s).toInt(), 41);
    QCOMPARE(item.value(u"support"_s).toDouble(), 0.75);
    QCOMPARE(item.value(u"models"_s).toArray().size(), 3);
    QCOMPARE(item.value(u"triage"_s).toObject().value(u"state"_s).toString(), u"open"_s);
    QCOMPARE(item.value(u"kind"_s).toString(), u"value"_s);
    QCOMPARE(item.value(u"description"_s).toString(), u"3 of 4 models give 41 where gold has 14"_s);
    const QJsonObject source = item.value(u"source"_s).toObject();
    QCOMPARE(
        source.value(u"consensus"_s).toObject().value(u"snippet"_s).toString(), u"Ann is «41» and lives in Oslo."_s);
    QCOMPARE(source.value(u"gold"_s).toObject().value(u"found"_s).toBool(), false);
    const QJsonArray flags = queue.value(u"uniform_failures"_s).toArray();
    QCOMPARE(flags.size(), 1);
    QCOMPARE(flags.first().toObject().value(u"category"_s).toString(), u"pet"_s);

    // c-3: half the models say "dog"; the input says "Our cat sleeps.", so only --keep-reworded lists it.
    run = runCli({ u"audit"_s, u"--store"_s, store, u"--min-support"_s, u"0.5"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(QJsonDocument::fromJson(run.out.toUtf8()).object().value(u"items"_s).toArray().size(), 1);
    run = runCli({ u"audit"_s, u"--store"_s, store, u"--min-support"_s, u"0.5"_s, u"--keep-reworded"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(QJsonDocument::fromJson(run.out.toUtf8()).object().value(u"items"_s).toArray().size(), 2);

    const QString out = dir.filePath(u"corrected"_s);
    run = runCli({ u"gold"_s, u"export"_s, u"--store"_s, store, u"--suite"_s, u"audit-tiny"_s, u"--out"_s, out });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.contains(u"wrote audit-tiny 1.0.0 to "_s), qPrintable(run.out));
    QVERIFY(QFile::exists(QDir(out).filePath(u"CHANGELOG.md"_s)));
    run = runCli({ u"check"_s, u"--suite"_s, out });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(run.out.contains(u"cases: 3"_s));

    run = runCli({ u"gold"_s, u"export"_s, u"--store"_s, store, u"--suite"_s, u"audit-tiny"_s, u"--out"_s, out });
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(u"is not empty; pass --force"_s), qPrintable(run.err));
    run = runCli(
        { u"gold"_s, u"export"_s, u"--store"_s, store, u"--suite"_s, u"audit-tiny"_s, u"--out"_s, out, u"--force"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    run = runCli(
        { u"gold"_s, u"export"_s, u"--store"_s, store, u"--suite"_s, u"nope"_s, u"--out"_s, dir.filePath(u"other"_s) });
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(u"no suite \"nope\""_s), qPrintable(run.err));
}

void TestCli::reportShowsBothGoldBasesSideBySide()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString storePath = dir.filePath(u"both.db"_s);
    Run run = runCli({ u"import"_s, u"--format"_s, u"jsonl"_s, u"--suite"_s, testData(u"audit/suite"_s), u"--store"_s,
        storePath, testData(u"audit/responses.jsonl"_s) });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    {
        structscope::StoreError error;
        auto store = structscope::ResultStore::open(storePath, {}, &error);
        QVERIFY2(store, qPrintable(error.message));
        const auto suites = store->suites();
        QVERIFY(suites.ok() && suites.value().size() == 1);
        const auto rows = store->caseRows(suites.value().front().row);
        QVERIFY(rows.ok());
        structscope::GoldEdit edit;
        edit.caseRow = rows.value().value(u"c-1"_s);
        edit.gold = nlohmann::json::parse(R"({"name": "Ann", "age": 41, "city": "Oslo"})");
        edit.author = u"tester"_s;
        edit.reason = u"the text says 41"_s;
        QCOMPARE(
            int(structscope::applyGoldEdit(*store, edit).status), int(structscope::GoldEditOutcome::Status::Added));
    }
    run = runCli({ u"report"_s, u"--store"_s, storePath, u"--format"_s, u"json"_s, u"--metrics"_s, u"ladder"_s,
        u"--gold"_s, u"both"_s, u"--bootstrap"_s, u"10"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const nlohmann::json report = nlohmann::json::parse(run.out.toStdString());
    QCOMPARE(QString::fromStdString(report.at("gold").get<std::string>()), u"both"_s);
    QStringList order;
    QHash<QString, double> correct;
    for (const auto& group : report.at("groups")) {
        const QString key = QString::fromStdString(group.at("key").at("model").get<std::string>()) + u'/'
            + QString::fromStdString(group.at("key").at("gold").get<std::string>());
        order << key;
        correct.insert(key, group.at("mean").at("ladder.correct").get<double>());
    }
    QCOMPARE(order.mid(0, 2), (QStringList { u"m-a/measured"_s, u"m-a/adjusted"_s }));
    QCOMPARE(order.size(), 8);
    QCOMPARE(correct.value(u"m-a/measured"_s), 0.0);
    QCOMPARE(correct.value(u"m-a/adjusted"_s), 1.0 / 3.0);
    QCOMPARE(correct.value(u"m-d/measured"_s), 0.5);
    QCOMPARE(correct.value(u"m-d/adjusted"_s), 0.0);
}

void TestCli::overlapsFromStoreToChartAndCounts()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString store = dir.filePath(u"ov.structscope"_s);
    QVERIFY(overlapfixture::makeStore(store));

    Run run = runCli({ u"report"_s, u"--store"_s, store, u"--overlaps"_s, u"--format"_s, u"csv"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    // The memberships worked out by hand in overlapfixtures.h; regions largest first, then by fewer sets, then by
    // their mask (a = bit 0 … d = bit 3).
    const QStringList expected = { u"type,sets,degree,count"_s, u"set,m-a,1,3"_s, u"set,m-b,1,3"_s, u"set,m-c,1,2"_s,
        u"set,m-d,1,2"_s, u"region,m-a & m-b,2,1"_s, u"region,m-b & m-c,2,1"_s, u"region,m-a & m-d,2,1"_s,
        u"region,m-a & m-b & m-c & m-d,4,1"_s, u"none,,0,1"_s, u"all,m-a & m-b & m-c & m-d,4,1"_s };
    QCOMPARE(run.out.split(u'\n', Qt::SkipEmptyParts), expected);

    run = runCli(
        { u"report"_s, u"--store"_s, store, u"--overlaps"_s, u"--format"_s, u"json"_s, u"--sets"_s, u"m-b,m-c"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject doc = QJsonDocument::fromJson(run.out.toUtf8()).object();
    QCOMPARE(doc.value(u"cases"_s).toInt(), 6);
    QCOMPARE(doc.value(u"union"_s).toInt(), 4);
    QCOMPARE(doc.value(u"none"_s).toInt(), 2);
    QCOMPARE(doc.value(u"all"_s).toObject().value(u"count"_s).toInt(), 3);
    int sum = 0;
    for (const QJsonValue& region : doc.value(u"regions"_s).toArray())
        sum += region.toObject().value(u"count"_s).toInt();
    QCOMPARE(sum, doc.value(u"union"_s).toInt());

    // The chart: an UpSet plot of the four models as PNG and SVG, a Venn diagram of two.
    const QString png = dir.filePath(u"upset.png"_s);
    run = runCli({ u"chart"_s, u"--store"_s, store, u"--kind"_s, u"upset"_s, u"--by"_s, u"model"_s, u"--out"_s, png });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QFile pngFile(png);
    QVERIFY(pngFile.open(QIODevice::ReadOnly));
    const QByteArray pngBytes = pngFile.readAll();
    QVERIFY(pngBytes.startsWith("\x89PNG\r\n\x1a\n"));
    QCOMPARE(pngBytes.mid(12, 4), QByteArray("IHDR"));
    const auto be32 = [&pngBytes](int at) {
        return (quint32(quint8(pngBytes[at])) << 24) | (quint32(quint8(pngBytes[at + 1])) << 16)
            | (quint32(quint8(pngBytes[at + 2])) << 8) | quint32(quint8(pngBytes[at + 3]));
    };
    QVERIFY(be32(16) >= 600 && be32(20) >= 300); // width, height at 150 dpi
    QVERIFY(pngBytes.size() > 5000);
    const QString svg = dir.filePath(u"venn.svg"_s);
    run = runCli(
        { u"chart"_s, u"--store"_s, store, u"--kind"_s, u"venn"_s, u"--sets"_s, u"m-b,m-c"_s, u"--out"_s, svg });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    const QByteArray svgBytes = svgFile.readAll();
    QVERIFY(svgBytes.contains("<svg"));
    for (const char* text : { "m-b", "m-c", "verdict not correct", ">3<", "by all 3" })
        QVERIFY2(svgBytes.contains(text), text);
}

void TestCli::overlapsRefuseBadArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("says");
    QTest::addRow("criterion") << QStringList { u"report"_s, u"--overlaps"_s, u"--format"_s, u"csv"_s, u"--criterion"_s,
        u"error:nope"_s } << u"unknown error kind 'nope'"_s;
    QTest::addRow("metric") << QStringList { u"report"_s, u"--overlaps"_s, u"--format"_s, u"csv"_s, u"--criterion"_s,
        u"ladder.latency_p50<3"_s }
                            << u"not a value of each answer"_s;
    QTest::addRow("format") << QStringList { u"report"_s, u"--overlaps"_s, u"--format"_s, u"md"_s }
                            << u"json or csv, not 'md'"_s;
    QTest::addRow("without overlaps") << QStringList { u"report"_s, u"--format"_s, u"csv"_s, u"--sets"_s, u"m-a"_s }
                                      << u"apply to --overlaps only"_s;
    QTest::addRow("set") << QStringList { u"report"_s, u"--overlaps"_s, u"--format"_s, u"csv"_s, u"--sets"_s,
        u"m-a,m-z"_s } << u"no set 'm-z' (the sets are: m-a, m-b, m-c, m-d)"_s;
    QTest::addRow("venn of four") << QStringList { u"chart"_s, u"--kind"_s, u"venn"_s }
                                  << u"one to three sets, not 4"_s;
    QTest::addRow("chart criterion") << QStringList { u"chart"_s, u"--kind"_s, u"upset"_s, u"--criterion"_s,
        u"grounding.value_accuracy<x"_s }
                                     << u"'x' is not a number"_s;
    QTest::addRow("top") << QStringList { u"chart"_s, u"--kind"_s, u"upset"_s, u"--top"_s, u"0"_s }
                         << u"--top needs a positive number"_s;
    QTest::addRow("metric with upset") << QStringList { u"chart"_s, u"--kind"_s, u"upset"_s, u"--metric"_s,
        u"ladder.correct"_s } << u"takes --criterion instead of --metric"_s;
    QTest::addRow("criterion with leaderboard") << QStringList { u"chart"_s, u"--kind"_s, u"leaderboard"_s,
        u"--criterion"_s, u"not-correct"_s } << u"apply to --kind upset and venn only"_s;
}

void TestCli::overlapsRefuseBadArguments()
{
    QFETCH(QStringList, args);
    QFETCH(QString, says);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString store = dir.filePath(u"ov.structscope"_s);
    QVERIFY(overlapfixture::makeStore(store));
    args << u"--store"_s << store;
    if (args.first() == u"chart"_s)
        args << u"--out"_s << dir.filePath(u"x.png"_s);
    const Run run = runCli(args);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(says), qPrintable(run.err));
    QVERIFY(!QFile::exists(dir.filePath(u"x.png"_s)));
}

void TestCli::reportPairsInEveryFormat()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QStringList files = writePairsFiles(dir.path());
    QCOMPARE(files.size(), 3);
    const QStringList base { u"report"_s, u"--sob"_s, u"--pairs"_s, u"--metric"_s, u"grounding.perfect"_s,
        u"--bootstrap"_s, u"200"_s };

    // JSON: the hand-worked counts and p values of writePairsFiles().
    Run run = runCli(base + QStringList { u"--format"_s, u"json"_s } + files);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject root = QJsonDocument::fromJson(run.out.toUtf8()).object();
    QCOMPARE(root.value(u"metric"_s).toString(), u"grounding.perfect"_s);
    QCOMPARE(root.value(u"adjust"_s).toString(), u"holm"_s);
    QCOMPARE(root.value(u"test"_s).toString(), u"mcnemar-exact"_s);
    const QJsonArray pairs = root.value(u"pairs"_s).toArray();
    QCOMPARE(pairs.size(), 3);
    const double p[] = { 0.03125, 0.0078125, 0.625 };
    const double holm[] = { 0.0625, 0.0234375, 0.625 };
    const int better[] = { 6, 8, 3 };
    const double delta[] = { 600.0 / 13, 800.0 / 13, 200.0 / 13 };
    for (int i = 0; i < 3; ++i) {
        const QJsonObject pair = pairs[i].toObject();
        QCOMPARE(pair.value(u"n"_s).toInt(), 13);
        QCOMPARE(pair.value(u"b_better"_s).toInt(), better[i]);
        QVERIFY(qAbs(pair.value(u"p"_s).toDouble() - p[i]) < 1e-12);
        QVERIFY(qAbs(pair.value(u"p_adjusted"_s).toDouble() - holm[i]) < 1e-12);
        QVERIFY(qAbs(pair.value(u"delta_points"_s).toDouble() - delta[i]) < 1e-9);
        QCOMPARE(pair.value(u"significant"_s).toBool(), i == 1);
    }
    QCOMPARE(pairs[0].toObject().value(u"a_label"_s).toString(), u"x"_s);
    QCOMPARE(pairs[2].toObject().value(u"b_label"_s).toString(), u"z"_s);

    // Markdown with BH: x–y becomes significant (0.046875).
    run = runCli(base + QStringList { u"--format"_s, u"md"_s, u"--adjust"_s, u"bh"_s } + files);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.contains(u"| x | y | 13 | 0.154 | 0.615 | **+46.2** | ["_s), qPrintable(run.out));
    QVERIFY2(run.out.contains(u"| 0.031 | 0.047 | yes |"_s), qPrintable(run.out));
    QVERIFY2(run.out.contains(u"| y | z | 13 | 0.615 | 0.769 | +15.4 | ["_s), qPrintable(run.out));
    QVERIFY(run.out.contains(u"Benjamini-Hochberg over 3 tested pair(s)"_s));

    // CSV to a file.
    const QString csvPath = dir.filePath(u"pairs.csv"_s);
    run = runCli(base + QStringList { u"--format"_s, u"csv"_s, u"--out"_s, csvPath } + files);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QFile csv(csvPath);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csv.readAll()).split(u"\r\n"_s, Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 4);
    QVERIFY(lines[0].startsWith(u"metric,test,adjust,a,b,n,"_s));
    QVERIFY2(lines[2].startsWith(u"grounding.perfect,mcnemar-exact,holm,x,z,13,0,0,"_s), qPrintable(lines[2]));
    const QStringList xz = lines[2].split(u',');
    QCOMPARE(xz.size(), 18);
    QCOMPARE(xz.mid(13, 2), (QStringList { u"0"_s, u"8"_s }));
    QVERIFY(qAbs(xz[15].toDouble() - 0.0078125) < 1e-12);
    QVERIFY(qAbs(xz[16].toDouble() - 0.0234375) < 1e-12);
    QCOMPARE(xz[17], u"true"_s);

    // LaTeX.
    run = runCli(base + QStringList { u"--format"_s, u"latex"_s } + files);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.contains(u"x & z & 13 & 0.154 & 0.769 & \\textbf{$+61.5$}"_s), qPrintable(run.out));
    QVERIFY(run.out.contains(u"\\bottomrule"_s));

    // The same pairs from a store.
    const QString store = dir.filePath(u"pairs.db"_s);
    run = runCli(QStringList { u"import"_s, u"--format"_s, u"sob"_s, u"--store"_s, store } + files);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    run = runCli({ u"report"_s, u"--store"_s, store, u"--pairs"_s, u"--metric"_s, u"grounding.perfect"_s, u"--format"_s,
        u"csv"_s, u"--bootstrap"_s, u"200"_s });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.split(u"\r\n"_s).value(2).startsWith(u"grounding.perfect,mcnemar-exact,holm,x,z,13,"_s),
        qPrintable(run.out));
    QVERIFY2(run.out.split(u"\r\n"_s).value(2).endsWith(u",true"_s), qPrintable(run.out));
}

void TestCli::reportPairsExplainsWhatItCannotCompare()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QStringList files = writePairsFiles(dir.path());
    QCOMPARE(files.size(), 3);
    // One configuration.
    Run run = runCli({ u"report"_s, u"--sob"_s, u"--pairs"_s, u"--metric"_s, u"grounding.perfect"_s, u"--format"_s,
        u"md"_s, files[0] });
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(u"needs at least two configurations; there is one (x)"_s), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
    // A metric no record carries, and one of a group.
    run = runCli(QStringList { u"report"_s, u"--sob"_s, u"--pairs"_s, u"--metric"_s, u"contract.semantic_success"_s,
                     u"--format"_s, u"md"_s }
        + files);
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(u"no answered record carries contract.semantic_success"_s), qPrintable(run.err));
    run = runCli(QStringList { u"report"_s, u"--sob"_s, u"--pairs"_s, u"--metric"_s, u"extraction.f1_values"_s,
                     u"--format"_s, u"md"_s }
        + files);
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(u"cannot be compared case by case"_s), qPrintable(run.err));
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
