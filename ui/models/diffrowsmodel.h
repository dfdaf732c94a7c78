// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "json/jsonalignment.h"

#include <QAbstractTableModel>
#include <QPalette>

#include <optional>
#include <vector>

namespace structscope {

/// Gold and prediction side by side, one row per aligned place (alignJson()): key | gold |
/// prediction, each row tinted by its difference kind. The gold column of a leaf is editable when
/// editing is on; an edit is not applied here but handed on with goldEditRequested(), because a gold
/// change needs a reason and schema validation before it is stored.
class DiffRowsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Key, Gold, Prediction, ColumnCount };
    enum Role {
        MarkRole = Qt::UserRole, ///< the row's DiffMark (int)
        PointerRole, ///< the row's JSON pointer (QString)
        ValueRole, ///< the cell's value as compact JSON ("" when absent)
    };

    explicit DiffRowsModel(QObject* parent = nullptr);

    void setRows(std::vector<AlignedRow> rows);
    const std::vector<AlignedRow>& rows() const { return m_rows; }
    const AlignedRow* rowAt(int row) const;
    /// The row of a pointer (gold-side first), or -1.
    int rowOfPointer(const std::string& pointer) const;
    /// The palette the tints are blended into (the view's).
    void setPalette(const QPalette& palette);
    void setEditable(bool editable);
    bool isEditable() const { return m_editable; }
    /// Column titles, e.g. "Gold (revision 2)".
    void setHeaders(const QString& gold, const QString& prediction);

    /// How a cell writes a value: JSON for leaves, "{ 3 keys }" / "[ 2 items ]" for containers.
    static QString valueText(const std::optional<nlohmann::json>& value);
    /// What an edited cell's text means: JSON when it parses as JSON, else the text as a string.
    static nlohmann::json parseEditText(const QString& text);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

Q_SIGNALS:
    /// The user typed a new gold value for the place at `pointer`.
    void goldEditRequested(const QString& pointer, const nlohmann::json& value);

private:
    bool cellEditable(const AlignedRow& row, int column) const;

    std::vector<AlignedRow> m_rows;
    QPalette m_palette;
    bool m_editable = false;
    QString m_goldHeader;
    QString m_predictionHeader;
};

} // namespace structscope
