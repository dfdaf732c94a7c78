// SPDX-License-Identifier: Apache-2.0
#include "audit/suiterebuild.h"

#include <QDir>
#include <QRegularExpression>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

std::string dumpJson(const json& value, int indent = -1)
{
    return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

QByteArray bytes(const std::string& text)
{
    return QByteArray(text.data(), qsizetype(text.size()));
}

void appendMember(std::string& line, const char* key, const json& value)
{
    if (line.size() > 1)
        line += ", ";
    line += dumpJson(json(key));
    line += ": ";
    line += dumpJson(value);
}

} // namespace

QString correctedSuiteVersion(const QString& version, int revisions)
{
    if (revisions <= 0)
        return version;
    static const QRegularExpression existing(u"^(.*[+.])gold\\.(\\d+)$"_s);
    if (const auto match = existing.match(version); match.hasMatch())
        return match.captured(1) + u"gold."_s + QString::number(match.captured(2).toLongLong() + revisions);
    return version + (version.contains(u'+') ? u".gold."_s : u"+gold."_s) + QString::number(revisions);
}

std::string caseLine(const CaseRow& c, const json& gold)
{
    std::string line = "{";
    appendMember(line, "id", c.id.toStdString());
    appendMember(line, "category", c.category.toStdString());
    if (!c.tier.isEmpty())
        appendMember(line, "tier", c.tier.toStdString());
    const bool inlineSchema = c.extra.is_object() && c.extra.contains("schema");
    if (!c.schemaName.isEmpty())
        appendMember(line, "schema", c.schemaName.toStdString());
    else if (inlineSchema)
        appendMember(line, "schema", c.extra["schema"]);
    appendMember(line, "input", c.input.toStdString());
    if (c.question)
        appendMember(line, "question", c.question->toStdString());
    appendMember(line, "gold", gold);
    if (c.extra.is_object()) {
        for (const auto& [key, value] : c.extra.items()) {
            if (key != "schema")
                appendMember(line, key.c_str(), value);
        }
    }
    line += '}';
    return line;
}

RebuiltSuite rebuildSuiteFiles(const json& storedManifest, const QList<CaseRow>& cases,
    const QHash<qint64, GoldRevision>& gold, const json& manifestOverrides)
{
    RebuiltSuite out;
    json manifest = storedManifest.is_object() ? storedManifest : json::object();
    const json documents = manifest.value("schema_documents", json::object());
    const json catalog = manifest.value("catalog", json());
    manifest.erase("schema_documents");
    manifest.erase("catalog");
    if (manifestOverrides.is_object()) {
        for (const auto& [key, value] : manifestOverrides.items())
            manifest[key] = value;
    }
    out.files[u"suite.json"_s] = bytes(dumpJson(manifest, 2) + '\n');

    if (const auto schemas = manifest.find("schemas"); schemas != manifest.end() && schemas->is_object()) {
        for (const auto& [name, path] : schemas->items()) {
            const QString qname = QString::fromStdString(name);
            const QString relative
                = path.is_string() ? QDir::cleanPath(QString::fromStdString(path.get<std::string>())) : QString();
            if (relative.isEmpty() || QDir::isAbsolutePath(relative) || relative == u".."_s
                || relative.startsWith(u"../"_s)) {
                out.warnings << u"schema \"%1\": its path is not a file inside the suite folder"_s.arg(qname);
                continue;
            }
            const auto document = documents.is_object() ? documents.find(name) : documents.end();
            if (!documents.is_object() || document == documents.end()) {
                out.warnings << u"schema \"%1\": the store holds no document for it"_s.arg(qname);
                continue;
            }
            out.files[relative] = bytes(dumpJson(*document, 2) + '\n');
        }
    }
    if (!catalog.is_null())
        out.files[u"catalog.json"_s] = bytes(dumpJson(catalog, 2) + '\n');

    std::string lines;
    for (const CaseRow& c : cases) {
        lines += caseLine(c, gold.value(c.row).gold);
        lines += '\n';
    }
    out.files[u"cases.jsonl"_s] = bytes(lines);
    return out;
}

} // namespace structscope
