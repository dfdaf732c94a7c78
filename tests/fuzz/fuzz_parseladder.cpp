// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the parse ladder, the document parser and the diff on whatever they return.
// Besides "no crash, leak or hang" it checks invariants and aborts when one breaks:
// - a parsed value dumps (valid UTF-8) and its reported span parses to the same value;
// - on short inputs the optimised extractor agrees with the naive reference;
// - errors and reasons are valid UTF-8 with a sane location;
// - the diff of a value with itself is empty, and diff counts respect the per-leaf bounds.
// If the input contains "\n#--\n", the two parts are also diffed as gold and prediction.
#include "fuzzcheck.h"
#include "json/jsondiff.h"
#include "json/jsonextract.h"
#include "json/jsontext.h"
#include "json/leafpaths.h"
#include "json/parseladder.h"
#include "json/textnorm.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace structscope;
using nlohmann::json;
using structscope::fuzz::check;

namespace {

ParseLimits fuzzLimits()
{
    ParseLimits limits;
    limits.maxDepth = 64; // small enough that inputs reach it, deep enough to stress recursion
    return limits;
}

void checkDiffBounds(const json& gold, const json& pred, const DiffOptions& options)
{
    const std::vector<Difference> diffs = diffJson(gold, pred, options);
    const DiffCounts counts = countDifferences(diffs);
    const LeafCounts goldCounts = countLeaves(gold);
    const LeafCounts predCounts = countLeaves(pred);
    const int goldPlaces = std::max(goldCounts.keys, 1);
    check(counts.mk <= goldCounts.keys);
    check(counts.mv + counts.wv() <= goldPlaces);
    check(counts.extra <= predCounts.keys);
    for (const Difference& d : diffs) {
        check(!d.pointer.empty() || d.path.empty());
        check(d.kind == DiffKind::WrongValue || d.wrongKind == WrongValueKind::None);
        if (d.wrongKind == WrongValueKind::Deviation)
            check(d.levenshtein > 0.0);
    }
}

// One option combination per input (from its size) keeps each run cheap; the corpus covers all four.
DiffOptions optionsFor(std::string_view text)
{
    DiffOptions options;
    options.arrays = text.size() % 2 == 0 ? ArrayMatching::Ordered : ArrayMatching::Unordered;
    options.equality = text.size() % 4 < 2 ? Equality::Strict : Equality::Lenient;
    return options;
}

void checkSelfDiff(const json& value, const DiffOptions& options)
{
    check(diffJson(value, value, options).empty());
    check(valuesEqual(value, value, options.equality));
    checkDiffBounds(value, json(), options);
    checkDiffBounds(json(), value, options);
    check(countLeaves(value).leaves == int(flattenLeaves(value).size()));
}

void fuzzLadder(std::string_view text)
{
    const ParseLimits limits = fuzzLimits();
    const ParseResult result = parseResponse(text, limits);
    if (result.ok()) {
        check(result.reason.empty());
        check(isValidUtf8(result.value.dump()));
        check(result.offset + result.length <= text.size());
        json again;
        check(parseJsonText(text.substr(result.offset, result.length), limits.maxDepth, again).ok);
        check(again == result.value);
        checkSelfDiff(result.value, optionsFor(text));
    } else {
        check(!result.reason.empty());
        check(isValidUtf8(result.reason));
        check(result.value.is_null());
    }

    if (text.size() <= 2048) {
        json fast;
        json naive;
        const ExtractOutcome a = extractFirstJson(text, limits.maxDepth, fast);
        const ExtractOutcome b = extractFirstJsonNaive(text, limits.maxDepth, naive);
        check(!a.gaveUp);
        check(a.found == b.found && a.offset == b.offset && a.length == b.length && a.tooDeep == b.tooDeep);
        check(fast == naive);
        // The ladder hands the extractor the clean rung's failure; the answer must not change.
        if (result.rung == ParseRung::Extracted)
            check(b.found && b.offset == result.offset && b.length == result.length);
        if (result.rung == ParseRung::Failed)
            check(!b.found);
    }
}

void fuzzDocument(std::string_view text)
{
    json out;
    JsonParseError error;
    if (parseJsonDocument(text, out, error, fuzzLimits())) {
        check(error.message.empty());
        return;
    }
    check(!error.message.empty());
    check(isValidUtf8(error.message));
    check(error.offset <= text.size());
    check(error.line >= 1 && error.column >= 1);
}

void fuzzDiff(std::string_view text)
{
    const std::size_t split = text.find("\n#--\n");
    if (split == std::string_view::npos)
        return;
    const ParseResult gold = parseResponse(text.substr(0, split), fuzzLimits());
    const ParseResult pred = parseResponse(text.substr(split + 5), fuzzLimits());
    if (!gold.ok() || !pred.ok())
        return;
    checkDiffBounds(gold.value, pred.value, optionsFor(text));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    fuzzLadder(text);
    fuzzDocument(text);
    fuzzDiff(text);
    if (size <= 128) { // the DP is quadratic and instrumented: keep it small
        const std::size_t half = size / 2;
        const std::size_t d = levenshtein(text.substr(0, half), text.substr(half));
        check(d <= std::max(half, size - half));
        check(isValidUtf8(lenientNormalize(text)));
        check(isValidUtf8(escapeInvalidUtf8(text)));
    }
    return 0;
}
