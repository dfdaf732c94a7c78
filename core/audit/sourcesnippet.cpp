// SPDX-License-Identifier: Apache-2.0
#include "audit/sourcesnippet.h"

#include "scoring/tokenf1.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <unordered_set>
#include <vector>

using nlohmann::json;

namespace structscope {

namespace {

constexpr int kMaxWords = 12;

/// A pattern for a number's text: thousands separators optional, never inside a longer number.
QString numberPattern(const json& value)
{
    QString text = QString::fromStdString(value.dump());
    if (value.is_number_float() && text.endsWith(QLatin1String(".0")))
        text.chop(2);
    QString integer = text;
    QString rest;
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    if (dot >= 0) {
        integer = text.left(dot);
        rest = text.mid(dot);
    }
    QString sign;
    if (integer.startsWith(QLatin1Char('-'))) {
        sign = QStringLiteral("[-\u2212]");
        integer.remove(0, 1);
    }
    QString digits;
    for (qsizetype i = 0; i < integer.size(); ++i) {
        if (i > 0 && (integer.size() - i) % 3 == 0)
            digits += QStringLiteral("[,\u202F ]?");
        digits += integer.at(i);
    }
    // A fraction may be written with trailing zeros: 472.8 is found in "GBP 472.80".
    return QStringLiteral("(?<![0-9.,])") + sign + digits + QRegularExpression::escape(rest)
        + (rest.isEmpty() ? QString() : QStringLiteral("0*")) + QStringLiteral("(?![0-9])");
}

/// A pattern for a string's words with anything but letters and digits between them.
QString wordsPattern(const QString& text)
{
    static const QRegularExpression separators(QStringLiteral("[^\\p{L}\\p{N}]+"));
    QStringList words = text.split(separators, Qt::SkipEmptyParts);
    if (words.isEmpty())
        return {};
    if (words.size() > kMaxWords)
        words = words.mid(0, kMaxWords);
    for (QString& word : words)
        word = QRegularExpression::escape(word);
    const bool wordStart = text.front().isLetterOrNumber();
    const bool wordEnd
        = text.back().isLetterOrNumber() && text.split(separators, Qt::SkipEmptyParts).size() <= kMaxWords;
    return (wordStart ? QStringLiteral("(?<![\\p{L}\\p{N}])") : QString())
        + words.join(QStringLiteral("[^\\p{L}\\p{N}]+")) + (wordEnd ? QStringLiteral("(?![\\p{L}\\p{N}])") : QString());
}

SourceSnippet snippetAt(const QString& source, qsizetype at, qsizetype length, int context)
{
    SourceSnippet out;
    out.found = true;
    out.offset = at;
    out.length = length;
    const qsizetype from = std::max<qsizetype>(0, at - context);
    const qsizetype to = std::min<qsizetype>(source.size(), at + length + context);
    QString text = (from > 0 ? QStringLiteral("\u2026") : QString()) + source.mid(from, at - from)
        + QStringLiteral("\u00AB") + source.mid(at, length) + QStringLiteral("\u00BB")
        + source.mid(at + length, to - at - length) + (to < source.size() ? QStringLiteral("\u2026") : QString());
    text.replace(QLatin1Char('\r'), QLatin1Char(' '));
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    text.replace(QLatin1Char('\t'), QLatin1Char(' '));
    out.text = text;
    return out;
}

SourceSnippet findLeaf(const QString& source, const json& value, int context)
{
    QString pattern;
    if (value.is_number())
        pattern = numberPattern(value);
    else if (value.is_string())
        pattern = wordsPattern(QString::fromStdString(value.get_ref<const std::string&>()));
    if (pattern.isEmpty())
        return {};
    const QRegularExpression re(pattern, QRegularExpression::CaseInsensitiveOption);
    if (!re.isValid())
        return {};
    const QRegularExpressionMatch m = re.match(source);
    if (!m.hasMatch())
        return {};
    return snippetAt(source, m.capturedStart(), m.capturedLength(), context);
}

void collectTokens(const json& value, std::vector<std::string>& out)
{
    if (value.is_structured()) {
        for (const json& child : value)
            collectTokens(child, out);
    } else if (!value.is_null()) {
        for (std::string& token : sobTokens(sobValueText(&value)))
            out.push_back(std::move(token));
    }
}

void collectLeaves(const json& value, std::vector<const json*>& out)
{
    if (value.is_structured()) {
        for (const json& child : value)
            collectLeaves(child, out);
    } else if (value.is_number() || (value.is_string() && value.get_ref<const std::string&>().size() >= 3)) {
        out.push_back(&value);
    }
}

} // namespace

SourceSnippet findInSource(const QString& source, const json& value, int context)
{
    if (source.isEmpty())
        return {};
    if (!value.is_structured())
        return findLeaf(source, value, context);
    std::vector<const json*> leaves;
    collectLeaves(value, leaves);
    const auto textLength
        = [](const json* v) { return v->is_string() ? v->get_ref<const std::string&>().size() : v->dump().size(); };
    std::stable_sort(leaves.begin(), leaves.end(),
        [&textLength](const json* x, const json* y) { return textLength(x) > textLength(y); });
    for (const json* leaf : leaves) {
        SourceSnippet found = findLeaf(source, *leaf, context);
        if (found.found)
            return found;
    }
    return {};
}

namespace {

/// Share of the value's words among `known` (1 for a value without words).
double coverage(const json& value, const std::vector<std::string>& knownTokens)
{
    std::vector<std::string> tokens;
    collectTokens(value, tokens);
    if (tokens.empty())
        return 1.0;
    const std::unordered_set<std::string> known(knownTokens.begin(), knownTokens.end());
    std::size_t found = 0;
    for (const std::string& token : tokens)
        found += known.count(token);
    return double(found) / double(tokens.size());
}

} // namespace

double sourceCoverage(const QString& source, const json& value)
{
    return coverage(value, sobTokens(source.toStdString()));
}

double valueCoverage(const json& within, const json& value)
{
    std::vector<std::string> withinTokens;
    collectTokens(within, withinTokens);
    return coverage(value, withinTokens);
}

int sourceSupport(const QString& source, const json& value)
{
    if (findInSource(source, value, 0).found)
        return 2;
    std::vector<std::string> tokens;
    collectTokens(value, tokens);
    return tokens.size() >= 4 && sourceCoverage(source, value) >= 0.9 ? 1 : 0;
}

} // namespace structscope
