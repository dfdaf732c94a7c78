// SPDX-License-Identifier: Apache-2.0
// The built-in suites under datasets/: each loads and pre-flights clean, its README states what the
// data hold, and every gold answer is re-derived from its source text wherever a stated rule allows.
// A failure names the case, the gold path, the value and the rule it breaks; the data are not edited
// to make a test pass.
#include "preflight/preflight.h"
#include "scoring/pyformat.h"
#include "suite/suiteloader.h"
#include "json/leafpaths.h"

#include <QDate>
#include <QDir>
#include <QFile>
#include <QLocale>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

using namespace Qt::StringLiterals;
using nlohmann::json;
using namespace structscope;

namespace {

const QString kDatasetsDir = QStringLiteral(STRUCTSCOPE_SOURCE_DIR) + u"/datasets/"_s;

const QString kEmail = u"email-extraction"_s;
const QString kTiers = u"schema-tiers"_s;
const QString kGrounded = u"grounded"_s;
const QString kOrderbench = u"orderbench"_s;

// Patterns the schemas use for values the gold writes in a normalised form.
const QString kDdMmYyyyPattern = u"^(0[1-9]|[12][0-9]|3[01])\\.(0[1-9]|1[0-2])\\.[0-9]{4}$"_s;
const QString kCountryCodePattern = u"^[A-Z]{2}$"_s;
const QString kE164Pattern = u"^\\+[1-9][0-9]{6,14}$"_s;

const QString kWeekdayRe
    = u"(Mon(?:day)?|Tue(?:s(?:day)?)?|Wed(?:nesday)?|Thu(?:r(?:s(?:day)?)?)?|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?)"_s;
const QString kMonthRe = u"(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
                         u"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"_s;
const QStringList kMonthNames = { u"January"_s, u"February"_s, u"March"_s, u"April"_s, u"May"_s, u"June"_s, u"July"_s,
    u"August"_s, u"September"_s, u"October"_s, u"November"_s, u"December"_s };

QRegularExpression caseSensitive(const QString& pattern)
{
    return QRegularExpression(pattern, QRegularExpression::UseUnicodePropertiesOption);
}

QRegularExpression caseInsensitive(const QString& pattern)
{
    return QRegularExpression(
        pattern, QRegularExpression::CaseInsensitiveOption | QRegularExpression::UseUnicodePropertiesOption);
}

QString describe(const Problems& problems)
{
    QStringList lines;
    for (const Problem& p : problems)
        lines << p.toString();
    return lines.join(u'\n');
}

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString quoted(const json& v)
{
    return qs(v.dump(-1, ' ', false, json::error_handler_t::replace));
}

const SuiteLoadResult& loadResult(const QString& id)
{
    static std::map<QString, SuiteLoadResult> cache;
    auto it = cache.find(id);
    if (it == cache.end())
        it = cache.emplace(id, loadSuiteDir(kDatasetsDir + id)).first;
    return it->second;
}

SuitePtr builtIn(const QString& id)
{
    return loadResult(id).suite;
}

QString readText(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

int monthNumber(const QString& name)
{
    for (int i = 0; i < kMonthNames.size(); ++i) {
        if (kMonthNames[i].left(3).compare(name.left(3), Qt::CaseInsensitive) == 0)
            return i + 1;
    }
    return 0;
}

int weekdayNumber(const QString& name)
{
    static const QStringList days = { u"mon"_s, u"tue"_s, u"wed"_s, u"thu"_s, u"fri"_s, u"sat"_s, u"sun"_s };
    return int(days.indexOf(name.left(3).toLower())) + 1; // QDate::dayOfWeek(): Monday is 1
}

// --- gold leaves with their schema nodes --------------------------------------------------------

struct GoldLeaf
{
    QString path; ///< dotted path, as null_reasons and the READMEs write it
    QString field; ///< last object key on the path
    const json* value = nullptr;
    const json* schema = nullptr; ///< the leaf's schema node; nullptr when the schema has none
};

const json* member(const json* node, const char* key)
{
    if (!node || !node->is_object())
        return nullptr;
    const auto it = node->find(key);
    return it == node->end() ? nullptr : &*it;
}

// Walks `schema` along a JSON pointer into a document: object keys through "properties", array
// indices through "items" (the built-in schemas use neither $ref nor combinators).
const json* schemaNodeAt(const json& schema, const std::string& pointer)
{
    const json* node = &schema;
    std::size_t pos = 0;
    while (node && pos < pointer.size()) {
        const std::size_t next = pointer.find('/', pos + 1);
        std::string token = pointer.substr(pos + 1, next == std::string::npos ? std::string::npos : next - pos - 1);
        for (std::size_t i; (i = token.find("~1")) != std::string::npos;)
            token.replace(i, 2, "/");
        for (std::size_t i; (i = token.find("~0")) != std::string::npos;)
            token.replace(i, 2, "~");
        const json* properties = member(node, "properties");
        if (properties && properties->is_object() && properties->contains(token))
            node = &(*properties)[token];
        else
            node = member(node, "items");
        pos = next == std::string::npos ? pointer.size() : next;
    }
    return node;
}

QString lastKey(const QString& path)
{
    QString key = path.mid(path.lastIndexOf(u'.') + 1);
    const qsizetype bracket = key.indexOf(u'[');
    return bracket >= 0 ? key.left(bracket) : key;
}

QList<GoldLeaf> goldLeaves(const json& gold, const json* schema)
{
    QList<GoldLeaf> out;
    for (const Leaf& leaf : flattenLeaves(gold, LeafPointers::Fill)) {
        GoldLeaf g;
        g.path = qs(leaf.path);
        g.field = lastKey(g.path);
        g.value = leaf.value;
        g.schema = schema ? schemaNodeAt(*schema, leaf.pointer) : nullptr;
        out << g;
    }
    return out;
}

QString patternOf(const json* node)
{
    const json* p = member(node, "pattern");
    return p && p->is_string() ? qs(p->get<std::string>()) : QString();
}

bool hasFormat(const json* node, const char* format)
{
    const json* f = member(node, "format");
    return f && f->is_string() && f->get<std::string>() == format;
}

bool isEnum(const json* node)
{
    return member(node, "enum") != nullptr;
}

bool typeIncludes(const json* node, const char* type)
{
    const json* t = member(node, "type");
    if (!t)
        return false;
    if (t->is_string())
        return t->get<std::string>() == type;
    if (t->is_array())
        return std::find(t->begin(), t->end(), json(type)) != t->end();
    return false;
}

bool allowsNull(const json* node)
{
    if (typeIncludes(node, "null"))
        return true;
    const json* e = member(node, "enum");
    return e && e->is_array() && std::find(e->begin(), e->end(), json(nullptr)) != e->end();
}

QStringList nonNullGoldStrings(const QList<GoldLeaf>& leaves)
{
    QStringList out;
    for (const GoldLeaf& leaf : leaves) {
        if (leaf.value->is_string())
            out << qs(leaf.value->get<std::string>());
    }
    return out;
}

// --- detectors shared by several checks ---------------------------------------------------------

// Runs of digits that look like a phone number: at least 7 digits joined by spaces, dots, hyphens or
// parentheses, optionally after '+'. ISO and dotted dates are not phone numbers.
QStringList phoneLikeRuns(const QString& text)
{
    static const QRegularExpression run(u"\\+?\\(?\\d[\\d ().\\-]*\\d"_s);
    static const QRegularExpression dateShaped(u"^\\d{4}-\\d{1,2}-\\d{1,2}$|^\\d{1,2}[.\\-]\\d{1,2}[.\\-]\\d{2,4}$"_s);
    QStringList out;
    for (auto it = run.globalMatch(text); it.hasNext();) {
        const QString candidate = it.next().captured(0).trimmed();
        const auto digits = std::count_if(candidate.cbegin(), candidate.cend(), [](QChar c) { return c.isDigit(); });
        if (digits >= 7 && !dateShaped.match(candidate).hasMatch())
            out << candidate;
    }
    return out;
}

QStringList emailAddresses(const QString& text)
{
    static const QRegularExpression address(u"[A-Za-z0-9._%+\\-]+@[A-Za-z0-9\\-]+(?:\\.[A-Za-z0-9\\-]+)+"_s);
    QStringList out;
    for (auto it = address.globalMatch(text); it.hasNext();)
        out << it.next().captured(0);
    return out;
}

// `needle` occurs in `text` with no digit right before or after it (so "4 March" is not found in "14 March").
bool containsNumberBounded(const QString& text, const QString& needle)
{
    for (qsizetype i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
        const qsizetype end = i + needle.size();
        const bool digitBefore = i > 0 && text[i - 1].isDigit();
        const bool digitAfter = end < text.size() && text[end].isDigit();
        if (!digitBefore && !digitAfter)
            return true;
    }
    return false;
}

// schema-tiers README: a `format: date` gold value is ISO 8601 "from any written style; German-style
// dates only with a day above 12". The written styles the suite uses: ISO, "4 March 2024",
// "4 Mar 2024", "March 4, 2024", "Mar 4, 2024" and DD.MM.YYYY.
bool writesDate(const QString& text, QDate date)
{
    const QString month = kMonthNames[date.month() - 1];
    QStringList forms = { date.toString(u"yyyy-MM-dd"_s), u"%1 %2 %3"_s.arg(date.day()).arg(month).arg(date.year()),
        u"%1 %2 %3"_s.arg(date.day()).arg(month.left(3)).arg(date.year()),
        u"%1 %2, %3"_s.arg(month).arg(date.day()).arg(date.year()),
        u"%1 %2, %3"_s.arg(month.left(3)).arg(date.day()).arg(date.year()) };
    if (date.day() > 12)
        forms << date.toString(u"dd.MM.yyyy"_s);
    return std::any_of(forms.cbegin(), forms.cend(), [&](const QString& f) { return containsNumberBounded(text, f); });
}

// Whether `text` writes the E.164 number `e164` in an international or local style: the same digits,
// "00" + digits, or a country code of 1-3 digits in front of the local number (whose trunk '0', if
// written, is dropped): "0351 555 0182" is +49 351 5550182, "(614) 555-0172" is +1 614 5550172.
bool writesE164(const QString& text, const QString& e164)
{
    const QString wanted = e164.mid(1);
    static const QRegularExpression run(u"\\+?\\(?\\d[\\d ().\\-]*\\d"_s);
    for (auto it = run.globalMatch(text); it.hasNext();) {
        QString digits = it.next().captured(0);
        digits.removeIf([](QChar c) { return !c.isDigit(); });
        if (digits.size() < 6)
            continue;
        if (digits == wanted || digits == u"00"_s + wanted)
            return true;
        const QString local = digits.startsWith(u'0') ? digits.mid(1) : digits;
        const qsizetype codeLength = wanted.size() - local.size();
        if (codeLength >= 1 && codeLength <= 3 && wanted.endsWith(local))
            return true;
    }
    return false;
}

// Names a text may use for an ISO 3166-1 alpha-2 code (the code itself, as a word, counts too).
const std::map<QString, QStringList>& countryNames()
{
    static const std::map<QString, QStringList> names = {
        { u"AT"_s, { u"Austria"_s, u"Österreich"_s } },
        { u"AU"_s, { u"Australia"_s } },
        { u"BE"_s, { u"Belgium"_s, u"België"_s, u"Belgique"_s } },
        { u"CA"_s, { u"Canada"_s } },
        { u"CH"_s, { u"Switzerland"_s, u"Schweiz"_s, u"Suisse"_s, u"Svizzera"_s } },
        { u"CZ"_s, { u"Czechia"_s, u"Czech Republic"_s, u"Česko"_s } },
        { u"DE"_s, { u"Germany"_s, u"Deutschland"_s } },
        { u"DK"_s, { u"Denmark"_s, u"Danmark"_s } },
        { u"ES"_s, { u"Spain"_s, u"España"_s } },
        { u"FI"_s, { u"Finland"_s, u"Suomi"_s } },
        { u"FR"_s, { u"France"_s } },
        { u"GB"_s, { u"United Kingdom"_s, u"UK"_s, u"Great Britain"_s, u"England"_s, u"Scotland"_s, u"Wales"_s } },
        { u"IE"_s, { u"Ireland"_s, u"Éire"_s } },
        { u"IT"_s, { u"Italy"_s, u"Italia"_s } },
        { u"JP"_s, { u"Japan"_s } },
        { u"NL"_s, { u"Netherlands"_s, u"Nederland"_s, u"Holland"_s } },
        { u"NO"_s, { u"Norway"_s, u"Norge"_s } },
        { u"NZ"_s, { u"New Zealand"_s } },
        { u"PL"_s, { u"Poland"_s, u"Polska"_s } },
        { u"PT"_s, { u"Portugal"_s } },
        { u"SE"_s, { u"Sweden"_s, u"Sverige"_s } },
        { u"SG"_s, { u"Singapore"_s } },
        { u"US"_s, { u"USA"_s, u"United States"_s, u"U.S."_s } },
        { u"ZA"_s, { u"South Africa"_s } },
    };
    return names;
}

// What a text may write for an ISO 4217 code (the code itself counts too).
const std::map<QString, QStringList>& currencyMarks()
{
    static const std::map<QString, QStringList> marks = {
        { u"AUD"_s, { u"A$"_s, u"Australian dollar"_s } },
        { u"CAD"_s, { u"C$"_s, u"Canadian dollar"_s } },
        { u"CHF"_s, { u"Swiss franc"_s, u"Fr."_s } },
        { u"DKK"_s, { u"kr"_s, u"Danish krone"_s } },
        { u"EUR"_s, { u"€"_s, u"euro"_s } },
        { u"GBP"_s, { u"£"_s, u"pound"_s } },
        { u"NOK"_s, { u"kr"_s, u"Norwegian krone"_s } },
        { u"SEK"_s, { u"kr"_s, u"Swedish krona"_s } },
        { u"SGD"_s, { u"S$"_s, u"Singapore dollar"_s } },
        { u"USD"_s, { u"$"_s, u"US dollar"_s } },
    };
    return marks;
}

bool containsWord(const QString& text, const QString& word)
{
    return caseSensitive(u"(?<![\\w.])"_s + QRegularExpression::escape(word) + u"(?!\\w)"_s).match(text).hasMatch();
}

// Every value a numeral of `text` may stand for: "2,480.00", "2.480,00", "471,20", "1 249" and plain
// "1249" / "2.1" all count (schema-tiers README: amounts are numbers whatever the written format).
QList<double> numeralValues(const QString& text)
{
    struct Form
    {
        QRegularExpression re;
        QChar group;
        QChar decimal;
    };
    static const QList<Form> forms = {
        { QRegularExpression(u"\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?"_s), u',', u'.' },
        { QRegularExpression(u"\\d+(?:\\.\\d+)?"_s), QChar(), u'.' },
        { QRegularExpression(u"\\d{1,3}(?:\\.\\d{3})+(?:,\\d+)?"_s), u'.', u',' },
        { QRegularExpression(u"\\d+,\\d+"_s), QChar(), u',' },
        { QRegularExpression(u"\\d{1,3}(?: \\d{3})+(?!\\d)"_s), u' ', u'.' },
    };
    QList<double> values;
    for (const Form& form : forms) {
        for (auto it = form.re.globalMatch(text); it.hasNext();) {
            QString token = it.next().captured(0);
            if (!form.group.isNull())
                token.remove(form.group);
            token.replace(form.decimal, u'.');
            bool ok = false;
            const double v = token.toDouble(&ok);
            if (ok)
                values << v;
        }
    }
    return values;
}

bool sameNumber(double a, double b)
{
    return std::fabs(a - b) <= 1e-9 * std::max({ 1.0, std::fabs(a), std::fabs(b) });
}

// grounded README, rule 2, both ways it is stated. (1) "once the commas between digits are removed
// from the input, str(value) as Python prints it is a substring of it". (2) The value is written as a
// numeral (comma thousands separators allowed, a currency symbol or unit may sit next to it), not
// from inside an identifier, and written with a decimal part exactly when gold is a JSON float.
QString groundedNumberProblem(const QString& input, const json& value)
{
    const QString written = qs(pyStr(value));
    static const QRegularExpression commaBetweenDigits(u"(?<=\\d),(?=\\d)"_s);
    QString stripped = input;
    stripped.remove(commaBetweenDigits);
    if (!stripped.contains(written))
        return u"str(value) \"%1\" does not occur in the input once commas between digits are removed"_s.arg(written);

    static const QRegularExpression numeral(u"\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?"_s);
    const double target = value.get<double>();
    const bool isFloat = value.is_number_float();
    for (auto it = numeral.globalMatch(input); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const qsizetype begin = m.capturedStart();
        const qsizetype end = m.capturedEnd();
        if (begin > 0) {
            const QChar before = input[begin - 1];
            if (before.isLetterOrNumber() || before == u'_' || before == u'.' || before == u',')
                continue; // inside a word, an identifier or a longer number
            if ((before == u'-' || before == u'/') && begin > 1 && input[begin - 2].isLetterOrNumber())
                continue; // "INV-2024", "12/03"
        }
        if (end < input.size()) {
            const QChar after = input[end];
            if (after.isDigit())
                continue;
            if ((after == u'-' || after == u'/' || after == u'.' || after == u',') && end + 1 < input.size()
                && input[end + 1].isDigit())
                continue; // "2024-0173", "12/03/2024"
        }
        QString token = m.captured(0);
        const bool tokenIsFloat = token.contains(u'.');
        token.remove(u',');
        double v = token.toDouble();
        if (begin > 0 && (input[begin - 1] == u'-' || input[begin - 1] == QChar(0x2212)))
            v = -v;
        if (v == target && tokenIsFloat == isFloat)
            return {};
    }
    return u"no numeral of the input has the value %1 written %2 a decimal part"_s.arg(
        written, isFloat ? u"with"_s : u"without"_s);
}

// email-extraction README: "every weekday named next to a date was checked against the calendar".
// Checks "Thursday, 14 March 2024", "Thu 14 March", "March 14, 2024", "Thu 14.03.2024" and the
// "Date: Wed, 12 Mar 2025" header; a date written without a year is checked against the years of
// the message's Date: headers. Returns the mismatches; `checked` counts the weekday mentions seen.
QStringList weekdayMismatches(const QString& text, int* checked = nullptr)
{
    static const QString lead = u"\\b"_s + kWeekdayRe + u"\\.?,?\\s+"_s;
    static const QRegularExpression dayMonthYear(
        lead + u"(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?"_s + kMonthRe + u"\\.?,?\\s+(\\d{4})\\b"_s);
    static const QRegularExpression monthDayYear(
        lead + kMonthRe + u"\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b"_s);
    static const QRegularExpression dotted(lead + u"(\\d{1,2})\\.(\\d{1,2})\\.(\\d{4})\\b"_s);
    static const QRegularExpression dayMonth(
        lead + u"(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?"_s + kMonthRe + u"\\b(?!\\.?,?\\s+\\d{4})"_s);
    static const QRegularExpression header(
        u"^Date:\\s+"_s + kWeekdayRe + u",?\\s+(\\d{1,2})\\s+"_s + kMonthRe + u"\\s+(\\d{4})"_s,
        QRegularExpression::MultilineOption);

    QStringList mismatches;
    int seen = 0;
    auto check = [&](const QString& what, const QString& weekday, const QList<QDate>& candidates) {
        ++seen;
        const int wanted = weekdayNumber(weekday);
        for (const QDate& d : candidates) {
            if (d.isValid() && d.dayOfWeek() == wanted)
                return;
        }
        const QDate first = candidates.value(0);
        mismatches << (first.isValid()
                ? u"\"%1\": that date is a %2"_s.arg(what, QLocale::c().dayName(first.dayOfWeek()))
                : u"\"%1\": not a calendar date"_s.arg(what));
    };
    for (auto it = dayMonthYear.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        check(m.captured(0), m.captured(1),
            { QDate(m.captured(4).toInt(), monthNumber(m.captured(3)), m.captured(2).toInt()) });
    }
    for (auto it = monthDayYear.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        check(m.captured(0), m.captured(1),
            { QDate(m.captured(4).toInt(), monthNumber(m.captured(2)), m.captured(3).toInt()) });
    }
    for (auto it = dotted.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        check(m.captured(0), m.captured(1),
            { QDate(m.captured(4).toInt(), m.captured(3).toInt(), m.captured(2).toInt()) });
    }
    QList<int> years;
    for (auto it = header.globalMatch(text); it.hasNext();)
        years << it.next().captured(4).toInt();
    if (!years.isEmpty()) {
        for (auto it = dayMonth.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            QList<QDate> candidates;
            for (int year : std::as_const(years))
                candidates << QDate(year, monthNumber(m.captured(3)), m.captured(2).toInt());
            check(m.captured(0), m.captured(1), candidates);
        }
    }
    if (checked)
        *checked += seen;
    return mismatches;
}

// --- tier-5 silence: "the text gives no value for that field" ----------------------------------

QStringList sentences(const QString& text)
{
    static const QRegularExpression boundary(u"\\n|(?<=[.!?])\\s+(?=[A-Z\"“‘(])"_s);
    return text.split(boundary, Qt::SkipEmptyParts);
}

QString firstMatch(const QString& text, const QRegularExpression& re)
{
    const QRegularExpressionMatch m = re.match(text);
    return m.hasMatch() ? m.captured(0) : QString();
}

// A state, province, territory, Land or county written in an address.
QString stateLikeToken(const QString& text)
{
    static const QRegularExpression codes(caseSensitive(
        u"\\b(?:AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|"
        u"OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC|AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT|NSW|VIC|QLD|SA|TAS|"
        u"ACT)\\b"_s));
    static const QRegularExpression names(caseSensitive(
        u"\\b(?:Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|Hawaii|"
        u"Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|"
        u"Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|New Mexico|New York|North Carolina|"
        u"North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode Island|South Carolina|South Dakota|Tennessee|Texas|"
        u"Utah|Vermont|Virginia|Washington|West Virginia|Wisconsin|Wyoming|Ontario|Qu[eé]bec|British Columbia|"
        u"Alberta|Manitoba|Saskatchewan|Nova Scotia|New Brunswick|Newfoundland|Prince Edward Island|Yukon|Nunavut|"
        u"Northwest Territories|New South Wales|Victoria|Queensland|South Australia|Western Australia|Tasmania|"
        u"Australian Capital Territory|Northern Territory|Baden-Württemberg|Bayern|Bavaria|Brandenburg|Hessen|Hesse|"
        u"Niedersachsen|Lower Saxony|Nordrhein-Westfalen|North Rhine-Westphalia|Rheinland-Pfalz|Saarland|Sachsen|"
        u"Saxony|Sachsen-Anhalt|Schleswig-Holstein|Thüringen|Thuringia|Mecklenburg-Vorpommern)\\b"_s));
    static const QRegularExpression labels(caseSensitive(
        u"\\b(?:Co\\.|County)\\s+(?:Antrim|Armagh|Carlow|Cavan|Clare|Cork|Derry|Donegal|Down|Dublin|Fermanagh|Galway|"
        u"Kerry|Kildare|Kilkenny|Laois|Leitrim|Limerick|Longford|Louth|Mayo|Meath|Monaghan|Offaly|Roscommon|Sligo|"
        u"Tipperary|Tyrone|Waterford|Westmeath|Wexford|Wicklow)\\b|\\b[A-Z][a-z]+ County\\b|"
        u"\\b(?:Province|Provinz|Bundesland|State|Prefecture|Canton|Kanton)\\b"_s));
    for (const QRegularExpression* re : { &codes, &names, &labels }) {
        const QString hit = firstMatch(text, *re);
        if (!hit.isEmpty())
            return hit;
    }
    return {};
}

const QRegularExpression& dateExpression()
{
    static const QRegularExpression re(caseInsensitive(
        u"\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b\\d{1,2}[./]\\d{1,2}[./]\\d{2,4}\\b|\\b\\d{1,2}(?:st|nd|rd|th)?\\s+"_s
        + kMonthRe + u"\\b|\\b"_s + kMonthRe + u"\\s+\\d{1,2}\\b|\\b(?:"_s + kWeekdayRe
        + u"|today|tomorrow|tonight|next\\s+(?:week|month|quarter|year)|end\\s+of\\s+(?:the\\s+)?"
          u"(?:week|month|quarter|year)|Q[1-4])\\b"_s));
    return re;
}

const QRegularExpression& moneyAmount()
{
    static const QRegularExpression re(caseSensitive(
        u"[€£$¥₹]\\s?\\d|\\b(?:USD|EUR|GBP|CHF|AUD|CAD|SGD|NZD|ZAR|SEK|NOK|DKK|JPY|INR)\\s?\\d|\\bR\\s?\\d|"
        u"\\d(?:[\\d,.]*\\d)?\\s?(?:€|\\b(?:USD|EUR|GBP|CHF|AUD|CAD|SGD|NZD|ZAR|SEK|NOK|DKK|JPY|INR|euros?|dollars?|"
        u"pounds?|k)\\b)"_s));
    return re;
}

// The reason a tier-5 text is not silent about `field`, or "" when it is. `text` has every non-null
// gold string of the case masked: schema-tiers README, "no value of that kind appears in the text
// at all apart from the gold's own non-null values"; "every other null field is one the text never
// touches, or mentions only to say there is no value".
QString silenceViolation(const QString& field, const QString& text)
{
    auto absent = [&](const QRegularExpression& re, const QString& what) -> QString {
        const QString hit = firstMatch(text, re);
        return hit.isEmpty() ? QString() : u"%1: \"%2\""_s.arg(what, hit);
    };
    // Every sentence that names the field has nothing in it that could be its value.
    auto noValueNear
        = [&](const QRegularExpression& keyword, const QRegularExpression& valueRe, const QString& what) -> QString {
        for (const QString& s : sentences(text)) {
            if (keyword.match(s).hasMatch() && valueRe.match(s).hasMatch())
                return u"%1: \"%2\""_s.arg(what, s.trimmed());
        }
        return {};
    };
    auto first = [](std::initializer_list<QString> results) -> QString {
        for (const QString& r : results) {
            if (!r.isEmpty())
                return r;
        }
        return {};
    };
    static const QRegularExpression digit(u"\\d"_s);

    if (field == u"email" || field.endsWith(u"_email")) {
        const QStringList found = emailAddresses(text);
        return found.isEmpty() ? QString() : u"an email address the gold does not hold: \"%1\""_s.arg(found.first());
    }
    if (field == u"phone" || field == u"fax" || field.endsWith(u"_phone")) {
        const QStringList found = phoneLikeRuns(text);
        if (!found.isEmpty())
            return u"a phone number the gold does not hold: \"%1\""_s.arg(found.first());
        return field == u"fax" ? absent(caseInsensitive(u"\\bfax\\b"_s), u"a fax is mentioned"_s) : QString();
    }
    if (field.endsWith(u"vat_id")) {
        static const QRegularExpression idToken(caseSensitive(u"\\b[A-Z]{2}[0-9A-Z]{8,12}\\b"_s));
        for (auto it = idToken.globalMatch(text); it.hasNext();) {
            const QString token = it.next().captured(0);
            if (std::count_if(token.cbegin(), token.cend(), [](QChar c) { return c.isDigit(); }) >= 7)
                return u"a VAT-id-like token: \"%1\""_s.arg(token);
        }
        static const QRegularExpression label(caseSensitive(
            u"\\b(?:VAT|USt|TVA|IVA|BTW|MwSt|MOMS|ABN|GST|EIN|TIN)\\b|(?i:tax\\s*(?:id|no|number|reg))"_s));
        static const QRegularExpression longNumber(u"\\d(?:\\s?\\d){5,}"_s);
        for (const QString& line : text.split(u'\n')) {
            if (label.match(line).hasMatch() && longNumber.match(line).hasMatch())
                return u"a tax number: \"%1\""_s.arg(line.trimmed());
        }
        return {};
    }
    if (field == u"state" || field.endsWith(u"_state")) {
        const QString hit = stateLikeToken(text);
        return hit.isEmpty() ? QString() : u"a state, province or county: \"%1\""_s.arg(hit);
    }
    if (field.contains(u"purchase_order")) {
        static const QRegularExpression keyword(caseSensitive(u"\\bPO\\b|\\bP\\.O\\.|(?i:purchase[ -]?order)"_s));
        for (const QString& line : text.split(u'\n')) {
            const QRegularExpressionMatch m = keyword.match(line);
            if (m.hasMatch() && digit.match(line.mid(m.capturedEnd())).hasMatch())
                return u"a purchase-order number: \"%1\""_s.arg(line.trimmed());
        }
        return {};
    }
    if (field == u"order_number" || field == u"order_id") {
        static const QRegularExpression keyword(caseInsensitive(u"\\border\\b|\\bORD-"_s));
        for (const QString& s : sentences(text)) {
            const QRegularExpressionMatch m = keyword.match(s);
            if (m.hasMatch() && digit.match(s.mid(m.capturedEnd())).hasMatch())
                return u"an order number: \"%1\""_s.arg(s.trimmed());
        }
        return {};
    }
    if (field == u"due_date")
        return absent(caseInsensitive(u"\\bdue\\b|payment terms|\\bterms\\b|\\bnet\\s?\\d+|within\\s+\\d+\\s+days|"
                                      u"payable\\s+(?:by|within|on)"_s),
            u"a due date or payment terms"_s);
    if (field.contains(u"discount"))
        return absent(caseInsensitive(u"discount|rebate|reduction|\\d\\s?%\\s?off\\b"_s), u"a discount"_s);
    if (field.endsWith(u"address")) {
        return first({ absent(caseInsensitive(u"ship(?:ping)?\\s+to|deliver(?:y)?\\s+(?:to|address)|\\baddress\\b"_s),
                           u"an address label"_s),
            absent(caseSensitive(u"\\b\\d+[A-Za-z]?,?\\s+(?:[A-Z][\\w'’-]*\\s+){0,3}(?:Street|St|Road|Rd|Lane|Ln|"
                                 u"Avenue|Ave|Way|Drive|Dr|Quay|Square|Sq|Place|Pl|Boulevard|Blvd|Close|Terrace|"
                                 u"Court|Crescent|Parade|Row|Hill|Highway|Hwy)\\b|"
                                 u"\\b[A-Z]\\w*(?:straße|strasse|gasse|weg|allee|platz)\\s+\\d|\\bP\\.?O\\.? Box\\b"_s),
                u"a street line"_s) });
    }
    if (field.contains(u"serial"))
        return absent(caseInsensitive(u"serial|\\bS/N\\b|\\bSN\\s*[:#]"_s), u"a serial number"_s);
    if (field.startsWith(u"refund"))
        return noValueNear(caseInsensitive(u"refund"_s), digit, u"a refund with an amount"_s);
    if (field.contains(u"callback")) {
        static const QRegularExpression time(caseInsensitive(
            u"\\b\\d{1,2}(?::\\d{2})?\\s?(?:am|pm)\\b|\\b\\d{1,2}:\\d{2}\\b|\\b(?:morning|afternoon|evening|noon|"
            u"midday|"
            u"tonight|today|tomorrow|weekdays?|weekends?|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|"
            u"after|before|between|until|any\\s?time)s?\\b"_s));
        return noValueNear(
            caseInsensitive(u"call(?:ed|ing)?\\s+(?:\\w+\\s+)?back|call-?back|ring\\s+(?:\\w+\\s+)?back"_s), time,
            u"a callback with a time"_s);
    }
    if (field.contains(u"escalat"))
        return absent(caseInsensitive(u"escalat"_s), u"an escalation"_s);
    if (field == u"company") {
        const QString suffix
            = absent(caseSensitive(u"\\b(?:Ltd|Limited|LLC|LLP|Inc|Corp|Corporation|GmbH|AG|plc|PLC|"
                                   u"Pty|S\\.A\\.|S\\.r\\.l\\.|B\\.V\\.|N\\.V\\.|AS|AB|Oy|KG|SAS)(?!\\w)"_s),
                u"a company name"_s);
        if (!suffix.isEmpty())
            return suffix;
        static const QRegularExpression keyword(
            caseInsensitive(u"\\bcompany\\b|\\bfirm\\b|\\bemployer\\b|works\\s+(?:at|for)"_s));
        static const QRegularExpression negation(
            caseInsensitive(u"n't\\b|n’t\\b|\\bnot\\b|\\bno\\b|\\bnever\\b|\\bunknown\\b"_s));
        for (const QString& s : sentences(text)) {
            if (keyword.match(s).hasMatch() && !negation.match(s).hasMatch())
                return u"the company is mentioned: \"%1\""_s.arg(s.trimmed());
        }
        return {};
    }
    if (field == u"budget" || field == u"declared_value") {
        const QRegularExpression keyword
            = field == u"budget" ? caseInsensitive(u"budget"_s) : caseInsensitive(u"declared|\\bvalue\\b|insur"_s);
        return first({ noValueNear(keyword, digit, u"a figure next to the field"_s),
            absent(moneyAmount(), u"a money amount the gold does not hold"_s) });
    }
    if (field.contains(u"decision") || field.contains(u"deadline"))
        return noValueNear(caseInsensitive(u"decid|decision|deadline|sign(?:ing|s)?\\s+(?:off|by)"_s), dateExpression(),
            u"a decision with a date"_s);
    if (field.contains(u"competitor"))
        return absent(caseInsensitive(u"competitor|competing|also\\s+(?:talking|speaking)\\s+to|also\\s+(?:evaluating|"
                                      u"considering|looking\\s+at)|incumbent|current\\s+(?:supplier|vendor|provider)|"
                                      u"\\brival|\\bversus\\b|\\bvs\\.?\\s"_s),
            u"a competitor"_s);
    if (field.contains(u"referral"))
        return absent(caseInsensitive(u"referr|recommend|introduced\\s+by"_s), u"a referral"_s);
    if (field.contains(u"assistant"))
        return absent(caseSensitive(u"(?i:assistant|secretary|office\\s+manager)|\\bPA\\b"_s), u"an assistant"_s);
    if (field.contains(u"instructions"))
        return absent(
            caseInsensitive(u"instruction|\\bleave\\b|safe\\s?place|neighbou?r|porch|doorstep|reception|"
                            u"back\\s+door|\\bgate\\b|knock|ring\\s+the|\\bbuzz|call\\s+(?:before|on\\s+arrival)|"
                            u"\\bfragile\\b|\\bplease\\b"_s),
            u"a delivery instruction"_s);
    if (field.contains(u"signature"))
        return absent(caseInsensitive(u"signature|\\bsign(?:ed)?\\b|unterschrift"_s), u"a signature"_s);
    if (field.contains(u"tariff"))
        return absent(caseInsensitive(u"\\bHS\\b|\\bHTS\\b|tariff|commodity\\s+code"_s), u"a tariff code"_s);
    if (field == u"pronouns")
        return absent(caseInsensitive(u"\\b(?:she|he|they|ze|xe)\\s*/\\s*(?:her|him|them|hers|his|theirs|zir|xem)\\b|"
                                      u"pronoun"_s),
            u"pronouns"_s);
    if (field == u"birthday" || field.contains(u"birth"))
        return absent(caseInsensitive(u"\\bborn\\b|birth|\\bDOB\\b|d\\.o\\.b"_s), u"a date of birth"_s);
    if (field == u"website") {
        QString withoutEmail = text;
        for (const QString& address : emailAddresses(text))
            withoutEmail.replace(address, QString(address.size(), u' '));
        const QString hit = firstMatch(withoutEmail,
            caseInsensitive(
                u"https?://|\\bwww\\.|\\bweb(?:site)?\\b|\\bURL\\b|\\b[A-Za-z0-9-]{2,}(?:\\.[A-Za-z0-9-]{2,})*"
                u"\\.(?:com|org|net|example|io|co|uk|ie|de|au|sg|ca|eu|info|biz|app|dev)\\b"_s));
        return hit.isEmpty() ? QString() : u"a website: \"%1\""_s.arg(hit);
    }
    return u"no silence rule for field \"%1\" (add one to tst_datasets)"_s.arg(field);
}

QString maskValues(QString text, QStringList values)
{
    std::sort(values.begin(), values.end(), [](const QString& a, const QString& b) { return a.size() > b.size(); });
    for (const QString& v : std::as_const(values)) {
        if (v.size() < 2)
            continue;
        for (qsizetype i = text.indexOf(v); i >= 0; i = text.indexOf(v, i + v.size()))
            text.replace(i, v.size(), QString(v.size(), QChar(0x2591)));
    }
    return text;
}

// --- README tables -------------------------------------------------------------------------------

struct MarkdownTable
{
    QStringList header;
    QList<QStringList> rows;
};

QStringList tableCells(const QString& line)
{
    QStringList cells = line.trimmed().split(u'|');
    if (!cells.isEmpty() && cells.first().trimmed().isEmpty())
        cells.removeFirst();
    if (!cells.isEmpty() && cells.last().trimmed().isEmpty())
        cells.removeLast();
    for (QString& c : cells)
        c = c.trimmed();
    return cells;
}

QList<MarkdownTable> markdownTables(const QString& markdown)
{
    QList<MarkdownTable> tables;
    const QStringList lines = markdown.split(u'\n');
    for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
        if (!lines[i].trimmed().startsWith(u'|') || !lines[i + 1].trimmed().startsWith(u"|-"))
            continue;
        MarkdownTable table;
        table.header = tableCells(lines[i]);
        qsizetype j = i + 2;
        for (; j < lines.size() && lines[j].trimmed().startsWith(u'|'); ++j)
            table.rows << tableCells(lines[j]);
        tables << table;
        i = j - 1;
    }
    return tables;
}

QString plainCell(QString cell)
{
    cell.remove(u'*');
    cell.remove(u'`');
    return cell.trimmed();
}

int leadingInt(const QString& cell)
{
    static const QRegularExpression number(u"^\\d[\\d,]*"_s);
    const QRegularExpressionMatch m = number.match(plainCell(cell));
    return m.hasMatch() ? m.captured(0).remove(u',').toInt() : -1;
}

// The text of a "## heading" section (up to the next "## "), or a null string when there is none.
QString readmeSection(const QString& readme, const QString& headingPattern)
{
    const QRegularExpression heading(u"^##\\s+(?:"_s + headingPattern + u")\\s*$"_s,
        QRegularExpression::MultilineOption | QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = heading.match(readme);
    if (!m.hasMatch())
        return {};
    const qsizetype next = readme.indexOf(u"\n## "_s, m.capturedEnd());
    return readme.mid(m.capturedEnd(), next < 0 ? -1 : next - m.capturedEnd());
}

struct CategoryStats
{
    int cases = 0;
    std::map<QString, int> byTier;
    int goldLeaves = 0;
    int casesWithNull = 0;
};

// --- grounded schema shape -----------------------------------------------------------------------

// Every object of the schema lists all its properties as required and forbids additional ones; with
// `orderWording`, every array's description also says which order its items come in.
void checkClosedObjects(
    const json& node, const QString& where, QStringList& failures, const QRegularExpression* orderWording = nullptr)
{
    if (!node.is_object())
        return;
    if (typeIncludes(&node, "object")) {
        const json* properties = member(&node, "properties");
        const json* required = member(&node, "required");
        const json* additional = member(&node, "additionalProperties");
        if (!properties || !properties->is_object()) {
            failures << where + u": object without properties"_s;
        } else {
            std::set<std::string> wanted;
            for (const auto& [key, child] : properties->items())
                wanted.insert(key);
            std::set<std::string> listed;
            if (required && required->is_array()) {
                for (const json& r : *required)
                    listed.insert(r.is_string() ? r.get<std::string>() : std::string());
            }
            if (listed != wanted)
                failures << where + u": \"required\" does not list exactly the properties"_s;
            for (const auto& [key, child] : properties->items())
                checkClosedObjects(child, where + u'/' + qs(key), failures, orderWording);
        }
        if (!additional || *additional != json(false))
            failures << where + u": additionalProperties is not false"_s;
    }
    if (typeIncludes(&node, "array")) {
        const json* description = member(&node, "description");
        if (orderWording
            && (!description || !description->is_string()
                || !orderWording->match(qs(description->get<std::string>())).hasMatch()))
            failures << where + u": the array's description does not say which order is expected: "_s
                    + (description ? quoted(*description) : u"none"_s);
        if (const json* items = member(&node, "items"))
            checkClosedObjects(*items, where + u"[]"_s, failures, orderWording);
    }
}

// Leaf keys of a schema, an array's item schema counted once (email-extraction README).
int schemaLeafKeys(const json& node)
{
    if (const json* properties = member(&node, "properties")) {
        int n = 0;
        for (const auto& [key, child] : properties->items())
            n += schemaLeafKeys(child);
        return n;
    }
    if (const json* items = member(&node, "items"))
        return schemaLeafKeys(*items);
    return 1;
}

// Containers on the deepest path, the root object being depth 1 (email-extraction README).
int schemaDepth(const json& node)
{
    if (const json* properties = member(&node, "properties")) {
        int deepest = 0;
        for (const auto& [key, child] : properties->items())
            deepest = std::max(deepest, schemaDepth(child));
        return 1 + deepest;
    }
    if (const json* items = member(&node, "items"))
        return 1 + schemaDepth(*items);
    return 0;
}

bool isNameField(const QString& field)
{
    static const QStringList parts = { u"first"_s, u"middle"_s, u"last"_s, u"stand_in"_s };
    return field.contains(u"name") || parts.contains(field);
}

// A courtesy or academic title in front of a name, which no gold name keeps.
bool startsWithTitle(const QString& value)
{
    static const QRegularExpression title(u"^(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Herr|Frau|Sir|Dame)\\b\\.?\\s"_s);
    return title.match(value).hasMatch();
}

bool isFlatSchema(const json& schema)
{
    const json* properties = member(&schema, "properties");
    if (!properties)
        return false;
    for (const auto& [key, child] : properties->items()) {
        if (typeIncludes(&child, "object"))
            return false;
        if (typeIncludes(&child, "array")) {
            const json* items = member(&child, "items");
            if (!items || !typeIncludes(items, "string") || typeIncludes(items, "object"))
                return false;
        }
    }
    return true;
}

QStringList speakerLabels(const QString& transcript)
{
    static const QRegularExpression label(
        u"^\\[\\d{2}:\\d{2}:\\d{2}\\] ([^:\\n]+):"_s, QRegularExpression::MultilineOption);
    QStringList out;
    for (auto it = label.globalMatch(transcript); it.hasNext();) {
        const QString name = it.next().captured(1);
        if (!out.contains(name))
            out << name;
    }
    return out;
}

QStringList caseIds(const QString& suiteId, const std::function<bool(const SuiteCase&)>& keep = {})
{
    QStringList ids;
    if (const SuitePtr suite = builtIn(suiteId)) {
        for (const SuiteCase& c : suite->cases) {
            if (!keep || keep(c))
                ids << c.id;
        }
    }
    return ids;
}

// Rows of a per-case test: one per case id; a suite that does not load gives one row that fails.
void addCaseRows(const QString& suiteId, const std::function<bool(const SuiteCase&)>& keep = {})
{
    QTest::addColumn<QString>("suiteId");
    QTest::addColumn<QString>("caseId");
    const QStringList ids = caseIds(suiteId, keep);
    if (ids.isEmpty())
        QTest::addRow("%s: no cases", qPrintable(suiteId)) << suiteId << QString();
    for (const QString& id : ids)
        QTest::addRow("%s", qPrintable(id)) << suiteId << id;
}

} // namespace

#define FETCH_CASE(suiteVar, caseVar)                                                                                  \
    QFETCH(QString, suiteId);                                                                                          \
    QFETCH(QString, caseId);                                                                                           \
    const SuitePtr suiteVar = builtIn(suiteId);                                                                        \
    QVERIFY2(suiteVar, qPrintable(suiteId + u" does not load:\n"_s + describe(loadResult(suiteId).problems)));         \
    const SuiteCase* caseVar = suiteVar->findCase(caseId);                                                             \
    QVERIFY2(caseVar, qPrintable(u"no case "_s + caseId + u" in "_s + suiteId));

#define VERIFY_NO_FAILURES(list) QVERIFY2((list).isEmpty(), qPrintable(u"\n"_s + (list).join(u'\n')))

class TestDatasets : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // --- the detectors themselves, on hand-made text -------------------------------------------
    void phoneLikeRunsFindPhoneNumbers_data();
    void phoneLikeRunsFindPhoneNumbers();
    void writesDateAcceptsTheStatedStyles_data();
    void writesDateAcceptsTheStatedStyles();
    void writesE164FindsLocalForms_data();
    void writesE164FindsLocalForms();
    void groundedNumberRule_data();
    void groundedNumberRule();
    void weekdayMismatchesSeesWrongWeekdays_data();
    void weekdayMismatchesSeesWrongWeekdays();
    void silenceViolationPerFieldKind_data();
    void silenceViolationPerFieldKind();
    // --- every suite ---------------------------------------------------------------------------
    void loadsAndPreflights_data();
    void loadsAndPreflights();
    void readmeStatesWhatItHolds_data();
    void readmeStatesWhatItHolds();
    // --- email-extraction ----------------------------------------------------------------------
    void emailSuiteShape();
    void emailGoldIsCopiedAndDated_data();
    void emailGoldIsCopiedAndDated();
    void emailSchemasMatchReadme();
    void schemasAreClosed_data();
    void schemasAreClosed();
    void optionsMatchReadme_data();
    void optionsMatchReadme();
    void emailWeekdaysMatchTheCalendar();
    // --- schema-tiers --------------------------------------------------------------------------
    void tiersSuiteShape();
    void tiersGoldIsGrounded_data();
    void tiersGoldIsGrounded();
    void tiersNullsMatchReadme();
    void tiersTrapsMatchReadme();
    void tier5NullsAreSilent_data();
    void tier5NullsAreSilent();
    // --- grounded ------------------------------------------------------------------------------
    void groundedSuiteShape();
    void groundedSchemaPerCase_data();
    void groundedSchemaPerCase();
    void groundedGoldInSource_data();
    void groundedGoldInSource();
    void groundedSourceShape_data();
    void groundedSourceShape();
};

void TestDatasets::phoneLikeRunsFindPhoneNumbers_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("expected");
    QTest::addRow("uk landline") << u"Tel 01632 960 118 today"_s << QStringList { u"01632 960 118"_s };
    QTest::addRow("us parentheses") << u"Office: (505) 555-0133"_s << QStringList { u"(505) 555-0133"_s };
    QTest::addRow("international") << u"Her number: +39 02 5555 0148."_s << QStringList { u"+39 02 5555 0148"_s };
    QTest::addRow("iso date") << u"CRM note 2024-04-02"_s << QStringList();
    QTest::addRow("dotted date") << u"Datum: 19.02.2024"_s << QStringList();
    QTest::addRow("slashed invoice number") << u"Invoice no. 2024/0815"_s << QStringList();
    QTest::addRow("amount with space grouping") << u"charged R1 249 for"_s << QStringList();
    QTest::addRow("six digits") << u"code 123 456"_s << QStringList();
    QTest::addRow("no run across lines") << u"Ref 1234\n567 890"_s << QStringList();
}

void TestDatasets::phoneLikeRunsFindPhoneNumbers()
{
    QFETCH(QString, text);
    QFETCH(QStringList, expected);
    QCOMPARE(phoneLikeRuns(text), expected);
}

void TestDatasets::writesDateAcceptsTheStatedStyles_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("iso");
    QTest::addColumn<bool>("expected");
    QTest::addRow("iso") << u"Logged 2024-07-11"_s << u"2024-07-11"_s << true;
    QTest::addRow("day month year") << u"Invoice date: 4 March 2024"_s << u"2024-03-04"_s << true;
    QTest::addRow("abbreviated month") << u"due 31 Oct 2024."_s << u"2024-10-31"_s << true;
    QTest::addRow("month day year") << u"Ship date: April 2, 2024"_s << u"2024-04-02"_s << true;
    QTest::addRow("german, day above 12") << u"Rechnungsdatum: 27.05.2024"_s << u"2024-05-27"_s << true;
    QTest::addRow("german, day 12 or less is ambiguous") << u"Datum: 04.03.2024"_s << u"2024-03-04"_s << false;
    QTest::addRow("not inside a longer day") << u"on 14 March 2024"_s << u"2024-03-04"_s << false;
    QTest::addRow("other year") << u"4 March 2023"_s << u"2024-03-04"_s << false;
}

void TestDatasets::writesDateAcceptsTheStatedStyles()
{
    QFETCH(QString, text);
    QFETCH(QString, iso);
    QFETCH(bool, expected);
    QCOMPARE(writesDate(text, QDate::fromString(iso, Qt::ISODate)), expected);
}

void TestDatasets::writesE164FindsLocalForms_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("e164");
    QTest::addColumn<bool>("expected");
    QTest::addRow("german trunk zero") << u"Tel. 0351 555 0182"_s << u"+493515550182"_s << true;
    QTest::addRow("nanp") << u"Phone (614) 555-0172."_s << u"+16145550172"_s << true;
    QTest::addRow("international") << u"Mob. +47 555 01 447"_s << u"+4755501447"_s << true;
    QTest::addRow("irish") << u"· +353 1 555 0164"_s << u"+35315550164"_s << true;
    QTest::addRow("one digit off") << u"Tel. 0351 555 0183"_s << u"+493515550182"_s << false;
    QTest::addRow("no number") << u"No phone given."_s << u"+493515550182"_s << false;
}

void TestDatasets::writesE164FindsLocalForms()
{
    QFETCH(QString, text);
    QFETCH(QString, e164);
    QFETCH(bool, expected);
    QCOMPARE(writesE164(text, e164), expected);
}

void TestDatasets::groundedNumberRule_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("gold");
    QTest::addColumn<bool>("grounded");
    QTest::addRow("integer with thousands comma") << u"Total due: £1,340 by Friday"_s << u"1340"_s << true;
    QTest::addRow("integer written, gold float") << u"Total due: £1,340 by Friday"_s << u"1340.0"_s << false;
    QTest::addRow("decimal with comma") << u"paid 1,250.50 EUR"_s << u"1250.5"_s << true;
    QTest::addRow("decimal written, gold integer") << u"weight 64.00 kg"_s << u"64"_s << false;
    QTest::addRow("trailing zeros") << u"weight 64.00 kg"_s << u"64.0"_s << true;
    QTest::addRow("unit attached") << u"a 1,140-metre crossing"_s << u"1140"_s << true;
    QTest::addRow("inside an identifier") << u"Ref INV-2024-0173"_s << u"2024"_s << false;
    QTest::addRow("inside a date") << u"on 12/03/2024"_s << u"12"_s << false;
    QTest::addRow("spelled out") << u"four clinics"_s << u"4"_s << false;
    QTest::addRow("computed sum") << u"3 and 4 items"_s << u"7"_s << false;
    QTest::addRow("negative") << u"balance -42.10 GBP"_s << u"-42.1"_s << true;
}

void TestDatasets::groundedNumberRule()
{
    QFETCH(QString, input);
    QFETCH(QString, gold);
    QFETCH(bool, grounded);
    const QString problem = groundedNumberProblem(input, json::parse(gold.toStdString()));
    QVERIFY2(problem.isEmpty() == grounded, qPrintable(problem));
}

void TestDatasets::weekdayMismatchesSeesWrongWeekdays_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("mismatches");
    QTest::addColumn<int>("checked");
    QTest::addRow("right, with year") << u"from Thursday, 14 March 2024"_s << 0 << 1;
    QTest::addRow("wrong, with year") << u"from Friday, 14 March 2024"_s << 1 << 1;
    QTest::addRow("month first") << u"on Friday March 15th, 2024"_s << 0 << 1;
    QTest::addRow("dotted") << u"Mon 18.03.2024 to Tue 20.03.2024"_s << 1 << 2;
    QTest::addRow("header and no year") << u"Date: Wed, 12 Mar 2025 08:41\n\nback on Friday 14 March"_s << 0 << 2;
    QTest::addRow("header, wrong weekday") << u"Date: Wed, 12 Mar 2025 08:41\n\nback on Thursday 14 March"_s << 1 << 2;
    QTest::addRow("no year, no header") << u"back on Thursday 14 March"_s << 0 << 0;
    QTest::addRow("not a date") << u"on Friday, 31 February 2025"_s << 1 << 1;
}

void TestDatasets::weekdayMismatchesSeesWrongWeekdays()
{
    QFETCH(QString, text);
    QFETCH(int, mismatches);
    QFETCH(int, checked);
    int seen = 0;
    const QStringList found = weekdayMismatches(text, &seen);
    QVERIFY2(found.size() == mismatches, qPrintable(found.join(u'\n')));
    QCOMPARE(seen, checked);
}

void TestDatasets::silenceViolationPerFieldKind_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("silent");
    QTest::addRow("email: none") << u"customer_email"_s << u"Call me on the landline."_s << true;
    QTest::addRow("email: one") << u"customer_email"_s << u"cc billing@shop.example"_s << false;
    QTest::addRow("phone: none") << u"contact_phone"_s << u"Met on 2024-04-02 at 10:00."_s << true;
    QTest::addRow("phone: one") << u"recipient_phone"_s << u"Sender tel 01632 960 118"_s << false;
    QTest::addRow("fax: word only") << u"fax"_s << u"Fax: ask reception"_s << false;
    QTest::addRow("vat: id") << u"customer_vat_id"_s << u"VAT no. DE298441775"_s << false;
    QTest::addRow("vat: rate only") << u"customer_vat_id"_s << u"VAT 20% included"_s << true;
    QTest::addRow("po: announced") << u"purchase_order_number"_s << u"PO number: to be supplied."_s << true;
    QTest::addRow("po: given") << u"purchase_order_number"_s << u"PO: 4471-B"_s << false;
    QTest::addRow("state: irish county") << u"address_state"_s << u"Eyre Square, Co. Galway, Ireland"_s << false;
    QTest::addRow("state: us code") << u"delivery_address.state"_s << u"Madison, WI 53711"_s << false;
    QTest::addRow("state: none") << u"state"_s << u"12 Eyre Square, Galway, Ireland"_s << true;
    QTest::addRow("budget: not disclosed") << u"budget"_s << u"Budget: not disclosed. Decide by June."_s << true;
    QTest::addRow("budget: figure") << u"budget"_s << u"Budget: around 40,000."_s << false;
    QTest::addRow("budget: amount anywhere") << u"budget"_s << u"They can spend €50k."_s << false;
    QTest::addRow("refund: declined") << u"refund_amount_requested"_s << u"A replacement, not a refund."_s << true;
    QTest::addRow("refund: amount") << u"refund_amount_requested"_s << u"Please refund the R1 249."_s << false;
    QTest::addRow("callback: declined") << u"preferred_callback_time"_s << u"Could we call you back? No thanks."_s
                                        << true;
    QTest::addRow("callback: time") << u"preferred_callback_time"_s << u"Call me back after 5 pm."_s << false;
    QTest::addRow("company: not caught") << u"company"_s << u"Didn't catch the company name."_s << true;
    QTest::addRow("company: suffix") << u"company"_s << u"She is with Argent Ltd now."_s << false;
    QTest::addRow("website: email domain only") << u"website"_s << u"fiona@gallagherroe.example"_s << true;
    QTest::addRow("website: www") << u"website"_s << u"www.gallagherroe.example"_s << false;
    QTest::addRow("pronouns") << u"pronouns"_s << u"Ana Silva (they/them)"_s << false;
    QTest::addRow("birthday") << u"birthday"_s << u"Born: 9 November 1984"_s << false;
    QTest::addRow("address: none") << u"shipping_address"_s << u"Thank you for choosing us."_s << true;
    QTest::addRow("address: street") << u"shipping_address"_s << u"Fit at 4 Quarry Road, Bristol"_s << false;
    QTest::addRow("unknown field kind") << u"postal_code"_s << u"nothing"_s << false;
}

void TestDatasets::silenceViolationPerFieldKind()
{
    QFETCH(QString, field);
    QFETCH(QString, text);
    QFETCH(bool, silent);
    const QString violation = silenceViolation(field, text);
    QVERIFY2(violation.isEmpty() == silent, qPrintable(violation.isEmpty() ? u"no violation found"_s : violation));
}

void TestDatasets::loadsAndPreflights_data()
{
    QTest::addColumn<QString>("suiteId");
    for (const QString& id : { kEmail, kTiers, kGrounded })
        QTest::addRow("%s", qPrintable(id)) << id;
    if (QDir(kDatasetsDir + kOrderbench).exists())
        QTest::addRow("%s", qPrintable(kOrderbench)) << kOrderbench;
}

void TestDatasets::loadsAndPreflights()
{
    QFETCH(QString, suiteId);
    const SuiteLoadResult& result = loadResult(suiteId);
    QVERIFY2(result.ok(), qPrintable(u"load problems:\n"_s + describe(result.problems)));
    QVERIFY2(result.problems.isEmpty(), qPrintable(u"load warnings:\n"_s + describe(result.problems)));
    QCOMPARE(result.suite->id, suiteId);
    QVERIFY(!result.suite->cases.isEmpty());
    const Problems problems = preflightSuite(*result.suite);
    QVERIFY2(problems.isEmpty(), qPrintable(u"pre-flight problems:\n"_s + describe(problems)));
}

void TestDatasets::readmeStatesWhatItHolds_data()
{
    QTest::addColumn<QString>("suiteId");
    for (const QString& id : { kEmail, kTiers, kGrounded })
        QTest::addRow("%s", qPrintable(id)) << id;
}

void TestDatasets::readmeStatesWhatItHolds()
{
    QFETCH(QString, suiteId);
    const SuitePtr suite = builtIn(suiteId);
    QVERIFY2(suite, qPrintable(describe(loadResult(suiteId).problems)));
    const QString readme = readText(kDatasetsDir + suiteId + u"/README.md"_s);
    QVERIFY2(!readme.isEmpty(), "README.md is missing or empty");
    QStringList failures;

    // What it measures: the introduction before the first section.
    QVERIFY(readme.startsWith(u"# "_s));
    const qsizetype firstSection = readme.indexOf(u"\n## "_s);
    const QString intro = readme.mid(readme.indexOf(u'\n'), firstSection - readme.indexOf(u'\n')).trimmed();
    if (intro.size() < 200)
        failures << u"the introduction (what the suite measures) is missing or very short"_s;
    if (readmeSection(readme, u"How it was made"_s).trimmed().size() < 100)
        failures << u"no \"## How it was made\" section with content"_s;
    const QString licence = readmeSection(readme, u"Licen[cs]e"_s);
    const QString spdx = suite->license.section(QRegularExpression(u"[,; ]"_s), 0, 0);
    if (spdx.isEmpty())
        failures << u"suite.json names no licence"_s;
    else if (!licence.contains(spdx))
        failures << u"the \"## Licence\" section does not name the licence of suite.json (%1)"_s.arg(spdx);

    // The category table: a row per category whose counts match the cases.
    std::map<QString, CategoryStats> stats;
    CategoryStats all;
    std::set<QString> tiers;
    for (const SuiteCase& c : suite->cases) {
        const LeafCounts counts = countLeaves(c.gold);
        const bool hasNull = counts.leaves > counts.nonNullLeaves;
        for (CategoryStats* s : { &stats[c.category], &all }) {
            ++s->cases;
            ++s->byTier[c.tier];
            s->goldLeaves += counts.leaves;
            s->casesWithNull += hasNull ? 1 : 0;
        }
        tiers.insert(c.tier);
    }
    const MarkdownTable* table = nullptr;
    const QList<MarkdownTable> tables = markdownTables(readme);
    for (const MarkdownTable& t : tables) {
        const bool hasTotal = std::any_of(t.header.cbegin(), t.header.cend(),
            [](const QString& h) { return plainCell(h).compare(u"total"_s, Qt::CaseInsensitive) == 0; });
        if (!t.header.isEmpty() && plainCell(t.header.first()).toLower() == u"category" && hasTotal) {
            table = &t;
            break;
        }
    }
    QVERIFY2(table, "no table with a \"category\" and a \"total\" column");
    auto checkRow = [&](const QStringList& row, const CategoryStats& expected, const QString& label) {
        for (qsizetype j = 1; j < table->header.size(); ++j) {
            const QString column = plainCell(table->header[j]).toLower();
            int want = -1;
            if (column == u"total")
                want = expected.cases;
            else if (tiers.count(column))
                want = expected.byTier.count(column) ? expected.byTier.at(column) : 0;
            else if (column == u"gold leaves")
                want = expected.goldLeaves;
            else if (column.startsWith(u"cases with") && column.contains(u"null"))
                want = expected.casesWithNull;
            else
                continue;
            const int stated = leadingInt(row.value(j));
            if (stated != want)
                failures << u"README row \"%1\", column \"%2\": states %3, the cases give %4"_s.arg(
                    label, column, row.value(j), QString::number(want));
        }
    };
    for (const QString& category : suite->categories) {
        const auto row = std::find_if(table->rows.cbegin(), table->rows.cend(),
            [&](const QStringList& r) { return !r.isEmpty() && plainCell(r.first()) == category; });
        if (row == table->rows.cend())
            failures << u"the category table has no row for \"%1\""_s.arg(category);
        else
            checkRow(*row, stats[category], category);
    }
    bool totalRow = false;
    for (const QStringList& row : table->rows) {
        const QString label = plainCell(row.value(0));
        if (label.toLower() == u"total" || label.toLower() == u"all") {
            totalRow = true;
            checkRow(row, all, label);
        } else if (!suite->categories.contains(label)) {
            failures << u"the category table has a row for \"%1\", which is not a category of the suite"_s.arg(label);
        }
    }
    if (!totalRow)
        failures << u"the category table has no total row"_s;
    VERIFY_NO_FAILURES(failures);
}

void TestDatasets::emailSuiteShape()
{
    const SuitePtr suite = builtIn(kEmail);
    QVERIFY2(suite, qPrintable(describe(loadResult(kEmail).problems)));
    const std::map<QString, QString> prefixes
        = { { u"support_ticket"_s, u"st"_s }, { u"sick_leave"_s, u"sl"_s }, { u"project_extension"_s, u"pe"_s },
              { u"conference_registration"_s, u"cr"_s }, { u"equipment_loan"_s, u"el"_s } };
    QStringList failures;
    QCOMPARE(suite->categories.size(), 5);
    for (const QString& category : suite->categories) {
        if (!prefixes.count(category))
            failures << u"unexpected use case \"%1\""_s.arg(category);
        if (!suite->schemas.count(category))
            failures << u"no schema named like the use case \"%1\""_s.arg(category);
        if (!suite->examples.count(category))
            failures << u"no example pair for the schema \"%1\""_s.arg(category);
    }
    if (suite->schemas.size() != 5 || suite->examples.size() != 5)
        failures << u"expected 5 schemas and 5 examples, found %1 and %2"_s.arg(suite->schemas.size())
                        .arg(suite->examples.size());

    static const QStringList tierOrder = { u"easy"_s, u"medium"_s, u"hard"_s };
    std::map<QString, int> perCategory;
    std::map<QString, int> lastTier;
    std::set<QString> inputs;
    for (const SuiteCase& c : suite->cases) {
        const int n = ++perCategory[c.category];
        const QString wantedId
            = u"%1-%2"_s.arg(prefixes.count(c.category) ? prefixes.at(c.category) : u"??"_s).arg(n, 3, 10, QChar(u'0'));
        if (c.id != wantedId)
            failures << u"%1: expected id %2 (ids run per use case)"_s.arg(c.id, wantedId);
        if (suite->schemaNameFor(c) != c.category)
            failures << u"%1: schema \"%2\" is not its use case \"%3\""_s.arg(
                c.id, suite->schemaNameFor(c), c.category);
        const int tier = int(tierOrder.indexOf(c.tier));
        if (tier < 0)
            failures << u"%1: tier \"%2\" is not easy, medium or hard"_s.arg(c.id, c.tier);
        else if (tier < lastTier[c.category])
            failures << u"%1: tier %2 after a harder case (README: ordered easy, medium, hard)"_s.arg(c.id, c.tier);
        lastTier[c.category] = std::max(lastTier[c.category], tier);
        inputs.insert(c.input);
    }
    for (const auto& [category, n] : perCategory) {
        if (n < 40)
            failures << u"%1 has %2 messages, fewer than 40"_s.arg(category).arg(n);
    }
    for (const auto& [schema, example] : suite->examples) {
        if (inputs.count(example.input))
            failures << u"the example of %1 is also a case"_s.arg(schema);
    }
    // "Gold null appears 130 times over 1,640 gold leaves (100 of the 200 cases contain at least one)".
    const QString readme = readText(kDatasetsDir + kEmail + u"/README.md"_s);
    const QRegularExpressionMatch m = QRegularExpression(
        u"null`\\s+appears\\s+(\\d+)\\s+times\\s+over\\s+([\\d,]+)\\s+gold\\s+leaves\\s+\\((\\d+)\\s+of\\s+the\\s+(\\d+)\\s+cases"_s)
                                          .match(readme);
    QVERIFY2(m.hasMatch(), "README no longer states the null count");
    int nulls = 0, leaves = 0, withNull = 0;
    for (const SuiteCase& c : suite->cases) {
        const LeafCounts counts = countLeaves(c.gold);
        nulls += counts.leaves - counts.nonNullLeaves;
        leaves += counts.leaves;
        withNull += counts.leaves > counts.nonNullLeaves ? 1 : 0;
    }
    const QList<int> stated
        = { m.captured(1).toInt(), m.captured(2).remove(u',').toInt(), m.captured(3).toInt(), m.captured(4).toInt() };
    const QList<int> actual = { nulls, leaves, withNull, int(suite->cases.size()) };
    if (stated != actual)
        failures << u"README null statistics (nulls, leaves, cases with null, cases) say %1, the gold gives %2"_s.arg(
            m.captured(0), u"%1, %2, %3, %4"_s.arg(nulls).arg(leaves).arg(withNull).arg(suite->cases.size()));
    VERIFY_NO_FAILURES(failures);
}

void TestDatasets::emailGoldIsCopiedAndDated_data()
{
    addCaseRows(kEmail);
    // The example pairs follow the same rules; a row each, named after the schema.
    if (const SuitePtr suite = builtIn(kEmail)) {
        for (const auto& [schema, example] : suite->examples)
            QTest::addRow("example %s", qPrintable(schema)) << kEmail << u"example:"_s + schema;
    }
}

void TestDatasets::emailGoldIsCopiedAndDated()
{
    QFETCH(QString, suiteId);
    QFETCH(QString, caseId);
    const SuitePtr suite = builtIn(suiteId);
    QVERIFY2(suite, qPrintable(describe(loadResult(suiteId).problems)));
    QString input;
    json gold;
    const json* schema = nullptr;
    if (caseId.startsWith(u"example:")) {
        const QString name = caseId.mid(8);
        input = suite->examples.at(name).input;
        gold = suite->examples.at(name).output;
        schema = &suite->schemas.at(name);
    } else {
        const SuiteCase* c = suite->findCase(caseId);
        QVERIFY2(c, qPrintable(u"no case "_s + caseId));
        input = c->input;
        gold = c->gold;
        schema = suite->schemaFor(*c);
    }
    QVERIFY(schema);
    QStringList failures;
    std::map<QString, QDate> dates;
    static const QRegularExpression ddmmyyyy(u"^\\d{2}\\.\\d{2}\\.\\d{4}$"_s);
    for (const GoldLeaf& leaf : goldLeaves(gold, schema)) {
        if (!leaf.schema) {
            failures << leaf.path + u": no schema node"_s;
            continue;
        }
        if (!leaf.value->is_string())
            continue;
        const QString value = qs(leaf.value->get<std::string>());
        if (patternOf(leaf.schema) == kDdMmYyyyPattern) {
            const QDate date = QDate::fromString(value, u"dd.MM.yyyy"_s);
            if (!ddmmyyyy.match(value).hasMatch() || !date.isValid())
                failures << u"%1 = \"%2\": not a DD.MM.YYYY calendar date"_s.arg(leaf.path, value);
            dates[leaf.path] = date;
        } else if (isNameField(leaf.field) && startsWithTitle(value)) {
            failures << u"%1 = \"%2\": a title is not part of a name (README)"_s.arg(leaf.path, value);
        } else if (!isEnum(leaf.schema) && !input.contains(value)) {
            // README: "every non-enum, non-date gold string occurs in its email"; strings are
            // "copied as written", so the check is case-sensitive.
            failures << u"%1 = \"%2\": not in the email%3"_s.arg(leaf.path, value,
                input.contains(value, Qt::CaseInsensitive) ? u" (only in another letter case)"_s : QString());
        }
    }
    // README: "numeric dates are always DD.MM.YYYY or written out with the month name".
    static const QRegularExpression numericDate(u"(?<![\\d.])\\d{1,4}[./-]\\d{1,2}[./-]\\d{2,4}(?![\\d]|[./-]\\d)"_s);
    for (auto it = numericDate.globalMatch(input); it.hasNext();) {
        const QString written = it.next().captured(0);
        if (!ddmmyyyy.match(written).hasMatch() || !QDate::fromString(written, u"dd.MM.yyyy"_s).isValid())
            failures << u"the email writes the date \"%1\", which is not a DD.MM.YYYY calendar date"_s.arg(written);
    }
    // Ranges run forwards; an extension moves a deadline later.
    auto notBefore = [&](const QString& from, const QString& to) {
        if (dates.count(from) && dates.count(to) && dates[to] < dates[from])
            failures << u"%1 (%2) is before %3 (%4)"_s.arg(
                to, dates[to].toString(u"dd.MM.yyyy"_s), from, dates[from].toString(u"dd.MM.yyyy"_s));
    };
    notBefore(u"absence.period.first_day"_s, u"absence.period.last_day"_s);
    notBefore(u"conference.attendance.first_day"_s, u"conference.attendance.last_day"_s);
    if (dates.count(u"project.deadline.current"_s) && dates.count(u"project.deadline.requested"_s)
        && dates[u"project.deadline.requested"_s] <= dates[u"project.deadline.current"_s])
        failures << u"project.deadline.requested is not after project.deadline.current"_s;
    if (gold.contains("items") && gold["items"].is_array()) {
        std::set<std::string> kinds;
        for (std::size_t i = 0; i < gold["items"].size(); ++i) {
            notBefore(u"items[%1].period.from"_s.arg(i), u"items[%1].period.to"_s.arg(i));
            const json& item = gold["items"][i];
            if (item.contains("item") && !kinds.insert(item["item"].dump()).second)
                failures << u"items[%1]: a second entry for %2 (README: one entry per kind of equipment)"_s.arg(i).arg(
                    quoted(item["item"]));
        }
    }
    VERIFY_NO_FAILURES(failures);
}

void TestDatasets::emailSchemasMatchReadme()
{
    const SuitePtr suite = builtIn(kEmail);
    QVERIFY2(suite, qPrintable(describe(loadResult(kEmail).problems)));
    const QString readme = readText(kDatasetsDir + kEmail + u"/README.md"_s);
    const QList<MarkdownTable> tables = markdownTables(readme);
    const auto table = std::find_if(tables.cbegin(), tables.cend(),
        [](const MarkdownTable& t) { return t.header.size() >= 4 && plainCell(t.header[2]) == u"leaf keys"; });
    QVERIFY2(table != tables.cend(), "README has no table of leaf keys and depth");
    QStringList failures;
    for (const auto& [name, schema] : suite->schemas) {
        const QString& schemaName = name; // clang 14 cannot capture a structured binding in a lambda (C++20 can)
        const auto row = std::find_if(table->rows.cbegin(), table->rows.cend(),
            [&](const QStringList& r) { return plainCell(r.value(0)) == schemaName; });
        if (row == table->rows.cend()) {
            failures << u"no README row for %1"_s.arg(name);
            continue;
        }
        if (leadingInt(row->value(2)) != schemaLeafKeys(schema))
            failures << u"%1: README says %2 leaf keys, the schema has %3"_s.arg(name, row->value(2))
                            .arg(schemaLeafKeys(schema));
        if (leadingInt(row->value(3)) != schemaDepth(schema))
            failures
                << u"%1: README says depth %2, the schema has %3"_s.arg(name, row->value(3)).arg(schemaDepth(schema));
    }
    // "equipment `item` (12 kinds)".
    const QRegularExpressionMatch kinds = QRegularExpression(u"equipment `item` \\((\\d+) kinds\\)"_s).match(readme);
    const json* itemEnum = member(schemaNodeAt(suite->schemas.at(u"equipment_loan"_s), "/items/0/item"), "enum");
    QVERIFY2(kinds.hasMatch() && itemEnum, "README or schema no longer name the equipment kinds");
    if (kinds.captured(1).toInt() != int(itemEnum->size()))
        failures
            << u"README says %1 kinds of equipment, the schema has %2"_s.arg(kinds.captured(1)).arg(itemEnum->size());
    VERIFY_NO_FAILURES(failures);
}

void TestDatasets::schemasAreClosed_data()
{
    QTest::addColumn<QString>("suiteId");
    QTest::addColumn<QString>("schemaName");
    for (const QString& id : { kEmail, kTiers }) {
        const SuitePtr suite = builtIn(id);
        if (!suite)
            QTest::addRow("%s: does not load", qPrintable(id)) << id << QString();
        for (const auto& [name, schema] : suite ? suite->schemas : std::map<QString, json>())
            QTest::addRow("%s/%s", qPrintable(id), qPrintable(name)) << id << name;
    }
}

void TestDatasets::schemasAreClosed()
{
    QFETCH(QString, suiteId);
    QFETCH(QString, schemaName);
    const SuitePtr suite = builtIn(suiteId);
    QVERIFY2(suite && suite->schemas.count(schemaName), qPrintable(describe(loadResult(suiteId).problems)));
    // Both READMEs: every object requires all its keys and sets additionalProperties: false;
    // schema-tiers adds that every array schema says it is "in the order" listed, mentioned, written….
    static const QRegularExpression inTheOrder(u"\\bin the order\\b"_s);
    QStringList failures;
    checkClosedObjects(suite->schemas.at(schemaName), u"#"_s, failures, suiteId == kTiers ? &inTheOrder : nullptr);
    VERIFY_NO_FAILURES(failures);
}

void TestDatasets::optionsMatchReadme_data()
{
    QTest::addColumn<QString>("suiteId");
    QTest::addColumn<bool>("validateFormats");
    // Every README says arrays are matched in order; email and schema-tiers say formats are checked.
    QTest::addRow("%s", qPrintable(kEmail)) << kEmail << true;
    QTest::addRow("%s", qPrintable(kTiers)) << kTiers << true;
    QTest::addRow("%s", qPrintable(kGrounded)) << kGrounded << false;
}

void TestDatasets::optionsMatchReadme()
{
    QFETCH(QString, suiteId);
    QFETCH(bool, validateFormats);
    const SuitePtr suite = builtIn(suiteId);
    QVERIFY2(suite, qPrintable(describe(loadResult(suiteId).problems)));
    const json matching = suite->options.value("array_matching", json());
    QVERIFY2(matching == json("ordered"), qPrintable(u"array_matching is "_s + quoted(matching)));
    const json formats = suite->options.value("validate_formats", json());
    if (validateFormats)
        QVERIFY2(formats == json(true), qPrintable(u"validate_formats is "_s + quoted(formats)));
}

void TestDatasets::emailWeekdaysMatchTheCalendar()
{
    const SuitePtr suite = builtIn(kEmail);
    QVERIFY2(suite, qPrintable(describe(loadResult(kEmail).problems)));
    QStringList failures;
    int checked = 0;
    for (const SuiteCase& c : suite->cases) {
        for (const QString& m : weekdayMismatches(c.input, &checked))
            failures << c.id + u": "_s + m;
    }
    VERIFY_NO_FAILURES(failures);
    QVERIFY2(checked >= 50, qPrintable(u"only %1 weekday mentions recognised"_s.arg(checked)));
}

void TestDatasets::tiersSuiteShape()
{
    const SuitePtr suite = builtIn(kTiers);
    QVERIFY2(suite, qPrintable(describe(loadResult(kTiers).problems)));
    const QStringList kinds = { u"invoice"_s, u"ticket"_s, u"crm_note"_s, u"shipping"_s, u"contact_card"_s };
    QCOMPARE(suite->categories, kinds);
    QStringList failures;
    std::map<QString, int> perTier;
    std::map<std::pair<QString, QString>, int> perCell;
    int index = 0;
    for (const SuiteCase& c : suite->cases) {
        ++index;
        ++perTier[c.tier];
        ++perCell[{ c.tier, c.category }];
        if (c.id != u"st-%1"_s.arg(index, 3, 10, QChar(u'0')))
            failures << u"%1: expected id st-%2"_s.arg(c.id).arg(index, 3, 10, QChar(u'0'));
        if (suite->schemaNameFor(c) != c.tier + u'_' + c.category)
            failures << u"%1: schema \"%2\" is not %3_%4"_s.arg(c.id, suite->schemaNameFor(c), c.tier, c.category);
        // Ordered by tier, then by kind, three cases per cell.
        const int wantedTier = (index - 1) / 15 + 1;
        const QString wantedKind = kinds.value(((index - 1) % 15) / 3);
        if (c.tier != u"t%1"_s.arg(wantedTier) || c.category != wantedKind)
            failures << u"%1: is %2/%3, expected t%4/%5 (ordered by tier then kind)"_s.arg(c.id, c.tier, c.category)
                            .arg(wantedTier)
                            .arg(wantedKind);
        if (!c.extra.contains("traps") || !c.extra["traps"].is_array())
            failures << c.id + u": no \"traps\" list"_s;
        if ((c.tier == u"t5") != c.extra.contains("null_reasons"))
            failures << c.id + u": \"null_reasons\" must be present exactly in tier 5"_s;
    }
    for (int t = 1; t <= 5; ++t) {
        const QString tier = u"t%1"_s.arg(t);
        if (perTier[tier] != 15)
            failures << u"%1 has %2 cases, not 15"_s.arg(tier).arg(perTier[tier]);
        for (const QString& kind : kinds) {
            if (perCell[{ tier, kind }] != 3)
                failures << u"(%1, %2) has %3 cases, not 3"_s.arg(tier, kind).arg(perCell[{ tier, kind }]);
            if (!suite->schemas.count(tier + u'_' + kind))
                failures << u"no schema %1_%2"_s.arg(tier, kind);
        }
    }
    if (perTier.size() != 5 || suite->schemas.size() != 25)
        failures << u"expected tiers t1..t5 and 25 schemas, found %1 tiers and %2 schemas"_s.arg(perTier.size())
                        .arg(suite->schemas.size());
    // One worked example per tier-1 schema, none of them a case.
    for (const QString& kind : kinds) {
        const QString name = u"t1_"_s + kind;
        if (!suite->examples.count(name))
            failures << u"no example for %1"_s.arg(name);
        else if (std::any_of(suite->cases.cbegin(), suite->cases.cend(),
                     [&](const SuiteCase& c) { return c.input == suite->examples.at(name).input; }))
            failures << u"the example of %1 is also a case"_s.arg(name);
    }
    if (suite->examples.size() != 5)
        failures << u"%1 examples, expected one per tier-1 schema"_s.arg(suite->examples.size());
    VERIFY_NO_FAILURES(failures);
}

void TestDatasets::tiersGoldIsGrounded_data()
{
    addCaseRows(kTiers);
    if (const SuitePtr suite = builtIn(kTiers)) {
        for (const auto& [schema, example] : suite->examples)
            QTest::addRow("example %s", qPrintable(schema)) << kTiers << u"example:"_s + schema;
    }
}

void TestDatasets::tiersGoldIsGrounded()
{
    QFETCH(QString, suiteId);
    QFETCH(QString, caseId);
    const SuitePtr suite = builtIn(suiteId);
    QVERIFY2(suite, qPrintable(describe(loadResult(suiteId).problems)));
    QString input;
    json gold;
    const json* schema = nullptr;
    if (caseId.startsWith(u"example:")) {
        const QString name = caseId.mid(8);
        input = suite->examples.at(name).input;
        gold = suite->examples.at(name).output;
        schema = &suite->schemas.at(name);
    } else {
        const SuiteCase* c = suite->findCase(caseId);
        QVERIFY2(c, qPrintable(u"no case "_s + caseId));
        input = c->input;
        gold = c->gold;
        schema = suite->schemaFor(*c);
    }
    QVERIFY(schema);
    static const QStringList numberWords = { u"zero"_s, u"one"_s, u"two"_s, u"three"_s, u"four"_s, u"five"_s, u"six"_s,
        u"seven"_s, u"eight"_s, u"nine"_s, u"ten"_s, u"eleven"_s, u"twelve"_s };
    QStringList failures;
    for (const GoldLeaf& leaf : goldLeaves(gold, schema)) {
        const json& v = *leaf.value;
        if (!leaf.schema) {
            failures << leaf.path + u": no schema node"_s;
            continue;
        }
        if (v.is_string()) {
            const QString value = qs(v.get<std::string>());
            const QString pattern = patternOf(leaf.schema);
            if (hasFormat(leaf.schema, "date")) {
                const QDate date = QDate::fromString(value, Qt::ISODate);
                if (value.size() != 10 || !date.isValid())
                    failures << u"%1 = \"%2\": not an ISO 8601 calendar date"_s.arg(leaf.path, value);
                else if (!writesDate(input, date))
                    failures << u"%1 = \"%2\": the text writes this date in none of the accepted styles (ISO, "
                                u"\"4 March 2024\", \"4 Mar 2024\", \"March 4, 2024\", DD.MM.YYYY with a day "
                                u"above 12)"_s.arg(leaf.path, value);
            } else if (pattern == kE164Pattern) {
                if (!writesE164(input, value))
                    failures << u"%1 = \"%2\": no phone number in the text has these digits"_s.arg(leaf.path, value);
            } else if (pattern == kCountryCodePattern) {
                const auto it = countryNames().find(value);
                if (it == countryNames().end())
                    failures << u"%1 = \"%2\": country code unknown to this test; add its names"_s.arg(
                        leaf.path, value);
                else if (!containsWord(input, value)
                    && std::none_of(it->second.cbegin(), it->second.cend(),
                        [&](const QString& name) { return containsWord(input, name); }))
                    failures << u"%1 = \"%2\": the text names no such country (%3)"_s.arg(
                        leaf.path, value, it->second.join(u", "_s));
            } else if (isEnum(leaf.schema)) {
                if (leaf.field == u"currency") {
                    const auto it = currencyMarks().find(value);
                    if (it == currencyMarks().end())
                        failures << u"%1 = \"%2\": currency unknown to this test; add its marks"_s.arg(
                            leaf.path, value);
                    else if (!input.contains(value)
                        && std::none_of(it->second.cbegin(), it->second.cend(),
                            [&](const QString& mark) { return input.contains(mark, Qt::CaseInsensitive); }))
                        failures << u"%1 = \"%2\": the text writes no such currency"_s.arg(leaf.path, value);
                }
            } else if (value.startsWith(u'#')) {
                failures << u"%1 = \"%2\": identifiers are copied without a leading '#' (README)"_s.arg(
                    leaf.path, value);
            } else if (isNameField(leaf.field) && startsWithTitle(value)) {
                failures << u"%1 = \"%2\": titles are not name parts (README)"_s.arg(leaf.path, value);
            } else if (!input.contains(value)) {
                // README: "Non-null gold strings appear verbatim in the input except where the schema asks
                // for normalisation" (dates, enums, country codes, E.164).
                failures << u"%1 = \"%2\": not verbatim in the text"_s.arg(leaf.path, value);
            }
        } else if (v.is_number()) {
            const double value = v.get<double>();
            const QList<double> written = numeralValues(input);
            bool found = std::any_of(written.cbegin(), written.cend(), [&](double w) { return sameNumber(w, value); });
            // "units are converted only where the field name says so (weight_kg)": grams count there.
            if (!found && leaf.field.endsWith(u"weight_kg"))
                found = std::any_of(
                    written.cbegin(), written.cend(), [&](double w) { return sameNumber(w, value * 1000); });
            // Trap `number_in_words`: a count written in words.
            if (!found && v.is_number_integer() && value >= 0 && value < numberWords.size())
                found = containsWord(input.toLower(), numberWords[int(value)]);
            if (!found)
                failures << u"%1 = %2: no numeral of the text has this value"_s.arg(leaf.path, quoted(v));
        }
    }
    VERIFY_NO_FAILURES(failures);
}

void TestDatasets::tiersNullsMatchReadme()
{
    const SuitePtr suite = builtIn(kTiers);
    QVERIFY2(suite, qPrintable(describe(loadResult(kTiers).problems)));
    const QString readme = readText(kDatasetsDir + kTiers + u"/README.md"_s);
    QStringList failures;

    // "## Nulls in tiers 1–4": "- st-001 (t1_invoice): `purchase_order`".
    std::map<QString, std::set<QString>> listed;
    std::map<QString, QString> listedSchema;
    static const QRegularExpression listLine(
        u"^- (st-\\d{3}) \\((t\\d_\\w+)\\): (.*)$"_s, QRegularExpression::MultilineOption);
    static const QRegularExpression backticked(u"`([^`]+)`"_s);
    for (auto it = listLine.globalMatch(readme); it.hasNext();) {
        const auto m = it.next();
        listedSchema[m.captured(1)] = m.captured(2);
        for (auto f = backticked.globalMatch(m.captured(3)); f.hasNext();)
            listed[m.captured(1)].insert(f.next().captured(1));
    }
    // "## Why each tier-5 null is null": "| st-061 | `customer_vat_id` | reason |".
    std::map<QString, std::map<QString, QString>> reasons;
    static const QRegularExpression reasonRow(
        u"^\\| (st-\\d{3}) \\| `([^`]+)` \\| (.*) \\|$"_s, QRegularExpression::MultilineOption);
    for (auto it = reasonRow.globalMatch(readme); it.hasNext();) {
        const auto m = it.next();
        reasons[m.captured(1)][m.captured(2)] = m.captured(3);
    }
    QVERIFY2(!listed.empty() && !reasons.empty(), "README null lists not found");

    int nulls = 0, tier5Nulls = 0, tier5Nullable = 0;
    for (const SuiteCase& c : suite->cases) {
        std::set<QString> nullPaths;
        int nullable = 0;
        for (const GoldLeaf& leaf : goldLeaves(c.gold, suite->schemaFor(c))) {
            if (leaf.value->is_null())
                nullPaths.insert(leaf.path);
            if (allowsNull(leaf.schema))
                ++nullable;
        }
        nulls += int(nullPaths.size());
        const auto join = [](const std::set<QString>& s) { return QStringList(s.cbegin(), s.cend()).join(u", "_s); };
        if (c.tier != u"t5") {
            const std::set<QString> stated = listed.count(c.id) ? listed[c.id] : std::set<QString>();
            if (stated != nullPaths)
                failures << u"%1: README lists nulls {%2}, gold has {%3}"_s.arg(c.id, join(stated), join(nullPaths));
            if (listed.count(c.id) && listedSchema[c.id] != suite->schemaNameFor(c))
                failures << u"%1: README names schema %2"_s.arg(c.id, listedSchema[c.id]);
            continue;
        }
        tier5Nulls += int(nullPaths.size());
        tier5Nullable += nullable;
        if (2 * int(nullPaths.size()) < nullable)
            failures << u"%1: %2 of %3 nullable leaves are null, fewer than half"_s.arg(c.id)
                            .arg(nullPaths.size())
                            .arg(nullable);
        std::map<QString, QString> inCase;
        const json reasonsJson = c.extra.value("null_reasons", json::object());
        for (const auto& [path, reason] : reasonsJson.items())
            inCase[qs(path)] = reason.is_string() ? qs(reason.get<std::string>()) : quoted(reason);
        std::set<QString> reasonPaths;
        for (const auto& [path, reason] : inCase)
            reasonPaths.insert(path);
        if (reasonPaths != nullPaths)
            failures << u"%1: null_reasons names {%2}, gold nulls are {%3}"_s.arg(
                c.id, join(reasonPaths), join(nullPaths));
        if (reasons[c.id] != inCase)
            failures << u"%1: the README table of null reasons differs from the case's null_reasons"_s.arg(c.id);
    }
    for (const auto& [id, fields] : listed) {
        if (!suite->findCase(id))
            failures << u"README lists nulls of %1, which is no case"_s.arg(id);
    }
    // "Gold null leaves across the suite: 166 (tier 5: 80)" and "80 of 121 (66%)".
    const QRegularExpressionMatch total
        = QRegularExpression(u"Gold null leaves across the suite: (\\d+) \\(tier 5: (\\d+)\\)"_s).match(readme);
    const QRegularExpressionMatch share
        = QRegularExpression(u"null in gold: (\\d+) of (\\d+) \\((\\d+)%\\)"_s).match(readme);
    QVERIFY2(total.hasMatch() && share.hasMatch(), "README null counts not found");
    if (total.captured(1).toInt() != nulls || total.captured(2).toInt() != tier5Nulls)
        failures << u"README: \"%1\"; the gold has %2 (tier 5: %3)"_s.arg(total.captured(0)).arg(nulls).arg(tier5Nulls);
    if (share.captured(1).toInt() != tier5Nulls || share.captured(2).toInt() != tier5Nullable
        || share.captured(3).toInt() != 100 * tier5Nulls / std::max(1, tier5Nullable))
        failures
            << u"README: \"%1\"; the gold has %2 of %3"_s.arg(share.captured(0)).arg(tier5Nulls).arg(tier5Nullable);
    VERIFY_NO_FAILURES(failures);
}

void TestDatasets::tiersTrapsMatchReadme()
{
    const SuitePtr suite = builtIn(kTiers);
    QVERIFY2(suite, qPrintable(describe(loadResult(kTiers).problems)));
    const QString readme = readText(kDatasetsDir + kTiers + u"/README.md"_s);
    std::map<QString, std::set<QString>> stated;
    static const QRegularExpression row(
        u"^\\|\\s*`([a-z0-9_]+)`\\s*\\|.*\\|\\s*((?:st-\\d{3}(?:,\\s*)?)+)\\s*\\|\\s*$"_s,
        QRegularExpression::MultilineOption);
    static const QRegularExpression id(u"st-\\d{3}"_s);
    for (auto it = row.globalMatch(readme); it.hasNext();) {
        const auto m = it.next();
        for (auto i = id.globalMatch(m.captured(2)); i.hasNext();)
            stated[m.captured(1)].insert(i.next().captured(0));
    }
    std::map<QString, std::set<QString>> actual;
    for (const SuiteCase& c : suite->cases) {
        for (const json& trap : c.extra.value("traps", json::array()))
            actual[trap.is_string() ? qs(trap.get<std::string>()) : quoted(trap)].insert(c.id);
    }
    QStringList failures;
    std::set<QString> tags;
    for (const auto& [tag, ids] : stated)
        tags.insert(tag);
    for (const auto& [tag, ids] : actual)
        tags.insert(tag);
    for (const QString& tag : tags) {
        const std::set<QString> a = stated.count(tag) ? stated[tag] : std::set<QString>();
        const std::set<QString> b = actual.count(tag) ? actual[tag] : std::set<QString>();
        if (a != b)
            failures << u"trap %1: README lists {%2}, cases carry it in {%3}"_s.arg(
                tag, QStringList(a.cbegin(), a.cend()).join(u", "_s), QStringList(b.cbegin(), b.cend()).join(u", "_s));
    }
    QVERIFY(tags.size() >= 20);
    VERIFY_NO_FAILURES(failures);
}

void TestDatasets::tier5NullsAreSilent_data()
{
    addCaseRows(kTiers, [](const SuiteCase& c) { return c.tier == u"t5"; });
}

void TestDatasets::tier5NullsAreSilent()
{
    FETCH_CASE(suite, c);
    const QList<GoldLeaf> leaves = goldLeaves(c->gold, suite->schemaFor(*c));
    const QString masked = maskValues(c->input, nonNullGoldStrings(leaves));
    QStringList failures;
    int nulls = 0;
    for (const GoldLeaf& leaf : leaves) {
        if (!leaf.value->is_null())
            continue;
        ++nulls;
        const QString violation = silenceViolation(leaf.field, masked);
        if (!violation.isEmpty())
            failures << u"%1 = null, but the text has %2 (null_reasons: %3)"_s.arg(leaf.path, violation,
                quoted(c->extra.value("null_reasons", json::object()).value(leaf.path.toStdString(), json())));
    }
    QVERIFY2(nulls > 0, "a tier-5 case without null gold");
    VERIFY_NO_FAILURES(failures);
}

void TestDatasets::groundedSuiteShape()
{
    const SuitePtr suite = builtIn(kGrounded);
    QVERIFY2(suite, qPrintable(describe(loadResult(kGrounded).problems)));
    QCOMPARE(suite->categories, (QStringList { u"text"_s, u"ocr"_s, u"transcript"_s }));
    QVERIFY2(suite->cases.size() >= 60, qPrintable(u"%1 records"_s.arg(suite->cases.size())));
    QVERIFY2(suite->examples.empty(), "grounded has no examples (every case brings its own schema)");
    QStringList failures;
    // "text `gr-001`–`gr-022`, ocr `gr-023`–`gr-044`, transcript `gr-045`–`gr-066`".
    const QString readme = readText(kDatasetsDir + kGrounded + u"/README.md"_s);
    std::map<QString, std::pair<int, int>> ranges;
    static const QRegularExpression range(u"(\\w+) `gr-(\\d{3})`–`gr-(\\d{3})`"_s);
    for (auto it = range.globalMatch(readme); it.hasNext();) {
        const auto m = it.next();
        ranges[m.captured(1)] = { m.captured(2).toInt(), m.captured(3).toInt() };
    }
    QCOMPARE(int(ranges.size()), 3);
    std::map<QString, int> perKind;
    int index = 0;
    for (const SuiteCase& c : suite->cases) {
        ++index;
        ++perKind[c.category];
        if (c.id != u"gr-%1"_s.arg(index, 3, 10, QChar(u'0')))
            failures << u"%1: expected id gr-%2"_s.arg(c.id).arg(index, 3, 10, QChar(u'0'));
        if (c.extra.value("source_kind", json()) != json(c.category.toStdString()))
            failures << u"%1: source_kind %2 is not its category %3"_s.arg(
                c.id, quoted(c.extra.value("source_kind", json())), c.category);
        const auto r = ranges.find(c.category);
        if (r == ranges.end() || index < r->second.first || index > r->second.second)
            failures << u"%1: outside the README's id range for %2"_s.arg(c.id, c.category);
    }
    for (const QString& kind : suite->categories) {
        if (perKind[kind] == 0)
            failures << u"no %1 records"_s.arg(kind);
    }
    VERIFY_NO_FAILURES(failures);
}

void TestDatasets::groundedSchemaPerCase_data()
{
    addCaseRows(kGrounded);
}

void TestDatasets::groundedSchemaPerCase()
{
    FETCH_CASE(suite, c);
    QVERIFY2(c->schemaName.isEmpty() && c->inlineSchema.is_object(), "the case has no inline schema");
    const json& schema = c->inlineSchema;
    QVERIFY2(
        typeIncludes(&schema, "object") && member(&schema, "type")->is_string(), "the schema is not of type object");
    const json* properties = member(&schema, "properties");
    QVERIFY2(properties && properties->is_object(), "the schema has no properties");
    const int count = int(properties->size());
    QVERIFY2(count >= 3, qPrintable(u"%1 properties"_s.arg(count)));
    QStringList failures;
    const bool flat = isFlatSchema(schema);
    if (c->tier == u"medium") {
        if (!flat || count < 5 || count > 13)
            failures << u"medium: expected a flat object of 5-13 properties (scalars, at most arrays of strings); "
                        u"%1 properties, %2"_s.arg(count)
                            .arg(flat ? u"flat"_s : u"nested"_s);
    } else if (c->tier == u"hard") {
        if (flat || count < 3 || count > 11)
            failures << u"hard: expected nested objects or arrays of objects and 3-11 top-level properties; %1 "
                        u"properties, %2"_s.arg(count)
                            .arg(flat ? u"flat"_s : u"nested"_s);
    } else {
        failures << u"tier \"%1\" is not medium or hard"_s.arg(c->tier);
    }
    // README: "Each array's schema `description` says which order is expected (printed order, order
    // read out, order of ownership…)".
    static const QRegularExpression order(
        caseInsensitive(u"\\border\\b|oldest first|newest first|latest first|ascending|descending"_s));
    checkClosedObjects(schema, u"#"_s, failures, &order);
    VERIFY_NO_FAILURES(failures);
}

void TestDatasets::groundedGoldInSource_data()
{
    addCaseRows(kGrounded);
}

void TestDatasets::groundedGoldInSource()
{
    FETCH_CASE(suite, c);
    QStringList failures;
    const QStringList speakers = c->category == u"transcript" ? speakerLabels(c->input) : QStringList();
    int values = 0;
    for (const GoldLeaf& leaf : goldLeaves(c->gold, suite->schemaFor(*c))) {
        const json& v = *leaf.value;
        if (v.is_string()) {
            ++values;
            const QString value = qs(v.get<std::string>());
            // Rule 1: "Every non-null gold string occurs verbatim in input (a case-sensitive substring)".
            if (!c->input.contains(value))
                failures << u"%1 = \"%2\": not verbatim in the source"_s.arg(leaf.path, value);
            // Rule 6: "Owners are the speakers' first names as they appear in the speaker labels." An
            // owner who never speaks cannot have a label; then it is one word, a first name, and no
            // speaker's label may be a longer or shorter form of it.
            if (c->category == u"transcript" && (leaf.field == u"owner" || leaf.field.endsWith(u"_owner"))
                && !speakers.contains(value)) {
                const bool variant = std::any_of(speakers.cbegin(), speakers.cend(),
                    [&](const QString& s) { return value.contains(s) || s.contains(value); });
                if (variant || value.contains(u' '))
                    failures << u"%1 = \"%2\": not a speaker label (%3)"_s.arg(
                        leaf.path, value, speakers.join(u", "_s));
            }
        } else if (v.is_number()) {
            ++values;
            const QString problem = groundedNumberProblem(c->input, v);
            if (!problem.isEmpty())
                failures << u"%1 = %2: %3"_s.arg(leaf.path, quoted(v), problem);
        }
    }
    QVERIFY2(values > 0, "no string or number in the gold");
    VERIFY_NO_FAILURES(failures);
}

void TestDatasets::groundedSourceShape_data()
{
    addCaseRows(kGrounded, [](const SuiteCase& c) { return c.category != u"ocr"; });
}

void TestDatasets::groundedSourceShape()
{
    FETCH_CASE(suite, c);
    QStringList failures;
    if (c->category == u"text") {
        // "3–6 paragraphs of invented prose".
        const QStringList paragraphs
            = c->input.trimmed().split(QRegularExpression(u"\\n\\s*\\n"_s), Qt::SkipEmptyParts);
        if (paragraphs.size() < 3 || paragraphs.size() > 6)
            failures << u"%1 paragraphs, not 3-6"_s.arg(paragraphs.size());
        QVERIFY2(c->question && !c->question->isEmpty(), "a text record has no question");
    } else {
        // "every transcript line has the form [hh:mm:ss] Speaker: …, with timestamps increasing".
        static const QRegularExpression line(u"^\\[(\\d{2}):([0-5]\\d):([0-5]\\d)\\] [^:\\n]+: \\S"_s);
        int previous = -1;
        const QStringList lines = c->input.split(u'\n');
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QRegularExpressionMatch m = line.match(lines[i]);
            if (!m.hasMatch()) {
                failures << u"line %1 is not \"[hh:mm:ss] Speaker: …\": \"%2\""_s.arg(i + 1).arg(lines[i].left(80));
                continue;
            }
            const int seconds = m.captured(1).toInt() * 3600 + m.captured(2).toInt() * 60 + m.captured(3).toInt();
            if (seconds <= previous)
                failures << u"line %1: timestamp does not increase"_s.arg(i + 1);
            previous = seconds;
        }
    }
    VERIFY_NO_FAILURES(failures);
}

QTEST_GUILESS_MAIN(TestDatasets)
#include "tst_datasets.moc"
