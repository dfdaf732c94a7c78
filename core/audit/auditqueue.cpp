#include "audit/auditqueue.h"

#include "audit/goldpatch.h"
#include "audit/modelanswers.h"
#include "audit/storedschema.h"
#include "json/jsondiff.h"
#include "json/leafpaths.h"
#include "store/resultstore.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <map>
#include <set>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

using CaseAnswers = std::map<QString, ModelCaseAnswer>;

/// The leaves of one gold document with every parsed model answer at each, ready for goldSuspicionQueue.
struct CaseLeaves
{
    std::vector<LeafAnswers> leaves;
    std::vector<std::string> pointers; ///< parallel to leaves
};

CaseLeaves leavesOf(const json& gold, const CaseAnswers& answers)
{
    CaseLeaves out;
    for (const Leaf& leaf : flattenLeaves(gold, LeafPointers::Fill)) {
        LeafAnswers la;
        // The index stands in for the case id so that each suspect maps back to its pointer.
        la.caseId = QString::number(out.leaves.size());
        la.path = leaf.path;
        la.gold = *leaf.value;
        for (const auto& [model, answer] : answers) {
            if (answer.value)
                la.answers.push_back({ model, valueAtPointer(*answer.value, leaf.pointer) });
        }
        out.leaves.push_back(std::move(la));
        out.pointers.push_back(leaf.pointer);
    }
    return out;
}

/// Whether a parsed answer matches gold at every gold leaf (lenient equality).
bool matchesGold(const std::vector<Leaf>& goldLeaves, const json& answer, bool absentEqualsNull)
{
    for (const Leaf& leaf : goldLeaves) {
        const std::optional<json> predicted = valueAtPointer(answer, leaf.pointer);
        const bool equal = predicted ? valuesEqual(*leaf.value, *predicted, Equality::Lenient)
                                     : absentEqualsNull && leaf.value->is_null();
        if (!equal)
            return false;
    }
    return true;
}

/// Failed / answered cases per (category, model) of one suite.
using FailureTally = std::map<std::pair<QString, QString>, std::pair<int, int>>;

void rankItems(std::vector<AuditItem>& items)
{
    std::sort(items.begin(), items.end(), [](const AuditItem& x, const AuditItem& y) {
        if (x.support != y.support)
            return x.support > y.support;
        if (x.agreeing != y.agreeing)
            return x.agreeing > y.agreeing;
        if (x.suiteId != y.suiteId)
            return x.suiteId < y.suiteId;
        if (x.caseId != y.caseId)
            return x.caseId < y.caseId;
        return x.path < y.path;
    });
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
    {
    }

    bool run(const SuiteRecord& suite)
    {
        const auto cases = m_store.cases(suite.row);
        if (!cases)
            return fail(cases.errorMessage());
        const auto original = m_store.goldForSuite(suite.row, GoldChoice::Original);
        if (!original)
            return fail(original.errorMessage());
        const auto current = m_store.goldForSuite(suite.row, GoldChoice::Current);
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
        for (const CaseRecord& c : cases.value()) {
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

    /// Runs the suspicion rule on `basis` (the current gold, or the original one for the Fixed pass).
    void addSuspects(const SuiteRecord& suite, const CaseRecord& c, const GoldRevision& current,
        const json& originalGold, const json& basis, const CaseAnswers& answers, bool fixedPass,
        std::set<std::string>& listed)
    {
        const CaseLeaves leaves = leavesOf(basis, answers);
        for (SuspectLeaf& suspect : goldSuspicionQueue(leaves.leaves, m_options.suspicion)) {
            const std::size_t index = std::size_t(suspect.caseId.toULongLong());
            const std::string& pointer = leaves.pointers[index];
            const std::optional<json> now = valueAtPointer(current.gold, pointer);
            const std::optional<json> before = valueAtPointer(originalGold, pointer);
            const bool changed = !samePlaceValue(before, now);
            if (listed.count(suspect.path) || (fixedPass && !changed))
                continue;
            listed.insert(suspect.path);
            AuditItem item;
            item.suiteRow = suite.row;
            item.suiteId = suite.id;
            item.caseRow = c.row;
            item.caseId = c.id;
            item.category = c.category;
            item.path = std::move(suspect.path);
            item.pointer = pointer;
            item.goldRevision = current.revision;
            item.gold = now;
            item.originalGold = before.value_or(json());
            item.consensus = std::move(suspect.consensus);
            item.consensusAbsent = suspect.consensusAbsent;
            item.agreeing = suspect.agreeing;
            item.answered = suspect.answered;
            item.support = suspect.support;
            item.agreeingModels = std::move(suspect.agreeingModels);
            item.answers = leaves.leaves[index].answers;
            item.goldChanged = changed;
            item.triage = m_triage.resolve(c.row, item.path, pointer, originalGold, current.gold);
            m_queue.items.push_back(std::move(item));
        }
    }

    void checkGold(const SuiteRecord& suite, const CaseRecord& c, const json& gold, Problems& problems,
        QSet<QString>& brokenSchemas)
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

    void flagUniformFailures(const SuiteRecord& suite, const FailureTally& failures)
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
    for (const SuiteRecord& suite : suites.value()) {
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
    rankItems(queue.items);
    return queue;
}

} // namespace structscope
