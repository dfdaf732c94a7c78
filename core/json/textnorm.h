// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace structscope {

/// Decodes UTF-8 into code points. Each byte of an invalid sequence becomes its own value
/// above U+10FFFF (0x110000 + byte), so distinct invalid bytes stay distinct and never throw.
std::vector<char32_t> decodeUtf8(std::string_view text);

/// Number of code points in `text` (an invalid byte counts as one).
std::size_t codePointCount(std::string_view text);

/// True when `text` is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool isValidUtf8(std::string_view text);

/// Copy of `text` in which every byte of an invalid UTF-8 sequence is written as "\xNN", so the
/// result can go into a JSON string or a QString without loss or exceptions: for messages that quote input.
std::string escapeInvalidUtf8(std::string_view text);

/// Copy of `text` in which every invalid UTF-8 sequence becomes U+FFFD, exactly as QString::fromUtf8() reads it:
/// for text written out (reports) or scored, so that it never depends on which reader read it.
std::string replaceInvalidUtf8(std::string_view text);

/// `text` cut to at most `maxBytes` bytes on a code point boundary, with "…" appended when cut.
std::string truncateUtf8(std::string_view text, std::size_t maxBytes);

/// Lenient form of a string (docs/metrics.md §0): trimmed, internal whitespace runs collapsed to one
/// space, case folded (Unicode-aware), one trailing full stop stripped.
std::string lenientNormalize(std::string_view text);

/// Compares two strings after lenientNormalize(); cheap when they are byte-equal.
bool lenientEqual(std::string_view a, std::string_view b);

} // namespace structscope
