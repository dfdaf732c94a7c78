// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "providers/modelspec.h"
#include "providers/pricetable.h"
#include "providers/strategy.h"
#include "suite/suite.h"

#include <QList>
#include <QString>

#include <optional>

namespace structscope {

/// The expected size and price of one model × strategy before anything is sent.
struct CostEstimateLine
{
    QString model; ///< ModelSpec::label()
    QString strategy;
    qint64 requests = 0;
    qint64 tokensIn = 0; ///< estimated
    qint64 tokensOut = 0; ///< estimated from the gold answers
    std::optional<double> cost; ///< nullopt when the price table has no price for the model
};

struct CostEstimate
{
    QList<CostEstimateLine> lines;
    double total = 0; ///< of the lines with a price
    QStringList unpriced; ///< models without a price
};

/// A rough token count: one token per four UTF-8 bytes, rounded up (what tokenizers average on
/// English text and JSON; estimates, never billing).
qint64 estimateTokens(const QString& text);

/// What a plan would cost: every case's prompt (and schema, when sent as the format) in, its gold
/// answer (capped at max_tokens) out, per repeat. Simulated models are priced like the others.
CostEstimate estimateCost(const Suite& suite, const QList<ModelSpec>& models, const QList<Strategy>& strategies,
    int repeats, const PriceTable& prices);

} // namespace structscope
