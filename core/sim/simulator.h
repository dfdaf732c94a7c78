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

/// The answer of a simulated model: the case's gold with seeded faults. Same inputs give
/// byte-identical output on every platform.
SimAnswer simulateAnswer(const SimProfile& profile, const Suite& suite, const SuiteCase& c, Strategy s, int repeat);

} // namespace structscope
