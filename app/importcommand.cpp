// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#include "io/jsonlimporter.h"
#include "io/sobimporter.h"
#include "store/resultstore.h"
#include "suite/suiteloader.h"

#include <QCommandLineParser>
#include <QElapsedTimer>

using namespace Qt::StringLiterals;

namespace structscope::cli {

namespace {

void printSummary(const ImportSummary& summary, qint64 elapsedMs)
{
    printProblems(summary.problems);
    QString text = u"imported %1 response(s) from %2 file(s) in %3 s: %4 line(s), %5 malformed, %6 skipped\n"_s.arg(
        QString::number(summary.responses), QString::number(summary.files),
        QString::number(double(elapsedMs) / 1000.0, 'f', 2), QString::number(summary.lines),
        QString::number(summary.malformed), QString::number(summary.skipped));
    if (summary.askedWithOtherSchema > 0)
        text += u"%1 response(s) were asked with another schema than their case's; they are validated against it\n"_s
                    .arg(QString::number(summary.askedWithOtherSchema));
    if (summary.suite.row != 0)
        text += u"suite %1 (%2 cases, %3)\n"_s.arg(
            summary.suite.id, QString::number(summary.cases), summary.suiteCreated ? u"new"_s : u"already stored"_s);
    if (!summary.runIds.isEmpty()) {
        QStringList ids;
        for (qint64 id : summary.runIds)
            ids << QString::number(id);
        text += u"runs: %1\n"_s.arg(ids.join(u", "_s));
    }
    out(text);
}

} // namespace

int importCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Import responses produced elsewhere into a store."_s);
    parser.addHelpOption();
    parser.addOption({ u"format"_s, u"sob (Structured Output Benchmark response files) or jsonl (generic results)."_s,
        u"FORMAT"_s });
    parser.addOption({ u"store"_s, u"SQLite file (created if missing) or postgresql:// URL."_s, u"DB"_s });
    parser.addOption(
        { u"modality"_s, u"sob: text, image or audio (default: from each file name, else text)."_s, u"MODALITY"_s });
    parser.addOption({ u"suite"_s, u"jsonl: the suite folder the responses answer."_s, u"DIR"_s });
    parser.addOption({ u"strategy"_s, u"Strategy of runs whose lines name none (default: imported)."_s, u"S"_s });
    parser.addOption({ u"field-map"_s,
        u"jsonl: where other tools keep each field, e.g. case_id=id,response=output.text "
        u"(dotted paths or JSON pointers; also a JSON object)."_s,
        u"MAP"_s });
    parser.addOption({ u"no-keep-verdicts"_s,
        u"Do not score the imported answers and keep their verdicts in the store (the app and reports then score "
        u"them when they open it)."_s });
    parser.addPositionalArgument(u"FILE"_s, u"Result files (JSONL)."_s, u"FILE..."_s);
    if (const std::optional<int> exit = parseCommandLine(parser, args, u"import"_s, Positional::Allowed))
        return *exit;
    const QString format = parser.value(u"format"_s);
    const QString storeLocation = parser.value(u"store"_s);
    const QStringList files = parser.positionalArguments();
    if (format.isEmpty() || storeLocation.isEmpty() || files.isEmpty()) {
        err(u"structscope import: --format sob|jsonl, --store DB and at least one FILE are required\n"_s);
        return ExitUsage;
    }
    if (format != u"sob"_s && format != u"jsonl"_s) {
        err(u"structscope import: unknown format '%1' (use sob or jsonl)\n"_s.arg(format));
        return ExitUsage;
    }
    if (format == u"sob"_s && (parser.isSet(u"suite"_s) || parser.isSet(u"field-map"_s))) {
        err(u"structscope import: --suite and --field-map apply to --format jsonl only\n"_s);
        return ExitUsage;
    }
    if (format == u"jsonl"_s && parser.isSet(u"modality"_s)) {
        err(u"structscope import: --modality applies to --format sob only\n"_s);
        return ExitUsage;
    }
    std::optional<Modality> modality;
    if (!modalityOption(parser, u"import"_s, modality))
        return ExitUsage;
    std::optional<JsonlFieldMap> fieldMap = JsonlFieldMap {};
    if (parser.isSet(u"field-map"_s)) {
        QString error;
        fieldMap = parseFieldMap(parser.value(u"field-map"_s), &error);
        if (!fieldMap) {
            err(u"structscope import: --field-map: %1\n"_s.arg(error));
            return ExitUsage;
        }
    }
    if (format == u"jsonl"_s && !parser.isSet(u"suite"_s)) {
        err(u"structscope import: --format jsonl needs --suite DIR (the suite the responses answer)\n"_s);
        return ExitUsage;
    }
    if (!allReadableFiles(files, u"import"_s))
        return ExitUsage;

    // Load the suite before opening the store, so a bad suite creates no store file.
    SuiteLoadResult loaded;
    if (format == u"jsonl"_s) {
        loaded = loadSuiteDir(parser.value(u"suite"_s));
        if (!loaded.ok()) {
            for (const Problem& p : loaded.problems)
                err(p.toString() + u'\n');
            err(u"structscope import: the suite %1 cannot be loaded; nothing was imported\n"_s.arg(
                parser.value(u"suite"_s)));
            return ExitFailure;
        }
    }

    StoreError openError;
    auto store = ResultStore::open(storeLocation, ResultStore::OpenOptions {}, &openError);
    if (!store) {
        err(u"structscope import: %1\n"_s.arg(openError.message));
        return ExitFailure;
    }
    if (store->isReadOnly()) {
        err(u"structscope import: %1 is read-only (%2); nothing was imported\n"_s.arg(
            store->displayName(), store->readOnlyReason()));
        return ExitFailure;
    }

    QElapsedTimer timer;
    timer.start();
    ImportSummary summary;
    if (format == u"sob"_s) {
        SobImportOptions options;
        options.modality = modality;
        options.strategy = parser.value(u"strategy"_s);
        summary = importSobFiles(*store, files, options);
    } else {
        JsonlImportOptions options;
        options.fields = *fieldMap;
        options.strategy = parser.value(u"strategy"_s);
        summary = importJsonlFiles(*store, *loaded.suite, files, options);
    }
    printSummary(summary, timer.elapsed());
    if (summary.storeError) {
        err(u"structscope import: the store refused a write: %1 (what was committed before stays stored)\n"_s.arg(
            summary.storeError->message));
        return ExitFailure;
    }
    // Scored once here rather than by every later report and the app's first opening.
    if (!parser.isSet(u"no-keep-verdicts"_s) && summary.responses > 0 && !summary.cancelled)
        keepVerdictsOfStore(*store, u"import"_s, nullptr);
    return hasErrors(summary.problems) ? ExitFailure : ExitOk;
}

} // namespace structscope::cli
