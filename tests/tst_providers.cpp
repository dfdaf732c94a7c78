// SPDX-License-Identifier: Apache-2.0
// Provider codecs: request bodies per strategy, response parsing, streaming parsers split at every
// byte, request hashes, error kinds. (Model specs, prices, retry policy: tst_modelspec.)
#include "providerfixtures.h"

#include "providers/errorkind.h"
#include "providers/modelspec.h"
#include "providers/ndjsonparser.h"
#include "providers/ollamacodec.h"
#include "providers/openaicodec.h"
#include "providers/providerrequest.h"
#include "providers/sseparser.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace structscope;
using nlohmann::json;

namespace {

Prompt samplePrompt(Strategy strategy, bool jsonMode, bool schemaAsFormat)
{
    Prompt p;
    p.strategy = strategy;
    p.messages = { { u"system"_s, u"Answer with JSON only."_s }, { u"user"_s, u"Extract: VPN down"_s } };
    p.schema = json::parse(R"({"type":"object","properties":{"title":{"type":"string"}}})");
    p.schemaName = u"ticket"_s;
    p.jsonMode = jsonMode;
    p.schemaAsFormat = schemaAsFormat;
    return p;
}

ModelSpec spec(const QString& text)
{
    QString error;
    const auto parsed = parseModelSpec(text, &error);
    if (!parsed)
        qFatal("bad spec in test: %s", qPrintable(error));
    return *parsed;
}

QString describe(const QList<SseEvent>& events)
{
    QString out;
    for (const SseEvent& e : events)
        out += u"[%1|%2|%3]"_s.arg(QString::fromUtf8(e.event), QString::fromUtf8(e.data), QString::fromUtf8(e.id));
    return out;
}

} // namespace

class TestProviders : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void openAiRequestBodies_data();
    void openAiRequestBodies();
    void ollamaRequestBodies_data();
    void ollamaRequestBodies();
    void openAiBodies_data();
    void openAiBodies();
    void ollamaBodies_data();
    void ollamaBodies();
    void httpErrors_data();
    void httpErrors();
    void sseSplitAtEveryOffset_data();
    void sseSplitAtEveryOffset();
    void sseOverflowStops();
    void ndjsonSplitAtEveryOffset();
    void streamDecodersSplitAtEveryOffset_data();
    void streamDecodersSplitAtEveryOffset();
    void streamDecoderEdgeCases();
    void bodyLimit();
    void httpRequestHeadersAndKey();
    // Real providers need not learn that they serve benchmark traffic: the case headers are for serve-sim.
    void caseHeadersOnlyWhenAsked();
    void requestHashCoversTheRequestOnly();
    void redaction();
    void errorKindNames();
};

void TestProviders::openAiRequestBodies_data()
{
    QTest::addColumn<int>("strategy");
    QTest::addColumn<bool>("jsonMode");
    QTest::addColumn<bool>("schemaFormat");
    QTest::addColumn<QByteArray>("responseFormat");
    QTest::addRow("P") << int(Strategy::P) << false << false << QByteArray("null");
    QTest::addRow("J") << int(Strategy::J) << true << false << QByteArray(R"({"type":"json_object"})");
    QTest::addRow("PJ") << int(Strategy::PJ) << true << false << QByteArray(R"({"type":"json_object"})");
    const QByteArray schemaFormat = R"({"type":"json_schema","json_schema":{"name":"ticket","strict":true,)"
                                    R"("schema":{"type":"object","properties":{"title":{"type":"string"}}}}})";
    QTest::addRow("J+") << int(Strategy::JPlus) << false << true << schemaFormat;
    QTest::addRow("PJ+") << int(Strategy::PJPlus) << false << true << schemaFormat;
}

void TestProviders::openAiRequestBodies()
{
    QFETCH(int, strategy);
    QFETCH(bool, jsonMode);
    QFETCH(bool, schemaFormat);
    QFETCH(QByteArray, responseFormat);
    const json body = openAiRequestBody(spec(u"openai:gpt-4.1-mini;max_tokens=300;seed=7"_s),
        samplePrompt(Strategy(strategy), jsonMode, schemaFormat), false);
    const json expected = { { "model", "gpt-4.1-mini" },
        { "messages",
            { { { "role", "system" }, { "content", "Answer with JSON only." } },
                { { "role", "user" }, { "content", "Extract: VPN down" } } } },
        { "temperature", 0.0 }, { "max_tokens", 300 }, { "seed", 7 } };
    json want = expected;
    const json format = json::parse(responseFormat.toStdString());
    if (!format.is_null())
        want["response_format"] = format;
    QVERIFY2(body == want, body.dump().c_str());
    const json streamed = openAiRequestBody(
        spec(u"openai:gpt-4.1-mini"_s), samplePrompt(Strategy(strategy), jsonMode, schemaFormat), true);
    QVERIFY(streamed["stream"] == true);
    QVERIFY(streamed["stream_options"] == json({ { "include_usage", true } }));
}

void TestProviders::ollamaRequestBodies_data()
{
    QTest::addColumn<int>("strategy");
    QTest::addColumn<bool>("jsonMode");
    QTest::addColumn<bool>("schemaFormat");
    QTest::addColumn<QByteArray>("format");
    QTest::addRow("P") << int(Strategy::P) << false << false << QByteArray("null");
    QTest::addRow("J") << int(Strategy::J) << true << false << QByteArray(R"("json")");
    QTest::addRow("PJ") << int(Strategy::PJ) << true << false << QByteArray(R"("json")");
    const QByteArray schema = R"({"type":"object","properties":{"title":{"type":"string"}}})";
    QTest::addRow("J+") << int(Strategy::JPlus) << false << true << schema;
    QTest::addRow("PJ+") << int(Strategy::PJPlus) << false << true << schema;
}

void TestProviders::ollamaRequestBodies()
{
    QFETCH(int, strategy);
    QFETCH(bool, jsonMode);
    QFETCH(bool, schemaFormat);
    QFETCH(QByteArray, format);
    const json body = ollamaRequestBody(spec(u"ollama:qwen3:8b;temperature=0.5;max_tokens=256"_s),
        samplePrompt(Strategy(strategy), jsonMode, schemaFormat), false);
    json want = { { "model", "qwen3:8b" },
        { "messages",
            { { { "role", "system" }, { "content", "Answer with JSON only." } },
                { { "role", "user" }, { "content", "Extract: VPN down" } } } },
        { "stream", false }, { "options", { { "temperature", 0.5 }, { "num_predict", 256 } } } };
    const json f = json::parse(format.toStdString());
    if (!f.is_null())
        want["format"] = f;
    QVERIFY2(body == want, body.dump().c_str());
}

void TestProviders::openAiBodies_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("tokensIn"); // -1: absent
    QTest::addColumn<qint64>("tokensOut");
    QTest::addColumn<double>("cost"); // -1: absent
    QTest::addColumn<QString>("message");
    using namespace fixtures;
    QTest::addRow("good") << kOpenAiGood << QString() << u"{\"title\": \"VPN down\"}"_s << 120LL << 9LL << -1.0
                          << QString();
    QTest::addRow("provider cost") << kOpenAiWithCost << QString() << u"{}"_s << 10LL << 2LL << 0.00042 << QString();
    QTest::addRow("refusal") << kOpenAiRefusal << u"refusal"_s << QString() << 10LL << 7LL << -1.0
                             << u"the model refused: I can't help with that."_s;
    QTest::addRow("length") << kOpenAiLength << u"truncated"_s << u"{\"title\": \"VP"_s << 10LL << 4LL << -1.0
                            << u"finish_reason \"length\""_s;
    QTest::addRow("content filter") << kOpenAiContentFilter << u"refusal"_s << QString() << -1LL << -1LL << -1.0
                                    << u"content filter"_s;
    QTest::addRow("content parts") << kOpenAiParts << QString() << u"{\"a\":1}"_s << -1LL << -1LL << -1.0 << QString();
    QTest::addRow("no choices") << kOpenAiNoChoices << u"malformed_body"_s << QString() << -1LL << -1LL << -1.0
                                << u"no \"choices\""_s;
    QTest::addRow("empty choices") << kOpenAiEmptyChoices << u"malformed_body"_s << QString() << -1LL << -1LL << -1.0
                                   << u"no choices[0]"_s;
    QTest::addRow("no message") << kOpenAiNoMessage << u"malformed_body"_s << QString() << -1LL << -1LL << -1.0
                                << u"no \"message\""_s;
    QTest::addRow("no content") << kOpenAiNoContent << u"malformed_body"_s << QString() << -1LL << -1LL << -1.0
                                << u"has no content"_s;
    QTest::addRow("number content") << kOpenAiNumberContent << u"malformed_body"_s << QString() << -1LL << -1LL << -1.0
                                    << u"is a number, expected text"_s;
    QTest::addRow("in-band 429") << kOpenAiInBandError << u"rate_limited"_s << QString() << -1LL << -1LL << -1.0
                                 << u"Rate limit exceeded upstream"_s;
    QTest::addRow("html") << kHtmlPage << u"malformed_body"_s << QString() << -1LL << -1LL << -1.0
                          << u"HTML page instead of JSON"_s;
    QTest::addRow("empty") << QByteArray(" \n") << u"malformed_body"_s << QString() << -1LL << -1LL << -1.0
                           << u"body is empty"_s;
    QTest::addRow("cut json") << kOpenAiGood.left(60) << u"malformed_body"_s << QString() << -1LL << -1LL << -1.0
                              << u"is not JSON (byte 60 of 60"_s;
    QTest::addRow("array") << QByteArray("[1,2]") << u"malformed_body"_s << QString() << -1LL << -1LL << -1.0
                           << u"is a JSON array, expected an object"_s;
    QTest::addRow("too deep") << QByteArray(300, '[') << u"malformed_body"_s << QString() << -1LL << -1LL << -1.0
                              << u"deeper than 256"_s;
    QTest::addRow("binary") << QByteArray("\x00\x01\xff", 3) << u"malformed_body"_s << QString() << -1LL << -1LL << -1.0
                            << u"'\\x00\\x01"_s;
}

void TestProviders::openAiBodies()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, kind);
    QFETCH(QString, text);
    QFETCH(qint64, tokensIn);
    QFETCH(qint64, tokensOut);
    QFETCH(double, cost);
    QFETCH(QString, message);
    const ProviderReply reply = parseOpenAiBody(body);
    QCOMPARE(errorKindName(reply.error), kind);
    QCOMPARE(reply.text, text);
    QCOMPARE(reply.tokensIn.value_or(-1), tokensIn);
    QCOMPARE(reply.tokensOut.value_or(-1), tokensOut);
    QCOMPARE(reply.cost.value_or(-1.0), cost);
    QVERIFY2(message.isEmpty() ? reply.errorMessage.isEmpty() : reply.errorMessage.contains(message),
        qPrintable(reply.errorMessage));
    // The non-streaming decoder agrees, whatever the chunking.
    OpenAiBodyDecoder decoder(1 << 20);
    for (qsizetype i = 0; i < body.size(); i += 7)
        QVERIFY(decoder.feed(QByteArrayView(body).sliced(i, std::min<qsizetype>(7, body.size() - i))));
    const ProviderReply decoded = decoder.finish(200);
    QCOMPARE(decoded.error, reply.error);
    QCOMPARE(decoded.text, reply.text);
}

void TestProviders::ollamaBodies_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("tokensIn");
    QTest::addColumn<qint64>("tokensOut");
    QTest::addColumn<QString>("message");
    using namespace fixtures;
    QTest::addRow("good") << kOllamaGood << QString() << u"{\"title\": \"VPN down\"}"_s << 80LL << 12LL << QString();
    QTest::addRow("length") << kOllamaLength << u"truncated"_s << u"{\"title\": "_s << 80LL << 4LL
                            << u"done_reason \"length\""_s;
    QTest::addRow("error") << kOllamaError << u"http_5xx"_s << QString() << -1LL << -1LL << u"model 'nope' not found"_s;
    QTest::addRow("not done") << kOllamaNotDone << u"malformed_body"_s << QString() << -1LL << -1LL
                              << u"before a line with \"done\": true"_s;
    QTest::addRow("no message") << kOllamaNoMessage << u"malformed_body"_s << QString() << -1LL << -1LL
                                << u"no \"message\""_s;
    QTest::addRow("html") << kHtmlPage << u"malformed_body"_s << QString() << -1LL << -1LL << u"HTML page"_s;
    QTest::addRow("empty") << QByteArray() << u"malformed_body"_s << QString() << -1LL << -1LL << u"empty"_s;
    QTest::addRow("garbage") << QByteArray("OK\n") << u"malformed_body"_s << QString() << -1LL << -1LL << u"not JSON"_s;
    QTest::addRow("openai shape") << kOpenAiGood << u"malformed_body"_s << QString() << -1LL << -1LL
                                  << u"neither \"message\" nor \"done\""_s;
}

void TestProviders::ollamaBodies()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, kind);
    QFETCH(QString, text);
    QFETCH(qint64, tokensIn);
    QFETCH(qint64, tokensOut);
    QFETCH(QString, message);
    const ProviderReply reply = parseOllamaBody(body);
    QCOMPARE(errorKindName(reply.error), kind);
    QCOMPARE(reply.text, text);
    QCOMPARE(reply.tokensIn.value_or(-1), tokensIn);
    QCOMPARE(reply.tokensOut.value_or(-1), tokensOut);
    QVERIFY2(message.isEmpty() ? reply.errorMessage.isEmpty() : reply.errorMessage.contains(message),
        qPrintable(reply.errorMessage));
}

void TestProviders::httpErrors_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::addRow("401 openai") << 401 << fixtures::kOpenAiErrorBody << u"http_4xx"_s
                                << u"HTTP 401: Incorrect API key provided."_s;
    QTest::addRow("404 ollama") << 404 << fixtures::kOllamaError << u"http_4xx"_s
                                << u"HTTP 404: model 'nope' not found"_s;
    QTest::addRow("429") << 429 << QByteArray() << u"rate_limited"_s << u"HTTP 429"_s;
    QTest::addRow("408") << 408 << QByteArray() << u"timeout"_s << u"HTTP 408"_s;
    QTest::addRow("502 html") << 502 << fixtures::kHtmlPage << u"http_5xx"_s
                              << u"HTTP 502: '<!DOCTYPE html>\\n<html>"_s;
    QTest::addRow("503 text") << 503 << QByteArray("upstream overloaded") << u"http_5xx"_s
                              << u"HTTP 503: 'upstream overloaded'"_s;
    QTest::addRow("304") << 304 << QByteArray() << u"malformed_body"_s << u"HTTP 304"_s;
}

void TestProviders::httpErrors()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(QString, kind);
    QFETCH(QString, message);
    for (const ProviderKind provider : { ProviderKind::OpenAI, ProviderKind::Ollama }) {
        for (const bool stream : { false, true }) {
            auto decoder = makeResponseDecoder(provider, stream, 1 << 20);
            QVERIFY(decoder->feed(body));
            const ProviderReply reply = decoder->finish(status);
            QCOMPARE(errorKindName(reply.error), kind);
            QVERIFY2(reply.errorMessage.startsWith(message), qPrintable(reply.errorMessage));
        }
    }
}

void TestProviders::sseSplitAtEveryOffset_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QString>("expected");
    QTest::addRow("openai")
        << fixtures::kOpenAiStream
        << u"[|{\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}|]"
           "[|{\"choices\":[{\"delta\":{\"content\":\"{\\\"title\\\": \"}}]}|]"
           "[|{\"choices\":[{\"delta\":{\"content\":\"\\\"VPN déjà\\\"}\"}}]}|]"
           "[|{\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}|]"
           "[|{\"choices\":[],\"usage\":{\"prompt_tokens\":50,\"completion_tokens\":6,\"cost\":0.001}}|]"
           "[|[DONE]|]"_s;
    QTest::addRow("fields") << QByteArray(
        "event: add\r\nid: 7\r\ndata:a\r\ndata:  b\r\n\r\n:c\r\ndata\r\n\r\nretry: 5\rdata: x\r")
                            << u"[add|a\n b|7][||][|x|]"_s;
    QTest::addRow("no final blank line") << QByteArray("data: 1\n\ndata: 2") << u"[|1|][|2|]"_s;
    QTest::addRow("only comments") << QByteArray(": a\n: b\n\n") << QString();
}

void TestProviders::sseSplitAtEveryOffset()
{
    QFETCH(QByteArray, stream);
    QFETCH(QString, expected);
    for (qsizetype split = 0; split <= stream.size(); ++split) {
        SseParser parser;
        QList<SseEvent> events = parser.feed(QByteArrayView(stream).first(split));
        events += parser.feed(QByteArrayView(stream).sliced(split));
        events += parser.finish();
        QCOMPARE(describe(events), expected);
    }
    SseParser bytewise;
    QList<SseEvent> events;
    for (const char c : std::as_const(stream))
        events += bytewise.feed(QByteArrayView(&c, 1));
    events += bytewise.finish();
    QCOMPARE(describe(events), expected);
}

void TestProviders::sseOverflowStops()
{
    SseParser parser(16);
    QVERIFY(parser.feed("data: 0123456789").isEmpty());
    QVERIFY(parser.feed("abcdef\n\n").isEmpty());
    QVERIFY(parser.overflowed());
    QVERIFY(parser.finish().isEmpty());
}

void TestProviders::ndjsonSplitAtEveryOffset()
{
    const QByteArray stream = fixtures::kOllamaStream;
    const QList<QByteArray> reference = NdjsonParser().feed(stream);
    QCOMPARE(reference.size(), 3);
    QVERIFY(reference.at(1).endsWith("\"done\":false}")); // the CR of CRLF is gone
    for (qsizetype split = 0; split <= stream.size(); ++split) {
        NdjsonParser parser;
        QList<QByteArray> lines = parser.feed(QByteArrayView(stream).first(split));
        lines += parser.feed(QByteArrayView(stream).sliced(split));
        lines += parser.finish();
        QCOMPARE(lines, reference);
    }
    NdjsonParser parser;
    QCOMPARE(parser.feed("{\"a\":1}\n{\"b\""), QList<QByteArray> { "{\"a\":1}" });
    QCOMPARE(parser.finish(), QList<QByteArray> { "{\"b\"" });
    NdjsonParser small(8);
    QVERIFY(small.feed("0123456789\n").isEmpty());
    QVERIFY(small.overflowed());
}

void TestProviders::streamDecodersSplitAtEveryOffset_data()
{
    QTest::addColumn<int>("provider");
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<double>("cost");
    QTest::addRow("openai sse") << int(ProviderKind::OpenAI) << fixtures::kOpenAiStream << 0.001;
    QTest::addRow("ollama ndjson") << int(ProviderKind::Ollama) << fixtures::kOllamaStream << -1.0;
}

void TestProviders::streamDecodersSplitAtEveryOffset()
{
    QFETCH(int, provider);
    QFETCH(QByteArray, stream);
    QFETCH(double, cost);
    for (qsizetype split = 0; split <= stream.size(); ++split) {
        auto decoder = makeResponseDecoder(ProviderKind(provider), true, 1 << 20);
        QVERIFY(decoder->feed(QByteArrayView(stream).first(split)));
        QVERIFY(decoder->feed(QByteArrayView(stream).sliced(split)));
        QVERIFY(decoder->firstTokenSeen());
        const ProviderReply reply = decoder->finish(200);
        QVERIFY2(reply.ok(), qPrintable(reply.errorMessage));
        QCOMPARE(reply.text, u"{\"title\": \"VPN déjà\"}"_s);
        QCOMPARE(reply.finishReason, u"stop"_s);
        QCOMPARE(reply.tokensIn.value_or(-1), 50);
        QCOMPARE(reply.tokensOut.value_or(-1), 6);
        QCOMPARE(reply.cost.value_or(-1.0), cost);
    }
}

void TestProviders::streamDecoderEdgeCases()
{
    // A server that ignores "stream" and sends one JSON body.
    auto plain = makeResponseDecoder(ProviderKind::OpenAI, true, 1 << 20);
    plain->feed(fixtures::kOpenAiGood);
    ProviderReply reply = plain->finish(200);
    QVERIFY2(reply.ok(), qPrintable(reply.errorMessage));
    QCOMPARE(reply.text, u"{\"title\": \"VPN down\"}"_s);
    // A stream cut before the end.
    auto cut = makeResponseDecoder(ProviderKind::OpenAI, true, 1 << 20);
    cut->feed(fixtures::kOpenAiStream.left(fixtures::kOpenAiStream.indexOf("data: {\"choices\":[{\"delta\":{},")));
    reply = cut->finish(200);
    QCOMPARE(reply.error, ErrorKind::MalformedBody);
    QVERIFY2(reply.errorMessage.contains(u"without a finish_reason"_s), qPrintable(reply.errorMessage));
    // A broken event.
    auto broken = makeResponseDecoder(ProviderKind::OpenAI, true, 1 << 20);
    broken->feed("data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\ndata: {nope\n\ndata: [DONE]\n\n");
    reply = broken->finish(200);
    QCOMPARE(reply.error, ErrorKind::MalformedBody);
    QVERIFY2(reply.errorMessage.startsWith(u"stream event 2: the response body is not JSON"_s),
        qPrintable(reply.errorMessage));
    // A stream whose finish_reason says length.
    auto length = makeResponseDecoder(ProviderKind::OpenAI, true, 1 << 20);
    length->feed("data: {\"choices\":[{\"delta\":{\"content\":\"{\\\"a\\\"\"},\"finish_reason\":\"length\"}]}\n\ndata: "
                 "[DONE]\n\n");
    reply = length->finish(200);
    QCOMPARE(reply.error, ErrorKind::Truncated);
    QCOMPARE(reply.text, u"{\"a\""_s);
    // An error in the middle of an Ollama stream.
    auto ollama = makeResponseDecoder(ProviderKind::Ollama, true, 1 << 20);
    ollama->feed("{\"message\":{\"content\":\"{\"},\"done\":false}\n{\"error\":\"out of memory\"}\n");
    reply = ollama->finish(200);
    QCOMPARE(reply.error, ErrorKind::Http5xx);
    QVERIFY(reply.errorMessage.contains(u"out of memory"_s));
}

void TestProviders::bodyLimit()
{
    for (const ProviderKind provider : { ProviderKind::OpenAI, ProviderKind::Ollama }) {
        for (const bool stream : { false, true }) {
            auto decoder = makeResponseDecoder(provider, stream, 1024 * 1024);
            QVERIFY(decoder->feed(QByteArray(1024 * 1024, ' ')));
            QVERIFY(!decoder->feed("x"));
            const ProviderReply reply = decoder->finish(200);
            QCOMPARE(reply.error, ErrorKind::MalformedBody);
            QVERIFY2(reply.errorMessage.contains(u"exceeds the 1 MiB limit"_s), qPrintable(reply.errorMessage));
        }
    }
}

void TestProviders::httpRequestHeadersAndKey()
{
    qputenv("STRUCTSCOPE_TEST_HEADER_VALUE", "from-env");
    qputenv("STRUCTSCOPE_TEST_TITLE", "bench ü");
    qunsetenv("STRUCTSCOPE_TEST_UNSET");
    const ModelSpec s = spec(u"openai:m@http://127.0.0.1:9/v1;case_headers;header=X-Title:$STRUCTSCOPE_TEST_TITLE;"
                             "header=X-Extra:$STRUCTSCOPE_TEST_HEADER_VALUE;header=X-None:$STRUCTSCOPE_TEST_UNSET"_s);
    const HttpRequestSpec request
        = buildHttpRequest(s, samplePrompt(Strategy::J, true, false), u"case-ü1"_s, u"sk-test-1234567890abcdefghij"_s);
    QCOMPARE(request.url.toString(), u"http://127.0.0.1:9/v1/chat/completions"_s);
    QHash<QByteArray, QByteArray> headers;
    for (const auto& [name, value] : request.headers)
        headers.insert(name, value);
    QCOMPARE(headers.value("Authorization"), QByteArray("Bearer sk-test-1234567890abcdefghij"));
    QCOMPARE(headers.value("X-StructScope-Case"), QByteArray("case-%C3%BC1"));
    QCOMPARE(headers.value("X-StructScope-Repeat"), QByteArray("0"));
    QCOMPARE(headers.value("X-Title"), QByteArray("bench %C3%BC"));
    QCOMPARE(headers.value("X-Extra"), QByteArray("from-env"));
    QVERIFY(!headers.contains("X-None")); // an unset variable sends no header
    QCOMPARE(headers.value("Content-Type"), QByteArray("application/json"));
    QVERIFY(!request.body.contains("sk-test"));
    // Everything read from the environment, as read and as sent, is what redaction removes.
    QCOMPARE(request.secrets,
        (QStringList { u"sk-test-1234567890abcdefghij"_s, u"bench ü"_s, u"bench %C3%BC"_s, u"from-env"_s }));
    qunsetenv("STRUCTSCOPE_TEST_TITLE");
    qunsetenv("STRUCTSCOPE_TEST_HEADER_VALUE");
    const HttpRequestSpec noKey
        = buildHttpRequest(spec(u"ollama:qwen3:8b"_s), samplePrompt(Strategy::P, false, false), u"c"_s, QString());
    QCOMPARE(noKey.url.toString(), u"http://localhost:11434/api/chat"_s);
    for (const auto& header : noKey.headers)
        QVERIFY(header.first != "Authorization");
}

void TestProviders::caseHeadersOnlyWhenAsked()
{
    for (const QString& text : { u"openai:m@http://127.0.0.1:9/v1"_s, u"openai:gpt-4o"_s, u"ollama:qwen3:8b"_s }) {
        const HttpRequestSpec request
            = buildHttpRequest(spec(text), samplePrompt(Strategy::J, true, false), u"case-1"_s, QString(), 2);
        for (const auto& header : request.headers)
            QVERIFY2(!header.first.startsWith("X-StructScope"), header.first.constData());
        QVERIFY(request.secrets.isEmpty());
    }
    const HttpRequestSpec sim = buildHttpRequest(spec(u"openai:careful@http://127.0.0.1:9/v1;case_headers"_s),
        samplePrompt(Strategy::J, true, false), u"case-1"_s, QString(), 2);
    QHash<QByteArray, QByteArray> headers;
    for (const auto& [name, value] : sim.headers)
        headers.insert(name, value);
    QCOMPARE(headers.value("X-StructScope-Case"), QByteArray("case-1"));
    QCOMPARE(headers.value("X-StructScope-Repeat"), QByteArray("2"));
}

void TestProviders::requestHashCoversTheRequestOnly()
{
    const Prompt prompt = samplePrompt(Strategy::J, true, false);
    const ModelSpec base = spec(u"openai:m@http://h.example/v1"_s);
    const QString hash = requestHash(base, prompt, 0);
    QCOMPARE(hash.size(), 64);
    QCOMPARE(requestHash(base, prompt, 0), hash);
    ModelSpec other = base;
    other.stream = true;
    other.keyEnv = u"OTHER_KEY"_s;
    other.headers = { { u"X-A"_s, u"b"_s } };
    QCOMPARE(requestHash(other, prompt, 0), hash); // how it is sent and authorised does not change the answer
    QVERIFY(requestHash(base, prompt, 1) != hash);
    other = base;
    other.temperature = 1;
    QVERIFY(requestHash(other, prompt, 0) != hash);
    other = base;
    other.baseUrl = u"http://elsewhere.example/v1"_s;
    QVERIFY(requestHash(other, prompt, 0) != hash);
    other = base;
    other.model = u"m2"_s;
    QVERIFY(requestHash(other, prompt, 0) != hash);
    QVERIFY(requestHash(base, samplePrompt(Strategy::JPlus, false, true), 0) != hash);
    Prompt changed = prompt;
    changed.messages[1].content += u"!"_s;
    QVERIFY(requestHash(base, changed, 0) != hash);
}

void TestProviders::redaction()
{
    QCOMPARE(redactSecrets(u"bad key sk-abcd1234 given"_s, { u"sk-abcd1234"_s }), u"bad key [redacted] given"_s);
    QCOMPARE(redactSecrets(u"abc"_s, { u"ab"_s }), u"abc"_s);
}

void TestProviders::errorKindNames()
{
    const QStringList names = { u""_s, u"timeout"_s, u"http_4xx"_s, u"http_5xx"_s, u"rate_limited"_s,
        u"malformed_body"_s, u"refusal"_s, u"truncated"_s, u"network"_s, u"cancelled"_s };
    for (const QString& name : names)
        QCOMPARE(errorKindName(*errorKindFromName(name)), name);
    QVERIFY(!errorKindFromName(u"http_404"_s));
    QCOMPARE(errorKindForHttpStatus(200), ErrorKind::None);
    QCOMPARE(errorKindForHttpStatus(429), ErrorKind::RateLimited);
    QCOMPARE(errorKindForHttpStatus(404), ErrorKind::Http4xx);
    QCOMPARE(errorKindForHttpStatus(503), ErrorKind::Http5xx);
    QVERIFY(isRetryable(ErrorKind::RateLimited) && isRetryable(ErrorKind::Network) && isRetryable(ErrorKind::Timeout));
    // A body that is not the provider's JSON, or a stream cut short, is transient like a 5xx.
    QVERIFY(isRetryable(ErrorKind::MalformedBody) && isRetryable(ErrorKind::Http5xx));
    QVERIFY(!isRetryable(ErrorKind::Http4xx) && !isRetryable(ErrorKind::Truncated) && !isRetryable(ErrorKind::Refusal));
    // What the transport or the provider failed is no answer of the model; a refusal or a length cut is.
    for (const ErrorKind kind : { ErrorKind::Timeout, ErrorKind::Http4xx, ErrorKind::Http5xx, ErrorKind::RateLimited,
             ErrorKind::MalformedBody, ErrorKind::Network, ErrorKind::Cancelled })
        QVERIFY2(isTransportError(kind), qPrintable(errorKindName(kind)));
    for (const ErrorKind kind : { ErrorKind::None, ErrorKind::Refusal, ErrorKind::Truncated })
        QVERIFY2(!isTransportError(kind), qPrintable(errorKindName(kind)));
}

QTEST_GUILESS_MAIN(TestProviders)
#include "tst_providers.moc"
