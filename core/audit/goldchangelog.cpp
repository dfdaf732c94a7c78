// SPDX-License-Identifier: Apache-2.0
#include "audit/goldchangelog.h"

#include "json/leafpaths.h"

#include <map>
#include <set>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

/// Text as a Markdown code span, whatever backticks it contains.
QString codeSpan(const QString& text)
{
    int longest = 0;
    int run = 0;
    for (const QChar c : text) {
        run = c == u'`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const QString fence(longest + 1, u'`');
    const bool pad = text.startsWith(u'`') || text.endsWith(u'`');
    return fence + (pad ? u" "_s : QString()) + text + (pad ? u" "_s : QString()) + fence;
}

/// Text from the store (suite names, authors, reasons) as Markdown text: `<`, `>` and `&` as entities, so that
/// a renderer never takes it for HTML.
QString markdownText(const QString& text)
{
    QString out = text;
    out.replace(u'&', u"&amp;"_s);
    out.replace(u'<', u"&lt;"_s);
    out.replace(u'>', u"&gt;"_s);
    return out;
}

QString valueText(const std::optional<json>& value)
{
    if (!value)
        return u"*(absent)*"_s;
    return codeSpan(QString::fromStdString(value->dump(-1, ' ', false, json::error_handler_t::replace)));
}

QString pathText(const std::string& path)
{
    return path.empty() ? u"*(whole gold)*"_s : codeSpan(QString::fromStdString(path));
}

} // namespace

std::vector<GoldLeafChange> goldLeafChanges(const json& before, const json& after)
{
    std::vector<GoldLeafChange> changes;
    if (before == after)
        return changes;
    const std::vector<Leaf> beforeLeaves = flattenLeaves(before, LeafPointers::Fill);
    const std::vector<Leaf> afterLeaves = flattenLeaves(after, LeafPointers::Fill);
    std::map<std::string, const Leaf*> afterByPointer;
    for (const Leaf& leaf : afterLeaves)
        afterByPointer.emplace(leaf.pointer, &leaf);
    std::set<std::string> seen;
    for (const Leaf& leaf : beforeLeaves) {
        seen.insert(leaf.pointer);
        const auto it = afterByPointer.find(leaf.pointer);
        if (it == afterByPointer.end())
            changes.push_back({ leaf.path, *leaf.value, std::nullopt });
        else if (*it->second->value != *leaf.value)
            changes.push_back({ leaf.path, *leaf.value, *it->second->value });
    }
    for (const Leaf& leaf : afterLeaves) {
        if (!seen.contains(leaf.pointer))
            changes.push_back({ leaf.path, std::nullopt, *leaf.value });
    }
    if (changes.empty())
        changes.push_back({ std::string(), before, after });
    return changes;
}

QString goldChangelogMarkdown(
    const SuiteRow& suite, const QString& exportedVersion, const std::vector<CaseGoldHistory>& history)
{
    int revisions = 0;
    int cases = 0;
    for (const CaseGoldHistory& h : history) {
        if (h.revisions.size() > 1) {
            revisions += int(h.revisions.size()) - 1;
            ++cases;
        }
    }
    QString text = u"# Gold changelog: %1 (%2)\n\n"_s.arg(markdownText(suite.name), markdownText(suite.id));
    if (revisions == 0) {
        text += u"Version %1: the gold is as imported; no revisions.\n"_s.arg(markdownText(suite.version));
        return text;
    }
    text += u"Version %1 → %2: %3 gold revision(s) in %4 case(s), exported by StructScope from its result store. "
            "Revision 0 of each case is the gold of version %1.\n"_s.arg(markdownText(suite.version),
                markdownText(exportedVersion), QString::number(revisions), QString::number(cases));
    for (const CaseGoldHistory& h : history) {
        if (h.revisions.size() < 2)
            continue;
        text += u"\n## Case %1\n"_s.arg(codeSpan(h.record.id));
        for (qsizetype i = 1; i < h.revisions.size(); ++i) {
            const GoldRevision& previous = h.revisions.at(i - 1);
            const GoldRevision& r = h.revisions.at(i);
            text += u"\n### Revision %1: %2, by %3\n\n"_s.arg(
                QString::number(r.revision), r.createdAt.toUTC().toString(Qt::ISODate), markdownText(r.author));
            for (const QString& line : r.reason.split(u'\n'))
                text += u"> "_s + markdownText(line) + u'\n';
            text += u'\n';
            for (const GoldLeafChange& change : goldLeafChanges(previous.gold, r.gold))
                text += u"- %1: %2 → %3\n"_s.arg(
                    pathText(change.path), valueText(change.before), valueText(change.after));
        }
    }
    return text;
}

} // namespace structscope
