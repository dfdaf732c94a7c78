// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "report/aggregator.h"
#include "report/report.h"

#include <QMetaType>
#include <QSet>
#include <QString>
#include <QStringList>

#include <memory>
#include <span>

namespace structscope {

/// An aggregated report plus what views need to label it. Built off the GUI thread, then shared
/// read-only by models, charts and exports.
struct ReportData
{
    Report report;
    QSet<QString> simulatedModels; ///< models answered by a simulated provider (labelled in every view)
    /// Point estimates only (AggregateOptions::intervals off): shown while the bootstrap intervals are computed.
    bool provisional = false;

    /// Families with at least one metric in the report, in registry order.
    QStringList families() const;
    /// The family a view opens on. Every suite declares `ladder` (the parse-and-schema ladder) and usually one family
    /// of its own (`grounding` for the Structured Output Benchmark, `contract` for OrderBench): when the report has
    /// exactly one family besides the ladder, that one; otherwise (no other, or several suites with different
    /// families, which share only the ladder) `ladder`; "" for an empty report.
    QString defaultFamily() const;
    /// Metrics of `family` in the report that have a per-group value and interval (not latency or cost).
    std::vector<std::string> scoreMetrics(const QString& family) const;
    /// A group's label with simulated models marked.
    QString groupLabel(const ReportGroup& group) const;
};

using ReportDataPtr = std::shared_ptr<const ReportData>;

/// The models of the records that a simulated provider answered.
QSet<QString> simulatedModelsOf(RecordsView records);

/// Aggregates records (see aggregate()) and notes which models are simulated; `gold` names the
/// basis ("measured" or "adjusted") for the report's writers. Pure; any thread.
ReportDataPtr makeReportData(
    RecordsView records, const AggregateOptions& options, const std::string& gold = "measured");

/// The value of a metric in a group, NaN when absent.
double metricValue(const ReportGroup& group, const std::string& metricId);
/// The interval of a metric in a group (invalid when absent).
Interval metricInterval(const ReportGroup& group, const std::string& metricId);

} // namespace structscope

Q_DECLARE_METATYPE(structscope::ReportDataPtr)
