// SPDX-License-Identifier: Apache-2.0
#include "audit/auditqueue.h"

#include "audit/goldpatch.h"
#include "audit/modelanswers.h"
#include "audit/storedschema.h"
#include "store/resultstore.h"
#include "json/jsondiff.h"
#include "json/leafpaths.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

using CaseAnswers = std::map<QString, ModelCaseAnswer>;

/// sourceCoverage() at which the input holds a gold element most models lack.
constexpr double kHeldByInput = 0.75;
/// valueCoverage() at which a gold element already says what a proposed element says.
constexpr double kRestated = 0.85;

/// The gold element of `array` that holds most of `proposed`'s words, when it holds at least kRestated of them.
int restatingElement(const std::optional<json>& array, const json& proposed)
{
    if (!array || !array->is_array())
        return -1;
    int best = -1;
    double bestCoverage = kRestated;
    for (std::size_t i = 0; i < array->size(); ++i) {
        const double coverage = valueCoverage((*array)[i], proposed);
        if (coverage >= bestCoverage) {
            best = int(i);
            bestCoverage = coverage;
        }
    }
    return best;
}

QString jsonText(const json& value)
{
    return QString::fromStdString(value.dump(-1, ' ', false, json::error_handler_t::replace));
}

int kindTier(FindingKind kind)
{
    switch (kind) {
    case FindingKind::Value:
        return 0;
    case FindingKind::MissingElement:
        return 1;
    case FindingKind::ExtraElement:
        return 2;
    case FindingKind::MergeSplit:
        return 3;
    case FindingKind::Format:
        return 4;
    }
    return 5;
}

/// `basisGold`: the gold the finding was made on (the original one for items found in the Fixed pass).
int evidenceOf(const AuditItem& item, const std::optional<json>& basisGold, const QString& source)
{
    const int gold = basisGold && !basisGold->is_null() ? sourceSupport(source, *basisGold) : 0;
    const int consensus = !item.consensus.is_null() ? sourceSupport(source, item.consensus) : 0;
    switch (item.kind) {
    case FindingKind::ExtraElement:
        return 2;
    case FindingKind::MergeSplit:
        return 1;
    case FindingKind::MissingElement:
        return consensus > 0 ? 2 : 1;
    case FindingKind::Value:
    case FindingKind::Format:
        // Where gold has null, a value the input does not hold is the models' invention.
        if (basisGold && basisGold->is_null())
            return consensus > 0 ? 2 : 0;
        // Models that give nothing there (null, or no key): the input backs them as far as it lacks the gold.
        if (item.consensus.is_null())
            return 2 - gold;
        return consensus > gold ? 2 : consensus < gold ? 0 : 1;
    }
    return 1;
}

AuditBatch batchOf(const AuditItem& item)
{
    switch (item.kind) {
    case FindingKind::Format:
        return AuditBatch::Format;
    case FindingKind::MergeSplit:
        return AuditBatch::Granularity;
    case FindingKind::MissingElement:
        if (item.restates >= 0)
            return AuditBatch::Granularity;
        break;
    case FindingKind::Value:
    case FindingKind::ExtraElement:
        break;
    }
    return item.evidence >= 2 ? AuditBatch::Backed : AuditBatch::Unbacked;
}

/// Whether a parsed answer matches gold at every gold leaf (lenient equality).
bool matchesGold(const std::vector<Leaf>& goldLeaves, const json& answer, bool absentEqualsNull)
{
    return std::ranges::all_of(goldLeaves, [&](const Leaf& leaf) {
        const std::optional<json> predicted = valueAtPointer(answer, leaf.pointer);
        return predicted ? valuesEqual(*leaf.value, *predicted, Equality::Lenient)
                         : absentEqualsNull && leaf.value->is_null();
    });
}

/// Failed / answered cases per (category, model) of one suite.
using FailureTally = std::map<std::pair<QString, QString>, std::pair<int, int>>;

void rankItems(AuditQueue& queue)
{
    std::vector<AuditItem>& items = queue.items;
    std::sort(items.begin(), items.end(), [](const AuditItem& x, const AuditItem& y) {
        if (x.batch != y.batch)
            return x.batch < y.batch;
        if (kindTier(x.kind) != kindTier(y.kind))
            return kindTier(x.kind) < kindTier(y.kind);
        if (x.evidence != y.evidence)
            return x.evidence > y.evidence;
        if (x.agreeing != y.agreeing)
            return x.agreeing > y.agreeing;
        if (x.support != y.support)
            return x.support > y.support;
        if (x.suiteId != y.suiteId)
            return x.suiteId < y.suiteId;
        if (x.caseId != y.caseId)
            return x.caseId < y.caseId;
        return x.path < y.path;
    });
    // Gather by (batch, case, array), groups in the order of their best item.
    std::map<std::tuple<AuditBatch, qint64, std::string>, int> index;
    queue.groups.clear();
    for (AuditItem& item : items) {
        const auto key = std::make_tuple(item.batch, item.caseRow, item.arrayPointer);
        auto found = index.find(key);
        if (found == index.end()) {
            found = index.emplace(key, int(queue.groups.size())).first;
            AuditGroup group;
            group.suiteId = item.suiteId;
            group.caseRow = item.caseRow;
            group.caseId = item.caseId;
            group.arrayPath = item.arrayPath;
            group.batch = item.batch;
            queue.groups.push_back(std::move(group));
        }
        item.group = found->second;
    }
    std::stable_sort(
        items.begin(), items.end(), [](const AuditItem& x, const AuditItem& y) { return x.group < y.group; });
    for (std::size_t row = 0; row < items.size(); ++row) {
        AuditGroup& group = queue.groups[std::size_t(items[row].group)];
        if (group.count++ == 0)
            group.first = int(row);
    }
}

/// Audits one suite; returns false (with queue.error set) when the store cannot be read.
class SuiteAuditor
{
public:
    SuiteAuditor(ResultStore& store, const AuditOptions& options, const TriageLog& triage, AuditQueue& queue)
        : m_store(store)
        , m_options(options)
        , m_triage(triage)
        , m_queue(queue)
    { }

    bool run(const SuiteRow& suite)
    {
        const auto cases = m_store.cases(suite.row);
        if (!cases)
            return fail(cases.errorMessage());
        const auto original = m_store.goldForSuite(suite.row, GoldBasis::Measured);
        if (!original)
            return fail(original.errorMessage());
        const auto current = m_store.goldForSuite(suite.row, GoldBasis::Adjusted);
        if (!current)
            return fail(current.errorMessage());
        const auto answers = collectModelAnswers(m_store, suite.row, m_options.cancel);
        if (!answers)
            return fail(answers.errorMessage());
        ++m_queue.suites;
        m_queue.cases += int(cases->size());

        static const CaseAnswers noAnswers;
        FailureTally failures;
        SuitePreflight preflight { suite.row, suite.id, {} };
        QSet<QString> brokenSchemas;
        for (const CaseRow& c : cases.value()) {
            const json& originalGold = original->value(c.row).gold;
            const GoldRevision currentGold = current->value(c.row);
            const auto found = answers->find(c.row);
            const CaseAnswers& caseAnswers = found != answers->end() ? found->second : noAnswers;

            std::set<std::string> listed;
            addSuspects(suite, c, currentGold, originalGold, currentGold.gold, caseAnswers, false, listed);
            if (m_options.includeFixed && currentGold.revision > 0)
                addSuspects(suite, c, currentGold, originalGold, originalGold, caseAnswers, true, listed);

            const std::vector<Leaf> goldLeaves = flattenLeaves(currentGold.gold, LeafPointers::Fill);
            for (const auto& [model, answer] : caseAnswers) {
                auto& [failed, total] = failures[{ c.category, model }];
                ++total;
                if (!answer.value || !matchesGold(goldLeaves, *answer.value, m_options.suspicion.absentEqualsNull))
                    ++failed;
            }
            if (m_options.includePreflight)
                checkGold(suite, c, currentGold.gold, preflight.problems, brokenSchemas);
        }
        flagUniformFailures(suite, failures);
        if (!preflight.problems.isEmpty())
            m_queue.preflight.push_back(std::move(preflight));
        return true;
    }

private:
    bool fail(const QString& message)
    {
        m_queue.error = message;
        return false;
    }

    /// Runs findCaseSuspects on `basis` (the current gold, or the original one for the Fixed pass).
    void addSuspects(const SuiteRow& suite, const CaseRow& c, const GoldRevision& current, const json& originalGold,
        const json& basis, const CaseAnswers& answers, bool fixedPass, std::set<std::string>& listed)
    {
        std::vector<CaseAnswer> parsed;
        for (const auto& [model, answer] : answers) {
            if (answer.value)
                parsed.push_back({ model, *answer.value });
        }
        for (CaseFinding& f : findCaseSuspects(basis, parsed, m_options.suspicion)) {
            // A gold element most models lack, but the input holds, is the models' omission, not the gold's error.
            if (f.kind == FindingKind::ExtraElement && f.gold && sourceCoverage(c.input, *f.gold) >= kHeldByInput)
                continue;
            const bool element = f.kind == FindingKind::MissingElement || f.kind == FindingKind::ExtraElement
                || f.kind == FindingKind::MergeSplit;
            const std::optional<json> now = valueAtPointer(current.gold, f.pointer);
            const std::optional<json> before = valueAtPointer(originalGold, f.pointer);
            // An element finding is settled by any change of its array.
            const std::string& place = element ? f.arrayPointer : f.pointer;
            const bool changed
                = !samePlaceValue(valueAtPointer(originalGold, place), valueAtPointer(current.gold, place));
            if (listed.contains(f.path) || (fixedPass && !changed))
                continue;
            listed.insert(f.path);
            AuditItem item;
            item.suiteRow = suite.row;
            item.suiteId = suite.id;
            item.caseRow = c.row;
            item.caseId = c.id;
            item.category = c.category;
            item.kind = f.kind;
            item.format = f.format;
            item.path = std::move(f.path);
            item.pointer = f.pointer;
            item.arrayPath = std::move(f.arrayPath);
            item.arrayPointer = std::move(f.arrayPointer);
            item.goldRevision = current.revision;
            item.gold = f.kind == FindingKind::MissingElement ? std::nullopt : now;
            item.originalGold = f.kind == FindingKind::MissingElement ? json() : before.value_or(json());
            item.consensus = std::move(f.consensus);
            item.consensusAbsent = f.consensusAbsent;
            item.agreeing = f.agreeing;
            item.answered = f.answered;
            item.support = f.support;
            item.merging = f.merging;
            item.splitting = f.splitting;
            item.agreeingModels = std::move(f.agreeingModels);
            item.answers = std::move(f.answers);
            item.goldChanged = changed;
            if (item.gold)
                item.goldSource = findInSource(c.input, *item.gold);
            if (f.kind != FindingKind::ExtraElement && f.kind != FindingKind::MergeSplit)
                item.consensusSource = findInSource(c.input, item.consensus);
            item.evidence = evidenceOf(item, f.gold, c.input);
            if (item.kind == FindingKind::MissingElement)
                item.restates = restatingElement(valueAtPointer(basis, item.arrayPointer), item.consensus);
            item.batch = batchOf(item);
            if (item.kind == FindingKind::Value && item.evidence == 0 && !m_options.listGoldTheInputHolds) {
                listed.erase(item.path);
                continue;
            }
            item.triage = m_triage.resolve(c.row, item.path, item.pointer, originalGold, current.gold);
            m_queue.items.push_back(std::move(item));
        }
    }

    void checkGold(
        const SuiteRow& suite, const CaseRow& c, const json& gold, Problems& problems, QSet<QString>& brokenSchemas)
    {
        const QString file = u"cases.jsonl"_s;
        const int line = c.ordinal + 1;
        const StoredCaseSchema schema = storedCaseSchema(suite.manifest, c);
        if (!schema.missing.isEmpty()) {
            problems.append(Problem { file, line, 0, u"/schema"_s, schema.missing });
            return;
        }
        if (!schema.document)
            return; // nothing declared: nothing to check against
        std::string error;
        const CompiledSchemaPtr compiled = SchemaCache::compile(*schema.document, schema.options, &error);
        if (!compiled) {
            // A broken named schema would repeat on every case that uses it.
            if (schema.name.isEmpty() || !brokenSchemas.contains(schema.name))
                problems.append(Problem { file, line, 0, u"/schema"_s,
                    u"case %1: the schema does not compile: %2"_s.arg(c.id, QString::fromStdString(error)) });
            brokenSchemas.insert(schema.name);
            return;
        }
        for (const SchemaError& e : compiled->validate(gold))
            problems.append(Problem { file, line, 0, u"/gold"_s + QString::fromStdString(e.pointer),
                u"case %1: gold does not match its schema: %2"_s.arg(c.id, QString::fromStdString(e.message)) });
    }

    void flagUniformFailures(const SuiteRow& suite, const FailureTally& failures)
    {
        std::vector<CategoryFailureRate> rates;
        for (const auto& [key, counts] : failures)
            rates.push_back({ key.first, key.second, double(counts.first) / double(counts.second) });
        for (UniformFailureFlag& flag : uniformFailureFlags(rates, m_options.uniform)) {
            CategoryFlag out;
            out.suiteRow = suite.row;
            out.suiteId = suite.id;
            for (const CategoryFailureRate& rate : rates) {
                if (rate.category == flag.category)
                    out.rates.push_back(rate); // the map's order: sorted by model
            }
            out.flag = std::move(flag);
            m_queue.uniformFailures.push_back(std::move(out));
        }
    }

    ResultStore& m_store;
    const AuditOptions& m_options;
    const TriageLog& m_triage;
    AuditQueue& m_queue;
};

} // namespace

AuditQueue buildAuditQueue(ResultStore& store, const AuditOptions& options)
{
    AuditQueue queue;
    const auto cancelled = [&options] { return options.cancel && options.cancel->load(); };
    const auto suites = store.suites();
    if (!suites) {
        queue.error = suites.errorMessage();
        return queue;
    }
    const auto triage = TriageLog::read(store);
    if (!triage) {
        queue.error = triage.errorMessage();
        return queue;
    }
    SuiteAuditor auditor(store, options, triage.value(), queue);
    for (const SuiteRow& suite : suites.value()) {
        if (options.suiteRow > 0 && suite.row != options.suiteRow)
            continue;
        if (cancelled())
            break;
        if (!auditor.run(suite))
            return queue;
    }
    if (cancelled()) {
        queue.cancelled = true;
        return queue;
    }
    rankItems(queue);
    return queue;
}

const char* auditBatchId(AuditBatch batch)
{
    switch (batch) {
    case AuditBatch::Backed:
        return "backed";
    case AuditBatch::Unbacked:
        return "unbacked";
    case AuditBatch::Granularity:
        return "granularity";
    case AuditBatch::Format:
        return "format";
    }
    return "";
}

QString describeAuditItem(const AuditItem& item)
{
    const QString of = u"%1 of %2 models"_s.arg(item.agreeing).arg(item.answered);
    const QString gold = item.gold ? jsonText(*item.gold) : u"nothing"_s;
    switch (item.kind) {
    case FindingKind::Value:
        if (item.consensusAbsent)
            return u"%1 lack this key where gold has %2"_s.arg(of, gold);
        return u"%1 give %2 where gold has %3"_s.arg(of, jsonText(item.consensus), gold);
    case FindingKind::MissingElement:
        if (item.restates >= 0)
            return u"Gold lacks an element that %1 give, whose words gold's element %2 already has (split out of "
                   u"it): %3"_s.arg(of, QString::number(item.restates), jsonText(item.consensus));
        return u"Gold lacks an element that %1 give: %2"_s.arg(of, jsonText(item.consensus));
    case FindingKind::ExtraElement:
        return u"%1 lack this gold element: %2"_s.arg(of, gold);
    case FindingKind::MergeSplit: {
        QStringList how;
        if (item.merging > 0)
            how << u"%1 merge it with another element"_s.arg(item.merging);
        if (item.splitting > 0)
            how << u"%1 split it in two or more"_s.arg(item.splitting);
        return u"Models merge or split elements (%1 of %2: %3): %4"_s.arg(
            QString::number(item.agreeing), QString::number(item.answered), how.join(u", "_s), gold);
    }
    case FindingKind::Format:
        return u"Format disagreement (%1): %2 write %3 for gold's %4"_s.arg(
            QString::fromLatin1(formatVariantId(item.format)), of, jsonText(item.consensus), gold);
    }
    return {};
}

std::optional<LeafEdit> acceptEditOf(const AuditItem& item, const QString& author, const QString& reason)
{
    LeafEdit edit;
    edit.caseRow = item.caseRow;
    edit.pointer = item.pointer;
    edit.author = author;
    edit.reason = reason;
    edit.basedOnRevision = item.goldRevision;
    switch (item.kind) {
    case FindingKind::Value:
    case FindingKind::Format:
        if (!item.consensusAbsent)
            edit.value = item.consensus;
        return edit;
    case FindingKind::MissingElement:
        edit.value = item.consensus;
        edit.insert = true;
        return edit;
    case FindingKind::ExtraElement:
        return edit; // removes the element
    case FindingKind::MergeSplit:
        break;
    }
    return std::nullopt;
}

} // namespace structscope
