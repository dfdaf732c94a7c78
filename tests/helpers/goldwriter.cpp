// SPDX-License-Identifier: Apache-2.0
// Child process for tst_store's gold-edit crash test: revises the gold of a suite's cases in turn, one
// revision per edit, and prints "revised N" after every committed edit, until killed or `limit` edits.
//
//   goldwriter STORE SUITE_ROW LIMIT
//
// Edit n revises case n % cases to {"edit": n}, based on the revision it read just before, with the
// reason "edit #n"; the test checks that every revision it finds is whole and has its audit entry.
#include "store/resultstore.h"

#include <QCoreApplication>

#include <cstdio>

using namespace Qt::StringLiterals;
using namespace structscope;

namespace {

int fail(const QString& message)
{
    std::fprintf(stderr, "goldwriter: %s\n", qPrintable(message));
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() != 4)
        return fail(u"usage: goldwriter STORE SUITE_ROW LIMIT"_s);
    const qint64 suiteRow = args.at(2).toLongLong();
    const qint64 limit = args.at(3).toLongLong();
    if (suiteRow <= 0 || limit <= 0)
        return fail(u"SUITE_ROW and LIMIT must be positive numbers"_s);
    QString error;
    auto store = ResultStore::open(args.at(1), &error);
    if (!store)
        return fail(error);
    const auto cases = store->cases(suiteRow);
    if (!cases || cases->isEmpty())
        return fail(u"the suite has no cases"_s);
    // Carry on after the edits an earlier (killed) writer committed: they are numbered by the audit log.
    const auto audit = store->auditLog({ u"case"_s, {}, 0, 0 });
    if (!audit)
        return fail(audit.errorMessage());
    qint64 n = 0;
    for (const AuditEntry& e : audit.value()) {
        if (e.action == u"gold.revise"_s)
            ++n;
    }
    for (; n < limit; ++n) {
        const qint64 caseRow = cases->at(n % cases->size()).row;
        const auto current = store->currentGold(caseRow);
        if (!current)
            return fail(current.errorMessage());
        const GoldEditResult edit = store->addGoldRevision(
            caseRow, nlohmann::json { { "edit", n } }, u"goldwriter"_s, u"edit #%1"_s.arg(n), current->revision);
        if (!edit.ok())
            return fail(u"edit %1 was not stored: %2"_s.arg(n).arg(edit.error.message));
        std::printf("revised %lld\n", static_cast<long long>(n + 1));
        std::fflush(stdout);
    }
    return 0;
}
