// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/aggregator.h"
#include "report/evaluation.h"
#include "report/report.h"

#include <QSet>
#include <QString>

#include <optional>

namespace structscope {

/// A report saved for the next time a workspace is opened, so that its leaderboard and heatmaps are painted at once
/// while the store is scored again in the background (the report computed then replaces the saved one). A saved
/// report is used only while the store's contentStamp() still equals the stamp it was computed at, for the same
/// options: it is a cache of a pure function of the store, outside the store, which it never changes.
struct CachedReport
{
    Report report;
    QSet<QString> simulatedModels; ///< models answered by a simulated provider
};

/// Where the report of the store at `location` for these options is saved: in `directory` (empty: the user's cache
/// folder, QStandardPaths::CacheLocation + "/reports"), named by SHA-256 of the location and the options, so no
/// password of a database URL ends up in a file name.
QString reportCacheFile(
    const QString& location, GoldBasis gold, const AggregateOptions& options, const QString& directory = {});

/// Saved reports kept in one folder; saving another removes the least recently saved beyond these.
inline constexpr qsizetype kSavedReportsKept = 200;

/// Saves atomically (QSaveFile; the folder is created). False, with `error` set, when the file cannot be written.
bool saveCachedReport(const QString& file, const QString& stamp, const CachedReport& cached, QString* error = nullptr);

/// The saved report when the file exists, parses and was saved at `stamp`; otherwise nothing. A missing, damaged or
/// foreign file is a cache miss, never an error: the report is computed as if there were no cache.
std::optional<CachedReport> loadCachedReport(const QString& file, const QString& stamp);

} // namespace structscope
