// SPDX-License-Identifier: Apache-2.0
#pragma once
// Response bodies of tst_providers and tst_runner, kept out of the test files because moc cannot read
// multi-line raw strings.
#include <QByteArray>

namespace structscope::fixtures {

inline const QByteArray kOpenAiGood = R"({
  "id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-4.1-mini",
  "choices": [{"index": 0, "message": {"role": "assistant", "content": "{\"title\": \"VPN down\"}", "refusal": null},
               "finish_reason": "stop"}],
  "usage": {"prompt_tokens": 120, "completion_tokens": 9, "total_tokens": 129}
})";

inline const QByteArray kOpenAiWithCost = R"({
  "choices": [{"message": {"role": "assistant", "content": "{}"}, "finish_reason": "stop"}],
  "usage": {"prompt_tokens": 10, "completion_tokens": 2, "cost": 0.00042}
})";

inline const QByteArray kOpenAiRefusal = R"({
  "choices": [{"message": {"role": "assistant", "content": null, "refusal": "I can't help with that."},
               "finish_reason": "stop"}],
  "usage": {"prompt_tokens": 10, "completion_tokens": 7}
})";

inline const QByteArray kOpenAiLength = R"({
  "choices": [{"message": {"role": "assistant", "content": "{\"title\": \"VP"}, "finish_reason": "length"}],
  "usage": {"prompt_tokens": 10, "completion_tokens": 4}
})";

inline const QByteArray kOpenAiContentFilter = R"({
  "choices": [{"message": {"role": "assistant", "content": null}, "finish_reason": "content_filter"}]
})";

inline const QByteArray kOpenAiParts = R"({
  "choices": [{"message": {"role": "assistant",
               "content": [{"type": "text", "text": "{\"a\":"}, {"type": "image_url"}, {"type": "text", "text": "1}"}]},
               "finish_reason": "stop"}]
})";

inline const QByteArray kOpenAiNoChoices = R"({"id": "x", "object": "chat.completion"})";
inline const QByteArray kOpenAiEmptyChoices = R"({"choices": []})";
inline const QByteArray kOpenAiNoMessage = R"({"choices": [{"finish_reason": "stop"}]})";
inline const QByteArray kOpenAiNoContent
    = R"({"choices": [{"message": {"role": "assistant"}, "finish_reason": "stop"}]})";
inline const QByteArray kOpenAiNumberContent
    = R"({"choices": [{"message": {"content": 42}, "finish_reason": "stop"}]})";
inline const QByteArray kOpenAiInBandError = R"({"error": {"code": 429, "message": "Rate limit exceeded upstream"}})";

inline const QByteArray kHtmlPage = R"(<!DOCTYPE html>
<html><head><title>502 Bad Gateway</title></head>
<body><h1>Bad Gateway</h1></body></html>
)";

inline const QByteArray kOpenAiErrorBody
    = R"({"error": {"message": "Incorrect API key provided.", "type": "invalid_request_error", "code": "invalid_api_key"}})";

inline const QByteArray kOllamaGood = R"({"model": "qwen3:8b", "created_at": "2025-01-01T00:00:00Z",
  "message": {"role": "assistant", "content": "{\"title\": \"VPN down\"}"},
  "done": true, "done_reason": "stop", "prompt_eval_count": 80, "eval_count": 12})";

inline const QByteArray kOllamaLength = R"({"model": "qwen3:8b",
  "message": {"role": "assistant", "content": "{\"title\": "},
  "done": true, "done_reason": "length", "prompt_eval_count": 80, "eval_count": 4})";

inline const QByteArray kOllamaError = R"({"error": "model 'nope' not found"})";
inline const QByteArray kOllamaNotDone
    = R"({"model": "m", "message": {"role": "assistant", "content": "{}"}, "done": false})";
inline const QByteArray kOllamaNoMessage = R"({"model": "m", "done": true})";

// A streamed OpenAI chat completion, with a comment line, CRLF endings, a usage chunk and [DONE].
inline const QByteArray kOpenAiStream
    = ": keep-alive\r\n\r\n"
      "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\r\n\r\n"
      "data: {\"choices\":[{\"delta\":{\"content\":\"{\\\"title\\\": \"}}]}\r\n\r\n"
      "data: {\"choices\":[{\"delta\":{\"content\":\"\\\"VPN d\xc3\xa9j\xc3\xa0\\\"}\"}}]}\n\n"
      "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\r\r"
      "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":50,\"completion_tokens\":6,\"cost\":0.001}}\n\n"
      "data: [DONE]\n\n";

inline const QByteArray kOllamaStream
    = "{\"message\":{\"role\":\"assistant\",\"content\":\"{\\\"title\\\": \"},\"done\":false}\n"
      "{\"message\":{\"role\":\"assistant\",\"content\":\"\\\"VPN d\xc3\xa9j\xc3\xa0\\\"}\"},\"done\":false}\r\n"
      "\n"
      "{\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"done_reason\":\"stop\","
      "\"prompt_eval_count\":50,\"eval_count\":6}\n";

inline const QByteArray kPriceTable = R"({
  "models": {
    "openai:gpt-4.1-mini": {"input_per_million": 0.4, "output_per_million": 1.6},
    "gpt-4o": {"input_per_million": 2.5, "output_per_million": 10},
    "ollama:*": {"input_per_million": 0, "output_per_million": 0}
  }
})";

} // namespace structscope::fixtures
