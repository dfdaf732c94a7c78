// SPDX-License-Identifier: Apache-2.0
#include "preflight/preflight.h"

#include "schema/schemavalidator.h"
#include "scoring/contractrules.h"
#include "suite/jsonlocation.h"

#include <QHash>
#include <QSet>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

const QString kManifest = u"suite.json"_s;
const QString kCases = u"cases.jsonl"_s;

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

SchemaOptions schemaOptionsOf(const Suite& suite)
{
    SchemaOptions options;
    if (const auto it = suite.options.find("validate_formats"); it != suite.options.end() && it->is_boolean())
        options.validateFormats = it->get<bool>();
    return options;
}

/// Compiles each distinct schema once, remembering failures so they are reported once.
class SchemaChecker
{
public:
    SchemaChecker(const SchemaOptions& options, Problems& problems)
        : m_options(options)
        , m_problems(problems)
    { }

    /// Compiles and vets a schema document; `file`/`line`/`pointer` say where it came from.
    CompiledSchemaPtr check(const json& schema, const QString& file, int line, const QString& pointer)
    {
        const std::string key = schema.dump();
        if (const auto it = m_seen.find(key); it != m_seen.end())
            return it->second;

        const std::vector<SchemaError> metaErrors = checkAgainstMetaSchema(schema);
        for (const SchemaError& e : metaErrors)
            m_problems.append(
                Problem { file, line, 0, pointer + qs(e.pointer), u"not a valid draft-07 schema: "_s + qs(e.message) });
        std::string error;
        CompiledSchemaPtr compiled = SchemaCache::compile(schema, m_options, &error);
        // compile() runs the meta-schema check too; its failure would repeat the errors above.
        if (!compiled) {
            if (metaErrors.empty())
                m_problems.append(Problem { file, line, 0, pointer, u"the schema does not compile: "_s + qs(error) });
        } else {
            for (const SchemaError& e : compiled->unsupportedKeywords())
                m_problems.append(Problem { file, line, 0, pointer + qs(e.pointer),
                    u"not checked by the validator: "_s + qs(e.message), true });
        }
        m_seen.emplace(key, compiled);
        return compiled;
    }

private:
    SchemaOptions m_options;
    Problems& m_problems;
    std::map<std::string, CompiledSchemaPtr> m_seen;
};

void reportGoldErrors(const std::vector<SchemaError>& errors, const QString& file, int line, const QString& base,
    const QString& what, Problems& problems)
{
    for (const SchemaError& e : errors)
        problems.append(Problem { file, line, 0, base + qs(e.pointer), what + qs(e.message) });
}

/// preflightSuite; without `manifestRead` the checks against the manifest's declarations are left out.
Problems preflight(const Suite& suite, bool manifestRead)
{
    Problems problems;
    SchemaChecker schemas(schemaOptionsOf(suite), problems);

    std::map<QString, CompiledSchemaPtr> named;
    for (const auto& [name, document] : suite.schemas) {
        const auto file = suite.schemaFiles.find(name);
        named[name] = schemas.check(document, file != suite.schemaFiles.end() ? file->second : kManifest, 0, {});
    }

    for (const auto& [name, example] : suite.examples) {
        const QString pointer = u"/examples/"_s + pointerToken(name) + u"/output"_s;
        const auto schema = named.find(name);
        if (schema == named.end()) {
            if (suite.schemaFiles.contains(name))
                continue; // a declared schema that failed to load is reported where it is
            problems.append(Problem { kManifest, 0, 0, u"/examples/"_s + pointerToken(name),
                u"example for schema \"%1\", which is not declared in \"schemas\""_s.arg(name) });
            continue;
        }
        if (schema->second)
            reportGoldErrors(schema->second->validate(example.output), kManifest, 0, pointer,
                u"the example output does not match its schema: "_s, problems);
    }

    if (suite.families.contains(u"contract"_s)) {
        for (const auto& [pointer, message] : checkContractRules(suite.options, suite.catalog))
            problems.append(Problem { kManifest, 0, 0, qs(pointer), u"contract rules: "_s + qs(message) });
    }

    const QSet<QString> categories(suite.categories.cbegin(), suite.categories.cend());
    // A manifest without a list of categories is reported there, not on every case.
    const auto declared = suite.manifest.is_object() ? suite.manifest.find("categories") : suite.manifest.end();
    const bool checkCategories = manifestRead && declared != suite.manifest.end() && declared->is_array();
    QHash<QString, int> firstLineOfId;
    for (const SuiteCase& c : suite.cases) {
        if (const auto seen = firstLineOfId.constFind(c.id); seen != firstLineOfId.cend())
            problems.append(Problem {
                kCases, c.line, 0, u"/id"_s, u"case id \"%1\" is already used on line %2"_s.arg(c.id).arg(*seen) });
        else
            firstLineOfId.insert(c.id, c.line);

        if (checkCategories && !categories.contains(c.category))
            problems.append(Problem { kCases, c.line, 0, u"/category"_s,
                u"category \"%1\" is not declared in suite.json \"categories\""_s.arg(c.category) });

        CompiledSchemaPtr schema;
        if (!c.inlineSchema.is_null()) {
            schema = schemas.check(c.inlineSchema, kCases, c.line, u"/schema"_s);
        } else if (manifestRead) {
            const QString name = c.schemaName.isEmpty() ? suite.defaultSchema : c.schemaName;
            if (name.isEmpty()) {
                problems.append(Problem {
                    kCases, c.line, 0, {}, u"the case names no schema and the suite has no \"default_schema\""_s });
                continue;
            }
            const auto it = named.find(name);
            if (it == named.end() && c.schemaName.isEmpty() && !suite.schemaFiles.contains(name))
                continue; // an undeclared "default_schema" is reported in suite.json, not on every case using it
            if (it == named.end()) {
                if (!suite.schemaFiles.contains(name))
                    problems.append(Problem { kCases, c.line, 0, u"/schema"_s,
                        u"schema \"%1\" is not declared in suite.json \"schemas\""_s.arg(name) });
                continue; // a declared schema that failed to load is reported where it is
            }
            schema = it->second;
        }
        if (schema)
            reportGoldErrors(
                schema->validate(c.gold), kCases, c.line, u"/gold"_s, u"gold does not match its schema: "_s, problems);
    }
    return problems;
}

} // namespace

Problems preflightSuite(const Suite& suite)
{
    return preflight(suite, true);
}

Problems checkLoadedSuite(const SuiteLoadResult& loaded)
{
    Problems problems = loaded.problems;
    if (loaded.ok())
        problems += preflight(*loaded.suite, true);
    else if (loaded.partial)
        problems += preflight(*loaded.partial, loaded.manifestRead);
    return problems;
}

} // namespace structscope
