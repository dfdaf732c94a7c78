// SPDX-License-Identifier: Apache-2.0
#include "sim/simulator.h"

#include "providers/promptbuilder.h"
#include "schema/schemavalidator.h"
#include "scoring/scorer.h"
#include "sim/simfaults.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

// FNV-1a over the UTF-8 of each part, with a separator: the same on every platform (std::hash is not).
std::uint64_t seedOf(const QStringList& parts)
{
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const QString& part : parts) {
        const QByteArray bytes = part.toUtf8();
        for (const char ch : bytes) {
            h ^= static_cast<unsigned char>(ch);
            h *= 0x100000001b3ULL;
        }
        h ^= 0x1f;
        h *= 0x100000001b3ULL;
    }
    return h;
}

class Injector
{
public:
    Injector(json& doc, const FaultContext& ctx, Xoshiro256& rng, CompiledSchemaPtr format, QStringList& faults)
        : m_doc(doc)
        , m_ctx(ctx)
        , m_rng(rng)
        , m_format(std::move(format))
        , m_faults(faults)
    { }

    // Each place gets its own draw, so a larger answer collects more faults, as it would.
    void perSite(FaultKind kind, double rate)
    {
        if (rate <= 0)
            return;
        for (const std::string& site : faultSites(kind, m_doc, m_ctx)) {
            if (uniform01(m_rng) < rate)
                tryAt(kind, site);
        }
    }

    void once(FaultKind kind, double rate)
    {
        if (rate <= 0 || uniform01(m_rng) >= rate)
            return;
        const std::vector<std::string> sites = faultSites(kind, m_doc, m_ctx);
        if (!sites.empty())
            tryAt(kind, sites[m_rng.bounded(sites.size())]);
    }

    void schemaViolation(double rate)
    {
        if (rate <= 0 || uniform01(m_rng) >= rate)
            return;
        const bool enumFirst = m_rng.bounded(2) == 0;
        for (FaultKind kind : { enumFirst ? FaultKind::WrongEnum : FaultKind::WrongType,
                 enumFirst ? FaultKind::WrongType : FaultKind::WrongEnum }) {
            const std::vector<std::string> sites = faultSites(kind, m_doc, m_ctx);
            if (!sites.empty()) {
                tryAt(kind, sites[m_rng.bounded(sites.size())]);
                return;
            }
        }
    }

private:
    void tryAt(FaultKind kind, const std::string& site)
    {
        json before = m_doc;
        if (!applyFaultAt(kind, m_doc, site, m_ctx, m_rng))
            return;
        // A provider that enforces the response schema never returns an invalid document.
        if (m_format && !m_format->isValid(m_doc)) {
            m_doc = std::move(before);
            return;
        }
        const QString id = faultId(kind);
        if (!m_faults.contains(id))
            m_faults << id;
    }

    json& m_doc;
    const FaultContext& m_ctx;
    Xoshiro256& m_rng;
    CompiledSchemaPtr m_format;
    QStringList& m_faults;
};

} // namespace

// JSON mode (J, PJ) all but stops fences and prose; a response schema (J+, PJ+) stops them entirely
// and rules out anything invalid (undone in the injector), but constrained decoding costs a little
// accuracy. Without the schema in the prompt (J) the model guesses keys and types.
StrategyEffect strategyEffect(Strategy s)
{
    switch (s) {
    case Strategy::P:
        return {};
    case Strategy::J:
        return { 0.15, 1.0, 2.0, 1.2, 1.5, 2.0, 1.3 };
    case Strategy::PJ:
        return { 0.1, 1.0, 0.9, 1.0, 0.8, 0.7, 1.0 };
    case Strategy::JPlus:
        return { 0.0, 0.6, 0.7, 1.15, 1.0, 0.0, 1.0 };
    case Strategy::PJPlus:
        return { 0.0, 0.6, 0.6, 1.0, 1.0, 0.0, 0.9 };
    }
    return {};
}

SimAnswer simulateAnswer(const SimProfile& profile, const Suite& suite, const SuiteCase& c, Strategy s, int repeat)
{
    SimAnswer answer;
    Xoshiro256 rng(seedOf({ profile.name, suite.id, c.id, strategyName(s), QString::number(repeat) }));
    const StrategyEffect e = strategyEffect(s);
    const ScoringOptions options = ScoringOptions::forSuite(suite);
    const json* schema = suite.schemaFor(c);

    FaultContext ctx;
    ctx.schema = schema;
    ctx.contract = options.contract.get();
    ctx.catalog = suite.catalog.is_null() ? nullptr : &suite.catalog;
    ctx.caseExtra = &c.extra;

    CompiledSchemaPtr format;
    if (strategyUsesSchemaFormat(s) && schema)
        format = SchemaCache::compile(*schema, options.schema, nullptr);

    // Some models lose track in long inputs: their value faults grow with the input's length.
    const double longInput
        = 1.0 + profile.longInput * std::max(0.0, (static_cast<double>(c.input.size()) - 500.0) / 500.0);
    json doc = c.gold;
    Injector inject(doc, ctx, rng, format, answer.faults);
    if (ctx.contract) {
        // One decision fault at most: a flipped refusal is not refused again.
        const qsizetype before = answer.faults.size();
        inject.once(FaultKind::UnsafeFlip, profile.unsafeFlip * e.decision);
        if (answer.faults.size() == before)
            inject.once(FaultKind::OverRefusal, profile.overRefusal * e.decision);
    }
    inject.perSite(FaultKind::DropKey, profile.dropKey * e.keys * longInput);
    inject.perSite(FaultKind::OmitValue, profile.omitValue * e.values * longInput);
    inject.perSite(FaultKind::WrongValue, profile.wrongValue * e.values * longInput);
    inject.perSite(FaultKind::NearMiss, profile.nearMiss * e.values * longInput);
    inject.perSite(FaultKind::Coercion, profile.coercion * e.coercion);
    inject.perSite(FaultKind::InventValue, profile.inventValue * e.values);
    inject.perSite(FaultKind::ExtraKey, profile.extraKey * e.keys);
    if (ctx.contract) {
        inject.perSite(FaultKind::CatalogInvention, profile.catalogInvention * e.decision);
        inject.perSite(FaultKind::WrongQuantity, profile.wrongQuantity * e.decision);
    }
    inject.schemaViolation(profile.schemaViolation * e.schema);

    QString text
        = QString::fromStdString(doc.dump(profile.pretty ? 2 : -1, ' ', false, json::error_handler_t::replace));
    if (uniform01(rng) < profile.codeFence * e.format) {
        text = applyTextFault(FaultKind::CodeFence, text, rng);
        answer.faults << faultId(FaultKind::CodeFence);
    }
    if (uniform01(rng) < profile.prose * e.format) {
        text = applyTextFault(FaultKind::Prose, text, rng);
        answer.faults << faultId(FaultKind::Prose);
    }
    // Token limits cut long answers more often than short ones.
    const double lengthFactor = std::clamp(static_cast<double>(text.size()) / 600.0, 0.5, 3.0);
    if (uniform01(rng) < profile.truncate * e.truncate * lengthFactor) {
        text = applyTextFault(FaultKind::Truncate, text, rng);
        answer.faults << faultId(FaultKind::Truncate);
    }
    answer.text = text;

    const Prompt prompt = buildPrompt(suite, c, s);
    qint64 promptChars = 0;
    for (const ChatMessage& m : prompt.messages)
        promptChars += m.content.size() + 16;
    if (prompt.schemaAsFormat && !prompt.schema.is_null())
        promptChars += static_cast<qint64>(prompt.schema.dump().size());
    answer.tokensIn = std::max<qint64>(1, promptChars / 4);
    answer.tokensOut = std::max<qint64>(1, text.size() / 4);

    // Jitter of ±25% around the profile's pace, and now and then a slow tail (a busy server).
    const double jitter = 0.75 + 0.5 * uniform01(rng);
    const double tail = rng.bounded(50) == 0 ? 3.0 : 1.0;
    const double ms = (profile.baseLatencyMs + 0.05 * static_cast<double>(answer.tokensIn)) * jitter * tail
        + profile.msPerToken * static_cast<double>(answer.tokensOut);
    answer.latencyMs = std::round(ms * 10.0) / 10.0;
    return answer;
}

} // namespace structscope
