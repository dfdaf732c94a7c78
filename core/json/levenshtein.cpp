// levenshtein() is declared in jsondiff.h, next to the diff that uses it.
#include "json/jsondiff.h"
#include "json/textnorm.h"

#include <algorithm>
#include <vector>

namespace structscope {

namespace {

// Total DP cells we are willing to fill for one pair (~20 ms); beyond it we return an upper bound.
constexpr std::size_t kCellBudget = std::size_t(1) << 24;

// Edit distance of s (shorter) and t restricted to the diagonal band |i - j| <= k.
// Exact when the true distance is <= k; otherwise returns something > k.
std::size_t bandedDistance(const char32_t* s, std::size_t n, const char32_t* t, std::size_t m, std::size_t k,
    std::vector<std::size_t>& prev, std::vector<std::size_t>& cur)
{
    const std::size_t inf = k + 1;
    prev.assign(n + 1, inf);
    cur.assign(n + 1, inf);
    for (std::size_t j = 0; j <= std::min(n, k); ++j)
        prev[j] = j;
    for (std::size_t i = 1; i <= m; ++i) {
        const std::size_t lo = i > k ? i - k : 1;
        const std::size_t hi = std::min(n, i + k);
        cur[0] = i <= k ? i : inf;
        if (lo > 1)
            cur[lo - 1] = inf;
        for (std::size_t j = lo; j <= hi; ++j) {
            std::size_t v = prev[j - 1] + (s[j - 1] == t[i - 1] ? 0 : 1);
            v = std::min(v, prev[j] + 1);
            v = std::min(v, cur[j - 1] + 1);
            cur[j] = std::min(v, inf);
        }
        if (hi < n)
            cur[hi + 1] = inf;
        std::swap(prev, cur);
    }
    return prev[n];
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
    if (n > m) {
        std::swap(s, t);
        std::swap(n, m);
    }
    if (n == 0)
        return m;

    // Ukkonen's band doubling: cost O(d * m) for distance d instead of O(n * m).
    std::vector<std::size_t> prev;
    std::vector<std::size_t> cur;
    std::size_t k = std::max<std::size_t>(m - n, 8);
    std::size_t spent = 0;
    for (;;) {
        k = std::min(k, m);
        const std::size_t cells = m * std::min(n, 2 * k + 1);
        if (spent + cells > kCellBudget)
            return m; // too costly to be exact: max(len) is an upper bound (documented in the header)
        spent += cells;
        const std::size_t d = bandedDistance(s, n, t, m, k, prev, cur);
        if (d <= k || k == m)
            return d;
        k *= 2;
    }
}

} // namespace structscope
