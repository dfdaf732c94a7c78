// SPDX-License-Identifier: Apache-2.0
// SOB's own published figures, reproduced: every record of SOB's image response files imports, and the per-model
// means of its ten metrics, unweighted and weighted, equal the eval_summary.json SOB's evaluator published for each
// model (docs/metrics.md §3). Reads the checked-in subset (tests/data/sob-published), or a whole SOB checkout named
// by STRUCTSCOPE_SOB_DATA (its root: data/images_responses and data/evaluation/image).

#include "io/sobimporter.h"
#include "report/aggregator.h"
#include "report/evaluation.h"
#include "report/sobevaluation.h"
#include "store/resultstore.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace Qt::StringLiterals;
using namespace structscope;
using nlohmann::json;

namespace {

/// SOB's metric names in eval_summary.json → StructScope's ids.
const std::vector<std::pair<std::string, std::string>>& metricIds()
{
    static const std::vector<std::pair<std::string, std::string>> ids {
        { "json_parse_success", "grounding.json_parse" },
        { "json_root_structured", "grounding.json_root" },
        { "schema_valid_input", "grounding.schema_valid_input" },
        { "schema_compliance", "grounding.json_pass" },
        { "leaf_value_em", "grounding.value_accuracy" },
        { "value_token_f1", "grounding.faithfulness" },
        { "hier_path_recall", "grounding.path_recall" },
        { "path_set_f1", "grounding.structure_coverage" },
        { "type_precision", "grounding.type_safety" },
        { "strict_json_em", "grounding.perfect" },
    };
    return ids;
}

/// One published summary: the model it is of, the response file it was made from, and the summary itself.
struct Published
{
    QString model;
    QString responseFile; ///< absolute
    json summary;
};

QString dataRoot()
{
    const QByteArray given = qgetenv("STRUCTSCOPE_SOB_DATA");
    return given.isEmpty() ? QStringLiteral(STRUCTSCOPE_TEST_DATA) + u"/sob-published"_s
                           : QString::fromLocal8Bit(given);
}

/// Every eval_summary.json of the image modality, with its response file; a problem fails the test.
std::vector<Published> publishedSummaries(const QString& root, QString& problem)
{
    std::vector<Published> out;
    const QDir evaluations(root + u"/data/evaluation/image"_s);
    const QStringList models = evaluations.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString& dir : models) {
        QFile file(evaluations.filePath(dir + u"/eval_summary.json"_s));
        if (!file.open(QIODevice::ReadOnly)) {
            problem = u"cannot read %1"_s.arg(file.fileName());
            return {};
        }
        Published p;
        p.summary = json::parse(file.readAll().toStdString(), nullptr, false);
        if (p.summary.is_discarded() || !p.summary.contains("model_ids") || p.summary["model_ids"].size() != 1) {
            problem = u"%1 is not a summary of one model"_s.arg(file.fileName());
            return {};
        }
        p.model = QString::fromStdString(p.summary["model_ids"][0].get<std::string>());
        const QString responses = QString::fromStdString(p.summary.value("response_file", std::string()));
        p.responseFile = QDir(root).filePath(u"data/images_responses/"_s + QFileInfo(responses).fileName());
        if (!QFileInfo::exists(p.responseFile)) {
            problem = u"%1 names %2, which is not there"_s.arg(file.fileName(), p.responseFile);
            return {};
        }
        out.push_back(std::move(p));
    }
    if (out.empty())
        problem = u"no summaries under %1"_s.arg(evaluations.path());
    return out;
}

QStringList responseFiles(const std::vector<Published>& published)
{
    QStringList files;
    for (const Published& p : published)
        files << p.responseFile;
    return files;
}

qint64 lineCount(const QStringList& files)
{
    qint64 lines = 0;
    for (const QString& name : files) {
        QFile file(name);
        if (!file.open(QIODevice::ReadOnly))
            return -1;
        while (!file.atEnd()) {
            if (!file.readLine().trimmed().isEmpty())
                ++lines;
        }
    }
    return lines;
}

/// Compares the report's per-model means (unweighted and weighted) with each published summary: the number of values
/// that agree within 1e-9; every one that does not is listed in `mismatches`.
int compareWithPublished(const Report& report, const std::vector<Published>& published, QStringList& mismatches)
{
    std::map<std::string, const ReportGroup*> byModel;
    for (const ReportGroup& group : report.groups)
        byModel[group.key.at(0).second] = &group;
    int agreeing = 0;
    for (const Published& p : published) {
        const auto found = byModel.find(p.model.toStdString());
        if (found == byModel.end()) {
            mismatches << u"%1: not in the report"_s.arg(p.model);
            continue;
        }
        const ReportGroup& group = *found->second;
        if (group.n != p.summary["summary"]["overall"]["n"].get<int>())
            mismatches << u"%1: n %2, published %3"_s.arg(p.model).arg(group.n).arg(
                p.summary["summary"]["overall"]["n"].get<int>());
        for (const char* basis : { "overall", "overall_weighted" }) {
            const bool weighted = std::string_view(basis) == "overall_weighted";
            const json& metrics = p.summary["summary"][basis]["metrics"];
            for (const auto& [sob, id] : metricIds()) {
                const double expected = metrics[sob]["mean"].get<double>();
                const auto& means = weighted ? group.weightedMean : group.mean;
                const auto value = means.find(id);
                if (value == means.end()) {
                    mismatches << u"%1 %2 %3: missing"_s.arg(p.model, QLatin1String(basis), QString::fromStdString(id));
                } else if (!(std::fabs(value->second - expected) <= 1e-9)) {
                    mismatches << u"%1 %2 %3: %4, published %5"_s.arg(p.model, QLatin1String(basis),
                        QString::fromStdString(id), QString::number(value->second, 'g', 17),
                        QString::number(expected, 'g', 17));
                } else {
                    ++agreeing;
                }
            }
        }
    }
    return agreeing;
}

Report perModel(const Evaluation& evaluation)
{
    AggregateOptions options;
    options.groupBy = { "model" };
    options.families = { "grounding" };
    options.intervals = false;
    return aggregate(evaluation.records, options);
}

} // namespace

class TestSobPublished : public QObject
{
    Q_OBJECT

private:
    std::vector<Published> m_published;
    QString m_root;

private Q_SLOTS:
    void initTestCase();
    // Imported into a store, every line is kept and the store's report gives SOB's published means.
    void importedStoreGivesThePublishedMeans();
    // Scored without a store (`report --sob`), the same.
    void filesScoredWithoutAStoreGiveThePublishedMeans();
    // Each case's category is SOB's document source (metadata.source_category), also where the first file read
    // (openai-gpt-5's, like three more of the 34) leaves it out: SOB's seven sources, never the modality.
    void categoriesAreSobsDocumentSources();
#ifdef STRUCTSCOPE_BINARY
    // The command a user gives: `structscope import` keeps every line and exits 0.
    void importCommandKeepsEveryLine();
#endif
};

void TestSobPublished::initTestCase()
{
    m_root = dataRoot();
    QString problem;
    m_published = publishedSummaries(m_root, problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    qInfo("%d published summaries under %s", int(m_published.size()), qPrintable(m_root));
}

void TestSobPublished::importedStoreGivesThePublishedMeans()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    auto store = ResultStore::open(dir.filePath(u"sob.db"_s), &error);
    QVERIFY2(store, qPrintable(error));
    const QStringList files = responseFiles(m_published);
    SobImportOptions options;
    options.modality = Modality::Image;
    const ImportSummary imported = importSobFiles(*store, files, options);
    QVERIFY(imported.ok());
    QCOMPARE(imported.malformed, 0);
    QCOMPARE(imported.skipped, 0);
    QCOMPARE(imported.records, lineCount(files));
    QCOMPARE(imported.responses, imported.records);
    QVERIFY(imported.askedWithOtherSchema > 0); // the gemini and gemma files were sent variants

    const Evaluation evaluation = evaluateStore(*store);
    QVERIFY2(evaluation.ok(), qPrintable(evaluation.error));
    QStringList mismatches;
    const int agreeing = compareWithPublished(perModel(evaluation), m_published, mismatches);
    QVERIFY2(mismatches.isEmpty(), qPrintable(mismatches.mid(0, 40).join(u"\n"_s)));
    QCOMPARE(agreeing, int(m_published.size()) * 20);
}

void TestSobPublished::filesScoredWithoutAStoreGiveThePublishedMeans()
{
    SobImportOptions options;
    options.modality = Modality::Image;
    const QStringList files = responseFiles(m_published);
    const SobRecords read = readSobFiles(files, options);
    QCOMPARE(read.summary.malformed, 0);
    QCOMPARE(read.summary.skipped, 0);
    QCOMPARE(qint64(read.responses.size()), lineCount(files));
    const Evaluation evaluation = evaluateSobRecords(read);
    QVERIFY(evaluation.ok());
    QStringList mismatches;
    const int agreeing = compareWithPublished(perModel(evaluation), m_published, mismatches);
    QVERIFY2(mismatches.isEmpty(), qPrintable(mismatches.mid(0, 40).join(u"\n"_s)));
    QCOMPARE(agreeing, int(m_published.size()) * 20);
}

void TestSobPublished::categoriesAreSobsDocumentSources()
{
    SobImportOptions options;
    options.modality = Modality::Image;
    const SobRecords read = readSobFiles(responseFiles(m_published), options);
    QHash<QString, int> casesPer;
    for (const CaseImport& c : read.cases)
        ++casesPer[c.category];
    // Counted by hand from the files (every file holds the same 209 records).
    const QHash<QString, int> expected { { u"headers_footers"_s, 67 }, { u"multi_column"_s, 62 }, { u"tables"_s, 33 },
        { u"old_scans"_s, 23 }, { u"long_tiny_text"_s, 11 }, { u"arxiv_math"_s, 10 }, { u"old_scans_math"_s, 3 } };
    QCOMPARE(casesPer, expected);
}

void TestSobPublished::importCommandKeepsEveryLine()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QProcess process;
    process.start(QStringLiteral(STRUCTSCOPE_BINARY),
        QStringList { u"import"_s, u"--format"_s, u"sob"_s, u"--modality"_s, u"image"_s, u"--no-keep-verdicts"_s,
            u"--store"_s, dir.filePath(u"cli.db"_s) }
            + responseFiles(m_published));
    QVERIFY(process.waitForFinished(600000));
    const QString output = QString::fromUtf8(process.readAllStandardOutput());
    QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0,
        qPrintable(output + QString::fromUtf8(process.readAllStandardError())));
    QVERIFY2(
        output.contains(u"imported %1 response(s)"_s.arg(lineCount(responseFiles(m_published)))), qPrintable(output));
    QVERIFY2(output.contains(u"0 malformed, 0 skipped"_s), qPrintable(output));
}

QTEST_GUILESS_MAIN(TestSobPublished)
#include "tst_sobpublished.moc"
