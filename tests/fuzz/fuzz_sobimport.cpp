// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the SOB response-file importer on arbitrary file content.
// One store (a SQLite file in a temporary folder) lives for the whole session; each input is written
// as a SOB response file and imported into it. Whatever the lines hold, the import must report
// problems and carry on, never crash, hang or corrupt the store; read without a store (readSobFiles, what
// `report --sob` scores), it must count the same lines and problems. And every line parsed with its schema apart,
// and with its schema and gold apart (sobdetail::parseWithoutSchema, what both read), must give the value, or the
// failure, of the whole line's parse.
#include "fuzzcheck.h"
#include "io/sobimporter.h"
#include "store/resultstore.h"
#include "json/jsontext.h"
#include "json/parseladder.h"

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

using namespace Qt::StringLiterals;

namespace {

// Qt SQL loads its drivers as plugins, which needs an application object.
int g_argc = 1;
char g_name[] = "fuzz";
char* g_argv[] = { g_name, nullptr };

struct Session
{
    QCoreApplication app { g_argc, g_argv };
    QTemporaryDir dir;
    std::unique_ptr<structscope::ResultStore> store;
    QString file;

    Session()
    {
        QString error;
        store = structscope::ResultStore::open(dir.filePath(u"fuzz.db"_s), &error);
        if (!store) {
            std::fprintf(stderr, "fuzz_sobimport: cannot open the store: %s\n", qPrintable(error));
            std::abort();
        }
        file = dir.filePath(u"response_fuzz_image.jsonl"_s);
    }
};

/// The line parsed with its schema (and its gold) apart, the parts put back, is the line parsed whole; a part whose
/// bytes do not parse means a line that does not parse.
void checkPartsApart(std::string_view line, bool withGold)
{
    constexpr int kDepth = 512;
    constexpr std::size_t kBytes = 1 << 16;
    nlohmann::json whole;
    structscope::JsonParseError error;
    structscope::ParseLimits limits;
    limits.maxDepth = kDepth;
    limits.maxBytes = kBytes;
    const bool wholeParses = structscope::parseJsonDocument(line, whole, error, limits);
    nlohmann::json record;
    structscope::sobdetail::ValueSpan span;
    std::optional<structscope::sobdetail::ValueSpan> goldSpan;
    if (!structscope::sobdetail::parseWithoutSchema(line, kDepth, kBytes, record, span, withGold ? &goldSpan : nullptr))
        return;
    structscope::fuzz::check(span.begin <= span.end && span.end <= line.size());
    structscope::fuzz::check(withGold || !goldSpan);
    const auto partParses = [&](structscope::sobdetail::ValueSpan part, nlohmann::json& value) {
        return structscope::parseJsonText(line.substr(part.begin, part.end - part.begin), kDepth - 2, value).ok;
    };
    nlohmann::json schema;
    nlohmann::json gold;
    if (goldSpan)
        structscope::fuzz::check(goldSpan->begin <= goldSpan->end && goldSpan->end <= line.size()
            && (goldSpan->end <= span.begin || span.end <= goldSpan->begin));
    if (!partParses(span, schema) || (goldSpan && !partParses(*goldSpan, gold))) {
        structscope::fuzz::check(!wholeParses);
        return;
    }
    structscope::fuzz::check(wholeParses);
    record["input"]["json_schema"] = std::move(schema);
    if (goldSpan)
        record["output"]["ground_truth"] = std::move(gold);
    structscope::fuzz::check(structscope::identicalJson(record, whole));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static Session session;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (std::size_t start = 0; start <= text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        checkPartsApart(text.substr(start, end - start), false);
        checkPartsApart(text.substr(start, end - start), true);
        start = end + 1;
    }
    QFile out(session.file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        std::abort();
    out.write(reinterpret_cast<const char*>(data), qint64(size));
    out.close();
    structscope::SobImportOptions options;
    options.limits.maxLineBytes = 1 << 16;
    const structscope::ImportSummary imported = structscope::importSobFiles(*session.store, { session.file }, options);
    // Read without a store (report --sob), the same lines give the same counts and problems.
    const structscope::SobRecords read = structscope::readSobFiles({ session.file }, options);
    if (imported.ok()
        && (read.summary.lines != imported.lines || read.summary.records != imported.records
            || read.summary.malformed != imported.malformed || read.summary.skipped != imported.skipped
            || read.summary.problems.size() != imported.problems.size()
            || qint64(read.responses.size()) != imported.records)) {
        std::fprintf(stderr, "fuzz_sobimport: read without a store, the file counts differently\n");
        std::abort();
    }
    return 0;
}
