// SPDX-License-Identifier: Apache-2.0
#include "io/sobimporter.h"

#include "store/resultstore.h"
#include "util/sha256.h"
#include "json/jsontext.h"
#include "json/parseladder.h"

#include <QFile>
#include <QFileInfo>
#include <QFuture>
#include <QHash>
#include <QSet>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
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
    /// Index of the case's schema among the import's distinct ones (SchemaEntry) when it is an object; -1: the schema
    /// is inline, in data.extra["schema"].
    int schema = -1;
    /// Entry of the gold's text among the import's distinct ones (GoldEntry) when its first line was parsed apart;
    /// -1: none. A later line whose gold has the same text has the same gold.
    int gold = -1;
    bool categoryFromModality = false; ///< no line of the record named a category yet
};

/// The category a SOB record names: `metadata.category`, else `metadata.source_category` (the document source
/// SOB's image and text sets carry: tables, multi_column, old_scans, …); nullopt when it names none.
std::optional<QString> sobCategory(const json& metadata)
{
    for (const char* key : { "category", "source_category" }) {
        const auto it = metadata.find(key);
        if (it != metadata.end() && it->is_string() && !it->get_ref<const std::string&>().empty())
            return QString::fromStdString(it->get_ref<const std::string&>());
    }
    return std::nullopt;
}

/// A distinct schema document of an import (the records carry copies of a few hundred), built once.
struct SchemaEntry
{
    json document;
    std::string canonical; ///< appendCanonicalJson of it, once asked for (the suite's content hash)
};

/// Hashes std::string keys and std::string_view lookups alike.
struct TextHash
{
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view> {}(text); }
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
    /// The entry (SchemaEntry) of the schema the line carries when it is not its case's: the schema the model was
    /// asked with. -1: the case's.
    int askedSchema = -1;
};

class SobImport
{
public:
    /// Without a store (nullptr), read() holds the records instead of run() storing them.
    SobImport(ResultStore* store, const QStringList& files, const SobImportOptions& options)
        : m_store(store)
        , m_files(files)
        , m_options(options)
        , m_progress(options.progress, totalFileBytes(files) * (store ? 2 : 1)) // storing is a second pass
    {
        m_summary.files = int(files.size());
    }

    ImportSummary run()
    {
        return readThenStore(
            m_files.size(), m_progress, m_summary, *m_store, [this](qsizetype i) { readFile(i); },
            [this] {
                collectAskedSchemas();
                if (!m_cases.empty() && storeSuite() && createRuns() && storeAskedSchemas())
                    writeResponses();
            });
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
        collectAskedSchemas();
        out.askedSchemas = std::move(m_askedDocuments);
        const std::vector<int> order = caseOrder();
        std::vector<int> placeOf(m_cases.size());
        std::vector<int> schemaOf(order.size());
        out.cases.reserve(order.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            placeOf[std::size_t(order[i])] = int(i);
            CaseEntry& entry = m_cases[std::size_t(order[i])];
            out.cases.push_back(std::move(entry.data));
            schemaOf[i] = entry.schema;
        }
        out.manifest = sobManifest();
        nameSchemas(out.cases, schemaOf, out.manifest);
        for (const RunEntry& entry : m_runs)
            out.runs.push_back(
                { entry.model, QFileInfo(m_files.at(entry.file)).fileName(), entry.modality, entry.repeats });
        out.responses.reserve(m_pending.size());
        for (PendingResponse& p : m_pending)
            out.responses.push_back({ p.run, placeOf[std::size_t(p.caseIndex)], p.repeat, std::move(p.candidate),
                p.latencyMs, p.cost, p.askedSchema });
        out.strategy = strategy();
        m_progress.update(m_bytesBefore, true);
        m_summary.cases = qint64(out.cases.size());
        m_summary.responses = qint64(out.responses.size());
        out.summary = std::move(m_summary);
        return out;
    }

private:
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
        std::string text;
        json record;
        /// Parsed without its schema (sobdetail::parseWithoutSchema, `schemaApart`): input.json_schema is null in
        /// `record`, its value at `schema` in `text`. A schema text not known when the line was parsed is parsed
        /// with it, on the pool (a file whose records each have their own schema parses them all in parallel), into
        /// `schemaValue` (`schemaTried`, `schemaParsed`).
        sobdetail::ValueSpan schema;
        json schemaValue;
        /// Parsed apart, the gold's bytes when they were left out too (output.ground_truth null in `record`); an
        /// unknown gold text is parsed on the pool, as an unknown schema text is (`goldTried`, `goldParsed`).
        std::optional<sobdetail::ValueSpan> gold;
        json goldValue;
        Problems problems; ///< of its parse
        bool tooLong = false;
        bool parsed = false;
        bool schemaApart = false;
        bool schemaTried = false;
        bool schemaParsed = false;
        bool goldTried = false;
        bool goldParsed = false;
    };

    /// Lines read ahead of their processing, parsed on the pool.
    struct Batch
    {
        std::vector<PendingLine> lines;
        bool last = false; ///< the file ends (or cannot be read further) after these lines
        bool readError = false;
        qint64 errorLine = 0; ///< the line that could not be read
        QString error;
    };

    /// Waits for a batch's parse before its lines go, whatever leaves the scope.
    struct ParseGuard
    {
        QFuture<void> future;
        bool started = false;
        void wait()
        {
            if (started)
                future.waitForFinished();
            started = false;
        }
        ~ParseGuard() { wait(); }
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
        // Parsing is most of reading (and independent per line): a batch of lines is parsed on the thread pool while
        // this thread processes the batch before, in file order, so problems, cases and responses come out exactly as
        // one line at a time would.
        Batch batches[2];
        Batch* current = &batches[0];
        Batch* next = &batches[1];
        ParseGuard parsing;
        ParseGuard parsingNext;
        fillBatch(reader, *current);
        startParse(parsing, *current, path);
        for (;;) {
            parsing.wait();
            if (!current->last) {
                fillBatch(reader, *next);
                startParse(parsingNext, *next, path);
            }
            if (!processBatch(*current, fileIndex, modality) || current->last)
                break;
            std::swap(current, next);
            std::swap(parsing, parsingNext);
        }
        parsingNext.wait();
        m_bytesBefore += reader.position();
    }

    static void fillBatch(LineReader& reader, Batch& batch)
    {
        constexpr std::size_t kBatchLines = 512;
        constexpr std::size_t kBatchBytes = std::size_t(16) * 1024 * 1024;
        batch.lines.clear();
        std::size_t bytes = 0;
        std::string_view text;
        while (batch.lines.size() < kBatchLines && bytes < kBatchBytes) {
            const LineReader::Status status = reader.next(text);
            if (status == LineReader::Status::End) {
                batch.last = true;
                return;
            }
            if (status == LineReader::Status::Error) {
                batch.last = batch.readError = true;
                batch.errorLine = reader.lineNumber() + 1;
                batch.error = reader.errorString();
                return;
            }
            PendingLine& line = batch.lines.emplace_back();
            line.number = reader.lineNumber();
            line.position = reader.position();
            line.tooLong = status == LineReader::Status::TooLong;
            if (!line.tooLong) {
                line.text.assign(text);
                bytes += text.size();
            }
        }
    }

    void startParse(ParseGuard& guard, Batch& batch, const QString& path)
    {
        guard.future = QtConcurrent::map(batch.lines, [this, &path](PendingLine& line) {
            if (line.tooLong || isBlank(line.text))
                return;
            const ImportLimits& limits = m_options.limits;
            line.schemaApart = sobdetail::parseWithoutSchema(line.text, limits.maxDepth,
                std::size_t(std::max<qsizetype>(0, limits.maxLineBytes)), line.record, line.schema, &line.gold);
            if (line.schemaApart) {
                const std::string_view schema = schemaText(line);
                bool knownSchema = false;
                bool knownGold = !line.gold;
                {
                    const std::lock_guard lock(m_textMutex);
                    knownSchema = m_schemaByText.find(schema) != m_schemaByText.end();
                    if (!knownGold)
                        knownGold = m_goldByText.find(goldText(line)) != m_goldByText.end();
                }
                if (!knownSchema) {
                    line.schemaTried = true;
                    line.schemaParsed = parseSchemaText(schema, line.schemaValue);
                }
                if (!knownGold) {
                    line.goldTried = true;
                    line.goldParsed = parseSchemaText(goldText(line), line.goldValue);
                }
            }
            line.parsed
                = line.schemaApart || parseImportLine(line.text, path, line.number, limits, line.record, line.problems);
        });
        guard.started = true;
    }

    /// Takes a parsed batch's lines in order; false when cancelled.
    bool processBatch(Batch& batch, qsizetype fileIndex, Modality modality)
    {
        const QString& path = m_files.at(fileIndex);
        for (PendingLine& line : batch.lines) {
            if (line.tooLong) {
                ++m_summary.lines;
                malformed(path, line.number, {},
                    u"the line is longer than %1 bytes; skipped"_s.arg(m_options.limits.maxLineBytes));
            } else if (!isBlank(line.text)) {
                ++m_summary.lines;
                int schema = -1;
                int gold = -1;
                if (line.parsed && line.schemaApart) {
                    if (line.gold)
                        gold = goldOf(line);
                    if (!line.gold || gold >= 0)
                        schema = schemaOf(line);
                    if (schema < 0) { // bytes left out do not parse, so neither does the line: its parse says where
                        gold = -1;
                        line.parsed = parseImportLine(
                            line.text, path, line.number, m_options.limits, line.record, line.problems);
                    }
                }
                m_summary.problems.append(line.problems);
                if (line.parsed)
                    readRecord(line.record, schema, gold, fileIndex, modality, line.number);
                else
                    ++m_summary.malformed;
            }
            line.record = nullptr;
            if (!m_progress.update(m_bytesBefore + line.position))
                return false;
        }
        if (batch.readError)
            problem(path, batch.errorLine, {}, u"cannot read the file: "_s + batch.error);
        return true;
    }

    static bool isBlank(std::string_view text) { return text.find_first_not_of(" \t\r\f\v") == std::string_view::npos; }

    /// A line's schema (or gold) text parsed on its own: two levels deep in its line, it has two levels less of the
    /// limit.
    bool parseSchemaText(std::string_view text, json& out) const
    {
        return parseJsonText(text, m_options.limits.maxDepth - 2, out).ok;
    }

    static std::string_view schemaText(const PendingLine& line)
    {
        return std::string_view(line.text).substr(line.schema.begin, line.schema.end - line.schema.begin);
    }

    static std::string_view goldText(const PendingLine& line)
    {
        return std::string_view(line.text).substr(line.gold->begin, line.gold->end - line.gold->begin);
    }

    using TextTable = std::unordered_map<std::string, int, TextHash, std::equal_to<>>;

    /// The entry of a part a line parsed apart carries (its schema or its gold), by its JSON text as it came: found in
    /// `byText`, or the pool's parse of it (`tried`, `parsed`, `value`) or one here, added with `add` the first time;
    /// -1 when the text does not parse. Only this thread adds entries: it reads the tables without the lock the pool's
    /// lookups take.
    template <typename Add>
    int entryOf(std::string_view text, bool tried, bool parsed, json& value, TextTable& byText, const Add& add)
    {
        if (const auto known = byText.find(text); known != byText.end())
            return known->second;
        json document;
        if (tried) {
            if (!parsed)
                return -1;
            document = std::move(value);
        } else if (!parseSchemaText(text, document)) {
            return -1;
        }
        const int index = add(std::move(document));
        const std::lock_guard lock(m_textMutex);
        byText.emplace(std::string(text), index);
        return index;
    }

    int goldOf(PendingLine& line)
    {
        return entryOf(goldText(line), line.goldTried, line.goldParsed, line.goldValue, m_goldByText, [this](json&& d) {
            m_golds.push_back({ std::move(d), -1 });
            return int(m_golds.size() - 1);
        });
    }

    int schemaOf(PendingLine& line)
    {
        return entryOf(schemaText(line), line.schemaTried, line.schemaParsed, line.schemaValue, m_schemaByText,
            [this](json&& d) { return addSchema(std::move(d)); });
    }

    /// The gold of entry `index`: its document until a case takes it, then that case's.
    const json& goldDocument(int index) const
    {
        const GoldEntry& entry = m_golds[std::size_t(index)];
        return entry.home >= 0 ? m_cases[std::size_t(entry.home)].data.gold : entry.document;
    }

    int addSchema(json&& document)
    {
        m_schemas.push_back({ std::move(document), {} });
        return int(m_schemas.size() - 1);
    }

    /// What the case's records carry as input.json_schema.
    const json& schemaOfCase(const CaseEntry& c) const
    {
        if (c.schema >= 0)
            return m_schemas[std::size_t(c.schema)].document;
        static const json none;
        const auto inlineSchema = c.data.extra.find("schema");
        return inlineSchema == c.data.extra.end() ? none : *inlineSchema;
    }

    /// `schemaEntry`: the entry of the line's schema when it was parsed apart (input.json_schema is then null in
    /// `record`), -1 when it is in `record`; `goldEntry` likewise for output.ground_truth.
    void readRecord(json& record, int schemaEntry, int goldEntry, qsizetype fileIndex, Modality modality, qint64 line)
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
        json& schemaInRecord = input["json_schema"];
        const json& schema = schemaEntry >= 0 ? m_schemas[std::size_t(schemaEntry)].document : schemaInRecord;
        json& goldInRecord = output["ground_truth"];
        const json& gold = goldEntry >= 0 ? goldDocument(goldEntry) : goldInRecord;
        // The context as text (a context that is not a string as its JSON text), UTF-8: compared, not copied, for a
        // record seen before; a new case's input is made from it.
        const auto contextIt = input.find("context");
        static const std::string noContext;
        std::string contextDump;
        if (contextIt != input.end() && !contextIt->is_null() && !contextIt->is_string())
            contextDump = contextIt->dump(-1, ' ', false, json::error_handler_t::replace);
        const std::string& context = contextIt == input.end() || contextIt->is_null() ? noContext
            : contextIt->is_string() ? contextIt->get_ref<const std::string&>()
                                     : contextDump;
        const auto questionIt = input.find("question");
        const std::optional<QString> question = questionIt == input.end() || questionIt->is_null()
            ? std::nullopt
            : std::optional<QString>(jsonAsText(*questionIt));

        int caseIndex = 0;
        bool isNew = false;
        int askedSchema = -1;
        if (const auto known = m_caseIndex.constFind(recordId); known != m_caseIndex.cend()) {
            caseIndex = known.value();
            CaseEntry& first = m_cases[std::size_t(caseIndex)];
            QStringList differences;
            if (first.context != context)
                differences << u"context"_s;
            if (first.data.question != question)
                differences << u"question"_s;
            if ((goldEntry < 0 || goldEntry != first.gold) && !sameJson(first.data.gold, gold))
                differences << u"ground truth"_s;
            if (!differences.isEmpty()) {
                ++m_summary.skipped;
                return problem(path, line, u"/metadata/record_id"_s,
                    u"record \"%1\" has another %2 than at %3:%4; this line is skipped"_s.arg(
                        recordId, differences.join(u", "_s), m_files.at(first.file), QString::number(first.line)));
            }
            // Some models' files leave the source out of a record's metadata; any line that names it names the case's.
            if (first.categoryFromModality) {
                if (std::optional<QString> category = sobCategory(metadata)) {
                    first.data.category = std::move(*category);
                    first.categoryFromModality = false;
                }
            }
            // Another schema is the schema this model was asked with (SOB sends a variant to providers that refuse
            // some keywords): validation uses it, gold comparison is the case's.
            if ((schemaEntry < 0 || schemaEntry != first.schema) && !sameJson(schemaOfCase(first), schema))
                askedSchema = schemaEntry >= 0 ? schemaEntry : addSchema(std::move(schemaInRecord));
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
        response.askedSchema = askedSchema;
        if (askedSchema >= 0)
            ++m_summary.askedWithOtherSchema;
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
            // The gold moves into its first case; another case with the same gold text copies it from there.
            json caseGold;
            if (goldEntry < 0)
                caseGold = std::move(goldInRecord);
            else if (GoldEntry& entry = m_golds[std::size_t(goldEntry)]; entry.home < 0)
                caseGold = std::move(entry.document);
            else
                caseGold = goldDocument(goldEntry);
            m_cases.push_back(makeCase(recordId, modality, context, question, record, metadata, std::move(caseGold)));
            CaseEntry& added = m_cases.back();
            if (goldEntry >= 0) {
                added.gold = goldEntry;
                if (GoldEntry& entry = m_golds[std::size_t(goldEntry)]; entry.home < 0)
                    entry.home = caseIndex;
            }
            // An object schema is held once for all the cases that carry it; anything else stays inline.
            if (schema.is_object())
                // NOLINTNEXTLINE(bugprone-use-after-move): the move above happens only for a known case (!isNew)
                added.schema = schemaEntry >= 0 ? schemaEntry : addSchema(std::move(schemaInRecord));
            else if (schemaEntry >= 0)
                added.data.extra["schema"] = schema;
            else
                added.data.extra["schema"] = std::move(schemaInRecord);
            m_cases.back().file = fileIndex;
            m_cases.back().line = line;
            m_caseIds.push_back(recordId.toStdString());
        }
    }

    /// Takes metadata, gold and eval_info out of `record` (the caller places the schema).
    CaseEntry makeCase(const QString& recordId, Modality modality, const std::string& context,
        const std::optional<QString>& question, json& record, json& metadata, json&& gold)
    {
        CaseEntry entry;
        entry.context = context;
        CaseImport& c = entry.data;
        c.id = recordId;
        std::optional<QString> category = sobCategory(metadata);
        entry.categoryFromModality = !category;
        c.category = category ? std::move(*category) : QString::fromLatin1(modalityId(modality));
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

    /// Copies each schema a response was asked with out of the entries (nameSchemas moves the cases' documents into
    /// the manifest); a response's askedSchema becomes its document's place among m_askedDocuments. One document
    /// is one place, as the store keeps it: a line parsed whole adds an entry of its own for a schema that other
    /// lines' text already named.
    void collectAskedSchemas()
    {
        std::vector<int> placeOf(m_schemas.size(), -1);
        std::unordered_map<std::string, int> placeOfText;
        for (PendingResponse& p : m_pending) {
            if (p.askedSchema < 0)
                continue;
            int& place = placeOf[std::size_t(p.askedSchema)];
            if (place < 0) {
                const json& document = m_schemas[std::size_t(p.askedSchema)].document;
                const auto [known, added] = placeOfText.try_emplace(
                    document.dump(-1, ' ', false, json::error_handler_t::replace), int(m_askedDocuments.size()));
                if (added)
                    m_askedDocuments.push_back(document);
                place = known->second;
            }
            p.askedSchema = place;
        }
    }

    /// Stores the schemas responses were asked with (each once in the store, whatever imported it before).
    bool storeAskedSchemas()
    {
        std::vector<const json*> documents;
        documents.reserve(m_askedDocuments.size());
        for (const json& document : m_askedDocuments)
            documents.push_back(&document);
        auto ids = m_store->storeAskedSchemas(documents);
        if (!ids) {
            m_summary.storeError = ids.error();
            return false;
        }
        m_askedIds = std::move(ids.value());
        return true;
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
        std::vector<int> schemaOf(order.size());
        hash.addData("[");
        for (std::size_t i = 0; i < order.size(); ++i) {
            CaseEntry& entry = m_cases[std::size_t(order[i])];
            canonical.clear();
            if (i > 0)
                canonical += ',';
            appendCanonicalCase(canonical, entry.data, entry.schema >= 0 ? &canonicalSchema(entry.schema) : nullptr);
            hash.addData(canonical);
            suite.cases.append(std::move(entry.data));
            schemaOf[i] = entry.schema;
        }
        hash.addData("]");
        suite.contentHash = QString::fromLatin1(hash.result().toHex());
        nameSchemas(suite.cases, schemaOf, suite.manifest);

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

    const std::string& canonicalSchema(int entry)
    {
        SchemaEntry& schema = m_schemas[std::size_t(entry)];
        if (schema.canonical.empty())
            appendCanonicalJson(schema.canonical, schema.document);
        return schema.canonical;
    }

    /// Each distinct schema document goes into the suite's manifest once (`schema_documents`, with a file name under
    /// `schemas` for a rebuilt suite folder), and its cases name it, as a native suite's cases do. SOB records each
    /// carry a copy of one of a few hundred schemas: stored per case, the copies were a third of the case rows, and
    /// scoring parsed, hashed and compared every copy to find the few it compiles. The content hash is taken
    /// before, over the records as they came, so a file imported by an earlier version still finds its suite.
    /// Only objects are held apart (CaseEntry::schema): `true`/`false` and values that are no schema stay inline,
    /// where scoring reads them as before. `schemaOf[i]` is the entry of `cases[i]`; the documents move out of it.
    template <typename Cases> void nameSchemas(Cases& cases, const std::vector<int>& schemaOf, json& manifest)
    {
        json documents = json::object();
        json files = json::object();
        std::unordered_map<std::string, std::string> nameOfText; // the document's exact dump → its name
        std::vector<const std::string*> nameOfEntry(m_schemas.size(), nullptr);
        for (std::size_t i = 0; i < schemaOf.size(); ++i) {
            if (schemaOf[i] < 0)
                continue;
            const std::string*& named = nameOfEntry[std::size_t(schemaOf[i])];
            if (!named) {
                json& document = m_schemas[std::size_t(schemaOf[i])].document;
                // Exact, as sameJson: 1 and 1.0, 0.0 and -0.0 dump differently and stay two documents. Entries of
                // texts that differ only in spacing or key order are one document.
                auto [known, isNew]
                    = nameOfText.try_emplace(document.dump(-1, ' ', false, json::error_handler_t::replace));
                if (isNew) {
                    const std::string base = "sob-" + Sha256::hash(known->first).toHex().left(16).toStdString();
                    std::string name = base;
                    for (int n = 2; documents.contains(name); ++n) // another document with these 64 bits
                        name = base + '-' + std::to_string(n);
                    known->second = name;
                    files[name] = "schemas/" + name + ".json";
                    documents[name] = std::move(document);
                }
                named = &known->second;
            }
            cases[static_cast<typename Cases::size_type>(i)].schemaName = QString::fromStdString(*named);
        }
        if (!documents.empty()) {
            manifest["schemas"] = std::move(files);
            manifest["schema_documents"] = std::move(documents);
        }
    }

    /// Appends the case as its compact dump with sorted keys would read, without copying its fields. A schema held
    /// apart (`schema`: its canonical text) goes where the record's dump has it, last in extra: "schema" sorts after
    /// the other keys a case's extra has (eval_info, metadata).
    static void appendCanonicalCase(std::string& out, const CaseImport& c, const std::string* schema)
    {
        const auto text = [&out](const QString& s) {
            const QByteArray utf8 = s.toUtf8();
            appendJsonString(out, std::string_view(utf8.constData(), std::size_t(utf8.size())));
        };
        out += "{\"category\":";
        text(c.category);
        out += ",\"extra\":";
        appendCanonicalJson(out, c.extra);
        if (schema) {
            out.pop_back(); // the extra's '}'
            if (!c.extra.empty())
                out += ',';
            out += "\"schema\":";
            out += *schema;
            out += '}';
        }
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
            RunRow run;
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
        QList<ResponseRow> batch;
        batch.reserve(std::min<qsizetype>(batchSize, qsizetype(m_pending.size())));
        for (std::size_t i = 0; i < m_pending.size(); ++i) {
            PendingResponse& p = m_pending[i];
            const RunEntry& runEntry = m_runs[std::size_t(p.run)];
            ResponseRow r;
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
            if (p.askedSchema >= 0)
                r.askedSchemaId = m_askedIds[std::size_t(p.askedSchema)];
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
    std::vector<SchemaEntry> m_schemas; ///< the distinct object schemas of the cases (and of lines parsed apart)
    TextTable m_schemaByText; ///< a schema's text → its entry
    /// A distinct gold text's document, parsed once; once a case holds it, `home` names that case.
    struct GoldEntry
    {
        json document;
        int home = -1;
    };
    std::vector<GoldEntry> m_golds;
    TextTable m_goldByText; ///< a gold's text → its entry
    /// Held by the pool's lookups of m_schemaByText and m_goldByText and by this thread's additions.
    std::mutex m_textMutex;
    std::vector<std::string> m_caseIds; ///< UTF-8 record ids, by case index
    QHash<QString, int> m_caseIndex;
    std::vector<qint64> m_caseRows;
    std::vector<RunEntry> m_runs;
    QHash<QString, int> m_runIndex;
    QHash<quint64, int> m_occurrences;
    std::vector<PendingResponse> m_pending;
    std::vector<json> m_askedDocuments; ///< the schemas responses were asked with (collectAskedSchemas)
    std::vector<qint64> m_askedIds; ///< their rows in the store, in the same order
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

namespace sobdetail {

namespace {

constexpr std::size_t kNone = std::string_view::npos;

bool isJsonSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::size_t skipSpace(std::string_view text, std::size_t at)
{
    while (at < text.size() && isJsonSpace(text[at]))
        ++at;
    return at;
}

/// Past the string that opens at `at` (a '"'); kNone when it does not close. A quote ends it unless an odd number of
/// backslashes precede it (memchr: most of a SOB line is the context string).
std::size_t skipString(std::string_view text, std::size_t at)
{
    for (std::size_t from = at + 1; from < text.size();) {
        const void* found = std::memchr(text.data() + from, '"', text.size() - from);
        if (!found)
            return kNone;
        const auto quote = std::size_t(static_cast<const char*>(found) - text.data());
        std::size_t backslashes = 0;
        while (quote - backslashes > at + 1 && text[quote - backslashes - 1] == '\\')
            ++backslashes;
        if (backslashes % 2 == 0)
            return quote + 1;
        from = quote + 1;
    }
    return kNone;
}

/// Past the value that starts at `at`: a string; an object or array, to the bracket that closes it (strings
/// skipped); anything else up to the next delimiter. kNone when it does not end. Checks nothing else: what is
/// found is only used once the rest of the line has parsed with a null in its place.
std::size_t skipValue(std::string_view text, std::size_t at)
{
    if (at >= text.size())
        return kNone;
    const char first = text[at];
    if (first == '"')
        return skipString(text, at);
    if (first == '{' || first == '[') {
        std::size_t depth = 0;
        for (std::size_t i = at; i < text.size();) {
            const char c = text[i];
            if (c == '"') {
                i = skipString(text, i);
                if (i == kNone)
                    return kNone;
                continue;
            }
            if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (--depth == 0)
                    return i + 1;
            }
            ++i;
        }
        return kNone;
    }
    std::size_t i = at;
    while (i < text.size() && !isJsonSpace(text[i]) && text[i] != ',' && text[i] != '}' && text[i] != ']')
        ++i;
    return i == at ? kNone : i;
}

/// Calls member(key, valueBegin, valueEnd) for each member of the object that opens at `at` (a '{'), in order.
/// Returns the end of the object, or kNone when it is not one or a key holds an escape.
template <typename Member> std::size_t forEachMember(std::string_view text, std::size_t at, const Member& member)
{
    std::size_t i = skipSpace(text, at + 1);
    if (i < text.size() && text[i] == '}')
        return i + 1;
    while (i < text.size()) {
        if (text[i] != '"')
            return kNone;
        const std::size_t keyEnd = skipString(text, i);
        if (keyEnd == kNone)
            return kNone;
        const std::string_view key = text.substr(i + 1, keyEnd - i - 2);
        if (key.find('\\') != std::string_view::npos)
            return kNone;
        i = skipSpace(text, keyEnd);
        if (i >= text.size() || text[i] != ':')
            return kNone;
        i = skipSpace(text, i + 1);
        const std::size_t valueEnd = skipValue(text, i);
        if (valueEnd == kNone)
            return kNone;
        member(key, i, valueEnd);
        i = skipSpace(text, valueEnd);
        if (i >= text.size())
            return kNone;
        if (text[i] == '}')
            return i + 1;
        if (text[i] != ',')
            return kNone;
        i = skipSpace(text, i + 1);
    }
    return kNone;
}

/// The value of the last member `name` of the object at `at`; nullopt when there is none or no such object.
std::optional<ValueSpan> lastMember(std::string_view text, std::size_t at, std::string_view name)
{
    if (at >= text.size() || text[at] != '{')
        return std::nullopt;
    std::optional<ValueSpan> found;
    const std::size_t end = forEachMember(text, at, [&](std::string_view key, std::size_t begin, std::size_t valueEnd) {
        if (key == name)
            found = ValueSpan { begin, valueEnd };
    });
    if (end == kNone)
        return std::nullopt;
    return found;
}

/// The value of the member `inner` of the top-level member `outer` of a line, by the line's bytes (the last of each).
std::optional<ValueSpan> findMemberSpan(std::string_view line, std::string_view outer, std::string_view inner)
{
    constexpr std::string_view bom = "\xEF\xBB\xBF";
    const std::size_t start = skipSpace(line, line.substr(0, bom.size()) == bom ? bom.size() : 0);
    const std::optional<ValueSpan> object = lastMember(line, start, outer);
    if (!object)
        return std::nullopt;
    return lastMember(line, object->begin, inner);
}

/// The member `outer`.`inner` of a parsed line, or nullptr.
const json* memberOf(const json& record, const char* outer, const char* inner)
{
    const auto object = record.find(outer);
    if (object == record.end() || !object->is_object())
        return nullptr;
    const auto member = object->find(inner);
    return member == object->end() ? nullptr : &*member;
}

} // namespace

std::optional<ValueSpan> findSchemaSpan(std::string_view line)
{
    return findMemberSpan(line, "input", "json_schema");
}

std::optional<ValueSpan> findGoldSpan(std::string_view line)
{
    return findMemberSpan(line, "output", "ground_truth");
}

bool parseWithoutSchema(std::string_view line, int depthLimit, std::size_t byteLimit, json& record, ValueSpan& schema,
    std::optional<ValueSpan>* gold)
{
    record = nullptr;
    if (depthLimit < 2)
        return false;
    const std::optional<ValueSpan> span = findSchemaSpan(line);
    if (!span)
        return false;
    // The two members are values of two members of the top-level object: they never overlap.
    const std::optional<ValueSpan> goldSpan = gold ? findGoldSpan(line) : std::nullopt;
    ValueSpan cuts[2] = { *span, goldSpan.value_or(ValueSpan {}) };
    const std::size_t cutCount = goldSpan ? 2 : 1;
    if (cutCount == 2 && cuts[1].begin < cuts[0].begin)
        std::swap(cuts[0], cuts[1]);
    std::string rest;
    rest.reserve(line.size() + 8);
    std::size_t from = 0;
    for (std::size_t i = 0; i < cutCount; ++i) {
        rest.append(line.substr(from, cuts[i].begin - from)).append("null");
        from = cuts[i].end;
    }
    rest.append(line.substr(from));
    ParseLimits limits;
    limits.maxDepth = depthLimit;
    limits.maxBytes = byteLimit;
    JsonParseError ignored; // the whole line's parse reports it
    if (!parseJsonDocument(rest, record, ignored, limits))
        return false;
    // Where each null went, by the parser's reading too.
    const json* placedSchema = memberOf(record, "input", "json_schema");
    const json* placedGold = goldSpan ? memberOf(record, "output", "ground_truth") : nullptr;
    if (!placedSchema || !placedSchema->is_null() || (goldSpan && (!placedGold || !placedGold->is_null()))) {
        record = nullptr;
        return false;
    }
    schema = *span;
    if (gold)
        *gold = goldSpan;
    return true;
}

} // namespace sobdetail

} // namespace structscope
