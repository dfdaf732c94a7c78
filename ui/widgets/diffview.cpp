// SPDX-License-Identifier: Apache-2.0
#include "widgets/diffview.h"

#include "json/leafpaths.h"

#include "analysis/metricformat.h"
#include "charts/diffpalette.h"
#include "models/diffrowsmodel.h"
#include "store/resultstore.h"
#include "widgets/difflegend.h"
#include "widgets/golddialogs.h"
#include "workspace/goldeditservice.h"
#include "workspace/workspace.h"
#include "json/sourcehighlights.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextBlock>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

QString answerLabel(const CaseRef& ref)
{
    return u"%1 · %2 · #%3"_s.arg(displayModelName(ref.model, ref.simulated), ref.strategy).arg(ref.repeat);
}

QAction* makeAction(QWidget* owner, const QString& text, const QKeySequence& key, const QString& name)
{
    auto* action = new QAction(text, owner);
    action->setObjectName(name);
    if (!key.isEmpty())
        action->setShortcut(key);
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    owner->addAction(action);
    return action;
}

} // namespace

DiffView::DiffView(Workspace* workspace, QWidget* parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_service(GoldEditService::of(workspace))
    , m_header(new QLabel(this))
    , m_answers(new QComboBox(this))
    , m_tabs(new QTabWidget(this))
    , m_source(new QPlainTextEdit(this))
    , m_raw(new QPlainTextEdit(this))
    , m_rawInfo(new QLabel(this))
    , m_rows(new DiffRowsModel(this))
    , m_table(new QTableView(this))
    , m_legend(new DiffLegend(this))
    , m_schemaErrors(new QListWidget(this))
    , m_hint(new QLabel(this))
{
    setObjectName(u"diffView"_s);
    m_pool.setMaxThreadCount(1);
    m_askReason = [this](const QString& summary) { return askEditReason(this, summary); };
    m_askGold = [this](const CaseDetail& detail) -> std::optional<std::pair<json, QString>> {
        GoldObjectDialog dialog(caseLabel(), detail.currentGold, this);
        if (dialog.exec() != QDialog::Accepted)
            return std::nullopt;
        return std::pair(dialog.gold(), dialog.reason());
    };

    m_header->setObjectName(u"diffHeader"_s);
    m_header->setTextFormat(Qt::RichText);
    // Wrapped: a case id of 64 hex digits and a long model name would otherwise widen the whole window.
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_answers->setObjectName(u"answersCombo"_s);
    m_answers->setToolTip(tr("Every model's answer to this case"));
    m_answers->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (QPlainTextEdit* pane : { m_source, m_raw }) {
        pane->setReadOnly(true);
        pane->setFont(fixed);
    }
    m_source->setObjectName(u"sourceText"_s);
    m_source->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_raw->setObjectName(u"rawText"_s);
    m_rawInfo->setWordWrap(true);
    m_rawInfo->setObjectName(u"rawInfo"_s);
    m_rawInfo->setTextFormat(Qt::RichText);
    auto* rawPage = new QWidget(this);
    auto* rawLayout = new QVBoxLayout(rawPage);
    rawLayout->setContentsMargins(0, 0, 0, 0);
    rawLayout->addWidget(m_rawInfo);
    rawLayout->addWidget(m_raw, 1);
    m_tabs->addTab(m_source, tr("Source text"));
    m_tabs->addTab(rawPage, tr("Raw response"));

    m_rows->setPalette(palette());
    m_table->setObjectName(u"diffTable"_s);
    m_table->setModel(m_rows);
    m_table->setFont(fixed);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(DiffRowsModel::Key, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(DiffRowsModel::Gold, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(DiffRowsModel::Prediction, QHeaderView::Stretch);
    m_schemaErrors->setObjectName(u"schemaErrors"_s);
    m_schemaErrors->setMaximumHeight(90);
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    m_hint->setWordWrap(true);

    m_previous
        = makeAction(this, tr("Previous difference"), QKeySequence(Qt::SHIFT | Qt::Key_F8), u"previousDifference"_s);
    m_next = makeAction(this, tr("Next difference"), QKeySequence(Qt::Key_F8), u"nextDifference"_s);
    m_editValue = makeAction(this, tr("Edit gold value"), QKeySequence(Qt::Key_F2), u"editGoldValue"_s);
    m_accept = makeAction(this, tr("Accept this value"), QKeySequence(Qt::CTRL | Qt::Key_Return), u"acceptValue"_s);
    m_editGold = makeAction(this, tr("Edit gold object…"), {}, u"editGoldObject"_s);
    m_undo = makeAction(this, tr("Undo gold edit"), QKeySequence::Undo, u"undoGoldEdit"_s);
    m_accept->setToolTip(tr("Replace the gold at the selected place with the prediction's value (Ctrl+Return)"));
    auto* toolbar = new QToolBar(this);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolbar->addActions({ m_previous, m_next });
    toolbar->addSeparator();
    toolbar->addActions({ m_editValue, m_accept, m_editGold, m_undo });

    auto* top = new QHBoxLayout;
    top->addWidget(m_header, 1);
    top->addWidget(new QLabel(tr("Answer:"), this));
    top->addWidget(m_answers);
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_table, 1);
    rightLayout->addWidget(m_legend);
    rightLayout->addWidget(m_schemaErrors);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_tabs);
    split->addWidget(right);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({ 400, 600 }); // scaled to the width it gets: 2 : 3
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(toolbar);
    layout->addWidget(split, 1);
    layout->addWidget(m_hint);

    connect(m_next, &QAction::triggered, this, &DiffView::nextDifference);
    connect(m_previous, &QAction::triggered, this, &DiffView::previousDifference);
    connect(m_accept, &QAction::triggered, this, &DiffView::acceptSelectedValue);
    connect(m_editGold, &QAction::triggered, this, &DiffView::editWholeGold);
    connect(m_editValue, &QAction::triggered, this, [this] {
        const QModelIndex index = m_rows->index(currentRow(), DiffRowsModel::Gold);
        if (index.isValid() && (m_rows->flags(index) & Qt::ItemIsEditable))
            m_table->edit(index);
    });
    connect(m_undo, &QAction::triggered, this, [this] {
        if (m_service->undo())
            ++m_pendingEdits;
    });
    connect(m_service, &GoldEditService::undoAvailableChanged, this, &DiffView::updateActions);
    connect(m_service, &GoldEditService::editFinished, this,
        [this](GoldEditService::Action, const GoldEditOutcome& outcome) {
            if (m_pendingEdits > 0) {
                --m_pendingEdits;
                editOutcome(outcome);
            }
        });
    connect(m_rows, &DiffRowsModel::goldEditRequested, this,
        [this](const QString& pointer, const json& value) { requestLeafEdit(pointer.toStdString(), value); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        updateHighlights();
        updateActions();
    });
    connect(m_schemaErrors, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        const int row = m_rows->rowOfPointer(item->data(Qt::UserRole).toString().toStdString());
        if (row >= 0)
            selectRow(row);
    });
    connect(m_answers, &QComboBox::activated, this, [this](int index) {
        const CaseRef ref = m_answers->itemData(index).value<CaseRef>();
        if (ref.isValid() && !(ref == m_ref)) {
            m_ref = ref;
            reload();
            Q_EMIT answerChosen(ref);
        }
    });
    // A stored gold edit (here or on another page) changes what this response is scored against.
    // Another case's gold edit changes nothing shown here: reading and scoring this one again would only take a core
    // from that edit's re-scoring.
    connect(workspace, &Workspace::dataChanged, this, [this] {
        if (!m_ref.isValid() || !m_workspace->isOpen())
            return;
        const std::optional<QSet<qint64>>& goldOnly = m_workspace->goldOnlyChangedCases();
        if (goldOnly && !m_loading && m_detail && m_detail->ok() && m_detail->ref == m_ref
            && !goldOnly->contains(m_detail->caseRecord.row))
            return;
        reload();
    });
    clear();
}

DiffView::~DiffView()
{
    m_pool.waitForDone();
}

QList<QAction*> DiffView::diffActions() const
{
    return { m_previous, m_next, m_editValue, m_accept, m_editGold, m_undo };
}

void DiffView::showResponse(const CaseRef& ref, GoldBasis basis, const QList<CaseRef>& answers)
{
    m_ref = ref;
    m_basis = basis;
    m_answers->clear();
    for (const CaseRef& answer : answers)
        m_answers->addItem(answerLabel(answer), QVariant::fromValue(answer));
    if (m_answers->findData(QVariant::fromValue(ref)) < 0)
        m_answers->insertItem(0, answerLabel(ref), QVariant::fromValue(ref));
    reload();
}

void DiffView::clear(const QString& placeholder)
{
    ++m_generation;
    m_ref = {};
    m_detail = nullptr;
    m_loading = false;
    m_differenceRows.clear();
    m_answers->clear();
    m_rows->setRows({});
    m_source->clear();
    m_raw->clear();
    m_rawInfo->clear();
    m_schemaErrors->clear();
    m_schemaErrors->hide();
    m_header->setText(
        placeholder.isEmpty() ? tr("Select a response to compare it with its gold.") : placeholder.toHtmlEscaped());
    m_hint->clear();
    updateActions();
}

void DiffView::reload()
{
    const quint64 generation = ++m_generation;
    m_loading = true;
    const QString location = m_workspace->location();
    const CaseRef ref = m_ref;
    const GoldBasis basis = m_basis;
    QtConcurrent::run(&m_pool, [location, ref, basis] {
        auto detail = std::make_shared<CaseDetail>();
        ResultStore::OpenOptions options;
        options.readOnly = true;
        options.createIfMissing = false;
        options.integrityCheck = false;
        StoreError error;
        auto store = ResultStore::open(location, options, &error);
        if (!store) {
            detail->ref = ref;
            detail->error = error.message;
        } else {
            *detail = loadCaseDetail(*store, ref, basis);
        }
        return CaseDetailPtr(detail);
    }).then(this, [this, generation](const CaseDetailPtr& detail) {
        if (generation != m_generation)
            return; // another response was picked meanwhile
        m_loading = false;
        apply(detail);
        Q_EMIT detailLoaded();
    });
}

QString DiffView::caseLabel() const
{
    return m_ref.suite + u'/' + m_ref.caseId;
}

void DiffView::apply(const CaseDetailPtr& detail)
{
    const int keepRow = m_detail && m_detail->ref == detail->ref ? currentRow() : -1;
    m_detail = detail;
    m_schemaErrors->clear();
    if (!detail->ok()) {
        m_rows->setRows({});
        m_differenceRows.clear();
        m_source->clear();
        m_raw->clear();
        m_header->setText(tr("<b>%1</b> — %2").arg(caseLabel().toHtmlEscaped(), detail->error.toHtmlEscaped()));
        updateActions();
        return;
    }
    const Verdict& v = detail->verdict;
    // Rich text: every interpolated value is escaped (model, strategy and case ids come from imported files).
    m_header->setText(
        tr("<b>%1</b> · %2 · %3 · repeat %4 — <b>%5</b> · parsed: %6")
            .arg(caseLabel().toHtmlEscaped(), displayModelName(m_ref.model, m_ref.simulated).toHtmlEscaped(),
                m_ref.strategy.toHtmlEscaped())
            .arg(m_ref.repeat)
            .arg(QString::fromLatin1(ladderLabelId(v.ladder)).replace(u'_', u' ').toHtmlEscaped(),
                QString::fromLatin1(parseRungId(v.rung)).toHtmlEscaped()));
    m_answers->setCurrentIndex(m_answers->findData(QVariant::fromValue(m_ref)));

    const bool current = detail->goldRevision == detail->currentRevision;
    m_rows->setHeaders(tr("Gold (revision %1%2)")
                           .arg(detail->goldRevision)
                           .arg(detail->basis == GoldBasis::Measured ? tr(", as measured") : QString()),
        tr("Prediction (%1)").arg(displayModelName(m_ref.model, m_ref.simulated)));
    m_rows->setEditable(current);
    m_rows->setRows(detail->rows);
    m_differenceRows = differenceRows(detail->rows);
    if (const int fieldRow = rowOfField(detail->rows, m_focusField); fieldRow >= 0)
        selectRow(fieldRow);
    const int count = int(m_differenceRows.size());
    m_hint->setText(current ? (count == 0          ? tr("No differences.")
                                      : count == 1 ? tr("1 difference.")
                                                   : tr("%1 differences.").arg(count))
                + tr(" F8 / Shift+F8: next / previous; F2 edits the gold value; Ctrl+Return accepts "
                     "the prediction's value.")
                            : tr("Showing the gold as measured (revision %1); the current gold is revision %2. "
                                 "Switch to the adjusted gold to edit it.")
                                  .arg(detail->goldRevision)
                                  .arg(detail->currentRevision));

    QString input = detail->caseRecord.input;
    input.replace(u"\r\n"_s, u"\n"_s);
    if (detail->caseRecord.question)
        input = tr("Question: %1\n\n").arg(*detail->caseRecord.question) + input;
    m_source->setPlainText(input);
    m_raw->setPlainText(detail->response.rawText);
    QStringList info;
    info << tr("Parse rung: <b>%1</b>").arg(QString::fromLatin1(parseRungId(v.rung)));
    if (!v.parseReason.empty())
        info << QString::fromStdString(v.parseReason).toHtmlEscaped();
    if (detail->sobEncoded)
        info << tr("imported from SOB: the stored candidate, JSON-encoded");
    if (!detail->response.errorKind.isEmpty())
        info << tr("call failed: %1 %2")
                    .arg(detail->response.errorKind.toHtmlEscaped(), detail->response.errorMessage.toHtmlEscaped());
    if (detail->response.httpStatus)
        info << tr("HTTP %1").arg(detail->response.httpStatus);
    if (detail->response.latencyMs)
        info << formatMetricValue("ladder.latency_p50", *detail->response.latencyMs).toHtmlEscaped();
    if (detail->response.cost)
        info << formatMetricValue("ladder.cost_per_success", *detail->response.cost).toHtmlEscaped();
    m_rawInfo->setText(info.join(u" · "_s));
    if (detail->jsonLength > 0 && !detail->sobEncoded) {
        // The ladder's offsets are UTF-8 bytes; the editor counts UTF-16 units.
        const QByteArray raw = detail->response.rawText.toUtf8();
        const int start = int(QString::fromUtf8(raw.left(qsizetype(detail->jsonOffset))).size());
        const int length
            = int(QString::fromUtf8(raw.mid(qsizetype(detail->jsonOffset), qsizetype(detail->jsonLength))).size());
        QTextEdit::ExtraSelection selection;
        selection.cursor = QTextCursor(m_raw->document());
        selection.cursor.setPosition(start);
        selection.cursor.setPosition(start + length, QTextCursor::KeepAnchor);
        selection.format.setBackground(DiffPalette::predictedHighlight(palette(), false));
        m_raw->setExtraSelections({ selection });
    }

    for (const SchemaError& e : v.schemaErrors) {
        const QString pointer = QString::fromStdString(e.pointer);
        auto* item = new QListWidgetItem(
            u"%1  %2"_s.arg(pointer.isEmpty() ? u"/"_s : pointer, QString::fromStdString(e.message)), m_schemaErrors);
        item->setData(Qt::UserRole, pointer);
    }
    m_schemaErrors->setVisible(!v.schemaErrors.empty());
    if (keepRow >= 0 && keepRow < m_rows->rowCount())
        selectRow(keepRow);
    else if (!m_differenceRows.empty())
        selectRow(m_differenceRows.front());
    else
        updateHighlights();
    updateActions();
}

int DiffView::currentRow() const
{
    return m_table->selectionModel()->currentIndex().row();
}

void DiffView::setFocusField(const QString& field)
{
    m_focusField = field;
    if (m_detail) {
        if (const int row = rowOfField(m_detail->rows, field); row >= 0)
            selectRow(row);
    }
}

int DiffView::rowOfField(const std::vector<AlignedRow>& rows, const QString& field)
{
    if (field.isEmpty())
        return -1;
    const std::string wanted = field.toStdString();
    int first = -1;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const AlignedRow& row = rows[i];
        if (!row.gold || row.goldIsContainer() || wildcardPath(row.path) != wanted)
            continue;
        if (row.mark != DiffMark::Same)
            return int(i);
        if (first < 0)
            first = int(i);
    }
    return first;
}

void DiffView::selectRow(int row)
{
    const QModelIndex index = m_rows->index(row, DiffRowsModel::Gold);
    if (!index.isValid())
        return;
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
}

void DiffView::nextDifference()
{
    const int row = stepDifference(m_differenceRows, currentRow(), true);
    if (row >= 0)
        selectRow(row);
}

void DiffView::previousDifference()
{
    const int row = stepDifference(m_differenceRows, currentRow() < 0 ? m_rows->rowCount() : currentRow(), false);
    if (row >= 0)
        selectRow(row);
}

void DiffView::updateHighlights()
{
    if (!m_detail || !m_detail->ok()) {
        m_source->setExtraSelections({});
        return;
    }
    const std::vector<TextSpan> spans
        = findValueSpans(m_source->toPlainText(), diffNeedles(m_detail->rows, currentRow()));
    QList<QTextEdit::ExtraSelection> selections;
    int firstSelected = -1;
    for (const TextSpan& span : spans) {
        QTextEdit::ExtraSelection selection;
        selection.cursor = QTextCursor(m_source->document());
        selection.cursor.setPosition(span.start);
        selection.cursor.setPosition(span.start + span.length, QTextCursor::KeepAnchor);
        const bool selected = span.tag == SelectedGold || span.tag == SelectedPredicted;
        const bool gold = span.tag == SelectedGold || span.tag == GoldValue;
        selection.format.setBackground(gold ? DiffPalette::goldHighlight(palette(), selected)
                                            : DiffPalette::predictedHighlight(palette(), selected));
        if (selected) {
            selection.format.setFontUnderline(true);
            if (firstSelected < 0)
                firstSelected = span.start;
        }
        selections << selection;
    }
    m_source->setExtraSelections(selections);
    if (firstSelected >= 0) {
        QTextCursor cursor(m_source->document());
        cursor.setPosition(firstSelected);
        m_source->setTextCursor(cursor);
        m_source->ensureCursorVisible();
    }
}

void DiffView::updateActions()
{
    const bool shown = m_detail && m_detail->ok();
    const bool editable = shown && m_rows->isEditable();
    const AlignedRow* row = m_rows->rowAt(currentRow());
    m_next->setEnabled(!m_differenceRows.empty());
    m_previous->setEnabled(!m_differenceRows.empty());
    m_editValue->setEnabled(editable && row && !row->goldIsContainer());
    m_accept->setEnabled(
        editable && row && m_detail->predicted && !(row->gold && row->predicted && *row->gold == *row->predicted));
    m_editGold->setEnabled(editable);
    m_undo->setEnabled(m_service->canUndo());
}

void DiffView::acceptSelectedValue()
{
    const AlignedRow* row = m_rows->rowAt(currentRow());
    if (!row || !m_detail || !m_detail->predicted)
        return;
    requestLeafEdit(row->pointer, row->predicted);
}

void DiffView::requestLeafEdit(const std::string& pointer, const std::optional<json>& value)
{
    if (!m_detail || !m_detail->ok() || !m_rows->isEditable())
        return;
    const QString place = pointer.empty() ? tr("the whole gold") : QString::fromStdString(pointer);
    const QString summary = value
        ? tr("Case %1: set %2 to %3.").arg(caseLabel(), place, QString::fromStdString(value->dump()))
        : tr("Case %1: remove %2 from the gold.").arg(caseLabel(), place);
    const std::optional<QString> reason = m_askReason(summary);
    if (!reason || reason->trimmed().isEmpty())
        return;
    LeafEdit edit;
    edit.caseRow = m_detail->caseRecord.row;
    edit.pointer = pointer;
    edit.value = value;
    edit.reason = reason->trimmed();
    edit.basedOnRevision = m_detail->currentRevision;
    ++m_pendingEdits;
    m_service->submitLeaf(edit);
}

void DiffView::editWholeGold()
{
    if (!m_detail || !m_detail->ok() || !m_rows->isEditable())
        return;
    const auto answer = m_askGold(*m_detail);
    if (!answer || answer->second.trimmed().isEmpty())
        return;
    GoldEdit edit;
    edit.caseRow = m_detail->caseRecord.row;
    edit.gold = answer->first;
    edit.reason = answer->second.trimmed();
    edit.basedOnRevision = m_detail->currentRevision;
    ++m_pendingEdits;
    m_service->submitGold(edit);
}

void DiffView::editOutcome(const GoldEditOutcome& outcome)
{
    switch (outcome.status) {
    case GoldEditOutcome::Status::Added:
        m_hint->setText(tr("Saved gold revision %1. Every page re-scores.").arg(outcome.added.revision));
        break;
    case GoldEditOutcome::Status::Conflict: {
        auto* dialog = new GoldConflictDialog(outcome, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
        reload(); // show theirs
        break;
    }
    case GoldEditOutcome::Status::Invalid:
    case GoldEditOutcome::Status::Failed:
        showEditRefused(this, outcome);
        break;
    }
    Q_EMIT editFinished(outcome);
}

void DiffView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        m_rows->setPalette(palette());
        updateHighlights();
    }
}

} // namespace structscope
