// SPDX-License-Identifier: Apache-2.0
#include "demo/demogoldmistakes.h"

#include "report/reportformatting.h"
#include "store/rows.h"
#include "json/leafpaths.h"

#include <QHash>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

std::string DemoGoldMistake::pointer() const
{
    return leafPathToPointer(path);
}

const std::vector<DemoGoldMistake>& demoGoldMistakes()
{
    // Kinds of mistake that real gold has, each where the input leaves no doubt about the true value. Each is
    // a field the audit queue examines: a leaf of the stored gold (a value, or null), so that the models'
    // consensus there names the true value and accepting it restores the whole field. A missing array element
    // is not among them: the queue looks at the stored gold's leaves only, so a missing last element leaves
    // nothing to disagree with, and a missing earlier one shifts the indices after it, so that accepting the
    // consensus leaf by leaf would not put the element back.
    static const std::vector<DemoGoldMistake> mistakes = {
        { u"schema-tiers"_s, u"st-001"_s, "total_amount", json(472.8), json(427.8), u"wrong amount"_s,
            u"two digits of the total swapped; the invoice says GBP 472.80"_s },
        { u"schema-tiers"_s, u"st-002"_s, "purchase_order", json("PO-88412"), json(nullptr),
            u"null instead of a value"_s, u"the order reference was left empty; the invoice says PO-88412"_s },
        { u"email-extraction"_s, u"st-002"_s, "asset_tag", json(nullptr), json("NB-20417"), u"value instead of null"_s,
            u"the asset tag of the ticket before was copied in; this e-mail names no device"_s },
        { u"email-extraction"_s, u"st-003"_s, "requester.name", json("Aiyana Brooks"), json("Aiyana Brookes"),
            u"misspelt name"_s, u"an extra letter in the surname; the e-mail is signed Aiyana Brooks"_s },
        { u"grounded"_s, u"gr-004"_s, "amount_claimed", json(412600), json(416200), u"wrong amount"_s,
            u"two digits of the claim swapped; the text says £412,600"_s },
        { u"orderbench"_s, u"shared_modifier-16"_s, "items[0].size", json("medium"), json("large"),
            u"wrong value in a list"_s,
            u"the size of the only item mistyped; the customer asks for three medium milkshakes"_s },
    };
    return mistakes;
}

std::vector<DemoGoldMistake> demoGoldMistakesOf(const QString& suiteId)
{
    std::vector<DemoGoldMistake> out;
    for (const DemoGoldMistake& m : demoGoldMistakes()) {
        if (m.suite == suiteId)
            out.push_back(m);
    }
    return out;
}

bool plantDemoGoldMistakes(SuiteImport& import, QString* error, int* planted)
{
    const std::vector<DemoGoldMistake> mistakes = demoGoldMistakesOf(import.id);
    QHash<QString, qsizetype> caseIndex;
    for (qsizetype i = 0; i < import.cases.size(); ++i)
        caseIndex.insert(import.cases.at(i).id, i);
    // Checked in full before anything is written: a suite that does not fit the list is left as it is.
    for (const DemoGoldMistake& m : mistakes) {
        const QString where = u"the demo's planted gold mistake in suite %1, case %2, field %3"_s.arg(
            m.suite, m.caseId, QString::fromStdString(m.path));
        const auto found = caseIndex.constFind(m.caseId);
        if (found == caseIndex.constEnd()) {
            *error = u"%1: the suite has no such case"_s.arg(where);
            return false;
        }
        const json& gold = import.cases.at(*found).gold;
        const json::json_pointer pointer(m.pointer());
        if (!gold.contains(pointer)) {
            *error = u"%1: the case's gold has no such field"_s.arg(where);
            return false;
        }
        if (gold.at(pointer) != m.truth) {
            *error = u"%1: the gold there is %2, not %3 as the list says (was the built-in suite changed?)"_s.arg(
                where, demoGoldValueText(gold.at(pointer)), demoGoldValueText(m.truth));
            return false;
        }
    }
    for (const DemoGoldMistake& m : mistakes)
        import.cases[caseIndex.value(m.caseId)].gold[json::json_pointer(m.pointer())] = m.planted;
    if (planted)
        *planted = int(mistakes.size());
    return true;
}

QString demoGoldValueText(const json& value)
{
    return QString::fromStdString(value.dump(-1, ' ', false, json::error_handler_t::replace));
}

QString demoGoldMistakesMarkdown()
{
    const auto cell = [](const QString& text) { return QString::fromStdString(markdownCell(text.toStdString())); };
    const auto code = [&cell](const QString& text) { return cell(u"`"_s + text + u"`"_s); };
    QString out = u"| suite | case | field | stored gold | true value | mistake |\n"
                  "| --- | --- | --- | --- | --- | --- |\n"_s;
    for (const DemoGoldMistake& m : demoGoldMistakes()) {
        out += u"| "_s
            + QStringList { code(m.suite), code(m.caseId), code(QString::fromStdString(m.path)),
                  code(demoGoldValueText(m.planted)), code(demoGoldValueText(m.truth)),
                  cell(m.kind + u": "_s + m.note) }
                  .join(u" | "_s)
            + u" |\n"_s;
    }
    return out;
}

} // namespace structscope
