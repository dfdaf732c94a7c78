// SPDX-License-Identifier: Apache-2.0
#include "json/textnorm.h"

#include <QString>

#include <algorithm>

namespace structscope {

namespace {

bool isContinuation(unsigned char b)
{
    return (b & 0xC0u) == 0x80u;
}

// Length of the well-formed sequence starting at text[i], 0 if there is none (RFC 3629 table).
int decodeOne(std::string_view text, std::size_t i, char32_t& cp)
{
    const auto at = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char b0 = at(i);
    const std::size_t left = text.size() - i;
    if (b0 < 0x80u) {
        cp = b0;
        return 1;
    }
    if (b0 < 0xC2u)
        return 0;
    if (b0 < 0xE0u) {
        if (left < 2 || !isContinuation(at(i + 1)))
            return 0;
        cp = (char32_t(b0 & 0x1Fu) << 6) | (at(i + 1) & 0x3Fu);
        return 2;
    }
    if (b0 < 0xF0u) {
        if (left < 3 || !isContinuation(at(i + 1)) || !isContinuation(at(i + 2)))
            return 0;
        const unsigned char b1 = at(i + 1);
        if ((b0 == 0xE0u && b1 < 0xA0u) || (b0 == 0xEDu && b1 >= 0xA0u))
            return 0; // overlong, or a UTF-16 surrogate
        cp = (char32_t(b0 & 0x0Fu) << 12) | (char32_t(b1 & 0x3Fu) << 6) | (at(i + 2) & 0x3Fu);
        return 3;
    }
    if (b0 < 0xF5u) {
        if (left < 4 || !isContinuation(at(i + 1)) || !isContinuation(at(i + 2)) || !isContinuation(at(i + 3)))
            return 0;
        const unsigned char b1 = at(i + 1);
        if ((b0 == 0xF0u && b1 < 0x90u) || (b0 == 0xF4u && b1 >= 0x90u))
            return 0; // overlong, or above U+10FFFF
        cp = (char32_t(b0 & 0x07u) << 18) | (char32_t(b1 & 0x3Fu) << 12) | (char32_t(at(i + 2) & 0x3Fu) << 6)
            | (at(i + 3) & 0x3Fu);
        return 4;
    }
    return 0;
}

bool isAscii(std::string_view text)
{
    return std::ranges::all_of(text, [](const char c) { return static_cast<unsigned char>(c) < 0x80u; });
}

// The ASCII subset of QChar::isSpace(), so the fast path agrees with the QString path.
bool isAsciiSpace(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

std::string lenientAscii(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    bool pendingSpace = false;
    for (const char c : text) {
        if (isAsciiSpace(c)) {
            pendingSpace = !out.empty();
            continue;
        }
        if (pendingSpace) {
            out.push_back(' ');
            pendingSpace = false;
        }
        out.push_back(c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c);
    }
    if (!out.empty() && out.back() == '.') {
        out.pop_back();
        if (!out.empty() && out.back() == ' ')
            out.pop_back();
    }
    return out;
}

} // namespace

std::vector<char32_t> decodeUtf8(std::string_view text)
{
    std::vector<char32_t> out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        char32_t cp = 0;
        const int len = decodeOne(text, i, cp);
        if (len == 0) {
            out.push_back(char32_t(0x110000u + static_cast<unsigned char>(text[i])));
            ++i;
        } else {
            out.push_back(cp);
            i += std::size_t(len);
        }
    }
    return out;
}

std::size_t codePointCount(std::string_view text)
{
    std::size_t count = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        char32_t cp = 0;
        const int len = decodeOne(text, i, cp);
        i += len == 0 ? 1 : std::size_t(len);
        ++count;
    }
    return count;
}

bool isValidUtf8(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        char32_t cp = 0;
        const int len = decodeOne(text, i, cp);
        if (len == 0)
            return false;
        i += std::size_t(len);
    }
    return true;
}

std::string escapeInvalidUtf8(std::string_view text)
{
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        char32_t cp = 0;
        const int len = decodeOne(text, i, cp);
        if (len == 0) {
            const auto b = static_cast<unsigned char>(text[i]);
            out += "\\x";
            out.push_back(hex[b >> 4]);
            out.push_back(hex[b & 0x0Fu]);
            ++i;
        } else {
            out.append(text.substr(i, std::size_t(len)));
            i += std::size_t(len);
        }
    }
    return out;
}

std::string truncateUtf8(std::string_view text, std::size_t maxBytes)
{
    if (text.size() <= maxBytes)
        return std::string(text);
    std::size_t cut = maxBytes;
    while (cut > 0 && isContinuation(static_cast<unsigned char>(text[cut])))
        --cut;
    return std::string(text.substr(0, cut)) + "\xE2\x80\xA6";
}

std::string lenientNormalize(std::string_view text)
{
    if (isAscii(text))
        return lenientAscii(text);
    QString s = QString::fromUtf8(text.data(), qsizetype(text.size())).simplified().toCaseFolded();
    if (s.endsWith(u'.')) {
        s.chop(1);
        if (s.endsWith(u' '))
            s.chop(1);
    }
    return s.toStdString();
}

namespace {

/// The part of an ASCII text that lenientAscii() keeps: without surrounding whitespace, and without one final
/// full stop and the whitespace before it.
std::string_view lenientAsciiExtent(std::string_view text)
{
    std::size_t begin = 0;
    std::size_t end = text.size();
    while (begin < end && isAsciiSpace(text[begin]))
        ++begin;
    while (end > begin && isAsciiSpace(text[end - 1]))
        --end;
    if (end > begin && text[end - 1] == '.') {
        --end;
        while (end > begin && isAsciiSpace(text[end - 1]))
            --end;
    }
    return text.substr(begin, end - begin);
}

/// lenientAscii(a) == lenientAscii(b), without building either: both extents are walked at once, a run of
/// whitespace read as one space and letters folded to lower case.
bool lenientAsciiEqual(std::string_view a, std::string_view b)
{
    a = lenientAsciiExtent(a);
    b = lenientAsciiExtent(b);
    const auto fold = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        const bool spaceA = isAsciiSpace(a[i]);
        if (spaceA != isAsciiSpace(b[j]))
            return false;
        if (spaceA) { // an extent neither starts nor ends with whitespace: a run is inner, and one space
            while (i < a.size() && isAsciiSpace(a[i]))
                ++i;
            while (j < b.size() && isAsciiSpace(b[j]))
                ++j;
            continue;
        }
        if (fold(a[i]) != fold(b[j]))
            return false;
        ++i;
        ++j;
    }
    return i == a.size() && j == b.size();
}

} // namespace

bool lenientEqual(std::string_view a, std::string_view b)
{
    if (a == b)
        return true;
    if (isAscii(a) && isAscii(b))
        return lenientAsciiEqual(a, b);
    return lenientNormalize(a) == lenientNormalize(b);
}

std::string replaceInvalidUtf8(std::string_view text)
{
    // Pure ASCII is by far the common case and needs no round trip.
    if (std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
        return std::string(text);
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())).toStdString();
}

} // namespace structscope
