// SPDX-License-Identifier: Apache-2.0
// `structscope chart`: renders the sample store (uitestdata.h) headless to PNG, SVG and PDF from the
// command line; each file is checked to be valid and, for SVG, to name every model. Bad input is a
// usage error (exit 2) with a message that says what is wrong.
#include "uitestdata.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

constexpr int kTimeoutMs = 60000;
const QStringList kModels = { u"demo/model-a"_s, u"demo/model-b"_s, u"demo/model-c"_s };

} // namespace

class TestCharts : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_store;

private Q_SLOTS:
    void initTestCase();
    void chartCommand_data();
    void chartCommand();
    void chartCommandRefusesBadInput_data();
    void chartCommandRefusesBadInput();
};

void TestCharts::initTestCase()
{
#ifndef STRUCTSCOPE_BINARY
    QSKIP("the structscope executable is not built");
#endif
    QVERIFY(m_dir.isValid());
    QString error;
    m_store = uitest::makeSampleStore(m_dir.path(), &error);
    QVERIFY2(!m_store.isEmpty(), qPrintable(error));
}

void TestCharts::chartCommand_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("out");
    QTest::addRow("leaderboard png") << QStringList({ u"--kind"_s, u"leaderboard"_s, u"--dpi"_s, u"96"_s })
                                     << u"cli-leaderboard.png"_s;
    QTest::addRow("leaderboard svg") << QStringList({ u"--kind"_s, u"leaderboard"_s, u"--metric"_s,
        u"grounding.json_parse"_s }) << u"cli-leaderboard.svg"_s;
    QTest::addRow("heatmap svg by tier") << QStringList({ u"--kind"_s, u"heatmap"_s, u"--by"_s, u"tier"_s })
                                         << u"cli-heatmap.svg"_s;
    QTest::addRow("heatmap pdf") << QStringList({ u"--kind"_s, u"heatmap"_s }) << u"cli-heatmap.pdf"_s;
    QTest::addRow("scatter svg") << QStringList({ u"--kind"_s, u"scatter"_s }) << u"cli-scatter.svg"_s;
    // Which cases fail for which of the three models.
    QTest::addRow("venn svg") << QStringList({ u"--kind"_s, u"venn"_s }) << u"cli-venn.svg"_s;
    QTest::addRow("upset png") << QStringList({ u"--kind"_s, u"upset"_s, u"--by"_s, u"model"_s }) << u"cli-upset.png"_s;
}

void TestCharts::chartCommand()
{
#ifndef STRUCTSCOPE_BINARY
    QSKIP("the structscope executable is not built");
#else
    QFETCH(QStringList, args);
    QFETCH(QString, out);
    const QString path = m_dir.filePath(out);
    QProcess process;
    process.start(QStringLiteral(STRUCTSCOPE_BINARY),
        QStringList({ u"chart"_s, u"--store"_s, m_store, u"--out"_s, path }) + args);
    QVERIFY(process.waitForFinished(kTimeoutMs));
    QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
    const QString problem = uitest::checkChartFile(path, kModels);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    if (out.endsWith(u"heatmap.svg"_s))
        QVERIFY(uitest::readAll(path).contains("medium"));
#endif
}

void TestCharts::chartCommandRefusesBadInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::addRow("no kind") << QStringList({ u"--out"_s, u"x.png"_s }) << 2 << u"required"_s;
    QTest::addRow("unknown kind") << QStringList({ u"--kind"_s, u"pie"_s, u"--out"_s, u"x.png"_s }) << 2
                                  << u"unknown kind 'pie'"_s;
    QTest::addRow("bad suffix") << QStringList({ u"--kind"_s, u"heatmap"_s, u"--out"_s, u"x.gif"_s }) << 2
                                << u".png, .svg or .pdf"_s;
    QTest::addRow("bad metric") << QStringList({ u"--kind"_s, u"heatmap"_s, u"--metric"_s, u"nope"_s, u"--out"_s,
        u"x.svg"_s }) << 2 << u"unknown metric 'nope'"_s;
    QTest::addRow("bad key") << QStringList({ u"--kind"_s, u"heatmap"_s, u"--by"_s, u"colour"_s, u"--out"_s,
        u"x.svg"_s }) << 2 << u"cannot group by 'colour'"_s;
    QTest::addRow("bad dpi") << QStringList({ u"--kind"_s, u"heatmap"_s, u"--dpi"_s, u"5"_s, u"--out"_s, u"x.png"_s })
                             << 2 << u"--dpi"_s;
    QTest::addRow("metric not in store") << QStringList(
        { u"--kind"_s, u"leaderboard"_s, u"--metric"_s, u"contract.semantic_success"_s, u"--out"_s, u"x.svg"_s })
                                         << 1 << u"no values of contract.semantic_success"_s;
}

void TestCharts::chartCommandRefusesBadInput()
{
#ifndef STRUCTSCOPE_BINARY
    QSKIP("the structscope executable is not built");
#else
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QProcess process;
    process.setWorkingDirectory(m_dir.path());
    process.start(QStringLiteral(STRUCTSCOPE_BINARY), QStringList({ u"chart"_s, u"--store"_s, m_store }) + args);
    QVERIFY(process.waitForFinished(kTimeoutMs));
    const QString err = QString::fromUtf8(process.readAllStandardError());
    QCOMPARE(process.exitCode(), exitCode);
    QVERIFY2(err.contains(message), qPrintable(err));
#endif
}

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
