// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "providers/strategy.h"
#include "sim/simprofile.h"
#include "suite/suite.h"

#include <QString>
#include <QStringList>

namespace structscope {

/// One simulated answer, with the faults that were injected into it.
struct SimAnswer
{
    QString text; ///< the raw response text, as a model would send it
    QStringList faults; ///< ids of the injected faults, e.g. "code_fence", "drop_key" (empty: none)
    qint64 tokensIn = 0;
    qint64 tokensOut = 0;
    double latencyMs = 0; ///< deterministic simulated latency (not slept)
};

/// How an output strategy scales a profile's fault rates: each rate is multiplied by the factor of its
/// group (1 leaves it as it is, 0 rules the fault out).
struct StrategyEffect
{
    double format = 1; ///< code fence and prose around the JSON
    double truncate = 1; ///< the text stops early
    double keys = 1; ///< dropped and extra keys
    double values = 1; ///< omitted, wrong, near-miss and invented values
    double coercion = 1; ///< numbers and booleans written as strings
    double schema = 1; ///< a value outside the enum, or of the wrong type
    double decision = 1; ///< contract suites: unsafe acceptance, over-refusal, invented SKU, wrong quantity
};

/// The factors simulateAnswer() applies under strategy `s`.
StrategyEffect strategyEffect(Strategy s);

/// The answer of a simulated model: the case's gold with seeded faults. Same inputs give
/// byte-identical output on every platform.
SimAnswer simulateAnswer(const SimProfile& profile, const Suite& suite, const SuiteCase& c, Strategy s, int repeat);

} // namespace structscope
