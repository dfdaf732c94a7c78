// SPDX-License-Identifier: Apache-2.0
#include "suite/suiteloader.h"

#include "suite/jsonlocation.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <set>
#include <string_view>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

const QString kManifest = u"suite.json"_s;
const QString kCases = u"cases.jsonl"_s;
const QString kCatalog = u"catalog.json"_s;

// Suites are hand-written and checked into version control; anything much larger is a mistake (or an attack: a
// file that never ends). docs/suite-authoring.md lists these limits.
constexpr qint64 kMaxCasesBytes = 256ll * 1024 * 1024; ///< cases.jsonl
constexpr qint64 kMaxDocumentBytes = 32ll * 1024 * 1024; ///< suite.json, catalog.json, each schema file
constexpr qint64 kMaxSuiteBytes = 512ll * 1024 * 1024; ///< all files of one suite together

const QStringList& knownFamilies()
{
    static const QStringList families = { u"ladder"_s, u"extraction"_s, u"grounding"_s, u"contract"_s };
    return families;
}

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

/// Collects problems and turns the suite's files into a Suite.
class Loader
{
public:
    Loader(const SuiteFiles& files, Problems& problems)
        : m_files(files)
        , m_problems(problems)
    { }

    std::shared_ptr<Suite> load(const QString& dir)
    {
        auto suite = std::make_shared<Suite>();
        suite->dir = dir;

        const auto manifestIt = m_files.find(kManifest);
        if (manifestIt == m_files.end()) {
            add(kManifest, u"missing: a suite folder needs a suite.json manifest"_s);
        } else if (auto manifest = parseDocument(kManifest, manifestIt->second)) {
            m_manifestRead = manifest->is_object();
            readManifest(*suite, *manifest);
        }

        const auto casesIt = m_files.find(kCases);
        if (casesIt == m_files.end())
            add(kCases, u"missing: a suite folder needs a cases.jsonl file (one case per line)"_s);
        else
            readCases(*suite, casesIt->second);

        if (const auto catalogIt = m_files.find(kCatalog); catalogIt != m_files.end()) {
            if (auto catalog = parseDocument(kCatalog, catalogIt->second))
                suite->catalog = std::move(*catalog);
        }

        suite->contentHash = hashFiles();
        return suite;
    }

    bool manifestRead() const { return m_manifestRead; }

private:
    void add(const QString& file, const QString& message, const QString& pointer = {}, int line = 0, int column = 0)
    {
        m_problems.append(Problem { file, line, column, pointer, message });
    }

    std::optional<json> parseDocument(const QString& file, const QByteArray& bytes, int line = 0)
    {
        json value;
        JsonLocation where;
        QString error;
        if (!parseLocated(std::string_view(bytes.constData(), std::size_t(bytes.size())), value, error, where)) {
            // For one JSONL line the document's own line is always 1; report the file's line instead.
            add(file, error, {}, line > 0 ? line : where.line, where.column);
            return std::nullopt;
        }
        return value;
    }

    QString stringMember(const json& obj, const char* key, const QString& file, bool required, int line = 0)
    {
        const auto it = obj.find(key);
        const QString pointer = u"/"_s + QLatin1String(key);
        if (it == obj.end() || it->is_null()) {
            if (required)
                add(file, u"required key \"%1\" is missing"_s.arg(QLatin1String(key)), {}, line);
            return {};
        }
        if (!it->is_string()) {
            add(file, u"must be a string, found %1"_s.arg(QLatin1String(it->type_name())), pointer, line);
            return {};
        }
        return qs(it->get<std::string>());
    }

    void readManifest(Suite& suite, const json& manifest)
    {
        if (!manifest.is_object()) {
            add(kManifest, u"the manifest must be a JSON object, found %1"_s.arg(QLatin1String(manifest.type_name())));
            return;
        }
        suite.manifest = manifest;
        suite.id = stringMember(manifest, "id", kManifest, true);
        static const QRegularExpression idPattern(u"^[a-z0-9][a-z0-9._-]*$"_s);
        if (!suite.id.isEmpty() && !idPattern.match(suite.id).hasMatch())
            add(kManifest, u"suite id \"%1\" must be lower-case letters, digits, '.', '_' or '-'"_s.arg(suite.id),
                u"/id"_s);
        suite.name = stringMember(manifest, "name", kManifest, true);
        suite.version = stringMember(manifest, "version", kManifest, true);
        suite.description = stringMember(manifest, "description", kManifest, false);
        suite.license = stringMember(manifest, "license", kManifest, false);
        suite.defaultSchema = stringMember(manifest, "default_schema", kManifest, false);

        readSchemas(suite, manifest);
        suite.categories = stringList(manifest, "categories", true);
        suite.families = stringList(manifest, "families", true);
        for (int i = 0; i < suite.families.size(); ++i) {
            if (!knownFamilies().contains(suite.families.at(i)))
                add(kManifest,
                    u"unknown metric family \"%1\" (known: %2)"_s.arg(
                        suite.families.at(i), knownFamilies().join(u", "_s)),
                    u"/families/%1"_s.arg(i));
        }
        readPrompt(suite, manifest);
        readExamples(suite, manifest);

        if (const auto it = manifest.find("options"); it != manifest.end()) {
            if (!it->is_object())
                add(kManifest, u"\"options\" must be an object"_s, u"/options"_s);
            else
                readOptions(suite, *it);
        }
    }

    QStringList stringList(const json& manifest, const char* key, bool required)
    {
        const QString pointer = u"/"_s + QLatin1String(key);
        const auto it = manifest.find(key);
        if (it == manifest.end()) {
            if (required)
                add(kManifest, u"required key \"%1\" is missing"_s.arg(QLatin1String(key)));
            return {};
        }
        if (!it->is_array()) {
            add(kManifest, u"must be an array of strings"_s, pointer);
            return {};
        }
        QStringList list;
        QSet<QString> seen;
        for (std::size_t i = 0; i < it->size(); ++i) {
            const json& item = (*it)[i];
            const QString itemPointer = pointer + u'/' + QString::number(i);
            if (!item.is_string() || item.get_ref<const std::string&>().empty()) {
                add(kManifest, u"must be a non-empty string"_s, itemPointer);
                continue;
            }
            const QString value = qs(item.get<std::string>());
            if (seen.contains(value))
                add(kManifest, u"\"%1\" is listed twice"_s.arg(value), itemPointer);
            seen.insert(value);
            list << value;
        }
        return list;
    }

    void readSchemas(Suite& suite, const json& manifest)
    {
        const auto it = manifest.find("schemas");
        if (it == manifest.end()) {
            add(kManifest, u"required key \"schemas\" is missing (name → file under schemas/)"_s);
            return;
        }
        if (!it->is_object()) {
            add(kManifest, u"\"schemas\" must be an object mapping schema names to files"_s, u"/schemas"_s);
            return;
        }
        for (const auto& [name, path] : it->items()) {
            const QString qname = qs(name);
            const QString pointer = u"/schemas/"_s + pointerToken(qname);
            if (!path.is_string()) {
                add(kManifest, u"the schema file must be a string path"_s, pointer);
                continue;
            }
            const QString relative = QDir::cleanPath(qs(path.get<std::string>()));
            if (relative.isEmpty() || QDir::isAbsolutePath(relative) || relative.startsWith(u"../"_s)
                || relative == u".."_s) {
                add(kManifest, u"schema path \"%1\" must stay inside the suite folder"_s.arg(relative), pointer);
                continue;
            }
            suite.schemaFiles[qname] = relative;
            const auto file = m_files.find(relative);
            if (file == m_files.end()) {
                add(relative,
                    u"missing: schema \"%1\" is declared in suite.json (%2) but the file does not exist"_s.arg(
                        qname, pointer));
                continue;
            }
            if (auto schema = parseDocument(relative, file->second)) {
                if (!schema->is_object() && !schema->is_boolean()) {
                    add(relative,
                        u"a JSON Schema must be an object (or a boolean), found %1"_s.arg(
                            QLatin1String(schema->type_name())));
                    continue;
                }
                suite.schemas[qname] = std::move(*schema);
            }
        }
        if (!suite.defaultSchema.isEmpty() && !suite.schemaFiles.contains(suite.defaultSchema))
            add(kManifest, u"default schema \"%1\" is not declared in \"schemas\""_s.arg(suite.defaultSchema),
                u"/default_schema"_s);
    }

    void readPrompt(Suite& suite, const json& manifest)
    {
        const auto it = manifest.find("prompt");
        if (it == manifest.end()) {
            add(kManifest, u"required key \"prompt\" is missing ({\"system\": …, \"user\": … {{input}} …})"_s);
            return;
        }
        if (!it->is_object()) {
            add(kManifest, u"\"prompt\" must be an object with \"system\" and \"user\" templates"_s, u"/prompt"_s);
            return;
        }
        const auto text = [&](const char* key, QString& target) {
            const auto member = it->find(key);
            const QString pointer = u"/prompt/"_s + QLatin1String(key);
            if (member == it->end() || !member->is_string()) {
                add(kManifest, u"must be a string template"_s, pointer);
                return;
            }
            target = qs(member->get<std::string>());
        };
        text("system", suite.systemPrompt);
        text("user", suite.userPrompt);
        if (!suite.userPrompt.isEmpty() && !suite.userPrompt.contains(u"{{input}}"_s))
            add(kManifest, u"the user template never inserts the case text: it needs {{input}}"_s, u"/prompt/user"_s);
    }

    void readExamples(Suite& suite, const json& manifest)
    {
        const auto it = manifest.find("examples");
        if (it == manifest.end())
            return;
        if (!it->is_object()) {
            add(kManifest, u"\"examples\" must be an object mapping schema names to {input, output}"_s, u"/examples"_s);
            return;
        }
        for (const auto& [name, example] : it->items()) {
            const QString qname = qs(name);
            const QString pointer = u"/examples/"_s + pointerToken(qname);
            if (!example.is_object() || !example.contains("input") || !example["input"].is_string()
                || !example.contains("output")) {
                add(kManifest, u"an example needs a string \"input\" and an \"output\" value"_s, pointer);
                continue;
            }
            suite.examples[qname] = SuiteExample { qs(example["input"].get<std::string>()), example["output"] };
        }
    }

    void readOptions(Suite& suite, const json& options)
    {
        suite.options = options;
        if (const auto it = options.find("array_matching"); it != options.end()) {
            if (!it->is_string() || (*it != "ordered" && *it != "unordered"))
                add(kManifest, u"must be \"ordered\" or \"unordered\""_s, u"/options/array_matching"_s);
        }
        if (const auto it = options.find("validate_formats"); it != options.end() && !it->is_boolean())
            add(kManifest, u"must be true or false"_s, u"/options/validate_formats"_s);
    }

    void readCases(Suite& suite, const QByteArray& bytes)
    {
        int lineNo = 0;
        qsizetype start = 0;
        while (start < bytes.size()) {
            qsizetype end = bytes.indexOf('\n', start);
            if (end < 0)
                end = bytes.size();
            ++lineNo;
            QByteArray line = bytes.mid(start, end - start);
            start = end + 1;
            if (line.endsWith('\r'))
                line.chop(1);
            if (line.trimmed().isEmpty())
                continue;
            if (auto value = parseDocument(kCases, line, lineNo))
                readCase(suite, *value, lineNo);
        }
        if (lineNo == 0 || suite.cases.isEmpty()) {
            if (!std::any_of(m_problems.cbegin(), m_problems.cend(), [](const Problem& p) { return p.file == kCases; }))
                add(kCases, u"the suite has no cases"_s);
        }
    }

    void readCase(Suite& suite, const json& value, int line)
    {
        if (!value.is_object()) {
            add(kCases, u"a case must be a JSON object, found %1"_s.arg(QLatin1String(value.type_name())), {}, line);
            return;
        }
        const auto problemsBefore = m_problems.size();
        const auto member = [&](const char* key, bool required, bool nullable) -> QString {
            const auto it = value.find(key);
            const QString pointer = u"/"_s + QLatin1String(key);
            if (it == value.end() || (it->is_null() && nullable)) {
                if (required)
                    add(kCases, u"required key \"%1\" is missing"_s.arg(QLatin1String(key)), {}, line);
                return {};
            }
            if (!it->is_string()) {
                add(kCases, u"must be a string, found %1"_s.arg(QLatin1String(it->type_name())), pointer, line);
                return {};
            }
            return qs(it->get<std::string>());
        };

        SuiteCase c;
        c.line = line;
        c.id = member("id", true, false);
        if (value.contains("id") && value["id"].is_string() && c.id.trimmed().isEmpty())
            add(kCases, u"the case id must not be empty"_s, u"/id"_s, line);
        c.category = member("category", true, false);
        c.tier = member("tier", false, true);
        c.input = member("input", true, false);
        if (const auto q = value.find("question"); q != value.end() && !q->is_null()) {
            if (q->is_string())
                c.question = qs(q->get<std::string>());
            else
                add(kCases, u"must be a string or null"_s, u"/question"_s, line);
        }
        if (const auto s = value.find("schema"); s != value.end() && !s->is_null()) {
            if (s->is_string())
                c.schemaName = qs(s->get<std::string>());
            else if (s->is_object() || s->is_boolean())
                c.inlineSchema = *s;
            else
                add(kCases, u"must be a schema name or an inline schema object"_s, u"/schema"_s, line);
        }
        if (const auto g = value.find("gold"); g != value.end())
            c.gold = *g;
        else
            add(kCases, u"required key \"gold\" is missing"_s, {}, line);

        static const std::set<std::string> known = { "id", "category", "tier", "schema", "input", "question", "gold" };
        c.extra = json::object();
        for (const auto& [key, v] : value.items()) {
            if (!known.contains(key))
                c.extra[key] = v;
        }
        if (m_problems.size() == problemsBefore)
            suite.cases.append(std::move(c));
    }

    QByteArray hashFiles() const
    {
        QCryptographicHash hash(QCryptographicHash::Sha256);
        for (const auto& [path, bytes] : m_files) { // std::map: a fixed, sorted order
            const QByteArray name = path.toUtf8();
            hash.addData(QByteArray(QByteArray::number(name.size()) + ':' + name));
            hash.addData(QByteArray(QByteArray::number(bytes.size()) + ':'));
            hash.addData(bytes);
        }
        return hash.result().toHex();
    }

    const SuiteFiles& m_files;
    Problems& m_problems;
    bool m_manifestRead = false;
};

} // namespace

SuiteLoadResult loadSuite(const SuiteFiles& files, const QString& dir)
{
    SuiteLoadResult result;
    Loader loader(files, result.problems);
    auto suite = loader.load(dir);
    result.manifestRead = loader.manifestRead();
    result.partial = suite;
    if (!hasErrors(result.problems))
        result.suite = std::move(suite);
    return result;
}

namespace {

/// Reads one file of a suite folder: only a regular file whose real path (symbolic links resolved) lies inside the
/// folder, and at most `limit` bytes of it. Returns nullopt after adding a problem; an absent file is no problem here
/// (the loader reports the files it needs).
std::optional<QByteArray> readSuiteFile(
    const QString& realRoot, const QDir& root, const QString& relative, qint64 limit, Problems& problems)
{
    const auto problem = [&](const QString& message) {
        problems.append(Problem { relative, 0, 0, {}, message });
        return std::nullopt;
    };
    const QFileInfo info(root.filePath(relative));
    if (!info.exists() && !info.isSymLink())
        return std::nullopt;
    const QString real = info.canonicalFilePath();
    if (real.isEmpty())
        return problem(u"a symbolic link to %1, which does not exist"_s.arg(info.symLinkTarget()));
    if (!real.startsWith(realRoot + u'/'))
        return problem(
            u"resolves to %1, outside the suite folder; a suite reads only files inside its folder"_s.arg(real));
    if (!info.isFile())
        return problem(u"not a regular file (a folder, device, FIFO or socket); a suite reads only regular files"_s);
#ifdef Q_OS_UNIX
    // Opened without blocking (a FIFO swapped in after the check above would otherwise wait for a writer) and
    // without following a link, then checked again on the open descriptor.
    const QByteArray native = QFile::encodeName(real);
    const int fd = ::open(native.constData(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return problem(u"cannot read: %1"_s.arg(QString::fromLocal8Bit(std::strerror(errno))));
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return problem(u"not a regular file (a folder, device, FIFO or socket); a suite reads only regular files"_s);
    }
    QFile file;
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        return problem(u"cannot read: %1"_s.arg(file.errorString()));
    }
#else
    QFile file(real);
    if (!file.open(QIODevice::ReadOnly))
        return problem(u"cannot read: %1"_s.arg(file.errorString()));
#endif
    const auto tooLarge = [&] {
        return problem(u"too large: over %1 bytes (a suite's cases.jsonl may hold %2 bytes, each other file %3, all"
                       " its files together %4)"_s.arg(limit)
                           .arg(kMaxCasesBytes)
                           .arg(kMaxDocumentBytes)
                           .arg(kMaxSuiteBytes));
    };
    if (file.size() > limit)
        return tooLarge();
    // Read in chunks up to one byte past the limit, so that a file that grows while it is read is caught too.
    QByteArray bytes;
    bytes.reserve(qsizetype(std::min(file.size(), limit)));
    constexpr qint64 kChunk = 1 << 20;
    while (bytes.size() <= limit) {
        const QByteArray chunk = file.read(std::min(kChunk, limit + 1 - bytes.size()));
        if (chunk.isEmpty())
            break;
        bytes += chunk;
    }
    if (bytes.size() > limit)
        return tooLarge();
    if (file.error() != QFileDevice::NoError)
        return problem(u"cannot read: %1"_s.arg(file.errorString()));
    return bytes;
}

} // namespace

SuiteFiles readSuiteFiles(const QString& dir, Problems& problems)
{
    SuiteFiles files;
    const QDir root(dir);
    if (!QFileInfo(dir).isDir()) {
        problems.append(
            Problem { dir, 0, 0, {}, u"not a folder: a suite is a folder with suite.json and cases.jsonl"_s });
        return files;
    }
    const QString realRoot = QFileInfo(dir).canonicalFilePath();
    qint64 total = 0;
    const auto readOne = [&](const QString& relative) {
        const qint64 limit = std::min(relative == kCases ? kMaxCasesBytes : kMaxDocumentBytes, kMaxSuiteBytes - total);
        auto bytes = readSuiteFile(realRoot, root, relative, limit, problems);
        if (!bytes)
            return;
        total += bytes->size();
        files[relative] = std::move(*bytes);
    };
    readOne(kManifest);
    readOne(kCases);
    readOne(kCatalog);

    // Schema files are whatever the manifest names; read those it names (when it parses) and schemas/*.json.
    QSet<QString> schemaPaths;
    const QDir schemaDir(root.filePath(u"schemas"_s));
    for (const QString& name : schemaDir.entryList({ u"*.json"_s }, QDir::Files, QDir::Name))
        schemaPaths.insert(u"schemas/"_s + name);
    if (const auto manifest = files.find(kManifest); manifest != files.end()) {
        json doc;
        QString ignored; // the loader reports manifest errors with their location
        JsonLocation where;
        parseLocated(
            std::string_view(manifest->second.constData(), std::size_t(manifest->second.size())), doc, ignored, where);
        if (doc.is_object() && doc.contains("schemas") && doc["schemas"].is_object()) {
            for (const auto& [name, path] : doc["schemas"].items()) {
                if (!path.is_string())
                    continue;
                const QString relative = QDir::cleanPath(qs(path.get<std::string>()));
                if (!relative.isEmpty() && !QDir::isAbsolutePath(relative) && !relative.startsWith(u".."_s))
                    schemaPaths.insert(relative);
            }
        }
    }
    for (const QString& path : std::as_const(schemaPaths))
        readOne(path);
    return files;
}

SuiteLoadResult loadSuiteDir(const QString& dir)
{
    Problems readProblems;
    const SuiteFiles files = readSuiteFiles(dir, readProblems);
    SuiteLoadResult result = loadSuite(files, QFileInfo(dir).absoluteFilePath());
    if (!readProblems.isEmpty()) {
        result.problems = readProblems + result.problems;
        result.suite.reset();
    }
    return result;
}

} // namespace structscope
