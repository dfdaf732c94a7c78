// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the suite loader and pre-flight on arbitrary files.
// The input is split at "\n#--\n" into suite.json, cases.jsonl, schemas/a.json and catalog.json.
#include "preflight/preflight.h"
#include "suite/suiteloader.h"

#include <cstddef>
#include <cstdint>

using namespace Qt::StringLiterals;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const QString names[] = { u"suite.json"_s, u"cases.jsonl"_s, u"schemas/a.json"_s, u"catalog.json"_s };
    const QByteArray input = QByteArray::fromRawData(reinterpret_cast<const char*>(data), qsizetype(size));
    const QByteArray separator = "\n#--\n";
    structscope::SuiteFiles files;
    qsizetype start = 0;
    for (const QString& name : names) {
        const qsizetype end = input.indexOf(separator, start);
        files[name] = input.mid(start, end < 0 ? -1 : end - start);
        if (end < 0)
            break;
        start = end + separator.size();
    }
    const structscope::SuiteLoadResult result = structscope::loadSuite(files);
    if (result.ok())
        structscope::preflightSuite(*result.suite);
    return 0;
}
