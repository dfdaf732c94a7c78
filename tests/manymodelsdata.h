// SPDX-License-Identifier: Apache-2.0
#pragma once

// Sample data for tst_manymodels: forty models with long names, as a store (imported through the real
// SOB importer from files derived from tests/data/grounding) and as report data built by hand. Kept out
// of the test sources so moc never reads it.
//
// Model k (0-based) answers line i of response_model-a.jsonl (6 invoices) with the gold itself unless
// (i + k) % (2 + k % 5) == 0, where it answers "no JSON here" (not parsed): the models score apart. The
// files carry no cost (like SOB's published files), and latency 500 + 10·k ms.

#include "analysis/reportdata.h"
#include "io/sobimporter.h"
#include "store/resultstore.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QStringList>

#include <memory>
#include <string>

namespace manymodels {

constexpr int kModels = 40;

/// Forty names of the kind SOB's published store holds; some pairs share their start and their end
/// ("Qwen/Qwen3-30B-A3B-Instruct-2507", "Qwen/Qwen3-235B-A22B-Instruct-2507"), so only the middle tells them apart.
inline QStringList modelNames()
{
    QStringList names { QStringLiteral("Qwen/Qwen3-30B-A3B-Instruct-2507"),
        QStringLiteral("Qwen/Qwen3-235B-A22B-Instruct-2507"), QStringLiteral("mistralai/Ministral-8B-Instruct-2410"),
        QStringLiteral("mistralai/Ministral-3-14B-Instruct-2512"),
        QStringLiteral("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"),
        QStringLiteral("deepseek-ai/DeepSeek-R1-Distill-Qwen-32B") };
    for (int k = int(names.size()); k < kModels; ++k)
        names << QStringLiteral("vendor-%1/Model-%2B-Extended-Context-Instruct-2507").arg(k % 7).arg(k * 3 + 1);
    return names;
}

inline QString groundingFile(const char* name)
{
    return QStringLiteral(STRUCTSCOPE_TEST_DATA) + QStringLiteral("/grounding/") + QLatin1String(name);
}

/// Writes model k's file; false when the fixture cannot be read or the file written.
inline bool writeModelFile(const QString& out, int k)
{
    QFile in(groundingFile("response_model-a.jsonl"));
    if (!in.open(QIODevice::ReadOnly))
        return false;
    const std::string model = modelNames().at(k).toStdString();
    std::string text;
    int index = 0;
    while (!in.atEnd()) {
        const QByteArray raw = in.readLine().trimmed();
        if (raw.isEmpty())
            continue;
        nlohmann::json line = nlohmann::json::parse(raw.toStdString());
        line["metadata"]["model_id"] = model;
        const bool wrong = (index + k) % (2 + k % 5) == 0;
        line["output"]["candidate_response"] = wrong ? nlohmann::json("no JSON here") : line["output"]["ground_truth"];
        line["eval_info"] = { { "latency_ms", 500.0 + 10.0 * k } };
        text += line.dump() + "\n";
        ++index;
    }
    QFile file(out);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && file.write(text.data(), qint64(text.size())) == qint64(text.size());
}

/// Creates dir/many.db holding the forty models; returns its location ("" on failure).
inline QString makeStore(const QString& dir, QString* error = nullptr)
{
    const QString location = QDir(dir).filePath(QStringLiteral("many.db"));
    auto store = structscope::ResultStore::open(location, error);
    if (!store)
        return {};
    QStringList files;
    for (int k = 0; k < kModels; ++k) {
        const QString file = QDir(dir).filePath(QStringLiteral("response_%1.jsonl").arg(k));
        if (!writeModelFile(file, k)) {
            if (error)
                *error = QStringLiteral("cannot write %1").arg(file);
            return {};
        }
        files << file;
    }
    const structscope::ImportSummary summary = structscope::importSobFiles(*store, files);
    if (!summary.ok() || summary.responses != kModels * 6) {
        if (error)
            *error = QStringLiteral("import stored %1 responses").arg(summary.responses);
        return {};
    }
    return location;
}

/// Report data of the forty models by hand: grounding.json_parse = 0.5 + k / 100 with an interval of ±0.05, and,
/// with `costs`, a cost per success of 0.001 · (1 + k % 9) USD.
inline structscope::ReportDataPtr makeReport(bool costs)
{
    auto data = std::make_shared<structscope::ReportData>();
    data->report.groupBy = { "model" };
    data->report.metrics = { "ladder.correct", "grounding.json_parse" };
    if (costs)
        data->report.metrics.push_back("ladder.cost_per_success");
    const QStringList names = modelNames();
    for (int k = 0; k < kModels; ++k) {
        structscope::ReportGroup group;
        group.key = { { "model", names.at(k).toStdString() } };
        group.n = 100;
        const double value = 0.5 + k / 100.0;
        group.mean["grounding.json_parse"] = value;
        group.ci95["grounding.json_parse"] = { value - 0.05, value + 0.05 };
        group.mean["ladder.correct"] = value / 2;
        group.ci95["ladder.correct"] = { value / 2 - 0.05, value / 2 + 0.05 };
        if (costs)
            group.mean["ladder.cost_per_success"] = 0.001 * (1 + k % 9);
        data->report.groups.push_back(group);
    }
    return data;
}

} // namespace manymodels
