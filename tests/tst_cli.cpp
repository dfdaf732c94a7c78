// The headless command line: help, exit codes, and `check` on good and broken suites.
#include "audit/goldeditor.h"
#include "providers/modelspec.h"
#include "report/evaluation.h"
#include "run/runsetup.h"
#include "store/resultstore.h"
#include "suite/suiteloader.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
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
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2,
            QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
}

QString testData(const QString& path)
{
    return QStringLiteral(STRUCTSCOPE_TEST_DATA) + u'/' + path;
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void helpListsEverySubcommand()
    {
        const Run run = runCli({u"--help"_s});
        QCOMPARE(run.exitCode, 0);
        for (const char* command : {"run", "import", "check", "report", "chart", "audit", "gold export", "serve-sim", "demo"})
            QVERIFY2(run.out.contains(u"structscope "_s + QLatin1String(command)), command);
    }

    void versionPrints()
    {
        const Run run = runCli({u"--version"_s});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith(u"structscope "_s));
    }

    void everySubcommandIsBuilt()
    {
        // The last one (demo) was built: none is listed as missing, and demo answers with its own usage.
        const Run help = runCli({u"--help"_s});
        QVERIFY2(!help.out.contains(u"not built yet)"_s), qPrintable(help.out));
        const Run run = runCli({u"demo"_s});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(u"--out DIR is required"_s), qPrintable(run.err));
        QVERIFY(!run.err.contains(u"not built yet"_s));
    }

    void unknownCommandIsAUsageError()
    {
        const Run run = runCli({u"frobnicate"_s});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains(u"unknown command 'frobnicate'"_s));
    }

    void checkNeedsASuite()
    {
        Run run = runCli({u"check"_s});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains(u"--suite DIR is required"_s));
        run = runCli({u"check"_s, u"--suite"_s});
        QCOMPARE(run.exitCode, 2);
        run = runCli({u"check"_s, u"--bogus"_s});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains(u"bogus"_s));
    }

    void checkAcceptsACleanSuite()
    {
        const Run run = runCli({u"check"_s, u"--suite"_s, testData(u"suite/valid"_s)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(run.out.contains(u"tiny (Tiny suite 0.1.0): OK"_s));
        QVERIFY(run.out.contains(u"cases: 2"_s));
        QVERIFY(run.out.contains(u"schemas: 1"_s));
        QVERIFY(run.out.contains(u"simple: 2"_s));
    }

    void checkListsEveryProblemWithItsPlace()
    {
        const Run run = runCli({u"check"_s, u"--suite"_s, testData(u"suite/broken"_s)});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(u"cases.jsonl:1: /gold/items/0/quantity: "_s), qPrintable(run.err));
        QVERIFY2(run.err.contains(u"cases.jsonl:2: /id: case id \"o-1\" is already used on line 1"_s), qPrintable(run.err));
        QVERIFY2(run.err.contains(u"cases.jsonl:2: /gold/status: "_s), qPrintable(run.err));
        QVERIFY2(run.err.contains(u"cases.jsonl:3: /category: category \"unknown\" is not declared"_s), qPrintable(run.err));
        QVERIFY(run.err.contains(u"4 problem(s); the suite is refused"_s));
        QVERIFY(run.out.isEmpty());
    }

    // A line that is not JSON hides nothing: the lines that parse and the example are still checked in full, and
    // every problem is listed with its place before the suite is refused.
    void checkListsEveryProblemDespiteABrokenLine()
    {
        const Run run = runCli({u"check"_s, u"--suite"_s, testData(u"suite/broken-line"_s)});
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

    void reportRefusesBadArguments_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::addRow("no store") << QStringList{u"report"_s, u"--format"_s, u"json"_s} << u"--store DB"_s;
        QTest::addRow("bad format") << QStringList{u"report"_s, u"--store"_s, u"x.db"_s, u"--format"_s, u"xml"_s}
                                    << u"unknown format 'xml'"_s;
        QTest::addRow("bad key") << QStringList{u"report"_s, u"--store"_s, u"x.db"_s, u"--format"_s, u"md"_s,
                                                u"--by"_s, u"colour"_s}
                                 << u"cannot group by 'colour'"_s;
        QTest::addRow("bad family") << QStringList{u"report"_s, u"--store"_s, u"x.db"_s, u"--format"_s, u"md"_s,
                                                   u"--metrics"_s, u"vibes"_s}
                                    << u"unknown metric family 'vibes'"_s;
        QTest::addRow("bad gold") << QStringList{u"report"_s, u"--store"_s, u"x.db"_s, u"--format"_s, u"md"_s,
                                                 u"--gold"_s, u"latest"_s}
                                  << u"--gold must be measured, adjusted or both"_s;
        const QString file = testData(u"grounding/response_model-a.jsonl"_s);
        QTest::addRow("sob and a store") << QStringList { u"report"_s, u"--sob"_s, u"--store"_s, u"x.db"_s,
            u"--format"_s, u"json"_s, file } << u"give one or the other"_s;
        QTest::addRow("sob without files") << QStringList { u"report"_s, u"--sob"_s, u"--format"_s, u"json"_s }
                                           << u"--sob needs at least one FILE"_s;
        QTest::addRow("sob keeping verdicts") << QStringList { u"report"_s, u"--sob"_s, u"--format"_s, u"json"_s,
            u"--keep-verdicts"_s, file } << u"--keep-verdicts needs a store"_s;
        QTest::addRow("sob adjusted gold") << QStringList { u"report"_s, u"--sob"_s, u"--format"_s, u"json"_s,
            u"--gold"_s, u"adjusted"_s, file } << u"--gold adjusted needs a store"_s;
        QTest::addRow("sob missing file") << QStringList { u"report"_s, u"--sob"_s, u"--format"_s, u"json"_s,
            u"/nonexistent/response_x.jsonl"_s } << u"/nonexistent/response_x.jsonl: no such file"_s;
        QTest::addRow("sob bad modality") << QStringList { u"report"_s, u"--sob"_s, u"--format"_s, u"json"_s,
            u"--modality"_s, u"smell"_s, file } << u"unknown modality 'smell'"_s;
        QTest::addRow("sob bad format") << QStringList { u"report"_s, u"--sob"_s, u"--format"_s, u"xml"_s, file }
                                        << u"unknown format 'xml'"_s;
        QTest::addRow("a file without sob") << QStringList { u"report"_s, u"--store"_s, u"x.db"_s, u"--format"_s,
            u"json"_s, file } << u"response files are read with --sob"_s;
        QTest::addRow("modality without sob") << QStringList { u"report"_s, u"--store"_s, u"x.db"_s, u"--format"_s,
            u"json"_s, u"--modality"_s, u"text"_s } << u"--modality applies to --sob only"_s;
    }

    void reportRefusesBadArguments()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run run = runCli(args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
    }

    void reportOnAMissingStoreFails()
    {
        const Run run = runCli({u"report"_s, u"--store"_s, u"/nonexistent/none.db"_s, u"--format"_s, u"json"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.out.isEmpty());
        QVERIFY(!run.err.isEmpty());
    }

    void importRefusesBadArguments_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString file = testData(u"grounding/response_model-a.jsonl"_s);
        QTest::addRow("no format") << QStringList{u"import"_s, u"--store"_s, u"x.db"_s, file} << u"--format"_s;
        QTest::addRow("no file") << QStringList{u"import"_s, u"--format"_s, u"sob"_s, u"--store"_s, u"x.db"_s}
                                 << u"at least one FILE"_s;
        QTest::addRow("bad format") << QStringList{u"import"_s, u"--format"_s, u"csv"_s, u"--store"_s, u"x.db"_s, file}
                                    << u"unknown format 'csv'"_s;
        QTest::addRow("bad modality") << QStringList{u"import"_s, u"--format"_s, u"sob"_s, u"--modality"_s,
                                                     u"smell"_s, u"--store"_s, u"x.db"_s, file}
                                      << u"unknown modality 'smell'"_s;
        QTest::addRow("jsonl without suite") << QStringList{u"import"_s, u"--format"_s, u"jsonl"_s, u"--store"_s,
                                                            u"x.db"_s, file}
                                             << u"needs --suite"_s;
        QTest::addRow("bad field map") << QStringList{u"import"_s, u"--format"_s, u"jsonl"_s, u"--suite"_s,
                                                      testData(u"import/suite"_s), u"--field-map"_s,
                                                      u"colour=x"_s, u"--store"_s, u"x.db"_s, file}
                                       << u"--field-map"_s;
        QTest::addRow("missing file") << QStringList{u"import"_s, u"--format"_s, u"sob"_s, u"--store"_s, u"x.db"_s,
                                                     u"/nonexistent/r.jsonl"_s}
                                      << u"/nonexistent/r.jsonl: no such file"_s;
    }

    void importRefusesBadArguments()
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

    // The whole path a SOB user takes: import response files, then report. The means are worked out by
    // hand from tests/data/grounding/EXPECTED.md (model-a's six text records, weights 3,2,1,3,2,1).
    void importThenReportReproducesHandComputedMeans()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString store = dir.filePath(u"sob.db"_s);
        Run run = runCli({u"import"_s, u"--format"_s, u"sob"_s, u"--store"_s, store,
                               testData(u"grounding/response_model-a.jsonl"_s), u"--no-keep-verdicts"_s});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(u"imported 6 response(s) from 1 file(s)"_s), qPrintable(run.out));
        {
            auto imported = structscope::ResultStore::open(store);
            QVERIFY(imported);
            QCOMPARE(imported->storedVerdictCount().value(), 0);
        }

        run = runCli({u"report"_s, u"--store"_s, store, u"--format"_s, u"json"_s, u"--metrics"_s,
                           u"grounding"_s});
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

        // --keep-verdicts: the same report, and the store keeps the six verdicts; a later report reads them.
        run = runCli({u"report"_s, u"--store"_s, store, u"--format"_s, u"json"_s, u"--metrics"_s, u"grounding"_s,
            u"--keep-verdicts"_s});
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
        run = runCli({u"report"_s, u"--store"_s, store, u"--format"_s, u"json"_s, u"--metrics"_s, u"grounding"_s});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(run.out, before);
        // Without the flag the store is only read; with it, a store that is missing is never created.
        run = runCli({u"report"_s, u"--store"_s, dir.filePath(u"missing.db"_s), u"--format"_s, u"json"_s,
            u"--keep-verdicts"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(!QFile::exists(dir.filePath(u"missing.db"_s)));

        // Importing the same file again adds a second run, but never a second suite. By default the import keeps
        // the verdicts of what it stored; the first run's six were kept by the report above.
        run = runCli({u"import"_s, u"--format"_s, u"sob"_s, u"--store"_s, store,
                           testData(u"grounding/response_model-a.jsonl"_s)});
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

    // Scored without a store, a file with a broken line still gives the report of the rest; the line is named and
    // the exit code says something was refused.
    void reportFromFilesNamesMalformedLinesAndReportsTheRest()
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

    void importReportsMalformedLinesAndKeepsTheRest()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString store = dir.filePath(u"sob.db"_s);
        const Run run = runCli({u"import"_s, u"--format"_s, u"sob"_s, u"--store"_s, store,
                                     testData(u"import/sob/response_model-a.jsonl"_s)});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(u"response_model-a.jsonl:3"_s), qPrintable(run.err));
        QVERIFY2(run.out.contains(u"imported 4 response(s)"_s), qPrintable(run.out));
        QVERIFY2(run.out.contains(u"1 malformed"_s), qPrintable(run.out));
    }

    void importGenericJsonlWithAFieldMap()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString store = dir.filePath(u"people.db"_s);
        Run run = runCli({u"import"_s, u"--format"_s, u"jsonl"_s, u"--suite"_s, testData(u"import/suite"_s),
                               u"--field-map"_s,
                               u"case_id=id,model=meta.model,strategy=meta.mode,response=output.text,"
                               u"tokens_in=usage.in,tokens_out=usage.out,latency_ms=ms"_s,
                               u"--store"_s, store, testData(u"import/mapped.jsonl"_s)});
        QCOMPARE(run.exitCode, 1); // line 2 has no output.text
        QVERIFY2(run.err.contains(u"mapped.jsonl:2"_s), qPrintable(run.err));
        QVERIFY2(run.out.contains(u"imported 2 response(s)"_s), qPrintable(run.out + run.err));

        run = runCli({u"report"_s, u"--store"_s, store, u"--format"_s, u"csv"_s, u"--by"_s, u"model,strategy"_s});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(u"m/one"_s), qPrintable(run.out));
    }

    void importIntoACorruptStoreChangesNothing()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString store = dir.filePath(u"junk.db"_s);
        QFile junk(store);
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write(QByteArray(4096, 'x'));
        junk.close();
        const Run run = runCli({u"import"_s, u"--format"_s, u"sob"_s, u"--store"_s, store,
                                     testData(u"grounding/response_model-a.jsonl"_s)});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(!run.err.isEmpty());
        QFile again(store);
        QVERIFY(again.open(QIODevice::ReadOnly));
        QCOMPARE(again.readAll(), QByteArray(4096, 'x'));
    }

    void checkOnAMissingFolder()
    {
        const Run run = runCli({u"check"_s, u"--suite"_s, u"/nonexistent/suite"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains(u"not a folder"_s));
    }

    void checkFindsABuiltInSuiteByName()
    {
        // `check --suite orderbench` on an installed package: a name that is not a folder here is looked up in
        // the built-in suite folders ($STRUCTSCOPE_DATASETS first).
        qputenv("STRUCTSCOPE_DATASETS", testData(u"suite"_s).toLocal8Bit());
        const auto restore = qScopeGuard([] { qunsetenv("STRUCTSCOPE_DATASETS"); });
        const Run run = runCli({u"check"_s, u"--suite"_s, u"valid"_s});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(run.out.contains(u"tiny (Tiny suite 0.1.0): OK"_s));
    }

    // A store can come from anyone: a run planted in it with its own endpoint, key variable and `$VAR`
    // header makes `run --resume` send nothing, and say which origin would get which variables.
    void resumeSendsNoSecretToAPlantedEndpoint()
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
            const QString text = u"openai:m@"_s + origin + u"/v1;key_env=VICTIM_TOKEN;header=X-Leak:$AWS_SECRET_ACCESS_KEY"_s;
            const auto spec = structscope::parseModelSpec(text, &error);
            QVERIFY2(spec, qPrintable(error));
            const auto stored = structscope::storeSuiteForRun(*db, *suite.suite);
            QVERIFY(stored);
            const auto run = db->createRun(structscope::makeRunRecord(stored.value(), *suite.suite, *spec,
                structscope::Strategy::P, 1, structscope::runSettings(*spec, {})));
            QVERIFY(run);
            QVERIFY(db->finishRun(run->id, structscope::RunStatus::Interrupted));
        }
        qputenv("VICTIM_TOKEN", "victim-token-0123456789");
        qputenv("AWS_SECRET_ACCESS_KEY", "aws-secret-0123456789");
        const auto restore = qScopeGuard([] {
            qunsetenv("VICTIM_TOKEN");
            qunsetenv("AWS_SECRET_ACCESS_KEY");
        });
        const Run run = runCli({u"run"_s, u"--resume"_s, u"1"_s, u"--store"_s, store, u"--suite"_s,
                                testData(u"suite/valid"_s), u"--no-keep-verdicts"_s});
        QVERIFY2(run.exitCode != 0, qPrintable(run.err));
        for (const QString& part : {origin, u"VICTIM_TOKEN"_s, u"AWS_SECRET_ACCESS_KEY"_s, u"--trust-store-origin"_s})
            QVERIFY2(run.err.contains(part), qPrintable(run.err));
        QVERIFY(!run.err.contains(u"victim-token"_s) && !run.out.contains(u"victim-token"_s));
        QVERIFY(!run.err.contains(u"aws-secret"_s) && !run.out.contains(u"aws-secret"_s));
        QVERIFY(!planted.waitForNewConnection(200)); // no connection was made
    }

    // A key over plain http to a host that is not loopback is refused before anything is sent.
    void runRefusesAnInsecureKey()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const Run run = runCli({u"run"_s, u"--suite"_s, testData(u"suite/valid"_s), u"--store"_s,
                                dir.filePath(u"s.db"_s), u"--model"_s, u"openai:m@http://192.0.2.1:9/v1;key_env=LAN_KEY"_s,
                                u"--strategy"_s, u"P"_s, u"--max-attempts"_s, u"1"_s, u"--timeout"_s, u"2"_s,
                                u"--no-keep-verdicts"_s});
        QVERIFY2(run.exitCode != 0, qPrintable(run.err));
        QVERIFY2(run.err.contains(u"--allow-insecure-key"_s) && run.err.contains(u"LAN_KEY"_s), qPrintable(run.err));
        // A literal header value is refused too, with the way to give it.
        const Run literal = runCli({u"run"_s, u"--suite"_s, testData(u"suite/valid"_s), u"--store"_s,
                                    dir.filePath(u"s.db"_s), u"--model"_s,
                                    u"openai:m@http://127.0.0.1:9/v1;header=Ocp-Apim-Subscription-Key:0123abcd"_s});
        QCOMPARE(literal.exitCode, 2);
        QVERIFY2(literal.err.contains(u"header=Ocp-Apim-Subscription-Key:$VAR"_s), qPrintable(literal.err));
    }

    // A run whose every slot failed at the transport measured nothing: `run` says so and exits 1, so that a
    // script does not take it for a result.
    void runWithoutASingleAnswerFails()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        quint16 port = 0;
        {
            QTcpServer closed; // a port that was free a moment ago: every connection is refused
            QVERIFY(closed.listen(QHostAddress::LocalHost, 0));
            port = closed.serverPort();
        }
        const Run run = runCli({u"run"_s, u"--suite"_s, testData(u"suite/valid"_s), u"--store"_s,
                                dir.filePath(u"s.db"_s), u"--model"_s, u"openai:m@http://127.0.0.1:%1/v1"_s.arg(port),
                                u"--strategy"_s, u"P"_s, u"--max-attempts"_s, u"1"_s, u"--timeout"_s, u"2"_s,
                                u"--no-keep-verdicts"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(u"run 1 ended without a single answer from its model"_s), qPrintable(run.err));
        // The same suite answered by a model: exit 0.
        const Run answered = runCli({u"run"_s, u"--suite"_s, testData(u"suite/valid"_s), u"--store"_s,
                                     dir.filePath(u"s.db"_s), u"--model"_s, u"sim:oracle"_s, u"--strategy"_s, u"P"_s,
                                     u"--no-keep-verdicts"_s});
        QVERIFY2(answered.exitCode == 0, qPrintable(answered.err));
    }

    void auditAndGoldRefuseBadArguments_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::addRow("audit: no store") << QStringList{u"audit"_s} << u"--store DB is required"_s;
        QTest::addRow("audit: no models") << QStringList{u"audit"_s, u"--store"_s, u"x.db"_s, u"--min-models"_s, u"0"_s}
                                          << u"--min-models needs a positive whole number"_s;
        QTest::addRow("audit: support > 1") << QStringList{u"audit"_s, u"--store"_s, u"x.db"_s, u"--min-support"_s,
                                                           u"1.5"_s}
                                            << u"--min-support needs a number in (0, 1]"_s;
        QTest::addRow("gold: no action") << QStringList{u"gold"_s} << u"name an action"_s;
        QTest::addRow("gold: unknown action") << QStringList{u"gold"_s, u"import"_s} << u"unknown action 'import'"_s;
        QTest::addRow("gold export: no out") << QStringList{u"gold"_s, u"export"_s, u"--store"_s, u"x.db"_s,
                                                            u"--suite"_s, u"s"_s}
                                             << u"--out DIR are required"_s;
    }

    void auditAndGoldRefuseBadArguments()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run run = runCli(args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
    }

    void tamperedStoreIsAnErrorNotACrash()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString store = dir.filePath(u"tampered.db"_s);
        Run run = runCli({u"import"_s, u"--format"_s, u"jsonl"_s, u"--suite"_s, testData(u"audit/suite"_s),
                               u"--store"_s, store, testData(u"audit/responses.jsonl"_s)});
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

        run = runCli({u"report"_s, u"--store"_s, store, u"--format"_s, u"json"_s});
        QVERIFY2(run.exitCode > 0, qPrintable(u"exit %1: %2"_s.arg(run.exitCode).arg(run.err)));
        QVERIFY2(run.err.contains(named), qPrintable(run.err));

        run = runCli({u"audit"_s, u"--store"_s, store});
        QVERIFY2(run.exitCode > 0, qPrintable(u"exit %1: %2"_s.arg(run.exitCode).arg(run.err)));
        QVERIFY2(run.err.contains(named), qPrintable(run.err));
    }

    void auditQueueThenGoldExportRoundTrip()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString store = dir.filePath(u"audit.db"_s);
        Run run = runCli({u"import"_s, u"--format"_s, u"jsonl"_s, u"--suite"_s, testData(u"audit/suite"_s),
                               u"--store"_s, store, testData(u"audit/responses.jsonl"_s)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));

        // c-1's gold age is 14; three of four models say 41 (tests/data/audit/README.md).
        run = runCli({u"audit"_s, u"--store"_s, store});
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
        QCOMPARE(source.value(u"consensus"_s).toObject().value(u"snippet"_s).toString(), u"Ann is «41» and lives in Oslo."_s);
        QCOMPARE(source.value(u"gold"_s).toObject().value(u"found"_s).toBool(), false);
        const QJsonArray flags = queue.value(u"uniform_failures"_s).toArray();
        QCOMPARE(flags.size(), 1);
        QCOMPARE(flags.first().toObject().value(u"category"_s).toString(), u"pet"_s);

        // c-3: half the models say "dog"; the input says "Our cat sleeps.", so only --keep-reworded lists it.
        run = runCli({u"audit"_s, u"--store"_s, store, u"--min-support"_s, u"0.5"_s});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(QJsonDocument::fromJson(run.out.toUtf8()).object().value(u"items"_s).toArray().size(), 1);
        run = runCli({u"audit"_s, u"--store"_s, store, u"--min-support"_s, u"0.5"_s, u"--keep-reworded"_s});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(QJsonDocument::fromJson(run.out.toUtf8()).object().value(u"items"_s).toArray().size(), 2);

        const QString out = dir.filePath(u"corrected"_s);
        run = runCli({u"gold"_s, u"export"_s, u"--store"_s, store, u"--suite"_s, u"audit-tiny"_s, u"--out"_s, out});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(u"wrote audit-tiny 1.0.0 to "_s), qPrintable(run.out));
        QVERIFY(QFile::exists(QDir(out).filePath(u"CHANGELOG.md"_s)));
        run = runCli({u"check"_s, u"--suite"_s, out});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(run.out.contains(u"cases: 3"_s));

        run = runCli({u"gold"_s, u"export"_s, u"--store"_s, store, u"--suite"_s, u"audit-tiny"_s, u"--out"_s, out});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(u"is not empty; pass --force"_s), qPrintable(run.err));
        run = runCli({u"gold"_s, u"export"_s, u"--store"_s, store, u"--suite"_s, u"audit-tiny"_s, u"--out"_s, out,
                           u"--force"_s});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        run = runCli({u"gold"_s, u"export"_s, u"--store"_s, store, u"--suite"_s, u"nope"_s, u"--out"_s,
                           dir.filePath(u"other"_s)});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(u"no suite \"nope\""_s), qPrintable(run.err));
    }
    // After c-1's gold age is corrected from 14 to 41, `report --gold both` lists each model twice, measured
    // then adjusted. ladder.correct by hand (tests/data/audit/README.md): m-a answers 41/Bergen/dog, so 0 of 3
    // measured and 1 of 3 adjusted; m-d answers 14 and fish: 1 of 2 measured, 0 of 2 adjusted.
    void reportShowsBothGoldBasesSideBySide()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString storePath = dir.filePath(u"both.db"_s);
        Run run = runCli({u"import"_s, u"--format"_s, u"jsonl"_s, u"--suite"_s, testData(u"audit/suite"_s),
                               u"--store"_s, storePath, testData(u"audit/responses.jsonl"_s)});
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
            QCOMPARE(int(structscope::applyGoldEdit(*store, edit).status),
                     int(structscope::GoldEditOutcome::Status::Added));
        }
        run = runCli({u"report"_s, u"--store"_s, storePath, u"--format"_s, u"json"_s, u"--metrics"_s,
                           u"ladder"_s, u"--gold"_s, u"both"_s, u"--bootstrap"_s, u"10"_s});
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
        QCOMPARE(order.mid(0, 2), (QStringList{u"m-a/measured"_s, u"m-a/adjusted"_s}));
        QCOMPARE(order.size(), 8);
        QCOMPARE(correct.value(u"m-a/measured"_s), 0.0);
        QCOMPARE(correct.value(u"m-a/adjusted"_s), 1.0 / 3.0);
        QCOMPARE(correct.value(u"m-d/measured"_s), 0.5);
        QCOMPARE(correct.value(u"m-d/adjusted"_s), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
