// SPDX-License-Identifier: Apache-2.0
#include "demoreport.h"

#include "report/reportformatting.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace structscope::cli {

namespace {

constexpr auto kCss
    = R"(body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:#202020;max-width:1180px;margin:2em auto;padding:0 1em;line-height:1.45}
h1,h2{font-weight:600}h2{margin-top:2em;border-bottom:1px solid #ddd;padding-bottom:.2em}
.table{overflow-x:auto;margin:1em 0}table{border-collapse:collapse;font-size:.86em}
th,td{border:1px solid #d8d8d8;padding:.3em .6em}th,td.r{white-space:nowrap}th{background:#f2f2f2;text-align:left}
td.r,th.r{text-align:right;font-variant-numeric:tabular-nums}tr:nth-child(even) td{background:#fafafa}
figure{margin:1em 0}figure img{max-width:100%;border:1px solid #e4e4e4}figcaption{font-size:.9em;color:#555}
code{background:#f2f2f2;padding:0 .25em;border-radius:3px})";

/// Plain text with `code` spans as HTML.
QString inlineHtml(const QString& text)
{
    const QStringList parts = text.split(u'`');
    QString html;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const QString escaped = parts[i].toHtmlEscaped();
        // An unmatched last backtick stays a backtick.
        if (i % 2 == 1 && i + 1 == parts.size())
            html += u'`' + escaped;
        else
            html += i % 2 == 1 ? u"<code>"_s + escaped + u"</code>"_s : escaped;
    }
    return html;
}

/// A cell's text with the entities markdownCell() writes (&lt; &gt; &amp;) turned back into characters.
QString decodeCellEntities(const QString& cell)
{
    if (!cell.contains(u'&'))
        return cell;
    QString out;
    out.reserve(cell.size());
    for (qsizetype i = 0; i < cell.size(); ++i) {
        const QStringView rest = QStringView(cell).mid(i);
        if (rest.startsWith(u"&lt;")) {
            out += u'<';
            i += 3;
        } else if (rest.startsWith(u"&gt;")) {
            out += u'>';
            i += 3;
        } else if (rest.startsWith(u"&amp;")) {
            out += u'&';
            i += 4;
        } else {
            out += cell[i];
        }
    }
    return out;
}

/// The cells of one pipe-table row, unescaped; nullopt-like empty list when it is not a row.
QStringList splitRow(const QString& line)
{
    const QString row = line.trimmed();
    if (!row.startsWith(u'|') || !row.endsWith(u'|') || row.size() < 2)
        return {};
    QStringList cells;
    QString cell;
    for (qsizetype i = 1; i < row.size(); ++i) {
        const QChar c = row[i];
        if (c == u'\\' && i + 1 < row.size() && (row[i + 1] == u'|' || row[i + 1] == u'\\')) {
            cell += row[++i];
        } else if (c == u'|') {
            cells << decodeCellEntities(cell.trimmed());
            cell.clear();
        } else {
            cell += c;
        }
    }
    return cells;
}

} // namespace

QString ReportDocument::marker()
{
    return u"<!-- written by structscope demo -->"_s;
}

QString ReportDocument::toMarkdown() const
{
    QString md = marker() + u"\n# "_s + title + u"\n"_s;
    for (const ReportBlock& block : blocks) {
        md += u'\n';
        switch (block.kind) {
        case ReportBlock::Kind::Heading:
            md += u"## "_s + block.text + u'\n';
            break;
        case ReportBlock::Kind::Paragraph:
            md += block.text + u'\n';
            break;
        case ReportBlock::Kind::Table:
            md += block.text;
            if (!block.text.endsWith(u'\n'))
                md += u'\n';
            break;
        case ReportBlock::Kind::Chart:
            md += u"![%1](%2.png)\n\n%1 ([SVG](%2.svg))\n"_s.arg(block.text, block.image);
            break;
        }
    }
    return md;
}

QString ReportDocument::toHtml() const
{
    QString html = u"<!DOCTYPE html>\n"_s + marker()
        + u"\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
          "content=\"width=device-width, initial-scale=1\">\n<title>%1</title>\n<style>\n%2\n</style>\n</head>\n"
          "<body>\n<h1>%1</h1>\n"_s.arg(title.toHtmlEscaped(), QString::fromUtf8(kCss));
    for (const ReportBlock& block : blocks) {
        switch (block.kind) {
        case ReportBlock::Kind::Heading:
            html += u"<h2>"_s + inlineHtml(block.text) + u"</h2>\n"_s;
            break;
        case ReportBlock::Kind::Paragraph:
            html += u"<p>"_s + inlineHtml(block.text) + u"</p>\n"_s;
            break;
        case ReportBlock::Kind::Table: {
            const QString table = markdownTableToHtml(block.text);
            html += table.isEmpty() ? u"<pre>"_s + block.text.toHtmlEscaped() + u"</pre>\n"_s
                                    : u"<div class=\"table\">\n"_s + table + u"</div>\n"_s;
            break;
        }
        case ReportBlock::Kind::Chart: {
            const QString caption = block.text.toHtmlEscaped();
            const QString image = block.image.toHtmlEscaped();
            html += u"<figure>\n<img src=\"%1.svg\" alt=\"%2\">\n<figcaption>%2 (<a href=\"%1.png\">PNG</a>, "
                    "<a href=\"%1.svg\">SVG</a>)</figcaption>\n</figure>\n"_s.arg(image, caption);
            break;
        }
        }
    }
    html += u"</body>\n</html>\n"_s;
    return html;
}

QString markdownTableToHtml(const QString& table)
{
    const QStringList lines = table.split(u'\n', Qt::SkipEmptyParts);
    if (lines.size() < 2)
        return {};
    const QStringList header = splitRow(lines[0]);
    const QStringList separator = splitRow(lines[1]);
    if (header.isEmpty() || separator.size() != header.size())
        return {};
    QList<bool> right;
    for (const QString& s : separator) {
        if (s.isEmpty() || !std::all_of(s.begin(), s.end(), [](QChar c) { return c == u'-' || c == u':'; }))
            return {};
        right << s.endsWith(u':');
    }
    const auto cellTag = [&right](const char* tag, qsizetype column, const QString& text) {
        const QString name = QLatin1String(tag);
        return u"<%1%2>%3</%1>"_s.arg(name, right.value(column) ? u" class=\"r\""_s : QString(), text.toHtmlEscaped());
    };
    QString html = u"<table>\n<thead><tr>"_s;
    for (qsizetype c = 0; c < header.size(); ++c)
        html += cellTag("th", c, header[c]);
    html += u"</tr></thead>\n<tbody>\n"_s;
    for (qsizetype l = 2; l < lines.size(); ++l) {
        const QStringList cells = splitRow(lines[l]);
        if (cells.isEmpty())
            return {};
        html += u"<tr>"_s;
        for (qsizetype c = 0; c < header.size(); ++c)
            html += cellTag("td", c, cells.value(c));
        html += u"</tr>\n"_s;
    }
    html += u"</tbody>\n</table>\n"_s;
    return html;
}

QString markdownTable(const QStringList& header, const QList<QStringList>& rows, const QList<bool>& rightAligned)
{
    const auto line = [](const QStringList& cells) -> QString {
        QString text = u"|"_s;
        for (const QString& cell : cells)
            text += u' ' + QString::fromStdString(markdownCell(cell.toStdString())) + u" |"_s;
        return text + u'\n';
    };
    QString md = line(header) + u'|';
    for (qsizetype c = 0; c < header.size(); ++c)
        md += rightAligned.value(c) ? u" --: |"_s : u" --- |"_s;
    md += u'\n';
    for (const QStringList& row : rows)
        md += line(row);
    return md;
}

} // namespace structscope::cli
