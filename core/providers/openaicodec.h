// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "providers/modelspec.h"
#include "providers/promptbuilder.h"
#include "providers/providerreply.h"
#include "providers/responsedecoder.h"
#include "providers/sseparser.h"

#include <nlohmann/json.hpp>

namespace structscope {

// The OpenAI-compatible chat completions API (OpenAI, vLLM, OpenRouter, Together, llama.cpp …).

/// The JSON body of POST {base}/chat/completions for a prompt: messages, temperature, max_tokens,
/// seed, and response_format json_object (J, PJ) or json_schema {name, strict, schema} (J+, PJ+).
/// With `stream`, asks for SSE and for the usage in the last chunk.
nlohmann::json openAiRequestBody(const ModelSpec& spec, const Prompt& prompt, bool stream);

/// Decodes a complete 2xx chat completion body: choices[0].message.content (text or an array of text
/// parts), refusal, finish_reason (length → Truncated, content_filter → Refusal) and usage
/// (prompt_tokens, completion_tokens, cost). An "error" object in a 2xx body is an error too.
ProviderReply parseOpenAiBody(QByteArrayView bytes);

/// A non-streaming response: buffers the body, then parseOpenAiBody.
class OpenAiBodyDecoder final : public ResponseDecoder
{
public:
    using ResponseDecoder::ResponseDecoder;

protected:
    void consume(QByteArrayView /*chunk*/) override { }
    ProviderReply decode() override;
};

/// A streaming (SSE) response: concatenates choices[0].delta.content until "[DONE]". A server that
/// ignored "stream" and sent one JSON body is decoded like OpenAiBodyDecoder.
class OpenAiStreamDecoder final : public ResponseDecoder
{
public:
    explicit OpenAiStreamDecoder(qint64 maxBodyBytes);

protected:
    void consume(QByteArrayView chunk) override;
    ProviderReply decode() override;

private:
    void handle(const SseEvent& event);

    SseParser m_sse;
    ProviderReply m_reply;
    QString m_refusal;
    int m_events = 0;
    bool m_done = false;
    QString m_problem; ///< first malformed event, if any
};

} // namespace structscope
