// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/casedetail.h"
#include "report/aggregator.h"
#include "report/pairmatrix.h"
#include "stats/paired.h"

#include <QMetaType>
#include <QString>

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace structscope {

/// One configuration of a comparison: a model under a strategy.
struct Configuration
{
    QString model;
    QString strategy;
    bool simulated = false;

    /// "model · strategy", with simulated models marked.
    QString label() const;
    friend bool operator==(const Configuration& a, const Configuration& b)
    {
        return a.model == b.model && a.strategy == b.strategy;
    }
};

/// Every (model, strategy) of the records, sorted.
std::vector<Configuration> configurationsOf(RecordsView records);
/// The configuration of a pair matrix made of model and strategy.
PairConfiguration pairConfigurationOf(const Configuration& c);
/// The model and strategy of a pair matrix's configuration (empty for a key it is not made of).
Configuration configurationOf(const PairConfiguration& c);

/// A case (× repeat) the two configurations disagree on.
struct DiscordantCase
{
    QString suite;
    QString caseId;
    QString category;
    int repeat = 0;
    double a = 0; ///< A's value of the metric
    double b = 0;
    LadderLabel verdictA = LadderLabel::InvalidJson;
    LadderLabel verdictB = LadderLabel::InvalidJson;
    CaseRef refA;
    CaseRef refB;
};

/// Two configurations compared on the cases both answered (paired by suite, case and repeat).
struct ConfigComparison
{
    Configuration a;
    Configuration b;
    std::string metric;
    bool rate = true; ///< a 0/1 metric: McNemar; otherwise a sign test on scores
    PairedComparison stats;
    std::vector<DiscordantCase> discordant; ///< sorted by suite, case, repeat
    int onlyA = 0; ///< cases A answered and B did not (left out)
    int onlyB = 0;
    QString error;
    bool ok() const { return error.isEmpty() && stats.ok(); }
};

using ConfigComparisonPtr = std::shared_ptr<const ConfigComparison>;

/// Pairs the records of A and B that carry `metric` and compares them (pairRecords(), comparePairedRecords():
/// rates with the exact McNemar test, a value ≥ 0.5 counting as 1, means with the exact sign test); pairs are
/// taken in (suite, case, repeat) order so the bootstrap is reproducible. Pure; any thread.
ConfigComparison compareConfigurations(RecordsView records, const Configuration& a, const Configuration& b,
    const std::string& metric, const BootstrapOptions& options = {});

} // namespace structscope

Q_DECLARE_METATYPE(structscope::ConfigComparisonPtr)
