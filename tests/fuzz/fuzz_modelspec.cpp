// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the model-spec parser, which also reads specs back from stores anyone may have written.
// A spec it accepts holds no literal header value (each is a `$VAR` reference), names its variables validly,
// formats to text that parses back to the same spec, and its stored text carries no header at all.
#include "fuzzcheck.h"
#include "providers/modelspec.h"

#include <QRegularExpression>

#include <cstddef>
#include <cstdint>

using namespace structscope;
using structscope::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size));
    QString error;
    const auto spec = parseModelSpec(text, &error);
    if (!spec) {
        check(!error.isEmpty());
        return 0;
    }
    static const QRegularExpression envName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    for (const auto& header : spec->headers)
        check(header.second.startsWith(u'$') && envName.match(header.second.mid(1)).hasMatch());
    for (const QString& variable : spec->environmentVariables())
        check(envName.match(variable).hasMatch());
    const auto again = parseModelSpec(formatModelSpec(*spec));
    check(again && *again == *spec);
    const auto stored = parseModelSpec(formatModelSpec(*spec, SpecText::Stored));
    check(stored && stored->headers.isEmpty() && stored->endpointKey() == spec->endpointKey());
    // A secret goes over plain http only to loopback, unless allowed.
    if (!spec->isSimulated() && !spec->environmentVariables().isEmpty() && spec->baseUrl.startsWith(u"http:"))
        check(insecureKeyProblem(*spec, false).isEmpty() == isLoopbackHost(QUrl(spec->baseUrl).host()));
    check(insecureKeyProblem(*spec, true).isEmpty());
    return 0;
}
