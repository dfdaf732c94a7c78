// SPDX-License-Identifier: Apache-2.0
#pragma once
// Fixtures of tst_audit: a store built from tests/data/audit (see its README). c-1's gold age is 14; three
// of four models answer 41.
#include "audit/auditqueue.h"
#include "io/sobimporter.h"
#include "store/resultstore.h"
#include "store/suiteimport.h"
#include "suite/suiteloader.h"

#include <QFile>
#include <QHash>
#include <QTest>

#include <map>
#include <memory>

namespace structscope::auditfixtures {

using namespace Qt::StringLiterals;
using nlohmann::json;

inline QString testData(const QString& path)
{
    return QStringLiteral(STRUCTSCOPE_TEST_DATA) + u"/audit/"_s + path;
}

inline json j(const char* text)
{
    return json::parse(text);
}

inline QString dumpJson(const json& value)
{
    return QString::fromStdString(value.dump());
}

// QCOMPARE cannot take nlohmann::json directly (its conversions make the overloads ambiguous).
#define QCOMPARE_JSON(actual, expected) QCOMPARE(dumpJson(actual), dumpJson(expected))

/// A store holding the audit suite and one run per model of responses.jsonl.
struct Workspace
{
    std::unique_ptr<ResultStore> store;
    SuiteRow suite;
    QHash<QString, qint64> caseRows; ///< case id → row

    qint64 row(const char* caseId) const { return caseRows.value(QString::fromLatin1(caseId)); }
};

inline RunRow makeRun(qint64 suiteRow, const QString& model, const QString& strategy)
{
    RunRow run;
    run.suiteRow = suiteRow;
    run.modelSpec = model;
    run.providerKind = u"import"_s;
    run.strategy = strategy;
    return run;
}

inline ResponseRow makeResponse(qint64 runId, qint64 caseRow, const QString& text, const QString& errorKind = {})
{
    ResponseRow r;
    r.runId = runId;
    r.caseRow = caseRow;
    r.requestHash = u"rh-%1-%2"_s.arg(runId).arg(caseRow);
    r.rawText = text;
    r.httpStatus = errorKind.isEmpty() ? 200 : 0;
    r.errorKind = errorKind;
    return r;
}

/// Builds the workspace; returns an empty store (with a warning) when anything fails.
inline Workspace makeWorkspace(const QString& location)
{
    Workspace w;
    const SuiteLoadResult loaded = loadSuiteDir(testData(u"suite"_s));
    if (!loaded.ok()) {
        qWarning() << "audit suite does not load:" << loaded.problems.value(0).toString();
        return w;
    }
    QString error;
    auto store = ResultStore::open(location, &error);
    if (!store) {
        qWarning().noquote() << error;
        return w;
    }
    const auto imported = store->importSuite(makeSuiteImport(*loaded.suite));
    if (!imported)
        return w;
    w.suite = imported->suite;
    const auto cases = store->cases(w.suite.row);
    if (!cases)
        return w;
    for (const CaseRow& c : cases.value())
        w.caseRows.insert(c.id, c.row);

    QFile file(testData(u"responses.jsonl"_s));
    if (!file.open(QIODevice::ReadOnly))
        return w;
    QHash<QString, qint64> runs; // model → run id
    QList<ResponseRow> responses;
    for (const QByteArray& line : file.readAll().split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        const json record = json::parse(line.toStdString());
        const QString model = QString::fromStdString(record["model"].get<std::string>());
        if (!runs.contains(model))
            runs.insert(model, store->createRun(makeRun(w.suite.row, model, u"P"_s))->id);
        responses << makeResponse(runs.value(model),
            w.caseRows.value(QString::fromStdString(record["case_id"].get<std::string>())),
            QString::fromStdString(record["response"].get<std::string>()));
    }
    // A model whose only call failed is not heard; a newer run whose answer does not parse does not
    // replace an older parsed one.
    const qint64 failing = store->createRun(makeRun(w.suite.row, u"m-e"_s, u"P"_s))->id;
    responses << makeResponse(failing, w.row("c-1"), QString(), u"timeout"_s);
    const qint64 rerun = store->createRun(makeRun(w.suite.row, u"m-d"_s, u"J"_s))->id;
    responses << makeResponse(rerun, w.row("c-1"), u"sorry, no JSON today"_s);
    if (!store->appendResponses(responses))
        return w;
    w.store = std::move(store);
    return w;
}

/// One hand-built SOB record: a case's source text, its gold, and what each model answered.
struct SobCase
{
    QString id;
    QString context;
    json gold;
    std::vector<std::pair<QString, json>> answers; ///< model → candidate_response
};

/// Writes the cases as SOB response files (one per model) into `dir` and imports them into a new store at
/// `location`; returns nullptr (with a warning) when anything fails.
inline std::unique_ptr<ResultStore> makeSobStore(
    const QString& dir, const QString& location, const std::vector<SobCase>& cases)
{
    std::map<QString, QByteArray> files;
    for (const SobCase& c : cases) {
        for (const auto& [model, answer] : c.answers) {
            const json record = { { "metadata",
                                      { { "record_id", c.id.toStdString() }, { "model_id", model.toStdString() },
                                          { "schema_complexity", "easy" } } },
                { "input",
                    { { "context", c.context.toStdString() }, { "question", "Extract." },
                        { "json_schema", { { "type", "object" } } } } },
                { "output", { { "candidate_response", answer }, { "ground_truth", c.gold } } } };
            files[model] += QByteArray::fromStdString(record.dump()) + '\n';
        }
    }
    QStringList paths;
    for (const auto& [model, text] : files) {
        const QString path = dir + u"/response_"_s + model + u"_image.jsonl"_s;
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size()) {
            qWarning() << "cannot write" << path;
            return nullptr;
        }
        paths << path;
    }
    QString error;
    auto store = ResultStore::open(location, &error);
    if (!store) {
        qWarning().noquote() << error;
        return nullptr;
    }
    SobImportOptions options;
    options.modality = Modality::Image;
    const ImportSummary summary = importSobFiles(*store, paths, options);
    if (!summary.ok()) {
        qWarning() << "SOB import failed";
        return nullptr;
    }
    return store;
}

inline const AuditItem* findItem(const AuditQueue& queue, const QString& caseId, FindingKind kind)
{
    for (const AuditItem& item : queue.items) {
        if (item.caseId == caseId && item.kind == kind)
            return &item;
    }
    return nullptr;
}

inline const AuditItem* findItem(const AuditQueue& queue, const QString& caseId, const std::string& path)
{
    for (const AuditItem& item : queue.items) {
        if (item.caseId == caseId && item.path == path)
            return &item;
    }
    return nullptr;
}

inline QStringList itemKeys(const AuditQueue& queue)
{
    QStringList keys;
    for (const AuditItem& item : queue.items)
        keys << u"%1:%2:%3"_s.arg(item.caseId, QString::fromStdString(item.path), QString::number(item.support));
    return keys;
}

} // namespace structscope::auditfixtures
