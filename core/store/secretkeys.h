// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <QString>
#include <QStringList>

namespace structscope {

// Run settings are stored for everyone who opens the store (a whole team, with PostgreSQL), so they must
// never carry credentials. A key counts as secret when one of its words (split at _ - . space and
// camelCase, case-insensitive) is secret, password, passwd, passphrase, authorization, auth, cookie,
// credential(s), bearer or apikey, when it contains the words "api key" / "private key" / "access key",
// or when its last word is "token" ("access_token", "token"; but not "max_tokens" or "token_limit").
// A string value that starts with "Bearer " or looks like an API key ("sk-" and 20 or more key characters)
// counts as secret too, wherever it is, which catches header lists such as [{"name": …, "value": …}].

/// True when an object key looks like it holds a secret.
bool isSecretKeyName(const QString& key);

/// True when a string value looks like a credential itself.
bool isSecretValue(const QString& value);

/// JSON pointers of every key, at any depth (objects inside arrays too), that looks like a secret.
QStringList findSecretKeys(const nlohmann::json& value);

/// A copy of `value` with every secret-looking key (and secret-looking value) removed, at any depth.
nlohmann::json withoutSecrets(const nlohmann::json& value);

} // namespace structscope
