// SPDX-License-Identifier: Apache-2.0
#include "providers/costestimate.h"

#include "providers/promptbuilder.h"

namespace structscope {

namespace {

constexpr qint64 kTokensPerMessage = 4; // role and separators

qint64 bytesToTokens(qint64 bytes)
{
    return (bytes + 3) / 4;
}

} // namespace

qint64 estimateTokens(const QString& text)
{
    return bytesToTokens(text.toUtf8().size());
}

CostEstimate estimateCost(const Suite& suite, const QList<ModelSpec>& models, const QList<Strategy>& strategies,
    int repeats, const PriceTable& prices)
{
    CostEstimate estimate;
    for (const Strategy strategy : strategies) {
        qint64 in = 0;
        qint64 outUncapped = 0;
        QList<qint64> outs;
        for (const SuiteCase& c : suite.cases) {
            const Prompt prompt = buildPrompt(suite, c, strategy);
            for (const ChatMessage& m : prompt.messages)
                in += estimateTokens(m.content) + kTokensPerMessage;
            if (prompt.schemaAsFormat && !prompt.schema.is_null())
                in += bytesToTokens(qint64(prompt.schema.dump().size()));
            const qint64 out
                = bytesToTokens(qint64(c.gold.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).size()));
            outs.append(out);
            outUncapped += out;
        }
        for (const ModelSpec& spec : models) {
            CostEstimateLine line;
            line.model = spec.label();
            line.strategy = strategyName(strategy);
            line.requests = qint64(suite.cases.size()) * repeats;
            line.tokensIn = in * repeats;
            qint64 out = outUncapped;
            if (spec.maxTokens) {
                out = 0;
                for (const qint64 o : std::as_const(outs))
                    out += std::min<qint64>(o, *spec.maxTokens);
            }
            line.tokensOut = out * repeats;
            line.cost = prices.cost(spec, line.tokensIn, line.tokensOut);
            if (line.cost)
                estimate.total += *line.cost;
            else if (!estimate.unpriced.contains(line.model))
                estimate.unpriced << line.model;
            estimate.lines.append(line);
        }
    }
    return estimate;
}

} // namespace structscope
