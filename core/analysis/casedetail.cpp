// SPDX-License-Identifier: Apache-2.0
#include "analysis/casedetail.h"

#include "audit/modelanswers.h"
#include "audit/storedschema.h"
#include "scoring/scorer.h"
#include "store/resultstore.h"
#include "json/parseladder.h"

#include <QHash>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

CaseRef caseRefOf(const ScoredRecord& record)
{
    CaseRef ref;
    ref.suite = record.suite;
    ref.caseId = record.caseId;
    ref.runId = record.runId;
    ref.repeat = record.repeat;
    ref.model = record.model;
    ref.strategy = record.strategy;
    ref.simulated = record.simulated;
    return ref;
}

namespace {

bool findCase(ResultStore& store, CaseDetail& detail, json& manifest)
{
    const auto suites = store.suites();
    if (!suites) {
        detail.error = suites.errorMessage();
        return false;
    }
    for (const SuiteRow& s : suites.value()) {
        if (s.id != detail.ref.suite)
            continue;
        const auto cases = store.cases(s.row);
        if (!cases) {
            detail.error = cases.errorMessage();
            return false;
        }
        for (const CaseRow& c : cases.value()) {
            if (c.id == detail.ref.caseId) {
                detail.suiteRow = s.row;
                detail.caseRecord = c;
                manifest = s.manifest;
                return true;
            }
        }
    }
    detail.error = QObject::tr("Case %1 of suite %2 is not in the store.").arg(detail.ref.caseId, detail.ref.suite);
    return false;
}

/// The runs of the family whose first run is `root` (a run and its retries; see evaluateStore).
std::optional<QList<RunRow>> runFamily(ResultStore& store, qint64 suiteRow, qint64 root, QString& error)
{
    const auto runs = store.runs(suiteRow);
    if (!runs) {
        error = runs.errorMessage();
        return std::nullopt;
    }
    QHash<qint64, qint64> rootOf;
    QList<RunRow> family;
    for (const RunRow& run : runs.value()) {
        qint64 r = run.id;
        if (const auto parent = run.settings.find("retry_of");
            parent != run.settings.end() && parent->is_number_integer())
            r = rootOf.value(parent->get<qint64>(), run.id);
        rootOf.insert(run.id, r);
        if (r == root)
            family << run;
    }
    return family;
}

} // namespace

CaseDetail loadCaseDetail(ResultStore& store, const CaseRef& ref, GoldBasis basis)
{
    CaseDetail detail;
    detail.ref = ref;
    detail.basis = basis;
    json manifest;
    if (!findCase(store, detail, manifest))
        return detail;

    const auto revisions = store.goldRevisions(detail.caseRecord.row);
    if (!revisions || revisions->isEmpty()) {
        detail.error = revisions ? QObject::tr("Case %1 has no gold.").arg(ref.caseId) : revisions.errorMessage();
        return detail;
    }
    const GoldRevision& original = revisions->first();
    const GoldRevision& current = revisions->last();
    detail.revisions = int(revisions->size());
    detail.currentGold = current.gold;
    detail.currentRevision = current.revision;
    const GoldRevision& used = basis == GoldBasis::Adjusted ? current : original;
    detail.gold = used.gold;
    detail.goldRevision = used.revision;

    const auto family = runFamily(store, detail.suiteRow, ref.runId, detail.error);
    if (!family)
        return detail;
    bool found = false;
    RunRow answeringRun;
    for (const RunRow& run : *family) {
        const auto visited = store.forEachResponse(run.id, [&](const ResponseRow& response) {
            if (response.caseRow != detail.caseRecord.row || response.repeat != ref.repeat)
                return true;
            if (!found || preferResponse(response, detail.response)) {
                detail.response = response;
                answeringRun = run;
                found = true;
            }
            return true;
        });
        if (!visited) {
            detail.error = visited.errorMessage();
            return detail;
        }
    }
    if (!found) {
        detail.error = QObject::tr("No response of run %1 for case %2, repeat %3.")
                           .arg(ref.runId)
                           .arg(ref.caseId)
                           .arg(ref.repeat);
        return detail;
    }

    detail.sobEncoded = answeringRun.settings.value("import_format", std::string()) == "sob";
    static const json noCatalog;
    const auto catalog = manifest.find("catalog");
    ScoringOptions options = ScoringOptions::forManifest(manifest, catalog != manifest.end() ? *catalog : noCatalog);
    options.keepDifferences = true;
    const StoredCaseSchema schema = storedCaseSchema(manifest, detail.caseRecord);
    // An answer asked with another schema than its case's is validated against the one it was asked with.
    json askedSchema;
    if (detail.response.askedSchemaId > 0) {
        auto asked = store.askedSchemas();
        if (!asked) {
            detail.error = asked.errorMessage();
            return detail;
        }
        const auto found = asked->find(detail.response.askedSchemaId);
        if (found == asked->end()) {
            detail.error = QObject::tr("Response %1 names asked schema %2, which the store does not hold.")
                               .arg(detail.response.id)
                               .arg(detail.response.askedSchemaId);
            return detail;
        }
        askedSchema = found->second;
    }

    ScoreInput input;
    input.gold = &detail.gold;
    input.schema = detail.response.askedSchemaId > 0
        ? (askedSchema.is_object() || askedSchema.is_boolean() ? &askedSchema : nullptr)
        : schema.document;
    input.modality
        = modalityFromId(answeringRun.settings.value("modality", std::string("text"))).value_or(Modality::Text);
    const QByteArray raw = detail.response.rawText.toUtf8();
    const std::string_view rawView(raw.constData(), std::size_t(raw.size()));
    json decoded;
    std::string text;
    if (detail.sobEncoded) {
        std::string error;
        if (parseJsonDocument(rawView, decoded, error)) {
            if (decoded.is_string()) {
                text = decoded.get<std::string>();
                input.importedAsString = true;
            } else {
                input.imported = &decoded;
                detail.predicted = decoded;
                detail.jsonLength = raw.size();
            }
        }
    }
    input.response = input.importedAsString ? std::string_view(text) : rawView;
    detail.verdict = scoreResponse(input, options);
    if (!detail.sobEncoded) {
        ParseResult parsed = parseResponse(rawView);
        if (parsed.ok()) {
            detail.jsonOffset = parsed.offset;
            detail.jsonLength = parsed.length;
            detail.predicted = std::move(parsed.value);
        }
    }
    detail.rows = alignJson(detail.gold, detail.predicted ? &*detail.predicted : nullptr, detail.verdict.differences);
    return detail;
}

QHash<QString, QString> loadCaseTexts(ResultStore& store, QString* error)
{
    QHash<QString, QString> texts;
    const auto suites = store.suites();
    if (!suites) {
        if (error)
            *error = suites.errorMessage();
        return texts;
    }
    for (const SuiteRow& s : suites.value()) {
        const auto cases = store.cases(s.row);
        if (!cases) {
            if (error)
                *error = cases.errorMessage();
            return {};
        }
        for (const CaseRow& c : cases.value())
            texts.insert(s.id + QChar(0x1f) + c.id, c.question ? *c.question + u"\n"_s + c.input : c.input);
    }
    return texts;
}

} // namespace structscope
