// SPDX-License-Identifier: Apache-2.0
#include "store/rows.h"

#include <array>
#include <utility>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

constexpr std::array<std::pair<RunStatus, QLatin1StringView>, 5> kRunStatusNames { {
    { RunStatus::Running, "running"_L1 },
    { RunStatus::Paused, "paused"_L1 },
    { RunStatus::Cancelled, "cancelled"_L1 },
    { RunStatus::Finished, "finished"_L1 },
    { RunStatus::Interrupted, "interrupted"_L1 },
} };

constexpr std::array<std::pair<CostSource, QLatin1StringView>, 3> kCostSourceNames { {
    { CostSource::None, "none"_L1 },
    { CostSource::Provider, "provider"_L1 },
    { CostSource::PriceTable, "price_table"_L1 },
} };

} // namespace

QString runStatusName(RunStatus status)
{
    for (const auto& [value, name] : kRunStatusNames) {
        if (value == status)
            return QString(name);
    }
    return {};
}

std::optional<RunStatus> runStatusFromName(const QString& name)
{
    for (const auto& [value, text] : kRunStatusNames) {
        if (name == text)
            return value;
    }
    return std::nullopt;
}

QString costSourceName(CostSource source)
{
    for (const auto& [value, name] : kCostSourceNames) {
        if (value == source)
            return QString(name);
    }
    return {};
}

std::optional<CostSource> costSourceFromUtf8(std::string_view name)
{
    for (const auto& [value, text] : kCostSourceNames) {
        if (name == std::string_view(text.data(), std::size_t(text.size())))
            return value;
    }
    return std::nullopt;
}

std::optional<CostSource> costSourceFromName(const QString& name)
{
    for (const auto& [value, text] : kCostSourceNames) {
        if (name == text)
            return value;
    }
    return std::nullopt;
}

} // namespace structscope
