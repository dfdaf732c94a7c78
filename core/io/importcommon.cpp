// SPDX-License-Identifier: Apache-2.0
#include "io/importcommon.h"

#include "store/resultstore.h"
#include "util/sha256.h"
#include "json/parseladder.h"

#include <QFileInfo>
#include <QIODevice>

#include <cmath>
#include <cstring>
#include <limits>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

constexpr qint64 kChunkBytes = qint64(1024) * 1024;
constexpr std::string_view kBom = "\xEF\xBB\xBF";

std::string safeDump(const json& value)
{
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

} // namespace

LineReader::LineReader(QIODevice& device, qsizetype maxLineBytes)
    : m_device(device)
    , m_maxLineBytes(std::max<qsizetype>(1, maxLineBytes))
{ }

bool LineReader::fill()
{
    if (m_pos > 0) {
        m_buffer.erase(0, m_pos);
        m_pos = 0;
    }
    const std::size_t old = m_buffer.size();
    m_buffer.resize(old + std::size_t(kChunkBytes));
    const qint64 n = m_device.read(m_buffer.data() + old, kChunkBytes);
    if (n < 0) {
        m_buffer.resize(old);
        m_error = m_device.errorString();
        return false;
    }
    m_buffer.resize(old + std::size_t(n));
    m_bytesRead += n;
    if (n == 0)
        m_eof = true;
    return true;
}

LineReader::Status LineReader::next(std::string_view& line)
{
    const auto deliver = [&](std::size_t length) {
        std::string_view text(m_buffer.data() + m_pos, length);
        if (!text.empty() && text.back() == '\r')
            text.remove_suffix(1);
        ++m_lineNumber;
        if (m_lineNumber == 1 && text.substr(0, kBom.size()) == kBom)
            text.remove_prefix(kBom.size());
        line = text;
    };

    // A line over the limit is dropped from memory as it streams past; only its end is looked for.
    bool discarding = false;
    for (;;) {
        const char* base = m_buffer.data() + m_pos;
        const std::size_t available = m_buffer.size() - m_pos;
        const void* newline
            = available > m_scanned ? std::memchr(base + m_scanned, '\n', available - m_scanned) : nullptr;
        if (newline) {
            const auto length = std::size_t(static_cast<const char*>(newline) - base);
            m_scanned = 0;
            if (discarding || qsizetype(length) > m_maxLineBytes) {
                m_pos += length + 1;
                ++m_lineNumber;
                return Status::TooLong;
            }
            deliver(length);
            m_pos += length + 1;
            return Status::Line;
        }
        m_scanned = available;
        if (discarding || qsizetype(available) > m_maxLineBytes) {
            discarding = true;
            m_buffer.clear();
            m_pos = 0;
            m_scanned = 0;
        }
        if (m_eof) {
            if (discarding) {
                ++m_lineNumber;
                return Status::TooLong;
            }
            if (available == 0)
                return Status::End;
            deliver(available);
            m_pos = m_buffer.size();
            m_scanned = 0;
            return Status::Line;
        }
        if (!fill())
            return Status::Error;
    }
}

QString importRequestHash(const json& parts)
{
    return QString::fromLatin1(Sha256::hash(safeDump(parts)).toHex());
}

void appendJsonString(std::string& out, std::string_view text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out += '"';
    std::size_t plain = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        out.append(text.data() + plain, i - plain);
        plain = i + 1;
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            out += "\\u00";
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
        }
    }
    out.append(text.data() + plain, text.size() - plain);
    out += '"';
}

void appendCanonicalJson(std::string& out, const json& value)
{
    switch (value.type()) {
    case json::value_t::object: {
        out += '{';
        bool first = true;
        for (const auto& [key, member] : value.get_ref<const json::object_t&>()) {
            if (!first)
                out += ',';
            first = false;
            appendJsonString(out, key);
            out += ':';
            appendCanonicalJson(out, member);
        }
        out += '}';
        break;
    }
    case json::value_t::array: {
        out += '[';
        bool first = true;
        for (const json& element : value.get_ref<const json::array_t&>()) {
            if (!first)
                out += ',';
            first = false;
            appendCanonicalJson(out, element);
        }
        out += ']';
        break;
    }
    case json::value_t::string:
        appendJsonString(out, value.get_ref<const std::string&>());
        break;
    default:
        out += safeDump(value); // numbers keep nlohmann's exact formatting
    }
}

QString jsonAsText(const json& value)
{
    if (value.is_string())
        return QString::fromStdString(value.get_ref<const std::string&>());
    return QString::fromStdString(safeDump(value));
}

std::optional<double> nonNegativeNumber(const json& value)
{
    if (!value.is_number())
        return std::nullopt;
    const double number = value.get<double>();
    if (!std::isfinite(number) || number < 0)
        return std::nullopt;
    return number;
}

std::optional<qint64> nonNegativeInteger(const json& value)
{
    if (value.is_number_unsigned()) {
        const auto number = value.get<json::number_unsigned_t>();
        if (number > json::number_unsigned_t(std::numeric_limits<qint64>::max()))
            return std::nullopt;
        return qint64(number);
    }
    if (value.is_number_integer()) {
        const auto number = value.get<json::number_integer_t>();
        return number < 0 ? std::nullopt : std::optional<qint64>(number);
    }
    if (value.is_number_float()) {
        const double number = value.get<double>();
        // 2^63 is the first double past qint64's range.
        if (!std::isfinite(number) || number < 0 || number >= 9223372036854775808.0 || std::trunc(number) != number)
            return std::nullopt;
        return qint64(number);
    }
    return std::nullopt;
}

Problem lineProblem(const QString& file, qint64 line, const QString& pointer, const QString& message, bool warning)
{
    Problem p;
    p.file = file;
    p.line = int(std::min<qint64>(line, std::numeric_limits<int>::max()));
    p.pointer = pointer;
    p.message = message;
    p.warning = warning;
    return p;
}

bool parseImportLine(
    std::string_view text, const QString& file, qint64 line, const ImportLimits& limits, json& out, Problems& problems)
{
    ParseLimits parseLimits;
    parseLimits.maxDepth = limits.maxDepth;
    parseLimits.maxBytes = std::size_t(std::max<qsizetype>(0, limits.maxLineBytes));
    JsonParseError error;
    if (parseJsonDocument(text, out, error, parseLimits))
        return true;
    Problem p = lineProblem(file, line, {}, u"not a JSON line: "_s + QString::fromStdString(error.message));
    p.column = int(std::min<std::size_t>(error.column, std::size_t(std::numeric_limits<int>::max())));
    problems.append(std::move(p));
    return false;
}

bool firstMention(const QString& path, QSet<QString>& seen, Problems& problems)
{
    const QString canonical = QFileInfo(path).canonicalFilePath();
    if (canonical.isEmpty())
        return true; // missing: opening it reports that
    if (seen.contains(canonical)) {
        problems.append(lineProblem(path, 0, {}, u"the same file is named again; it is read once"_s, true));
        return false;
    }
    seen.insert(canonical);
    return true;
}

bool flushResponses(ResultStore& store, QList<ResponseRow>& batch, ImportSummary& summary)
{
    if (batch.isEmpty())
        return true;
    auto stored = store.appendResponses(batch);
    if (!stored) {
        summary.storeError = stored.error();
        return false;
    }
    summary.responses += stored->size();
    batch.clear();
    return true;
}

void finishRuns(ResultStore& store, ImportSummary& summary)
{
    const RunStatus status = summary.storeError ? RunStatus::Interrupted
        : summary.cancelled                     ? RunStatus::Cancelled
                                                : RunStatus::Finished;
    for (const qint64 runId : std::as_const(summary.runIds)) {
        if (auto r = store.finishRun(runId, status); !r && !summary.storeError)
            summary.storeError = r.error();
    }
}

ProgressTracker::ProgressTracker(const ImportProgress& callback, qint64 total)
    : m_callback(callback)
    , m_total(std::max<qint64>(0, total))
    , m_step(std::max<qint64>(1, m_total / 1000))
{ }

bool ProgressTracker::update(qint64 done, bool force)
{
    if (m_cancelled)
        return false;
    if (!m_callback)
        return true;
    if (!force && m_lastReported >= 0 && done - m_lastReported < m_step)
        return true;
    m_lastReported = done;
    if (!m_callback(done, m_total))
        m_cancelled = true;
    return !m_cancelled;
}

std::optional<QHash<QString, qint64>> storeSuiteCases(
    ResultStore& store, const SuiteImport& suite, ImportSummary& summary)
{
    auto imported = store.importSuite(suite);
    if (!imported) {
        summary.storeError = imported.error();
        return std::nullopt;
    }
    summary.suite = imported->suite;
    summary.suiteCreated = imported->created;
    summary.cases = suite.cases.size();
    auto rows = store.caseRows(summary.suite.row);
    if (!rows) {
        summary.storeError = rows.error();
        return std::nullopt;
    }
    return std::move(rows.value());
}

qint64 totalFileBytes(const QStringList& files)
{
    qint64 total = 0;
    for (const QString& file : files)
        total += std::max<qint64>(0, QFileInfo(file).size());
    return total;
}

} // namespace structscope
