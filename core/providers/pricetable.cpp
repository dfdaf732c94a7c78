// SPDX-License-Identifier: Apache-2.0
#include "providers/pricetable.h"

#include "json/jsontext.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QStandardPaths>

#include <cmath>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

bool readPrice(const json& entry, const char* key, double& out, const QString& model, QString* error)
{
    const auto it = entry.find(key);
    if (it == entry.end() || !it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0)
        return fail(
            error, u"/models/%1/%2 must be a number ≥ 0 (dollars per million tokens)"_s.arg(model, QLatin1String(key)));
    out = it->get<double>();
    return true;
}

} // namespace

std::optional<PriceTable> PriceTable::fromJson(const QByteArray& text, QString* error)
{
    json root;
    const JsonTextParse parsed = parseJsonText(std::string_view(text.constData(), std::size_t(text.size())), 64, root);
    if (!parsed.ok) {
        const TextLocation at
            = locateOffset(std::string_view(text.constData(), std::size_t(text.size())), parsed.errorOffset);
        fail(error,
            u"line %1, column %2: %3"_s.arg(
                QString::number(at.line), QString::number(at.column), QString::fromStdString(parsed.message)));
        return std::nullopt;
    }
    const auto models = root.is_object() ? root.find("models") : root.end();
    if (!root.is_object() || models == root.end() || !models->is_object()) {
        fail(error, u"a price table is an object with a \"models\" object"_s);
        return std::nullopt;
    }
    PriceTable table;
    for (auto it = models->begin(); it != models->end(); ++it) {
        const QString model = QString::fromStdString(it.key());
        if (!it->is_object()) {
            fail(error, u"/models/%1 must be an object with input_per_million and output_per_million"_s.arg(model));
            return std::nullopt;
        }
        ModelPrice price;
        if (!readPrice(*it, "input_per_million", price.inputPerMillion, model, error)
            || !readPrice(*it, "output_per_million", price.outputPerMillion, model, error))
            return std::nullopt;
        table.set(model, price);
    }
    return table;
}

std::optional<PriceTable> PriceTable::load(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        fail(error, u"%1: %2"_s.arg(path, file.errorString()));
        return std::nullopt;
    }
    QString problem;
    auto table = fromJson(file.readAll(), &problem);
    if (!table)
        fail(error, u"%1: %2"_s.arg(path, problem));
    return table;
}

PriceTable PriceTable::builtIn()
{
    auto table = load(u":/structscope/prices.json"_s);
    return table ? *table : PriceTable();
}

QString PriceTable::userPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + u"/prices.json"_s;
}

PriceTable PriceTable::loadDefault(QString* warning)
{
    const QString path = userPath();
    if (QFile::exists(path)) {
        QString problem;
        if (auto table = load(path, &problem))
            return *table;
        if (warning)
            *warning = problem + u" (using the built-in prices)"_s;
    }
    return builtIn();
}

std::optional<ModelPrice> PriceTable::find(const ModelSpec& spec) const
{
    const QString kind = providerKindName(spec.kind);
    QStringList keys = { kind + u':' + spec.model, spec.model };
    if (const qsizetype slash = spec.model.lastIndexOf(u'/'); slash >= 0)
        keys << spec.model.mid(slash + 1);
    keys << kind + u":*"_s;
    for (const QString& key : std::as_const(keys)) {
        const auto it = m_prices.constFind(key);
        if (it != m_prices.cend())
            return *it;
    }
    return std::nullopt;
}

std::optional<double> PriceTable::cost(const ModelSpec& spec, qint64 tokensIn, qint64 tokensOut) const
{
    const auto price = find(spec);
    if (!price)
        return std::nullopt;
    return (double(tokensIn) * price->inputPerMillion + double(tokensOut) * price->outputPerMillion) / 1e6;
}

} // namespace structscope
