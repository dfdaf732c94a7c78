// SPDX-License-Identifier: Apache-2.0
#pragma once

// The sample store of the GUI tests and of tst_analysis: three models with real scores, made by importing SOB
// response files derived from tests/data/grounding through the real SOB importer. Kept out of the test sources so
// moc never reads it.
//
// From response_model-a.jsonl (6 invoices, text) and response_model-a_image.jsonl (4 receipts,
// image), for each model one text and one image file:
//   demo/model-a  the fixture's own candidates (EXPECTED.md: json_parse text 5/6, image 3/4)
//   demo/model-b  line i of each file: the gold itself when i is even, the string "no JSON here"
//                 (not parsed) when i is odd → json_parse text 3/6, image 2/4
//   demo/model-c  the gold itself on every line → json_parse 1
// eval_info is replaced by latency_ms and cost: model-a 800 + 10·i ms and 0.002 USD, model-b
// 400 ms and 0.0005 USD, model-c 1500 ms and 0.01 USD per response.

#include "io/sobimporter.h"
#include "store/resultstore.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QStringList>

#include <string>

namespace uitest {

inline QString groundingFile(const char* name)
{
    return QStringLiteral(STRUCTSCOPE_TEST_DATA) + QStringLiteral("/grounding/") + QLatin1String(name);
}

/// Writes one derived SOB file; false when the fixture cannot be read or the file written.
inline bool writeVariant(const QString& fixture, const QString& out, const std::string& model)
{
    QFile in(fixture);
    if (!in.open(QIODevice::ReadOnly))
        return false;
    std::string text;
    int index = 0;
    while (!in.atEnd()) {
        const QByteArray raw = in.readLine().trimmed();
        if (raw.isEmpty())
            continue;
        nlohmann::json line = nlohmann::json::parse(raw.toStdString());
        line["metadata"]["model_id"] = model;
        const nlohmann::json gold = line["output"]["ground_truth"];
        if (model == "demo/model-b")
            line["output"]["candidate_response"] = index % 2 == 0 ? gold : nlohmann::json("no JSON here");
        else if (model == "demo/model-c")
            line["output"]["candidate_response"] = gold;
        const double latency = model == "demo/model-a" ? 800.0 + 10.0 * index
            : model == "demo/model-b"                  ? 400.0
                                                       : 1500.0;
        const double cost = model == "demo/model-a" ? 0.002 : model == "demo/model-b" ? 0.0005 : 0.01;
        line["eval_info"] = { { "latency_ms", latency }, { "cost", cost } };
        text += line.dump() + "\n";
        ++index;
    }
    QFile file(out);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && file.write(text.data(), qint64(text.size())) == qint64(text.size());
}

/// The derived SOB files, written into `dir`.
inline QStringList writeSampleFiles(const QString& dir)
{
    QStringList files;
    for (const char* model : { "demo/model-a", "demo/model-b", "demo/model-c" }) {
        const QString stem = QDir(dir).filePath(QString::fromLatin1(model).section(QLatin1Char('/'), 1));
        if (writeVariant(groundingFile("response_model-a.jsonl"), stem + QStringLiteral(".jsonl"), model))
            files << stem + QStringLiteral(".jsonl");
        if (writeVariant(groundingFile("response_model-a_image.jsonl"), stem + QStringLiteral("_image.jsonl"), model))
            files << stem + QStringLiteral("_image.jsonl");
    }
    return files;
}

/// Creates dir/store.db holding the three sample models; returns its location ("" on failure).
inline QString makeSampleStore(const QString& dir, QString* error = nullptr)
{
    const QString location = QDir(dir).filePath(QStringLiteral("store.db"));
    auto store = structscope::ResultStore::open(location, error);
    if (!store)
        return {};
    const QStringList files = writeSampleFiles(dir);
    if (files.size() != 6) {
        if (error)
            *error = QStringLiteral("cannot write the sample files");
        return {};
    }
    const structscope::ImportSummary summary = structscope::importSobFiles(*store, files);
    if (!summary.ok() || summary.responses != 30) {
        if (error)
            *error = QStringLiteral("sample import stored %1 responses").arg(summary.responses);
        return {};
    }
    return location;
}

} // namespace uitest
