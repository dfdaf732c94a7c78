// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <QString>

#include <string>
#include <vector>

namespace structscope {

struct SuiteImport;

/// One mistake the demo workspace plants in the gold it stores, so that its Audit page has something to
/// find. The built-in suites stay correct: the simulated models answer from the suite's gold (`truth`),
/// while revision 0 of the case in the demo store — the gold "as measured" — holds `planted`. Every model
/// therefore disagrees with the stored gold at that field, the audit queue's consensus names the true
/// value, and accepting it is a gold edit like any other (a new revision).
struct DemoGoldMistake
{
    QString suite; ///< built-in suite id
    QString caseId;
    std::string path; ///< dotted leaf path of the field (AuditItem::path, docs/metrics.md §0)
    nlohmann::json truth; ///< the suite's gold there: what the input says
    nlohmann::json planted; ///< what the demo stores there
    QString kind; ///< what sort of mistake, as real gold has them
    QString note; ///< how it came about, in the input's words

    /// The RFC 6901 pointer of `path` in the case's gold.
    std::string pointer() const;
};

/// Every planted mistake, in the order docs/user-guide.md lists them. The one list the demo, Help ▸ About
/// the Data, the demo report and the docs are made from.
const std::vector<DemoGoldMistake>& demoGoldMistakes();

/// The mistakes planted in suite `suiteId` (none for a suite the list does not name).
std::vector<DemoGoldMistake> demoGoldMistakesOf(const QString& suiteId);

/// Writes the planted value of every mistake of `import`'s suite into its cases' gold. False, with `error`
/// naming the mistake, when its case or field is missing or the gold there is not the mistake's truth (the
/// suite is not the one the list was written for); `import` is then left as it was. `planted` (optional)
/// receives how many were written.
bool plantDemoGoldMistakes(SuiteImport& import, QString* error, int* planted = nullptr);

/// A value as the list shows it: compact JSON ("427.8", "null", "\"Aiyana Brookes\"").
QString demoGoldValueText(const nlohmann::json& value);

/// The list as a Markdown table (suite, case, field, stored gold, true value, mistake): the text
/// docs/user-guide.md "About the data" holds between its demo-gold-mistakes markers.
QString demoGoldMistakesMarkdown();

} // namespace structscope
