// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "providers/modelspec.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <optional>

namespace structscope {

/// Price of one model in dollars per million tokens.
struct ModelPrice
{
    double inputPerMillion = 0;
    double outputPerMillion = 0;
    friend bool operator==(const ModelPrice&, const ModelPrice&) = default;
};

/// Dollar prices per model, for responses whose provider reports no cost and for pre-run estimates.
/// The file is JSON: {"models": {"openai:gpt-4.1-mini": {"input_per_million": 0.4,
/// "output_per_million": 1.6}, "gpt-4o": {…}, "ollama:*": {…}}}. A spec matches, in this order,
/// "provider:model", "model", the model's last '/' segment ("openai/gpt-4o" → "gpt-4o"), "provider:*".
class PriceTable
{
public:
    /// Parses the JSON text of a price table; nullopt with a located message on bad input.
    static std::optional<PriceTable> fromJson(const QByteArray& text, QString* error = nullptr);
    /// Reads and parses a price table file.
    static std::optional<PriceTable> load(const QString& path, QString* error = nullptr);
    /// The table shipped with StructScope (resources/prices.json).
    static PriceTable builtIn();
    /// Where a user's own table lives (prices.json in the application's config folder).
    static QString userPath();
    /// The user's table when the file exists (a broken one is reported in `warning` and skipped), else built-in.
    static PriceTable loadDefault(QString* warning = nullptr);

    std::optional<ModelPrice> find(const ModelSpec& spec) const;
    /// Dollars for this many tokens, nullopt when the model has no price.
    std::optional<double> cost(const ModelSpec& spec, qint64 tokensIn, qint64 tokensOut) const;
    void set(const QString& key, const ModelPrice& price) { m_prices.insert(key, price); }
    bool isEmpty() const { return m_prices.isEmpty(); }
    qsizetype size() const { return m_prices.size(); }

private:
    QHash<QString, ModelPrice> m_prices;
};

} // namespace structscope
