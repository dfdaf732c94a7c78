// SPDX-License-Identifier: Apache-2.0
#include "store/secretkeys.h"

#include <QRegularExpression>
#include <QSet>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

QStringList keyWords(const QString& key)
{
    // "xApiKey" → "x Api Key", then split on separators; digits stay with their word.
    static const QRegularExpression camel(u"([a-z0-9])([A-Z])"_s);
    static const QRegularExpression separators(u"[^A-Za-z0-9]+"_s);
    QString spaced = key;
    spaced.replace(camel, u"\\1 \\2"_s);
    return spaced.toLower().split(separators, Qt::SkipEmptyParts);
}

QString pointerToken(const QString& key)
{
    QString escaped = key;
    escaped.replace(u"~"_s, u"~0"_s);
    escaped.replace(u"/"_s, u"~1"_s);
    return escaped;
}

bool isSecretJsonValue(const nlohmann::json& value)
{
    return value.is_string() && isSecretValue(QString::fromStdString(value.get<std::string>()));
}

void collect(const nlohmann::json& value, const QString& pointer, QStringList& out)
{
    if (isSecretJsonValue(value)) {
        out.append(pointer);
    } else if (value.is_object()) {
        for (auto it = value.begin(); it != value.end(); ++it) {
            const QString key = QString::fromStdString(it.key());
            const QString child = pointer % u'/' % pointerToken(key);
            if (isSecretKeyName(key))
                out.append(child);
            else
                collect(it.value(), child, out);
        }
    } else if (value.is_array()) {
        for (size_t i = 0; i < value.size(); ++i)
            collect(value[i], pointer % u'/' % QString::number(i), out);
    }
}

} // namespace

bool isSecretKeyName(const QString& key)
{
    static const QSet<QString> secretWords { u"secret"_s, u"secrets"_s, u"password"_s, u"passwd"_s, u"passphrase"_s,
        u"authorization"_s, u"auth"_s, u"cookie"_s, u"credential"_s, u"credentials"_s, u"bearer"_s, u"apikey"_s };
    const QStringList words = keyWords(key);
    if (words.isEmpty())
        return false;
    for (qsizetype i = 0; i < words.size(); ++i) {
        if (secretWords.contains(words.at(i)))
            return true;
        if (i + 1 < words.size() && words.at(i + 1) == u"key"
            && (words.at(i) == u"api" || words.at(i) == u"private" || words.at(i) == u"access"))
            return true;
    }
    return words.constLast() == u"token";
}

bool isSecretValue(const QString& value)
{
    static const QRegularExpression apiKey(u"^sk-[A-Za-z0-9_-]{20,}$"_s);
    return value.startsWith(u"Bearer "_s, Qt::CaseInsensitive) || apiKey.match(value).hasMatch();
}

QStringList findSecretKeys(const nlohmann::json& value)
{
    QStringList out;
    collect(value, QString(), out);
    return out;
}

nlohmann::json withoutSecrets(const nlohmann::json& value)
{
    if (value.is_object()) {
        nlohmann::json out = nlohmann::json::object();
        for (auto it = value.begin(); it != value.end(); ++it) {
            if (!isSecretKeyName(QString::fromStdString(it.key())) && !isSecretJsonValue(it.value()))
                out[it.key()] = withoutSecrets(it.value());
        }
        return out;
    }
    if (value.is_array()) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& item : value) {
            if (!isSecretJsonValue(item))
                out.push_back(withoutSecrets(item));
        }
        return out;
    }
    return value;
}

} // namespace structscope
