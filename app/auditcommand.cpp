#include "cli.h"

#include "audit/auditjson.h"
#include "audit/auditqueue.h"
#include "audit/goldexport.h"
#include "store/resultstore.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace structscope::cli {

namespace {

const QString kShape = uR"(Prints one JSON object:
  {"options": {"min_models", "min_support", "absent_equals_null"},
   "summary": {"suites", "cases", "items", "open"},
   "items": [ranked by support, then agreeing models (descending), then suite, case id, path:
     {"suite", "suite_row", "case", "case_row", "category", "path" (dotted leaf path), "pointer" (JSON pointer),
      "gold_revision", "gold" (current value; missing when a revision removed it), "original_gold",
      "gold_changed", "consensus", "consensus_absent", "support", "agreeing", "answered",
      "models" (the agreeing ones), "answers": [{"model", "value" (missing: no such path)}],
      "triage": {"state": open|gold_confirmed|fixed|dismissed, "author", "at", "note", "gold_revision",
                 "by_gold_revision"}}],
   "uniform_failures": [{"suite", "category", "models", "min_rate", "max_rate", "rates": {model: rate}}],
   "preflight": [{"suite", "problems": [{"file", "line", "pointer", "message", "warning"}]}]}
A (case, path) is queued when at least --min-models distinct models answered there and a share of at least
--min-support of them agree on one value other than gold (docs/metrics.md section 5). Each model is heard once
per case: its newest run whose repeat-0 response parsed.)"_s;

} // namespace

int auditCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Print the suspicious-gold queue of a store as JSON.\n\n"_s + kShape);
    parser.addHelpOption();
    parser.addOption({u"store"_s, u"SQLite file or postgresql:// URL."_s, u"DB"_s});
    parser.addOption({u"min-models"_s, u"Distinct models that must have answered at a leaf (default 3)."_s, u"N"_s,
                      u"3"_s});
    parser.addOption({u"min-support"_s, u"Share of them that must agree on one value other than gold, in (0, 1] "
                                        u"(default 0.6)."_s,
                      u"X"_s, u"0.6"_s});
    parser.addOption({u"suite"_s, u"Only this stored suite (its id, or its row when the id is ambiguous)."_s,
                      u"ID"_s});
    if (!parser.parse(args)) {
        err(u"structscope audit: %1\n"_s.arg(parser.errorText()));
        return ExitUsage;
    }
    if (parser.isSet(u"help"_s)) {
        out(parser.helpText());
        return ExitOk;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err(u"structscope audit: unexpected argument '%1'\n"_s.arg(parser.positionalArguments().constFirst()));
        return ExitUsage;
    }
    const QString storeLocation = parser.value(u"store"_s);
    if (storeLocation.isEmpty()) {
        err(u"structscope audit: --store DB is required\n"_s);
        return ExitUsage;
    }
    AuditOptions options;
    bool numberOk = false;
    options.suspicion.minModels = parser.value(u"min-models"_s).toInt(&numberOk);
    if (!numberOk || options.suspicion.minModels < 1) {
        err(u"structscope audit: --min-models needs a positive whole number\n"_s);
        return ExitUsage;
    }
    options.suspicion.minSupport = parser.value(u"min-support"_s).toDouble(&numberOk);
    if (!numberOk || !(options.suspicion.minSupport > 0.0 && options.suspicion.minSupport <= 1.0)) {
        err(u"structscope audit: --min-support needs a number in (0, 1]\n"_s);
        return ExitUsage;
    }

    auto store = openStoreReadOnly(storeLocation, u"audit"_s);
    if (!store)
        return ExitFailure;
    if (parser.isSet(u"suite"_s)) {
        const auto suite = findStoredSuite(*store, parser.value(u"suite"_s));
        if (!suite) {
            err(u"structscope audit: %1\n"_s.arg(suite.errorMessage()));
            return ExitFailure;
        }
        options.suiteRow = suite->row;
    }
    const AuditQueue queue = buildAuditQueue(*store, options);
    if (!queue.ok()) {
        err(u"structscope audit: %1\n"_s.arg(queue.error));
        return ExitFailure;
    }
    const std::string text
        = auditQueueToJson(queue, options).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    out(QString::fromStdString(text) + u'\n');
    return ExitOk;
}

} // namespace structscope::cli
