// SPDX-License-Identifier: Apache-2.0
// levenshtein() is declared in jsondiff.h, next to the diff that uses it.
#include "json/jsondiff.h"
#include "json/textnorm.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace structscope {

namespace {

using Word = std::uint64_t;
constexpr std::size_t kWordBits = 64;

// Word steps (one 64-row block of one column) we are willing to take for one pair (~50 ms); beyond it we return an
// upper bound. Two strings of 64,000 code points each, after trimming their common ends, take 64M.
constexpr std::size_t kStepBudget = std::size_t(1) << 26;

/// For each symbol of the pattern, the rows (bits, 64 to a block) where the pattern holds it.
class PatternMasks
{
public:
    PatternMasks(const char32_t* pattern, std::size_t length)
        : m_blocks((length + kWordBits - 1) / kWordBits)
        , m_ascii(128 * m_blocks, 0)
    {
        for (std::size_t i = 0; i < length; ++i) {
            const char32_t c = pattern[i];
            Word* masks = nullptr;
            if (c < 128) {
                masks = &m_ascii[std::size_t(c) * m_blocks];
            } else {
                auto [it, added] = m_other.try_emplace(c, m_otherMasks.size());
                if (added)
                    m_otherMasks.resize(m_otherMasks.size() + m_blocks, 0);
                masks = &m_otherMasks[it->second];
            }
            masks[i / kWordBits] |= Word(1) << (i % kWordBits);
        }
    }

    std::size_t blocks() const { return m_blocks; }

    /// The masks of `c`'s rows, one word a block; nullptr when the pattern does not hold it.
    const Word* of(char32_t c) const
    {
        if (c < 128)
            return &m_ascii[std::size_t(c) * m_blocks];
        const auto it = m_other.find(c);
        return it == m_other.end() ? nullptr : &m_otherMasks[it->second];
    }

private:
    std::size_t m_blocks = 0;
    std::vector<Word> m_ascii; ///< 128 symbols × blocks
    std::unordered_map<char32_t, std::size_t> m_other; ///< symbol → its first word in m_otherMasks
    std::vector<Word> m_otherMasks;
};

/// The vertical deltas of one 64-row block of the DP column: Pv has the rows where D[i][j] − D[i−1][j] = +1, Mv
/// those where it is −1 (else 0).
struct Block
{
    Word pv = ~Word(0);
    Word mv = 0;
};

/// Advances one block by one text symbol (Myers 1999, in Hyyrö's formulation with blocks): `eq` are the block's rows
/// that match the symbol, `carryIn` the horizontal delta D[top−1][j] − D[top−1][j−1] entering the block from above
/// (+1 for the first block: the DP's first row counts up). Returns the horizontal delta at row `probe` of the block
/// (the block's last row for the carry into the next block, or the pattern's last row for the distance).
int advance(Block& block, Word eq, int carryIn, unsigned probe, int& carryOut)
{
    const Word pv = block.pv;
    const Word mv = block.mv;
    const Word negativeIn = carryIn < 0 ? 1 : 0;
    const Word xv = eq | mv;
    eq |= negativeIn;
    const Word xh = (((eq & pv) + pv) ^ pv) | eq;
    Word ph = mv | ~(xh | pv);
    Word mh = pv & xh;
    const Word top = Word(1) << (kWordBits - 1);
    carryOut = int((ph & top) != 0) - int((mh & top) != 0);
    const Word at = Word(1) << probe;
    const int delta = int((ph & at) != 0) - int((mh & at) != 0);
    ph = (ph << 1) | (carryIn > 0 ? 1 : 0);
    mh = (mh << 1) | negativeIn;
    block.pv = mh | ~(xv | ph);
    block.mv = ph & xv;
    return delta;
}

/// Edit distance of `pattern` (m > 0 symbols) and `text` (n symbols), one column of the DP per text symbol, 64 rows
/// per machine word: O(n · ⌈m / 64⌉) word operations, whatever the distance.
std::size_t bitParallelDistance(const char32_t* pattern, std::size_t m, const char32_t* text, std::size_t n)
{
    const PatternMasks masks(pattern, m);
    const std::size_t blocks = masks.blocks();
    std::vector<Block> column(blocks);
    const auto lastRow = unsigned((m - 1) % kWordBits);
    std::size_t distance = m; // D[m][0]
    for (std::size_t j = 0; j < n; ++j) {
        const Word* eq = masks.of(text[j]);
        int carry = 1; // D[0][j] − D[0][j−1]
        for (std::size_t b = 0; b < blocks; ++b) {
            int carryOut = 0;
            const bool last = b + 1 == blocks;
            const int delta
                = advance(column[b], eq ? eq[b] : 0, carry, last ? lastRow : unsigned(kWordBits - 1), carryOut);
            if (last)
                distance = std::size_t(std::ptrdiff_t(distance) + delta);
            carry = carryOut;
        }
    }
    return distance;
}

} // namespace

std::size_t levenshtein(std::string_view a, std::string_view b)
{
    if (a == b)
        return 0;
    const std::vector<char32_t> ca = decodeUtf8(a);
    const std::vector<char32_t> cb = decodeUtf8(b);
    const char32_t* s = ca.data();
    const char32_t* t = cb.data();
    std::size_t n = ca.size();
    std::size_t m = cb.size();
    // Common prefix and suffix never change the distance and are the bulk of near-equal strings.
    while (n > 0 && m > 0 && *s == *t) {
        ++s;
        ++t;
        --n;
        --m;
    }
    while (n > 0 && m > 0 && s[n - 1] == t[m - 1]) {
        --n;
        --m;
    }
    // The shorter one is the pattern: fewer blocks per column.
    if (n > m) {
        std::swap(s, t);
        std::swap(n, m);
    }
    if (n == 0)
        return m;
    const std::size_t steps = m * ((n + kWordBits - 1) / kWordBits);
    if (steps > kStepBudget)
        return m; // too costly to be exact: max(len) is an upper bound (documented in the header)
    return bitParallelDistance(s, n, t, m);
}

} // namespace structscope
