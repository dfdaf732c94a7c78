// SPDX-License-Identifier: Apache-2.0
#include "run/runsetup.h"

#include "store/resultstore.h"
#include "store/secretkeys.h"
#include "store/suiteimport.h"
#include "suite/suite.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

bool isEnvReference(const QString& value)
{
    static const QRegularExpression pattern(u"^\\$[A-Za-z_][A-Za-z0-9_]*$"_s);
    return pattern.match(value).hasMatch();
}

// The spec as the store describes it, its `$VAR` headers included.
std::optional<ModelSpec> storedSpec(const RunRow& run, QString* error)
{
    QString problem;
    auto spec = parseModelSpec(run.modelSpec, &problem);
    if (!spec) {
        if (error)
            *error = u"run %1: stored model spec '%2': %3"_s.arg(QString::number(run.id), run.modelSpec, problem);
        return std::nullopt;
    }
    const auto headers = run.settings.find("headers");
    if (headers != run.settings.end() && headers->is_object() && !spec->isSimulated()) {
        for (auto it = headers->begin(); it != headers->end(); ++it) {
            const QString value = it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
            if (isEnvReference(value))
                spec->headers.append({ QString::fromStdString(it.key()), value });
        }
    }
    return spec;
}

const ModelSpec* overrideFor(const ModelSpec& stored, const QList<ModelSpec>& overrides)
{
    for (const ModelSpec& o : overrides) {
        if (o.endpointKey() == stored.endpointKey())
            return &o;
    }
    return nullptr;
}

} // namespace

StoreResult<StoredSuite> storeSuiteForRun(ResultStore& store, const Suite& suite)
{
    const auto imported = store.importSuite(makeSuiteImport(suite));
    if (!imported)
        return imported.error();
    const auto cases = store.cases(imported->suite.row);
    if (!cases)
        return cases.error();
    StoredSuite stored;
    stored.suiteRow = imported->suite.row;
    for (const CaseRow& c : cases.value())
        stored.caseRows.insert(c.id, c.row);
    for (const SuiteCase& c : suite.cases) {
        if (!stored.caseRows.contains(c.id))
            return StoreError { StoreErrorKind::InvalidArgument,
                u"case '%1' is missing from the stored suite"_s.arg(c.id) };
    }
    return stored;
}

json runSettings(const ModelSpec& spec, const RunnerOptions& options)
{
    json settings = { { "temperature", spec.temperature }, { "stream", spec.stream },
        { "per_model_concurrency", options.perModelConcurrency }, { "request_cache", options.useCache },
        { "max_attempts", options.maxAttempts }, { "structscope_version", STRUCTSCOPE_VERSION } };
    if (spec.maxTokens)
        settings["max_tokens"] = *spec.maxTokens;
    if (spec.seed)
        settings["seed"] = *spec.seed;
    if (!spec.keyEnv.isEmpty())
        settings["key_env"] = spec.keyEnv.toStdString();
    if (!spec.baseUrl.isEmpty())
        settings["base_url"] = spec.baseUrl.toStdString();
    if (spec.isSimulated())
        settings["simulated"] = true;
    // Only references to variables ("$VAR") are kept: a literal value may be a credential. A header whose
    // name looks secret is left out too (stores refuse such keys); a resume brings it back from the spec
    // the user gives.
    json headers = json::object();
    for (const auto& [name, value] : spec.headers) {
        if (isEnvReference(value))
            headers[name.toStdString()] = value.toStdString();
    }
    if (!headers.empty())
        settings["headers"] = withoutSecrets(headers);
    return withoutSecrets(settings);
}

RunRow makeRunRow(const StoredSuite& stored, const Suite& suite, const ModelSpec& spec, Strategy strategy, int repeats,
    const json& settings)
{
    RunRow run;
    run.suiteRow = stored.suiteRow;
    run.modelSpec = formatModelSpec(spec, SpecText::Stored);
    run.providerKind = providerKindName(spec.kind);
    run.strategy = strategyName(strategy);
    run.repeats = repeats;
    run.settings = settings;
    run.suiteHash = QString::fromLatin1(suite.contentHash);
    run.status = RunStatus::Running;
    return run;
}

std::optional<ModelSpec> specForRun(
    const RunRow& run, const QList<ModelSpec>& overrides, bool trustStore, QString* error)
{
    auto spec = storedSpec(run, error);
    if (!spec)
        return std::nullopt;
    if (const ModelSpec* given = overrideFor(*spec, overrides))
        return *given;
    const QStringList variables = spec->environmentVariables();
    if (!trustStore && !variables.isEmpty()) {
        if (error)
            *error = u"run %1 would send %2 from your environment to %3, an endpoint read from the store; a store "
                     "can come from anyone, so nothing is sent there unless you name it: give --model '%4' again, "
                     "or --trust-store-origin if you trust this store"_s.arg(
                         QString::number(run.id), variables.join(u", "_s), spec->origin(), formatModelSpec(*spec));
        return std::nullopt;
    }
    return spec;
}

QList<StoredEndpoint> untrustedStoredEndpoints(const QList<RunRow>& runs, const QList<ModelSpec>& overrides)
{
    QList<StoredEndpoint> out;
    for (const RunRow& run : runs) {
        const auto spec = storedSpec(run, nullptr);
        if (!spec || overrideFor(*spec, overrides))
            continue;
        const QStringList variables = spec->environmentVariables();
        if (!variables.isEmpty())
            out.append({ run.id, formatModelSpec(*spec), spec->origin(), variables });
    }
    return out;
}

StoreResult<QList<PlanRunMatch>> matchPlanRuns(ResultStore& store, const StoredSuite& stored, const RunPlan& plan)
{
    QList<PlanRunMatch> matches;
    if (!plan.suite)
        return matches;
    const auto runs = store.runs(stored.suiteRow);
    if (!runs)
        return runs.error();
    const QString suiteHash = QString::fromLatin1(plan.suite->contentHash);
    const qint64 slotsPerRepeat = plan.suite->cases.size();
    for (int m = 0; m < plan.models.size(); ++m) {
        const QString specText = formatModelSpec(plan.models.at(m), SpecText::Stored);
        for (int s = 0; s < plan.strategies.size(); ++s) {
            PlanRunMatch match;
            match.model = m;
            match.strategy = s;
            const QString strategy = strategyName(plan.strategies.at(s));
            for (const RunRow& run : runs.value()) {
                if (run.modelSpec != specText || run.strategy != strategy || run.repeats != plan.repeats
                    || run.suiteHash != suiteHash || run.settings.contains("retry_of"))
                    continue;
                if (!match.latest || run.id > match.latest->id)
                    match.latest = run;
            }
            if (match.latest) {
                const auto answered = store.responseCount(match.latest->id);
                if (!answered)
                    return answered.error();
                match.answered = answered.value();
                match.total = slotsPerRepeat * match.latest->repeats;
            }
            matches.append(match);
        }
    }
    return matches;
}

StoreResult<QSet<ResponseKey>> keysRetriedSuccessfully(ResultStore& store, const RunRow& run)
{
    const auto runs = store.runs(run.suiteRow);
    if (!runs)
        return runs.error();
    // Every run descending from `run` through retry_of links.
    QSet<qint64> family = { run.id };
    bool grew = true;
    while (grew) {
        grew = false;
        for (const RunRow& r : runs.value()) {
            const auto parent = r.settings.find("retry_of");
            if (parent != r.settings.end() && parent->is_number_integer() && family.contains(parent->get<qint64>())
                && !family.contains(r.id)) {
                family.insert(r.id);
                grew = true;
            }
        }
    }
    QSet<ResponseKey> keys;
    for (const qint64 id : std::as_const(family)) {
        if (id == run.id)
            continue;
        const auto visited = store.forEachResponse(id, [&](const ResponseRow& r) {
            if (r.errorKind.isEmpty())
                keys.insert({ r.caseRow, r.repeat });
            return true;
        });
        if (!visited)
            return visited.error();
    }
    return keys;
}

} // namespace structscope
