// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/rows.h"
#include "store/storeresult.h"
#include "suite/problem.h"

#include <nlohmann/json.hpp>

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

class QIODevice;

namespace structscope {

class ResultStore;

/// Progress of an import in bytes (reading the files and storing their responses count as one pass
/// over them each, so `total` is twice their size); return false to cancel.
using ImportProgress = std::function<bool(qint64 done, qint64 total)>;

/// What an import call did. Problems are located (file, line, JSON pointer); a malformed line never
/// stops the others. A store failure stops the import and is kept in `storeError`; what was
/// committed before stays stored (its runs are marked interrupted).
struct ImportSummary
{
    int files = 0; ///< files named in the call (unreadable ones included)
    qint64 lines = 0; ///< non-blank lines read
    qint64 records = 0; ///< lines accepted: each becomes one stored response
    qint64 cases = 0; ///< cases of the suite the responses belong to
    qint64 responses = 0; ///< responses stored
    qint64 malformed = 0; ///< lines refused as malformed (not JSON, too long, required field missing or wrong)
    qint64 skipped = 0; ///< well-formed lines refused (record conflicting with an earlier one, unknown case)
    qint64 askedWithOtherSchema = 0; ///< records asked with another schema than their case's (SOB's variants)
    Problems problems; ///< errors: refused lines, unreadable files; warnings: lines imported with a caveat
    SuiteRow suite; ///< row 0 when nothing was imported
    bool suiteCreated = false; ///< false when the store already held this exact suite
    QList<qint64> runIds; ///< runs created, in order of first appearance
    bool cancelled = false; ///< the progress callback asked to stop
    std::optional<StoreError> storeError; ///< the store refused a write

    bool ok() const { return !storeError && !cancelled; }
};

/// Knobs shared by both importers.
struct ImportLimits
{
    qsizetype maxLineBytes = qsizetype(64) * 1024 * 1024; ///< longer lines are refused (and skipped without being held)
    int maxDepth = 512; ///< deeper JSON nesting makes a line malformed
    int batchSize = 1000; ///< responses per appendResponses call (one transaction each)
};

/// Reads a device line by line in bounded memory. Lines end at '\n'; a trailing '\r' and a UTF-8 BOM
/// at the start of the first line are dropped. A line longer than the limit is skipped as a whole
/// and reported as TooLong, so a huge line never has to fit in memory.
class LineReader
{
public:
    enum class Status { Line, TooLong, End, Error };

    LineReader(QIODevice& device, qsizetype maxLineBytes);

    /// Advances to the next line; on Line, `line` stays valid until the next call.
    Status next(std::string_view& line);
    /// 1-based number of the line last returned (also for TooLong).
    qint64 lineNumber() const { return m_lineNumber; }
    /// Bytes of the device up to the end of the line last returned (progress, not I/O).
    qint64 position() const { return m_bytesRead - qint64(m_buffer.size() - m_pos); }
    QString errorString() const { return m_error; }

private:
    bool fill();

    QIODevice& m_device;
    qsizetype m_maxLineBytes;
    std::string m_buffer;
    std::size_t m_pos = 0; ///< start of the unconsumed part of m_buffer
    std::size_t m_scanned = 0; ///< bytes after m_pos already known to hold no '\n'
    qint64 m_lineNumber = 0;
    qint64 m_bytesRead = 0;
    bool m_eof = false;
    QString m_error;
};

/// Hex SHA-256 of the JSON array `parts` (compact dump): the request hash of an imported response.
QString importRequestHash(const nlohmann::json& parts);

/// Appends exactly what value.dump() gives (compact, keys sorted, UTF-8 kept), for hashing; several
/// times faster on string-heavy values because runs of plain characters are copied as a whole.
void appendCanonicalJson(std::string& out, const nlohmann::json& value);

/// Appends the JSON string literal of `text` (valid UTF-8) as dump() writes it.
void appendJsonString(std::string& out, std::string_view text);

/// A JSON value as text: strings verbatim, anything else as its compact dump.
QString jsonAsText(const nlohmann::json& value);

/// A non-negative finite number, or nullopt.
std::optional<double> nonNegativeNumber(const nlohmann::json& value);

/// A non-negative integer (integral floats too), or nullopt.
std::optional<qint64> nonNegativeInteger(const nlohmann::json& value);

/// Parses one line into `out`; on failure adds a located problem for `file`:`line` and returns false.
bool parseImportLine(std::string_view text, const QString& file, qint64 line, const ImportLimits& limits,
    nlohmann::json& out, Problems& problems);

/// A located problem of one line.
Problem lineProblem(
    const QString& file, qint64 line, const QString& pointer, const QString& message, bool warning = false);

/// False (with a warning) when `path` names a file already in `seen` (e.g. given twice); else remembers it.
bool firstMention(const QString& path, QSet<QString>& seen, Problems& problems);

/// Appends `batch` to the store and clears it; on failure records the error in `summary`.
bool flushResponses(ResultStore& store, QList<ResponseRow>& batch, ImportSummary& summary);

/// Marks the runs of `summary` finished (or interrupted / cancelled when the import did not complete).
void finishRuns(ResultStore& store, ImportSummary& summary);

/// Throttles progress reports to about one per 0.1 % of the work and tracks cancellation.
class ProgressTracker
{
public:
    ProgressTracker(const ImportProgress& callback, qint64 total);
    /// Reports `done` if it moved enough since the last report; false when the caller should stop.
    bool update(qint64 done, bool force = false);
    bool cancelled() const { return m_cancelled; }

private:
    const ImportProgress& m_callback;
    qint64 m_total;
    qint64 m_step;
    qint64 m_lastReported = -1;
    bool m_cancelled = false;
};

/// The size of the files together (an unreadable one counts 0): the work an import's progress is measured in.
qint64 totalFileBytes(const QStringList& files);

/// The two passes of every importer: `readFile(i)` for each file in turn, until the import is cancelled; then, if it
/// was not, `store()` writes what was read and the runs it created are finished (finishRuns()). A cancelled import
/// returns its summary marked cancelled, nothing stored.
template <typename ReadFile, typename Store>
ImportSummary readThenStore(qsizetype files, ProgressTracker& progress, ImportSummary& summary, ResultStore& target,
    const ReadFile& readFile, const Store& store)
{
    for (qsizetype i = 0; i < files && !progress.cancelled(); ++i)
        readFile(i);
    if (progress.cancelled()) {
        summary.cancelled = true;
        return std::move(summary);
    }
    store();
    finishRuns(target, summary);
    return std::move(summary);
}

/// Stores a suite (a no-op when the store already holds this exact content), records it in
/// `summary`, and returns its case rows by case id; nullopt after a store error (kept in `summary`).
std::optional<QHash<QString, qint64>> storeSuiteCases(
    ResultStore& store, const SuiteImport& suite, ImportSummary& summary);

} // namespace structscope
