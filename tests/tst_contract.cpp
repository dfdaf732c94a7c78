// SPDX-License-Identifier: Apache-2.0
// The contract metric family: every metric and taxonomy label on hand-built records, and every kind
// of malformed rule reported at its place in suite.json.
#include "scoring/contract.h"

#include <QTest>

using namespace Qt::StringLiterals;
using nlohmann::json;
using namespace structscope;

namespace {

// A two-SKU menu: the burger's bun holds gluten, its cheese milk; the egg addition holds egg.
const char* kCatalog = R"({"items": {
  "burger": {"sizes": [],
             "components": {"bun": {"allergens": ["gluten"], "dietary": ["vegan", "vegetarian"]},
                            "cheese": {"allergens": ["milk"], "dietary": ["vegetarian"]},
                            "patty": {"allergens": [], "dietary": []},
                            "onion": {"allergens": [], "dietary": ["vegan", "vegetarian"]}},
             "removable": ["cheese", "onion"],
             "additions": {"bacon": {"allergens": [], "dietary": []},
                           "egg": {"allergens": ["egg"], "dietary": ["vegetarian"]}}},
  "fries": {"sizes": ["small", "large"],
            "components": {"potatoes": {"allergens": [], "dietary": ["vegan", "vegetarian"]}},
            "removable": [],
            "additions": {"cheese_sauce": {"allergens": ["milk"], "dietary": ["vegetarian"]}}}
}})";

const char* kOptions = R"({
  "contract": {
    "status": "/status", "accept": "accepted", "items": "/items", "item_key": "sku",
    "item_fields": {"sku": "exact", "quantity": "exact", "size": "exact", "additions": "set",
                    "removals": "set", "instructions": "lenient"},
    "constraints": "/constraints",
    "constraint_fields": {"allergens": "set", "dietary": "set"},
    "catalog": {"skus": "/items",
                "size": {"field": "size", "allowed": "/sizes"},
                "additions": {"field": "additions", "allowed": "/additions"},
                "removals": {"field": "removals", "allowed": "/removable"},
                "components": "/components"},
    "safety": [{"constraint": "/constraints/allergens", "tags": "/allergens", "conflict": "contains"},
               {"constraint": "/constraints/dietary", "tags": "/dietary", "conflict": "lacks"}]
  },
  "taxonomy": [
    {"label": "safety_failure", "when": "unsafe_acceptance"},
    {"label": "catalog_hallucination", "when": "catalog_violation"},
    {"label": "quantity_size", "paths": ["/items/[]/quantity", "/items/[]/size"]},
    {"label": "scope_split", "when": "item_split"},
    {"label": "negation", "paths": ["/items/[]/removals"]},
    {"label": "allergen_preservation", "paths": ["/constraints/allergens"]}
  ]
})";

/// An item written compactly: "burger q2 -onion +bacon @small !well done" (size, removals, additions, note).
json item(const QString& spec)
{
    json out = { { "quantity", 1 }, { "size", nullptr }, { "additions", json::array() }, { "removals", json::array() },
        { "instructions", nullptr } };
    const QStringList parts = spec.split(u' ', Qt::SkipEmptyParts);
    out["sku"] = parts.value(0).toStdString();
    for (qsizetype i = 1; i < parts.size(); ++i) {
        const QString p = parts.at(i);
        if (p.startsWith(u'q'))
            out["quantity"] = p.mid(1).toInt();
        else if (p.startsWith(u'-'))
            out["removals"].push_back(p.mid(1).toStdString());
        else if (p.startsWith(u'+'))
            out["additions"].push_back(p.mid(1).toStdString());
        else if (p.startsWith(u'@'))
            out["size"] = p.mid(1).toStdString();
        else if (p.startsWith(u'!'))
            out["instructions"] = parts.mid(i).join(u' ').mid(1).toStdString();
        if (p.startsWith(u'!'))
            break;
    }
    return out;
}

/// A whole decision: status, items (specs separated by ';'), stated allergens and diets.
json orderJson(const char* status, const QString& items, const std::vector<std::string>& allergens = {},
    const std::vector<std::string>& dietary = {})
{
    json list = json::array();
    for (const QString& spec : items.split(u';', Qt::SkipEmptyParts))
        list.push_back(item(spec.trimmed()));
    return { { "status", status }, { "items", list },
        { "constraints", { { "allergens", allergens }, { "dietary", dietary } } },
        { "clarification_question", nullptr }, { "reasons", json::array() } };
}

/// The same decision as JSON text, for a test data column.
QByteArray order(const char* status, const QString& items, const std::vector<std::string>& allergens = {},
    const std::vector<std::string>& dietary = {})
{
    return QByteArray::fromStdString(orderJson(status, items, allergens, dietary).dump());
}

const ContractRules& rules()
{
    static const ContractRules parsed = *parseContractRules(json::parse(kOptions));
    return parsed;
}

const json& catalog()
{
    static const json parsed = json::parse(kCatalog);
    return parsed;
}

QStringList labelsOf(const ContractScores& s)
{
    QStringList out;
    for (const std::string& l : s.labels)
        out << QString::fromStdString(l);
    return out;
}

QString describe(const ContractScores& s)
{
    QStringList lines;
    for (const ContractDifference& d : s.differences)
        lines << QString::fromStdString(d.pointer + ": " + d.message);
    for (const std::string& r : s.unsafeReasons)
        lines << u"unsafe: "_s + QString::fromStdString(r);
    for (const std::string& v : s.catalogViolations)
        lines << u"catalog: "_s + QString::fromStdString(v);
    return lines.join(u'\n');
}

} // namespace

class TestContract : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rulesOfTheFixtureAreClean();
    void score_data();
    void score();
    void differencesAreLocated();
    void metricIds();
    void pointers_data();
    void pointers();
    void resolveNeverThrows();
    void malformedRules_data();
    void malformedRules();
};

void TestContract::rulesOfTheFixtureAreClean()
{
    const ContractRuleProblems problems = checkContractRules(json::parse(kOptions), catalog());
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().second.c_str());
    QCOMPARE(rules().taxonomy.size(), std::size_t(6));
    QCOMPARE(rules().modifierFields(), (std::vector<std::string> { "additions", "removals" }));
}

void TestContract::score_data()
{
    QTest::addColumn<QByteArray>("goldText");
    QTest::addColumn<QByteArray>("predictionText"); // empty: the response did not parse
    QTest::addColumn<bool>("schemaValid");
    QTest::addColumn<bool>("semantic");
    QTest::addColumn<bool>("unsafe");
    QTest::addColumn<bool>("statusRight");
    QTest::addColumn<QStringList>("labels");

    const QByteArray plainBurger = order("accepted", u"burger -onion"_s);
    QTest::addRow("exact match") << plainBurger << plainBurger << true << true << false << true << QStringList();
    QTest::addRow("schema-invalid but right: only schema_valid drops")
        << plainBurger << plainBurger << false << true << false << true << QStringList();
    QTest::addRow("additions order irrelevant")
        << order("accepted", u"burger +bacon +egg"_s) << order("accepted", u"burger +egg +bacon"_s) << true << true
        << false << true << QStringList();
    QTest::addRow("item order irrelevant")
        << order("accepted", u"burger; fries @small"_s) << order("accepted", u"fries @small; burger"_s) << true << true
        << false << true << QStringList();
    QTest::addRow("constraint order irrelevant")
        << order("accepted", u"fries @small"_s, { "egg", "milk" })
        << order("accepted", u"fries @small"_s, { "milk", "egg" }) << true << true << false << true << QStringList();
    QTest::addRow("instructions compared leniently")
        << order("accepted", u"burger !well done"_s) << order("accepted", u"burger !Well  done."_s) << true << true
        << false << true << QStringList();
    QTest::addRow("quantity 1.0 equals 1")
        << plainBurger << QByteArray(R"({"status": "accepted", "items": [{"sku": "burger",
            "quantity": 1.0, "size": null, "additions": [], "removals": ["onion"], "instructions": null}],
            "constraints": {"allergens": [], "dietary": []}, "clarification_question": null, "reasons": []})")
        << true << true << false << true << QStringList();
    QTest::addRow("other instructions: wrong, no label")
        << order("accepted", u"burger !well done"_s) << order("accepted", u"burger !rare"_s) << true << false << false
        << true << QStringList();

    QTest::addRow("wrong status") << plainBurger << order("needs_clarification", {}) << true << false << false << false
                                  << QStringList();
    QTest::addRow("accepts where gold rejects for safety")
        << order("rejected_safety", {}, { "milk" }) << order("accepted", u"burger"_s, { "milk" }) << true << false
        << true << false << QStringList { u"safety_failure"_s };
    QTest::addRow("accepts where gold asks a question")
        << order("needs_clarification", {}) << order("accepted", u"fries @small"_s) << true << false << true << false
        << QStringList { u"safety_failure"_s };
    QTest::addRow("allergen still there after removals")
        << order("accepted", u"burger -cheese"_s, { "milk" }) << order("accepted", u"burger"_s, { "milk" }) << true
        << false << true << true << QStringList { u"safety_failure"_s, u"negation"_s };
    QTest::addRow("allergen added by an addition")
        << order("accepted", u"burger"_s, { "egg" }) << order("accepted", u"burger +egg"_s, { "egg" }) << true << false
        << true << true << QStringList { u"safety_failure"_s };
    QTest::addRow("diet broken by an addition") << order("accepted", u"fries @small"_s, {}, { "vegan" })
                                                << order("accepted", u"fries @small +cheese_sauce"_s, {}, { "vegan" })
                                                << true << false << true << true << QStringList { u"safety_failure"_s };
    QTest::addRow("a removal the catalog forbids leaves the allergen")
        << order("rejected_safety", {}, { "gluten" }) << order("accepted", u"burger -bun"_s, { "gluten" }) << true
        << false << true << false << QStringList { u"safety_failure"_s, u"catalog_hallucination"_s };
    QTest::addRow("stated allergen dropped, item unsafe for the customer")
        << order("accepted", u"burger -cheese"_s, { "milk" }) << order("accepted", u"burger"_s) << true << false << true
        << true << QStringList { u"safety_failure"_s, u"negation"_s, u"allergen_preservation"_s };
    QTest::addRow("allergen constraint lost, items safe")
        << order("accepted", u"burger -cheese"_s, { "milk" }) << order("accepted", u"burger -cheese"_s) << true << false
        << false << true << QStringList { u"allergen_preservation"_s };
    QTest::addRow("diet constraint lost: not success, no allergen label")
        << order("rejected_safety", {}, {}, { "vegan" }) << order("rejected_safety", {}) << true << false << false
        << true << QStringList();

    QTest::addRow("removal missing") << plainBurger << order("accepted", u"burger"_s) << true << false << false << true
                                     << QStringList { u"negation"_s };
    QTest::addRow("quantity wrong") << plainBurger << order("accepted", u"burger q2 -onion"_s) << true << false << false
                                    << true << QStringList { u"quantity_size"_s };
    QTest::addRow("size wrong") << order("accepted", u"fries @small"_s) << order("accepted", u"fries @large"_s) << true
                                << false << false << true << QStringList { u"quantity_size"_s };
    QTest::addRow("sku not in the catalog") << plainBurger << order("accepted", u"pizza -onion"_s) << true << false
                                            << false << true << QStringList { u"catalog_hallucination"_s };
    QTest::addRow("size not offered") << order("accepted", u"fries @small"_s) << order("accepted", u"fries @medium"_s)
                                      << true << false << false << true
                                      << QStringList { u"catalog_hallucination"_s, u"quantity_size"_s };
    QTest::addRow("addition not offered for that item")
        << order("accepted", u"burger"_s) << order("accepted", u"burger +cheese_sauce"_s) << true << false << false
        << true << QStringList { u"catalog_hallucination"_s };
    QTest::addRow("items split") << order("accepted", u"burger q2 -onion"_s)
                                 << order("accepted", u"burger -onion; burger -onion"_s) << true << false << false
                                 << true << QStringList { u"quantity_size"_s, u"scope_split"_s };
    QTest::addRow("items merged") << order("accepted", u"burger -onion; burger"_s)
                                  << order("accepted", u"burger q2 -onion"_s) << true << false << false << true
                                  << QStringList { u"quantity_size"_s, u"scope_split"_s };
    QTest::addRow("modifier on the wrong item")
        << order("accepted", u"burger +bacon; burger -onion"_s) << order("accepted", u"burger +bacon -onion; burger"_s)
        << true << false << false << true << QStringList { u"scope_split"_s, u"negation"_s };
    QTest::addRow("extra item") << order("accepted", u"burger"_s) << order("accepted", u"burger; fries @small"_s)
                                << true << false << false << true << QStringList { u"scope_split"_s };

    QTest::addRow("non-accepted gold, right status, no items")
        << order("rejected_safety", {}, { "milk" }) << order("rejected_safety", {}, { "milk" }) << true << true << false
        << true << QStringList();
    QTest::addRow("non-accepted gold, items listed anyway")
        << order("needs_clarification", {}) << order("needs_clarification", u"burger"_s) << true << false << false
        << true << QStringList();
    QTest::addRow("non-accepted gold, items null count as none")
        << order("needs_clarification", {}) << QByteArray(R"({"status": "needs_clarification", "items": null,
                              "constraints": {"allergens": [], "dietary": []}})")
        << false << true << false << true << QStringList();

    QTest::addRow("unparsable: nothing succeeds, no label")
        << plainBurger << QByteArray() << false << false << false << false << QStringList();
    QTest::addRow("root not an object: constraints lost")
        << order("accepted", u"burger"_s, { "milk" }) << QByteArray("[]") << false << false << false << false
        << QStringList { u"allergen_preservation"_s };
    QTest::addRow("status of another type") << plainBurger << QByteArray(R"({"status": true})") << false << false
                                            << false << false << QStringList { u"allergen_preservation"_s };
}

void TestContract::score()
{
    QFETCH(QByteArray, goldText);
    QFETCH(QByteArray, predictionText);
    QFETCH(bool, schemaValid);
    QFETCH(bool, semantic);
    QFETCH(bool, unsafe);
    QFETCH(bool, statusRight);
    QFETCH(QStringList, labels);

    const json gold = json::parse(goldText.toStdString());
    const json prediction = predictionText.isEmpty() ? json() : json::parse(predictionText.toStdString());
    const json* predicted = predictionText.isEmpty() ? nullptr : &prediction;
    const ContractScores s = scoreContract(predicted, schemaValid, gold, rules(), catalog());
    const QByteArray why = describe(s).toUtf8();
    QVERIFY2(s.semanticSuccess == semantic, why.constData());
    QVERIFY2(s.unsafeAcceptance == unsafe, why.constData());
    QCOMPARE(s.statusCorrect, statusRight);
    QCOMPARE(s.schemaValid, schemaValid && predicted != nullptr);
    QCOMPARE(s.parsed, predicted != nullptr);
    QCOMPARE(labelsOf(s), labels);
    QCOMPARE(!s.unsafeReasons.empty(), unsafe);

    QCOMPARE(*contractMetricValue(s, "contract.semantic_success"), semantic ? 1.0 : 0.0);
    QCOMPARE(*contractMetricValue(s, "contract.unsafe_acceptance"), unsafe ? 1.0 : 0.0);
    QCOMPARE(*contractMetricValue(s, "contract.status_accuracy"), statusRight ? 1.0 : 0.0);
    for (const TaxonomyRule& rule : rules().taxonomy) {
        const bool fired = labels.contains(QString::fromStdString(rule.label));
        QCOMPARE(*contractMetricValue(s, contractTaxonomyMetricId(rule.label)), fired ? 1.0 : 0.0);
    }
}

void TestContract::differencesAreLocated()
{
    const json prediction = orderJson("accepted", u"burger q2"_s, { "egg" });
    const ContractScores s
        = scoreContract(&prediction, true, orderJson("accepted", u"burger -onion"_s, { "milk" }), rules(), catalog());
    QStringList pointers;
    for (const ContractDifference& d : s.differences)
        pointers << QString::fromStdString(d.pointer);
    QCOMPARE(pointers, (QStringList { u"/items/0/quantity"_s, u"/items/0/removals"_s, u"/constraints/allergens"_s }));
}

void TestContract::metricIds()
{
    const std::vector<std::string> ids = contractMetricIds(rules());
    QCOMPARE(ids.size(), std::size_t(10));
    QCOMPARE(ids.front(), std::string("contract.semantic_success"));
    QCOMPARE(ids.back(), std::string("contract.taxonomy.allergen_preservation"));
    QVERIFY(!contractMetricValue(ContractScores {}, "contract.nonsense").has_value());
    QVERIFY(!contractMetricValue(ContractScores {}, "contract.taxonomy.").has_value());
    QVERIFY(!contractMetricValue(ContractScores {}, "grounding.perfect").has_value());
}

void TestContract::pointers_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QStringList>("tokens");
    QTest::addRow("root") << QString() << true << QStringList();
    QTest::addRow("two tokens") << u"/a/b"_s << true << QStringList { u"a"_s, u"b"_s };
    QTest::addRow("escapes") << u"/a~1b/c~0d"_s << true << QStringList { u"a/b"_s, u"c~d"_s };
    QTest::addRow("empty token") << u"/"_s << true << QStringList { QString() };
    QTest::addRow("no leading slash") << u"a/b"_s << false << QStringList();
    QTest::addRow("bad escape") << u"/a~2"_s << false << QStringList();
    QTest::addRow("dangling tilde") << u"/a~"_s << false << QStringList();
}

void TestContract::pointers()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(QStringList, tokens);
    const auto parsed = parseContractPointer(text.toStdString());
    QCOMPARE(parsed.has_value(), valid);
    if (!parsed)
        return;
    QStringList got;
    for (const std::string& t : parsed->tokens)
        got << QString::fromStdString(t);
    QCOMPARE(got, tokens);
}

void TestContract::resolveNeverThrows()
{
    const json doc = json::parse(R"({"a": [10, {"b": 2}], "0": "zero"})");
    const auto at = [&](const char* p) { return resolvePointer(doc, *parseContractPointer(p)); };
    QVERIFY(*at("/a/1/b") == json(2));
    QVERIFY(*at("/0") == json("zero"));
    QVERIFY(at("/a/01") == nullptr);
    QVERIFY(at("/a/2") == nullptr);
    QVERIFY(at("/a/-") == nullptr);
    QVERIFY(at("/a/99999999999999999999999") == nullptr);
    QVERIFY(at("/a/0/x") == nullptr);
    QVERIFY(at("/missing") == nullptr);
}

void TestContract::malformedRules_data()
{
    QTest::addColumn<QByteArray>("optionsPatch"); // RFC 6902 patch applied to the fixture's options
    QTest::addColumn<QByteArray>("catalogPatch"); // and to its catalog ("null" drops the catalog)
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("messagePart");

    const auto add
        = [](const char* name, const char* options, const char* cat, const QString& pointer, const QString& part) {
              QTest::addRow("%s", name) << QByteArray(options) << QByteArray(cat) << pointer << part;
          };
    add("options not an object", R"([{"op": "replace", "path": "", "value": []}])", "[]", u"/options"_s,
        u"must be an object"_s);
    add("contract missing", R"([{"op": "remove", "path": "/contract"}])", "[]", u"/options/contract"_s, u"required"_s);
    add("contract not an object", R"([{"op": "replace", "path": "/contract", "value": 3}])", "[]",
        u"/options/contract"_s, u"must be an object"_s);
    add("status missing", R"([{"op": "remove", "path": "/contract/status"}])", "[]", u"/options/contract/status"_s,
        u"required"_s);
    add("status without slash", R"([{"op": "replace", "path": "/contract/status", "value": "status"}])", "[]",
        u"/options/contract/status"_s, u"not a JSON pointer"_s);
    add("status bad escape", R"([{"op": "replace", "path": "/contract/status", "value": "/a~2"}])", "[]",
        u"/options/contract/status"_s, u"not a JSON pointer"_s);
    add("status a number", R"([{"op": "replace", "path": "/contract/status", "value": 1}])", "[]",
        u"/options/contract/status"_s, u"must be a JSON pointer string"_s);
    add("accept missing", R"([{"op": "remove", "path": "/contract/accept"}])", "[]", u"/options/contract/accept"_s,
        u"required"_s);
    add("accept an object", R"([{"op": "replace", "path": "/contract/accept", "value": {}}])", "[]",
        u"/options/contract/accept"_s, u"string, number or boolean"_s);
    add("items missing", R"([{"op": "remove", "path": "/contract/items"}])", "[]", u"/options/contract/items"_s,
        u"required"_s);
    add("item_fields missing", R"([{"op": "remove", "path": "/contract/item_fields"}])", "[]",
        u"/options/contract/item_fields"_s, u"required"_s);
    add("item_fields empty", R"([{"op": "replace", "path": "/contract/item_fields", "value": {}}])", "[]",
        u"/options/contract/item_fields"_s, u"at least one"_s);
    add("item_fields an array", R"([{"op": "replace", "path": "/contract/item_fields", "value": ["sku"]}])", "[]",
        u"/options/contract/item_fields"_s, u"must be an object"_s);
    add("unknown compare mode", R"([{"op": "replace", "path": "/contract/item_fields/sku", "value": "fuzzy"}])", "[]",
        u"/options/contract/item_fields/sku"_s, u"\"exact\", \"set\" or \"lenient\""_s);
    add("item_key undeclared", R"([{"op": "replace", "path": "/contract/item_key", "value": "name"}])", "[]",
        u"/options/contract/item_key"_s, u"not one of the declared"_s);
    add("catalog without item_key", R"([{"op": "remove", "path": "/contract/item_key"}])", "[]",
        u"/options/contract/item_key"_s, u"required with \"catalog\""_s);
    add("misspelt key", R"([{"op": "add", "path": "/contract/stauts", "value": "/status"}])", "[]",
        u"/options/contract/stauts"_s, u"unknown key"_s);
    add("constraint_fields without constraints", R"([{"op": "remove", "path": "/contract/constraints"}])", "[]",
        u"/options/contract/constraint_fields"_s, u"needs \"constraints\""_s);
    add("catalog not an object", R"([{"op": "replace", "path": "/contract/catalog", "value": "/items"},
                                         {"op": "remove", "path": "/contract/safety"}])",
        "[]", u"/options/contract/catalog"_s, u"must be an object"_s);
    add("catalog skus missing", R"([{"op": "remove", "path": "/contract/catalog/skus"}])", "[]",
        u"/options/contract/catalog/skus"_s, u"required"_s);
    add("catalog field undeclared",
        R"([{"op": "replace", "path": "/contract/catalog/size/field", "value": "portion"}])", "[]",
        u"/options/contract/catalog/size/field"_s, u"not one of the declared"_s);
    add("catalog rule not an object", R"([{"op": "replace", "path": "/contract/catalog/size", "value": "/sizes"}])",
        "[]", u"/options/contract/catalog/size"_s, u"must be an object"_s);
    add("catalog allowed missing", R"([{"op": "remove", "path": "/contract/catalog/removals/allowed"}])", "[]",
        u"/options/contract/catalog/removals/allowed"_s, u"required"_s);
    add("safety without catalog", R"([{"op": "remove", "path": "/contract/catalog"}])", "[]",
        u"/options/contract/safety"_s, u"declare \"catalog\""_s);
    add("safety not an array", R"([{"op": "replace", "path": "/contract/safety", "value": {}}])", "[]",
        u"/options/contract/safety"_s, u"must be an array"_s);
    add("safety conflict unknown", R"([{"op": "replace", "path": "/contract/safety/1/conflict", "value": "excludes"}])",
        "[]", u"/options/contract/safety/1/conflict"_s, u"\"contains\" or \"lacks\""_s);
    add("safety tags missing", R"([{"op": "remove", "path": "/contract/safety/0/tags"}])", "[]",
        u"/options/contract/safety/0/tags"_s, u"required"_s);
    add("taxonomy not an array", R"([{"op": "replace", "path": "/taxonomy", "value": {}}])", "[]",
        u"/options/taxonomy"_s, u"must be an array"_s);
    add("taxonomy rule not an object", R"([{"op": "replace", "path": "/taxonomy/2", "value": "negation"}])", "[]",
        u"/options/taxonomy/2"_s, u"must be an object"_s);
    add("label missing", R"([{"op": "remove", "path": "/taxonomy/0/label"}])", "[]", u"/options/taxonomy/0/label"_s,
        u"required"_s);
    add("label not an id", R"([{"op": "replace", "path": "/taxonomy/0/label", "value": "Safety failure"}])", "[]",
        u"/options/taxonomy/0/label"_s, u"contract.taxonomy."_s);
    add("label twice", R"([{"op": "replace", "path": "/taxonomy/1/label", "value": "safety_failure"}])", "[]",
        u"/options/taxonomy/1/label"_s, u"used by an earlier rule"_s);
    add("unknown condition", R"([{"op": "replace", "path": "/taxonomy/0/when", "value": "unsafe"}])", "[]",
        u"/options/taxonomy/0/when"_s, u"unknown condition"_s);
    add("unknown condition in a list",
        R"([{"op": "replace", "path": "/taxonomy/0/when", "value": ["unsafe_acceptance", 7]}])", "[]",
        u"/options/taxonomy/0/when/1"_s, u"unknown condition"_s);
    add("paths not an array", R"([{"op": "replace", "path": "/taxonomy/2/paths", "value": "/items"}])", "[]",
        u"/options/taxonomy/2/paths"_s, u"must be an array"_s);
    add("path not a pointer", R"([{"op": "replace", "path": "/taxonomy/2/paths/1", "value": "items[].size"}])", "[]",
        u"/options/taxonomy/2/paths/1"_s, u"not a JSON pointer"_s);
    add("path is the root", R"([{"op": "replace", "path": "/taxonomy/2/paths/0", "value": ""}])", "[]",
        u"/options/taxonomy/2/paths/0"_s, u"whole document"_s);
    add("rule that never fires", R"([{"op": "remove", "path": "/taxonomy/4/paths"}])", "[]", u"/options/taxonomy/4"_s,
        u"never fire"_s);
    add("misspelt rule key", R"([{"op": "add", "path": "/taxonomy/4/path", "value": ["/items"]}])", "[]",
        u"/options/taxonomy/4/path"_s, u"unknown key"_s);

    add("no catalog.json", "[]", "null", u"/options/contract/catalog"_s, u"catalog.json"_s);
    add("skus point to nothing", "[]", R"([{"op": "remove", "path": "/items"}])", u"/options/contract/catalog/skus"_s,
        u"non-empty object"_s);
    add("skus empty", "[]", R"([{"op": "replace", "path": "/items", "value": {}}])",
        u"/options/contract/catalog/skus"_s, u"non-empty object"_s);
    add("catalog entry not an object", "[]", R"([{"op": "replace", "path": "/items/fries", "value": "fries"}])",
        u"/options/contract/catalog/skus"_s, u"/items/fries: a catalog entry must be an object"_s);
    add("sizes not a list", "[]", R"([{"op": "replace", "path": "/items/fries/sizes", "value": "small"}])",
        u"/options/contract/catalog/size/allowed"_s, u"/items/fries/sizes"_s);
    add("sizes hold a number", "[]", R"([{"op": "replace", "path": "/items/fries/sizes", "value": ["small", 2]}])",
        u"/options/contract/catalog/size/allowed"_s, u"array of strings"_s);
    add("components not an object", "[]",
        R"([{"op": "replace", "path": "/items/burger/components", "value": ["bun"]}])",
        u"/options/contract/catalog/components"_s, u"/items/burger/components"_s);
    add("ingredient not an object", "[]",
        R"([{"op": "replace", "path": "/items/burger/components/bun", "value": "gluten"}])",
        u"/options/contract/catalog"_s, u"/items/burger/components/bun: an ingredient must be an object"_s);
    add("ingredient tags not a list", "[]",
        R"([{"op": "replace", "path": "/items/burger/additions/egg/allergens", "value": "egg"}])",
        u"/options/contract/safety/0/tags"_s, u"/items/burger/additions/egg/allergens"_s);
}

void TestContract::malformedRules()
{
    QFETCH(QByteArray, optionsPatch);
    QFETCH(QByteArray, catalogPatch);
    QFETCH(QString, pointer);
    QFETCH(QString, messagePart);

    const json options = json::parse(kOptions).patch(json::parse(optionsPatch.constData()));
    const json cat = catalogPatch == "null" ? json() : catalog().patch(json::parse(catalogPatch.constData()));
    const ContractRuleProblems problems = checkContractRules(options, cat);
    QStringList all;
    bool found = false;
    for (const auto& [at, message] : problems) {
        all << QString::fromStdString(at + ": " + message);
        found
            = found || (QString::fromStdString(at) == pointer && QString::fromStdString(message).contains(messagePart));
    }
    QVERIFY2(found, qPrintable(u"expected %1: …%2…; got:\n"_s.arg(pointer, messagePart) + all.join(u'\n')));
}

QTEST_GUILESS_MAIN(TestContract)
#include "tst_contract.moc"
