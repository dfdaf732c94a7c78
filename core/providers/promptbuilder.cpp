// SPDX-License-Identifier: Apache-2.0
#include "providers/promptbuilder.h"

#include <QStringList>

#include <algorithm>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

enum class Slot { Input, Question, Schema, ExampleInput, ExampleOutput, Unknown };

Slot slotOf(QStringView name)
{
    if (name == u"input")
        return Slot::Input;
    if (name == u"question")
        return Slot::Question;
    if (name == u"schema")
        return Slot::Schema;
    if (name == u"example_input")
        return Slot::ExampleInput;
    if (name == u"example_output")
        return Slot::ExampleOutput;
    return Slot::Unknown;
}

struct Values
{
    QString input;
    QString question;
    QString schema;
    QString exampleInput;
    QString exampleOutput;
    bool hasQuestion = false;
    bool showSchema = false;
    bool showExample = false;
};

QString dumpJson(const json& value, int indent)
{
    return QString::fromStdString(value.dump(indent, ' ', false, json::error_handler_t::replace));
}

// Whether a placeholder can be filled under the chosen strategy; a block whose slot cannot be filled is left out.
bool available(Slot slot, const Values& v)
{
    switch (slot) {
    case Slot::Schema:
        return v.showSchema;
    case Slot::ExampleInput:
    case Slot::ExampleOutput:
        return v.showExample;
    case Slot::Question:
        return v.hasQuestion;
    case Slot::Input:
    case Slot::Unknown:
        return true;
    }
    return true;
}

QList<Slot> slotsIn(const QString& text)
{
    QList<Slot> found;
    qsizetype from = 0;
    while (true) {
        const qsizetype open = text.indexOf(u"{{"_s, from);
        if (open < 0)
            break;
        const qsizetype close = text.indexOf(u"}}"_s, open + 2);
        if (close < 0)
            break;
        found << slotOf(QStringView(text).mid(open + 2, close - open - 2).trimmed());
        from = close + 2;
    }
    return found;
}

bool allAvailable(const QString& text, const Values& v)
{
    return std::ranges::all_of(slotsIn(text), [&v](Slot s) { return available(s, v); });
}

bool mentionsCaseText(const QString& text, const Values& v)
{
    const QList<Slot> found = slotsIn(text);
    return found.contains(Slot::Input) || (v.hasQuestion && found.contains(Slot::Question));
}

// One pass over the template, so that text inside the case input is never taken for a placeholder.
QString substitute(const QString& text, const Values& v)
{
    QString out;
    out.reserve(text.size() + v.input.size() + v.schema.size());
    qsizetype from = 0;
    while (true) {
        const qsizetype open = text.indexOf(u"{{"_s, from);
        const qsizetype close = open < 0 ? -1 : text.indexOf(u"}}"_s, open + 2);
        if (close < 0) {
            out += QStringView(text).mid(from);
            break;
        }
        out += QStringView(text).mid(from, open - from);
        const QStringView name = QStringView(text).mid(open + 2, close - open - 2);
        switch (slotOf(name.trimmed())) {
        case Slot::Input:
            out += v.input;
            break;
        case Slot::Question:
            out += v.question;
            break;
        case Slot::Schema:
            out += v.schema;
            break;
        case Slot::ExampleInput:
            out += v.exampleInput;
            break;
        case Slot::ExampleOutput:
            out += v.exampleOutput;
            break;
        case Slot::Unknown:
            out += QStringView(text).mid(open, close + 2 - open);
            break;
        }
        from = close + 2;
    }
    return out;
}

// Drops the blocks (paragraphs, or single lines when the paragraph also carries the case text) whose
// placeholders the strategy leaves empty, then fills the rest.
QString render(const QString& tmpl, const Values& v)
{
    QStringList kept;
    const QStringList paragraphs = tmpl.split(u"\n\n"_s);
    for (const QString& paragraph : paragraphs) {
        if (allAvailable(paragraph, v)) {
            kept << paragraph;
            continue;
        }
        if (!mentionsCaseText(paragraph, v))
            continue;
        QStringList lines;
        for (const QString& line : paragraph.split(u'\n')) {
            if (allAvailable(line, v) || mentionsCaseText(line, v))
                lines << line;
        }
        kept << lines.join(u'\n');
    }
    return substitute(kept.join(u"\n\n"_s), v);
}

} // namespace

QString sanitizeSchemaName(const QString& name)
{
    QString out;
    for (QChar ch : name) {
        const bool ok = (ch >= u'a' && ch <= u'z') || (ch >= u'A' && ch <= u'Z') || (ch >= u'0' && ch <= u'9')
            || ch == u'_' || ch == u'-';
        out += ok ? ch : u'_';
        if (out.size() == 64)
            break;
    }
    return out.isEmpty() ? u"schema"_s : out;
}

Prompt buildPrompt(const Suite& suite, const SuiteCase& c, Strategy s)
{
    Prompt prompt;
    prompt.strategy = s;
    prompt.jsonMode = strategyUsesJsonMode(s);
    prompt.schemaAsFormat = strategyUsesSchemaFormat(s);
    const QString schemaName = suite.schemaNameFor(c);
    prompt.schemaName = sanitizeSchemaName(schemaName.isEmpty() ? suite.id : schemaName);
    if (const json* schema = suite.schemaFor(c))
        prompt.schema = *schema;

    Values v;
    v.input = c.input;
    v.hasQuestion = c.question.has_value() && !c.question->isEmpty();
    v.question = c.question.value_or(QString());
    v.showSchema = strategyPutsSchemaInPrompt(s) && !prompt.schema.is_null();
    if (v.showSchema)
        v.schema = dumpJson(prompt.schema, 2);
    if (strategyPutsSchemaInPrompt(s) && !schemaName.isEmpty()) {
        if (const auto it = suite.examples.find(schemaName); it != suite.examples.end()) {
            v.showExample = true;
            v.exampleInput = it->second.input;
            v.exampleOutput = dumpJson(it->second.output, -1);
        }
    }

    const QString userTemplate = suite.userPrompt.isEmpty() ? u"{{input}}"_s : suite.userPrompt;
    QString user = render(userTemplate, v);
    // A template that does not place the schema or the example gets them ahead of its own text.
    const QList<Slot> placed = slotsIn(userTemplate);
    QStringList preamble;
    if (v.showSchema && !placed.contains(Slot::Schema))
        preamble << u"JSON Schema:\n"_s + v.schema;
    if (v.showExample && !placed.contains(Slot::ExampleInput) && !placed.contains(Slot::ExampleOutput))
        preamble << u"Example input:\n<<<\n"_s + v.exampleInput + u"\n>>>\nExample answer:\n"_s + v.exampleOutput;
    if (!preamble.isEmpty())
        user = preamble.join(u"\n\n"_s) + u"\n\n"_s + user;
    if (!placed.contains(Slot::Input))
        user += u"\n\n"_s + c.input;
    if (v.hasQuestion && !placed.contains(Slot::Question))
        user += u"\n\nQuestion: "_s + v.question;
    if (s == Strategy::J)
        user += u"\n\nRespond with a single JSON object only."_s;

    if (!suite.systemPrompt.isEmpty())
        prompt.messages.append({ u"system"_s, suite.systemPrompt });
    prompt.messages.append({ u"user"_s, user });
    return prompt;
}

json chatMessagesJson(const Prompt& prompt)
{
    json messages = json::array();
    for (const ChatMessage& m : prompt.messages)
        messages.push_back({ { "role", m.role.toStdString() }, { "content", m.content.toStdString() } });
    return messages;
}

json formatSchema(const Prompt& prompt)
{
    return prompt.schema.is_null() ? json::object() : prompt.schema;
}

} // namespace structscope
