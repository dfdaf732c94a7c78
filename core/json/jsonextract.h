// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string_view>
#include <vector>

namespace structscope {

/// A fenced code block of a Markdown-ish response.
struct FencedBlock
{
    std::size_t offset = 0; ///< first byte of the content
    std::size_t length = 0; ///< content bytes (up to, not including, the closing fence)
    std::string_view language; ///< info string's first word ("json", "" for a bare fence)
    bool closed = true; ///< false when the text ends before the closing fence
};

/// Every fenced block (``` or longer runs) in order. Tolerant of what models write: the fence need
/// not start a line, content may follow the opening fence on the same line ("```json {…}```"), and
/// an unclosed last fence runs to the end of the text. Linear time.
std::vector<FencedBlock> findFencedBlocks(std::string_view text);

/// True for the languages the `fenced` rung accepts: none, or a tag starting with "json" (any case).
bool isJsonFenceLanguage(std::string_view language);

/// Outcome of the `extracted` rung.
struct ExtractOutcome
{
    bool found = false;
    std::size_t offset = 0; ///< the span that parsed
    std::size_t length = 0;
    bool tooDeep = false; ///< some balanced candidate was skipped for nesting deeper than the limit
    bool gaveUp = false; ///< the work budget ran out before every candidate was tried
};

/// A span already known not to parse (the caller tried it), so the extractor need not parse it again.
struct KnownFailure
{
    std::size_t offset = 0;
    std::size_t length = 0;
    std::size_t errorOffset = 0; ///< relative to `offset`, as JsonTextParse::errorOffset
};

/// Finds the first balanced {…} or […] span (by start position; strings and escapes respected)
/// that parses as JSON within `maxDepth`, and parses it into `out`. Candidate results are shared
/// between nested starts, and a parse error inside an outer span rules out the inner spans that
/// contain it, so typical inputs cost O(n); a budget of about 8n + 1 MiB bytes of scanning and
/// parsing bounds adversarial ones (then `gaveUp` is set).
ExtractOutcome extractFirstJson(
    std::string_view text, int maxDepth, nlohmann::json& out, const KnownFailure* known = nullptr);

/// Reference implementation of extractFirstJson: the obvious quadratic loop, no budget. Only for
/// differential tests on small inputs.
ExtractOutcome extractFirstJsonNaive(std::string_view text, int maxDepth, nlohmann::json& out);

} // namespace structscope
