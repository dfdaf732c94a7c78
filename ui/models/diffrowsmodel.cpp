// SPDX-License-Identifier: Apache-2.0
#include "models/diffrowsmodel.h"

#include "charts/diffpalette.h"
#include "json/parseladder.h"

#include <QFont>

using namespace Qt::StringLiterals;
using nlohmann::json;

namespace structscope {

DiffRowsModel::DiffRowsModel(QObject* parent)
    : QAbstractTableModel(parent)
    , m_goldHeader(tr("Gold"))
    , m_predictionHeader(tr("Prediction"))
{ }

void DiffRowsModel::setRows(std::vector<AlignedRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

const AlignedRow* DiffRowsModel::rowAt(int row) const
{
    return row >= 0 && std::size_t(row) < m_rows.size() ? &m_rows[std::size_t(row)] : nullptr;
}

int DiffRowsModel::rowOfPointer(const std::string& pointer) const
{
    int predictedOnly = -1;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].pointer != pointer)
            continue;
        if (m_rows[i].gold)
            return int(i);
        predictedOnly = int(i);
    }
    return predictedOnly;
}

void DiffRowsModel::setPalette(const QPalette& palette)
{
    m_palette = palette;
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), { Qt::BackgroundRole });
}

void DiffRowsModel::setEditable(bool editable)
{
    if (editable == m_editable)
        return;
    beginResetModel(); // flags change for every gold cell
    m_editable = editable;
    endResetModel();
}

void DiffRowsModel::setHeaders(const QString& gold, const QString& prediction)
{
    m_goldHeader = gold;
    m_predictionHeader = prediction;
    Q_EMIT headerDataChanged(Qt::Horizontal, Gold, Prediction);
}

QString DiffRowsModel::valueText(const std::optional<json>& value)
{
    if (!value)
        return {};
    const int size = int(value->size());
    if (value->is_object())
        return size == 0 ? u"{ }"_s : size == 1 ? tr("{ 1 key }") : tr("{ %1 keys }").arg(size);
    if (value->is_array())
        return size == 0 ? u"[ ]"_s : size == 1 ? tr("[ 1 item ]") : tr("[ %1 items ]").arg(size);
    return QString::fromStdString(value->dump(-1, ' ', false, json::error_handler_t::replace));
}

json DiffRowsModel::parseEditText(const QString& text)
{
    json value;
    std::string error;
    const QByteArray utf8 = text.trimmed().toUtf8();
    if (!utf8.isEmpty()
        && parseJsonDocument(std::string_view(utf8.constData(), std::size_t(utf8.size())), value, error))
        return value;
    return text.toStdString();
}

int DiffRowsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int DiffRowsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

bool DiffRowsModel::cellEditable(const AlignedRow& row, int column) const
{
    // Leaves only: a container is edited as a whole object. A place gold lacks can be added.
    return m_editable && column == Gold && !row.goldIsContainer() && !(row.depth == 0 && !row.gold);
}

QVariant DiffRowsModel::data(const QModelIndex& index, int role) const
{
    const AlignedRow* row = index.isValid() ? rowAt(index.row()) : nullptr;
    if (!row)
        return {};
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        if (column == Key) {
            const QString key = row->depth == 0 ? tr("(root)") : QString::fromStdString(row->key);
            return QString(QString(row->depth * 2, u' ') + key);
        }
        return valueText(column == Gold ? row->gold : row->predicted);
    case Qt::EditRole:
        if (column == Gold)
            return row->gold ? QString::fromStdString(row->gold->dump()) : QString();
        return data(index, Qt::DisplayRole);
    case Qt::BackgroundRole:
        if (row->mark == DiffMark::Same)
            return {};
        return DiffPalette::background(row->mark, m_palette);
    case Qt::FontRole:
        if (column == Key && (row->differenceBelow || row->mark != DiffMark::Same)) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ToolTipRole: {
        QString tip = QString::fromStdString(row->pointer.empty() ? std::string("/") : row->pointer);
        if (row->mark != DiffMark::Same) {
            tip += u"\n"_s + DiffPalette::label(row->mark);
            if (row->mark == DiffMark::Deviation)
                tip += u" (l = %1)"_s.arg(row->levenshtein, 0, 'f', 3);
            if (row->alsoMissingValue)
                tip += tr(", and a missing value");
        }
        if (cellEditable(*row, column))
            tip += tr("\nDouble-click or F2 to edit the gold value.");
        return tip;
    }
    case MarkRole:
        return int(row->mark);
    case PointerRole:
        return QString::fromStdString(row->pointer);
    case ValueRole: {
        const std::optional<json>& value = column == Prediction ? row->predicted : row->gold;
        return value ? QString::fromStdString(value->dump()) : QString();
    }
    default:
        return {};
    }
}

QVariant DiffRowsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Key:
        return tr("Key");
    case Gold:
        return m_goldHeader;
    case Prediction:
        return m_predictionHeader;
    case ColumnCount:
        break;
    }
    return {};
}

Qt::ItemFlags DiffRowsModel::flags(const QModelIndex& index) const
{
    const AlignedRow* row = index.isValid() ? rowAt(index.row()) : nullptr;
    if (!row)
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (cellEditable(*row, index.column()))
        f |= Qt::ItemIsEditable;
    return f;
}

bool DiffRowsModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    const AlignedRow* row = index.isValid() ? rowAt(index.row()) : nullptr;
    if (!row || role != Qt::EditRole || !cellEditable(*row, index.column()))
        return false;
    const json parsed = parseEditText(value.toString());
    if (row->gold && *row->gold == parsed)
        return false;
    Q_EMIT goldEditRequested(QString::fromStdString(row->pointer), parsed);
    // Nothing changes until the edit is stored and the case re-scored.
    return false;
}

} // namespace structscope
