// SPDX-License-Identifier: Apache-2.0
#include "store/storelocation.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QUrl>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

StoreError locationError(const QString& message)
{
    return { StoreErrorKind::InvalidLocation, message };
}

// libpq options a URL may carry. Anything else is refused so that a typo is not silently ignored,
// and so that no value can smuggle further options into the connection string.
const QStringList& knownPostgresOptions()
{
    static const QStringList options { u"sslmode"_s, u"sslrootcert"_s, u"sslcert"_s, u"sslkey"_s, u"sslcrl"_s,
        u"connect_timeout"_s, u"application_name"_s, u"target_session_attrs"_s, u"host"_s };
    return options;
}

StoreResult<StoreLocation> parsePostgres(const QString& location)
{
    const QString usage = u"expected postgresql://user:password@host:port/database"_s;
    const QUrl url(location, QUrl::StrictMode);
    // QUrl's own error text quotes the input, which may contain the password: say what is expected instead.
    if (!url.isValid())
        return locationError(u"the PostgreSQL URL is malformed (%1)"_s.arg(usage));

    StoreLocation loc;
    loc.backend = StoreBackend::Postgres;
    loc.host = url.host(QUrl::FullyDecoded);
    loc.port = url.port(-1);
    loc.user = url.userName(QUrl::FullyDecoded);
    loc.password = url.password(QUrl::FullyDecoded);
    QString path = url.path(QUrl::FullyDecoded);
    if (path.startsWith(u'/'))
        path.remove(0, 1);
    if (path.isEmpty())
        return locationError(u"the PostgreSQL URL names no database (%1)"_s.arg(usage));
    if (path.contains(u'/'))
        return locationError(u"the PostgreSQL URL path must be a single database name, not \"%1\""_s.arg(path));
    loc.database = path;
    if (url.hasFragment())
        return locationError(u"the PostgreSQL URL must not have a #fragment"_s);

    static const QRegularExpression schemaName(u"^[a-z_][a-z0-9_]{0,62}$"_s);
    static const QRegularExpression safeValue(u"^[^\\s;'\"\\\\]+$"_s);
    QSet<QString> seen;
    const QUrlQuery query(url);
    const auto items = query.queryItems(QUrl::FullyDecoded);
    for (const auto& [key, value] : items) {
        if (seen.contains(key))
            return locationError(u"option \"%1\" appears twice in the PostgreSQL URL"_s.arg(key));
        seen.insert(key);
        if (key == u"schema") {
            if (!schemaName.match(value).hasMatch())
                return locationError(u"schema \"%1\" in the PostgreSQL URL is not a plain lower-case name "
                                     "(letters, digits, underscore; at most 63)"_s.arg(value));
            loc.schema = value;
            continue;
        }
        if (key == u"user" || key == u"password" || key == u"dbname" || key == u"port")
            return locationError(u"put \"%1\" into the URL itself, not its query (%2)"_s.arg(key, usage));
        if (!knownPostgresOptions().contains(key))
            return locationError(u"unknown option \"%1\" in the PostgreSQL URL (known: schema, %2)"_s.arg(
                key, knownPostgresOptions().join(u", "_s)));
        if (!safeValue.match(value).hasMatch())
            return locationError(
                u"option \"%1\" in the PostgreSQL URL has an empty value or one with spaces, quotes or ';'"_s.arg(key));
        loc.connectOptions.append(key % u'=' % value);
    }
    return loc;
}

} // namespace

StoreResult<StoreLocation> StoreLocation::parse(const QString& location)
{
    if (location.trimmed().isEmpty())
        return locationError(u"no store location given (a file path or a postgresql:// URL)"_s);

    static const QRegularExpression urlPrefix(u"^([A-Za-z][A-Za-z0-9+.-]*)://"_s);
    const auto match = urlPrefix.match(location);
    if (!match.hasMatch()) {
        StoreLocation loc;
        loc.filePath = QFileInfo(location).absoluteFilePath();
        return loc;
    }

    const QString scheme = match.captured(1).toLower();
    if (scheme == u"postgresql" || scheme == u"postgres")
        return parsePostgres(location);
    if (scheme == u"file") {
        const QUrl url(location, QUrl::StrictMode);
        const QString path = url.isValid() ? url.toLocalFile() : QString();
        if (path.isEmpty())
            return locationError(u"\"%1\" is not a valid file:// URL"_s.arg(location));
        StoreLocation loc;
        loc.filePath = QFileInfo(path).absoluteFilePath();
        return loc;
    }
    return locationError(
        u"unsupported store location \"%1://…\": use a file path (SQLite) or a postgresql:// URL"_s.arg(
            match.captured(1)));
}

QString StoreLocation::withoutPassword(const QString& location)
{
    static const QRegularExpression postgres(u"^\\s*postgres(ql)?://"_s, QRegularExpression::CaseInsensitiveOption);
    if (!postgres.match(location).hasMatch())
        return location;
    QUrl url(location, QUrl::StrictMode);
    if (url.isValid()) {
        if (url.password().isEmpty())
            return location;
        url.setPassword(QString());
        return url.toString(QUrl::FullyEncoded);
    }
    // Not a valid URL (it will not open either): drop whatever sits between "user:" and the last '@', so that a
    // password never survives a typo elsewhere in the URL.
    static const QRegularExpression userinfo(u"^(\\s*[A-Za-z]+://[^:/@]*):.*@"_s);
    QString stripped = location;
    stripped.replace(userinfo, u"\\1@"_s);
    return stripped;
}

QString StoreLocation::displayName() const
{
    if (backend == StoreBackend::Sqlite)
        return filePath;
    QUrl url;
    url.setScheme(u"postgresql"_s);
    url.setUserName(user);
    url.setHost(host);
    url.setPort(port);
    url.setPath(u'/' % database);
    if (!schema.isEmpty() || !connectOptions.isEmpty()) {
        QUrlQuery query;
        if (!schema.isEmpty())
            query.addQueryItem(u"schema"_s, schema);
        for (const QString& option : connectOptions) {
            const qsizetype eq = option.indexOf(u'=');
            query.addQueryItem(option.left(eq), option.mid(eq + 1));
        }
        url.setQuery(query);
    }
    return url.toString();
}

} // namespace structscope
