// SPDX-License-Identifier: Apache-2.0
#include "json/parseladder.h"

#include "json/jsonextract.h"
#include "json/jsontext.h"

#include <new>

namespace structscope {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

// Real responses hold a handful of code blocks; thousands are an attack on our time, not an answer.
constexpr int kMaxFenceAttempts = 256;

// Can a JSON value start with this byte? Lets us skip blocks of prose or code without parsing them.
bool canStartJsonValue(char c)
{
    return c == '{' || c == '[' || c == '"' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n';
}

bool isTrimSpace(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

// Narrows [begin, end) of `text` to its non-whitespace core.
void trimRange(std::string_view text, std::size_t& begin, std::size_t& end)
{
    while (begin < end && isTrimSpace(text[begin]))
        ++begin;
    while (end > begin && isTrimSpace(text[end - 1]))
        --end;
}

std::string locatedMessage(std::string_view text, std::size_t offset, const std::string& message)
{
    const TextLocation loc = locateOffset(text, offset);
    return "line " + std::to_string(loc.line) + ", column " + std::to_string(loc.column) + " (byte "
        + std::to_string(offset) + "): " + message;
}

ParseResult succeed(ParseRung rung, std::size_t offset, std::size_t length, ParseResult&& result)
{
    result.rung = rung;
    result.offset = offset;
    result.length = length;
    return std::move(result);
}

ParseResult fail(std::string reason)
{
    ParseResult result;
    result.reason = std::move(reason);
    return result;
}

ParseResult runLadder(std::string_view text, const ParseLimits& limits)
{
    if (text.size() > limits.maxBytes) {
        return fail("response is " + std::to_string(text.size()) + " bytes, over the limit of "
            + std::to_string(limits.maxBytes) + " bytes");
    }
    std::size_t begin = text.substr(0, kBom.size()) == kBom ? kBom.size() : 0;
    std::size_t end = text.size();
    trimRange(text, begin, end);
    if (begin == end)
        return fail(text.empty() ? "empty response" : "response is only whitespace");

    ParseResult result;
    const std::string_view trimmed = text.substr(begin, end - begin);
    const JsonTextParse clean = parseJsonText(trimmed, limits.maxDepth, result.value);
    if (clean.ok)
        return succeed(ParseRung::Clean, begin, trimmed.size(), std::move(result));
    bool tooDeep = clean.tooDeep;

    std::string fenceError;
    int fenceAttempts = 0;
    for (const FencedBlock& block : findFencedBlocks(text)) {
        if (!isJsonFenceLanguage(block.language))
            continue;
        std::size_t from = block.offset;
        std::size_t to = block.offset + block.length;
        trimRange(text, from, to);
        if (from == to || !canStartJsonValue(text[from]))
            continue;
        if (++fenceAttempts > kMaxFenceAttempts)
            break;
        const JsonTextParse fenced = parseJsonText(text.substr(from, to - from), limits.maxDepth, result.value);
        if (fenced.ok)
            return succeed(ParseRung::Fenced, from, to - from, std::move(result));
        tooDeep = tooDeep || fenced.tooDeep;
        if (fenceError.empty())
            fenceError
                = "fenced block is not valid JSON: " + locatedMessage(text, from + fenced.errorOffset, fenced.message);
    }

    const KnownFailure cleanFailure { begin, trimmed.size(), clean.errorOffset };
    const ExtractOutcome extracted
        = extractFirstJson(text, limits.maxDepth, result.value, clean.tooDeep ? nullptr : &cleanFailure);
    if (extracted.found)
        return succeed(ParseRung::Extracted, extracted.offset, extracted.length, std::move(result));
    tooDeep = tooDeep || extracted.tooDeep;

    if (tooDeep)
        return fail("JSON nested deeper than the limit of " + std::to_string(limits.maxDepth) + " levels");
    if (extracted.gaveUp)
        return fail(
            "no JSON value found (gave up after the work limit for " + std::to_string(text.size()) + " bytes of text)");
    if (trimmed.front() == '{' || trimmed.front() == '[')
        return fail("not valid JSON: " + locatedMessage(text, begin + clean.errorOffset, clean.message));
    if (!fenceError.empty())
        return fail(std::move(fenceError));
    return fail("no JSON value found");
}

} // namespace

const char* parseRungId(ParseRung rung)
{
    switch (rung) {
    case ParseRung::Clean:
        return "clean";
    case ParseRung::Fenced:
        return "fenced";
    case ParseRung::Extracted:
        return "extracted";
    case ParseRung::Failed:
        break;
    }
    return "failed";
}

ParseResult parseResponse(std::string_view text, const ParseLimits& limits)
{
    try {
        return runLadder(text, limits);
    } catch (const std::bad_alloc&) {
        return fail("out of memory while parsing");
    } catch (const std::exception& e) {
        // Not expected: the parser reports through SAX instead of throwing. Keep the input alive anyway.
        return fail(std::string("internal parser error: ") + e.what());
    }
}

bool parseJsonDocument(std::string_view text, nlohmann::json& out, JsonParseError& error, const ParseLimits& limits)
{
    out = nullptr;
    error = JsonParseError {};
    if (text.size() > limits.maxBytes) {
        error.message = "document is " + std::to_string(text.size()) + " bytes, over the limit of "
            + std::to_string(limits.maxBytes) + " bytes";
        return false;
    }
    std::size_t begin = text.substr(0, kBom.size()) == kBom ? kBom.size() : 0;
    std::size_t end = text.size();
    trimRange(text, begin, end);
    if (begin == end) {
        error.message = "empty document";
        error.offset = text.size();
    } else {
        JsonTextParse parsed;
        try {
            parsed = parseJsonText(text, limits.maxDepth, out);
        } catch (const std::bad_alloc&) {
            parsed.message = "out of memory while parsing";
        }
        if (parsed.ok)
            return true;
        error.message = std::move(parsed.message);
        error.offset = parsed.errorOffset;
    }
    const TextLocation loc = locateOffset(text, error.offset);
    error.line = loc.line;
    error.column = loc.column;
    return false;
}

bool parseJsonDocument(std::string_view text, nlohmann::json& out, std::string& error, const ParseLimits& limits)
{
    JsonParseError located;
    if (parseJsonDocument(text, out, located, limits)) {
        error.clear();
        return true;
    }
    error = "line " + std::to_string(located.line) + ", column " + std::to_string(located.column) + " (byte "
        + std::to_string(located.offset) + "): " + located.message;
    return false;
}

} // namespace structscope
