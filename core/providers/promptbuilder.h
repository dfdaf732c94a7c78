// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "providers/strategy.h"
#include "suite/suite.h"

#include <nlohmann/json.hpp>

#include <QList>
#include <QString>

namespace structscope {

/// One chat message; role is "system", "user" or "assistant".
struct ChatMessage
{
    QString role;
    QString content;
};

/// Everything a provider needs to shape one request for one case.
struct Prompt
{
    Strategy strategy = Strategy::P;
    QList<ChatMessage> messages;
    nlohmann::json schema; ///< the case's schema document (always set when the case has one)
    QString schemaName; ///< [a-zA-Z0-9_-]{1,64}: from the schema name, or the suite id when inline
    bool jsonMode = false; ///< strategyUsesJsonMode
    bool schemaAsFormat = false; ///< strategyUsesSchemaFormat
};

/// The prompt's messages as a chat API takes them: [{"role": …, "content": …}, …].
nlohmann::json chatMessagesJson(const Prompt& prompt);

/// The schema a strategy that sends it as the response format sends: the prompt's schema, or {} when it has none.
nlohmann::json formatSchema(const Prompt& prompt);

/// Builds the messages for one case from the suite's templates; deterministic. The case input
/// appears verbatim in the last user message.
Prompt buildPrompt(const Suite& suite, const SuiteCase& c, Strategy s);

/// A name that matches [a-zA-Z0-9_-]{1,64}: other characters become '_', long names are cut.
QString sanitizeSchemaName(const QString& name);

} // namespace structscope
