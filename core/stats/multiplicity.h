// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace structscope {

/// How a family of p values is corrected for being tested together.
enum class PAdjustMethod {
    /// Holm's step-down method: controls the family-wise error rate (the chance of any false positive) under any
    /// dependence between the tests. Never less powerful than Bonferroni.
    Holm,
    /// Benjamini–Hochberg step-up method: controls the false discovery rate (the expected share of false positives
    /// among the tests called significant) for independent or positively dependent tests.
    BenjaminiHochberg,
};

/// "holm" or "bh".
std::string_view pAdjustMethodName(PAdjustMethod method);
/// The method named "holm" or "bh" (lower case), else nothing.
std::optional<PAdjustMethod> pAdjustMethodFromName(std::string_view name);

/// Holm-adjusted p values, in the order of `p`. With the m finite p values sorted ascending, p₍₁₎ ≤ … ≤ p₍ₘ₎:
/// p̃₍ᵢ₎ = min(1, max_{j ≤ i} (m − j + 1)·p₍ⱼ₎). The running maximum makes them monotone in p, so tied p values get
/// the same adjusted value whatever order the sort leaves them in. A NaN p (a test that could not be made) is not
/// counted in m and stays NaN. Rejecting where p̃ ≤ α is Holm's procedure at level α.
std::vector<double> holmAdjust(std::span<const double> p);

/// Benjamini–Hochberg-adjusted p values ("q values"), in the order of `p`. With the m finite p values sorted
/// ascending: p̃₍ᵢ₎ = min(1, min_{j ≥ i} m·p₍ⱼ₎ / j). The running minimum from the largest down makes them
/// monotone, and tied p values equal. NaN stays NaN and is not counted in m. Rejecting where p̃ ≤ α is the BH
/// procedure at false discovery rate α.
std::vector<double> benjaminiHochbergAdjust(std::span<const double> p);

/// holmAdjust() or benjaminiHochbergAdjust().
std::vector<double> adjustPValues(std::span<const double> p, PAdjustMethod method);

} // namespace structscope
