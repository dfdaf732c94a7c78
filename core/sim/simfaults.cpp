// SPDX-License-Identifier: Apache-2.0
#include "sim/simfaults.h"

#include "sim/simfaultsdetail.h"
#include "json/jsondiff.h"
#include "json/leafpaths.h"

#include <algorithm>
#include <array>
#include <cmath>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

using namespace simdetail;

namespace {

bool isContractFault(FaultKind kind)
{
    return kind == FaultKind::UnsafeFlip || kind == FaultKind::OverRefusal || kind == FaultKind::CatalogInvention
        || kind == FaultKind::WrongQuantity;
}

bool validPointer(const std::string& pointer)
{
    try {
        const json::json_pointer p(pointer);
        return true;
    } catch (const json::exception&) {
        return false;
    }
}

bool isPrimitive(const json& v)
{
    return v.is_string() || v.is_number() || v.is_boolean();
}

bool leniently(const json& a, const json& b)
{
    return valuesEqual(a, b, Equality::Lenient);
}

const json* schemaOfNode(const FaultContext& ctx, const json& doc, const DocNode& node)
{
    return schemaAt(ctx.schema, doc, node.tokens);
}

std::vector<json> enumValues(const json* sub)
{
    std::vector<json> values;
    if (hasEnum(sub)) {
        for (const json& v : (*sub)["enum"])
            values.push_back(v);
    }
    return values;
}

bool inEnum(const std::vector<json>& values, const json& v)
{
    return std::find(values.begin(), values.end(), v) != values.end();
}

// A different digit at the end keeps codes and dates looking valid ("NB-20417" → "NB-20416").
std::string bumpLastDigit(std::string s)
{
    for (std::size_t i = s.size(); i-- > 0;) {
        const char d = s[i];
        if (d < '0' || d > '9')
            continue;
        if (d >= '2')
            s[i] = static_cast<char>(d - 1);
        else if (d == '1')
            s[i] = (i > 0 && s[i - 1] == '0') ? '2' : '0';
        else
            s[i] = '1';
        return s;
    }
    return {};
}

json wrongString(const json& doc, const std::string& gold, const json* sub, Xoshiro256& rng)
{
    const std::vector<json> choices = enumValues(sub);
    std::vector<json> others;
    for (const json& v : choices) {
        if (v.is_string() && !leniently(v, json(gold)))
            others.push_back(v);
    }
    if (!others.empty())
        return others[rng.bounded(others.size())];
    // Models most often put the value of a neighbouring field in the wrong place.
    if (choices.empty() && rng.bounded(2) == 0) {
        std::vector<std::string> neighbours;
        for (const DocNode& n : walkDocument(doc)) {
            if (n.value->is_string() && !leniently(*n.value, json(gold)))
                neighbours.push_back(n.value->get<std::string>());
        }
        if (!neighbours.empty())
            return neighbours[rng.bounded(neighbours.size())];
    }
    if (std::string bumped = bumpLastDigit(gold); !bumped.empty())
        return bumped;
    if (const std::size_t space = gold.find(' '); space != std::string::npos && space + 1 < gold.size()) {
        const std::string swapped = gold.substr(space + 1) + " " + gold.substr(0, space);
        if (!leniently(json(swapped), json(gold)))
            return swapped;
    }
    return gold == "n/a" ? "unknown" : "n/a";
}

json wrongNumber(const json& gold, const json* sub)
{
    double maximum = INFINITY;
    double minimum = -INFINITY;
    if (sub && sub->is_object()) {
        if (sub->contains("maximum") && (*sub)["maximum"].is_number())
            maximum = (*sub)["maximum"].get<double>();
        if (sub->contains("minimum") && (*sub)["minimum"].is_number())
            minimum = (*sub)["minimum"].get<double>();
    }
    if (gold.is_number_integer() || gold.is_number_unsigned()) {
        const auto v = gold.get<std::int64_t>();
        return static_cast<double>(v + 1) <= maximum || static_cast<double>(v - 1) < minimum ? v + 1 : v - 1;
    }
    const double v = gold.get<double>();
    const double wrong = v == 0 ? 1.0 : std::round(v * 110.0) / 100.0;
    return wrong == v ? v + 1.0 : wrong;
}

bool editableChar(QChar ch)
{
    return ch.isLetterOrNumber() && !ch.isSurrogate();
}

std::optional<std::string> nearMiss(const std::string& gold, Xoshiro256& rng)
{
    const QString text = QString::fromStdString(gold);
    QList<qsizetype> positions;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (editableChar(text[i]))
            positions << i;
    }
    if (positions.isEmpty())
        return std::nullopt;
    const auto start = static_cast<qsizetype>(rng.bounded(static_cast<std::uint64_t>(positions.size())));
    const auto op = rng.bounded(4);
    for (qsizetype k = 0; k < positions.size(); ++k) {
        const qsizetype pos = positions[(start + k) % positions.size()];
        const QChar ch = text[pos];
        QString edited = text;
        if (op == 0) {
            edited.remove(pos, 1);
        } else if (op == 1) {
            edited.insert(pos, ch);
        } else if (op == 2 && pos + 1 < text.size() && editableChar(text[pos + 1]) && text[pos + 1] != ch) {
            edited[pos] = text[pos + 1];
            edited[pos + 1] = ch;
        } else {
            const char16_t c = ch.toLower().unicode();
            if (c >= u'a' && c <= u'z')
                edited[pos] = QChar(c == u'z' ? u'y' : char16_t(c + 1));
            else if (c >= u'0' && c <= u'9')
                edited[pos] = QChar(c == u'9' ? u'8' : char16_t(c + 1));
            else
                edited.remove(pos, 1);
            if (ch.isUpper())
                edited[pos] = edited[pos].toUpper();
        }
        const std::string out = edited.toStdString();
        if (!leniently(json(out), json(gold)))
            return out;
    }
    return std::nullopt;
}

json coerced(const json& v)
{
    if (v.is_boolean())
        return v.get<bool>() ? "true" : "false";
    return v.dump();
}

bool applyExtraKey(json& target, const json* sub, Xoshiro256& rng)
{
    static const std::array<const char*, 6> names { "notes", "confidence", "source_text", "comment", "summary",
        "language" };
    const std::size_t start = rng.bounded(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string name = names[(start + i) % names.size()];
        if (target.contains(name) || propertySchema(sub, name) != nullptr)
            continue;
        if (sub && sub->is_object() && sub->contains("properties") && (*sub)["properties"].contains(name))
            continue;
        if (name == "confidence")
            target[name] = 0.95;
        else if (name == "language")
            target[name] = "en";
        else if (name == "source_text")
            target[name] = "as stated in the message";
        else
            target[name] = "Extracted from the text.";
        return true;
    }
    return false;
}

// A capitalised enum value is the most common slip: leniently the same value, so only the schema
// catches it. Otherwise a value the enum lacks.
std::optional<json> wrongEnum(const json& gold, const json* sub)
{
    const std::vector<json> values = enumValues(sub);
    std::vector<std::string> candidates;
    const std::string g = gold.get<std::string>();
    if (!g.empty() && g[0] >= 'a' && g[0] <= 'z')
        candidates.push_back(std::string(1, static_cast<char>(g[0] - 'a' + 'A')) + g.substr(1));
    candidates.insert(candidates.end(), { "other", "unknown", g + "_other" });
    for (const std::string& c : candidates) {
        if (c != g && !inEnum(values, json(c)))
            return json(c);
    }
    return std::nullopt;
}

std::vector<std::string> documentSites(FaultKind kind, const json& doc, const FaultContext& ctx)
{
    std::vector<std::string> sites;
    for (const DocNode& n : walkDocument(doc)) {
        const json& v = *n.value;
        bool fits = false;
        switch (kind) {
        case FaultKind::DropKey:
            fits = n.inObject && !v.is_null() && !((v.is_object() || v.is_array()) && v.empty());
            break;
        case FaultKind::OmitValue:
            fits = n.inObject && isPrimitive(v);
            break;
        case FaultKind::WrongValue:
            fits = isPrimitive(v);
            break;
        case FaultKind::NearMiss:
            fits = v.is_string() && !hasEnum(schemaOfNode(ctx, doc, n))
                && QString::fromStdString(v.get<std::string>()).size() >= 3;
            break;
        case FaultKind::Coercion:
            fits = v.is_number() || v.is_boolean();
            break;
        case FaultKind::InventValue:
            fits = v.is_null() && !n.tokens.empty();
            if (v.is_object()) {
                // Declared keys the answer leaves out are places to invent too.
                const json* sub = schemaOfNode(ctx, doc, n);
                if (sub && sub->is_object() && sub->contains("properties") && (*sub)["properties"].is_object()) {
                    for (auto it = (*sub)["properties"].begin(); it != (*sub)["properties"].end(); ++it) {
                        if (!v.contains(it.key()))
                            sites.push_back(pointerJoin(n.pointer, it.key()));
                    }
                }
            }
            break;
        case FaultKind::ExtraKey:
            fits = v.is_object();
            break;
        case FaultKind::WrongEnum:
            fits = v.is_string() && hasEnum(schemaOfNode(ctx, doc, n));
            break;
        case FaultKind::WrongType: {
            const std::vector<std::string> types = schemaTypes(schemaOfNode(ctx, doc, n));
            fits = isPrimitive(v) && !n.tokens.empty() && std::find(types.begin(), types.end(), "array") == types.end();
            break;
        }
        default:
            break;
        }
        if (fits)
            sites.push_back(n.pointer);
    }
    return sites;
}

bool applyDocumentFault(FaultKind kind, json& doc, const std::string& site, const FaultContext& ctx, Xoshiro256& rng)
{
    const std::vector<std::string> tokens = pointerTokens(site);
    std::string parentPointer;
    std::string key;
    const bool hasParent = splitPointer(site, &parentPointer, &key);
    json* target = findValue(doc, site);
    json* parent = hasParent ? findValue(doc, parentPointer) : nullptr;

    if (kind == FaultKind::InventValue) {
        if (target && !target->is_null())
            return false;
        if (!target && (!parent || !parent->is_object()))
            return false;
        const json* sub = target ? schemaAt(ctx.schema, doc, tokens)
                                 : propertySchema(schemaAt(ctx.schema, doc, pointerTokens(parentPointer)), key);
        json invented = inventValue(sub, key, rng);
        if (target)
            *target = std::move(invented);
        else
            (*parent)[key] = std::move(invented);
        return true;
    }
    if (!target)
        return false;
    const json* sub = schemaAt(ctx.schema, doc, tokens);
    switch (kind) {
    case FaultKind::DropKey:
        if (!parent || !parent->is_object() || target->is_null())
            return false;
        parent->erase(key);
        return true;
    case FaultKind::OmitValue:
        if (!parent || !parent->is_object() || !isPrimitive(*target))
            return false;
        *target = nullptr;
        return true;
    case FaultKind::WrongValue:
        if (target->is_boolean())
            *target = !target->get<bool>();
        else if (target->is_number())
            *target = wrongNumber(*target, sub);
        else if (target->is_string())
            *target = wrongString(doc, target->get<std::string>(), sub, rng);
        else
            return false;
        return true;
    case FaultKind::NearMiss: {
        if (!target->is_string())
            return false;
        const std::optional<std::string> edited = nearMiss(target->get<std::string>(), rng);
        if (!edited)
            return false;
        *target = *edited;
        return true;
    }
    case FaultKind::Coercion:
        if (!target->is_number() && !target->is_boolean())
            return false;
        *target = coerced(*target);
        return true;
    case FaultKind::ExtraKey:
        return target->is_object() && applyExtraKey(*target, sub, rng);
    case FaultKind::WrongEnum: {
        if (!target->is_string() || !hasEnum(sub))
            return false;
        const std::optional<json> wrong = wrongEnum(*target, sub);
        if (!wrong)
            return false;
        *target = *wrong;
        return true;
    }
    case FaultKind::WrongType:
        if (!isPrimitive(*target) || !parent)
            return false;
        *target = json::array({ *target });
        return true;
    default:
        return false;
    }
}

} // namespace

QString faultId(FaultKind kind)
{
    switch (kind) {
    case FaultKind::CodeFence:
        return u"code_fence"_s;
    case FaultKind::Prose:
        return u"prose"_s;
    case FaultKind::Truncate:
        return u"truncate"_s;
    case FaultKind::DropKey:
        return u"drop_key"_s;
    case FaultKind::OmitValue:
        return u"omit_value"_s;
    case FaultKind::WrongValue:
        return u"wrong_value"_s;
    case FaultKind::NearMiss:
        return u"near_miss"_s;
    case FaultKind::Coercion:
        return u"coercion"_s;
    case FaultKind::InventValue:
        return u"invent_value"_s;
    case FaultKind::ExtraKey:
        return u"extra_key"_s;
    case FaultKind::WrongEnum:
        return u"wrong_enum"_s;
    case FaultKind::WrongType:
        return u"wrong_type"_s;
    case FaultKind::UnsafeFlip:
        return u"unsafe_flip"_s;
    case FaultKind::OverRefusal:
        return u"over_refusal"_s;
    case FaultKind::CatalogInvention:
        return u"catalog_invention"_s;
    case FaultKind::WrongQuantity:
        return u"wrong_quantity"_s;
    }
    return {};
}

const QList<FaultKind>& allFaultKinds()
{
    static const QList<FaultKind> all { FaultKind::CodeFence, FaultKind::Prose, FaultKind::Truncate, FaultKind::DropKey,
        FaultKind::OmitValue, FaultKind::WrongValue, FaultKind::NearMiss, FaultKind::Coercion, FaultKind::InventValue,
        FaultKind::ExtraKey, FaultKind::WrongEnum, FaultKind::WrongType, FaultKind::UnsafeFlip, FaultKind::OverRefusal,
        FaultKind::CatalogInvention, FaultKind::WrongQuantity };
    return all;
}

bool isTextFault(FaultKind kind)
{
    return kind == FaultKind::CodeFence || kind == FaultKind::Prose || kind == FaultKind::Truncate;
}

std::vector<std::string> faultSites(FaultKind kind, const json& doc, const FaultContext& ctx)
{
    if (isTextFault(kind))
        return {};
    if (isContractFault(kind))
        return contractSites(kind, doc, ctx);
    return documentSites(kind, doc, ctx);
}

bool applyFaultAt(FaultKind kind, json& doc, const std::string& site, const FaultContext& ctx, Xoshiro256& rng)
{
    if (isTextFault(kind) || !validPointer(site))
        return false;
    if (isContractFault(kind))
        return applyContractFault(kind, doc, site, ctx, rng);
    return applyDocumentFault(kind, doc, site, ctx, rng);
}

std::optional<std::string> applyFault(FaultKind kind, json& doc, const FaultContext& ctx, Xoshiro256& rng)
{
    const std::vector<std::string> sites = faultSites(kind, doc, ctx);
    if (sites.empty())
        return std::nullopt;
    const std::size_t start = rng.bounded(sites.size());
    for (std::size_t i = 0; i < sites.size(); ++i) {
        const std::string& site = sites[(start + i) % sites.size()];
        if (applyFaultAt(kind, doc, site, ctx, rng))
            return site;
    }
    return std::nullopt;
}

} // namespace structscope
