// SPDX-License-Identifier: Apache-2.0
#include "io/importjob.h"

#include "io/jsonlimporter.h"
#include "io/sobimporter.h"
#include "store/resultstore.h"
#include "store/suiteimport.h"
#include "suite/suiteloader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QObject>

#include <nlohmann/json.hpp>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

bool looksLikeSob(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    // The first non-blank line decides; a huge first line is read only in part and then fails to parse.
    for (int i = 0; i < 50 && !file.atEnd(); ++i) {
        const QByteArray line = file.readLine(qint64(4) * 1024 * 1024).trimmed();
        if (line.isEmpty())
            continue;
        const auto json = nlohmann::json::parse(line.constBegin(), line.constEnd(), nullptr, false);
        return json.is_object() && json.contains("metadata") && json.contains("output");
    }
    return false;
}

void addSuiteProblems(const QString& dir, const Problems& problems, Problems& out)
{
    for (Problem p : problems) {
        if (p.file.isEmpty())
            p.file = dir;
        else if (QFileInfo(p.file).isRelative())
            p.file = QDir(dir).filePath(p.file);
        out << p;
    }
}

} // namespace

ImportKind importKindOf(const QString& path)
{
    const QFileInfo info(path);
    if (info.isDir())
        return QFileInfo(QDir(path).filePath(u"suite.json"_s)).isFile() ? ImportKind::SuiteFolder
                                                                        : ImportKind::Unsupported;
    if (!info.isFile() || info.suffix().toLower() != u"jsonl"_s)
        return ImportKind::Unsupported;
    return looksLikeSob(path) ? ImportKind::SobResults : ImportKind::GenericResults;
}

ImportRequest classifyImportPaths(const QStringList& paths)
{
    ImportRequest request;
    for (const QString& path : paths) {
        switch (importKindOf(path)) {
        case ImportKind::SobResults:
            request.sobFiles << path;
            break;
        case ImportKind::GenericResults:
            request.genericFiles << path;
            break;
        case ImportKind::SuiteFolder:
            request.suiteFolders << path;
            break;
        case ImportKind::Unsupported:
            request.unsupported << path;
            break;
        }
    }
    return request;
}

QString ImportOutcome::summary() const
{
    if (!error.isEmpty())
        return QObject::tr("Import failed: %1").arg(error);
    QString text = QObject::tr("Imported %n response(s)", nullptr, int(responses));
    if (suites > 0)
        text += QObject::tr(" and %n suite(s)", nullptr, suites);
    if (!problems.isEmpty())
        text += QObject::tr("; %n problem(s)", nullptr, int(problems.size()));
    if (cancelled)
        text += QObject::tr(" (cancelled)");
    return text;
}

ImportOutcome importIntoStore(const QString& location, const ImportRequest& request, const ImportProgress& progress)
{
    ImportOutcome outcome;
    StoreError openError;
    auto store = ResultStore::open(location, ResultStore::OpenOptions {}, &openError);
    if (!store) {
        outcome.error = openError.message;
        return outcome;
    }
    if (store->isReadOnly()) {
        outcome.error = QObject::tr("%1 is read-only (%2)").arg(store->displayName(), store->readOnlyReason());
        return outcome;
    }

    SuitePtr genericSuite;
    const QString genericDir = !request.genericSuite.isEmpty() ? request.genericSuite : request.suiteFolders.value(0);
    QStringList folders = request.suiteFolders;
    if (!request.genericFiles.isEmpty() && !genericDir.isEmpty() && !folders.contains(genericDir))
        folders << genericDir;
    for (const QString& dir : folders) {
        const SuiteLoadResult loaded = loadSuiteDir(dir);
        addSuiteProblems(dir, loaded.problems, outcome.problems);
        if (!loaded.ok())
            continue;
        if (dir == genericDir)
            genericSuite = loaded.suite;
        if (!request.suiteFolders.contains(dir))
            continue;
        const auto stored = store->importSuite(makeSuiteImport(*loaded.suite));
        if (!stored) {
            outcome.error = stored.error().message;
            return outcome;
        }
        ++outcome.suites;
        outcome.importedSuiteFolders << dir;
    }

    auto collect = [&outcome](const ImportSummary& summary) {
        outcome.responses += summary.responses;
        outcome.problems << summary.problems;
        outcome.cancelled = outcome.cancelled || summary.cancelled;
        if (summary.storeError)
            outcome.error = summary.storeError->message;
    };
    if (!request.sobFiles.isEmpty()) {
        SobImportOptions options;
        options.progress = progress;
        collect(importSobFiles(*store, request.sobFiles, options));
    }
    if (!request.genericFiles.isEmpty() && outcome.error.isEmpty() && !outcome.cancelled) {
        if (!genericSuite) {
            for (const QString& file : request.genericFiles)
                outcome.problems << Problem { file, 0, 0, {},
                    QObject::tr("generic results need the suite they answer; none could be loaded"), false };
        } else {
            JsonlImportOptions options;
            options.progress = progress;
            collect(importJsonlFiles(*store, *genericSuite, request.genericFiles, options));
        }
    }
    return outcome;
}

} // namespace structscope
