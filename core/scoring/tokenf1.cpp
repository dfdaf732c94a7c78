// SPDX-License-Identifier: Apache-2.0
#include "scoring/tokenf1.h"

#include "scoring/pyformat.h"

#include <QChar>

#include <algorithm>
#include <cstdint>
#include <iterator>

namespace structscope {

using nlohmann::json;

namespace {

constexpr char32_t kInvalid = 0xFFFD; // a non-word character, so bad bytes separate tokens

// Python's Case_Ignorable, for the final-sigma rule: Mn, Me, Cf, Lm, Sk, plus the Word_Break
// MidLetter / MidNumLet / Single_Quote characters. Matches Python 3.11 on every code point.
bool isCaseIgnorable(char32_t c)
{
    switch (QChar::category(c)) {
    case QChar::Mark_NonSpacing:
    case QChar::Mark_Enclosing:
    case QChar::Other_Format:
    case QChar::Letter_Modifier:
    case QChar::Symbol_Modifier:
        return true;
    default:
        break;
    }
    // Word_Break MidLetter, MidNumLet and Single_Quote characters outside those categories.
    static constexpr char32_t kMidWord[] = { 0x27, 0x2E, 0x3A, 0xB7, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024,
        0x2027, 0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A };
    return std::find(std::begin(kMidWord), std::end(kMidWord), c) != std::end(kMidWord);
}

// Python's Cased (Lowercase or Uppercase or Lt). The explicit ranges are Other_Lowercase /
// Other_Uppercase characters without a case mapping (ª, º, squared and negative Latin letters).
bool isCased(char32_t c)
{
    switch (QChar::category(c)) {
    case QChar::Letter_Lowercase:
    case QChar::Letter_Uppercase:
    case QChar::Letter_Titlecase:
        return true;
    default:
        break;
    }
    if (QChar::toLower(c) != c || QChar::toUpper(c) != c)
        return true;
    return c == 0xAA || c == 0xBA || (c >= 0x1F130 && c <= 0x1F149) || (c >= 0x1F150 && c <= 0x1F169)
        || (c >= 0x1F170 && c <= 0x1F189);
}

// CPython's handle_capital_sigma: final when preceded by a cased letter and not followed by one
// (case-ignorable characters skipped on both sides).
bool isFinalSigma(const std::u32string& text, std::size_t i)
{
    std::size_t j = i;
    while (j > 0 && isCaseIgnorable(text[j - 1]))
        --j;
    if (j == 0 || !isCased(text[j - 1]))
        return false;
    j = i + 1;
    while (j < text.size() && isCaseIgnorable(text[j]))
        ++j;
    return j == text.size() || !isCased(text[j]);
}

bool isWordChar(char32_t c)
{
    return c == U'_' || QChar::isLetterOrNumber(c);
}

void decodeUtf8Into(std::string_view text, std::u32string& out)
{
    out.clear();
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned char b = s[i];
        int extra = 0;
        char32_t cp = 0;
        char32_t minimum = 0;
        if (b < 0x80) {
            out.push_back(b);
            ++i;
            continue;
        }
        if ((b & 0xE0) == 0xC0) {
            extra = 1;
            cp = b & 0x1F;
            minimum = 0x80;
        } else if ((b & 0xF0) == 0xE0) {
            extra = 2;
            cp = b & 0x0F;
            minimum = 0x800;
        } else if ((b & 0xF8) == 0xF0) {
            extra = 3;
            cp = b & 0x07;
            minimum = 0x10000;
        } else {
            out.push_back(kInvalid);
            ++i;
            continue;
        }
        if (i + static_cast<std::size_t>(extra) >= n) { // truncated sequence
            out.push_back(kInvalid);
            ++i;
            continue;
        }
        bool ok = true;
        for (int k = 1; k <= extra; ++k) {
            const unsigned char c = s[i + static_cast<std::size_t>(k)];
            if ((c & 0xC0) != 0x80) {
                ok = false;
                break;
            }
            cp = (cp << 6) | (c & 0x3F);
        }
        if (!ok || cp < minimum || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            out.push_back(kInvalid);
            ++i;
            continue;
        }
        out.push_back(cp);
        i += static_cast<std::size_t>(extra) + 1;
    }
}

void appendUtf8(std::string& out, char32_t c)
{
    if (c < 0x80) {
        out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (c >> 6)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (c >> 12)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (c >> 18)));
        out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
}

bool isArticle(std::string_view token)
{
    return token == "a" || token == "an" || token == "the";
}

// Normalised tokens of one text, kept in reusable buffers so scoring does not allocate per leaf.
class TokenBag
{
public:
    void assign(std::string_view text)
    {
        m_buffer.clear();
        m_spans.clear();
        const bool ascii
            = std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
        if (ascii)
            tokenizeAscii(text);
        else
            tokenizeUnicode(text);
        m_tokens.clear();
        for (const auto& [begin, length] : m_spans)
            m_tokens.emplace_back(m_buffer.data() + begin, length);
    }

    void assignValue(const json* value)
    {
        if (value == nullptr || value->is_null()) {
            assign("null");
        } else if (value->is_boolean()) {
            assign(value->get<bool>() ? "true" : "false");
        } else if (value->is_string()) {
            assign(value->get_ref<const std::string&>());
        } else {
            m_text.clear();
            appendPyStr(m_text, *value);
            assign(m_text);
        }
    }

    std::vector<std::string_view>& tokens() { return m_tokens; }

private:
    void endToken(std::size_t begin)
    {
        const std::size_t length = m_buffer.size() - begin;
        if (length == 0)
            return;
        if (isArticle(std::string_view(m_buffer).substr(begin))) {
            m_buffer.resize(begin);
            return;
        }
        m_spans.emplace_back(static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(length));
    }

    void tokenizeAscii(std::string_view text)
    {
        std::size_t begin = 0;
        for (const char ch : text) {
            char c = ch;
            if (c >= 'A' && c <= 'Z')
                c = static_cast<char>(c - 'A' + 'a');
            const bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
            if (word) {
                m_buffer.push_back(c);
            } else {
                endToken(begin);
                begin = m_buffer.size();
            }
        }
        endToken(begin);
    }

    void tokenizeUnicode(std::string_view text)
    {
        decodeUtf8Into(text, m_codePoints);
        std::size_t begin = 0;
        auto pushLowered = [&](char32_t c) {
            if (isWordChar(c)) {
                appendUtf8(m_buffer, c);
            } else {
                endToken(begin);
                begin = m_buffer.size();
            }
        };
        for (std::size_t i = 0; i < m_codePoints.size(); ++i) {
            const char32_t c = m_codePoints[i];
            if (c == 0x130) { // İ lower-cases to two code points; the dot is a combining mark
                pushLowered(U'i');
                pushLowered(0x307);
            } else if (c == 0x3A3) {
                pushLowered(isFinalSigma(m_codePoints, i) ? 0x3C2 : 0x3C3);
            } else {
                pushLowered(QChar::toLower(c));
            }
        }
        endToken(begin);
    }

    std::string m_text;
    std::string m_buffer;
    std::u32string m_codePoints;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_spans;
    std::vector<std::string_view> m_tokens;
};

double f1OfBags(TokenBag& gold, TokenBag& predicted)
{
    auto& g = gold.tokens();
    auto& p = predicted.tokens();
    if (g.empty() && p.empty())
        return 1.0;
    if (g.empty() || p.empty())
        return 0.0;
    std::sort(g.begin(), g.end());
    std::sort(p.begin(), p.end());
    std::size_t overlap = 0;
    for (auto i = g.begin(), j = p.begin(); i != g.end() && j != p.end();) {
        if (*i < *j) {
            ++i;
        } else if (*j < *i) {
            ++j;
        } else {
            ++overlap;
            ++i;
            ++j;
        }
    }
    if (overlap == 0)
        return 0.0;
    // Same operations in the same order as the Python reference, so results are bit-identical.
    const double precision = static_cast<double>(overlap) / static_cast<double>(p.size());
    const double recall = static_cast<double>(overlap) / static_cast<double>(g.size());
    return (2 * precision * recall) / (precision + recall);
}

TokenBag& goldBag()
{
    thread_local TokenBag bag;
    return bag;
}

TokenBag& predictedBag()
{
    thread_local TokenBag bag;
    return bag;
}

} // namespace

std::string sobValueText(const json* value)
{
    if (value == nullptr || value->is_null())
        return "null";
    if (value->is_boolean())
        return value->get<bool>() ? "true" : "false";
    return pyStr(*value);
}

std::vector<std::string> sobTokens(std::string_view text)
{
    TokenBag bag;
    bag.assign(text);
    std::vector<std::string> out;
    out.reserve(bag.tokens().size());
    for (const std::string_view t : bag.tokens())
        out.emplace_back(t);
    return out;
}

double textTokenF1(std::string_view gold, std::string_view predicted)
{
    TokenBag& g = goldBag();
    TokenBag& p = predictedBag();
    g.assign(gold);
    p.assign(predicted);
    return f1OfBags(g, p);
}

double tokenF1(const json* gold, const json* predicted)
{
    TokenBag& g = goldBag();
    TokenBag& p = predictedBag();
    g.assignValue(gold);
    p.assignValue(predicted);
    return f1OfBags(g, p);
}

} // namespace structscope
