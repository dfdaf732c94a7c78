// SPDX-License-Identifier: Apache-2.0
#include "stats/suspicion.h"

#include "json/datetext.h"
#include "json/textnorm.h"

#include <QHash>
#include <QRegularExpression>

#include <QSet>

#include <algorithm>
#include <cmath>
#include <map>

namespace structscope {

namespace {

constexpr double kTolerance = 1e-9;

// Stands for a missing path; no JSON text starts with '<', so it cannot collide with a value.
const std::string kAbsentKey = "<absent>";

void appendString(const std::string& text, std::string& out)
{
    out += nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void appendCanonical(const nlohmann::json& value, std::string& out)
{
    switch (value.type()) {
    case nlohmann::json::value_t::object: {
        out += '{';
        bool first = true;
        // nlohmann::json keeps object keys in a std::map, so iteration is already sorted.
        for (const auto& [key, member] : value.items()) {
            if (!first)
                out += ',';
            first = false;
            appendString(key, out);
            out += ':';
            appendCanonical(member, out);
        }
        out += '}';
        return;
    }
    case nlohmann::json::value_t::array: {
        out += '[';
        for (std::size_t i = 0; i < value.size(); ++i) {
            if (i > 0)
                out += ',';
            appendCanonical(value[i], out);
        }
        out += ']';
        return;
    }
    case nlohmann::json::value_t::number_float: {
        const double f = value.get<double>();
        // Integral floats print as the integer they equal, which is how integers print.
        if (std::isfinite(f) && std::trunc(f) == f) {
            if (f >= 0.0 && f < 18446744073709551616.0) {
                out += std::to_string(static_cast<std::uint64_t>(f));
                return;
            }
            if (f < 0.0 && f >= -9223372036854775808.0) {
                out += std::to_string(static_cast<std::int64_t>(f));
                return;
            }
        }
        out += value.dump();
        return;
    }
    case nlohmann::json::value_t::string:
        appendString(value.get_ref<const std::string&>(), out);
        return;
    default:
        out += value.dump();
        return;
    }
}

struct Tally
{
    int votes = 0;
    std::size_t firstAnswer = 0;
    QStringList models;
};

} // namespace

std::string consensusKey(const nlohmann::json& value)
{
    std::string out;
    appendCanonical(value, out);
    return out;
}

namespace {

nlohmann::json lenientForm(const nlohmann::json& value)
{
    if (value.is_string())
        return lenientNormalize(value.get_ref<const std::string&>());
    if (value.is_array()) {
        nlohmann::json out = nlohmann::json::array();
        for (const nlohmann::json& item : value)
            out.push_back(lenientForm(item));
        return out;
    }
    if (value.is_object()) {
        nlohmann::json out = nlohmann::json::object();
        for (const auto& [key, member] : value.items())
            out[key] = lenientForm(member);
        return out;
    }
    return value;
}

/// The text a leaf shows: a string as is, anything else as its JSON text.
QString leafText(const nlohmann::json& value)
{
    if (value.is_string())
        return QString::fromStdString(value.get_ref<const std::string&>());
    return QString::fromStdString(consensusKey(value));
}

QString lenientText(const QString& text)
{
    return QString::fromStdString(lenientNormalize(text.toStdString()));
}

QString withoutQuotes(QString text)
{
    static const QRegularExpression quotes(QStringLiteral("[\"'`\u2018\u2019\u201C\u201D\u00AB\u00BB]"));
    return text.remove(quotes);
}

QString spelledSymbols(QString text)
{
    text.replace(QChar(0x2264), QLatin1String("<="));
    text.replace(QChar(0x2265), QLatin1String(">="));
    text.replace(QChar(0x2260), QLatin1String("!="));
    text.replace(QChar(0x2212), QLatin1Char('-'));
    text.replace(QChar(0x2013), QLatin1Char('-'));
    text.replace(QChar(0x2014), QLatin1Char('-'));
    text.replace(QChar(0x2026), QLatin1String("..."));
    text.replace(QChar(0x00D7), QLatin1Char('x'));
    return text;
}

/// A number written with a unit sign or thousands separators, reduced to the number ("35%" → "35",
/// "$1,500" → "1500"); the text unchanged when it is anything else.
QString bareNumber(const QString& text)
{
    static const QRegularExpression number(
        QStringLiteral(
            "^\\s*[$\u20AC\u00A3]?\\s*(-?[0-9][0-9,]*(?:\\.[0-9]+)?)\\s*(?:%|percent|\\$|\u20AC|\u00A3)?\\s*$"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = number.match(text);
    if (!m.hasMatch())
        return text;
    QString digits = m.captured(1);
    digits.remove(QLatin1Char(','));
    if (digits.contains(QLatin1Char('.'))) {
        while (digits.endsWith(QLatin1Char('0')))
            digits.chop(1);
        if (digits.endsWith(QLatin1Char('.')))
            digits.chop(1);
    }
    return digits;
}

/// Compatibility forms folded (NFKC: ³ → 3), LaTeX delimiters, commands and braces dropped, underscores as spaces.
QString withoutMarkup(QString text)
{
    static const QRegularExpression delimiters(QStringLiteral("\\\\[()\\[\\]]|\\$"));
    static const QRegularExpression commands(QStringLiteral("\\\\[A-Za-z]+"));
    static const QRegularExpression braces(QStringLiteral("[{}]"));
    text = text.normalized(QString::NormalizationForm_KC);
    text.remove(delimiters);
    text.remove(commands);
    text.remove(braces);
    text.replace(QLatin1Char('_'), QLatin1Char(' '));
    return text;
}

bool isWordChar(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

/// Whether `needle` occurs in `hay` with no word character right before or after it.
bool containsWords(const QString& hay, const QString& needle)
{
    if (needle.isEmpty() || needle.size() >= hay.size())
        return false;
    for (qsizetype at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
        const qsizetype end = at + needle.size();
        const bool startOk = at == 0 || !isWordChar(hay.at(at - 1)) || !isWordChar(needle.front());
        const bool endOk = end == hay.size() || !isWordChar(hay.at(end)) || !isWordChar(needle.back());
        if (startOk && endOk)
            return true;
    }
    return false;
}

/// Anything but letters and digits.
const QRegularExpression& wordSeparators()
{
    static const QRegularExpression separators(QStringLiteral("[^\\p{L}\\p{N}]+"));
    return separators;
}

bool sameDate(const QString& a, const QString& b)
{
    const std::optional<TextDate> x = parseDateText(a.toStdString());
    return x && x == parseDateText(b.toStdString());
}

/// The words of a (lenient, lower-case) text, articles dropped.
QStringList contentWords(const QString& text)
{
    QStringList words = text.split(wordSeparators(), Qt::SkipEmptyParts);
    words.removeIf([](const QString& w) {
        return w == QLatin1String("a") || w == QLatin1String("an") || w == QLatin1String("the");
    });
    return words;
}

/// A word that turns a statement around, or a number (in digits or words): leaving one out changes what a text says.
bool carriesMeaning(const QString& word)
{
    static const QSet<QString> negations { QStringLiteral("not"), QStringLiteral("no"), QStringLiteral("never"),
        QStringLiteral("none"), QStringLiteral("nor"), QStringLiteral("neither"), QStringLiteral("without"),
        QStringLiteral("cannot"), QStringLiteral("nothing"), QStringLiteral("nobody"), QStringLiteral("t"),
        QStringLiteral("except"), QStringLiteral("unless") };
    return negations.contains(word) || std::any_of(word.begin(), word.end(), [](QChar c) { return c.isDigit(); })
        || isNumberWord(word.toStdString());
}

/// Two words alike, or one the other's stem of at least five letters ("verbal", "verbally").
bool sameStem(const QString& a, const QString& b)
{
    if (a == b)
        return true;
    return std::min(a.size(), b.size()) >= 5 && (a.startsWith(b) || b.startsWith(a));
}

/// Whether one text is the other with words left out (FormatVariant::Abridged): every word of the shorter matches
/// a word of its own in the longer (an equal word first, then a stem), and no word of the longer left unmatched
/// carries meaning. Texts whose stems would take more than kMaxStemChecks comparisons are not compared.
bool abridged(const QString& a, const QString& b)
{
    constexpr qsizetype kMaxStemChecks = 100000;
    QStringList shorter = contentWords(a);
    QStringList longer = contentWords(b);
    if (shorter.size() > longer.size())
        std::swap(shorter, longer);
    if (shorter.size() < 3 || longer.size() == shorter.size())
        return false;
    QHash<QString, qsizetype> unmatched; // the longer's words, by how often each is still free
    for (const QString& word : std::as_const(longer))
        ++unmatched[word];
    QStringList byStem; // the shorter's words with no equal word left in the longer
    for (const QString& word : std::as_const(shorter)) {
        const auto it = unmatched.find(word);
        if (it != unmatched.end() && *it > 0)
            --*it;
        else
            byStem << word;
    }
    QStringList rest; // the longer's words left, in its order
    for (const QString& word : std::as_const(longer)) {
        qsizetype& free = unmatched[word];
        if (free > 0) {
            rest << word;
            --free;
        }
    }
    if (byStem.size() * rest.size() > kMaxStemChecks)
        return false;
    std::vector<bool> used(std::size_t(rest.size()), false);
    for (const QString& word : std::as_const(byStem)) {
        qsizetype match = -1;
        for (qsizetype j = 0; j < rest.size() && match < 0; ++j) {
            if (!used[std::size_t(j)] && sameStem(word, rest.at(j)))
                match = j;
        }
        if (match < 0)
            return false;
        used[std::size_t(match)] = true;
    }
    for (qsizetype j = 0; j < rest.size(); ++j) {
        if (!used[std::size_t(j)] && carriesMeaning(rest.at(j)))
            return false;
    }
    return true;
}

/// Letters and digits alone, case-folded.
QString lettersOf(const QString& text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        if (c.isLetterOrNumber())
            out += c.toCaseFolded();
    }
    return out;
}

/// The runs of digits of a text, each ended by a space: "1,5" gives "1 5 ", "15" gives "15 ".
QString digitRuns(const QString& text)
{
    QString out;
    bool inRun = false;
    for (const QChar c : text) {
        if (c.isDigit()) {
            out += c;
            inRun = true;
        } else if (inRun) {
            out += QLatin1Char(' ');
            inRun = false;
        }
    }
    if (inRun)
        out += QLatin1Char(' ');
    return out;
}

/// Whether two texts differ only in spacing and punctuation (FormatVariant::Spacing): the same letters and digits in
/// the same order, each number kept whole ("1,5" is not "15").
bool sameLetters(const QString& a, const QString& b)
{
    return lettersOf(a) == lettersOf(b) && digitRuns(a) == digitRuns(b);
}

} // namespace

std::string lenientConsensusKey(const nlohmann::json& value)
{
    return consensusKey(lenientForm(value));
}

const char* formatVariantId(FormatVariant variant)
{
    switch (variant) {
    case FormatVariant::None:
        return "";
    case FormatVariant::Lenient:
        return "lenient";
    case FormatVariant::Quotes:
        return "quotes";
    case FormatVariant::Unit:
        return "unit";
    case FormatVariant::Symbol:
        return "symbol";
    case FormatVariant::Markup:
        return "markup";
    case FormatVariant::WordOrder:
        return "word_order";
    case FormatVariant::Contains:
        return "contains";
    case FormatVariant::Date:
        return "date";
    case FormatVariant::Abridged:
        return "abridged";
    case FormatVariant::Spacing:
        return "spacing";
    }
    return "";
}

FormatVariant formatVariantOf(const nlohmann::json& a, const nlohmann::json& b)
{
    if (a.is_null() || b.is_null() || a.is_structured() || b.is_structured())
        return FormatVariant::None;
    if (consensusKey(a) == consensusKey(b))
        return FormatVariant::None;
    const QString x = lenientText(leafText(a));
    const QString y = lenientText(leafText(b));
    if (x == y)
        return FormatVariant::Lenient;
    const QString xq = lenientText(withoutQuotes(x));
    const QString yq = lenientText(withoutQuotes(y));
    if (xq == yq)
        return FormatVariant::Quotes;
    if (bareNumber(xq) == bareNumber(yq) && (bareNumber(xq) != xq || bareNumber(yq) != yq))
        return FormatVariant::Unit;
    const QString xs = lenientText(spelledSymbols(xq));
    const QString ys = lenientText(spelledSymbols(yq));
    if (xs == ys)
        return FormatVariant::Symbol;
    const QString xm = lenientText(withoutMarkup(xs));
    const QString ym = lenientText(withoutMarkup(ys));
    if (xm == ym)
        return FormatVariant::Markup;
    QStringList xw = xm.split(wordSeparators(), Qt::SkipEmptyParts);
    QStringList yw = ym.split(wordSeparators(), Qt::SkipEmptyParts);
    xw.sort();
    yw.sort();
    if (xw.size() > 1 && xw.size() <= 5 && xw == yw)
        return FormatVariant::WordOrder;
    if (containsWords(x, y) || containsWords(y, x) || containsWords(xm, ym) || containsWords(ym, xm))
        return FormatVariant::Contains;
    if (sameDate(xm, ym))
        return FormatVariant::Date;
    if (abridged(xm, ym))
        return FormatVariant::Abridged;
    if (sameLetters(xm, ym))
        return FormatVariant::Spacing;
    return FormatVariant::None;
}

std::vector<SuspectLeaf> goldSuspicionQueue(const std::vector<LeafAnswers>& leaves, const SuspicionOptions& options)
{
    std::vector<SuspectLeaf> queue;
    const nlohmann::json null;
    for (const LeafAnswers& leaf : leaves) {
        QSet<QString> seen;
        std::map<std::string, Tally> tallies;
        int answered = 0;
        for (std::size_t i = 0; i < leaf.answers.size(); ++i) {
            const ModelAnswer& answer = leaf.answers[i];
            if (seen.contains(answer.model))
                continue;
            seen.insert(answer.model);
            ++answered;
            std::string key;
            if (answer.value)
                key = consensusKey(*answer.value);
            else
                key = options.absentEqualsNull ? consensusKey(null) : kAbsentKey;
            Tally& tally = tallies[key];
            if (tally.votes == 0)
                tally.firstAnswer = i;
            ++tally.votes;
            tally.models << answer.model;
        }
        if (answered < options.minModels || answered == 0)
            continue;

        const std::string goldKey = consensusKey(leaf.gold);
        const std::pair<const std::string, Tally>* best = nullptr;
        // std::map iterates keys in ascending order, so on equal votes the smaller key stays.
        for (const auto& entry : tallies) {
            if (entry.first == goldKey)
                continue;
            if (entry.second.votes < options.minSupport * answered - kTolerance)
                continue;
            if (!best || entry.second.votes > best->second.votes)
                best = &entry;
        }
        if (!best)
            continue;

        SuspectLeaf suspect;
        suspect.caseId = leaf.caseId;
        suspect.path = leaf.path;
        suspect.gold = leaf.gold;
        const ModelAnswer& first = leaf.answers[best->second.firstAnswer];
        suspect.consensus = first.value.value_or(null);
        suspect.consensusAbsent = best->first == kAbsentKey;
        suspect.agreeing = best->second.votes;
        suspect.answered = answered;
        suspect.support = static_cast<double>(suspect.agreeing) / static_cast<double>(answered);
        suspect.agreeingModels = best->second.models;
        suspect.agreeingModels.sort();
        queue.push_back(std::move(suspect));
    }
    std::sort(queue.begin(), queue.end(), [](const SuspectLeaf& x, const SuspectLeaf& y) {
        if (x.support != y.support)
            return x.support > y.support;
        if (x.agreeing != y.agreeing)
            return x.agreeing > y.agreeing;
        if (x.caseId != y.caseId)
            return x.caseId < y.caseId;
        return x.path < y.path;
    });
    return queue;
}

std::vector<UniformFailureFlag> uniformFailureFlags(
    const std::vector<CategoryFailureRate>& rates, const UniformFailureOptions& options)
{
    struct Group
    {
        QSet<QString> models;
        double low = 0.0;
        double high = 0.0;
    };
    std::map<QString, Group> groups;
    for (const CategoryFailureRate& r : rates) {
        if (std::isnan(r.rate))
            continue;
        Group& g = groups[r.category];
        if (g.models.contains(r.model))
            continue;
        if (g.models.isEmpty()) {
            g.low = r.rate;
            g.high = r.rate;
        } else {
            g.low = std::min(g.low, r.rate);
            g.high = std::max(g.high, r.rate);
        }
        g.models.insert(r.model);
    }

    std::vector<UniformFailureFlag> flags;
    for (const auto& [category, g] : groups) {
        const auto models = static_cast<int>(g.models.size());
        if (models < options.minModels || models == 0)
            continue;
        if (g.low < options.minRate - kTolerance || g.high - g.low > options.maxSpread + kTolerance)
            continue;
        flags.push_back({ category, models, g.low, g.high });
    }
    std::stable_sort(flags.begin(), flags.end(),
        [](const UniformFailureFlag& x, const UniformFailureFlag& y) { return x.minRate > y.minRate; });
    return flags;
}

} // namespace structscope
