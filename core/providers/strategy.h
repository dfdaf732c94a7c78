// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace structscope {

/// The five request shapes of docs/metrics.md §2 "Strategies".
enum class Strategy { P, J, PJ, JPlus, PJPlus };

/// "P", "J", "PJ", "J+", "PJ+".
QString strategyName(Strategy s);
/// The strategy with exactly that name; nullopt otherwise.
std::optional<Strategy> strategyFromName(const QString& name);
/// Every strategy, in the order P, J, PJ, J+, PJ+.
const QList<Strategy>& allStrategies();
/// P, PJ and PJ+ show the schema (and the suite's example) in the prompt.
bool strategyPutsSchemaInPrompt(Strategy s);
/// J and PJ ask the provider for plain JSON mode (format=json / json_object).
bool strategyUsesJsonMode(Strategy s);
/// J+ and PJ+ hand the response schema to the provider as the output format.
bool strategyUsesSchemaFormat(Strategy s);

} // namespace structscope
