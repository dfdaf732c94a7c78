// SPDX-License-Identifier: Apache-2.0
#include "audit/modelanswers.h"

#include "store/resultstore.h"
#include "json/parseladder.h"

#include <QHash>

using nlohmann::json;

namespace structscope {

namespace {

/// The parsed candidate of a response, as the scorer would see it.
std::optional<json> parseAnswer(const ResponseRow& response, bool sobEncoded)
{
    const QByteArray raw = response.rawText.toUtf8();
    const std::string_view text(raw.constData(), std::size_t(raw.size()));
    if (sobEncoded) {
        // SOB stores the candidate itself: an object when it parsed, else the raw string (not parsed).
        json decoded;
        std::string error;
        if (!parseJsonDocument(text, decoded, error) || decoded.is_string())
            return std::nullopt;
        return decoded;
    }
    ParseResult parsed = parseResponse(text);
    if (!parsed.ok())
        return std::nullopt;
    return std::move(parsed.value);
}

} // namespace

QString runModelLabel(const RunRow& run)
{
    if (run.modelSpec.startsWith(QLatin1String("import:")))
        return run.modelSpec.mid(7);
    return run.modelSpec;
}

bool preferResponse(const ResponseRow& candidate, const ResponseRow& current)
{
    const bool candidateOk = candidate.errorKind.isEmpty();
    const bool currentOk = current.errorKind.isEmpty();
    if (candidateOk != currentOk)
        return candidateOk;
    return candidate.id > current.id;
}

StoreResult<SuiteAnswers> collectModelAnswers(ResultStore& store, qint64 suiteRow, const std::atomic_bool* cancel)
{
    auto runs = store.runs(suiteRow);
    if (!runs)
        return runs.error();
    SuiteAnswers answers;
    // Oldest run first: a later run's parsed answer replaces an earlier one, never the other way round.
    for (const RunRow& run : std::as_const(runs.value())) {
        if (cancel && cancel->load())
            break;
        QHash<qint64, ResponseRow> chosen;
        const auto visited = store.forEachResponse(run.id, [&](const ResponseRow& response) {
            if (response.repeat != 0)
                return true;
            auto it = chosen.find(response.caseRow);
            if (it == chosen.end())
                chosen.insert(response.caseRow, response);
            else if (preferResponse(response, it.value()))
                it.value() = response;
            return !(cancel && cancel->load());
        });
        if (!visited)
            return visited.error();

        const auto format = run.settings.is_object() ? run.settings.find("import_format") : run.settings.end();
        const bool sob = format != run.settings.end() && *format == "sob";
        const QString model = runModelLabel(run);
        for (auto it = chosen.cbegin(); it != chosen.cend(); ++it) {
            const ResponseRow& response = it.value();
            if (!response.errorKind.isEmpty())
                continue;
            ModelCaseAnswer answer;
            answer.value = parseAnswer(response, sob);
            answer.responseId = response.id;
            answer.runId = run.id;
            answer.strategy = run.strategy;
            auto& byModel = answers[it.key()];
            const auto existing = byModel.find(model);
            if (existing == byModel.end())
                byModel.emplace(model, std::move(answer));
            else if (answer.value || !existing->second.value)
                existing->second = std::move(answer);
        }
    }
    return answers;
}

} // namespace structscope
