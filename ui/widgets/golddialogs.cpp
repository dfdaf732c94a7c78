// SPDX-License-Identifier: Apache-2.0
#include "widgets/golddialogs.h"

#include "json/parseladder.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

QString prettyJson(const json& value)
{
    return QString::fromStdString(value.dump(2, ' ', false, json::error_handler_t::replace));
}

QPlainTextEdit* jsonPane(const QString& text, QWidget* parent)
{
    auto* pane = new QPlainTextEdit(parent);
    pane->setReadOnly(true);
    pane->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    pane->setPlainText(text);
    return pane;
}

QString revisionCaption(const GoldRevision& revision)
{
    return QObject::tr("Revision %1 by %2, %3\nReason: %4")
        .arg(revision.revision)
        .arg(revision.author.isEmpty() ? QObject::tr("(unknown)") : revision.author,
            QLocale().toString(revision.createdAt.toLocalTime(), QLocale::ShortFormat),
            revision.reason.isEmpty() ? QObject::tr("(none)") : revision.reason);
}

} // namespace

std::optional<QString> askEditReason(QWidget* parent, const QString& summary)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Reason for the gold change"));
    auto* label = new QLabel(summary, &dialog);
    label->setTextFormat(Qt::PlainText); // gold values and paths, never markup
    label->setWordWrap(true);
    auto* reason = new QLineEdit(&dialog);
    reason->setObjectName(u"reasonEdit"_s);
    reason->setPlaceholderText(QObject::tr("e.g. the email states the corrected date"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    QObject::connect(reason, &QLineEdit::textChanged, &dialog, [buttons](const QString& text) {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(!text.trimmed().isEmpty());
    });
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(label);
    layout->addWidget(new QLabel(QObject::tr("Reason (kept in the audit log):"), &dialog));
    layout->addWidget(reason);
    layout->addWidget(buttons);
    dialog.resize(480, dialog.sizeHint().height());
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return reason->text().trimmed();
}

void showEditRefused(QWidget* parent, const GoldEditOutcome& outcome)
{
    const bool invalid = outcome.status == GoldEditOutcome::Status::Invalid;
    auto* box = new QMessageBox(QMessageBox::Warning, QObject::tr("Gold not saved"),
        invalid ? QObject::tr("The edit was refused; nothing was saved.")
                : QObject::tr("The store could not be written."),
        QMessageBox::Close, parent);
    box->setObjectName(u"editRefusedBox"_s);
    QStringList lines;
    if (!outcome.message.isEmpty())
        lines << outcome.message;
    for (const SchemaError& e : outcome.schemaErrors)
        lines << u"%1: %2"_s.arg(QString::fromStdString(e.pointer.empty() ? std::string("/") : e.pointer),
            QString::fromStdString(e.message));
    box->setInformativeText(lines.join(u'\n'));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

GoldConflictDialog::GoldConflictDialog(const GoldEditOutcome& outcome, QWidget* parent)
    : QDialog(parent)
    , m_theirs(jsonPane(prettyJson(outcome.theirs.gold), this))
    , m_mine(jsonPane(prettyJson(outcome.mine.gold), this))
{
    setObjectName(u"goldConflictDialog"_s);
    setWindowTitle(tr("Gold changed meanwhile"));
    auto* intro = new QLabel(tr("%1 saved revision %2 of this case's gold after you opened it. Your edit was not "
                                "saved; nothing was overwritten. Compare both versions, then edit the newer one if "
                                "your change still applies.")
                                 .arg(outcome.theirs.author.isEmpty() ? tr("Someone else") : outcome.theirs.author)
                                 .arg(outcome.theirs.revision),
        this);
    intro->setWordWrap(true);
    // Authors and reasons come from the store, which others write: shown as text, never as markup.
    const auto plain = [this](const QString& text) {
        auto* label = new QLabel(text, this);
        label->setTextFormat(Qt::PlainText);
        return label;
    };
    intro->setTextFormat(Qt::PlainText);
    auto* grid = new QGridLayout;
    grid->addWidget(new QLabel(tr("<b>Theirs (saved)</b>"), this), 0, 0);
    grid->addWidget(new QLabel(tr("<b>Yours (not saved)</b>"), this), 0, 1);
    grid->addWidget(plain(revisionCaption(outcome.theirs)), 1, 0);
    grid->addWidget(plain(tr("Reason: %1").arg(outcome.mine.reason)), 1, 1);
    grid->addWidget(m_theirs, 2, 0);
    grid->addWidget(m_mine, 2, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(grid, 1);
    layout->addWidget(buttons);
    resize(820, 520);
}

QString GoldConflictDialog::theirsText() const
{
    return m_theirs->toPlainText();
}

QString GoldConflictDialog::mineText() const
{
    return m_mine->toPlainText();
}

GoldObjectDialog::GoldObjectDialog(const QString& caseLabel, const json& gold, QWidget* parent)
    : QDialog(parent)
    , m_text(new QPlainTextEdit(this))
    , m_reason(new QLineEdit(this))
    , m_status(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(u"goldObjectDialog"_s);
    setWindowTitle(tr("Edit gold of %1").arg(caseLabel));
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlainText(prettyJson(gold));
    m_reason->setPlaceholderText(tr("Why the gold changes (kept in the audit log)"));
    auto* form = new QFormLayout;
    form->addRow(tr("Reason:"), m_reason);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_status);
    layout->addLayout(form);
    layout->addWidget(m_buttons);
    connect(m_text, &QPlainTextEdit::textChanged, this, &GoldObjectDialog::check);
    connect(m_reason, &QLineEdit::textChanged, this, &GoldObjectDialog::check);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(640, 560);
    check();
}

QString GoldObjectDialog::reason() const
{
    return m_reason->text().trimmed();
}

void GoldObjectDialog::setText(const QString& text)
{
    m_text->setPlainText(text);
}

void GoldObjectDialog::check()
{
    const QByteArray utf8 = m_text->toPlainText().toUtf8();
    JsonParseError error;
    const bool parses
        = parseJsonDocument(std::string_view(utf8.constData(), std::size_t(utf8.size())), m_parsed, error);
    m_status->setText(parses ? tr("Valid JSON. The schema is checked when you save.")
                             : tr("Line %1, column %2: %3")
                                   .arg(error.line)
                                   .arg(error.column)
                                   .arg(QString::fromStdString(error.message)));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(parses && !reason().isEmpty());
}

} // namespace structscope
