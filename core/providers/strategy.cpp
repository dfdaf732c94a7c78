// SPDX-License-Identifier: Apache-2.0
#include "providers/strategy.h"

using namespace Qt::StringLiterals;

namespace structscope {

QString strategyName(Strategy s)
{
    switch (s) {
    case Strategy::P:
        return u"P"_s;
    case Strategy::J:
        return u"J"_s;
    case Strategy::PJ:
        return u"PJ"_s;
    case Strategy::JPlus:
        return u"J+"_s;
    case Strategy::PJPlus:
        return u"PJ+"_s;
    }
    return {};
}

std::optional<Strategy> strategyFromName(const QString& name)
{
    for (Strategy s : allStrategies()) {
        if (strategyName(s) == name)
            return s;
    }
    return std::nullopt;
}

const QList<Strategy>& allStrategies()
{
    static const QList<Strategy> all { Strategy::P, Strategy::J, Strategy::PJ, Strategy::JPlus, Strategy::PJPlus };
    return all;
}

bool strategyPutsSchemaInPrompt(Strategy s)
{
    return s == Strategy::P || s == Strategy::PJ || s == Strategy::PJPlus;
}

bool strategyUsesJsonMode(Strategy s)
{
    return s == Strategy::J || s == Strategy::PJ;
}

bool strategyUsesSchemaFormat(Strategy s)
{
    return s == Strategy::JPlus || s == Strategy::PJPlus;
}

} // namespace structscope
