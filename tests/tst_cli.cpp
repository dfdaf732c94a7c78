// The headless command line: help, exit codes, and `check` on good and broken suites.
#include <QProcess>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run structscope(const QStringList& args)
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
        const Run run = structscope({u"--help"_s});
        QCOMPARE(run.exitCode, 0);
        for (const char* command : {"run", "import", "check", "report", "chart", "audit", "gold export", "serve-sim", "demo"})
            QVERIFY2(run.out.contains(u"structscope "_s + QLatin1String(command)), command);
    }

    void versionPrints()
    {
        const Run run = structscope({u"--version"_s});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith(u"structscope "_s));
    }

    void unbuiltSubcommandsSaySo_data()
    {
        QTest::addColumn<QString>("command");
        for (const char* c : {"run", "import", "chart", "audit", "gold", "serve-sim", "demo"})
            QTest::newRow(c) << QString::fromLatin1(c);
    }

    void unbuiltSubcommandsSaySo()
    {
        QFETCH(QString, command);
        const Run run = structscope({command});
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains(u"not built yet"_s), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
    }

    void unknownCommandIsAUsageError()
    {
        const Run run = structscope({u"frobnicate"_s});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains(u"unknown command 'frobnicate'"_s));
    }

    void checkNeedsASuite()
    {
        Run run = structscope({u"check"_s});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains(u"--suite DIR is required"_s));
        run = structscope({u"check"_s, u"--suite"_s});
        QCOMPARE(run.exitCode, 2);
        run = structscope({u"check"_s, u"--bogus"_s});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains(u"bogus"_s));
    }

    void checkAcceptsACleanSuite()
    {
        const Run run = structscope({u"check"_s, u"--suite"_s, testData(u"suite/valid"_s)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(run.out.contains(u"tiny (Tiny suite 0.1.0): OK"_s));
        QVERIFY(run.out.contains(u"cases: 2"_s));
        QVERIFY(run.out.contains(u"schemas: 1"_s));
        QVERIFY(run.out.contains(u"simple: 2"_s));
    }

    void checkListsEveryProblemWithItsPlace()
    {
        const Run run = structscope({u"check"_s, u"--suite"_s, testData(u"suite/broken"_s)});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(u"cases.jsonl:1: /gold/items/0/quantity: "_s), qPrintable(run.err));
        QVERIFY2(run.err.contains(u"cases.jsonl:2: /id: case id \"o-1\" is already used on line 1"_s), qPrintable(run.err));
        QVERIFY2(run.err.contains(u"cases.jsonl:2: /gold/status: "_s), qPrintable(run.err));
        QVERIFY2(run.err.contains(u"cases.jsonl:3: /category: category \"unknown\" is not declared"_s), qPrintable(run.err));
        QVERIFY(run.err.contains(u"4 problem(s); the suite is refused"_s));
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
                                  << u"--gold must be measured or adjusted"_s;
    }

    void reportRefusesBadArguments()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run run = structscope(args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
    }

    void reportOnAMissingStoreFails()
    {
        const Run run = structscope({u"report"_s, u"--store"_s, u"/nonexistent/none.db"_s, u"--format"_s, u"json"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.out.isEmpty());
        QVERIFY(!run.err.isEmpty());
    }

    void checkOnAMissingFolder()
    {
        const Run run = structscope({u"check"_s, u"--suite"_s, u"/nonexistent/suite"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains(u"not a folder"_s));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
