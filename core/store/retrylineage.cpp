// SPDX-License-Identifier: Apache-2.0
#include "store/retrylineage.h"

#include <utility>

namespace structscope {

QHash<qint64, qint64> retryRoots(const QList<RunRow>& runs)
{
    QHash<qint64, qint64> parent;
    for (const RunRow& run : runs) {
        const auto link = run.settings.find("retry_of");
        parent.insert(run.id, link != run.settings.end() && link->is_number_integer() ? link->get<qint64>() : run.id);
    }
    QHash<qint64, qint64> roots;
    for (const RunRow& run : runs) {
        qint64 at = run.id;
        // Bounded walk: a broken (cyclic or dangling) chain stops where it breaks.
        for (qsizetype steps = 0; steps <= runs.size(); ++steps) {
            const qint64 up = parent.value(at, at);
            if (up == at || !parent.contains(up))
                break;
            at = up;
        }
        roots.insert(run.id, at);
    }
    return roots;
}

QSet<qint64> supersededResponses(const QList<RunRow>& runs, const QList<ResponseRow>& responses)
{
    const QHash<qint64, qint64> roots = retryRoots(runs);
    // Per slot, the response to keep: successful beats failed, then the later (higher id) wins.
    QHash<std::pair<qint64, ResponseKey>, const ResponseRow*> kept;
    QSet<qint64> superseded;
    for (const ResponseRow& r : responses) {
        const std::pair<qint64, ResponseKey> key(roots.value(r.runId, r.runId), ResponseKey { r.caseRow, r.repeat });
        const ResponseRow*& best = kept[key];
        if (!best) {
            best = &r;
            continue;
        }
        const bool better = (r.errorKind.isEmpty() && !best->errorKind.isEmpty())
            || (r.errorKind.isEmpty() == best->errorKind.isEmpty() && r.id > best->id);
        superseded.insert(better ? best->id : r.id);
        if (better)
            best = &r;
    }
    return superseded;
}

} // namespace structscope
