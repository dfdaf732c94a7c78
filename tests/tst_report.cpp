// SPDX-License-Identifier: Apache-2.0
// Tests of the report writers (JSON, Markdown, CSV, LaTeX). The expected texts were written by
// hand from the fixtures below: widths counted in characters, numbers rounded on paper.

#include "report/pairmatrixwriter.h"
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

// Groups with errored slots (no answer of the model): some, all, none.
Report erroredReport()
{
    Report report;
    report.groupBy = { "model" };
    report.metrics = { "ladder.correct" };
    ReportGroup some;
    some.key = { { "model", "a" } };
    some.n = 76;
    some.errored = 4;
    some.mean = { { "ladder.correct", 1.0 } };
    some.ci95 = { { "ladder.correct", { 0.95, 1.0 } } };
    ReportGroup all;
    all.key = { { "model", "b" } };
    all.errored = 3;
    ReportGroup none;
    none.key = { { "model", "c" } };
    none.n = 10;
    none.mean = { { "ladder.correct", 0.5 } };
    none.ci95 = { { "ladder.correct", { 0.2, 0.8 } } };
    report.groups = { some, all, none };
    return report;
}

Report fixture(const QString& name)
{
    if (name == u"sample"_s)
        return sampleReport();
    if (name == u"odd"_s)
        return oddReport();
    if (name == u"errored"_s)
        return erroredReport();
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

// ladder.correct of three models (strategy P) case by case, built so that every count of the pair matrix can be
// worked out by hand:
//   cases 1-5   A wrong, B right, C right
//   cases 6-8   A wrong, B wrong, C right
//   case  9     A wrong, B right, C wrong
//   cases 10-11 all right
//   cases 12-13 all wrong
//   case  14    only A answered (right)
//   case  15    A and B right; C's slot errored (a timeout): no answer
std::vector<ScoredRecord> threeModelRecords()
{
    std::vector<ScoredRecord> records;
    const auto add = [&records](const char* model, int c, bool correct, ErrorKind error = ErrorKind::None) {
        ScoredRecord r;
        r.suite = u"s"_s;
        r.model = QString::fromLatin1(model);
        r.strategy = u"P"_s;
        r.caseId = u"c%1"_s.arg(c, 2, 10, QChar(u'0'));
        r.error = error;
        r.verdict.ladder = correct ? LadderLabel::Correct : LadderLabel::ValueIncorrect;
        r.verdict.values.emplace_back("ladder.correct", correct ? 1.0 : 0.0);
        records.push_back(r);
    };
    const auto three = [&add](int c, bool a, bool b, bool cc) {
        add("A", c, a);
        add("B", c, b);
        add("C", c, cc);
    };
    for (int c = 1; c <= 5; ++c)
        three(c, false, true, true);
    for (int c = 6; c <= 8; ++c)
        three(c, false, false, true);
    three(9, false, true, false);
    three(10, true, true, true);
    three(11, true, true, true);
    three(12, false, false, false);
    three(13, false, false, false);
    add("A", 14, true);
    add("A", 15, true);
    add("B", 15, true);
    add("C", 15, false, ErrorKind::Timeout);
    return records;
}

} // namespace

class TestReport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
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
    // Measured has models a and b, adjusted has b and c: rows a/measured, b/measured, b/adjusted, c/adjusted,
    // each keeping its own numbers; the new key column is last.
    void goldSideBySide();
    // The pair matrix of threeModelRecords(), by hand (Δ = B − A of each cell; b: A right and B wrong, c: the reverse):
    //   A–B: paired on cases 1-13 and 15, n = 14; only A: case 14. b = 0, c = 6 (cases 1-5, 9).
    //        means 3/14 and 9/14, Δ = 600/14 = 42.857 points. McNemar p = 2·C(6,0)/2⁶ = 0.03125.
    //   A–C: n = 13 (cases 1-13); only A: 14, 15 (C errored). b = 0, c = 8 (cases 1-8).
    //        means 2/13 and 10/13, Δ = 800/13 = 61.538 points. p = 2·C(8,0)/2⁸ = 0.0078125.
    //   B–C: n = 13; only B: 15. b = 1 (case 9), c = 3 (cases 6-8). means 8/13 and 10/13, Δ = 200/13 = 15.385.
    //        p = 2·(C(4,0) + C(4,1))/2⁴ = 10/16 = 0.625.
    // Holm over m = 3 (sorted A–C, A–B, B–C): 3·0.0078125 = 0.0234375; 2·0.03125 = 0.0625; 1·0.625 = 0.625.
    //   Significant at 0.05: A–C only.
    // BH: j=3: 0.625; j=2: 3·0.03125/2 = 0.046875; j=1: 3·0.0078125/1 = 0.0234375. Significant: A–B and A–C.
    void pairMatrix();
    // A mean: the sign test. value_accuracy of A and B on four cases: A (0.5, 0.2, 0.9, 0.4), B (0.7, 0.2, 0.6, 0.8).
    // B − A: +0.2, 0, −0.3, +0.4; Δ = 100·0.3/4 = 7.5 points. A higher on one case, B on two, one tie dropped:
    // p = 2·(C(3,0) + C(3,1))/2³ = 1.
    void pairMatrixMeans();
    // Configurations of model, strategy or both: A and B each under P and J on one case; A right under P only, B under
    // J only.
    void pairMatrixKeys();
    void pairMatrixErrors();
    void pairMatrixWriters();
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
      "errored": 0,
      "errored_share": 0.0,
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
      "errored": 0,
      "errored_share": 0.0,
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
      "errored": 0,
      "errored_share": 0.0,
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
      "errored": 0,
      "errored_share": 0.0,
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
        << QByteArray("model,strategy,n,"
                      "ladder.correct,ladder.correct.ci_low,ladder.correct.ci_high,"
                      "ladder.invalid_json,ladder.invalid_json.ci_low,ladder.invalid_json.ci_high,"
                      "grounding.value_accuracy,grounding.value_accuracy.weighted,"
                      "grounding.value_accuracy.ci_low,grounding.value_accuracy.ci_high\r\n"
                      "\"gpt_x \"\"v|2\"\", "
                      "big\",P,209,0.30000000000000004,0.25,0.35,0.05,0.02,0.09,0.67,0.7134,0.62,0.71\r\n"
                      "llama-3,J+,10,,,,0.1,0,0.3,0.67,,0.6,0.74\r\n");

    QTest::addRow("csv/odd") << u"csv"_s << u"odd"_s << QString()
                             << QByteArray("model,tier,n,ladder.latency_p95,ladder.latency_p95.ci_low,"
                                           "ladder.latency_p95.ci_high,custom.score,custom.score.weighted,"
                                           "custom.score.ci_low,custom.score.ci_high\r\n"
                                           "a,hard,3,1234.56,1000.4,1500.25,inf,,,\r\n"
                                           ",,0,0.8,,,-2.5,0.00041,,\r\n");

    QTest::addRow("json/errored") << u"json"_s << u"errored"_s << QString() << QByteArray(R"({
  "gold": "measured",
  "group_by": [
    "model"
  ],
  "metrics": [
    "ladder.correct"
  ],
  "groups": [
    {
      "key": {
        "model": "a"
      },
      "n": 76,
      "errored": 4,
      "errored_share": 0.05,
      "mean": {
        "ladder.correct": 1.0
      },
      "weighted_mean": {},
      "ci95": {
        "ladder.correct": [
          0.95,
          1.0
        ]
      }
    },
    {
      "key": {
        "model": "b"
      },
      "n": 0,
      "errored": 3,
      "errored_share": 1.0,
      "mean": {},
      "weighted_mean": {},
      "ci95": {}
    },
    {
      "key": {
        "model": "c"
      },
      "n": 10,
      "errored": 0,
      "errored_share": 0.0,
      "mean": {
        "ladder.correct": 0.5
      },
      "weighted_mean": {},
      "ci95": {
        "ladder.correct": [
          0.2,
          0.8
        ]
      }
    }
  ]
}
)");

    // Errored slots get columns of their own after n, when some group has any: count and share.
    QTest::addRow("csv/errored") << u"csv"_s << u"errored"_s << QString()
                                 << QByteArray("model,n,errored,errored_share,ladder.correct,ladder.correct.ci_low,"
                                               "ladder.correct.ci_high\r\n"
                                               "a,76,4,0.05,1,0.95,1\r\n"
                                               "b,0,3,1,,,\r\n"
                                               "c,10,0,0,0.5,0.2,0.8\r\n");

    QTest::addRow("md/errored") << u"md"_s << u"errored"_s << QString()
                                << QByteArray("| model |   n |    errored |          ladder.correct |\n"
                                              "| ----- | --: | ---------: | ----------------------: |\n"
                                              "| a     |  76 |   4 (5.0%) | 1.0000 [0.9500, 1.0000] |\n"
                                              "| b     |   0 | 3 (100.0%) |                         |\n"
                                              "| c     |  10 |          0 | 0.5000 [0.2000, 0.8000] |\n");

    QTest::addRow("latex/errored") << u"latex"_s << u"errored"_s << QString()
                                   << QByteArray(
                                          "% needs \\usepackage{booktabs}\n"
                                          "\\begin{tabular}{lrrr}\n"
                                          "\\toprule\n"
                                          "model & n & errored & ladder.correct \\\\\n"
                                          "\\midrule\n"
                                          "a & 76 & 4 (5.0\\%) & \\textbf{1.000} {\\scriptsize[0.950, 1.000]} \\\\\n"
                                          "b & 0 & 3 (100.0\\%) &  \\\\\n"
                                          "c & 10 & 0 & 0.500 {\\scriptsize[0.200, 0.800]} \\\\\n"
                                          "\\bottomrule\n"
                                          "\\end{tabular}\n");

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
          "llama-3 & J+ & 10 & -- & 0.100 {\\scriptsize[0.000, 0.300]} & \\textbf{0.670} {\\scriptsize[0.600, "
          "0.740]} "
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
    QTest::addRow("formula =") << QByteArray("=HYPERLINK(\"http://x\")")
                               << QByteArray("\"'=HYPERLINK(\"\"http://x\"\")\"");
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
    QTest::addRow("HTML escaped") << QByteArray("<img src=x onerror=alert(1)>")
                                  << QByteArray("&lt;img src=x onerror=alert(1)&gt;");
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
    QCOMPARE(both.groupBy, (std::vector<std::string> { "model", "gold" }));
    QCOMPARE(both.groups.size(), std::size_t(4));
    const std::vector<std::pair<std::string, std::string>> expected
        = { { "a", "measured" }, { "b", "measured" }, { "b", "adjusted" }, { "c", "adjusted" } };
    const std::vector<double> values = { 0.0, 0.5, 0.75, 1.0 };
    for (std::size_t i = 0; i < expected.size(); ++i) {
        QCOMPARE(both.groups[i].key.size(), std::size_t(2));
        QCOMPARE(both.groups[i].key[0].second, expected[i].first);
        QCOMPARE(both.groups[i].key[1], (std::pair<std::string, std::string> { "gold", expected[i].second }));
        QCOMPARE(both.groups[i].mean.at("ladder.correct"), values[i]);
    }
    // The Markdown table shows the basis as a column.
    const ReportText md = writeReport(both, "md");
    QVERIFY(md.ok());
    QVERIFY2(md.text.find("| gold") != std::string::npos, md.text.c_str());
}

void TestReport::pairMatrix()
{
    const std::vector<ScoredRecord> records = threeModelRecords();
    PairMatrixOptions options;
    options.metric = "ladder.correct";
    options.bootstrap.resamples = 400;
    PairMatrix m = computePairMatrix(records, options);
    QVERIFY2(m.ok(), qPrintable(m.error));
    QVERIFY(m.rate);
    QCOMPARE(m.testName(), u"McNemar (exact)"_s);
    QCOMPARE(m.configurations.size(), std::size_t(3));
    QCOMPARE(m.configurations[0].label(), std::string("A"));
    QCOMPARE(m.configurations[2].key, (std::vector<std::pair<std::string, std::string>> { { "model", "C" } }));
    QCOMPARE(m.pairs.size(), std::size_t(3));
    QCOMPARE(m.tested, 3);

    struct Expected
    {
        std::size_t a, b;
        qint64 n;
        int onlyA, onlyB;
        qint64 bCount, cCount;
        double meanA, meanB, p, holm, bh;
        bool holmSignificant, bhSignificant;
    };
    const Expected expected[] = {
        { 0, 1, 14, 1, 0, 0, 6, 3.0 / 14, 9.0 / 14, 0.03125, 0.0625, 0.046875, false, true },
        { 0, 2, 13, 2, 0, 0, 8, 2.0 / 13, 10.0 / 13, 0.0078125, 0.0234375, 0.0234375, true, true },
        { 1, 2, 13, 1, 0, 1, 3, 8.0 / 13, 10.0 / 13, 0.625, 0.625, 0.625, false, false },
    };
    for (std::size_t i = 0; i < 3; ++i) {
        const PairCell& cell = m.pairs[i];
        const Expected& e = expected[i];
        QCOMPARE(cell.a, e.a);
        QCOMPARE(cell.b, e.b);
        QVERIFY(cell.tested());
        QCOMPARE(cell.stats.n, e.n);
        QCOMPARE(cell.onlyA, e.onlyA);
        QCOMPARE(cell.onlyB, e.onlyB);
        QCOMPARE(cell.stats.b, e.bCount);
        QCOMPARE(cell.stats.c, e.cCount);
        QVERIFY(std::abs(cell.stats.meanA - e.meanA) < 1e-12);
        QVERIFY(std::abs(cell.stats.meanB - e.meanB) < 1e-12);
        QVERIFY(std::abs(cell.stats.deltaPoints - 100.0 * (e.meanB - e.meanA)) < 1e-9);
        QVERIFY(std::abs(cell.stats.pValue - e.p) < 1e-12);
        QVERIFY(std::abs(cell.adjustedP - e.holm) < 1e-12);
        QCOMPARE(cell.significant, e.holmSignificant);
        // The interval is the paired bootstrap's, around Δ.
        QVERIFY(cell.stats.deltaCiPoints.low <= cell.stats.deltaPoints);
        QVERIFY(cell.stats.deltaCiPoints.high >= cell.stats.deltaPoints);
        QVERIFY(cell.stats.deltaCiPoints.low < cell.stats.deltaCiPoints.high);
    }
    // The cell of a pair in either order; none on the diagonal.
    QCOMPARE(m.cell(2, 0), &m.pairs[1]);
    QCOMPARE(m.cell(1, 2), &m.pairs[2]);
    QVERIFY(!m.cell(1, 1));
    QVERIFY(!m.cell(0, 3));

    // Each pair is the two-configuration comparison of the same records, with the same seed.
    const PairedRecords ac = pairRecords(records, m.configurations[0], m.configurations[2], "ladder.correct");
    QCOMPARE(ac.a.size(), std::size_t(13));
    QCOMPARE(ac.onlyA, 2);
    const PairedComparison direct = comparePairedRecords(ac, "ladder.correct", true, options.bootstrap);
    QCOMPARE(direct.deltaCiPoints.low, m.pairs[1].stats.deltaCiPoints.low);
    QCOMPARE(direct.deltaCiPoints.high, m.pairs[1].stats.deltaCiPoints.high);

    // Seeded: the same matrix again, to the bit.
    const PairMatrix again = computePairMatrix(records, options);
    for (std::size_t i = 0; i < 3; ++i) {
        QCOMPARE(again.pairs[i].stats.deltaCiPoints.low, m.pairs[i].stats.deltaCiPoints.low);
        QCOMPARE(again.pairs[i].stats.deltaCiPoints.high, m.pairs[i].stats.deltaCiPoints.high);
    }

    // Benjamini–Hochberg on the same pairs, and back.
    setAdjustment(m, PAdjustMethod::BenjaminiHochberg);
    QCOMPARE(m.adjust, PAdjustMethod::BenjaminiHochberg);
    for (std::size_t i = 0; i < 3; ++i) {
        QVERIFY(std::abs(m.pairs[i].adjustedP - expected[i].bh) < 1e-12);
        QCOMPARE(m.pairs[i].significant, expected[i].bhSignificant);
    }
    options.adjust = PAdjustMethod::BenjaminiHochberg;
    QCOMPARE(computePairMatrix(records, options).pairs[0].adjustedP, m.pairs[0].adjustedP);

    // A chosen subset, in the order given: C before A; Δ is then A − C, and one pair alone is not corrected.
    options.configurations = { m.configurations[2], m.configurations[0] };
    const PairMatrix two = computePairMatrix(records, options);
    QVERIFY2(two.ok(), qPrintable(two.error));
    QCOMPARE(two.pairs.size(), std::size_t(1));
    QVERIFY(std::abs(two.pairs[0].stats.deltaPoints + 800.0 / 13) < 1e-9);
    QCOMPARE(two.pairs[0].adjustedP, two.pairs[0].stats.pValue);

    // A pair without common cases is not tested and not counted in m.
    std::vector<ScoredRecord> withD = records;
    ScoredRecord d = records.front();
    d.model = u"D"_s;
    d.caseId = u"other"_s;
    withD.push_back(d);
    options.configurations.clear();
    options.adjust = PAdjustMethod::Holm;
    const PairMatrix four = computePairMatrix(withD, options);
    QCOMPARE(four.configurations.size(), std::size_t(4));
    QCOMPARE(four.pairs.size(), std::size_t(6));
    QCOMPARE(four.tested, 3);
    const PairCell* ad = four.cell(0, 3);
    QVERIFY(ad && !ad->tested() && std::isnan(ad->adjustedP) && !ad->significant);
    QVERIFY(std::abs(four.cell(0, 2)->adjustedP - 0.0234375) < 1e-12);
}

void TestReport::pairMatrixMeans()
{
    std::vector<ScoredRecord> records;
    const double a[] = { 0.5, 0.2, 0.9, 0.4 };
    const double b[] = { 0.7, 0.2, 0.6, 0.8 };
    for (int i = 0; i < 4; ++i) {
        for (const auto& [model, value] : { std::pair { "A", a[i] }, std::pair { "B", b[i] } }) {
            ScoredRecord r;
            r.suite = u"s"_s;
            r.model = QString::fromLatin1(model);
            r.strategy = u"P"_s;
            r.caseId = u"c%1"_s.arg(i);
            r.verdict.values.emplace_back("grounding.value_accuracy", value);
            records.push_back(r);
        }
    }
    PairMatrixOptions options;
    options.metric = "grounding.value_accuracy";
    const PairMatrix m = computePairMatrix(records, options);
    QVERIFY2(m.ok(), qPrintable(m.error));
    QVERIFY(!m.rate);
    QCOMPARE(m.testName(), u"sign test (exact)"_s);
    QCOMPARE(m.pairs.size(), std::size_t(1));
    QVERIFY(std::abs(m.pairs[0].stats.deltaPoints - 7.5) < 1e-9);
    QCOMPARE(m.pairs[0].stats.b, qint64(1));
    QCOMPARE(m.pairs[0].stats.c, qint64(2));
    QCOMPARE(m.pairs[0].stats.pValue, 1.0);
    QCOMPARE(m.pairs[0].adjustedP, 1.0);
    QVERIFY(!m.pairs[0].significant);
    QCOMPARE(comparableMetrics(records), std::vector<std::string> { "grounding.value_accuracy" });
}

void TestReport::pairMatrixKeys()
{
    std::vector<ScoredRecord> records;
    using Row = std::tuple<const char*, const char*, bool>;
    for (const auto& [model, strategy, correct] : std::initializer_list<Row> {
             { "A", "P", true }, { "A", "J", false }, { "B", "P", false }, { "B", "J", true } }) {
        ScoredRecord r;
        r.suite = u"s"_s;
        r.model = QString::fromLatin1(model);
        r.strategy = QString::fromLatin1(strategy);
        r.caseId = u"c1"_s;
        r.verdict.values.emplace_back("ladder.correct", correct ? 1.0 : 0.0);
        records.push_back(r);
    }
    PairMatrixOptions options;
    // By model: A and B paired under the same strategy, so twice on c1: under P A is right (b), under J B is (c).
    options.by = { "model" };
    PairMatrix m = computePairMatrix(records, options);
    QVERIFY2(m.ok(), qPrintable(m.error));
    QCOMPARE(m.pairs.size(), std::size_t(1));
    QCOMPARE(m.pairs[0].stats.n, qint64(2));
    QCOMPARE(m.pairs[0].stats.b, qint64(1));
    QCOMPARE(m.pairs[0].stats.c, qint64(1));
    // By strategy: J and P (sorted) paired on the same model: for A, P is right (c); for B, J is (b).
    options.by = { "strategy" };
    m = computePairMatrix(records, options);
    QCOMPARE(m.configurations[0].label(), std::string("J"));
    QCOMPARE(m.pairs[0].stats.n, qint64(2));
    QCOMPARE(m.pairs[0].stats.b, qint64(1));
    QCOMPARE(m.pairs[0].stats.c, qint64(1));
    // By both: four configurations, six pairs, each on the one case.
    options.by = { "model", "strategy" };
    m = computePairMatrix(records, options);
    QCOMPARE(m.configurations.size(), std::size_t(4));
    QCOMPARE(m.configurations[0].label(), std::string("A · J"));
    QCOMPARE(m.pairs.size(), std::size_t(6));
    for (const PairCell& cell : m.pairs)
        QCOMPARE(cell.stats.n, qint64(1));
}

void TestReport::pairMatrixErrors()
{
    const std::vector<ScoredRecord> records = threeModelRecords();
    const auto errorOf = [&records](const std::string& metric, std::vector<std::string> by = { "model" }) {
        PairMatrixOptions options;
        options.metric = metric;
        options.by = std::move(by);
        return computePairMatrix(records, options).error;
    };
    QVERIFY(errorOf("ladder.nope").contains(u"no metric is called 'ladder.nope'"_s));
    QVERIFY(errorOf("extraction.f1_values").contains(u"statistic of a group"_s));
    QVERIFY(errorOf("grounding.value_accuracy").contains(u"no answered record carries"_s));
    QVERIFY(errorOf("ladder.correct", { "category" }).contains(u"model, strategy or both"_s));
    QVERIFY(errorOf("ladder.correct", { "model", "model" }).contains(u"model, strategy or both"_s));
    QVERIFY(errorOf("ladder.correct", {}).contains(u"model, strategy or both"_s));
    QVERIFY(errorOf("ladder.correct").isEmpty());

    // Fewer than two configurations.
    std::vector<ScoredRecord> onlyA;
    for (const ScoredRecord& r : records) {
        if (r.model == u"A"_s)
            onlyA.push_back(r);
    }
    PairMatrixOptions options;
    const PairMatrix one = computePairMatrix(onlyA, options);
    QVERIFY(!one.ok());
    QVERIFY2(one.error.contains(u"at least two configurations; there is one (A)"_s), qPrintable(one.error));
    QVERIFY(computePairMatrix(std::vector<ScoredRecord> {}, options).error.contains(u"no answered record"_s));

    // A mean outside [0, 1] does not read as points.
    std::vector<ScoredRecord> points = records;
    points.front().verdict.values.emplace_back("extraction.strategy_points", 10.0);
    options.metric = "extraction.strategy_points";
    QVERIFY(computePairMatrix(points, options).error.contains(u"outside [0, 1]"_s));
    QVERIFY(comparableMetricError(points, "ladder.correct").isEmpty());
}

void TestReport::pairMatrixWriters()
{
    PairMatrixOptions options;
    options.bootstrap.resamples = 200;
    PairMatrix m = computePairMatrix(threeModelRecords(), options);
    QVERIFY2(m.ok(), qPrintable(m.error));

    // JSON: every number of the hand computation above.
    const ReportText json = writePairMatrix(m, "json");
    QVERIFY(json.ok());
    const nlohmann::json root = nlohmann::json::parse(json.text);
    QCOMPARE(root["metric"].get<std::string>(), std::string("ladder.correct"));
    QCOMPARE(root["test"].get<std::string>(), std::string("mcnemar-exact"));
    QCOMPARE(root["adjust"].get<std::string>(), std::string("holm"));
    QCOMPARE(root["alpha"].get<double>(), 0.05);
    QCOMPARE(root["tested"].get<int>(), 3);
    QCOMPARE(root["bootstrap"]["resamples"].get<int>(), 200);
    QCOMPARE(root["configurations"].size(), std::size_t(3));
    QCOMPARE(root["configurations"][1]["key"]["model"].get<std::string>(), std::string("B"));
    const nlohmann::json& ab = root["pairs"][0];
    QCOMPARE(ab["a_label"].get<std::string>(), std::string("A"));
    QCOMPARE(ab["b_label"].get<std::string>(), std::string("B"));
    QCOMPARE(ab["n"].get<int>(), 14);
    QCOMPARE(ab["only_a"].get<int>(), 1);
    QCOMPARE(ab["a_better"].get<int>(), 0);
    QCOMPARE(ab["b_better"].get<int>(), 6);
    QCOMPARE(ab["p"].get<double>(), 0.03125);
    QCOMPARE(ab["p_adjusted"].get<double>(), 0.0625);
    QCOMPARE(ab["significant"].get<bool>(), false);
    QCOMPARE(ab["ci95_points"].size(), std::size_t(2));
    QCOMPARE(root["pairs"][1]["significant"].get<bool>(), true);
    QCOMPARE(root["pairs"][1]["delta_points"].get<double>(), m.pairs[1].stats.deltaPoints);

    // CSV: a header, one row per pair, 18 fields.
    const ReportText csv = writePairMatrix(m, "csv");
    QVERIFY(csv.ok());
    const QStringList lines = QString::fromStdString(csv.text).split(u"\r\n"_s, Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[0],
        u"metric,test,adjust,a,b,n,only_a,only_b,mean_a,mean_b,delta_points,ci_low_points,ci_high_points,a_better,"
        "b_better,p,p_adjusted,significant"_s);
    const QStringList ac = lines[2].split(u',');
    QCOMPARE(ac.size(), 18);
    QCOMPARE(ac.mid(0, 8),
        (QStringList { u"ladder.correct"_s, u"mcnemar-exact"_s, u"holm"_s, u"A"_s, u"C"_s, u"13"_s, u"2"_s, u"0"_s }));
    QCOMPARE(ac[8].toDouble(), 2.0 / 13);
    QCOMPARE(ac[13], u"0"_s);
    QCOMPARE(ac[14], u"8"_s);
    QVERIFY(qAbs(ac[15].toDouble() - 0.0078125) < 1e-12); // McNemar's p through logarithms: within 1e-12
    QVERIFY(qAbs(ac[16].toDouble() - 0.0234375) < 1e-12);
    QCOMPARE(ac[17], u"true"_s);

    // Markdown: Δ of A–C (800/13 = 61.538) in bold as it is significant; A–B (600/14 = 42.857) plain.
    const ReportText md = writePairMatrix(m, "md");
    QVERIFY(md.ok());
    QVERIFY2(md.text.find("| A | C | 13 | 0.154 | 0.769 | **+61.5** | [") != std::string::npos, md.text.c_str());
    QVERIFY2(md.text.find("| 0.008 | 0.023 | yes |") != std::string::npos, md.text.c_str());
    QVERIFY2(md.text.find("| A | B | 14 | 0.214 | 0.643 | +42.9 | [") != std::string::npos, md.text.c_str());
    QVERIFY2(md.text.find("| B | C | 13 | 0.615 | 0.769 | +15.4 | [") != std::string::npos, md.text.c_str());
    QVERIFY2(md.text.find("| 0.625 | 0.625 | no |") != std::string::npos, md.text.c_str());
    QVERIFY(md.text.find("Holm over 3 tested pair(s)") != std::string::npos);

    // LaTeX: a booktabs table, the significant Δ in bold, a caption when asked.
    ReportWriteOptions latexOptions;
    latexOptions.latexCaption = "Pairs & more";
    const ReportText latex = writePairMatrix(m, "latex", latexOptions);
    QVERIFY(latex.ok());
    QVERIFY(latex.text.starts_with("% needs \\usepackage{booktabs}\n\\begin{table}"));
    QVERIFY2(latex.text.find("A & C & 13 & 0.154 & 0.769 & \\textbf{$+61.5$} & $[") != std::string::npos,
        latex.text.c_str());
    QVERIFY(latex.text.find("A & B & 14 & 0.214 & 0.643 & $+42.9$ & $[") != std::string::npos);
    QVERIFY(latex.text.find("\\caption{Pairs \\& more}") != std::string::npos);
    QVERIFY(latex.text.find("$p$ (Holm)") != std::string::npos);

    // After switching to BH, A–B is significant too.
    setAdjustment(m, PAdjustMethod::BenjaminiHochberg);
    const ReportText bh = writePairMatrix(m, "md");
    QVERIFY2(bh.text.find("| A | B | 14 | 0.214 | 0.643 | **+42.9** |") != std::string::npos, bh.text.c_str());
    QVERIFY(bh.text.find("| 0.031 | 0.047 | yes |") != std::string::npos);
    QVERIFY(writePairMatrix(m, "csv").text.find(",bh,") != std::string::npos);

    QVERIFY(!writePairMatrix(m, "xml").ok());
}

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
