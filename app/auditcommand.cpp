// SPDX-License-Identifier: Apache-2.0
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
   "summary": {"suites", "cases", "items", "groups", "open",
               "kinds": {"value", "gold_lacks_element", "models_lack_element", "merge_split", "format"}},
   "groups": [{"suite", "case", "case_row", "array", "format_batch", "first", "count"}],
   "items": [ranked, then gathered by group (see below):
     {"suite", "suite_row", "case", "case_row", "category",
      "kind": value | gold_lacks_element | models_lack_element | merge_split | format,
      "description" (one line for a person), "group" (index into groups), "array" (the gold array holding it),
      "evidence" (2: only the consensus is in the source text, 0: only the gold is, else 1),
      "source": {"gold": {"found", "snippet"}, "consensus": {"found", "snippet"}} (the input around each value),
      "path" (dotted; gold_lacks_element: "array[+i]"), "pointer" (JSON pointer; where an accepted element goes),
      "gold_revision", "gold" (current value or element; missing when there is none), "original_gold",
      "gold_changed", "consensus" (the agreed value; gold_lacks_element: the proposed element), "consensus_absent",
      "format_variant" (format: lenient|quotes|unit|symbol|markup|word_order|contains|date|abridged|spacing),
      "merging", "splitting" (merge_split),
      "support", "agreeing", "answered", "models" (the agreeing ones),
      "answers": [{"model", "value" (its aligned value or element; missing: none)}],
      "triage": {"state": open|gold_confirmed|fixed|dismissed, "author", "at", "note", "gold_revision",
                 "by_gold_revision"}}],
   "uniform_failures": [{"suite", "category", "models", "min_rate", "max_rate", "rates": {model: rate}}],
   "preflight": [{"suite", "problems": [{"file", "line", "pointer", "message", "warning"}]}]}
Each model's answer is aligned to the gold first (array elements paired by best match, as the scorer's unordered
matching does); then a place is queued when at least --min-models distinct models are heard there and a share of
at least --min-support of them agree, under the scorer's lenient equality, on something other than the gold: another
value, an element gold lacks, the lack of a gold element, a merge or split of elements, or another spelling of the
same value (a format disagreement). Ranked by kind (values first, format disagreements last), then by what the
source text says, then by agreeing models (docs/metrics.md section 5). Each model is heard once per case: its
newest run whose repeat-0 response parsed.)"_s;

} // namespace

int auditCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Print the suspicious-gold queue of a store as JSON.\n\n"_s + kShape);
    parser.addHelpOption();
    parser.addOption({ u"store"_s, u"SQLite file or postgresql:// URL."_s, u"DB"_s });
    parser.addOption(
        { u"min-models"_s, u"Distinct models that must have answered at a leaf (default 3)."_s, u"N"_s, u"3"_s });
    parser.addOption({ u"min-support"_s,
        u"Share of them that must agree on one value other than gold, in (0, 1] "
        u"(default 0.6)."_s,
        u"X"_s, u"0.6"_s });
    parser.addOption({ u"keep-reworded"_s,
        u"Also list values the input backs worse than the gold: the models reword what "
        u"the gold copies, or invent a value where gold has null (left out by default)."_s });
    parser.addOption(
        { u"suite"_s, u"Only this stored suite (its id, or its row when the id is ambiguous)."_s, u"ID"_s });
    if (const std::optional<int> exit = parseCommandLine(parser, args, u"audit"_s, Positional::Refused))
        return *exit;
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

    options.listGoldTheInputHolds = parser.isSet(u"keep-reworded"_s);

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
