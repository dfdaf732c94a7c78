// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "providers/promptbuilder.h"
#include "providers/strategy.h"
#include "sim/simprofile.h"
#include "suite/suite.h"

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

#include <optional>

namespace structscope {

// What serve-sim does with one chat request, without the HTTP: read the request, find its case,
// answer it as a simulated model would, and write the provider's response body.

/// The API a request came through.
enum class SimApi { OpenAI, Ollama };

/// A chat request as serve-sim reads it.
struct SimChatRequest
{
    SimApi api = SimApi::OpenAI;
    QString model;
    QList<ChatMessage> messages;
    bool stream = false;
    bool jsonMode = false; ///< response_format json_object / format "json"
    bool schemaFormat = false; ///< response_format json_schema / format {schema}
    nlohmann::json schema; ///< the schema asked for as the format
    QString caseId; ///< from the X-StructScope-Case header (may be empty)
    int repeat = 0; ///< from the X-StructScope-Repeat header
};

/// Reads a request body of either API. nullopt, with what is wrong, for a body the API would refuse.
std::optional<SimChatRequest> parseSimChatRequest(SimApi api, const QByteArray& body, QString* error = nullptr);

/// The suites serve-sim knows, and how it finds the case of a request.
class SimCatalog
{
public:
    void addSuite(const SuitePtr& suite);
    QStringList suiteIds() const;
    qsizetype caseCount() const;

    struct Match
    {
        SuitePtr suite;
        const SuiteCase* c = nullptr;
        Strategy strategy = Strategy::P;
    };
    /// The case named by the request's case header, else the case whose input is the longest one
    /// found in the last user message; the strategy whose prompt matches the messages exactly, else
    /// the one the format implies. nullopt for a prompt of no known case.
    std::optional<Match> match(const SimChatRequest& request) const;

private:
    struct PromptShape
    {
        QList<ChatMessage> messages;
        bool jsonMode = false;
        bool schemaFormat = false;
    };
    const PromptShape& shape(const Suite& suite, const SuiteCase& c, Strategy s) const;

    QList<SuitePtr> m_suites;
    mutable QHash<QPair<const SuiteCase*, int>, PromptShape> m_shapes; ///< built on first use
};

/// A simulated answer to a request.
struct SimChatAnswer
{
    QString text;
    qint64 tokensIn = 0;
    qint64 tokensOut = 0;
    QString caseId; ///< empty when the prompt matched no case (the text is then a minimal instance)
};

/// Answers a request: the profile's simulated answer for a known case, else a minimal instance of the
/// requested schema, else "{}".
SimChatAnswer answerSimChat(const SimCatalog& catalog, const SimProfile& profile, const SimChatRequest& request);

/// OpenAI chat.completion body, or its SSE stream events (each "data: …\n\n", ending with [DONE]).
QByteArray simOpenAiBody(const SimChatAnswer& answer, const QString& model);
QList<QByteArray> simOpenAiStream(const SimChatAnswer& answer, const QString& model);
/// Ollama /api/chat body, or its NDJSON stream lines.
QByteArray simOllamaBody(const SimChatAnswer& answer, const QString& model);
QList<QByteArray> simOllamaStream(const SimChatAnswer& answer, const QString& model);

} // namespace structscope
