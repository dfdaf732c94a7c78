// SPDX-License-Identifier: Apache-2.0
#include "stats/multiplicity.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace structscope {

namespace {

/// Indices of the finite p values, sorted by p ascending (ties in index order).
std::vector<std::size_t> ascendingOrder(std::span<const double> p)
{
    std::vector<std::size_t> order;
    order.reserve(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (!std::isnan(p[i]))
            order.push_back(i);
    }
    std::stable_sort(order.begin(), order.end(), [&p](std::size_t a, std::size_t b) { return p[a] < p[b]; });
    return order;
}

} // namespace

std::string_view pAdjustMethodName(PAdjustMethod method)
{
    return method == PAdjustMethod::Holm ? "holm" : "bh";
}

std::optional<PAdjustMethod> pAdjustMethodFromName(std::string_view name)
{
    if (name == "holm")
        return PAdjustMethod::Holm;
    if (name == "bh")
        return PAdjustMethod::BenjaminiHochberg;
    return std::nullopt;
}

std::vector<double> holmAdjust(std::span<const double> p)
{
    std::vector<double> adjusted(p.size(), std::numeric_limits<double>::quiet_NaN());
    const std::vector<std::size_t> order = ascendingOrder(p);
    const auto m = double(order.size());
    double running = 0.0;
    for (std::size_t rank = 0; rank < order.size(); ++rank) {
        // rank is j − 1, so (m − j + 1) = m − rank.
        const double scaled = std::min(1.0, (m - double(rank)) * std::clamp(p[order[rank]], 0.0, 1.0));
        running = std::max(running, scaled);
        adjusted[order[rank]] = running;
    }
    return adjusted;
}

std::vector<double> benjaminiHochbergAdjust(std::span<const double> p)
{
    std::vector<double> adjusted(p.size(), std::numeric_limits<double>::quiet_NaN());
    const std::vector<std::size_t> order = ascendingOrder(p);
    const auto m = double(order.size());
    double running = 1.0;
    for (std::size_t rank = order.size(); rank-- > 0;) {
        const double scaled = m * std::clamp(p[order[rank]], 0.0, 1.0) / double(rank + 1);
        running = std::min(running, scaled);
        adjusted[order[rank]] = running;
    }
    return adjusted;
}

std::vector<double> adjustPValues(std::span<const double> p, PAdjustMethod method)
{
    return method == PAdjustMethod::Holm ? holmAdjust(p) : benjaminiHochbergAdjust(p);
}

} // namespace structscope
