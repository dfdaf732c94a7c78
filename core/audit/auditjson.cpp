// SPDX-License-Identifier: Apache-2.0
#include "audit/auditjson.h"

using nlohmann::json;

namespace structscope {

namespace {

std::string str(const QString& text)
{
    return text.toStdString();
}

json triageJson(const TriageMark& mark)
{
    json out = { { "state", str(triageStateName(mark.state)) } };
    if (!mark.author.isEmpty())
        out["author"] = str(mark.author);
    if (mark.at.isValid())
        out["at"] = str(mark.at.toUTC().toString(Qt::ISODateWithMs));
    if (!mark.note.isEmpty())
        out["note"] = str(mark.note);
    if (mark.goldRevision >= 0)
        out["gold_revision"] = mark.goldRevision;
    if (mark.byGoldRevision)
        out["by_gold_revision"] = true;
    return out;
}

json sourceJson(const SourceSnippet& snippet)
{
    json out = { { "found", snippet.found } };
    if (snippet.found)
        out["snippet"] = str(snippet.text);
    return out;
}

json itemJson(const AuditItem& item)
{
    json answers = json::array();
    for (const ModelAnswer& answer : item.answers) {
        json a = { { "model", str(answer.model) } };
        if (answer.value)
            a["value"] = *answer.value;
        answers.push_back(std::move(a));
    }
    json models = json::array();
    for (const QString& model : item.agreeingModels)
        models.push_back(str(model));
    json out = { { "suite", str(item.suiteId) }, { "suite_row", item.suiteRow }, { "case", str(item.caseId) },
        { "case_row", item.caseRow }, { "category", str(item.category) }, { "kind", findingKindId(item.kind) },
        { "description", str(describeAuditItem(item)) }, { "group", item.group }, { "array", item.arrayPath },
        { "evidence", item.evidence }, { "batch", auditBatchId(item.batch) },
        { "source", { { "gold", sourceJson(item.goldSource) }, { "consensus", sourceJson(item.consensusSource) } } },
        { "path", item.path }, { "pointer", item.pointer }, { "gold_revision", item.goldRevision },
        { "original_gold", item.originalGold }, { "gold_changed", item.goldChanged }, { "consensus", item.consensus },
        { "consensus_absent", item.consensusAbsent }, { "support", item.support }, { "agreeing", item.agreeing },
        { "answered", item.answered }, { "models", std::move(models) }, { "answers", std::move(answers) },
        { "triage", triageJson(item.triage) } };
    if (item.gold)
        out["gold"] = *item.gold;
    if (item.kind == FindingKind::Format)
        out["format_variant"] = formatVariantId(item.format);
    if (item.restates >= 0)
        out["restates"] = item.restates;
    if (item.kind == FindingKind::MergeSplit) {
        out["merging"] = item.merging;
        out["splitting"] = item.splitting;
    }
    return out;
}

} // namespace

json auditQueueToJson(const AuditQueue& queue, const AuditOptions& options)
{
    json items = json::array();
    int open = 0;
    json kinds = json::object();
    for (const FindingKind kind : { FindingKind::Value, FindingKind::MissingElement, FindingKind::ExtraElement,
             FindingKind::MergeSplit, FindingKind::Format })
        kinds[findingKindId(kind)] = 0;
    json batches = json::object();
    for (const AuditBatch batch :
        { AuditBatch::Backed, AuditBatch::Unbacked, AuditBatch::Granularity, AuditBatch::Format })
        batches[auditBatchId(batch)] = 0;
    for (const AuditItem& item : queue.items) {
        items.push_back(itemJson(item));
        batches[auditBatchId(item.batch)] = batches[auditBatchId(item.batch)].get<int>() + 1;
        kinds[findingKindId(item.kind)] = kinds[findingKindId(item.kind)].get<int>() + 1;
        if (item.triage.state == TriageState::Open)
            ++open;
    }
    json groups = json::array();
    for (const AuditGroup& g : queue.groups)
        groups.push_back({ { "suite", str(g.suiteId) }, { "case", str(g.caseId) }, { "case_row", g.caseRow },
            { "array", g.arrayPath }, { "batch", auditBatchId(g.batch) }, { "first", g.first }, { "count", g.count } });
    json uniform = json::array();
    for (const CategoryFlag& f : queue.uniformFailures) {
        json rates = json::object();
        for (const CategoryFailureRate& r : f.rates)
            rates[str(r.model)] = r.rate;
        uniform.push_back(
            { { "suite", str(f.suiteId) }, { "category", str(f.flag.category) }, { "models", f.flag.models },
                { "min_rate", f.flag.minRate }, { "max_rate", f.flag.maxRate }, { "rates", std::move(rates) } });
    }
    json preflight = json::array();
    for (const SuitePreflight& p : queue.preflight) {
        json problems = json::array();
        for (const Problem& problem : p.problems)
            problems.push_back(
                { { "file", str(problem.file) }, { "line", problem.line }, { "pointer", str(problem.pointer) },
                    { "message", str(problem.message) }, { "warning", problem.warning } });
        preflight.push_back({ { "suite", str(p.suiteId) }, { "problems", std::move(problems) } });
    }
    return { { "options",
                 { { "min_models", options.suspicion.minModels }, { "min_support", options.suspicion.minSupport },
                     { "absent_equals_null", options.suspicion.absentEqualsNull } } },
        { "summary",
            { { "suites", queue.suites }, { "cases", queue.cases }, { "items", queue.items.size() },
                { "groups", queue.groups.size() }, { "open", open }, { "kinds", std::move(kinds) },
                { "batches", std::move(batches) } } },
        { "groups", std::move(groups) }, { "items", std::move(items) }, { "uniform_failures", std::move(uniform) },
        { "preflight", std::move(preflight) } };
}

} // namespace structscope
