// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "providers/modelspec.h"
#include "providers/ndjsonparser.h"
#include "providers/promptbuilder.h"
#include "providers/providerreply.h"
#include "providers/responsedecoder.h"

#include <nlohmann/json.hpp>

namespace structscope {

// Ollama's native chat API, POST {base}/api/chat.

/// The JSON body for a prompt: messages, "stream", options {temperature, num_predict, seed}, and
/// "format": "json" (J, PJ) or the schema object (J+, PJ+).
nlohmann::json ollamaRequestBody(const ModelSpec& spec, const Prompt& prompt, bool stream);

/// Decodes a complete non-streaming /api/chat body: message.content, done_reason (length →
/// Truncated), prompt_eval_count / eval_count; {"error": "…"} is an error.
ProviderReply parseOllamaBody(QByteArrayView body);

/// Decodes /api/chat as NDJSON, streaming or not (a non-streaming body is a single line): the
/// message.content of every line, up to the line with "done": true.
class OllamaDecoder final : public ResponseDecoder
{
public:
    /// `stream`: the request asked for a stream, so the first text is a first token (for time to first token).
    OllamaDecoder(qint64 maxBodyBytes, bool stream);

protected:
    void consume(QByteArrayView chunk) override;
    ProviderReply decode() override;

private:
    void handle(const QByteArray& line);

    NdjsonParser m_lines;
    bool m_stream;
    ProviderReply m_reply;
    int m_count = 0;
    bool m_done = false;
    bool m_wholeBody = false;
    bool m_triedWhole = false;
    QString m_problem;
};

} // namespace structscope
