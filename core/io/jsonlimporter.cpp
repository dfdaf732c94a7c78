// SPDX-License-Identifier: Apache-2.0
#include "io/jsonlimporter.h"

#include "schema/schemapointer.h"
#include "store/resultstore.h"
#include "store/suiteimport.h"
#include "suite/jsonlocation.h"
#include "suite/suite.h"
#include "json/parseladder.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

/// A field path split once, resolved on every line.
struct FieldPath
{
    QString text;
    std::string literal; ///< the whole path as one top-level key (dotted paths only)
    bool pointer = false;
    std::vector<std::string> tokens;
};

bool isArrayIndex(const std::string& token, const json& array, std::size_t& index)
{
    return schemadetail::parseArrayIndex(token, &index) && index < array.size();
}

std::optional<FieldPath> compilePath(const QString& path, QString* error)
{
    const auto fail = [&](const QString& message) -> std::optional<FieldPath> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    FieldPath compiled;
    compiled.text = path;
    if (path.isEmpty())
        return fail(u"an empty field path"_s);
    if (path.startsWith(u'/')) {
        compiled.pointer = true;
        const QStringList tokens = path.mid(1).split(u'/');
        for (QString token : tokens) {
            for (qsizetype i = 0; i < token.size(); ++i) {
                if (token.at(i) == u'~'
                    && (i + 1 >= token.size() || (token.at(i + 1) != u'0' && token.at(i + 1) != u'1')))
                    return fail(u"\"%1\" is not a valid JSON pointer (\"~\" must be followed by 0 or 1)"_s.arg(path));
            }
            token.replace(u"~1"_s, u"/"_s);
            token.replace(u"~0"_s, u"~"_s);
            compiled.tokens.push_back(token.toStdString());
        }
        return compiled;
    }
    const QStringList tokens = path.split(u'.');
    for (const QString& token : tokens) {
        if (token.isEmpty())
            return fail(u"\"%1\" is not a valid dotted path (empty segment)"_s.arg(path));
        compiled.tokens.push_back(token.toStdString());
    }
    if (compiled.tokens.size() > 1)
        compiled.literal = path.toStdString();
    return compiled;
}

const json* resolve(const json& root, const FieldPath& path)
{
    if (!path.literal.empty() && root.is_object()) {
        if (const auto it = root.find(path.literal); it != root.end())
            return &*it;
    }
    const json* current = &root;
    for (const std::string& token : path.tokens) {
        if (current->is_object()) {
            const auto it = current->find(token);
            if (it == current->end())
                return nullptr;
            current = &*it;
        } else if (current->is_array()) {
            std::size_t index = 0;
            if (!isArrayIndex(token, *current, index))
                return nullptr;
            current = &(*current)[index];
        } else {
            return nullptr;
        }
    }
    return current;
}

/// The JSON pointer of a field in `root`, for problems.
QString pointerOf(const FieldPath& path, const json& root)
{
    if (path.pointer)
        return path.text;
    if (!path.literal.empty() && root.is_object() && root.contains(path.literal))
        return u'/' + pointerToken(path.text);
    QString pointer;
    for (const std::string& token : path.tokens)
        pointer += u'/' + pointerToken(qs(token));
    return pointer;
}

struct CompiledFields
{
    FieldPath caseId, model, response, strategy, latencyMs, tokensIn, tokensOut, cost;
};

std::optional<CompiledFields> compileFields(const JsonlFieldMap& map, QString* error)
{
    CompiledFields fields;
    const std::pair<FieldPath*, const QString*> all[]
        = { { &fields.caseId, &map.caseId }, { &fields.model, &map.model }, { &fields.response, &map.response },
              { &fields.strategy, &map.strategy }, { &fields.latencyMs, &map.latencyMs },
              { &fields.tokensIn, &map.tokensIn }, { &fields.tokensOut, &map.tokensOut }, { &fields.cost, &map.cost } };
    for (const auto& [compiled, text] : all) {
        auto path = compilePath(*text, error);
        if (!path)
            return std::nullopt;
        *compiled = std::move(*path);
    }
    return fields;
}

/// What the first pass decided about an accepted line.
struct AcceptedLine
{
    qint64 line = 0;
    int run = 0;
    int caseIndex = 0;
    int repeat = 0;
};

/// The identity of a line: which case, model and strategy it answers.
struct LineKey
{
    int caseIndex = -1;
    QString model;
    QString strategy;
};

struct RunEntry
{
    QString model;
    QString strategy;
    int repeats = 1;
    QList<qsizetype> files;
};

class JsonlImport
{
public:
    JsonlImport(ResultStore& store, const Suite& suite, const QStringList& files, const JsonlImportOptions& options,
        CompiledFields fields)
        : m_store(store)
        , m_suite(suite)
        , m_files(files)
        , m_options(options)
        , m_fields(std::move(fields))
        , m_progress(options.progress, totalFileBytes(files) * 2)
        , m_defaultStrategy(options.strategy.trimmed().isEmpty() ? u"imported"_s : options.strategy.trimmed())
    {
        m_summary.files = int(files.size());
        for (qsizetype i = 0; i < suite.cases.size(); ++i)
            m_caseIndex.insert(suite.cases.at(i).id, int(i));
        m_accepted.resize(std::size_t(files.size()));
    }

    ImportSummary run()
    {
        return readThenStore(
            m_files.size(), m_progress, m_summary, m_store, [this](qsizetype i) { check(i); },
            [this] {
                if (m_summary.records == 0 || !storeSuite() || !createRuns())
                    return;
                QList<ResponseRow> batch;
                for (qsizetype i = 0; i < m_files.size() && m_summary.ok(); ++i)
                    write(i, batch);
                if (m_summary.ok())
                    flushResponses(m_store, batch, m_summary);
            });
    }

private:
    // ---- pass 1: check every line, decide runs and repeats ---------------------------------------

    void check(qsizetype fileIndex)
    {
        const QString& path = m_files.at(fileIndex);
        if (!firstMention(path, m_seenFiles, m_summary.problems))
            return;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            m_summary.problems.append(lineProblem(path, 0, {}, u"cannot open the file: "_s + file.errorString()));
            return;
        }
        LineReader reader(file, m_options.limits.maxLineBytes);
        std::string_view text;
        json value;
        for (;;) {
            const LineReader::Status status = reader.next(text);
            if (status == LineReader::Status::End)
                break;
            if (status == LineReader::Status::Error) {
                m_summary.problems.append(
                    lineProblem(path, reader.lineNumber() + 1, {}, u"cannot read the file: "_s + reader.errorString()));
                break;
            }
            const qint64 line = reader.lineNumber();
            if (status == LineReader::Status::TooLong) {
                ++m_summary.lines;
                ++m_summary.malformed;
                m_summary.problems.append(lineProblem(
                    path, line, {}, u"the line is longer than %1 bytes; skipped"_s.arg(m_options.limits.maxLineBytes)));
            } else if (text.find_first_not_of(" \t\r\f\v") != std::string_view::npos) {
                ++m_summary.lines;
                if (!parseImportLine(text, path, line, m_options.limits, value, m_summary.problems))
                    ++m_summary.malformed;
                else
                    accept(value, fileIndex, line);
            }
            if (!m_progress.update(m_bytesDone + reader.position()))
                break;
        }
        m_bytesDone += reader.position();
    }

    void accept(const json& value, qsizetype fileIndex, qint64 line)
    {
        const QString& path = m_files.at(fileIndex);
        LineKey key;
        switch (readKey(value, path, line, &m_summary.problems, key)) {
        case KeyOutcome::Malformed:
            ++m_summary.malformed;
            return;
        case KeyOutcome::UnknownCase:
            ++m_summary.skipped;
            return;
        case KeyOutcome::Ok:
            break;
        }
        checkOptional(value, path, line);

        const QString runKey = key.model % u"\n"_s % key.strategy;
        auto runIt = m_runIndex.constFind(runKey);
        if (runIt == m_runIndex.cend()) {
            m_runs.push_back(RunEntry { key.model, key.strategy, 1, {} });
            runIt = m_runIndex.insert(runKey, int(m_runs.size() - 1));
        }
        const int run = runIt.value();
        RunEntry& entry = m_runs[std::size_t(run)];
        if (!entry.files.contains(fileIndex))
            entry.files.append(fileIndex);
        int& seen = m_occurrences[(quint64(quint32(run)) << 32) | quint32(key.caseIndex)];
        const int repeat = seen++;
        entry.repeats = std::max(entry.repeats, repeat + 1);
        m_accepted[std::size_t(fileIndex)].push_back(AcceptedLine { line, run, key.caseIndex, repeat });
        ++m_summary.records;
    }

    enum class KeyOutcome { Ok, Malformed, UnknownCase };

    /// Reads case id, model, strategy and checks that a response is there. Problems are reported only
    /// when `problems` is set (the second pass has reported them already).
    KeyOutcome readKey(const json& value, const QString& path, qint64 line, Problems* problems, LineKey& key) const
    {
        const auto report = [&](const FieldPath* field, const QString& message, bool warning = false) {
            if (problems)
                problems->append(
                    lineProblem(path, line, field ? pointerOf(*field, value) : QString(), message, warning));
        };
        if (!value.is_object()) {
            report(nullptr, qs(std::string("a result line is a JSON object, not ") + value.type_name()));
            return KeyOutcome::Malformed;
        }
        const json* caseId = resolve(value, m_fields.caseId);
        QString id;
        if (caseId && caseId->is_string())
            id = qs(caseId->get_ref<const std::string&>());
        else if (caseId && caseId->is_number_integer())
            id = qs(caseId->dump());
        if (id.isEmpty()) {
            report(&m_fields.caseId,
                caseId ? u"the case id must be a non-empty string"_s
                       : u"missing: no case id (field \"%1\")"_s.arg(m_fields.caseId.text));
            return KeyOutcome::Malformed;
        }
        const json* model = resolve(value, m_fields.model);
        key.model = model && model->is_string() ? qs(model->get_ref<const std::string&>()).trimmed() : QString();
        if (key.model.isEmpty()) {
            report(&m_fields.model,
                model ? u"the model must be a non-empty string"_s
                      : u"missing: no model (field \"%1\")"_s.arg(m_fields.model.text));
            return KeyOutcome::Malformed;
        }
        if (!resolve(value, m_fields.response)) {
            report(&m_fields.response, u"missing: no response (field \"%1\")"_s.arg(m_fields.response.text));
            return KeyOutcome::Malformed;
        }
        const auto known = m_caseIndex.constFind(id);
        if (known == m_caseIndex.cend()) {
            report(&m_fields.caseId, u"case \"%1\" is not in suite %2; this line is skipped"_s.arg(id, m_suite.id));
            return KeyOutcome::UnknownCase;
        }
        key.caseIndex = known.value();
        key.strategy = m_defaultStrategy;
        if (const json* strategy = resolve(value, m_fields.strategy); strategy && !strategy->is_null()) {
            const QString text
                = strategy->is_string() ? qs(strategy->get_ref<const std::string&>()).trimmed() : QString();
            if (text.isEmpty())
                report(&m_fields.strategy,
                    u"the strategy must be a non-empty string; using \"%1\""_s.arg(m_defaultStrategy), true);
            else
                key.strategy = text;
        }
        return KeyOutcome::Ok;
    }

    void checkOptional(const json& value, const QString& path, qint64 line)
    {
        const auto check = [&](const FieldPath& field, bool integer) {
            const json* v = resolve(value, field);
            if (!v || v->is_null())
                return;
            const bool ok = integer ? nonNegativeInteger(*v).has_value() : nonNegativeNumber(*v).has_value();
            if (!ok)
                m_summary.problems.append(lineProblem(path, line, pointerOf(field, value),
                    qs("must be a non-negative " + std::string(integer ? "integer" : "number") + ", not "
                        + v->dump(-1, ' ', false, json::error_handler_t::replace).substr(0, 80))
                        + u"; left out"_s,
                    true));
        };
        check(m_fields.latencyMs, false);
        check(m_fields.tokensIn, true);
        check(m_fields.tokensOut, true);
        check(m_fields.cost, false);
    }

    // ---- store the suite and the runs ------------------------------------------------------------

    bool storeSuite()
    {
        SuiteImport import = makeSuiteImport(m_suite);
        import.author = m_options.author;
        const auto caseRows = storeSuiteCases(m_store, import, m_summary);
        if (!caseRows)
            return false;
        const QHash<QString, qint64>& rows = *caseRows;
        m_caseRows.assign(std::size_t(m_suite.cases.size()), 0);
        for (qsizetype i = 0; i < m_suite.cases.size(); ++i) {
            const qint64 row = rows.value(m_suite.cases.at(i).id);
            if (row <= 0) {
                m_summary.storeError = StoreError { StoreErrorKind::Corrupt,
                    u"the stored suite %1 has no case \"%2\" although its content hash matches"_s.arg(
                        m_suite.id, m_suite.cases.at(i).id) };
                return false;
            }
            m_caseRows[std::size_t(i)] = row;
        }
        return true;
    }

    bool createRuns()
    {
        for (const RunEntry& entry : m_runs) {
            json sources = json::array();
            for (const qsizetype file : entry.files)
                sources.push_back(QFileInfo(m_files.at(file)).fileName().toStdString());
            RunRow run;
            run.suiteRow = m_summary.suite.row;
            run.modelSpec = entry.model;
            run.providerKind = u"import"_s;
            run.strategy = entry.strategy;
            run.repeats = entry.repeats;
            run.settings = { { "import_format", "jsonl" }, { "source_files", std::move(sources) } };
            run.status = RunStatus::Running;
            auto created = m_store.createRun(run);
            if (!created) {
                m_summary.storeError = created.error();
                return false;
            }
            m_summary.runIds.append(created->id);
        }
        return true;
    }

    // ---- pass 2: store the responses -------------------------------------------------------------

    void write(qsizetype fileIndex, QList<ResponseRow>& batch)
    {
        const std::vector<AcceptedLine>& accepted = m_accepted[std::size_t(fileIndex)];
        if (accepted.empty())
            return;
        const QString& path = m_files.at(fileIndex);
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            m_summary.problems.append(
                lineProblem(path, 0, {}, u"cannot open the file a second time: "_s + file.errorString()));
            changed(accepted.size());
            return;
        }
        const qint64 passOne = m_bytesDone;
        LineReader reader(file, m_options.limits.maxLineBytes);
        std::string_view text;
        json value;
        const qsizetype batchSize = std::max(1, m_options.limits.batchSize);
        std::size_t next = 0;
        while (next < accepted.size()) {
            const LineReader::Status status = reader.next(text);
            if (status == LineReader::Status::End || status == LineReader::Status::Error)
                break;
            if (reader.lineNumber() != accepted[next].line)
                continue;
            const AcceptedLine& a = accepted[next++];
            const QString& strategy = m_runs[std::size_t(a.run)].strategy;
            Problems ignored;
            LineKey key;
            if (status != LineReader::Status::Line
                || !parseImportLine(text, path, a.line, m_options.limits, value, ignored)
                || readKey(value, path, a.line, nullptr, key) != KeyOutcome::Ok || key.caseIndex != a.caseIndex
                || key.model != m_runs[std::size_t(a.run)].model || key.strategy != strategy) {
                m_summary.problems.append(
                    lineProblem(path, a.line, {}, u"the line changed while it was being imported; skipped"_s));
                changed(1);
                continue;
            }
            batch.append(makeResponse(value, a));
            if (batch.size() >= batchSize) {
                if (!flushResponses(m_store, batch, m_summary))
                    return;
                if (!m_progress.update(passOne + m_bytesWritten + reader.position())) {
                    m_summary.cancelled = true;
                    return;
                }
            }
        }
        if (next < accepted.size()) {
            m_summary.problems.append(lineProblem(path, accepted[next].line, {},
                u"the file changed while it was being imported: it ends before this line"_s));
            changed(accepted.size() - next);
        }
        m_bytesWritten += reader.position();
    }

    void changed(std::size_t lines)
    {
        m_summary.records -= qint64(lines);
        m_summary.skipped += qint64(lines);
    }

    ResponseRow makeResponse(const json& value, const AcceptedLine& a) const
    {
        const RunEntry& run = m_runs[std::size_t(a.run)];
        const QString& caseId = m_suite.cases.at(a.caseIndex).id;
        ResponseRow r;
        r.runId = m_summary.runIds.at(a.run);
        r.caseRow = m_caseRows[std::size_t(a.caseIndex)];
        r.repeat = a.repeat;
        r.requestHash = importRequestHash(
            json::array({ run.model.toStdString(), run.strategy.toStdString(), caseId.toStdString(), a.repeat }));
        r.rawText = jsonAsText(*resolve(value, m_fields.response));
        const auto number = [&](const FieldPath& field) -> std::optional<double> {
            const json* v = resolve(value, field);
            return v ? nonNegativeNumber(*v) : std::nullopt;
        };
        const auto integer = [&](const FieldPath& field) -> std::optional<qint64> {
            const json* v = resolve(value, field);
            return v ? nonNegativeInteger(*v) : std::nullopt;
        };
        r.latencyMs = number(m_fields.latencyMs);
        r.tokensIn = integer(m_fields.tokensIn);
        r.tokensOut = integer(m_fields.tokensOut);
        r.cost = number(m_fields.cost);
        r.costSource = r.cost ? CostSource::Provider : CostSource::None;
        return r;
    }

    ResultStore& m_store;
    const Suite& m_suite;
    const QStringList& m_files;
    const JsonlImportOptions& m_options;
    CompiledFields m_fields;
    ProgressTracker m_progress;
    const QString m_defaultStrategy;
    ImportSummary m_summary;
    qint64 m_bytesDone = 0;
    qint64 m_bytesWritten = 0;

    QHash<QString, int> m_caseIndex;
    std::vector<qint64> m_caseRows;
    std::vector<RunEntry> m_runs;
    QHash<QString, int> m_runIndex;
    QHash<quint64, int> m_occurrences;
    std::vector<std::vector<AcceptedLine>> m_accepted; ///< by file, in line order
    QSet<QString> m_seenFiles;
};

} // namespace

QStringList JsonlFieldMap::fieldNames()
{
    return { u"case_id"_s, u"model"_s, u"response"_s, u"strategy"_s, u"latency_ms"_s, u"tokens_in"_s, u"tokens_out"_s,
        u"cost"_s };
}

bool JsonlFieldMap::set(const QString& field, const QString& path, QString* error)
{
    QString* const targets[] = { &caseId, &model, &response, &strategy, &latencyMs, &tokensIn, &tokensOut, &cost };
    const qsizetype index = fieldNames().indexOf(field);
    if (index < 0) {
        if (error)
            *error = u"unknown field \"%1\" (known: %2)"_s.arg(field, fieldNames().join(u", "_s));
        return false;
    }
    QString problem;
    if (!compilePath(path, &problem)) {
        if (error)
            *error = u"field \"%1\": %2"_s.arg(field, problem);
        return false;
    }
    *targets[index] = path;
    return true;
}

std::optional<JsonlFieldMap> parseFieldMap(const QString& text, QString* error)
{
    const auto fail = [&](const QString& message) -> std::optional<JsonlFieldMap> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    JsonlFieldMap map;
    const QString trimmed = text.trimmed();
    if (trimmed.startsWith(u'{')) {
        json object;
        const QByteArray utf8 = trimmed.toUtf8();
        std::string problem;
        if (!parseJsonDocument(std::string_view(utf8.constData(), std::size_t(utf8.size())), object, problem))
            return fail(u"field map: not valid JSON: "_s + qs(problem));
        for (const auto& [key, value] : object.items()) {
            if (!value.is_string())
                return fail(u"field map: the path of \"%1\" must be a string"_s.arg(qs(key)));
            QString problem;
            if (!map.set(qs(key), qs(value.get_ref<const std::string&>()), &problem))
                return fail(u"field map: "_s + problem);
        }
        return map;
    }
    for (const QString& item : trimmed.split(u',', Qt::SkipEmptyParts)) {
        const qsizetype equals = item.indexOf(u'=');
        if (equals < 0)
            return fail(u"field map: \"%1\" is not field=path"_s.arg(item.trimmed()));
        QString problem;
        if (!map.set(item.left(equals).trimmed(), item.mid(equals + 1).trimmed(), &problem))
            return fail(u"field map: "_s + problem);
    }
    return map;
}

const json* findField(const json& root, const QString& path)
{
    const auto compiled = compilePath(path, nullptr);
    return compiled ? resolve(root, *compiled) : nullptr;
}

ImportSummary importJsonlFiles(
    ResultStore& store, const Suite& suite, const QStringList& files, const JsonlImportOptions& options)
{
    QString error;
    auto fields = compileFields(options.fields, &error);
    if (!fields) {
        ImportSummary summary;
        summary.files = int(files.size());
        summary.problems.append(lineProblem({}, 0, {}, u"field map: "_s + error));
        return summary;
    }
    return JsonlImport(store, suite, files, options, std::move(*fields)).run();
}

} // namespace structscope
