#include "io/sobimporter.h"

#include "json/jsontext.h"
#include "store/resultstore.h"
#include "util/sha256.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

const json& sobManifest()
{
    static const json manifest = {
        { "id", "sob" },
        { "name", "SOB import" },
        { "version", "1" },
        { "families", { "ladder", "grounding" } },
        { "options", { { "validate_formats", false }, { "array_matching", "ordered" } } },
        { "source", "sob" },
    };
    return manifest;
}

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

std::string typeName(const json& value)
{
    return value.type_name();
}

/// Equality that keeps what SOB's `perfect` tells apart: 1 ≠ 1.0, 0.0 ≠ -0.0.
bool sameJson(const json& a, const json& b)
{
    return sameStructureJson(a, b, [](const json& x, const json& y) {
        const bool xInt = x.is_number_integer(); // signed and unsigned
        const bool yInt = y.is_number_integer();
        if (xInt || yInt)
            return xInt && yInt && x == y;
        if (x.type() != y.type())
            return false;
        if (x.is_number_float()) {
            const double u = x.get<double>();
            const double v = y.get<double>();
            return u == v && std::signbit(u) == std::signbit(v);
        }
        return x == y;
    });
}

/// Text of a JSON string or integer id; empty for anything else.
QString idText(const json& value)
{
    if (value.is_string())
        return qs(value.get_ref<const std::string&>()).trimmed();
    if (value.is_number_integer())
        return qs(value.dump());
    return {};
}

/// The first of `names` found in `objects` (each an object or null), as a non-negative number.
std::optional<double> findNumber(const std::vector<const json*>& objects, std::initializer_list<const char*> names)
{
    for (const json* object : objects) {
        for (const char* name : names) {
            const auto it = object->find(name);
            if (it != object->end()) {
                if (auto number = nonNegativeNumber(*it))
                    return number;
            }
        }
    }
    return std::nullopt;
}

std::optional<qint64> findInteger(const std::vector<const json*>& objects, std::initializer_list<const char*> names)
{
    for (const json* object : objects) {
        for (const char* name : names) {
            const auto it = object->find(name);
            if (it != object->end()) {
                if (auto number = nonNegativeInteger(*it))
                    return number;
            }
        }
    }
    return std::nullopt;
}

struct CaseEntry
{
    CaseImport data;
    std::string context; ///< UTF-8, for telling a later line of the record apart
    qsizetype file = 0;
    qint64 line = 0;
};

struct RunEntry
{
    QString model;
    qsizetype file = 0;
    Modality modality = Modality::Text;
    int repeats = 1;
};

/// One accepted line, held until the suite (and so the case rows) is stored.
struct PendingResponse
{
    int run = 0;
    int caseIndex = 0;
    int repeat = 0;
    std::string rawText;
    std::optional<double> latencyMs;
    std::optional<qint64> tokensIn;
    std::optional<qint64> tokensOut;
    std::optional<double> cost;
    json candidate; ///< read without a store (readSobFiles): the candidate itself instead of its text
};

class SobImport
{
public:
    /// Without a store (nullptr), read() holds the records instead of run() storing them.
    SobImport(ResultStore* store, const QStringList& files, const SobImportOptions& options)
        : m_store(store)
        , m_files(files)
        , m_options(options)
        , m_progress(options.progress, totalBytes(files) * (store ? 2 : 1)) // storing is a second pass
    {
        m_summary.files = int(files.size());
    }

    ImportSummary run()
    {
        for (qsizetype i = 0; i < m_files.size() && !m_progress.cancelled(); ++i)
            readFile(i);
        if (m_progress.cancelled()) {
            m_summary.cancelled = true;
            return std::move(m_summary);
        }
        if (!m_cases.empty() && storeSuite() && createRuns())
            writeResponses();
        finishRuns(*m_store, m_summary);
        return std::move(m_summary);
    }

    /// Reads the files as run() does and hands over what it would store.
    SobRecords read()
    {
        for (qsizetype i = 0; i < m_files.size() && !m_progress.cancelled(); ++i)
            readFile(i);
        SobRecords out;
        if (m_progress.cancelled()) {
            m_summary.cancelled = true;
            out.summary = std::move(m_summary);
            return out;
        }
        const std::vector<int> order = caseOrder();
        std::vector<int> placeOf(m_cases.size());
        out.cases.reserve(order.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            placeOf[std::size_t(order[i])] = int(i);
            out.cases.push_back(std::move(m_cases[std::size_t(order[i])].data));
        }
        for (const RunEntry& entry : m_runs)
            out.runs.push_back({ entry.model, QFileInfo(m_files.at(entry.file)).fileName(), entry.modality,
                entry.repeats });
        out.responses.reserve(m_pending.size());
        for (PendingResponse& p : m_pending)
            out.responses.push_back({ p.run, placeOf[std::size_t(p.caseIndex)], p.repeat, std::move(p.candidate),
                p.latencyMs, p.cost });
        out.strategy = strategy();
        out.manifest = sobManifest();
        m_progress.update(m_bytesBefore, true);
        m_summary.cases = qint64(out.cases.size());
        m_summary.responses = qint64(out.responses.size());
        out.summary = std::move(m_summary);
        return out;
    }

private:
    static qint64 totalBytes(const QStringList& files)
    {
        qint64 total = 0;
        for (const QString& file : files)
            total += std::max<qint64>(0, QFileInfo(file).size());
        return total;
    }

    void problem(const QString& file, qint64 line, const QString& pointer, const QString& message, bool warning = false)
    {
        m_summary.problems.append(lineProblem(file, line, pointer, message, warning));
    }

    void malformed(const QString& file, qint64 line, const QString& pointer, const QString& message)
    {
        ++m_summary.malformed;
        problem(file, line, pointer, message);
    }

    /// One line read ahead of its processing; the batch's lines are parsed in parallel, then processed in order.
    struct PendingLine
    {
        qint64 number = 0;
        qint64 position = 0; ///< bytes of the file up to its end (progress)
        bool tooLong = false;
        std::string text;
        bool parsed = false;
        json record;
        Problems problems; ///< of its parse
    };

    void readFile(qsizetype fileIndex)
    {
        const QString& path = m_files.at(fileIndex);
        if (!firstMention(path, m_seenFiles, m_summary.problems))
            return;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            problem(path, 0, {}, u"cannot open the file: "_s + file.errorString());
            return;
        }
        const Modality modality = m_options.modality ? *m_options.modality : inferSobModality(path.toStdString());
        LineReader reader(file, m_options.limits.maxLineBytes);
        // Parsing is most of reading (and independent per line): a batch of lines is parsed on the thread pool, then
        // processed in file order, so problems, cases and responses come out exactly as one line at a time would.
        constexpr std::size_t kBatchLines = 512;
        constexpr std::size_t kBatchBytes = 16u * 1024u * 1024u;
        std::vector<PendingLine> batch;
        bool stop = false;
        while (!stop) {
            batch.clear();
            std::size_t bytes = 0;
            bool readError = false;
            std::string_view text;
            while (batch.size() < kBatchLines && bytes < kBatchBytes) {
                const LineReader::Status status = reader.next(text);
                if (status == LineReader::Status::End) {
                    stop = true;
                    break;
                }
                if (status == LineReader::Status::Error) {
                    readError = stop = true;
                    break;
                }
                PendingLine& line = batch.emplace_back();
                line.number = reader.lineNumber();
                line.position = reader.position();
                line.tooLong = status == LineReader::Status::TooLong;
                if (!line.tooLong) {
                    line.text.assign(text);
                    bytes += text.size();
                }
            }
            QtConcurrent::blockingMap(batch, [this, &path](PendingLine& line) {
                if (!line.tooLong && !isBlank(line.text))
                    line.parsed
                        = parseImportLine(line.text, path, line.number, m_options.limits, line.record, line.problems);
            });
            for (PendingLine& line : batch) {
                if (line.tooLong) {
                    ++m_summary.lines;
                    malformed(path, line.number, {},
                        u"the line is longer than %1 bytes; skipped"_s.arg(m_options.limits.maxLineBytes));
                } else if (!isBlank(line.text)) {
                    ++m_summary.lines;
                    m_summary.problems.append(line.problems);
                    if (line.parsed)
                        readRecord(line.record, fileIndex, modality, line.number);
                    else
                        ++m_summary.malformed;
                }
                line.record = nullptr;
                if (!m_progress.update(m_bytesBefore + line.position)) {
                    stop = true;
                    break;
                }
            }
            if (readError)
                problem(path, reader.lineNumber() + 1, {}, u"cannot read the file: "_s + reader.errorString());
        }
        m_bytesBefore += reader.position();
    }

    static bool isBlank(std::string_view text)
    {
        return text.find_first_not_of(" \t\r\f\v") == std::string_view::npos;
    }

    void readRecord(json& record, qsizetype fileIndex, Modality modality, qint64 line)
    {
        const QString& path = m_files.at(fileIndex);
        if (!record.is_object())
            return malformed(path, line, {}, qs("a SOB record is a JSON object, not " + typeName(record)));

        // Required fields, checked in a fixed order: one problem per line, naming the first missing field.
        const auto metadataIt = record.find("metadata");
        if (metadataIt == record.end() || !metadataIt->is_object())
            return malformed(path, line, u"/metadata"_s,
                metadataIt == record.end() ? u"missing: a SOB record needs metadata.record_id and metadata.model_id"_s
                                           : qs("must be an object, not " + typeName(*metadataIt)));
        json& metadata = *metadataIt;
        const auto recordIdIt = metadata.find("record_id");
        const QString recordId = recordIdIt == metadata.end() ? QString() : idText(*recordIdIt);
        if (recordId.isEmpty())
            return malformed(path, line, u"/metadata/record_id"_s,
                recordIdIt == metadata.end() ? u"missing: every SOB record needs an id"_s
                                             : u"must be a non-empty string"_s);
        const auto modelIt = metadata.find("model_id");
        const QString model = modelIt != metadata.end() && modelIt->is_string()
            ? qs(modelIt->get_ref<const std::string&>()).trimmed()
            : QString();
        if (model.isEmpty())
            return malformed(path, line, u"/metadata/model_id"_s,
                modelIt == metadata.end() ? u"missing: every SOB record names the model that answered"_s
                                          : u"must be a non-empty string"_s);

        const auto inputIt = record.find("input");
        if (inputIt != record.end() && !inputIt->is_object())
            return malformed(path, line, u"/input"_s, qs("must be an object, not " + typeName(*inputIt)));
        if (inputIt == record.end() || !inputIt->contains("json_schema"))
            return malformed(path, line, u"/input/json_schema"_s, u"missing: every SOB record carries its schema"_s);
        const auto outputIt = record.find("output");
        if (outputIt != record.end() && !outputIt->is_object())
            return malformed(path, line, u"/output"_s, qs("must be an object, not " + typeName(*outputIt)));
        if (outputIt == record.end() || !outputIt->contains("ground_truth"))
            return malformed(
                path, line, u"/output/ground_truth"_s, u"missing: every SOB record carries its ground truth"_s);

        json& input = *inputIt;
        json& output = *outputIt;
        json& schema = input["json_schema"];
        json& gold = output["ground_truth"];
        // The context as text (a context that is not a string as its JSON text), UTF-8: compared, not copied, for a
        // record seen before; a new case's input is made from it.
        const auto contextIt = input.find("context");
        static const std::string noContext;
        std::string contextDump;
        if (contextIt != input.end() && !contextIt->is_null() && !contextIt->is_string())
            contextDump = contextIt->dump(-1, ' ', false, json::error_handler_t::replace);
        const std::string& context = contextIt == input.end() || contextIt->is_null() ? noContext
            : contextIt->is_string()                                                  ? contextIt->get_ref<const std::string&>()
                                                                                      : contextDump;
        const auto questionIt = input.find("question");
        const std::optional<QString> question = questionIt == input.end() || questionIt->is_null()
            ? std::nullopt
            : std::optional<QString>(jsonAsText(*questionIt));

        int caseIndex = 0;
        bool isNew = false;
        if (const auto known = m_caseIndex.constFind(recordId); known != m_caseIndex.cend()) {
            caseIndex = known.value();
            const CaseEntry& first = m_cases[std::size_t(caseIndex)];
            QStringList differences;
            if (first.context != context)
                differences << u"context"_s;
            if (first.data.question != question)
                differences << u"question"_s;
            if (!sameJson(first.data.extra["schema"], schema))
                differences << u"schema"_s;
            if (!sameJson(first.data.gold, gold))
                differences << u"ground truth"_s;
            if (!differences.isEmpty()) {
                ++m_summary.skipped;
                return problem(path, line, u"/metadata/record_id"_s,
                    u"record \"%1\" has another %2 than at %3:%4; this line is skipped"_s.arg(
                        recordId, differences.join(u", "_s), m_files.at(first.file), QString::number(first.line)));
            }
        } else {
            caseIndex = int(m_cases.size());
            isNew = true;
        }

        const int run = runIndex(model, fileIndex, modality);
        int& seen = m_occurrences[(quint64(quint32(run)) << 32) | quint32(caseIndex)];
        const int repeat = seen++;
        if (repeat > 0) {
            m_runs[std::size_t(run)].repeats = std::max(m_runs[std::size_t(run)].repeats, repeat + 1);
            problem(path, line, u"/metadata/record_id"_s,
                u"record \"%1\" appears again for model %2 in this file; stored as repeat %3"_s.arg(
                    recordId, model, QString::number(repeat)),
                true);
        }

        PendingResponse response;
        response.run = run;
        response.caseIndex = caseIndex;
        response.repeat = repeat;
        const auto candidateIt = output.find("candidate_response");
        if (candidateIt == output.end()) {
            if (m_store)
                response.rawText = "null";
            problem(path, line, u"/output/candidate_response"_s,
                u"missing: stored as null (a candidate that did not parse)"_s, true);
        } else if (m_store) {
            response.rawText = candidateIt->dump(-1, ' ', false, json::error_handler_t::replace);
        } else {
            response.candidate = std::move(*candidateIt);
        }
        readUsage(record, metadata, response);
        m_pending.push_back(std::move(response));
        ++m_summary.records;

        if (isNew) {
            // Last use of the line: its parts move into the case.
            m_caseIndex.insert(recordId, caseIndex);
            m_cases.push_back(makeCase(recordId, modality, context, question, record, metadata, schema, gold));
            m_cases.back().file = fileIndex;
            m_cases.back().line = line;
            m_caseIds.push_back(recordId.toStdString());
        }
    }

    /// Takes metadata, schema, gold and eval_info out of `record`.
    CaseEntry makeCase(const QString& recordId, Modality modality, const std::string& context,
        const std::optional<QString>& question, json& record, json& metadata, json& schema, json& gold)
    {
        CaseEntry entry;
        entry.context = context;
        CaseImport& c = entry.data;
        c.id = recordId;
        const auto categoryIt = metadata.find("category");
        c.category = categoryIt != metadata.end() && categoryIt->is_string()
                && !categoryIt->get_ref<const std::string&>().empty()
            ? qs(categoryIt->get_ref<const std::string&>())
            : QString::fromLatin1(modalityId(modality));
        const RecordWeight weight = sobRecordWeight(metadata);
        c.tier = weight.weight > 0 ? qs(weight.tier) : QString();
        // Read without a store, the input is left empty: scoring never reads it (a SOB case's context is most of it).
        if (m_store) {
            const QString contextText = QString::fromStdString(context);
            if (contextText.isEmpty() || !question)
                c.input = question ? *question : contextText;
            else
                c.input = contextText % u"\n\n"_s % *question;
        }
        c.question = question;
        c.gold = std::move(gold);
        c.extra = json::object();
        c.extra["schema"] = std::move(schema);
        metadata.erase("model_id");
        c.extra["metadata"] = std::move(metadata);
        if (const auto evalIt = record.find("eval_info"); evalIt != record.end())
            c.extra["eval_info"] = std::move(*evalIt);
        return entry;
    }

    static void readUsage(const json& record, const json& metadata, PendingResponse& response)
    {
        std::vector<const json*> objects;
        const auto add = [&objects](const json& parent, const char* key) {
            const auto it = parent.find(key);
            if (it != parent.end() && it->is_object())
                objects.push_back(&*it);
        };
        add(record, "eval_info");
        objects.push_back(&metadata);
        const std::size_t direct = objects.size();
        for (std::size_t i = 0; i < direct; ++i)
            add(*objects[i], "usage");

        response.latencyMs = findNumber(objects, { "latency_ms", "response_time_ms", "duration_ms" });
        if (!response.latencyMs) {
            if (auto seconds = findNumber(objects, { "latency_s", "latency_seconds" }))
                response.latencyMs = *seconds * 1000.0;
        }
        response.tokensIn = findInteger(objects, { "tokens_in", "input_tokens", "prompt_tokens" });
        response.tokensOut = findInteger(objects, { "tokens_out", "output_tokens", "completion_tokens" });
        response.cost = findNumber(objects, { "cost", "cost_usd" });
    }

    int runIndex(const QString& model, qsizetype fileIndex, Modality modality)
    {
        const QString key = QString::number(fileIndex) % u"\n"_s % model;
        if (const auto it = m_runIndex.constFind(key); it != m_runIndex.cend())
            return it.value();
        RunEntry entry;
        entry.model = model;
        entry.file = fileIndex;
        entry.modality = modality;
        m_runs.push_back(entry);
        const int index = int(m_runs.size() - 1);
        m_runIndex.insert(key, index);
        return index;
    }

    /// The cases' indexes in record-id order: the order of the suite's cases.
    std::vector<int> caseOrder() const
    {
        std::vector<int> order(m_cases.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = int(i);
        std::sort(order.begin(), order.end(),
            [this](int a, int b) { return m_cases[std::size_t(a)].data.id < m_cases[std::size_t(b)].data.id; });
        return order;
    }

    QString strategy() const
    {
        return m_options.strategy.trimmed().isEmpty() ? u"imported"_s : m_options.strategy.trimmed();
    }

    bool storeSuite()
    {
        const std::vector<int> order = caseOrder();

        SuiteImport suite;
        suite.id = u"sob"_s;
        suite.name = u"SOB import"_s;
        suite.version = u"1"_s;
        suite.manifest = sobManifest();
        suite.author = m_options.author;
        suite.cases.reserve(qsizetype(order.size()));
        Sha256 hash; // over the cases' whole text: several times faster than QCryptographicHash here
        std::string canonical;
        hash.addData("[");
        for (std::size_t i = 0; i < order.size(); ++i) {
            CaseImport& c = m_cases[std::size_t(order[i])].data;
            canonical.clear();
            if (i > 0)
                canonical += ',';
            appendCanonicalCase(canonical, c);
            hash.addData(canonical);
            suite.cases.append(std::move(c));
        }
        hash.addData("]");
        suite.contentHash = QString::fromLatin1(hash.result().toHex());
        storeSchemasOnce(suite);

        const auto caseRows = storeSuiteCases(*m_store, suite, m_summary);
        if (!caseRows)
            return false;
        const QHash<QString, qint64>& rows = *caseRows;
        m_caseRows.resize(m_cases.size());
        for (const auto& [id, index] : m_caseIndex.asKeyValueRange()) {
            const qint64 row = rows.value(id);
            if (row <= 0) {
                m_summary.storeError = StoreError { StoreErrorKind::Corrupt,
                    u"the stored suite %1 has no case \"%2\" although its content hash matches"_s.arg(
                        m_summary.suite.contentHash, id) };
                return false;
            }
            m_caseRows[std::size_t(index)] = row;
        }
        return true;
    }

    /// Each distinct schema document goes into the suite's manifest once (`schema_documents`, with a file name under
    /// `schemas` for a rebuilt suite folder), and its cases name it, as a native suite's cases do. SOB records each
    /// carry a copy of one of a few hundred schemas: stored per case, the copies were a third of the case rows, and
    /// scoring parsed, hashed and compared every copy to find the few it compiles. The content hash is taken
    /// before, over the records as they came, so a file imported by an earlier version still finds its suite.
    /// Only objects move: `true`/`false` and values that are no schema stay inline, where scoring reads them as
    /// before.
    static void storeSchemasOnce(SuiteImport& suite)
    {
        json documents = json::object();
        json files = json::object();
        std::unordered_map<std::string, std::string> nameOfText; // the document's exact dump → its name
        for (CaseImport& c : suite.cases) {
            const auto schema = c.extra.find("schema");
            if (schema == c.extra.end() || !schema->is_object())
                continue;
            // Exact, as sameJson: 1 and 1.0, 0.0 and -0.0 dump differently and stay two documents.
            auto [known, isNew] = nameOfText.try_emplace(schema->dump(-1, ' ', false, json::error_handler_t::replace));
            if (isNew) {
                const std::string base = "sob-" + Sha256::hash(known->first).toHex().left(16).toStdString();
                std::string name = base;
                for (int n = 2; documents.contains(name); ++n) // another document with these 64 bits
                    name = base + '-' + std::to_string(n);
                known->second = name;
                files[name] = "schemas/" + name + ".json";
                documents[name] = std::move(*schema);
            }
            c.schemaName = QString::fromStdString(known->second);
            c.extra.erase(schema);
        }
        if (!documents.empty()) {
            suite.manifest["schemas"] = std::move(files);
            suite.manifest["schema_documents"] = std::move(documents);
        }
    }

    /// Appends the case as its compact dump with sorted keys would read, without copying its fields.
    static void appendCanonicalCase(std::string& out, const CaseImport& c)
    {
        const auto text = [&out](const QString& s) {
            const QByteArray utf8 = s.toUtf8();
            appendJsonString(out, std::string_view(utf8.constData(), std::size_t(utf8.size())));
        };
        out += "{\"category\":";
        text(c.category);
        out += ",\"extra\":";
        appendCanonicalJson(out, c.extra);
        out += ",\"gold\":";
        appendCanonicalJson(out, c.gold);
        out += ",\"id\":";
        text(c.id);
        out += ",\"input\":";
        text(c.input);
        out += ",\"question\":";
        if (c.question)
            text(*c.question);
        else
            out += "null";
        out += ",\"tier\":";
        text(c.tier);
        out += '}';
    }

    bool createRuns()
    {
        const QString strategy = this->strategy();
        for (const RunEntry& entry : m_runs) {
            RunRecord run;
            run.suiteRow = m_summary.suite.row;
            run.modelSpec = u"import:"_s + entry.model;
            run.providerKind = u"import"_s;
            run.strategy = strategy;
            run.repeats = entry.repeats;
            run.settings = { { "import_format", "sob" }, { "modality", modalityId(entry.modality) },
                { "source_file", QFileInfo(m_files.at(entry.file)).fileName().toStdString() } };
            run.status = RunStatus::Running;
            auto created = m_store->createRun(run);
            if (!created) {
                m_summary.storeError = created.error();
                return false;
            }
            m_summary.runIds.append(created->id);
        }
        return true;
    }

    void writeResponses()
    {
        const qint64 readBytes = m_bytesBefore;
        const qsizetype batchSize = std::max(1, m_options.limits.batchSize);
        QList<ResponseRecord> batch;
        batch.reserve(std::min<qsizetype>(batchSize, qsizetype(m_pending.size())));
        for (std::size_t i = 0; i < m_pending.size(); ++i) {
            PendingResponse& p = m_pending[i];
            const RunEntry& runEntry = m_runs[std::size_t(p.run)];
            ResponseRecord r;
            r.runId = m_summary.runIds.at(p.run);
            r.caseRow = m_caseRows[std::size_t(p.caseIndex)];
            r.repeat = p.repeat;
            r.requestHash = importRequestHash(
                json::array({ runEntry.model.toStdString(), m_caseIds[std::size_t(p.caseIndex)], p.repeat }));
            r.rawText = QString::fromStdString(p.rawText);
            std::string().swap(p.rawText);
            r.latencyMs = p.latencyMs;
            r.tokensIn = p.tokensIn;
            r.tokensOut = p.tokensOut;
            r.cost = p.cost;
            r.costSource = p.cost ? CostSource::Provider : CostSource::None;
            batch.append(std::move(r));
            if (batch.size() >= batchSize) {
                if (!flushResponses(*m_store, batch, m_summary))
                    return;
                const double written = double(i + 1) / double(m_pending.size());
                if (!m_progress.update(readBytes + qint64(written * double(readBytes)))) {
                    m_summary.cancelled = true;
                    return;
                }
            }
        }
        if (flushResponses(*m_store, batch, m_summary))
            m_progress.update(2 * readBytes, true);
    }

    ResultStore* m_store = nullptr; ///< none: read() only
    const QStringList& m_files;
    const SobImportOptions& m_options;
    ProgressTracker m_progress;
    ImportSummary m_summary;
    qint64 m_bytesBefore = 0;

    std::vector<CaseEntry> m_cases; ///< their CaseImport moves into the suite once it is stored
    std::vector<std::string> m_caseIds; ///< UTF-8 record ids, by case index
    QHash<QString, int> m_caseIndex;
    std::vector<qint64> m_caseRows;
    std::vector<RunEntry> m_runs;
    QHash<QString, int> m_runIndex;
    QHash<quint64, int> m_occurrences;
    std::vector<PendingResponse> m_pending;
    QSet<QString> m_seenFiles;
};

} // namespace

ImportSummary importSobFiles(ResultStore& store, const QStringList& files, const SobImportOptions& options)
{
    return SobImport(&store, files, options).run();
}

SobRecords readSobFiles(const QStringList& files, const SobImportOptions& options)
{
    return SobImport(nullptr, files, options).read();
}

} // namespace structscope
