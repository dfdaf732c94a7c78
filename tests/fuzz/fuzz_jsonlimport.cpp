// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the generic JSONL result importer on arbitrary file content, against a small
// built-in suite (three cases). The first input line may also be taken as a field map
// ("#map case_id=id,response=output.text"), so the mapped paths are fuzzed too. One store lives for
// the whole session; each input is imported into it. The import must report problems and carry on.
#include "io/jsonlimporter.h"
#include "store/resultstore.h"
#include "suite/suiteloader.h"

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

using namespace Qt::StringLiterals;

namespace {

const char kSuiteJson[] = R"({"id": "people", "name": "People", "version": "1.0.0", "license": "Apache-2.0",
 "schemas": {"person": "schemas/person.json"}, "default_schema": "person", "categories": ["person"],
 "families": ["ladder", "extraction"], "prompt": {"system": "Reply with JSON.", "user": "Text: {{input}}"}})";
const char kSchema[] = R"({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
 "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}, "required": ["name"]})";
const char kCases[]
    = R"({"id": "p-1", "category": "person", "tier": "easy", "input": "Ann is 41.", "gold": {"name": "Ann", "age": 41}}
{"id": "p-2", "category": "person", "input": "Meet Bo.", "question": "Who is it?", "gold": {"name": "Bo"}}
{"id": "p-3", "category": "person", "tier": "hard", "input": "No one.", "gold": {"name": null}}
)";

// Qt SQL loads its drivers as plugins, which needs an application object.
int g_argc = 1;
char g_name[] = "fuzz";
char* g_argv[] = { g_name, nullptr };

struct Session
{
    QCoreApplication app { g_argc, g_argv };
    QTemporaryDir dir;
    std::unique_ptr<structscope::ResultStore> store;
    structscope::SuitePtr suite;
    QString file;

    Session()
    {
        const structscope::SuiteLoadResult loaded = structscope::loadSuite(
            { { u"suite.json"_s, kSuiteJson }, { u"schemas/person.json"_s, kSchema }, { u"cases.jsonl"_s, kCases } });
        QString error;
        store = structscope::ResultStore::open(dir.filePath(u"fuzz.db"_s), &error);
        if (!loaded.ok() || !store) {
            std::fprintf(stderr, "fuzz_jsonlimport: setup failed: %s\n", qPrintable(error));
            std::abort();
        }
        suite = loaded.suite;
        file = dir.filePath(u"results.jsonl"_s);
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static Session session;
    QByteArray input = QByteArray::fromRawData(reinterpret_cast<const char*>(data), qsizetype(size));
    structscope::JsonlImportOptions options;
    options.limits.maxLineBytes = 1 << 16;
    if (input.startsWith("#map ")) {
        const qsizetype end = input.indexOf('\n');
        const QString map = QString::fromUtf8(input.mid(5, end < 0 ? -1 : end - 5));
        if (const auto fields = structscope::parseFieldMap(map))
            options.fields = *fields;
        input = end < 0 ? QByteArray() : input.mid(end + 1);
    }
    QFile out(session.file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        std::abort();
    out.write(input);
    out.close();
    structscope::importJsonlFiles(*session.store, *session.suite, { session.file }, options);
    return 0;
}
