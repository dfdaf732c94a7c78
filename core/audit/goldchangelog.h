// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/rows.h"

#include <nlohmann/json.hpp>

#include <QList>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace structscope {

/// One changed place between two gold documents.
struct GoldLeafChange
{
    std::string path; ///< dotted leaf path ("" for the whole document)
    std::optional<nlohmann::json> before; ///< nullopt: the place did not exist
    std::optional<nlohmann::json> after; ///< nullopt: the place was removed
};

/// The leaves that differ between two gold documents: those of `before` in document order, then the leaves
/// only `after` has. When only empty containers differ, one change of the whole document.
std::vector<GoldLeafChange> goldLeafChanges(const nlohmann::json& before, const nlohmann::json& after);

/// A case and every gold revision it has, oldest first (revision 0 included).
struct CaseGoldHistory
{
    CaseRow record;
    QList<GoldRevision> revisions;
};

/// CHANGELOG.md of an exported suite: one section per revised case (in suite order), one entry per revision
/// after 0 with its time (UTC), author, reason and the changed paths before → after.
QString goldChangelogMarkdown(
    const SuiteRow& suite, const QString& exportedVersion, const std::vector<CaseGoldHistory>& history);

} // namespace structscope
