// SPDX-License-Identifier: Apache-2.0
#pragma once

// Demo workspace of tst_pages: the built-in email-extraction suite cut to its first 8 cases of each
// category (40 cases), answered by four simulated models (oracle, careful, sloppy, hallucinator) under
// two strategies (P, PJ+), written through ResultStore::createRun + appendResponses exactly as a run
// would. The simulator is seeded, so every number below is the same on every machine.
// With plantGoldErrors, two gold values are stored wrong (typos an annotator might make) while the
// models answer from the true gold, so the audit queue has something to find: st-004's asset tag
// PC-11802 stored as PC-11082, sl-003's last sick day 17.04.2025 stored as 18.04.2025.
// Kept out of the test sources so moc never reads it.

#include "sim/simulator.h"
#include "store/resultstore.h"
#include "store/suiteimport.h"
#include "suite/suiteloader.h"

#include <QDir>
#include <QHash>
#include <QStringList>

#include <map>

namespace pagestest {

inline const QStringList& profiles()
{
    static const QStringList names = { QStringLiteral("oracle"), QStringLiteral("careful"), QStringLiteral("sloppy"),
        QStringLiteral("hallucinator") };
    return names;
}

inline const QList<structscope::Strategy>& strategies()
{
    static const QList<structscope::Strategy> list = { structscope::Strategy::P, structscope::Strategy::PJPlus };
    return list;
}

constexpr int kCasesPerCategory = 8;

struct DemoStore
{
    QString location;
    structscope::SuitePtr suite; ///< the 40-case suite as stored
    QHash<QString, qint64> caseRows; ///< case id → row
    QString error;
    bool ok() const { return error.isEmpty(); }
};

/// The suite with only its first kCasesPerCategory cases of each category.
inline structscope::SuitePtr cutSuite(const structscope::Suite& full)
{
    auto cut = std::make_shared<structscope::Suite>(full);
    cut->cases.clear();
    std::map<QString, int> taken;
    for (const structscope::SuiteCase& c : full.cases) {
        if (taken[c.category]++ < kCasesPerCategory)
            cut->cases << c;
    }
    return cut;
}

/// The planted gold errors: case id → (pointer, stored value).
inline const std::map<QString, std::pair<std::string, nlohmann::json>>& plantedGoldErrors()
{
    static const std::map<QString, std::pair<std::string, nlohmann::json>> errors
        = { { QStringLiteral("st-004"), { "/asset_tag", "PC-11082" } },
              { QStringLiteral("sl-003"), { "/absence/period/last_day", "18.04.2025" } } };
    return errors;
}

/// Creates dir/demo.db holding the demo workspace.
inline DemoStore makeDemoStore(const QString& dir, bool plantGoldErrors = false)
{
    using namespace structscope;
    DemoStore demo;
    const SuiteLoadResult loaded = loadSuiteDir(QStringLiteral(STRUCTSCOPE_SOURCE_DIR "/datasets/email-extraction"));
    if (!loaded.ok()) {
        demo.error = QStringLiteral("email-extraction does not load: ") + loaded.problems.value(0).toString();
        return demo;
    }
    demo.suite = cutSuite(*loaded.suite);
    demo.location = QDir(dir).filePath(QStringLiteral("demo.db"));
    QString error;
    auto store = ResultStore::open(demo.location, &error);
    if (!store) {
        demo.error = error;
        return demo;
    }
    structscope::Suite stored = *demo.suite;
    if (plantGoldErrors) {
        for (structscope::SuiteCase& c : stored.cases) {
            if (const auto planted = plantedGoldErrors().find(c.id); planted != plantedGoldErrors().end())
                c.gold[nlohmann::json::json_pointer(planted->second.first)] = planted->second.second;
        }
    }
    const auto imported = store->importSuite(makeSuiteImport(stored));
    if (!imported) {
        demo.error = imported.errorMessage();
        return demo;
    }
    const auto cases = store->cases(imported->suite.row);
    if (!cases) {
        demo.error = cases.errorMessage();
        return demo;
    }
    for (const CaseRow& c : cases.value())
        demo.caseRows.insert(c.id, c.row);

    for (const QString& name : profiles()) {
        const SimProfile* profile = findSimProfile(name);
        if (!profile) {
            demo.error = QStringLiteral("no simulated profile ") + name;
            return demo;
        }
        for (Strategy strategy : strategies()) {
            RunRow run;
            run.suiteRow = imported->suite.row;
            run.modelSpec = QStringLiteral("sim:") + name;
            run.providerKind = QStringLiteral("sim");
            run.strategy = strategyName(strategy);
            const auto created = store->createRun(run);
            if (!created) {
                demo.error = created.errorMessage();
                return demo;
            }
            QList<ResponseRow> responses;
            for (const SuiteCase& c : demo.suite->cases) {
                const SimAnswer answer = simulateAnswer(*profile, *demo.suite, c, strategy, 0);
                ResponseRow r;
                r.runId = created->id;
                r.caseRow = demo.caseRows.value(c.id);
                r.requestHash = QStringLiteral("%1-%2-%3").arg(name, run.strategy, c.id);
                r.rawText = answer.text;
                r.httpStatus = 200;
                r.latencyMs = answer.latencyMs;
                r.tokensIn = answer.tokensIn;
                r.tokensOut = answer.tokensOut;
                r.cost = double(answer.tokensIn) * 1e-7 + double(answer.tokensOut) * 4e-7;
                r.costSource = CostSource::PriceTable;
                responses << r;
            }
            if (const auto appended = store->appendResponses(responses); !appended) {
                demo.error = appended.errorMessage();
                return demo;
            }
            if (const auto finished = store->finishRun(created->id); !finished) {
                demo.error = finished.errorMessage();
                return demo;
            }
        }
    }
    return demo;
}

} // namespace pagestest
