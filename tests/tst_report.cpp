// Tests of the report writers (JSON, Markdown, CSV, LaTeX). The expected texts were written by
// hand from the fixtures below: widths counted in characters, numbers rounded on paper.

#include "report/reportformatting.h"
#include "report/reportwriter.h"
#include "report/sidebyside.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cctype>
#include <cmath>
#include <limits>

using namespace structscope;
using namespace Qt::StringLiterals;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// The key holds every character a writer must escape or quote: comma, quote, pipe, underscore.
const std::string kAwkwardModel = R"(gpt_x "v|2", big)";

// Two groups, three metrics: a higher-better and a lower-better rate, and a mean with a weighted
// mean in one group only; a NaN (and a NaN interval) in the second group; a tie on value accuracy.
Report sampleReport()
{
    Report report;
    report.groupBy = { "model", "strategy" };
    report.metrics = { "ladder.correct", "ladder.invalid_json", "grounding.value_accuracy" };

    ReportGroup first;
    first.key = { { "model", kAwkwardModel }, { "strategy", "P" } };
    first.n = 209;
    first.mean
        = { { "ladder.correct", 0.1 + 0.2 }, { "ladder.invalid_json", 0.05 }, { "grounding.value_accuracy", 0.67 } };
    first.weightedMean = { { "grounding.value_accuracy", 0.7134 } };
    first.ci95 = { { "ladder.correct", { 0.25, 0.35 } }, { "ladder.invalid_json", { 0.02, 0.09 } },
        { "grounding.value_accuracy", { 0.62, 0.71 } } };

    ReportGroup second;
    second.key = { { "model", "llama-3" }, { "strategy", "J+" } };
    second.n = 10;
    second.mean = { { "ladder.correct", kNaN }, { "ladder.invalid_json", 0.1 }, { "grounding.value_accuracy", 0.67 } };
    second.ci95 = { { "ladder.correct", { kNaN, kNaN } }, { "ladder.invalid_json", { 0.0, 0.3 } },
        { "grounding.value_accuracy", { 0.6, 0.74 } } };

    report.groups = { first, second };
    return report;
}

// What a careless caller may hand over: a key name groupBy lacks, a group with no key, a repeated
// metric, an unknown metric, plain values (latency), an infinity.
Report oddReport()
{
    Report report;
    report.groupBy = { "model" };
    report.metrics = { "ladder.latency_p95", "ladder.latency_p95", "custom.score" };

    ReportGroup first;
    first.key = { { "model", "a" }, { "tier", "hard" } };
    first.n = 3;
    first.mean = { { "ladder.latency_p95", 1234.56 }, { "custom.score", kInf } };
    first.ci95 = { { "ladder.latency_p95", { 1000.4, 1500.25 } } };

    ReportGroup second;
    second.n = 0;
    second.mean = { { "ladder.latency_p95", 0.8 }, { "custom.score", -2.5 } };
    second.weightedMean = { { "custom.score", 0.00041 } };

    report.groups = { first, second };
    return report;
}

Report fixture(const QString& name)
{
    if (name == u"sample"_s)
        return sampleReport();
    if (name == u"odd"_s)
        return oddReport();
    return Report {}; // "empty"
}

QByteArray bytes(const std::string& s)
{
    return QByteArray(s.data(), static_cast<qsizetype>(s.size()));
}

std::string str(const QByteArray& b)
{
    return std::string(b.constData(), static_cast<std::size_t>(b.size()));
}

// RFC 4180 reader, just enough to read back what the writer produced.
std::vector<std::vector<std::string>> parseCsv(const std::string& text, bool* ok)
{
    std::vector<std::vector<std::string>> rows(1);
    std::string field;
    bool quoted = false;
    *ok = true;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"' && field.empty()) {
            quoted = true;
        } else if (c == ',') {
            rows.back().push_back(field);
            field.clear();
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            rows.back().push_back(field);
            field.clear();
            rows.emplace_back();
            ++i;
        } else if (c == '"' || c == '\r' || c == '\n') {
            *ok = false; // a stray quote or a bare line end
        } else {
            field += c;
        }
    }
    if (quoted || !field.empty() || !rows.back().empty())
        *ok = false; // every record must end with CRLF
    rows.pop_back();
    return rows;
}

bool isValidUtf8(const QByteArray& text)
{
    return QString::fromUtf8(text).toUtf8() == text;
}

// One column of metric values over groups g0, g1, …; returns which rows the LaTeX writer made bold.
QList<bool> boldInLatex(const std::string& metric, const QList<double>& values)
{
    Report report;
    report.groupBy = { "g" };
    report.metrics = { metric };
    for (qsizetype i = 0; i < values.size(); ++i) {
        ReportGroup group;
        group.key = { { "g", "g" + std::to_string(i) } };
        group.n = 1;
        group.mean = { { metric, values[i] } };
        report.groups.push_back(group);
    }
    const QList<QByteArray> lines = bytes(writeReportLatex(report)).split('\n');
    QList<bool> bold;
    for (const QByteArray& line : lines) {
        if (line.size() < 2 || line[0] != 'g' || !std::isdigit(static_cast<unsigned char>(line[1])))
            continue; // not a group row (the header starts with "g &")
        const QList<QByteArray> cells = line.split('&');
        bold.append(cells.size() == 3 && cells[2].trimmed().startsWith("\\textbf{"));
    }
    return bold;
}

// Separators a reader would split a row at: `sep` not escaped by a backslash (GFM and TeX alike).
int unescapedCount(const QByteArray& line, char sep)
{
    int count = 0;
    for (qsizetype i = 0; i < line.size(); ++i) {
        if (line[i] == '\\')
            ++i;
        else if (line[i] == sep)
            ++count;
    }
    return count;
}

// Braces of a TeX line balance, ignoring \{ and \}.
bool bracesBalance(const QByteArray& line)
{
    int depth = 0;
    for (qsizetype i = 0; i < line.size() && depth >= 0; ++i) {
        if (line[i] == '\\')
            ++i;
        else if (line[i] == '{')
            ++depth;
        else if (line[i] == '}')
            --depth;
    }
    return depth == 0;
}

} // namespace

class TestReport : public QObject
{
    Q_OBJECT

private slots:
    void writers_data();
    void writers();
    void jsonParsesBack();
    void jsonNumbers_data();
    void jsonNumbers();
    void csvParsesBack_data();
    void csvParsesBack();
    void csvField_data();
    void csvField();
    void markdownCell_data();
    void markdownCell();
    void latexText_data();
    void latexText();
    void tablesStayIntact_data();
    void tablesStayIntact();
    void latexBest_data();
    void latexBest();
    void displayNumber_data();
    void displayNumber();
    void invalidUtf8_data();
    void invalidUtf8();
    void writeReportByName_data();
    void writeReportByName();
    void latexCompiles();
    void goldSideBySide();
};

void TestReport::writers_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("caption");
    QTest::addColumn<QByteArray>("expected");

    QTest::addRow("json/sample") << u"json"_s << u"sample"_s << QString() << QByteArray(R"({
  "gold": "measured",
  "group_by": [
    "model",
    "strategy"
  ],
  "metrics": [
    "ladder.correct",
    "ladder.invalid_json",
    "grounding.value_accuracy"
  ],
  "groups": [
    {
      "key": {
        "model": "gpt_x \"v|2\", big",
        "strategy": "P"
      },
      "n": 209,
      "mean": {
        "ladder.correct": 0.30000000000000004,
        "ladder.invalid_json": 0.05,
        "grounding.value_accuracy": 0.67
      },
      "weighted_mean": {
        "grounding.value_accuracy": 0.7134
      },
      "ci95": {
        "ladder.correct": [
          0.25,
          0.35
        ],
        "ladder.invalid_json": [
          0.02,
          0.09
        ],
        "grounding.value_accuracy": [
          0.62,
          0.71
        ]
      }
    },
    {
      "key": {
        "model": "llama-3",
        "strategy": "J+"
      },
      "n": 10,
      "mean": {
        "ladder.correct": null,
        "ladder.invalid_json": 0.1,
        "grounding.value_accuracy": 0.67
      },
      "weighted_mean": {},
      "ci95": {
        "ladder.correct": [
          null,
          null
        ],
        "ladder.invalid_json": [
          0.0,
          0.3
        ],
        "grounding.value_accuracy": [
          0.6,
          0.74
        ]
      }
    }
  ]
}
)");

    QTest::addRow("json/odd") << u"json"_s << u"odd"_s << QString() << QByteArray(R"({
  "gold": "measured",
  "group_by": [
    "model",
    "tier"
  ],
  "metrics": [
    "ladder.latency_p95",
    "custom.score"
  ],
  "groups": [
    {
      "key": {
        "model": "a",
        "tier": "hard"
      },
      "n": 3,
      "mean": {
        "ladder.latency_p95": 1234.56,
        "custom.score": null
      },
      "weighted_mean": {},
      "ci95": {
        "ladder.latency_p95": [
          1000.4,
          1500.25
        ]
      }
    },
    {
      "key": {},
      "n": 0,
      "mean": {
        "ladder.latency_p95": 0.8,
        "custom.score": -2.5
      },
      "weighted_mean": {
        "custom.score": 0.00041
      },
      "ci95": {}
    }
  ]
}
)");

    QTest::addRow("json/empty") << u"json"_s << u"empty"_s << QString() << QByteArray(R"({
  "gold": "measured",
  "group_by": [],
  "metrics": [],
  "groups": []
}
)");

    QTest::addRow("csv/sample")
        << u"csv"_s << u"sample"_s << QString()
        << QByteArray(
               "model,strategy,n,"
               "ladder.correct,ladder.correct.ci_low,ladder.correct.ci_high,"
               "ladder.invalid_json,ladder.invalid_json.ci_low,ladder.invalid_json.ci_high,"
               "grounding.value_accuracy,grounding.value_accuracy.weighted,"
               "grounding.value_accuracy.ci_low,grounding.value_accuracy.ci_high\r\n"
               "\"gpt_x \"\"v|2\"\", big\",P,209,0.30000000000000004,0.25,0.35,0.05,0.02,0.09,0.67,0.7134,0.62,0.71\r\n"
               "llama-3,J+,10,,,,0.1,0,0.3,0.67,,0.6,0.74\r\n");

    QTest::addRow("csv/odd") << u"csv"_s << u"odd"_s << QString()
                             << QByteArray("model,tier,n,ladder.latency_p95,ladder.latency_p95.ci_low,"
                                           "ladder.latency_p95.ci_high,custom.score,custom.score.weighted,"
                                           "custom.score.ci_low,custom.score.ci_high\r\n"
                                           "a,hard,3,1234.56,1000.4,1500.25,inf,,,\r\n"
                                           ",,0,0.8,,,-2.5,0.00041,,\r\n");

    QTest::addRow("csv/empty") << u"csv"_s << u"empty"_s << QString() << QByteArray("n\r\n");

    QTest::addRow("md/sample")
        << u"md"_s << u"sample"_s << QString()
        << QByteArray("| model             | strategy |   n |          ladder.correct |     ladder.invalid_json "
                      "| grounding.value_accuracy | grounding.value_accuracy (weighted) |\n"
                      "| ----------------- | -------- | --: | ----------------------: | ----------------------: "
                      "| -----------------------: | ----------------------------------: |\n"
                      "| gpt_x \"v\\|2\", big | P        | 209 | 0.3000 [0.2500, 0.3500] | 0.0500 [0.0200, 0.0900] "
                      "|  0.6700 [0.6200, 0.7100] |                              0.7134 |\n"
                      "| llama-3           | J+       |  10 |                     n/a | 0.1000 [0.0000, 0.3000] "
                      "|  0.6700 [0.6000, 0.7400] |                                     |\n");

    QTest::addRow("md/odd")
        << u"md"_s << u"odd"_s << QString()
        << QByteArray("| model | tier |   n | ladder.latency_p95 | custom.score | custom.score (weighted) |\n"
                      "| ----- | ---- | --: | -----------------: | -----------: | ----------------------: |\n"
                      "| a     | hard |   3 |  1235 [1000, 1500] |          inf |                         |\n"
                      "|       |      |   0 |             0.8000 |       -2.500 |                  0.0004 |\n");

    QTest::addRow("md/empty") << u"md"_s << u"empty"_s << QString() << QByteArray("|   n |\n| --: |\n");

    const QByteArray latexSampleBody
        = "\\begin{tabular}{llrrrrr}\n"
          "\\toprule\n"
          "model & strategy & n & ladder.correct & ladder.invalid\\_json & grounding.value\\_accuracy & "
          "grounding.value\\_accuracy (weighted) \\\\\n"
          "\\midrule\n"
          "gpt\\_x \"v\\textbar{}2\", big & P & 209 & \\textbf{0.300} {\\scriptsize[0.250, 0.350]} & "
          "\\textbf{0.050} {\\scriptsize[0.020, 0.090]} & \\textbf{0.670} {\\scriptsize[0.620, 0.710]} & "
          "\\textbf{0.713} \\\\\n"
          "llama-3 & J+ & 10 & -- & 0.100 {\\scriptsize[0.000, 0.300]} & \\textbf{0.670} {\\scriptsize[0.600, 0.740]} "
          "&  \\\\\n"
          "\\bottomrule\n"
          "\\end{tabular}\n";
    QTest::addRow("latex/sample") << u"latex"_s << u"sample"_s << QString()
                                  << QByteArray("% needs \\usepackage{booktabs}\n" + latexSampleBody);
    QTest::addRow("latex/sample with caption")
        << u"latex"_s << u"sample"_s << u"Results & 95% CIs (as_measured)"_s
        << QByteArray("% needs \\usepackage{booktabs}\n"
                      "\\begin{table}\n\\centering\n\\caption{Results \\& 95\\% CIs (as\\_measured)}\n"
               + latexSampleBody + "\\end{table}\n");

    QTest::addRow("latex/odd") << u"latex"_s << u"odd"_s << QString()
                               << QByteArray(
                                      "% needs \\usepackage{booktabs}\n"
                                      "\\begin{tabular}{llrrrr}\n"
                                      "\\toprule\n"
                                      "model & tier & n & ladder.latency\\_p95 & custom.score & "
                                      "custom.score (weighted) \\\\\n"
                                      "\\midrule\n"
                                      "a & hard & 3 & 1235 {\\scriptsize[1000, 1500]} & \\textbf{$\\infty$} &  \\\\\n"
                                      " &  & 0 & \\textbf{0.800} & -2.50 & \\textbf{0.000} \\\\\n"
                                      "\\bottomrule\n"
                                      "\\end{tabular}\n");

    QTest::addRow("latex/empty") << u"latex"_s << u"empty"_s << QString()
                                 << QByteArray("% needs \\usepackage{booktabs}\n"
                                               "\\begin{tabular}{r}\n\\toprule\nn \\\\\n\\midrule\n"
                                               "\\bottomrule\n\\end{tabular}\n");
}

void TestReport::writers()
{
    QFETCH(QString, format);
    QFETCH(QString, fixture);
    QFETCH(QString, caption);
    QFETCH(QByteArray, expected);

    const ReportText written = writeReport(::fixture(fixture), format.toStdString(), { caption.toStdString() });
    QVERIFY2(written.ok(), qPrintable(written.error));
    QCOMPARE(bytes(written.text), expected);
}

void TestReport::jsonParsesBack()
{
    const Report report = sampleReport();
    const std::string text = writeReportJson(report);
    const auto root = nlohmann::ordered_json::parse(text);

    QCOMPARE(root.at("groups").size(), 2u);
    const auto& first = root.at("groups").at(0);
    QCOMPARE(first.at("key").at("model").get<std::string>(), kAwkwardModel);
    // Key members keep the group-by order, not alphabetical order.
    QCOMPARE(first.at("key").begin().key(), std::string("model"));
    QCOMPARE(first.at("mean").begin().key(), std::string("ladder.correct"));
    QCOMPARE(first.at("mean").at("ladder.correct").get<double>(), 0.1 + 0.2);
    QVERIFY(first.at("mean").at("ladder.correct").get<double>() != 0.3);
    QCOMPARE(first.at("n").get<int>(), 209);
    QVERIFY(first.at("n").is_number_integer());
    QCOMPARE(first.at("ci95").at("grounding.value_accuracy").at(1).get<double>(), 0.71);

    const auto& second = root.at("groups").at(1);
    QVERIFY(second.at("mean").at("ladder.correct").is_null());
    QVERIFY(second.at("weighted_mean").is_object());
    QVERIFY(second.at("weighted_mean").empty());
    QVERIFY(!second.at("weighted_mean").contains("grounding.value_accuracy"));
}

void TestReport::jsonNumbers_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QByteArray>("text");

    QTest::addRow("0.1 + 0.2") << 0.1 + 0.2 << QByteArray("0.30000000000000004");
    QTest::addRow("one third") << 1.0 / 3 << QByteArray("0.3333333333333333");
    QTest::addRow("integral double stays a double") << 1.0 << QByteArray("1.0");
    QTest::addRow("negative zero") << -0.0 << QByteArray("-0.0");
    QTest::addRow("tiny") << 1e-300 << QByteArray("1e-300");
    QTest::addRow("smallest subnormal") << 5e-324 << QByteArray("5e-324");
    QTest::addRow("largest double") << 1.7976931348623157e308 << QByteArray("1.7976931348623157e+308");
    QTest::addRow("many digits") << 123456789.12345679 << QByteArray("123456789.12345679");
    QTest::addRow("NaN") << kNaN << QByteArray("null");
    QTest::addRow("+inf") << kInf << QByteArray("null");
    QTest::addRow("-inf") << -kInf << QByteArray("null");
}

void TestReport::jsonNumbers()
{
    QFETCH(double, value);
    QFETCH(QByteArray, text);

    Report report;
    report.metrics = { "m" };
    ReportGroup group;
    group.mean = { { "m", value } };
    report.groups = { group };
    const QByteArray json = bytes(writeReportJson(report));
    QVERIFY2(json.contains(QByteArray("\"m\": " + text + '\n')), json.constData());

    const auto parsed = nlohmann::json::parse(str(json)).at("groups").at(0).at("mean").at("m");
    if (!std::isfinite(value)) {
        QVERIFY(parsed.is_null());
        return;
    }
    const double back = parsed.get<double>();
    QCOMPARE(back, value);
    QCOMPARE(std::signbit(back), std::signbit(value));
}

void TestReport::csvParsesBack_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addRow("sample") << u"sample"_s;
    QTest::addRow("odd") << u"odd"_s;
    QTest::addRow("empty") << u"empty"_s;
}

void TestReport::csvParsesBack()
{
    QFETCH(QString, fixture);
    const Report report = ::fixture(fixture);
    bool ok = false;
    const auto rows = parseCsv(writeReportCsv(report), &ok);
    QVERIFY(ok);
    QCOMPARE(rows.size(), report.groups.size() + 1);
    for (const auto& row : rows)
        QCOMPARE(row.size(), rows.front().size());
    for (std::size_t g = 0; g < report.groups.size(); ++g) {
        const std::string* model = groupKeyValue(report.groups[g], "model");
        QCOMPARE(rows[g + 1].front(), model ? *model : std::string());
    }
    if (fixture == u"sample"_s) {
        QCOMPARE(std::stod(rows[1][3]), 0.1 + 0.2); // full precision survives
        QCOMPARE(rows[2][3], std::string()); // NaN
    }
}

void TestReport::csvField_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("expected");

    QTest::addRow("plain") << QByteArray("gpt-4o") << QByteArray("gpt-4o");
    QTest::addRow("empty") << QByteArray("") << QByteArray("");
    QTest::addRow("spaces kept unquoted") << QByteArray(" a b ") << QByteArray(" a b ");
    QTest::addRow("underscore and pipe need nothing") << QByteArray("a_b|c") << QByteArray("a_b|c");
    QTest::addRow("comma") << QByteArray("a,b") << QByteArray("\"a,b\"");
    QTest::addRow("quote doubled") << QByteArray("say \"hi\"") << QByteArray("\"say \"\"hi\"\"\"");
    QTest::addRow("only a quote") << QByteArray("\"") << QByteArray("\"\"\"\"");
    QTest::addRow("LF") << QByteArray("a\nb") << QByteArray("\"a\nb\"");
    QTest::addRow("CR") << QByteArray("a\rb") << QByteArray("\"a\rb\"");
    QTest::addRow("CRLF") << QByteArray("a\r\nb") << QByteArray("\"a\r\nb\"");
    QTest::addRow("UTF-8 kept") << QByteArray("Zürich") << QByteArray("Zürich");
    QTest::addRow("invalid UTF-8 replaced") << QByteArray("a\xff") << QByteArray("a\xef\xbf\xbd");
    // CSV injection: a cell a spreadsheet would run as a formula is made text with a leading quote.
    QTest::addRow("formula =") << QByteArray("=HYPERLINK(\"http://x\")") << QByteArray("\"'=HYPERLINK(\"\"http://x\"\")\"");
    QTest::addRow("formula +") << QByteArray("+cmd|' /C calc'!A0") << QByteArray("'+cmd|' /C calc'!A0");
    QTest::addRow("formula -") << QByteArray("-2+3") << QByteArray("'-2+3");
    QTest::addRow("formula @") << QByteArray("@SUM(A1)") << QByteArray("'@SUM(A1)");
    QTest::addRow("leading tab") << QByteArray("\t=1") << QByteArray("'\t=1");
    QTest::addRow("leading CR") << QByteArray("\r=1") << QByteArray("\"'\r=1\"");
    QTest::addRow("formula after a comma is quoted too") << QByteArray("=1,2") << QByteArray("\"'=1,2\"");
    QTest::addRow("negative number stays a number") << QByteArray("-0.5") << QByteArray("-0.5");
    QTest::addRow("signed exponent stays a number") << QByteArray("+1.5e-3") << QByteArray("+1.5e-3");
    QTest::addRow("lone minus") << QByteArray("-") << QByteArray("'-");
    QTest::addRow("minus then text") << QByteArray("-inf") << QByteArray("'-inf");
    QTest::addRow("= inside is harmless") << QByteArray("a=b") << QByteArray("a=b");
}

void TestReport::csvField()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, expected);
    QCOMPARE(bytes(structscope::csvField(str(text))), expected);
}

void TestReport::markdownCell_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("expected");

    QTest::addRow("plain") << QByteArray("gpt-4o") << QByteArray("gpt-4o");
    QTest::addRow("pipe") << QByteArray("a|b") << QByteArray("a\\|b");
    QTest::addRow("two pipes") << QByteArray("||") << QByteArray("\\|\\|");
    // Without escaping the backslash, "a\|b" would become "a\\|b": an escaped backslash, then a cell break.
    QTest::addRow("backslash before pipe") << QByteArray("a\\|b") << QByteArray("a\\\\\\|b");
    QTest::addRow("trailing backslash") << QByteArray("a\\") << QByteArray("a\\\\");
    QTest::addRow("LF") << QByteArray("a\nb") << QByteArray("a b");
    QTest::addRow("CRLF is one space") << QByteArray("a\r\nb") << QByteArray("a b");
    QTest::addRow("CR") << QByteArray("a\rb") << QByteArray("a b");
    QTest::addRow("underscore, comma, quote untouched") << QByteArray("a_b, \"c\"") << QByteArray("a_b, \"c\"");
    QTest::addRow("invalid UTF-8 replaced") << QByteArray("\xc3") << QByteArray("\xef\xbf\xbd");
    QTest::addRow("HTML escaped") << QByteArray("<img src=x onerror=alert(1)>") << QByteArray("&lt;img src=x onerror=alert(1)&gt;");
    QTest::addRow("ampersand escaped") << QByteArray("a&amp;b") << QByteArray("a&amp;amp;b");
}

void TestReport::markdownCell()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, expected);
    QCOMPARE(bytes(structscope::markdownCell(str(text))), expected);
}

void TestReport::latexText_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("expected");

    QTest::addRow("plain") << QByteArray("gpt-4o mini") << QByteArray("gpt-4o mini");
    QTest::addRow("&") << QByteArray("a&b") << QByteArray("a\\&b");
    QTest::addRow("%%") << QByteArray("50%") << QByteArray("50\\%");
    QTest::addRow("$") << QByteArray("$5") << QByteArray("\\$5");
    QTest::addRow("#") << QByteArray("#1") << QByteArray("\\#1");
    QTest::addRow("_") << QByteArray("invalid_json") << QByteArray("invalid\\_json");
    QTest::addRow("braces") << QByteArray("{x}") << QByteArray("\\{x\\}");
    QTest::addRow("~") << QByteArray("a~b") << QByteArray("a\\textasciitilde{}b");
    QTest::addRow("^") << QByteArray("x^2") << QByteArray("x\\textasciicircum{}2");
    QTest::addRow("backslash") << QByteArray("a\\b") << QByteArray("a\\textbackslash{}b");
    QTest::addRow("backslash then letters") << QByteArray("\\textbf") << QByteArray("\\textbackslash{}textbf");
    QTest::addRow("brackets") << QByteArray("[x]") << QByteArray("{[}x{]}");
    QTest::addRow("pipe") << QByteArray("a|b") << QByteArray("a\\textbar{}b");
    QTest::addRow("angle brackets") << QByteArray("<b>") << QByteArray("\\textless{}b\\textgreater{}");
    QTest::addRow("line break") << QByteArray("a\nb") << QByteArray("a b");
    QTest::addRow("tab and DEL") << QByteArray("a\tb\x7f") << QByteArray("a b ");
    QTest::addRow("all at once") << QByteArray("50% of $5 & #1_{x}") << QByteArray("50\\% of \\$5 \\& \\#1\\_\\{x\\}");
    QTest::addRow("quote and comma untouched") << QByteArray("\"a\", b") << QByteArray("\"a\", b");
    QTest::addRow("UTF-8 kept") << QByteArray("Zürich") << QByteArray("Zürich");
    QTest::addRow("invalid UTF-8 replaced") << QByteArray("\x80") << QByteArray("\xef\xbf\xbd");
}

void TestReport::latexText()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, expected);
    QCOMPARE(bytes(structscope::latexText(str(text))), expected);
}

void TestReport::tablesStayIntact_data()
{
    QTest::addColumn<QByteArray>("key");

    for (const char* key : { "a|b", "a\\|b", "|", "\\", "x\\", "\\\\&", "a&b", "50%", "{", "}", "[x]", "]", "a\nb",
             "a\r\nb", "~^#$_", "a,\"b\"", "" })
        QTest::addRow("%s", QByteArray(key).toPercentEncoding().constData()) << QByteArray(key);
}

void TestReport::tablesStayIntact()
{
    QFETCH(QByteArray, key);

    // The awkward key is both a key name (header) and a key value, first in its row (where "[" is
    // taken for an optional argument) and followed by plain columns.
    Report report;
    report.groupBy = { str(key), "middle", "after" };
    report.metrics = { "ladder.correct" };
    ReportGroup group;
    group.key = { { str(key), str(key) }, { "middle", "x" }, { "after", "y" } };
    group.n = 1;
    group.mean = { { "ladder.correct", 0.5 } };
    group.ci95 = { { "ladder.correct", { 0.25, 0.75 } } };
    report.groups = { group, group };
    const int columns = 5; // three keys, n, one metric

    const QList<QByteArray> md = bytes(writeReportMarkdown(report)).split('\n');
    QCOMPARE(md.size(), 5); // header, separator, two rows, and the empty piece after the last line end
    for (qsizetype i = 0; i < 4; ++i)
        QCOMPARE(unescapedCount(md[i], '|'), columns + 1);

    const QList<QByteArray> tex = bytes(writeReportLatex(report)).split('\n');
    const qsizetype header = tex.indexOf("\\toprule") + 1;
    QVERIFY(header > 0);
    for (const qsizetype i : { header, header + 2, header + 3 }) {
        const QByteArray& line = tex[i];
        QVERIFY2(line.endsWith(" \\\\"), line.constData());
        QCOMPARE(unescapedCount(line, '&'), columns - 1);
        QCOMPARE(unescapedCount(line, '%'), 0); // a comment would swallow the rest of the row
        QVERIFY2(bracesBalance(line), line.constData());
        QVERIFY2(!line.startsWith('['), line.constData()); // would be read as \\[<length>]
    }
    QCOMPARE(tex[header + 1], QByteArray("\\midrule"));

    bool ok = false;
    const auto csv = parseCsv(writeReportCsv(report), &ok);
    QVERIFY(ok);
    QCOMPARE(csv.size(), 3u);
    QCOMPARE(csv[0][0], str(key));
    QCOMPARE(csv[1][0], str(key));
}

void TestReport::latexBest_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<QList<bool>>("bold");

    QTest::addRow("higher is better: max")
        << u"ladder.correct"_s << QList<double> { 0.5, 0.7, 0.6 } << QList<bool> { false, true, false };
    QTest::addRow("lower is better: min")
        << u"ladder.invalid_json"_s << QList<double> { 0.5, 0.7, 0.6 } << QList<bool> { true, false, false };
    QTest::addRow("lower-better plain value")
        << u"ladder.latency_p95"_s << QList<double> { 812.4, 640.2 } << QList<bool> { false, true };
    QTest::addRow("unknown metric: max") << u"custom.x"_s << QList<double> { 0.5, 0.7 } << QList<bool> { false, true };
    QTest::addRow("exact tie: all bold") << u"ladder.correct"_s << QList<double> { 0.7, 0.1, 0.7 }
                                         << QList<bool> { true, false, true };
    QTest::addRow("tie as printed: both bold")
        << u"ladder.correct"_s << QList<double> { 0.7001, 0.6999, 0.1 } << QList<bool> { true, true, false };
    QTest::addRow("apart as printed") << u"ladder.correct"_s << QList<double> { 0.7004, 0.7006 }
                                      << QList<bool> { false, true };
    QTest::addRow("lower-better tie") << u"contract.unsafe_acceptance"_s << QList<double> { 0.0, 0.0, 0.2 }
                                      << QList<bool> { true, true, false };
    QTest::addRow("NaN is never best") << u"ladder.invalid_json"_s << QList<double> { kNaN, 0.2 }
                                       << QList<bool> { false, true };
    QTest::addRow("all NaN: none bold") << u"ladder.correct"_s << QList<double> { kNaN, kNaN }
                                        << QList<bool> { false, false };
    QTest::addRow("infinity is the max") << u"ladder.correct"_s << QList<double> { kInf, 0.9 }
                                         << QList<bool> { true, false };
    QTest::addRow("single group") << u"ladder.correct"_s << QList<double> { 0.1 } << QList<bool> { true };
}

void TestReport::latexBest()
{
    QFETCH(QString, metric);
    QFETCH(QList<double>, values);
    QFETCH(QList<bool>, bold);
    QCOMPARE(boldInLatex(metric.toStdString(), values), bold);
}

void TestReport::displayNumber_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("digits");
    QTest::addColumn<bool>("plain");
    QTest::addColumn<QByteArray>("expected");

    QTest::addRow("rate") << 0.67 << 4 << false << QByteArray("0.6700");
    QTest::addRow("rate rounds") << 0.66666 << 4 << false << QByteArray("0.6667");
    QTest::addRow("zero") << 0.0 << 4 << false << QByteArray("0.0000");
    QTest::addRow("negative zero") << -0.0 << 4 << false << QByteArray("0.0000");
    QTest::addRow("one") << 1.0 << 3 << false << QByteArray("1.000");
    QTest::addRow("above one: significant") << 12.3456 << 4 << false << QByteArray("12.35");
    QTest::addRow("negative: significant") << -0.5 << 4 << false << QByteArray("-0.5000");
    QTest::addRow("large: no exponent") << 123456.7 << 4 << false << QByteArray("123457");
    QTest::addRow("latency") << 812.345 << 4 << true << QByteArray("812.3");
    QTest::addRow("small cost keeps its digits") << 0.00041 << 4 << true << QByteArray("0.0004100");
    QTest::addRow("plain zero") << 0.0 << 4 << true << QByteArray("0");
    QTest::addRow("NaN") << kNaN << 4 << false << QByteArray("");
    QTest::addRow("+inf") << kInf << 4 << false << QByteArray("inf");
    QTest::addRow("-inf") << -kInf << 4 << true << QByteArray("-inf");
}

void TestReport::displayNumber()
{
    QFETCH(double, value);
    QFETCH(int, digits);
    QFETCH(bool, plain);
    QFETCH(QByteArray, expected);
    QCOMPARE(bytes(structscope::displayNumber(value, digits, plain)), expected);
}

void TestReport::invalidUtf8_data()
{
    QTest::addColumn<QString>("format");
    for (const std::string_view name : reportFormatNames())
        QTest::addRow("%s", std::string(name).c_str()) << QString::fromUtf8(name.data(), qsizetype(name.size()));
}

void TestReport::invalidUtf8()
{
    QFETCH(QString, format);
    Report report;
    report.groupBy = { "model\xff" };
    report.metrics = { "m" };
    ReportGroup group;
    group.key = { { "model\xff", "bad\xc3\x28" } };
    group.mean = { { "m", 0.5 } };
    report.groups = { group };

    ReportText written;
    try {
        written = writeReport(report, format.toStdString());
    } catch (const std::exception& e) {
        QFAIL(e.what());
    }
    QVERIFY(written.ok());
    QVERIFY(isValidUtf8(bytes(written.text)));
    QVERIFY(bytes(written.text).contains("bad\xef\xbf\xbd"));
}

void TestReport::writeReportByName_data()
{
    QTest::addColumn<QByteArray>("format");
    QTest::addColumn<QString>("error");

    QTest::addRow("json") << QByteArray("json") << QString();
    QTest::addRow("md") << QByteArray("md") << QString();
    QTest::addRow("csv") << QByteArray("csv") << QString();
    QTest::addRow("latex") << QByteArray("latex") << QString();
    const QString expected = u"; expected one of: json, md, csv, latex"_s;
    QTest::addRow("unknown") << QByteArray("xml") << u"unknown report format \"xml\""_s + expected;
    QTest::addRow("empty") << QByteArray("") << u"unknown report format \"\""_s + expected;
    QTest::addRow("case matters") << QByteArray("JSON") << u"unknown report format \"JSON\""_s + expected;
    QTest::addRow("long name") << QByteArray("markdown") << u"unknown report format \"markdown\""_s + expected;
    QTest::addRow("trailing space") << QByteArray("latex ") << u"unknown report format \"latex \""_s + expected;
    QTest::addRow("embedded NUL") << QByteArray("csv\0x", 5) << u"unknown report format \"csv\u0000x\""_s + expected;
}

void TestReport::writeReportByName()
{
    QFETCH(QByteArray, format);
    QFETCH(QString, error);

    const Report report = sampleReport();
    const ReportText written = writeReport(report, str(format));
    QCOMPARE(written.error, error);
    QCOMPARE(written.ok(), error.isEmpty());
    if (!written.ok()) {
        QVERIFY(written.text.empty());
        return;
    }
    std::string direct;
    if (format == "json")
        direct = writeReportJson(report);
    else if (format == "md")
        direct = writeReportMarkdown(report);
    else if (format == "csv")
        direct = writeReportCsv(report);
    else
        direct = writeReportLatex(report);
    QCOMPARE(written.text, direct);
}

void TestReport::latexCompiles()
{
    const QString pdflatex = QStandardPaths::findExecutable(u"pdflatex"_s);
    if (pdflatex.isEmpty())
        QSKIP("pdflatex is not installed");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile file(dir.filePath(u"report.tex"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    Report odd = oddReport();
    odd.groups[0].key[0].second = "[x] 50% & #1 ~^\\ <y> {z}\n_";
    file.write("\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n");
    file.write(bytes(writeReportLatex(sampleReport(), "Caption with $pecial_ chars & [brackets]")));
    file.write(bytes(writeReportLatex(odd)));
    file.write("\\end{document}\n");
    file.close();

    QProcess process;
    process.setWorkingDirectory(dir.path());
    process.start(pdflatex, { u"-interaction=nonstopmode"_s, u"-halt-on-error"_s, u"report.tex"_s });
    QVERIFY(process.waitForFinished(120000));
    QVERIFY2(process.exitCode() == 0, process.readAllStandardOutput().right(2000).constData());
}


// Measured has models a and b, adjusted has b and c: rows a/measured, b/measured, b/adjusted, c/adjusted,
// each keeping its own numbers; the new key column is last.
void TestReport::goldSideBySide()
{
    auto group = [](const char* model, int n, double correct) {
        ReportGroup g;
        g.key = { { "model", model } };
        g.n = n;
        g.mean = { { "ladder.correct", correct } };
        return g;
    };
    Report measured;
    measured.groupBy = { "model" };
    measured.metrics = { "ladder.correct" };
    measured.groups = { group("a", 3, 0.0), group("b", 4, 0.5) };
    Report adjusted = measured;
    adjusted.gold = "adjusted";
    adjusted.groups = { group("b", 4, 0.75), group("c", 2, 1.0) };

    const Report both = structscope::goldSideBySide(measured, adjusted);
    QCOMPARE(both.gold, std::string("both"));
    QCOMPARE(both.groupBy, (std::vector<std::string>{ "model", "gold" }));
    QCOMPARE(both.groups.size(), std::size_t(4));
    const std::vector<std::pair<std::string, std::string>> expected
        = { { "a", "measured" }, { "b", "measured" }, { "b", "adjusted" }, { "c", "adjusted" } };
    const std::vector<double> values = { 0.0, 0.5, 0.75, 1.0 };
    for (std::size_t i = 0; i < expected.size(); ++i) {
        QCOMPARE(both.groups[i].key.size(), std::size_t(2));
        QCOMPARE(both.groups[i].key[0].second, expected[i].first);
        QCOMPARE(both.groups[i].key[1], (std::pair<std::string, std::string>{ "gold", expected[i].second }));
        QCOMPARE(both.groups[i].mean.at("ladder.correct"), values[i]);
    }
    // The Markdown table shows the basis as a column.
    const ReportText md = writeReport(both, "md");
    QVERIFY(md.ok());
    QVERIFY2(md.text.find("| gold") != std::string::npos, md.text.c_str());
}

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
