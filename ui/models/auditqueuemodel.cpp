// SPDX-License-Identifier: Apache-2.0
#include "models/auditqueuemodel.h"

#include <QLocale>
#include <QRegularExpression>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

namespace {

QString jsonText(const json& value)
{
    return QString::fromStdString(value.dump(-1, ' ', false, json::error_handler_t::replace));
}

} // namespace

AuditQueueModel::AuditQueueModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void AuditQueueModel::setQueue(AuditQueuePtr queue)
{
    beginResetModel();
    m_queue = std::move(queue);
    m_marks.clear();
    if (m_queue) {
        for (const AuditItem& item : m_queue->items)
            m_marks.push_back(item.triage);
    }
    endResetModel();
}

const AuditItem* AuditQueueModel::itemAt(int row) const
{
    if (!m_queue || row < 0 || std::size_t(row) >= m_queue->items.size())
        return nullptr;
    return &m_queue->items[std::size_t(row)];
}

TriageMark AuditQueueModel::markAt(int row) const
{
    return row >= 0 && std::size_t(row) < m_marks.size() ? m_marks[std::size_t(row)] : TriageMark {};
}

bool AuditQueueModel::setTriage(qint64 caseRow, const std::string& path, const TriageMark& mark)
{
    bool found = false;
    for (int row = 0; row < rowCount(); ++row) {
        const AuditItem* item = itemAt(row);
        if (item->caseRow != caseRow || item->path != path)
            continue;
        m_marks[std::size_t(row)] = mark;
        Q_EMIT dataChanged(index(row, Triage), index(row, When));
        found = true;
    }
    return found;
}

QString AuditQueueModel::triageText(TriageState state)
{
    switch (state) {
    case TriageState::Open:
        return tr("open");
    case TriageState::GoldConfirmed:
        return tr("gold confirmed");
    case TriageState::Fixed:
        return tr("fixed");
    case TriageState::Dismissed:
        return tr("dismissed");
    }
    return {};
}

QString AuditQueueModel::kindText(FindingKind kind)
{
    switch (kind) {
    case FindingKind::Value:
        return tr("value");
    case FindingKind::MissingElement:
        return tr("gold lacks element");
    case FindingKind::ExtraElement:
        return tr("models lack element");
    case FindingKind::MergeSplit:
        return tr("merge/split");
    case FindingKind::Format:
        return tr("format");
    }
    return {};
}

QString AuditQueueModel::batchText(AuditBatch batch)
{
    switch (batch) {
    case AuditBatch::Backed:
        return tr("backed by the input");
    case AuditBatch::Unbacked:
        return tr("not backed by the input");
    case AuditBatch::Granularity:
        return tr("granularity");
    case AuditBatch::Format:
        return tr("format");
    }
    return {};
}

QString AuditQueueModel::batchToolTip(AuditBatch batch)
{
    switch (batch) {
    case AuditBatch::Backed:
        return tr("The case's input holds what the models say better than it holds the gold: the likeliest gold "
                  "errors, listed first.");
    case AuditBatch::Unbacked:
        return tr("The input holds the models' value no better than the gold's (both are in it, or neither): "
                  "often another reading of the text. Listed after the backed findings.");
    case AuditBatch::Granularity:
        return tr("The models cut the gold's list elements differently: usually both are faithful. A merge or "
                  "split suggests no change; an element split out of a gold element can still be inserted.");
    case AuditBatch::Format:
        return tr("The models write the gold's value another way (case, quotes, units, a date, words left out, "
                  "spacing): a gold error only under strict equality. Listed last.");
    }
    return {};
}

QString AuditQueueModel::groupText(const AuditGroup& group)
{
    const QString where = group.arrayPath.empty() ? tr("outside arrays") : QString::fromStdString(group.arrayPath);
    // The Case column beside it has the whole id; a hash (SOB's record ids: 64 hex digits) is cut to its first 8.
    static const QRegularExpression hash(u"^[0-9a-fA-F]{24,}$"_s);
    const QString id = hash.match(group.caseId).hasMatch() ? group.caseId.left(8) + u'…' : group.caseId;
    QString text = tr("case %1 · %2").arg(id, where);
    if (group.batch != AuditBatch::Backed)
        text = batchText(group.batch) + u" · "_s + text;
    return text;
}

QString AuditQueueModel::detailText(const AuditItem& item)
{
    const auto source = [](const SourceSnippet& s) { return s.found ? s.text : tr("(not found in the input)"); };
    QStringList lines;
    lines << describeAuditItem(item);
    if (item.kind != FindingKind::MissingElement)
        lines << tr("Gold in the source: %1").arg(source(item.goldSource));
    if (item.kind != FindingKind::ExtraElement && item.kind != FindingKind::MergeSplit)
        lines << tr("Consensus in the source: %1").arg(source(item.consensusSource));
    if (item.kind == FindingKind::MergeSplit)
        lines << tr("No single value to accept: edit the gold object if the models are right.");
    return lines.join(u'\n');
}

int AuditQueueModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_queue ? 0 : int(m_queue->items.size());
}

int AuditQueueModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AuditQueueModel::data(const QModelIndex& index, int role) const
{
    const AuditItem* item = index.isValid() ? itemAt(index.row()) : nullptr;
    if (!item)
        return {};
    const TriageMark& mark = m_marks[std::size_t(index.row())];
    if (role == GroupKeyRole)
        return QVariant::fromValue(
            GroupKey { { { "suite", item->suiteId.toStdString() }, { "case", item->caseId.toStdString() } } });
    if (role == TriageStateRole)
        return int(mark.state);
    if (role == KindRole)
        return int(item->kind);
    if (role == GroupRole)
        return item->group;
    if (role == DetailRole)
        return detailText(*item);
    const int column = index.column();
    if (role == Qt::ToolTipRole) {
        if (column == Triage || column == By || column == When)
            return mark.note.isEmpty() ? QVariant() : QVariant(mark.note);
        if (column == Group)
            return batchToolTip(item->batch);
        if (column == Models) {
            QStringList lines;
            for (const ModelAnswer& answer : item->answers)
                lines << answer.model + u": "_s + (answer.value ? jsonText(*answer.value) : tr("(absent)"));
            return lines.join(u'\n');
        }
        if (column == Gold && item->goldChanged)
            return tr("Originally %1").arg(jsonText(item->originalGold));
        if (column == Kind || column == Gold || column == Consensus)
            return detailText(*item);
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        if (column == Support || column == Agreement)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool display = role == Qt::DisplayRole;
    switch (Column(column)) {
    case Suite:
        return item->suiteId;
    case Case:
        return item->caseId;
    case Kind:
        return display ? QVariant(kindText(item->kind)) : QVariant(int(item->kind));
    case Group:
        if (!m_queue || item->group < 0 || std::size_t(item->group) >= m_queue->groups.size())
            return {};
        return display ? QVariant(groupText(m_queue->groups[std::size_t(item->group)])) : QVariant(item->group);
    case Category:
        return item->category;
    case Path:
        return QString::fromStdString(item->path);
    case Gold:
        if (item->gold)
            return jsonText(*item->gold);
        return item->kind == FindingKind::MissingElement ? tr("(none)") : tr("(removed)");
    case Consensus:
        return item->consensusAbsent ? tr("(absent)") : jsonText(item->consensus);
    case Support:
        return display ? QVariant(QLocale().toString(100.0 * item->support, 'f', 0) + u'%') : QVariant(item->support);
    case Agreement:
        return display ? QVariant(u"%1/%2"_s.arg(item->agreeing).arg(item->answered)) : QVariant(item->agreeing);
    case Models:
        return item->agreeingModels.join(u", "_s);
    case Triage:
        return display ? triageText(mark.state) : QVariant(int(mark.state));
    case By:
        return mark.author;
    case When:
        if (!mark.at.isValid())
            return display ? QVariant(QString()) : QVariant();
        return display ? QVariant(QLocale().toString(mark.at.toLocalTime(), QLocale::ShortFormat)) : QVariant(mark.at);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant AuditQueueModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const titles[] = { QT_TR_NOOP("Suite"), QT_TR_NOOP("Case"), QT_TR_NOOP("Finding"),
        QT_TR_NOOP("Group"), QT_TR_NOOP("Category"), QT_TR_NOOP("Path"), QT_TR_NOOP("Gold"), QT_TR_NOOP("Consensus"),
        QT_TR_NOOP("Support"), QT_TR_NOOP("Agree"), QT_TR_NOOP("Agreeing models"), QT_TR_NOOP("Triage"),
        QT_TR_NOOP("By"), QT_TR_NOOP("When") };
    return section >= 0 && section < ColumnCount ? tr(titles[section]) : QVariant();
}

} // namespace structscope
