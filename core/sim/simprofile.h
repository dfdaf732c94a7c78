// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QString>

namespace structscope {

/// A simulated model: a named mix of fault rates (docs/user-guide.md "About the data").
struct SimProfile
{
    QString name;
    QString description;
    // Rates are probabilities: per answer for the format, decision and schema faults, per place
    // (leaf, key, object or item) for the value faults. The strategy scales them (simulator.cpp).
    double codeFence = 0; ///< wrap the JSON in a ``` fence
    double prose = 0; ///< sentences before/after the JSON
    double truncate = 0; ///< the text stops early (invalid JSON); longer answers more often
    double dropKey = 0; ///< per key holding a value: leave it out
    double omitValue = 0; ///< per stated value: null instead (a missing value)
    double wrongValue = 0; ///< per leaf: another value of the same type
    double nearMiss = 0; ///< per free-text string: a one-character edit
    double coercion = 0; ///< per number/boolean: written as a string ("42" for 42)
    double inventValue = 0; ///< per null or absent key: a made-up value
    double extraKey = 0; ///< per object: a key the schema does not declare
    double schemaViolation = 0; ///< per answer: an enum value outside the enum, or a wrong type
    double unsafeFlip = 0; ///< contract suites, per answer gold does not accept: accept it
    double overRefusal = 0; ///< contract suites, per accepted answer: ask instead
    double catalogInvention = 0; ///< contract suites, per item: a SKU the catalog does not have
    double wrongQuantity = 0; ///< contract suites, per item: quantity off by one
    double longInput = 0; ///< extra rate per 500 input characters beyond the first 500 (×(1 + x·k))
    bool pretty = false; ///< indented JSON instead of compact
    double baseLatencyMs = 300; ///< time to first token, before jitter
    double msPerToken = 15; ///< generation time per output token
};

/// The built-in profiles: oracle, careful, sloppy, hallucinator, chatty, … (at least five).
const QList<SimProfile>& simProfiles();
/// The profile of that name, nullptr when unknown.
const SimProfile* findSimProfile(const QString& name);

} // namespace structscope
