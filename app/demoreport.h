// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace structscope::cli {

/// One piece of a report document.
struct ReportBlock
{
    enum class Kind { Heading, Paragraph, Table, Chart };
    Kind kind = Kind::Paragraph;
    /// Heading and paragraph: plain text (`code` spans allowed). Table: a GitHub pipe table. Chart: the
    /// caption.
    QString text;
    /// Chart: the picture's path relative to the report, without suffix ("charts/leaderboard"); a .png
    /// and a .svg of it are expected next to each other.
    QString image;
};

/// A report written once, then laid out as Markdown and as self-contained HTML (inline CSS) with the
/// same content: the tables come from the report writers' Markdown, never from a second table writer.
struct ReportDocument
{
    QString title;
    QList<ReportBlock> blocks;

    void heading(const QString& text) { blocks.append({ ReportBlock::Kind::Heading, text, {} }); }
    void paragraph(const QString& text) { blocks.append({ ReportBlock::Kind::Paragraph, text, {} }); }
    void table(const QString& markdown) { blocks.append({ ReportBlock::Kind::Table, markdown, {} }); }
    void chart(const QString& caption, const QString& image)
    {
        blocks.append({ ReportBlock::Kind::Chart, caption, image });
    }

    /// Both layouts begin with this comment: the demo recognises its own earlier report by it.
    static QString marker();
    QString toMarkdown() const;
    QString toHtml() const;
};

/// A GitHub pipe table (header, alignment row, body; `\|` and `\\` escaped, as writeReportMarkdown and
/// markdownCell write them) as an HTML table; columns aligned `--:` are right-aligned. Empty when the
/// text is not such a table.
QString markdownTableToHtml(const QString& table);

/// A pipe table of plain cells (escaped with markdownCell); `rightAligned` columns end in `--:`.
QString markdownTable(const QStringList& header, const QList<QStringList>& rows, const QList<bool>& rightAligned);

} // namespace structscope::cli
