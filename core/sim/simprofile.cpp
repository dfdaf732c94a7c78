// SPDX-License-Identifier: Apache-2.0
#include "sim/simprofile.h"

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

QList<SimProfile> makeProfiles()
{
    QList<SimProfile> profiles;

    SimProfile oracle;
    oracle.name = u"oracle"_s;
    oracle.description = u"Always answers exactly the gold, as compact JSON: the ceiling every metric must reach."_s;
    oracle.baseLatencyMs = 50;
    oracle.msPerToken = 1;
    profiles << oracle;

    SimProfile careful;
    careful.name = u"careful"_s;
    careful.description = u"Slow and conservative: rarely wrong, prefers null to a guess, never accepts an unsafe "
                          "order; asks back more often than needed and loses track in long documents."_s;
    careful.codeFence = 0.02;
    careful.prose = 0.01;
    careful.truncate = 0.005;
    careful.dropKey = 0.002;
    careful.omitValue = 0.005;
    careful.wrongValue = 0.003;
    careful.nearMiss = 0.004;
    careful.coercion = 0.002;
    careful.extraKey = 0.002;
    careful.schemaViolation = 0.01;
    careful.overRefusal = 0.3;
    careful.wrongQuantity = 0.01;
    careful.longInput = 3.0;
    careful.baseLatencyMs = 900;
    careful.msPerToken = 30;
    profiles << careful;

    SimProfile sloppy;
    sloppy.name = u"sloppy"_s;
    sloppy.description = u"Fast and careless: every kind of fault, often."_s;
    sloppy.codeFence = 0.25;
    sloppy.prose = 0.2;
    sloppy.truncate = 0.06;
    sloppy.dropKey = 0.04;
    sloppy.omitValue = 0.04;
    sloppy.wrongValue = 0.05;
    sloppy.nearMiss = 0.06;
    sloppy.coercion = 0.08;
    sloppy.inventValue = 0.2;
    sloppy.extraKey = 0.04;
    sloppy.schemaViolation = 0.12;
    sloppy.unsafeFlip = 0.25;
    sloppy.overRefusal = 0.03;
    sloppy.catalogInvention = 0.06;
    sloppy.wrongQuantity = 0.08;
    sloppy.baseLatencyMs = 150;
    sloppy.msPerToken = 8;
    profiles << sloppy;

    SimProfile hallucinator;
    hallucinator.name = u"hallucinator"_s;
    hallucinator.description = u"Confident and complete: clean JSON, but fills in values the text never states, "
                               "accepts orders it should refuse and orders dishes the menu does not have."_s;
    hallucinator.codeFence = 0.03;
    hallucinator.prose = 0.02;
    hallucinator.truncate = 0.005;
    hallucinator.wrongValue = 0.004;
    hallucinator.nearMiss = 0.004;
    hallucinator.coercion = 0.004;
    hallucinator.inventValue = 0.6;
    hallucinator.extraKey = 0.005;
    hallucinator.schemaViolation = 0.02;
    hallucinator.unsafeFlip = 0.4;
    hallucinator.catalogInvention = 0.12;
    hallucinator.wrongQuantity = 0.03;
    hallucinator.baseLatencyMs = 400;
    hallucinator.msPerToken = 14;
    profiles << hallucinator;

    SimProfile chatty;
    chatty.name = u"chatty"_s;
    chatty.description = u"Good values wrapped in Markdown fences and explanations; long, pretty-printed answers "
                         "that sometimes run out of tokens."_s;
    chatty.pretty = true;
    chatty.codeFence = 0.5;
    chatty.prose = 0.55;
    chatty.truncate = 0.03;
    chatty.dropKey = 0.003;
    chatty.omitValue = 0.004;
    chatty.wrongValue = 0.004;
    chatty.nearMiss = 0.02;
    chatty.coercion = 0.005;
    chatty.inventValue = 0.03;
    chatty.extraKey = 0.005;
    chatty.schemaViolation = 0.02;
    chatty.unsafeFlip = 0.05;
    chatty.overRefusal = 0.02;
    chatty.catalogInvention = 0.01;
    chatty.wrongQuantity = 0.02;
    chatty.baseLatencyMs = 500;
    chatty.msPerToken = 22;
    profiles << chatty;

    SimProfile stringly;
    stringly.name = u"stringly"_s;
    stringly.description = u"Writes numbers and booleans as strings and slips a letter now and then; nearly "
                           "flawless when the response schema is enforced (J+, PJ+)."_s;
    stringly.codeFence = 0.02;
    stringly.truncate = 0.01;
    stringly.dropKey = 0.001;
    stringly.omitValue = 0.002;
    stringly.wrongValue = 0.002;
    stringly.nearMiss = 0.003;
    stringly.coercion = 0.45;
    stringly.inventValue = 0.01;
    stringly.schemaViolation = 0.03;
    stringly.unsafeFlip = 0.03;
    stringly.overRefusal = 0.02;
    stringly.catalogInvention = 0.01;
    stringly.wrongQuantity = 0.01;
    stringly.baseLatencyMs = 250;
    stringly.msPerToken = 12;
    profiles << stringly;

    return profiles;
}

} // namespace

const QList<SimProfile>& simProfiles()
{
    static const QList<SimProfile> profiles = makeProfiles();
    return profiles;
}

const SimProfile* findSimProfile(const QString& name)
{
    for (const SimProfile& p : simProfiles()) {
        if (p.name == name)
            return &p;
    }
    return nullptr;
}

} // namespace structscope
