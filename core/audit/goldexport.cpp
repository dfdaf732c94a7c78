// SPDX-License-Identifier: Apache-2.0
#include "audit/goldexport.h"

#include "audit/goldchangelog.h"
#include "audit/suiterebuild.h"
#include "preflight/preflight.h"
#include "store/resultstore.h"
#include "suite/suiteloader.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

const QString kChangelog = u"CHANGELOG.md"_s;

/// Writes one file atomically; returns an error message or "".
QString writeFile(const QDir& dir, const QString& relative, const QByteArray& bytes)
{
    const QString path = dir.filePath(relative);
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return u"cannot create the folder of %1"_s.arg(path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return u"cannot write %1: %2"_s.arg(path, file.errorString());
    return {};
}

} // namespace

StoreResult<SuiteRow> findStoredSuite(ResultStore& store, const QString& idOrRow)
{
    const auto suites = store.suites();
    if (!suites)
        return suites.error();
    QList<SuiteRow> matches;
    for (const SuiteRow& s : suites.value()) {
        if (s.id == idOrRow)
            matches << s;
    }
    if (matches.size() == 1)
        return matches.constFirst();
    if (matches.size() > 1) {
        QStringList rows;
        for (const SuiteRow& s : std::as_const(matches))
            rows << u"%1 (version %2)"_s.arg(QString::number(s.row), s.version);
        return StoreError { StoreErrorKind::InvalidArgument,
            u"suite \"%1\" is stored %2 times, as rows %3: name one by its row"_s.arg(
                idOrRow, QString::number(matches.size()), rows.join(u", "_s)) };
    }
    bool isRow = false;
    const qint64 row = idOrRow.toLongLong(&isRow);
    if (isRow) {
        for (const SuiteRow& s : suites.value()) {
            if (s.row == row)
                return s;
        }
    }
    return StoreError { StoreErrorKind::NotFound, u"the store holds no suite \"%1\""_s.arg(idOrRow) };
}

GoldExportResult exportCorrectedSuite(
    ResultStore& store, qint64 suiteRow, const QString& outDir, const GoldExportOptions& options)
{
    GoldExportResult result;
    result.dir = outDir;
    const QFileInfo target(outDir);
    if (outDir.isEmpty()) {
        result.error = u"no output folder given"_s;
        return result;
    }
    if (target.exists() && !target.isDir()) {
        result.error = u"%1 exists and is not a folder"_s.arg(outDir);
        return result;
    }
    QDir dir(outDir);
    if (target.exists() && !options.force
        && !dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot).isEmpty()) {
        result.error = u"%1 is not empty; pass --force to write into it anyway"_s.arg(outDir);
        return result;
    }

    const auto suite = store.suite(suiteRow);
    if (!suite) {
        result.error = suite.errorMessage();
        return result;
    }
    result.suiteId = suite->id;
    const auto cases = store.cases(suiteRow);
    const auto gold = cases ? store.goldForSuite(suiteRow, GoldBasis::Adjusted)
                            : StoreResult<QHash<qint64, GoldRevision>>(cases.error());
    if (!gold) {
        result.error = gold.errorMessage();
        return result;
    }
    std::vector<CaseGoldHistory> history;
    for (const CaseRow& c : cases.value()) {
        const int revision = gold->value(c.row).revision;
        if (revision == 0)
            continue;
        auto revisions = store.goldRevisions(c.row);
        if (!revisions) {
            result.error = revisions.errorMessage();
            return result;
        }
        history.push_back({ c, std::move(revisions).value() });
        result.revisions += revision;
        ++result.casesChanged;
    }

    const auto versionIt = suite->manifest.find("version");
    const std::string baseVersion = versionIt != suite->manifest.end() && versionIt->is_string()
        ? versionIt->get<std::string>()
        : suite->version.toStdString();
    result.version = correctedSuiteVersion(QString::fromStdString(baseVersion), result.revisions);
    json overrides = json::object();
    if (result.revisions > 0) {
        overrides["version"] = result.version.toStdString();
        overrides["gold_corrections"] = { { "base_version", baseVersion }, { "revisions", result.revisions },
            { "cases", result.casesChanged }, { "changelog", kChangelog.toStdString() } };
    }
    RebuiltSuite rebuilt = rebuildSuiteFiles(suite->manifest, cases.value(), gold.value(), overrides);
    result.warnings = rebuilt.warnings;

    const SuiteLoadResult loaded = loadSuite(rebuilt.files, outDir);
    result.problems = checkLoadedSuite(loaded);

    if (!QDir().mkpath(outDir)) {
        result.error = u"cannot create %1"_s.arg(outDir);
        return result;
    }
    rebuilt.files[kChangelog] = goldChangelogMarkdown(suite.value(), result.version, history).toUtf8();
    for (const auto& [relative, bytes] : rebuilt.files) {
        if (const QString error = writeFile(dir, relative, bytes); !error.isEmpty()) {
            result.error = error;
            return result;
        }
        result.written << relative;
    }
    // A catalog.json left from an earlier export would be read as part of this suite.
    if (!rebuilt.files.contains(u"catalog.json"_s) && dir.exists(u"catalog.json"_s) && !dir.remove(u"catalog.json"_s))
        result.error = u"cannot remove the stale %1"_s.arg(dir.filePath(u"catalog.json"_s));
    return result;
}

} // namespace structscope
