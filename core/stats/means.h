// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QStringView>

#include <span>

namespace structscope {

/// Arithmetic mean; NaN for no values.
double meanOf(std::span<const double> values);

/// Σ wᵢ·xᵢ / Σ wᵢ; NaN when the sizes differ, a weight is negative or not finite, or Σ wᵢ is 0.
double weightedMeanOf(std::span<const double> values, std::span<const double> weights);

/// SOB's complexity weight of a tier label: "easy" 1, "medium" 2, "hard" 3, anything else 0.
/// Labels match exactly (case and spaces count), as SOB's own lookup does.
double complexityWeight(QStringView tier);

} // namespace structscope
