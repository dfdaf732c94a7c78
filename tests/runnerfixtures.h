// SPDX-License-Identifier: Apache-2.0
#pragma once
// Helpers of tst_runner and tst_runnerstore: answers in both APIs, request readers, fast options, and a
// base with a temporary folder, the test suite, fresh stores and a "run to the end" helper.
#include "loopbackserver.h"
#include "suitefixtures.h"

#include "providers/providerrequest.h"
#include "run/runner.h"
#include "store/resultstore.h"

#include <QSignalSpy>
#include <QTemporaryDir>

namespace structscope::testing {

using nlohmann::json;

inline constexpr int kWait = 20000;

inline QByteArray openAiAnswer(const QString& content, qint64 in = 100, qint64 out = 10)
{
    const json body = { { "choices",
                            { { { "message", { { "role", "assistant" }, { "content", content.toStdString() } } },
                                { "finish_reason", "stop" } } } },
        { "usage", { { "prompt_tokens", in }, { "completion_tokens", out } } } };
    return QByteArray::fromStdString(body.dump());
}

inline QByteArray ollamaAnswer(const QString& content)
{
    const json body = { { "message", { { "role", "assistant" }, { "content", content.toStdString() } } },
        { "done", true }, { "done_reason", "stop" }, { "prompt_eval_count", 80 }, { "eval_count", 8 } };
    return QByteArray::fromStdString(body.dump());
}

inline QString caseOf(const ReceivedRequest& request)
{
    return QString::fromUtf8(request.header("X-StructScope-Case"));
}

inline QByteArray modelOf(const ReceivedRequest& request)
{
    return QByteArray::fromStdString(
        json::parse(request.body.toStdString(), nullptr, false).value("model", std::string()));
}

// A store result's value, by value: a range-for over `store->x().value()` would dangle.
template <typename T> inline T take(StoreResult<T> result)
{
    return std::move(result).value();
}

inline ModelSpec spec(const QString& text)
{
    return *parseModelSpec(text);
}

inline RunnerOptions fastOptions()
{
    RunnerOptions o;
    o.backoffBase = std::chrono::milliseconds(5);
    o.backoffMax = std::chrono::milliseconds(20);
    o.connectTimeout = std::chrono::milliseconds(3000);
    o.idleTimeout = std::chrono::milliseconds(3000);
    o.totalTimeout = std::chrono::milliseconds(5000);
    o.jitterSeed = 7;
    o.writerDelay = std::chrono::milliseconds(20);
    return o;
}

inline PriceTable testPrices()
{
    PriceTable prices;
    prices.set(u"openai:*"_s, { 1.0, 2.0 });
    return prices;
}

/// What every runner test needs; a test class derives from QObject and this.
class RunnerTestBase
{
protected:
    QTemporaryDir m_tmp;
    SuitePtr m_suite;
    int m_storeCounter = 0;

    std::unique_ptr<ResultStore> openStore(QString* path = nullptr)
    {
        const QString location = m_tmp.filePath(u"store-%1.db"_s.arg(++m_storeCounter));
        if (path)
            *path = location;
        QString error;
        auto store = ResultStore::open(location, &error);
        if (!store)
            qFatal("cannot open store: %s", qPrintable(error));
        return store;
    }

    // Starts a plan and waits for the session to end; returns the final status.
    static bool runToEnd(Runner& runner, const RunPlan& plan, RunStatus expected = RunStatus::Finished)
    {
        QSignalSpy finished(&runner, &Runner::finished);
        QString error;
        if (!runner.start(plan, &error)) {
            qWarning("start failed: %s", qPrintable(error));
            return false;
        }
        if (finished.isEmpty() && !finished.wait(kWait))
            return false;
        return finished.constFirst().constFirst().value<RunStatus>() == expected;
    }

    RunPlan plan(const QList<ModelSpec>& models, const QList<Strategy>& strategies, int repeats = 1) const
    {
        RunPlan p;
        p.suite = m_suite;
        p.models = models;
        p.strategies = strategies;
        p.repeats = repeats;
        p.options = fastOptions();
        return p;
    }

    bool initBase()
    {
        const SuiteLoadResult loaded = loadSuite(goodSuite());
        m_suite = loaded.suite;
        qRegisterMetaType<RunStatus>();
        return m_tmp.isValid() && loaded.ok();
    }
};

} // namespace structscope::testing
