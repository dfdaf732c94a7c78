// SPDX-License-Identifier: Apache-2.0
// Model specs (parse, format, round trips, clear errors), price tables and the retry policy.
#include "providerfixtures.h"

#include "providers/modelspec.h"
#include "providers/pricetable.h"
#include "run/retrypolicy.h"

#include <QTest>
#include <QTimeZone>

using namespace Qt::StringLiterals;
using namespace structscope;

namespace {

ModelSpec spec(const QString& text)
{
    QString error;
    const auto parsed = parseModelSpec(text, &error);
    if (!parsed)
        qFatal("bad spec in test: %s", qPrintable(error));
    return *parsed;
}

} // namespace

class TestModelSpec : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void modelSpecParses_data();
    void modelSpecParses();
    void modelSpecOptions();
    void badModelSpecs_data();
    void badModelSpecs();
    void originsAndLoopback();
    // A key or a $VAR header over plain http to a host that is not loopback is refused unless allowed.
    void insecureKeys_data();
    void insecureKeys();
    void priceTable();
    void badPriceTables_data();
    void badPriceTables();
    void retryAfter_data();
    void retryAfter();
    void backoff();
};

void TestModelSpec::modelSpecParses_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("baseUrl");
    QTest::addColumn<QString>("keyEnv");
    QTest::addColumn<QString>("canonical");
    QTest::addRow("openai full") << u"openai:gpt-4.1-mini@https://api.openai.com/v1"_s << u"openai"_s
                                 << u"gpt-4.1-mini"_s << u"https://api.openai.com/v1"_s << u"OPENAI_API_KEY"_s
                                 << u"openai:gpt-4.1-mini"_s;
    QTest::addRow("openai default url") << u"openai:gpt-4o"_s << u"openai"_s << u"gpt-4o"_s
                                        << u"https://api.openai.com/v1"_s << u"OPENAI_API_KEY"_s << u"openai:gpt-4o"_s;
    QTest::addRow("ollama colon in model")
        << u"ollama:qwen3:8b@http://localhost:11434"_s << u"ollama"_s << u"qwen3:8b"_s << u"http://localhost:11434"_s
        << QString() << u"ollama:qwen3:8b"_s;
    QTest::addRow("ollama other host") << u"ollama:llama3.1:70b-instruct-q4@http://gpu-box:11434/"_s << u"ollama"_s
                                       << u"llama3.1:70b-instruct-q4"_s << u"http://gpu-box:11434"_s << QString()
                                       << u"ollama:llama3.1:70b-instruct-q4@http://gpu-box:11434"_s;
    QTest::addRow("sim") << u"sim:careful"_s << u"sim"_s << u"careful"_s << QString() << QString() << u"sim:careful"_s;
    // OPENAI_API_KEY goes to the official endpoint only: any other URL names its variable or sends none.
    QTest::addRow("at in model") << u"openai:@cf/meta/llama-3@https://gw.example/v1"_s << u"openai"_s
                                 << u"@cf/meta/llama-3"_s << u"https://gw.example/v1"_s << QString()
                                 << u"openai:@cf/meta/llama-3@https://gw.example/v1"_s;
    QTest::addRow("other url, default key named")
        << u"openai:m@https://gw.example/v1;key_env=OPENAI_API_KEY"_s << u"openai"_s << u"m"_s
        << u"https://gw.example/v1"_s << u"OPENAI_API_KEY"_s
        << u"openai:m@https://gw.example/v1;key_env=OPENAI_API_KEY"_s;
    QTest::addRow("official host, other path")
        << u"openai:m@https://API.openai.com:443/v1/"_s << u"openai"_s << u"m"_s << u"https://API.openai.com:443/v1"_s
        << u"OPENAI_API_KEY"_s << u"openai:m@https://API.openai.com:443/v1"_s;
    QTest::addRow("official host over http")
        << u"openai:m@http://api.openai.com/v1"_s << u"openai"_s << u"m"_s << u"http://api.openai.com/v1"_s << QString()
        << u"openai:m@http://api.openai.com/v1"_s;
    QTest::addRow("openrouter options")
        << u"  openai:openai/gpt-4o@https://openrouter.ai/api/v1/;stream;key_env=OPENROUTER_API_KEY;max_tokens=512;"
           "temperature=0.7;seed=42;case_headers;header=HTTP-Referer:$REFERER  "_s
        << u"openai"_s << u"openai/gpt-4o"_s << u"https://openrouter.ai/api/v1"_s << u"OPENROUTER_API_KEY"_s
        << u"openai:openai/gpt-4o@https://openrouter.ai/api/v1;key_env=OPENROUTER_API_KEY;temperature=0.7;"
           "max_tokens=512;seed=42;stream;case_headers;header=HTTP-Referer:$REFERER"_s;
    QTest::addRow("vllm no key") << u"openai:Qwen/Qwen2.5-7B@http://127.0.0.1:8000/v1;key_env="_s << u"openai"_s
                                 << u"Qwen/Qwen2.5-7B"_s << u"http://127.0.0.1:8000/v1"_s << QString()
                                 << u"openai:Qwen/Qwen2.5-7B@http://127.0.0.1:8000/v1"_s;
}

void TestModelSpec::modelSpecParses()
{
    QFETCH(QString, text);
    QFETCH(QString, kind);
    QFETCH(QString, model);
    QFETCH(QString, baseUrl);
    QFETCH(QString, keyEnv);
    QFETCH(QString, canonical);
    QString error;
    const auto parsed = parseModelSpec(text, &error);
    QVERIFY2(parsed, qPrintable(error));
    QCOMPARE(providerKindName(parsed->kind), kind);
    QCOMPARE(parsed->model, model);
    QCOMPARE(parsed->baseUrl, baseUrl);
    QCOMPARE(parsed->keyEnv, keyEnv);
    QCOMPARE(formatModelSpec(*parsed), canonical);
    const auto again = parseModelSpec(canonical, &error);
    QVERIFY2(again, qPrintable(error));
    QVERIFY(*again == *parsed);
}

void TestModelSpec::modelSpecOptions()
{
    const ModelSpec s = spec(u"openai:m@https://h.example/v1;temperature=0.7;max_tokens=512;seed=-3;stream;"
                             "header=X-Title:%24TITLE;header=X-Key:$MY_KEY;key_env=H_KEY"_s);
    QCOMPARE(s.temperature, 0.7);
    QCOMPARE(s.maxTokens, std::optional<int>(512));
    QCOMPARE(s.seed, std::optional<qint64>(-3));
    QVERIFY(s.stream);
    QVERIFY(!s.caseHeaders);
    QCOMPARE(s.headers.size(), 2);
    QCOMPARE(s.headers.at(0).second, u"$TITLE"_s);
    QCOMPARE(s.headers.at(1).second, u"$MY_KEY"_s);
    QCOMPARE(s.environmentVariables(), (QStringList { u"H_KEY"_s, u"TITLE"_s, u"MY_KEY"_s }));
    QCOMPARE(s.origin(), u"https://h.example:443"_s);
    QVERIFY(*parseModelSpec(formatModelSpec(s)) == s);
    // The stored form drops headers, which may carry secrets.
    QVERIFY(!formatModelSpec(s, SpecText::Stored).contains(u"header"_s));
    QCOMPARE(s.label(), u"openai:m"_s);
}

void TestModelSpec::badModelSpecs_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::addRow("empty") << u"  "_s << u"empty model spec"_s;
    QTest::addRow("no provider") << u"gpt-4o"_s << u"'gpt-4o' names no provider"_s;
    QTest::addRow("unknown provider") << u"anthropic:claude"_s << u"unknown provider 'anthropic'"_s;
    QTest::addRow("no model") << u"openai:"_s << u"no model name in 'openai:'"_s;
    QTest::addRow("no model before url") << u"ollama:@http://localhost:11434"_s << u"no model name"_s;
    QTest::addRow("ftp url") << u"openai:m@ftp://host/v1"_s << u"must start with http:// or https://"_s;
    QTest::addRow("credentials in url") << u"openai:m@https://user:sk-abc@host/v1"_s
                                        << u"must not contain credentials"_s;
    QTest::addRow("no host") << u"openai:m@http://"_s << u"not a valid http(s) URL"_s;
    QTest::addRow("sim with url") << u"sim:careful@http://localhost:1"_s << u"simulated models run in-process"_s;
    QTest::addRow("sim with stream") << u"sim:careful;stream"_s << u"simulated models take no"_s;
    QTest::addRow("space in model") << u"openai:gpt 4"_s << u"white space"_s;
    QTest::addRow("unknown option") << u"openai:m;temp=1"_s << u"unknown option 'temp'"_s;
    QTest::addRow("bad temperature") << u"openai:m;temperature=hot"_s << u"temperature 'hot'"_s;
    QTest::addRow("negative temperature") << u"openai:m;temperature=-1"_s << u"≥ 0"_s;
    QTest::addRow("bad max_tokens") << u"openai:m;max_tokens=0"_s << u"max_tokens '0'"_s;
    QTest::addRow("bad seed") << u"openai:m;seed=1.5"_s << u"seed '1.5'"_s;
    QTest::addRow("bad key_env") << u"openai:m;key_env=sk-123"_s << u"not an environment variable name"_s;
    QTest::addRow("bad header") << u"openai:m;header=nocolon"_s << u"header=NAME:$VAR"_s;
    // Header values are never written down: a literal one is refused, with the way to give it.
    QTest::addRow("literal header") << u"openai:m;header=Ocp-Apim-Subscription-Key:0123abcd"_s << u"literal value"_s;
    QTest::addRow("literal header advice") << u"openai:m;header=X-Title:bench"_s << u"write header=X-Title:$VAR"_s;
    QTest::addRow("header $ alone") << u"openai:m;header=X-Title:$"_s << u"literal value"_s;
    QTest::addRow("header $ and text") << u"openai:m;header=X-Title:$A B"_s << u"literal value"_s;
    QTest::addRow("sim with case headers") << u"sim:careful;case_headers"_s << u"simulated models take no"_s;
    QTest::addRow("bad case headers") << u"openai:m;case_headers=maybe"_s << u"case_headers 'maybe'"_s;
    QTest::addRow("valueless option") << u"openai:m;seed"_s << u"needs a value"_s;
}

void TestModelSpec::badModelSpecs()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    QString error;
    QVERIFY(!parseModelSpec(text, &error));
    QVERIFY2(error.contains(message), qPrintable(error));
}

void TestModelSpec::originsAndLoopback()
{
    QCOMPARE(urlOrigin(QUrl(u"HTTP://LocalHost/v1"_s)), u"http://localhost:80"_s);
    QCOMPARE(urlOrigin(QUrl(u"https://h.example:8443/a?b"_s)), u"https://h.example:8443"_s);
    QCOMPARE(urlOrigin(QUrl(u"http://[::1]:9/v1"_s)), u"http://[::1]:9"_s);
    QVERIFY(urlOrigin(QUrl(u"http://h.example/v1"_s)) != urlOrigin(QUrl(u"https://h.example/v1"_s)));
    QVERIFY(urlOrigin(QUrl(u"http://h.example/v1"_s)) != urlOrigin(QUrl(u"http://h.example:81/v1"_s)));
    for (const char* host : { "localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "::1", "[::1]" })
        QVERIFY2(isLoopbackHost(QString::fromLatin1(host)), host);
    for (const char* host :
        { "gpu-box", "192.168.1.5", "10.0.0.1", "localhost.example", "a.localhost", "128.0.0.1", "::2" })
        QVERIFY2(!isLoopbackHost(QString::fromLatin1(host)), host);
}

void TestModelSpec::insecureKeys_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("refused");
    QTest::addRow("http lan with key") << u"openai:m@http://gpu-box:8000/v1;key_env=LAN_KEY"_s << true;
    QTest::addRow("http lan with header") << u"ollama:m@http://192.168.1.5:11434;header=X-Token:$T"_s << true;
    QTest::addRow("http official host") << u"openai:m@http://api.openai.com/v1;key_env=OPENAI_API_KEY"_s << true;
    QTest::addRow("http lan no key") << u"openai:m@http://gpu-box:8000/v1"_s << false;
    QTest::addRow("ollama lan") << u"ollama:m@http://gpu-box:11434"_s << false;
    QTest::addRow("http loopback") << u"openai:m@http://127.0.0.1:8000/v1;key_env=LOCAL_KEY"_s << false;
    QTest::addRow("http localhost") << u"openai:m@http://localhost:8000/v1;key_env=LOCAL_KEY"_s << false;
    QTest::addRow("https") << u"openai:m@https://gw.example/v1;key_env=GW_KEY"_s << false;
    QTest::addRow("official") << u"openai:gpt-4o"_s << false;
    QTest::addRow("sim") << u"sim:careful"_s << false;
}

void TestModelSpec::insecureKeys()
{
    QFETCH(QString, text);
    QFETCH(bool, refused);
    const ModelSpec s = spec(text);
    const QString problem = insecureKeyProblem(s, false);
    QCOMPARE(!problem.isEmpty(), refused);
    if (refused) {
        QVERIFY2(problem.contains(u"--allow-insecure-key"_s), qPrintable(problem));
        QVERIFY2(problem.contains(s.environmentVariables().constFirst()), qPrintable(problem));
    }
    QVERIFY(insecureKeyProblem(s, true).isEmpty());
}

void TestModelSpec::priceTable()
{
    QString error;
    const auto table = PriceTable::fromJson(fixtures::kPriceTable, &error);
    QVERIFY2(table, qPrintable(error));
    QCOMPARE(table->size(), 3);
    // 1M in at $0.40 + 500k out at $1.60 = $1.20
    QCOMPARE(*table->cost(spec(u"openai:gpt-4.1-mini"_s), 1000000, 500000), 1.2);
    QCOMPARE(table->find(spec(u"openai:openai/gpt-4o@https://openrouter.ai/api/v1"_s))->inputPerMillion, 2.5);
    QCOMPARE(table->find(spec(u"openai:gpt-4o"_s))->outputPerMillion, 10.0);
    QCOMPARE(*table->cost(spec(u"ollama:qwen3:8b"_s), 1000, 1000), 0.0);
    QVERIFY(!table->find(spec(u"openai:unknown"_s)));
    QVERIFY(!table->cost(spec(u"sim:careful"_s), 1, 1));
    const PriceTable builtIn = PriceTable::builtIn();
    QVERIFY(builtIn.find(spec(u"openai:gpt-4.1-mini"_s)));
    QVERIFY(builtIn.find(spec(u"sim:careful"_s)));
}

void TestModelSpec::badPriceTables_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::addRow("not json") << QByteArray("{\n  \"models\": {,}\n}") << u"line 2, column"_s;
    QTest::addRow("no models") << QByteArray("{}") << u"\"models\" object"_s;
    QTest::addRow("negative") << QByteArray(R"({"models": {"m": {"input_per_million": -1, "output_per_million": 1}}})")
                              << u"/models/m/input_per_million must be a number ≥ 0"_s;
    QTest::addRow("missing output") << QByteArray(R"({"models": {"m": {"input_per_million": 1}}})")
                                    << u"/models/m/output_per_million"_s;
    QTest::addRow("entry not object") << QByteArray(R"({"models": {"m": 3}})") << u"/models/m must be an object"_s;
}

void TestModelSpec::badPriceTables()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    QString error;
    QVERIFY(!PriceTable::fromJson(text, &error));
    QVERIFY2(error.contains(message), qPrintable(error));
}

void TestModelSpec::retryAfter_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<qint64>("ms"); // -1: none
    QTest::addRow("seconds") << QByteArray("2") << 2000LL;
    QTest::addRow("fraction") << QByteArray(" 0.25 ") << 250LL;
    QTest::addRow("date") << QByteArray("Wed, 21 Oct 2015 07:28:30 GMT") << 30000LL;
    QTest::addRow("past date") << QByteArray("Wed, 21 Oct 2015 07:27:00 GMT") << 0LL;
    QTest::addRow("empty") << QByteArray() << -1LL;
    QTest::addRow("negative") << QByteArray("-5") << -1LL;
    QTest::addRow("junk") << QByteArray("soon") << -1LL;
}

void TestModelSpec::retryAfter()
{
    QFETCH(QByteArray, header);
    QFETCH(qint64, ms);
    const QDateTime now(QDate(2015, 10, 21), QTime(7, 28, 0), QTimeZone::utc());
    const auto parsed = parseRetryAfter(header, now);
    QCOMPARE(parsed ? qint64(parsed->count()) : -1LL, ms);
}

void TestModelSpec::backoff()
{
    using std::chrono::milliseconds;
    QCOMPARE(backoffDelay(1, milliseconds(100), milliseconds(10000), 0.0), milliseconds(50));
    QCOMPARE(backoffDelay(1, milliseconds(100), milliseconds(10000), 1.0), milliseconds(100));
    QCOMPARE(backoffDelay(3, milliseconds(100), milliseconds(10000), 0.5), milliseconds(300)); // 400 / 2 + 0.5 · 200
    QCOMPARE(backoffDelay(30, milliseconds(100), milliseconds(10000), 1.0), milliseconds(10000));
    AdaptiveLimit limit(8);
    limit.onRateLimited();
    QCOMPARE(limit.current(), 4);
    limit.onRateLimited();
    limit.onRateLimited();
    limit.onRateLimited();
    QCOMPARE(limit.current(), 1);
    limit.onSuccess(); // one success at limit 1 → 2
    QCOMPARE(limit.current(), 2);
    limit.onSuccess();
    QCOMPARE(limit.current(), 2);
    limit.onSuccess(); // two at limit 2 → 3
    QCOMPARE(limit.current(), 3);
    for (int i = 0; i < 100; ++i)
        limit.onSuccess();
    QCOMPARE(limit.current(), 8);
}

QTEST_GUILESS_MAIN(TestModelSpec)
#include "tst_modelspec.moc"
