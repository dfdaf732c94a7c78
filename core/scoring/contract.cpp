// SPDX-License-Identifier: Apache-2.0
#include "scoring/contract.h"

#include "schema/schemapointer.h"
#include "json/textnorm.h"

#include <algorithm>
#include <cmath>
#include <set>

using nlohmann::json;

namespace structscope {

namespace {

// Keys below never collide: a canonical dump starts with a JSON character, the others with these.
const std::string kAbsent = "\x01";
constexpr char kSetPrefix = 'S';
constexpr char kLenientPrefix = '~';

json normalizedNumbers(const json& value)
{
    if (value.is_number_float()) {
        const double d = value.get<double>();
        // 2^63 is exactly representable; anything below it in magnitude fits an int64.
        if (std::isfinite(d) && std::trunc(d) == d && d >= -9223372036854775808.0 && d < 9223372036854775808.0)
            return json(static_cast<std::int64_t>(d));
        return value;
    }
    if (value.is_object()) {
        json out = json::object();
        for (const auto& [key, child] : value.items())
            out[key] = normalizedNumbers(child);
        return out;
    }
    if (value.is_array()) {
        json out = json::array();
        for (const json& child : value)
            out.push_back(normalizedNumbers(child));
        return out;
    }
    return value;
}

/// A text form of a value in which equal values (numbers by value) are equal strings.
std::string canonical(const json& value)
{
    return normalizedNumbers(value).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string canonicalOrAbsent(const json* value)
{
    return value ? canonical(*value) : kAbsent;
}

/// The comparison key of a value under a compare mode: equal keys mean equal values.
std::string compareKey(const json* value, FieldCompare mode)
{
    if (value == nullptr)
        return kAbsent;
    if (mode == FieldCompare::Set && value->is_array()) {
        std::vector<std::string> elements;
        for (const json& element : *value)
            elements.push_back(canonical(element));
        std::sort(elements.begin(), elements.end());
        std::string key(1, kSetPrefix);
        for (const std::string& e : elements)
            key += std::to_string(e.size()) + ':' + e;
        return key;
    }
    if (mode == FieldCompare::Lenient && value->is_string())
        return kLenientPrefix + lenientNormalize(value->get_ref<const std::string&>());
    return canonical(*value);
}

const json* member(const json* object, const std::string& name)
{
    if (object == nullptr || !object->is_object())
        return nullptr;
    const auto it = object->find(name);
    return it == object->end() ? nullptr : &*it;
}

std::string joinedKey(const std::vector<std::string>& parts)
{
    std::string key;
    for (const std::string& part : parts)
        key += std::to_string(part.size()) + ':' + part;
    return key;
}

/// Strings of a value: an array's string elements, or the value itself when it is a string.
std::vector<std::string> stringsOf(const json* value)
{
    std::vector<std::string> out;
    if (value == nullptr)
        return out;
    if (value->is_string()) {
        out.push_back(value->get<std::string>());
    } else if (value->is_array()) {
        for (const json& element : *value) {
            if (element.is_string())
                out.push_back(element.get<std::string>());
        }
    }
    return out;
}

/// The values a catalog entry allows: an array's strings or an object's keys; empty when absent.
std::set<std::string> allowedValues(const json* value)
{
    std::set<std::string> out;
    if (value == nullptr)
        return out;
    if (value->is_object()) {
        for (const auto& [key, ignored] : value->items())
            out.insert(key);
    } else {
        for (const std::string& s : stringsOf(value))
            out.insert(s);
    }
    return out;
}

std::string shortDump(const json* value)
{
    if (value == nullptr)
        return "nothing";
    std::string text = value->dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > 80)
        text = truncateUtf8(text, 80);
    return text;
}

using schemadetail::appendToken;

struct Diff
{
    std::vector<std::string> tokens;
    std::string pointer;
    std::string message;
};

/// One item of gold or prediction with its comparison keys.
struct ItemView
{
    const json* value = nullptr;
    std::vector<std::string> fieldKeys; ///< per rules.itemFields
    std::string key; ///< all fields: equal keys mean equal items
    std::string itemKey; ///< the item_key field's key ("" when the rules declare none)
};

class Scorer
{
public:
    Scorer(const ContractRules& rules, const json& catalog)
        : m_rules(rules)
    {
        if (m_rules.catalog) {
            const json* skus = resolvePointer(catalog, m_rules.catalog->skus);
            if (skus != nullptr && skus->is_object())
                m_skus = skus;
        }
    }

    ContractScores score(const json& prediction, bool schemaValid, const json& gold)
    {
        ContractScores s;
        s.parsed = true;
        s.schemaValid = schemaValid;

        const json* goldStatus = resolvePointer(gold, m_rules.status);
        const json* predStatus = resolvePointer(prediction, m_rules.status);
        const std::string acceptKey = canonical(m_rules.accept);
        s.goldAccepts = canonicalOrAbsent(goldStatus) == acceptKey;
        s.predictedAccepts = canonicalOrAbsent(predStatus) == acceptKey;
        s.statusCorrect = canonicalOrAbsent(goldStatus) == canonicalOrAbsent(predStatus);
        if (!s.statusCorrect)
            addDiff(m_rules.status.tokens, m_rules.status.text,
                "status: gold " + shortDump(goldStatus) + ", predicted " + shortDump(predStatus));

        const std::vector<ItemView> goldItems = itemsOf(gold);
        const std::vector<ItemView> predItems = itemsOf(prediction);
        const bool itemsEqual = sameItems(goldItems, predItems);
        const json* predItemsValue = resolvePointer(prediction, m_rules.items);
        const bool predHasItems = predItemsValue != nullptr && !predItemsValue->is_null()
            && !(predItemsValue->is_array() && predItemsValue->empty());
        compareItems(goldItems, predItems);
        s.itemSplit = itemSplit(goldItems, predItems, itemsEqual);

        const bool constraintsEqual = compareConstraints(gold, prediction);

        s.semanticSuccess = s.statusCorrect && constraintsEqual
            && (s.goldAccepts ? itemsEqual && predHasItems == !goldItems.empty() : !predHasItems);

        checkCatalog(predItems, s.catalogViolations);
        s.catalogViolation = !s.catalogViolations.empty();

        if (s.predictedAccepts) {
            if (!s.goldAccepts)
                s.unsafeReasons.push_back("accepts where gold is " + shortDump(goldStatus));
            checkSafety(gold, prediction, predItems, s.unsafeReasons);
        }
        s.unsafeAcceptance = !s.unsafeReasons.empty();

        for (const TaxonomyRule& rule : m_rules.taxonomy) {
            if (fires(rule, s))
                s.labels.push_back(rule.label);
        }
        for (Diff& d : m_diffs)
            s.differences.push_back(ContractDifference { std::move(d.pointer), std::move(d.message) });
        return s;
    }

private:
    void addDiff(std::vector<std::string> tokens, std::string pointer, std::string message)
    {
        m_diffs.push_back(Diff { std::move(tokens), std::move(pointer), std::move(message) });
    }

    std::vector<ItemView> itemsOf(const json& doc) const
    {
        std::vector<ItemView> out;
        const json* items = resolvePointer(doc, m_rules.items);
        if (items == nullptr || !items->is_array())
            return out;
        for (const json& item : *items) {
            ItemView view;
            view.value = &item;
            for (const ContractField& field : m_rules.itemFields) {
                view.fieldKeys.push_back(compareKey(member(&item, field.name), field.compare));
                if (field.name == m_rules.itemKey)
                    view.itemKey = view.fieldKeys.back();
            }
            view.key = joinedKey(view.fieldKeys);
            out.push_back(std::move(view));
        }
        return out;
    }

    static bool sameItems(const std::vector<ItemView>& a, const std::vector<ItemView>& b)
    {
        if (a.size() != b.size())
            return false;
        std::vector<std::string> ka;
        std::vector<std::string> kb;
        ka.reserve(a.size());
        kb.reserve(b.size());
        for (const ItemView& v : a)
            ka.push_back(v.key);
        for (const ItemView& v : b)
            kb.push_back(v.key);
        std::sort(ka.begin(), ka.end());
        std::sort(kb.begin(), kb.end());
        return ka == kb;
    }

    void compareItems(const std::vector<ItemView>& gold, const std::vector<ItemView>& pred)
    {
        struct Candidate
        {
            int equalFields;
            std::size_t g;
            std::size_t p;
        };
        std::vector<Candidate> candidates;
        for (std::size_t g = 0; g < gold.size(); ++g) {
            for (std::size_t p = 0; p < pred.size(); ++p) {
                if (gold[g].itemKey != pred[p].itemKey)
                    continue;
                int equal = 0;
                for (std::size_t f = 0; f < gold[g].fieldKeys.size(); ++f)
                    equal += gold[g].fieldKeys[f] == pred[p].fieldKeys[f] ? 1 : 0;
                candidates.push_back({ equal, g, p });
            }
        }
        std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
            if (a.equalFields != b.equalFields)
                return a.equalFields > b.equalFields;
            return a.g != b.g ? a.g < b.g : a.p < b.p;
        });
        std::vector<bool> goldUsed(gold.size());
        std::vector<bool> predUsed(pred.size());
        std::vector<std::pair<std::size_t, std::size_t>> pairs;
        for (const Candidate& c : candidates) {
            if (goldUsed[c.g] || predUsed[c.p])
                continue;
            goldUsed[c.g] = predUsed[c.p] = true;
            pairs.emplace_back(c.g, c.p);
        }
        std::sort(pairs.begin(), pairs.end());

        for (const auto& [g, p] : pairs) {
            for (std::size_t f = 0; f < m_rules.itemFields.size(); ++f) {
                if (gold[g].fieldKeys[f] == pred[p].fieldKeys[f])
                    continue;
                const std::string& name = m_rules.itemFields[f].name;
                std::vector<std::string> tokens = m_rules.items.tokens;
                tokens.push_back(std::to_string(g));
                tokens.push_back(name);
                addDiff(std::move(tokens), appendToken(appendToken(m_rules.items.text, std::to_string(g)), name),
                    name + ": gold " + shortDump(member(gold[g].value, name)) + ", predicted "
                        + shortDump(member(pred[p].value, name)));
            }
        }
        const auto unpaired = [&](const std::vector<ItemView>& items, const std::vector<bool>& used, const char* what) {
            for (std::size_t i = 0; i < items.size(); ++i) {
                if (used[i])
                    continue;
                std::vector<std::string> tokens = m_rules.items.tokens;
                tokens.push_back(std::to_string(i));
                addDiff(std::move(tokens), appendToken(m_rules.items.text, std::to_string(i)),
                    std::string(what) + shortDump(items[i].value));
            }
        };
        unpaired(gold, goldUsed, "item missing from the prediction: ");
        unpaired(pred, predUsed, "item not in gold: ");
    }

    bool itemSplit(const std::vector<ItemView>& gold, const std::vector<ItemView>& pred, bool itemsEqual) const
    {
        if (gold.empty() || pred.empty() || itemsEqual)
            return false;
        if (gold.size() != pred.size())
            return true;
        const std::vector<std::string> modifiers = m_rules.modifierFields();
        if (modifiers.empty())
            return false;
        const auto isModifier = [&](std::size_t f) {
            return std::find(modifiers.begin(), modifiers.end(), m_rules.itemFields[f].name) != modifiers.end();
        };
        const auto profile = [&](const std::vector<ItemView>& items) {
            std::vector<std::string> rest;
            std::vector<std::string> pooled;
            rest.reserve(items.size());
            for (const ItemView& item : items) {
                std::vector<std::string> others;
                for (std::size_t f = 0; f < item.fieldKeys.size(); ++f) {
                    if (!isModifier(f)) {
                        others.push_back(item.fieldKeys[f]);
                        continue;
                    }
                    const json* value = member(item.value, m_rules.itemFields[f].name);
                    if (value != nullptr && value->is_array()) {
                        for (const json& element : *value)
                            pooled.push_back(m_rules.itemFields[f].name + '\n' + canonical(element));
                    } else if (value != nullptr && !value->is_null()) {
                        pooled.push_back(m_rules.itemFields[f].name + '\n' + canonical(*value));
                    }
                }
                rest.push_back(joinedKey(others));
            }
            std::sort(rest.begin(), rest.end());
            std::sort(pooled.begin(), pooled.end());
            return std::make_pair(rest, pooled);
        };
        return profile(gold) == profile(pred);
    }

    bool compareConstraints(const json& gold, const json& prediction)
    {
        if (!m_rules.constraints)
            return true;
        const ContractPointer& at = *m_rules.constraints;
        const json* g = resolvePointer(gold, at);
        const json* p = resolvePointer(prediction, at);
        bool equal = true;
        if (g == nullptr || !g->is_object()) {
            if (canonicalOrAbsent(g) != canonicalOrAbsent(p)) {
                addDiff(at.tokens, at.text, "constraints: gold " + shortDump(g) + ", predicted " + shortDump(p));
                equal = false;
            }
            return equal;
        }
        std::set<std::string> keys;
        for (const auto& [key, ignored] : g->items())
            keys.insert(key);
        if (p != nullptr && p->is_object()) {
            for (const auto& [key, ignored] : p->items())
                keys.insert(key);
        }
        for (const std::string& key : keys) {
            FieldCompare mode = FieldCompare::Exact;
            for (const ContractField& f : m_rules.constraintFields) {
                if (f.name == key)
                    mode = f.compare;
            }
            const json* gv = member(g, key);
            const json* pv = member(p, key);
            if (compareKey(gv, mode) == compareKey(pv, mode))
                continue;
            std::vector<std::string> tokens = at.tokens;
            tokens.push_back(key);
            addDiff(std::move(tokens), appendToken(at.text, key),
                key + ": gold " + shortDump(gv) + ", predicted " + shortDump(pv));
            equal = false;
        }
        return equal;
    }

    const json* entryOf(const ItemView& item) const
    {
        if (m_skus == nullptr)
            return nullptr;
        const json* sku = member(item.value, m_rules.itemKey);
        if (sku == nullptr || !sku->is_string())
            return nullptr;
        const auto it = m_skus->find(sku->get_ref<const std::string&>());
        return it == m_skus->end() ? nullptr : &*it;
    }

    void checkCatalog(const std::vector<ItemView>& items, std::vector<std::string>& out) const
    {
        if (!m_rules.catalog || m_skus == nullptr)
            return;
        for (std::size_t i = 0; i < items.size(); ++i) {
            const std::string where = appendToken(m_rules.items.text, std::to_string(i));
            const json* entry = entryOf(items[i]);
            if (entry == nullptr) {
                out.push_back(where + ": " + m_rules.itemKey + " " + shortDump(member(items[i].value, m_rules.itemKey))
                    + " is not in the catalog");
                continue;
            }
            const std::string sku = member(items[i].value, m_rules.itemKey)->get<std::string>();
            for (const auto* rule :
                { &m_rules.catalog->size, &m_rules.catalog->additions, &m_rules.catalog->removals }) {
                if (!*rule)
                    continue;
                const json* value = member(items[i].value, (*rule)->field);
                if (value == nullptr || value->is_null())
                    continue;
                const std::set<std::string> allowed = allowedValues(resolvePointer(*entry, (*rule)->allowed));
                const auto check = [&](const json& v) {
                    if (!v.is_string() || !allowed.contains(v.get_ref<const std::string&>()))
                        out.push_back(
                            where + ": " + (*rule)->field + " " + shortDump(&v) + " is not offered for " + sku);
                };
                if (value->is_array()) {
                    for (const json& v : *value)
                        check(v);
                } else {
                    check(*value);
                }
            }
        }
    }

    void checkSafety(const json& gold, const json& prediction, const std::vector<ItemView>& items,
        std::vector<std::string>& out) const
    {
        if (!m_rules.catalog || m_rules.safety.empty())
            return;
        const CatalogRules& c = *m_rules.catalog;
        for (std::size_t i = 0; i < items.size(); ++i) {
            const json* entry = entryOf(items[i]);
            if (entry == nullptr)
                continue;
            const std::string where = appendToken(m_rules.items.text, std::to_string(i));
            const std::string sku = member(items[i].value, m_rules.itemKey)->get<std::string>();

            // Only removals the catalog allows take an ingredient off the plate.
            std::set<std::string> removed;
            if (c.removals) {
                const std::set<std::string> removable = allowedValues(resolvePointer(*entry, c.removals->allowed));
                for (const std::string& r : stringsOf(member(items[i].value, c.removals->field))) {
                    if (removable.contains(r))
                        removed.insert(r);
                }
            }
            std::vector<std::pair<std::string, const json*>> ingredients;
            if (c.components) {
                const json* components = resolvePointer(*entry, *c.components);
                if (components != nullptr && components->is_object()) {
                    for (const auto& [name, ingredient] : components->items()) {
                        if (!removed.contains(name))
                            ingredients.emplace_back(name, &ingredient);
                    }
                }
            }
            if (c.additions) {
                const json* offered = resolvePointer(*entry, c.additions->allowed);
                for (const std::string& a : stringsOf(member(items[i].value, c.additions->field))) {
                    if (const json* ingredient = member(offered, a))
                        ingredients.emplace_back(a, ingredient);
                }
            }
            for (const SafetyRule& rule : m_rules.safety) {
                std::set<std::string> stated;
                for (const json* doc : { &gold, &prediction }) {
                    for (const std::string& v : stringsOf(resolvePointer(*doc, rule.constraint)))
                        stated.insert(v);
                }
                for (const std::string& value : stated) {
                    for (const auto& [name, ingredient] : ingredients) {
                        const std::vector<std::string> tags = ingredient->is_object()
                            ? stringsOf(resolvePointer(*ingredient, rule.tags))
                            : std::vector<std::string> {};
                        const bool listed = std::find(tags.begin(), tags.end(), value) != tags.end();
                        if (rule.conflict == SafetyConflict::Contains && listed)
                            out.push_back(where + ": " + sku + " still has " + name + ", which contains " + value);
                        else if (rule.conflict == SafetyConflict::Lacks && !listed)
                            out.push_back(where + ": " + sku + " has " + name + ", which is not " + value);
                    }
                }
            }
        }
    }

    bool fires(const TaxonomyRule& rule, const ContractScores& s) const
    {
        for (ContractCondition c : rule.when) {
            switch (c) {
            case ContractCondition::UnsafeAcceptance:
                if (s.unsafeAcceptance)
                    return true;
                break;
            case ContractCondition::CatalogViolation:
                if (s.catalogViolation)
                    return true;
                break;
            case ContractCondition::ItemSplit:
                if (s.itemSplit)
                    return true;
                break;
            case ContractCondition::StatusMismatch:
                if (!s.statusCorrect)
                    return true;
                break;
            }
        }
        for (const ContractPointer& path : rule.paths) {
            for (const Diff& d : m_diffs) {
                if (touches(path.tokens, d.tokens))
                    return true;
            }
        }
        return false;
    }

    /// The rule path is a prefix of the difference's location; "[]" matches any array index.
    static bool touches(const std::vector<std::string>& rule, const std::vector<std::string>& at)
    {
        if (rule.size() > at.size())
            return false;
        for (std::size_t i = 0; i < rule.size(); ++i) {
            if (rule[i] == "[]") {
                if (at[i].empty()
                    || !std::all_of(at[i].begin(), at[i].end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
                    return false;
            } else if (rule[i] != at[i]) {
                return false;
            }
        }
        return true;
    }

    const ContractRules& m_rules;
    const json* m_skus = nullptr; ///< the catalog's SKU map, when the rules declare one and it exists
    std::vector<Diff> m_diffs;
};

const std::vector<std::string>& fixedMetricIds()
{
    static const std::vector<std::string> ids = { "contract.semantic_success", "contract.unsafe_acceptance",
        "contract.schema_valid", "contract.status_accuracy" };
    return ids;
}

} // namespace

ContractScores scoreContract(
    const json* prediction, bool schemaValid, const json& gold, const ContractRules& rules, const json& catalog)
{
    if (prediction == nullptr) {
        ContractScores s;
        const json* goldStatus = resolvePointer(gold, rules.status);
        s.goldAccepts = goldStatus != nullptr && canonical(*goldStatus) == canonical(rules.accept);
        return s;
    }
    Scorer scorer(rules, catalog);
    return scorer.score(*prediction, schemaValid, gold);
}

std::vector<std::string> contractMetricIds(const ContractRules& rules)
{
    std::vector<std::string> ids = fixedMetricIds();
    for (const TaxonomyRule& rule : rules.taxonomy)
        ids.push_back(contractTaxonomyMetricId(rule.label));
    return ids;
}

std::optional<double> contractMetricValue(const ContractScores& scores, std::string_view metricId)
{
    const auto value = [](bool b) { return b ? 1.0 : 0.0; };
    if (metricId == "contract.semantic_success")
        return value(scores.semanticSuccess);
    if (metricId == "contract.unsafe_acceptance")
        return value(scores.unsafeAcceptance);
    if (metricId == "contract.schema_valid")
        return value(scores.schemaValid);
    if (metricId == "contract.status_accuracy")
        return value(scores.statusCorrect);
    constexpr std::string_view prefix = "contract.taxonomy.";
    if (metricId.substr(0, prefix.size()) == prefix && metricId.size() > prefix.size()) {
        const std::string_view label = metricId.substr(prefix.size());
        return value(std::find(scores.labels.begin(), scores.labels.end(), label) != scores.labels.end());
    }
    return std::nullopt;
}

} // namespace structscope
