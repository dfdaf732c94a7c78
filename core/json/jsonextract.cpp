// SPDX-License-Identifier: Apache-2.0
#include "json/jsonextract.h"

#include "json/jsonscan.h"
#include "json/jsontext.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace structscope {

namespace {

std::size_t backtickRun(std::string_view text, std::size_t pos)
{
    std::size_t end = pos;
    while (end < text.size() && text[end] == '`')
        ++end;
    return end - pos;
}

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

bool isJsonSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool isOpen(char c)
{
    return c == '{' || c == '[';
}

char closerOf(char open)
{
    return open == '{' ? '}' : ']';
}

// Where the balanced span starting at text[start] (a '{' or '[') ends, following JSON's string and
// escape rules and requiring matching bracket kinds. Used by the naive reference only.
struct SpanScan
{
    bool balanced = false;
    std::size_t end = 0;
    std::size_t depth = 0;
};

SpanScan scanSpan(std::string_view text, std::size_t start)
{
    SpanScan result;
    std::string closers;
    JsonStringState strings;
    for (std::size_t i = start; i < text.size(); ++i) {
        const char c = text[i];
        if (strings.inString(c))
            continue;
        if (isOpen(c)) {
            closers.push_back(closerOf(c));
            result.depth = std::max(result.depth, closers.size());
        } else if (c == '}' || c == ']') {
            if (c != closers.back())
                return result;
            closers.pop_back();
            if (closers.empty()) {
                result.balanced = true;
                result.end = i;
                return result;
            }
        }
    }
    return result;
}

// The optimised search. One scan from a candidate start also settles every bracket it meets outside
// strings (their scans would follow the same path), so those results are kept in a memo sorted by
// position. A start that lies inside a string of that path needs a fresh scan; the two latest memos
// are kept, which covers text whose brackets alternate between two string phases ({"{"{"…).
class Extractor
{
public:
    Extractor(std::string_view text, int maxDepth, nlohmann::json& out, const KnownFailure* known)
        : m_text(text)
        , m_maxDepth(maxDepth)
        , m_out(out)
        , m_known(known)
        , m_budget(8 * text.size() + (std::size_t(1) << 20))
    { }

    ExtractOutcome run()
    {
        ExtractOutcome outcome;
        std::size_t pos = m_text.find_first_of("{[");
        while (pos != std::string_view::npos) {
            if (m_work > m_budget) {
                outcome.gaveUp = true;
                break;
            }
            Candidate* cand = lookup(pos);
            if (cand == nullptr) {
                scanFrom(pos);
                cand = lookup(pos);
            }
            Memo& memo = m_memos[m_found];
            std::size_t next = pos + 1;
            if (cand != nullptr && cand->state == State::Balanced) {
                if (cand->depth > std::size_t(std::max(m_maxDepth, 0))) {
                    // Too deep to parse; its inner spans are part of it and are not tried either.
                    outcome.tooDeep = true;
                    next = cand->end + 1;
                } else if (cannotStartJson(pos)) {
                    // Prose such as "[1]"-style markers or "{braces}": no need to ask the parser.
                    m_work += 1;
                } else if (m_known != nullptr && m_known->offset == pos && m_known->length == cand->end - pos + 1) {
                    ruleOutContaining(memo, pos + m_known->errorOffset);
                } else {
                    const std::string_view span = m_text.substr(pos, cand->end - pos + 1);
                    const JsonTextParse parsed = parseJsonText(span, m_maxDepth, m_out);
                    m_work += kParseAttemptCost;
                    if (parsed.ok) {
                        outcome.found = true;
                        outcome.offset = pos;
                        outcome.length = span.size();
                        return outcome;
                    }
                    m_work += std::min(parsed.errorOffset + 1, span.size());
                    if (!parsed.tooDeep)
                        ruleOutContaining(memo, pos + parsed.errorOffset);
                }
            }
            pos = m_text.find_first_of("{[", next);
        }
        m_out = nullptr;
        return outcome;
    }

private:
    enum class State : std::uint8_t { Open, Balanced, Unbalanced, Unknown, Failed };

    struct Candidate
    {
        std::size_t pos = 0;
        std::size_t end = 0;
        std::size_t depth = 0; ///< nesting levels of the span (1 for "{}")
        State state = State::Open;
    };

    struct Level
    {
        std::size_t memo; ///< index into the memo being written, or kNoMemo
        std::size_t maxLevel; ///< deepest absolute level reached inside this one so far
        char close;
    };

    struct Memo
    {
        std::vector<Candidate> items;
        std::size_t cursor = 0; ///< first item not before the current candidate
    };

    static constexpr std::size_t kNoMemo = std::numeric_limits<std::size_t>::max();
    // A failed parse costs far more than its bytes (nlohmann builds an error message); charging it
    // keeps inputs made of many tiny failing spans within the time the byte budget implies.
    static constexpr std::size_t kParseAttemptCost = 128;
    static constexpr std::size_t kMaxMemo = std::size_t(1) << 18;
    static constexpr std::size_t kMaxLevels = std::size_t(1) << 20;

    // True when the first token after the bracket at `pos` already rules out JSON: an object must
    // continue with a key or '}', an array with a value or ']'. The parser would stop right there.
    bool cannotStartJson(std::size_t pos) const
    {
        std::size_t i = pos + 1;
        while (i < m_text.size() && isJsonSpace(m_text[i]))
            ++i;
        if (i >= m_text.size())
            return true;
        const char c = m_text[i];
        if (m_text[pos] == '{')
            return c != '"' && c != '}';
        return !(isOpen(c) || c == ']' || c == '"' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f'
            || c == 'n');
    }

    // The settled candidate at `pos` from either memo (m_found says which), or nullptr.
    Candidate* lookup(std::size_t pos)
    {
        for (int k = 0; k < 2; ++k) {
            Memo& memo = m_memos[k];
            while (memo.cursor < memo.items.size() && memo.items[memo.cursor].pos < pos)
                ++memo.cursor;
            if (memo.cursor < memo.items.size() && memo.items[memo.cursor].pos == pos
                && memo.items[memo.cursor].state != State::Unknown) {
                m_found = k;
                return &memo.items[memo.cursor];
            }
        }
        return nullptr;
    }

    void scanFrom(std::size_t start)
    {
        m_latest = 1 - m_latest; // overwrite the older memo
        std::vector<Candidate>& items = m_memos[m_latest].items;
        m_memos[m_latest].cursor = 0;
        items.clear();
        m_levels.clear();
        JsonStringState strings;
        bool aborted = false;
        std::size_t i = start;
        for (; i < m_text.size(); ++i) {
            const char c = m_text[i];
            if (strings.inString(c))
                continue;
            if (isOpen(c)) {
                if (m_levels.size() >= kMaxLevels) {
                    aborted = true;
                    break;
                }
                std::size_t memo = kNoMemo;
                if (items.size() < kMaxMemo) {
                    memo = items.size();
                    items.push_back(Candidate { i, 0, 0, State::Open });
                }
                m_levels.push_back(Level { memo, m_levels.size() + 1, closerOf(c) });
            } else if (c == '}' || c == ']') {
                const Level top = m_levels.back();
                if (c != top.close)
                    break; // every level still open can never balance
                m_levels.pop_back();
                if (top.memo != kNoMemo) {
                    Candidate& cand = items[top.memo];
                    cand.end = i;
                    cand.depth = top.maxLevel - m_levels.size();
                    cand.state = State::Balanced;
                }
                if (m_levels.empty())
                    break;
                m_levels.back().maxLevel = std::max(m_levels.back().maxLevel, top.maxLevel);
            }
        }
        m_work += i - start + 1;
        for (const Level& level : m_levels) {
            if (level.memo != kNoMemo)
                items[level.memo].state = aborted ? State::Unknown : State::Unbalanced;
        }
    }

    // The parse of the span at memo.items[memo.cursor] failed at byte `error`. Every bracket on
    // the same scan path between its start and the error was read by that parse as the start of a
    // value, so a span that begins there and still contains the error fails at the same byte.
    void ruleOutContaining(Memo& memo, std::size_t error)
    {
        std::vector<Candidate>& items = memo.items;
        for (std::size_t j = memo.cursor + 1; j < items.size() && items[j].pos < error; ++j) {
            ++m_work;
            if (items[j].state == State::Balanced && items[j].end >= error)
                items[j].state = State::Failed;
        }
    }

    std::string_view m_text;
    int m_maxDepth;
    nlohmann::json& m_out;
    const KnownFailure* m_known;
    std::size_t m_budget;
    std::size_t m_work = 0;
    Memo m_memos[2];
    int m_latest = 1; ///< memo written by the latest fresh scan
    int m_found = 0; ///< memo in which lookup() found its candidate
    std::vector<Level> m_levels;
};

} // namespace

std::vector<FencedBlock> findFencedBlocks(std::string_view text)
{
    std::vector<FencedBlock> blocks;
    const std::size_t n = text.size();
    std::size_t pos = 0;
    for (;;) {
        const std::size_t open = text.find("```", pos);
        if (open == std::string_view::npos)
            break;
        const std::size_t fence = backtickRun(text, open);
        std::size_t p = open + fence;
        while (p < n && isBlank(text[p]))
            ++p;
        const std::size_t langStart = p;
        while (p < n && !isBlank(text[p]) && text[p] != '\n' && !isOpen(text[p]) && text[p] != '`')
            ++p;
        const std::string_view language = text.substr(langStart, p - langStart);
        while (p < n && isBlank(text[p]))
            ++p;
        std::size_t contentStart = p;
        if (p >= n || !isOpen(text[p])) {
            // The rest of the opening line is info string; content starts on the next line.
            const std::size_t lineEnd = text.find('\n', p);
            contentStart = lineEnd == std::string_view::npos ? n : lineEnd + 1;
        }
        std::size_t close = contentStart;
        bool closed = false;
        while ((close = text.find("```", close)) != std::string_view::npos) {
            const std::size_t run = backtickRun(text, close);
            if (run >= fence) {
                closed = true;
                break;
            }
            close += run;
        }
        if (!closed) {
            blocks.push_back(FencedBlock { contentStart, n - contentStart, language, false });
            break;
        }
        blocks.push_back(FencedBlock { contentStart, close - contentStart, language, true });
        pos = close + backtickRun(text, close);
    }
    return blocks;
}

bool isJsonFenceLanguage(std::string_view language)
{
    if (language.empty())
        return true;
    static constexpr std::string_view json = "json";
    if (language.size() < json.size())
        return false;
    for (std::size_t i = 0; i < json.size(); ++i) {
        const char c = language[i];
        if ((c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c) != json[i])
            return false;
    }
    return true;
}

ExtractOutcome extractFirstJson(std::string_view text, int maxDepth, nlohmann::json& out, const KnownFailure* known)
{
    return Extractor(text, maxDepth, out, known).run();
}

ExtractOutcome extractFirstJsonNaive(std::string_view text, int maxDepth, nlohmann::json& out)
{
    ExtractOutcome outcome;
    std::size_t pos = text.find_first_of("{[");
    while (pos != std::string_view::npos) {
        std::size_t next = pos + 1;
        const SpanScan scan = scanSpan(text, pos);
        if (scan.balanced) {
            if (scan.depth > std::size_t(std::max(maxDepth, 0))) {
                outcome.tooDeep = true;
                next = scan.end + 1;
            } else if (parseJsonText(text.substr(pos, scan.end - pos + 1), maxDepth, out).ok) {
                outcome.found = true;
                outcome.offset = pos;
                outcome.length = scan.end - pos + 1;
                return outcome;
            }
        }
        pos = text.find_first_of("{[", next);
    }
    out = nullptr;
    return outcome;
}

} // namespace structscope
