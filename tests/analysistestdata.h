// SPDX-License-Identifier: Apache-2.0
#pragma once

// Synthetic scored records of tst_analysis, shared with the model tests that show them (tst_pagemodels,
// tst_fieldviews): two configurations answering the same cases, and per-field tallies of two models. Kept out of
// the test sources so moc never reads them.

#include "analysis/reportdata.h"
#include "report/fieldreport.h"
#include "report/scoredrecord.h"
#include "scoring/fieldtally.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace analysistest {

using namespace Qt::StringLiterals;

inline std::vector<structscope::ScoredRecord> pairedRecords()
{
    using namespace structscope;
    // Five cases; A (strategy P) right on 1, 2, 5; B (PJ+) right on 1, 3, 4, 5. A also answered a
    // sixth case B did not.
    std::vector<ScoredRecord> records;
    const auto add = [&records](const char* strategy, int c, bool correct) {
        ScoredRecord r;
        r.suite = u"s"_s;
        r.model = u"m"_s;
        r.strategy = QString::fromLatin1(strategy);
        r.runId = r.strategy == u"P"_s ? 1 : 2;
        r.caseId = u"c%1"_s.arg(c);
        r.verdict.ladder = correct ? LadderLabel::Correct : LadderLabel::ValueIncorrect;
        r.verdict.values.emplace_back("ladder.correct", correct ? 1.0 : 0.0);
        records.push_back(r);
    };
    const bool a[] = { true, true, false, false, true };
    const bool b[] = { true, false, true, true, true };
    for (int i = 0; i < 5; ++i) {
        add("P", i + 1, a[i]);
        add("PJ+", i + 1, b[i]);
    }
    add("P", 6, true);
    return records;
}

inline structscope::FieldTally tally(std::string_view path, std::uint32_t elements, std::uint32_t correct,
    std::uint32_t lenient, std::uint32_t missing, std::uint32_t wrong, std::uint32_t invented, std::uint32_t typeError)
{
    return { structscope::fieldKey(path), elements, correct, lenient, missing, wrong, invented, typeError };
}

inline structscope::ScoredRecord record(const QString& model, structscope::FieldTallies tallies)
{
    structscope::ScoredRecord r;
    r.model = model;
    r.verdict.fields = std::make_shared<const structscope::FieldTallies>(std::move(tallies));
    return r;
}

// Model A: customer.name right twice; items[].sku 4 values: 1 right, 2 wrong (1 of another type), 1 missing;
// note invented once of 2. Model B: customer.name wrong once of 1.
inline std::vector<structscope::ScoredRecord> fieldRecords()
{
    return {
        record(u"A"_s,
            { tally("customer.name", 1, 1, 1, 0, 0, 0, 0), tally("items[].sku", 3, 1, 1, 1, 1, 0, 1),
                tally("note", 1, 1, 1, 0, 0, 0, 0) }),
        record(u"A"_s,
            { tally("customer.name", 1, 0, 1, 0, 0, 0, 0), tally("items[].sku", 1, 0, 0, 0, 1, 0, 0),
                tally("note", 1, 0, 0, 0, 0, 1, 0) }),
        record(u"B"_s, { tally("customer.name", 1, 0, 0, 0, 1, 0, 0) }),
    };
}

inline structscope::ReportData fieldReportData(const std::vector<std::string>& groupBy)
{
    structscope::AggregateOptions options;
    options.groupBy = groupBy;
    options.bootstrap.resamples = 100;
    structscope::ReportData data;
    data.report = structscope::aggregateFields(fieldRecords(), options);
    return data;
}

} // namespace analysistest
